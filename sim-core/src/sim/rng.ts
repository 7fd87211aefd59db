/**
 * The simulation's only source of randomness: a small, fast, seeded PRNG
 * (sfc32) whose whole state is four 32-bit words, so it snapshots as JSON.
 *
 * Each component gets its own stream, derived from the cluster seed and the
 * component's id, so adding a component (or a random draw inside one) never
 * shifts the numbers another component sees. This mirrors how TigerBeetle's
 * simulator splits its seed, and avoids raft's global-source pitfall.
 *
 * Mirrors nothing upstream: a seeded PRNG (PractRand's sfc32) in place of
 * the components' ambient randomness.
 */

/** Plain-JSON state of one stream. Owned by the kernel; never shared. */
export type RngState = [number, number, number, number];

/** FNV-1a over UTF-16 code units: turns a component id into 32 bits. */
function hashString32(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193) >>> 0;
	}
	return h >>> 0;
}

/** splitmix32: spreads a 32-bit seed into well-mixed words. */
function splitmix32(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x9e3779b9) >>> 0;
		let z = s;
		z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
		z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
		return (z ^ (z >>> 16)) >>> 0;
	};
}

/** The initial state of the stream named `name` under cluster seed `seed`. */
export function deriveRngState(seed: number, name: string): RngState {
	const next = splitmix32((seed >>> 0) ^ hashString32(name));
	const state: RngState = [next(), next(), next(), next()];
	// sfc32 must not start from all zeros.
	if (state.every((w) => w === 0)) state[3] = 1;
	return state;
}

/** A stream of pseudo-random numbers over a state the caller owns (mutated in place). */
export class Rng {
	constructor(readonly state: RngState) {}

	/** Next unsigned 32-bit integer (sfc32). */
	nextUint32(): number {
		const s = this.state;
		const t = (((s[0] + s[1]) >>> 0) + s[3]) >>> 0;
		s[3] = (s[3] + 1) >>> 0;
		s[0] = s[1] ^ (s[1] >>> 9);
		s[1] = (s[2] + (s[2] << 3)) >>> 0;
		s[2] = ((s[2] << 21) | (s[2] >>> 11)) >>> 0;
		s[2] = (s[2] + t) >>> 0;
		return t;
	}

	/** A float in [0, 1). */
	float(): number {
		return this.nextUint32() / 4294967296;
	}

	/** An integer in [0, n). */
	int(n: number): number {
		if (n <= 0) return 0;
		return Math.floor(this.float() * n);
	}

	/** `count` characters drawn from `alphabet`. */
	string(alphabet: string, count: number): string {
		let out = '';
		for (let i = 0; i < count; i++) out += alphabet[this.int(alphabet.length)];
		return out;
	}

	/** A random RFC 4122 version-4 UUID string, as Kubernetes gives objects. */
	uuid(): string {
		const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
		const a = this.nextUint32();
		const b = this.nextUint32();
		const c = this.nextUint32();
		const d = this.nextUint32();
		return `${hex(a, 8)}-${hex(b >>> 16, 4)}-${hex(((b & 0x0fff) | 0x4000) >>> 0, 4)}-${hex(((c >>> 16) & 0x3fff) | 0x8000, 4)}-${hex(c & 0xffff, 4)}${hex(d, 8)}`;
	}
}
