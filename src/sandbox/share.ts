/**
 * Share links: a URL fragment that reproduces a reader's sandbox session
 * exactly (scenario, seed and every input, replayed from scratch).
 *
 *   #sandbox=<scenario id>:<format><base64url payload>
 *
 * The scenario id is in clear so the page can find the sandbox it is for
 * before decoding anything. Format `z` is DEFLATE (raw) compressed JSON,
 * `j` the same JSON uncompressed (written where CompressionStream is
 * missing). The JSON is `{ v: 1, s: id, seed, i: [...] }` with each input
 * as a short tuple; runs of equal play slices are written once with a count.
 *
 * Decoding trusts nothing: the fragment's length is capped before anything
 * is decoded, the decompressed size is capped while decompressing (a small
 * link cannot expand into a large one), and every field is checked against
 * the schema below. Whatever is wrong gives a reason the island turns into
 * a message, and the scenario starts as its author wrote it.
 *
 * This module runs on the main thread and imports nothing from sim-core.
 */
import type { ClusterInput } from '@cluster-anatomy/sim-core';

export const SHARE_PREFIX = '#sandbox=';
export const SHARE_VERSION = 1;

export const SHARE_LIMITS = {
	/** Characters of the fragment after `#sandbox=`. */
	fragmentCharsMax: 65_536,
	/** Bytes of JSON after decompression. */
	jsonBytesMax: 1_048_576,
	/** Inputs after expanding runs. */
	inputsMax: 50_000,
	/** Virtual time the inputs may run the clock for in all: replaying it must stay quick. */
	virtualMsMax: 2 * 3_600_000,
	lineCharsMax: 4_096,
	textCharsMax: 65_536,
	/** Saves of one kubectl edit's editor (each invalid save reopens it). */
	editorSavesMax: 8,
} as const;

/** Why a link could not be used; each has a message in the catalogue (`sandbox.share.error.<reason>`). */
export type ShareProblem = 'corrupt' | 'too-large' | 'invalid' | 'version' | 'unsupported' | 'too-long';

export interface SharedSession {
	scenarioId: string;
	seed: number;
	inputs: ClusterInput[];
}

export type DecodedShare = ({ ok: true } & SharedSession) | { ok: false; problem: ShareProblem; scenarioId?: string };

/** Components a share link may stop or start: sim-core's `COMPONENTS` (a unit test keeps them equal). */
export const SHARE_COMPONENTS = ['kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager', 'cloud-controller-manager', 'kubelet', 'kube-proxy', 'container-runtime'] as const;

const SCENARIO_ID = /^[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9_-]*){0,7}$/;
const NODE_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

// ---- the fragment -----------------------------------------------------------------

/** The scenario id and payload of a share fragment, or undefined when the fragment is no share link. */
export function splitShareHash(hash: string): { scenarioId: string; payload: string } | undefined {
	if (!hash.startsWith(SHARE_PREFIX)) return undefined;
	const rest = hash.slice(SHARE_PREFIX.length);
	const colon = rest.lastIndexOf(':');
	if (colon < 0) return { scenarioId: '', payload: rest };
	let scenarioId = rest.slice(0, colon);
	try {
		scenarioId = decodeURIComponent(scenarioId);
	} catch {
		scenarioId = '';
	}
	return { scenarioId, payload: rest.slice(colon + 1) };
}

// ---- bytes ------------------------------------------------------------------------

export function toBase64Url(bytes: Uint8Array): string {
	let binary = '';
	for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
	return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url; undefined when the text is not base64url. */
export function fromBase64Url(text: string): Uint8Array | undefined {
	if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
	try {
		const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
		const bytes = new Uint8Array(binary.length);
		for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
		return bytes;
	} catch {
		return undefined;
	}
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
	const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Inflates at most `maxBytes`; throws 'too-large' past it and 'corrupt' on bad data. */
async function inflate(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
	const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) break;
			total += value.length;
			if (total > maxBytes) {
				await reader.cancel().catch(() => {});
				throw new ShareError('too-large');
			}
			chunks.push(value);
		}
	} catch (error) {
		if (error instanceof ShareError) throw error;
		throw new ShareError('corrupt');
	}
	const out = new Uint8Array(total);
	let at = 0;
	for (const chunk of chunks) {
		out.set(chunk, at);
		at += chunk.length;
	}
	return out;
}

class ShareError extends Error {
	constructor(readonly problem: ShareProblem) {
		super(problem);
	}
}

// ---- inputs as tuples ---------------------------------------------------------------

type Tuple = Array<string | number>;

/** Inputs as short tuples; equal consecutive advances become one tuple with a count. */
export function packInputs(inputs: readonly ClusterInput[]): Tuple[] {
	const out: Tuple[] = [];
	for (const input of inputs) {
		const last = out[out.length - 1];
		switch (input.kind) {
			case 'advance':
				if (last && last[0] === 'a' && last[1] === input.ms) last[2] = ((last[2] as number | undefined) ?? 1) + 1;
				else out.push(['a', input.ms]);
				break;
			case 'exec':
				// A kubectl edit: the line, what the editor opened with (0: the object as read when the line ran), each save.
				if (input.edit) out.push(['e', input.line, input.edit.opened ?? 0, ...input.edit.saves]);
				else out.push(input.stdin === undefined ? ['x', input.line] : ['x', input.line, input.stdin]);
				break;
			case 'settle':
				out.push(['s', input.maxMs]);
				break;
			case 'stop':
			case 'start':
				out.push(input.node === undefined ? [input.kind, input.component] : [input.kind, input.component, input.node]);
				break;
			case 'partition':
				out.push(['p', input.node]);
				break;
			case 'heal':
				out.push(['h', input.node]);
				break;
			case 'powerOff':
				out.push(['off', input.node]);
				break;
			case 'powerOn':
				out.push(['on', input.node]);
				break;
			case 'setClock':
				out.push(['clk', input.node, input.offsetMs]);
				break;
			case 'writeFile':
				out.push(input.host === undefined ? ['w', input.path, input.text] : ['w', input.path, input.text, input.host]);
				break;
		}
	}
	return out;
}

const isInt = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isText = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;

/** Checks and expands tuples; throws 'invalid' or 'too-long' (ShareError). */
export function unpackInputs(tuples: unknown): ClusterInput[] {
	if (!Array.isArray(tuples) || tuples.length > SHARE_LIMITS.inputsMax) throw new ShareError(Array.isArray(tuples) ? 'too-large' : 'invalid');
	const out: ClusterInput[] = [];
	let virtualMs = 0;
	const invalid = () => new ShareError('invalid');
	for (const t of tuples) {
		if (!Array.isArray(t) || t.length < 2) throw invalid();
		const [tag, a, b, c] = t as unknown[];
		switch (tag) {
			case 'a': {
				if (!isInt(a, 0, 86_400_000) || t.length > 3 || (b !== undefined && !isInt(b, 1, Number.MAX_SAFE_INTEGER))) throw invalid();
				const times = (b as number | undefined) ?? 1;
				if (out.length + times > SHARE_LIMITS.inputsMax) throw new ShareError('too-large');
				virtualMs += a * times;
				for (let k = 0; k < times; k++) out.push({ kind: 'advance', ms: a });
				break;
			}
			case 'x':
				if (!isText(a, SHARE_LIMITS.lineCharsMax) || t.length > 3 || (b !== undefined && !isText(b, SHARE_LIMITS.textCharsMax))) throw invalid();
				out.push(b === undefined ? { kind: 'exec', line: a } : { kind: 'exec', line: a, stdin: b as string });
				break;
			case 'e': {
				const saves = t.slice(3);
				if (!isText(a, SHARE_LIMITS.lineCharsMax) || !(b === 0 || isText(b, SHARE_LIMITS.textCharsMax)) || saves.length > SHARE_LIMITS.editorSavesMax || !saves.every((v) => isText(v, SHARE_LIMITS.textCharsMax))) throw invalid();
				out.push({ kind: 'exec', line: a, edit: { ...(b === 0 ? {} : { opened: b as string }), saves: saves as string[] } });
				break;
			}
			case 's':
				if (!isInt(a, 0, 3_600_000) || t.length > 2) throw invalid();
				virtualMs += a;
				out.push({ kind: 'settle', maxMs: a });
				break;
			case 'stop':
			case 'start':
				if (typeof a !== 'string' || !(SHARE_COMPONENTS as readonly string[]).includes(a) || t.length > 3 || (b !== undefined && !(typeof b === 'string' && NODE_NAME.test(b)))) throw invalid();
				out.push(b === undefined ? { kind: tag, component: a } : { kind: tag, component: a, node: b as string });
				break;
			case 'p':
			case 'h':
				if (typeof a !== 'string' || !NODE_NAME.test(a) || t.length > 2) throw invalid();
				out.push({ kind: tag === 'p' ? 'partition' : 'heal', node: a });
				break;
			case 'off':
			case 'on':
				if (typeof a !== 'string' || !NODE_NAME.test(a) || t.length > 2) throw invalid();
				out.push({ kind: tag === 'off' ? 'powerOff' : 'powerOn', node: a });
				break;
			case 'clk':
				// A whole number of ms within a century either way.
				if (typeof a !== 'string' || !NODE_NAME.test(a) || typeof b !== 'number' || !Number.isInteger(b) || Math.abs(b) > 100 * 365 * 86_400_000 || t.length > 3) throw invalid();
				out.push({ kind: 'setClock', node: a, offsetMs: b });
				break;
			case 'w':
				if (!isText(a, SHARE_LIMITS.lineCharsMax) || !isText(b, SHARE_LIMITS.textCharsMax) || t.length > 4 || (c !== undefined && !(typeof c === 'string' && NODE_NAME.test(c)))) throw invalid();
				out.push(c === undefined ? { kind: 'writeFile', path: a, text: b } : { kind: 'writeFile', path: a, text: b, host: c as string });
				break;
			default:
				throw invalid();
		}
		if (out.length > SHARE_LIMITS.inputsMax) throw new ShareError('too-large');
	}
	// Commands that wait (sleep, rollout status) run the clock too; their cost is bounded by sim-core.
	if (virtualMs > SHARE_LIMITS.virtualMsMax) throw new ShareError('too-long');
	return out;
}

/** Virtual time the inputs run the clock for (advances and settles). */
export function inputsVirtualMs(inputs: readonly ClusterInput[]): number {
	return inputs.reduce((n, i) => n + (i.kind === 'advance' ? i.ms : i.kind === 'settle' ? i.maxMs : 0), 0);
}

// ---- encode and decode --------------------------------------------------------------

/**
 * The fragment (with its leading `#`) that reproduces a session. Throws a
 * ShareProblem-carrying error when the session cannot be shared
 * ('too-long', 'too-large').
 */
export async function encodeShare(session: SharedSession): Promise<string> {
	if (inputsVirtualMs(session.inputs) > SHARE_LIMITS.virtualMsMax) throw new ShareError('too-long');
	const json = JSON.stringify({ v: SHARE_VERSION, s: session.scenarioId, seed: session.seed, i: packInputs(session.inputs) });
	const bytes = new TextEncoder().encode(json);
	if (bytes.length > SHARE_LIMITS.jsonBytesMax) throw new ShareError('too-large');
	const payload = typeof CompressionStream === 'function' ? 'z' + toBase64Url(await deflate(bytes)) : 'j' + toBase64Url(bytes);
	if (payload.length > SHARE_LIMITS.fragmentCharsMax) throw new ShareError('too-large');
	return `${SHARE_PREFIX}${session.scenarioId}:${payload}`;
}

/** The problem an error thrown by encodeShare stands for. */
export function shareProblemOf(error: unknown): ShareProblem | undefined {
	return error instanceof ShareError ? error.problem : undefined;
}

/** Decodes and checks a fragment (with its `#`). Never throws. */
export async function decodeShare(hash: string): Promise<DecodedShare> {
	const parts = splitShareHash(hash);
	if (!parts) return { ok: false, problem: 'invalid' };
	const scenarioId = SCENARIO_ID.test(parts.scenarioId) ? parts.scenarioId : undefined;
	const fail = (problem: ShareProblem): DecodedShare => (scenarioId ? { ok: false, problem, scenarioId } : { ok: false, problem });
	try {
		if (!scenarioId) return fail('invalid');
		if (parts.payload.length > SHARE_LIMITS.fragmentCharsMax) return fail('too-large');
		const format = parts.payload[0];
		const bytes = fromBase64Url(parts.payload.slice(1));
		if (!bytes || (format !== 'z' && format !== 'j')) return fail('corrupt');
		let json: Uint8Array;
		if (format === 'z') {
			if (typeof DecompressionStream !== 'function') return fail('unsupported');
			json = await inflate(bytes, SHARE_LIMITS.jsonBytesMax);
		} else {
			if (bytes.length > SHARE_LIMITS.jsonBytesMax) return fail('too-large');
			json = bytes;
		}
		let data: unknown;
		try {
			data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(json));
		} catch {
			return fail('corrupt');
		}
		if (!data || typeof data !== 'object' || Array.isArray(data)) return fail('invalid');
		const record = data as Record<string, unknown>;
		if (record.v !== SHARE_VERSION) return fail(typeof record.v === 'number' ? 'version' : 'invalid');
		const keys = Object.keys(record).sort().join(',');
		if (keys !== 'i,s,seed,v') return fail('invalid');
		if (record.s !== scenarioId) return fail('invalid');
		if (!isInt(record.seed, 0, 0xffffffff)) return fail('invalid');
		return { ok: true, scenarioId, seed: record.seed, inputs: unpackInputs(record.i) };
	} catch (error) {
		return fail(error instanceof ShareError ? error.problem : 'corrupt');
	}
}
