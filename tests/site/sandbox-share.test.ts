/**
 * Share links (src/sandbox/share.ts): what a session encodes to, that it
 * decodes back exactly, and that every kind of broken link is refused with
 * the right reason and nothing thrown.
 */
import { describe, expect, it } from 'vitest';
import { COMPONENTS, type ClusterInput } from '@cluster-anatomy/sim-core';
import { SHARE_COMPONENTS, SHARE_LIMITS, decodeShare, encodeShare, fromBase64Url, packInputs, shareProblemOf, splitShareHash, toBase64Url, unpackInputs } from '../../src/sandbox/share.ts';

const session = {
	scenarioId: 'start/overview',
	seed: 7,
	inputs: [
		{ kind: 'exec', line: 'kubectl create deployment web --image=nginx:1.27' },
		...Array.from({ length: 50 }, () => ({ kind: 'advance', ms: 600 }) as ClusterInput),
		{ kind: 'stop', component: 'kube-scheduler' },
		{ kind: 'stop', component: 'kubelet', node: 'node-1' },
		{ kind: 'partition', node: 'node-2' },
		{ kind: 'heal', node: 'node-2' },
		{ kind: 'powerOff', node: 'node-1' },
		{ kind: 'powerOn', node: 'node-1' },
		{ kind: 'setClock', node: 'node-2', offsetMs: -86_400_000 },
		{ kind: 'setClock', node: 'node-2', offsetMs: 0 },
		{ kind: 'exec', line: 'kubectl apply -f -', stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: 中文\n' },
		{ kind: 'settle', maxMs: 30_000 },
		{ kind: 'writeFile', path: '/tmp/x', text: 'hello', host: 'node-1' },
		{ kind: 'exec', line: 'kubectl edit deployment web', edit: { opened: 'spec:\n  replicas: 2\n', saves: ['spec:\n  replicas: x\n', 'spec:\n  replicas: 3\n'] } },
		{ kind: 'exec', line: 'kubectl edit service web', edit: { saves: [] } },
		{ kind: 'advance', ms: 10_000 },
	] as ClusterInput[],
};

/** A fragment for a hand-made JSON payload. */
function fragmentOf(json: unknown, scenarioId = 'start/overview'): string {
	return `#sandbox=${scenarioId}:j${toBase64Url(new TextEncoder().encode(JSON.stringify(json)))}`;
}

describe('share links', () => {
	it('round-trips a session exactly, compressed', async () => {
		const hash = await encodeShare(session);
		expect(hash.startsWith('#sandbox=start/overview:z')).toBe(true);
		expect(await decodeShare(hash)).toEqual({ ok: true, ...session });
	});

	it('writes runs of equal play slices once, with a count', () => {
		expect(packInputs(session.inputs).filter((t) => t[0] === 'a')).toEqual([
			['a', 600, 50],
			['a', 10_000],
		]);
		expect(unpackInputs(packInputs(session.inputs))).toEqual(session.inputs);
	});

	it('keeps a long play session short', async () => {
		const long = { ...session, inputs: Array.from({ length: 36_000 }, () => ({ kind: 'advance', ms: 100 }) as ClusterInput) };
		expect((await encodeShare(long)).length).toBeLessThan(120);
	});

	it('reads the uncompressed form too', async () => {
		const hash = fragmentOf({ v: 1, s: 'start/overview', seed: 3, i: [['x', 'kubectl get pods']] });
		expect(await decodeShare(hash)).toEqual({ ok: true, scenarioId: 'start/overview', seed: 3, inputs: [{ kind: 'exec', line: 'kubectl get pods' }] });
	});

	it('names the scenario in clear, before anything is decoded', () => {
		expect(splitShareHash('#sandbox=control-plane/etcd:zAAAA')).toEqual({ scenarioId: 'control-plane/etcd', payload: 'zAAAA' });
		expect(splitShareHash('#some-heading')).toBeUndefined();
	});

	it('refuses a tampered, truncated or re-encoded payload as damaged', async () => {
		const hash = await encodeShare(session);
		const colon = hash.lastIndexOf(':');
		const flipped = hash.slice(0, colon + 10) + (hash[colon + 10] === 'A' ? 'B' : 'A') + hash.slice(colon + 11);
		const outcomes = await Promise.all([decodeShare(flipped), decodeShare(hash.slice(0, Math.floor(hash.length / 2))), decodeShare(hash.replace(':z', ':q')), decodeShare(`${hash.slice(0, colon)}:z***`)]);
		for (const outcome of outcomes) expect(outcome).toMatchObject({ ok: false, scenarioId: 'start/overview' });
		expect(outcomes.map((o) => (o.ok ? 'ok' : o.problem))).toEqual(expect.arrayContaining(['corrupt']));
		for (const o of outcomes) expect(['corrupt', 'invalid']).toContain(o.ok ? 'ok' : o.problem);
	});

	it('caps the fragment before decoding and the JSON while decompressing', async () => {
		expect(await decodeShare(`#sandbox=start/overview:z${'A'.repeat(SHARE_LIMITS.fragmentCharsMax + 1)}`)).toMatchObject({ ok: false, problem: 'too-large' });
		// A small link that would inflate into megabytes (a "zip bomb") is stopped early.
		const bomb = new Uint8Array(await new Response(new Blob([new TextEncoder().encode(' '.repeat(8 * 1024 * 1024))]).stream().pipeThrough(new CompressionStream('deflate-raw'))).arrayBuffer());
		const hash = `#sandbox=start/overview:z${toBase64Url(bomb)}`;
		expect(hash.length).toBeLessThan(SHARE_LIMITS.fragmentCharsMax);
		expect(await decodeShare(hash)).toMatchObject({ ok: false, problem: 'too-large' });
	});

	it.each([
		['another version', { v: 2, s: 'start/overview', seed: 1, i: [] }, 'version'],
		['no version', { s: 'start/overview', seed: 1, i: [] }, 'invalid'],
		['another scenario inside', { v: 1, s: 'control-plane/etcd', seed: 1, i: [] }, 'invalid'],
		['an extra field', { v: 1, s: 'start/overview', seed: 1, i: [], x: 1 }, 'invalid'],
		['a seed that is no integer', { v: 1, s: 'start/overview', seed: 1.5, i: [] }, 'invalid'],
		['an unknown input', { v: 1, s: 'start/overview', seed: 1, i: [['rm', '-rf']] }, 'invalid'],
		['an unknown component', { v: 1, s: 'start/overview', seed: 1, i: [['stop', 'kube-everything']] }, 'invalid'],
		['a node name with spaces', { v: 1, s: 'start/overview', seed: 1, i: [['p', 'node 1']] }, 'invalid'],
		['a power input without its node', { v: 1, s: 'start/overview', seed: 1, i: [['off']] }, 'invalid'],
		['a clock input with a fractional offset', { v: 1, s: 'start/overview', seed: 1, i: [['clk', 'node-1', 0.5]] }, 'invalid'],
		['a clock input a millennium off', { v: 1, s: 'start/overview', seed: 1, i: [['clk', 'node-1', 1000 * 365 * 86_400_000]] }, 'invalid'],
		['a power input with two nodes', { v: 1, s: 'start/overview', seed: 1, i: [['on', 'node-1', 'node-2']] }, 'invalid'],
		['a negative advance', { v: 1, s: 'start/overview', seed: 1, i: [['a', -5]] }, 'invalid'],
		['a line too long', { v: 1, s: 'start/overview', seed: 1, i: [['x', 'k'.repeat(SHARE_LIMITS.lineCharsMax + 1)]] }, 'invalid'],
		['too many inputs', { v: 1, s: 'start/overview', seed: 1, i: [['a', 1, SHARE_LIMITS.inputsMax + 1]] }, 'too-large'],
		['too much virtual time', { v: 1, s: 'start/overview', seed: 1, i: [['a', 3_600_000, 3]] }, 'too-long'],
		['an array instead of an object', [1, 2, 3], 'invalid'],
	])('refuses a link with %s', async (_name, json, problem) => {
		expect(await decodeShare(fragmentOf(json))).toEqual({ ok: false, problem, scenarioId: 'start/overview' });
	});

	it('refuses a scenario id that is no path, and text that is no JSON', async () => {
		expect(await decodeShare('#sandbox=../../etc:zAAAA')).toEqual({ ok: false, problem: 'invalid' });
		expect(await decodeShare(`#sandbox=start/overview:j${toBase64Url(new TextEncoder().encode('{not json'))}`)).toMatchObject({ ok: false, problem: 'corrupt' });
	});

	it('refuses to encode a session too long to replay, saying why', async () => {
		const tooLong = { ...session, inputs: [{ kind: 'advance', ms: SHARE_LIMITS.virtualMsMax + 1 } as ClusterInput] };
		await expect(encodeShare(tooLong)).rejects.toSatisfy((e: unknown) => shareProblemOf(e) === 'too-long');
	});

	it('knows the same components as sim-core', () => {
		expect([...SHARE_COMPONENTS].sort()).toEqual([...COMPONENTS].sort());
	});

	it('encodes base64url without padding and decodes it back', () => {
		const bytes = new Uint8Array([0, 255, 62, 63, 128, 7]);
		const text = toBase64Url(bytes);
		expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
		expect(fromBase64Url(text)).toEqual(bytes);
		expect(fromBase64Url('a')).toBeUndefined();
		expect(fromBase64Url('ab+c')).toBeUndefined();
	});
});
