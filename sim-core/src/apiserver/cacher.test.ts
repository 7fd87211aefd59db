import { describe, expect, it } from 'vitest';
import { resourceByName } from '../api/resources.ts';
import { MvccStore } from '../store/mvcc.ts';
import { Cacher, resourceOfKey } from './cacher.ts';

const pods = resourceByName('', 'pods')!;

function putPod(store: MvccStore, namespace: string, name: string, nodeName?: string): void {
	store.put(`/registry/pods/${namespace}/${name}`, JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name }, spec: nodeName ? { nodeName } : {} }));
}

describe('the watch cache', () => {
	it('lists in etcd key order, per namespace, and by node, through changes', () => {
		const store = MvccStore.empty();
		const cacher = new Cacher();
		putPod(store, 'b', 'z', 'node-1');
		putPod(store, 'a', 'y');
		putPod(store, 'a', 'x', 'node-2');
		cacher.catchUp(store);
		expect(cacher.entries(pods).map(([key]) => key)).toEqual(['/registry/pods/a/x', '/registry/pods/a/y', '/registry/pods/b/z']);
		expect(cacher.list(pods, 'a').map((p) => p.metadata.name)).toEqual(['x', 'y']);
		expect(cacher.byIndex(pods, 'spec.nodeName', 'node-2')?.map((p) => p.metadata.name)).toEqual(['x']);

		// A bind moves a pod into a node's index; a delete takes it out of everything.
		putPod(store, 'a', 'y', 'node-1');
		store.txn([], [{ delete: { key: '/registry/pods/a/x' } }]);
		cacher.catchUp(store);
		expect(cacher.byIndex(pods, 'spec.nodeName', 'node-1')?.map((p) => `${p.metadata.namespace}/${p.metadata.name}`)).toEqual(['a/y', 'b/z']);
		expect(cacher.byIndex(pods, 'spec.nodeName', 'node-1', 'b')?.map((p) => p.metadata.name)).toEqual(['z']);
		expect(cacher.byIndex(pods, 'spec.nodeName', 'node-2')).toEqual([]);
		expect(cacher.list(pods, 'a').map((p) => p.metadata.name)).toEqual(['y']);
		// No such index on another resource: the caller lists instead.
		expect(cacher.byIndex(resourceByName('', 'services')!, 'spec.nodeName', 'node-1')).toBeUndefined();
	});

	it('finds the resource of a key by its longest prefix', () => {
		expect(resourceOfKey('/registry/pods/default/web')?.resource).toBe('pods');
		expect(resourceOfKey('/registry/deployments/default/web')?.kind).toBe('Deployment');
		expect(resourceOfKey('/registry/nothing-here/x')).toBeUndefined();
	});
});
