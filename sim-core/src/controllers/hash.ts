/**
 * The `pod-template-hash` (Deployments) and `controller-revision-hash`
 * (DaemonSets) values, computed as upstream's `ComputeHash` computes them.
 *
 * Upstream feeds FNV-32a with a `go-spew` dump (`%#v`, sorted map keys) of
 * the whole Go `PodTemplateSpec` struct (every field, zero values and type
 * names included), then, when the Deployment has a collision count, the
 * count as 8 little-endian bytes (a uint32 written into an 8-byte slice),
 * and prints the 32-bit sum in decimal through `SafeEncodeString`.
 *
 * How close this gets: the FNV-32a, the collision-count bytes and the
 * encoding are upstream's, so hashes have the real shape (the decimal
 * digits of a uint32 mapped onto `bcdfghjklmnpqrstvwxz2456789`, e.g.
 * `7c5ddbdf54`, never vowels) and the real properties (equal templates hash
 * equal; a bumped collisionCount gives a new name). The bytes hashed are a
 * canonical JSON of the template (keys sorted, nulls and empty lists
 * dropped) instead of Go's struct dump, so the value for a given template
 * differs from what a real cluster prints.
 *
 * Mirrors pkg/controller/controller_utils.go (ComputeHash), golang/go
 * src/hash/fnv/fnv.go, staging/src/k8s.io/apimachinery/pkg/util/rand/rand.go
 * (SafeEncodeString).
 */
import { utf8Encode } from '../golang/utf8.ts';

/** FNV-1a 32-bit offset basis and prime (hash/fnv: offset32, prime32). */
const FNV32_OFFSET = 0x811c9dc5;
const FNV32_PRIME = 0x01000193;

/** FNV-1a over bytes, continuing from `hash` (hash/fnv New32a + Write). */
export function fnv32a(bytes: Iterable<number>, hash = FNV32_OFFSET): number {
	let h = hash >>> 0;
	for (const b of bytes) {
		h ^= b & 0xff;
		h = Math.imul(h, FNV32_PRIME) >>> 0;
	}
	return h >>> 0;
}

/** FNV-1 (multiply, then xor) over bytes, continuing from `hash` (hash/fnv New32 + Write): what ControllerRevision names hash with. */
export function fnv32(bytes: Iterable<number>, hash = FNV32_OFFSET): number {
	let h = hash >>> 0;
	for (const b of bytes) {
		h = Math.imul(h, FNV32_PRIME) >>> 0;
		h = (h ^ (b & 0xff)) >>> 0;
	}
	return h >>> 0;
}

/** The 27 characters `SafeEncodeString` maps onto: no vowels, no 0/1/3, so no words and no look-alikes. */
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each character of `s` replaced by SAFE_ALPHANUMS[codePoint % 27]. */
export function safeEncodeString(s: string): string {
	let out = '';
	for (const ch of s) out += SAFE_ALPHANUMS[(ch.codePointAt(0) ?? 0) % SAFE_ALPHANUMS.length];
	return out;
}

/**
 * JSON with object keys sorted and `null`/`undefined` values and empty
 * lists dropped, so semantically equal objects serialize equally (what
 * apimachinery's Semantic.DeepEqual treats as equal: nil and empty slices).
 */
export function canonicalJson(value: unknown): string {
	return JSON.stringify(canonicalize(value)) ?? 'null';
}

function canonicalize(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(canonicalize);
	if (value === null || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const key of Object.keys(value).sort()) {
		const item = (value as Record<string, unknown>)[key];
		if (item === null || item === undefined) continue;
		if (Array.isArray(item) && item.length === 0) continue;
		out[key] = canonicalize(item);
	}
	return out;
}

/** controller.ComputeHash(template, collisionCount). */
export function computeHash(template: unknown, collisionCount?: number): string {
	let h = fnv32a(utf8Encode(canonicalJson(template)));
	if (collisionCount !== undefined && collisionCount !== null) {
		// binary.LittleEndian.PutUint32 into an 8-byte slice: 4 value bytes, then 4 zeros.
		const c = collisionCount >>> 0;
		h = fnv32a([c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, (c >>> 24) & 0xff, 0, 0, 0, 0], h);
	}
	return safeEncodeString(String(h));
}
