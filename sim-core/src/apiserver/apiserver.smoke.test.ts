import { describe, expect, it } from 'vitest';
import { createApiHarness } from '../testing/api-harness.ts';
import { R } from '../client/client.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { Informer, emptyInformer, type InformerState } from '../client/informer.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { KubeObject } from '../api/types.ts';

class Watcher extends ProcessBase<{ informer: InformerState; seen: string[] }> {
	informer!: Informer;
	freshState() {
		return { informer: emptyInformer(), seen: [] as string[] };
	}
	onStart() {
		this.informer.start();
	}
	handle(event: QueuedEvent) {
		this.informer.handle(event);
	}
}

describe('the API server and etcd together', () => {
	it('stores an object in etcd under /registry and serves it back with its revision', () => {
		const h = createApiHarness();
		const client = h.client('tester');
		const created = client.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' }, data: { a: '1' } });
		expect(created.ok).toBe(true);
		const kv = h.etcd.range('/registry/configmaps/default/demo').kvs[0];
		expect(kv).toBeDefined();
		const got = client.get(R.configmaps, 'default', 'demo');
		expect(got.ok && (got.object as KubeObject).metadata.resourceVersion).toBe(String(kv.modRevision));
		const again = client.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' } });
		expect(again.ok).toBe(false);
		expect(!again.ok && again.message).toBe('configmaps "demo" already exists');
	});

	it('rejects an update carrying a stale resourceVersion with 409 Conflict', () => {
		const h = createApiHarness();
		const client = h.client('tester');
		const created = client.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'demo' }, data: { a: '1' } });
		const obj = JSON.parse(JSON.stringify((created as { object: KubeObject }).object));
		obj.data = { a: '2' };
		expect(client.update(R.configmaps, obj).ok).toBe(true);
		obj.data = { a: '3' };
		const stale = client.update(R.configmaps, obj);
		expect(!stale.ok && stale.message).toBe('Operation cannot be fulfilled on configmaps "demo": the object has been modified; please apply your changes to the latest version and try again');
	});

	it('delivers watch events to an informer after its list', () => {
		const h = createApiHarness();
		const watcher = new Watcher('watcher', h.kernel);
		watcher.informer = new Informer('cm', h.kernel, 'watcher', h.client('watcher'), { ...R.configmaps }, {
			onAdd: (o) => watcher.state.seen.push(`add ${o.metadata.name}`),
			onUpdate: (_o, n) => watcher.state.seen.push(`update ${n.metadata.name}`),
			onDelete: (o) => watcher.state.seen.push(`delete ${o.metadata.name}`),
		}, () => watcher.state.informer);
		h.kernel.register(watcher);
		const client = h.client('tester');
		client.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'before' } });
		h.kernel.start('watcher');
		client.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' } });
		client.delete(R.configmaps, 'default', 'before');
		h.advance(100);
		expect(watcher.state.seen).toEqual(['add before', 'add after', 'delete before']);
	});
});
