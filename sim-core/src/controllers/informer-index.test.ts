import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { InformerIndex } from './informer-index.ts';

function pod(namespace: string, name: string, controllerUid?: string): KubeObject {
	const ownerReferences = controllerUid ? [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: controllerUid, controller: true }] : undefined;
	return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, ...(ownerReferences ? { ownerReferences } : {}) } };
}

describe("kube-controller-manager's informer indexes", () => {
	it('answers by namespace and by controller UID, orphans apart, in key order', () => {
		const index = new InformerIndex([pod('a', 'web-2', 'u1'), pod('a', 'web-1', 'u1'), pod('a', 'stray'), pod('b', 'web-1', 'u1'), pod('a', 'db-0', 'u2')]);
		expect(index.inNamespace('a')).toEqual(['a/db-0', 'a/stray', 'a/web-1', 'a/web-2']);
		expect(index.controlledBy('a', 'u1')).toEqual(['a/web-1', 'a/web-2']);
		expect(index.controlledBy('b', 'u1')).toEqual(['b/web-1']);
		expect(index.controlledBy('a', '')).toEqual(['a/stray']);
		expect(index.controlledBy('c', 'u1')).toEqual([]);
	});

	it('follows adoption, release and deletion', () => {
		const index = new InformerIndex();
		const orphan = pod('a', 'p');
		index.added(orphan);
		const adopted = pod('a', 'p', 'u1');
		index.updated(orphan, adopted);
		expect(index.controlledBy('a', '')).toEqual([]);
		expect(index.controlledBy('a', 'u1')).toEqual(['a/p']);
		index.updated(adopted, orphan);
		expect(index.controlledBy('a', 'u1')).toEqual([]);
		expect(index.controlledBy('a', '')).toEqual(['a/p']);
		index.deleted(orphan);
		expect(index.inNamespace('a')).toEqual([]);
		expect(index.controlledBy('a', '')).toEqual([]);
	});
});
