/**
 * The informer against a real etcd and kube-apiserver (testing/api-harness.ts):
 * what it does when its watch breaks, when it resumes from its
 * resourceVersion, and when that resourceVersion has been compacted away
 * (410 Gone) so that it must list again. The contract is client-go's: the
 * cache ends equal to the server's objects, each handler call moves an
 * object from one of its states to a later one (a subsequence of its
 * history), and an object deleted while the informer was not watching is
 * reported deleted.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.ts';
import { R, type ApiClient } from './client.ts';
import { Informer, emptyInformer, type InformerState } from './informer.ts';

const OWNER = 'watcher';

/** One handler call, as the owner saw it. */
interface Call {
	type: 'add' | 'update' | 'delete';
	name: string;
	/** The object's data.v in the old state (update, delete) and the new one (add, update). */
	from?: string;
	to?: string;
}

class InformerHost extends ProcessBase<{ informer: InformerState; calls: Call[] }> {
	informer!: Informer;
	/** When each of the informer's retries fired. */
	readonly retriesAtMs: number[] = [];
	freshState() {
		return { informer: emptyInformer(), calls: [] as Call[] };
	}
	onStart() {
		this.informer.start();
	}
	handle(event: QueuedEvent) {
		if (event.kind === 'informer-retry') this.retriesAtMs.push(this.kernel.nowMs);
		this.informer.handle(event);
	}
}

function host(h: ApiHarness): InformerHost {
	const owner = new InformerHost(OWNER, h.kernel);
	const v = (o: KubeObject) => (o as KubeObject & { data?: { v?: string } }).data?.v;
	owner.informer = new Informer('configmaps', h.kernel, OWNER, h.client(OWNER), { ...R.configmaps, namespace: 'default' }, {
		onAdd: (o) => owner.state.calls.push({ type: 'add', name: o.metadata.name!, to: v(o) }),
		onUpdate: (o, n) => owner.state.calls.push({ type: 'update', name: n.metadata.name!, from: v(o), to: v(n) }),
		onDelete: (o) => owner.state.calls.push({ type: 'delete', name: o.metadata.name!, from: v(o) }),
	}, () => owner.state.informer);
	h.kernel.register(owner);
	// The informer's process runs on node-1, so that the test can cut it off from the API server.
	h.transport.enroll(OWNER, { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] }, 'node-1');
	return owner;
}

function configMap(name: string, v: string): KubeObject {
	return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { v } } as KubeObject;
}

function setV(client: ApiClient, name: string, v: string): void {
	const got = client.get(R.configmaps, 'default', name);
	if (!got.ok) throw new Error(`get ${name}: ${got.message}`);
	const updated = JSON.parse(JSON.stringify(got.object)) as KubeObject & { data: { v: string } };
	updated.data.v = v;
	const result = client.update(R.configmaps, updated);
	if (!result.ok) throw new Error(`update ${name}: ${result.message}`);
}

/** name -> resourceVersion, for the server's objects and for the informer's cache. */
function serverObjects(client: ApiClient): Record<string, string> {
	const listed = client.list(R.configmaps, 'default');
	if (!listed.ok) throw new Error(listed.message);
	return Object.fromEntries(listed.object.items.map((o) => [o.metadata.name!, o.metadata.resourceVersion!]));
}

function cached(owner: InformerHost): Record<string, string> {
	return Object.fromEntries(owner.informer.list().map((o) => [o.metadata.name!, o.metadata.resourceVersion!]));
}

/** The status lines of the API server's answers to the informer's process, e.g. `410 Gone for GET ...?watch=true`. */
function answersTo(h: ApiHarness, since: number): string[] {
	return h.kernel.trace
		.events()
		.filter((e) => e.seq >= since && e.action === 'response' && e.peer === OWNER)
		.map((e) => e.msg ?? '');
}

function nextSeq(h: ApiHarness): number {
	const events = h.kernel.trace.events();
	return events.length ? events[events.length - 1].seq + 1 : 0;
}

function byName(calls: Call[]): Call[] {
	return [...calls].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Starts the informer over configmaps a, b and c (each at v1) and lets it sync. */
function synced(): { h: ApiHarness; owner: InformerHost; writer: ApiClient } {
	const h = createApiHarness();
	const writer = h.client('writer');
	for (const name of ['a', 'b', 'c']) expect(writer.create(R.configmaps, 'default', configMap(name, '1')).ok).toBe(true);
	const owner = host(h);
	h.kernel.start(OWNER);
	h.advance(100);
	expect(owner.informer.synced).toBe(true);
	expect(owner.state.calls).toEqual([
		{ type: 'add', name: 'a', to: '1' },
		{ type: 'add', name: 'b', to: '1' },
		{ type: 'add', name: 'c', to: '1' },
	]);
	owner.state.calls = [];
	return { h, owner, writer };
}

/** The API server restarts: every watch connection breaks, and the informer hears its watch close. */
function restartApiServer(h: ApiHarness): void {
	h.kernel.stop('kube-apiserver');
	h.kernel.start('kube-apiserver');
}

/** While the informer is not watching: a changes twice, b goes, d comes. */
function changeWhileAway(writer: ApiClient): void {
	setV(writer, 'a', '2');
	setV(writer, 'a', '3');
	expect(writer.delete(R.configmaps, 'default', 'b').ok).toBe(true);
	expect(writer.create(R.configmaps, 'default', configMap('d', '1')).ok).toBe(true);
}

describe('an informer whose watch breaks', () => {
	it('re-watches from its resourceVersion and, while etcd still has that history, sees every change it missed, in order, without listing again', () => {
		const { h, owner, writer } = synced();
		const since = nextSeq(h);
		restartApiServer(h);
		changeWhileAway(writer);
		h.advance(2_000);
		expect(owner.state.calls).toEqual([
			{ type: 'update', name: 'a', from: '1', to: '2' },
			{ type: 'update', name: 'a', from: '2', to: '3' },
			{ type: 'delete', name: 'b', from: '1' },
			{ type: 'add', name: 'd', to: '1' },
		]);
		expect(answersTo(h, since)).toEqual(['200 for GET /api/v1/namespaces/default/configmaps?watch=true']);
		expect(cached(owner)).toEqual(serverObjects(writer));
	});

	it('lists again when its re-watch is answered 410 (Expired: too old resource version) because etcd was compacted past its resourceVersion, and ends with the server\'s objects', () => {
		const { h, owner, writer } = synced();
		const rvBefore = Number(owner.state.informer.resourceVersion);
		const since = nextSeq(h);
		restartApiServer(h);
		changeWhileAway(writer);
		h.advance(5);
		// Compact everything up to now, before the informer's re-watch (800 ms to 1.6 s after the break).
		h.etcd.compact(h.etcd.revision);
		expect(h.etcd.compactRevision).toBeGreaterThan(rvBefore);
		h.advance(2_000);
		expect(answersTo(h, since)).toEqual([
			'410 Expired for GET /api/v1/namespaces/default/configmaps?watch=true',
			'200 for GET /api/v1/namespaces/default/configmaps',
			'200 for GET /api/v1/namespaces/default/configmaps?watch=true',
		]);
		expect(cached(owner)).toEqual(serverObjects(writer));
		// The relist reports the difference: a's intermediate state is never seen, b (deleted while the watch was
		// down) is reported with the last state the informer knew, and c, unchanged, gets no call.
		expect(byName(owner.state.calls)).toEqual([
			{ type: 'update', name: 'a', from: '1', to: '3' },
			{ type: 'delete', name: 'b', from: '1' },
			{ type: 'add', name: 'd', to: '1' },
		]);
		expect(owner.state.informer.resourceVersion).toBe(String(h.etcd.revision));
	});

	it('after a relist, watches from the list\'s resourceVersion: later changes arrive once each, with no replay of what the list already showed', () => {
		const { h, owner, writer } = synced();
		restartApiServer(h);
		changeWhileAway(writer);
		h.advance(5);
		h.etcd.compact(h.etcd.revision);
		h.advance(2_000);
		owner.state.calls = [];
		expect(writer.create(R.configmaps, 'default', configMap('e', '1')).ok).toBe(true);
		setV(writer, 'd', '2');
		expect(writer.delete(R.configmaps, 'default', 'c').ok).toBe(true);
		h.advance(100);
		expect(owner.state.calls).toEqual([
			{ type: 'add', name: 'e', to: '1' },
			{ type: 'update', name: 'd', from: '1', to: '2' },
			{ type: 'delete', name: 'c', from: '1' },
		]);
		expect(cached(owner)).toEqual(serverObjects(writer));
	});

	it('kept away from the API server past two of its compactions (5 min apart), is answered 410 on its first re-watch and relists to the server\'s objects', () => {
		const { h, owner, writer } = synced();
		const rvBefore = Number(owner.state.informer.resourceVersion);
		h.setPartitioned('node-1', true);
		restartApiServer(h);
		changeWhileAway(writer);
		// The API server compacts every 5 minutes up to the revision it saw at the previous tick.
		h.advance(11 * 60_000);
		expect(h.etcd.compactRevision).toBeGreaterThan(rvBefore);
		expect(owner.state.calls).toEqual([]);
		expect(owner.state.informer.watchId).toBeNull();
		const since = nextSeq(h);
		h.setPartitioned('node-1', false);
		// The informer's back-off between attempts is at most 30 s, doubled by jitter.
		h.advance(60_000);
		expect(answersTo(h, since)).toEqual([
			'410 Expired for GET /api/v1/namespaces/default/configmaps?watch=true',
			'200 for GET /api/v1/namespaces/default/configmaps',
			'200 for GET /api/v1/namespaces/default/configmaps?watch=true',
		]);
		expect(cached(owner)).toEqual(serverObjects(writer));
		expect(byName(owner.state.calls)).toEqual([
			{ type: 'update', name: 'a', from: '1', to: '3' },
			{ type: 'delete', name: 'b', from: '1' },
			{ type: 'add', name: 'd', to: '1' },
		]);
	});

	it('retries a broken watch with back-off while the API server is unreachable: 0.8 s doubling to 30 s, each delay stretched by up to 100% jitter', () => {
		const { h, owner } = synced();
		h.setPartitioned('node-1', true);
		restartApiServer(h);
		h.advance(1);
		const closedAt = h.kernel.nowMs;
		h.advance(10 * 60_000);
		const times = [closedAt, ...owner.retriesAtMs];
		const gaps = times.slice(1).map((t, i) => t - times[i]);
		expect(gaps.length).toBeGreaterThan(10);
		gaps.forEach((gap, i) => {
			const base = Math.min(800 * 2 ** i, 30_000);
			expect(gap).toBeGreaterThanOrEqual(base);
			expect(gap).toBeLessThanOrEqual(2 * base);
		});
		expect(owner.informer.synced).toBe(true);
		expect(owner.state.informer.watchId).toBeNull();
	});
});
