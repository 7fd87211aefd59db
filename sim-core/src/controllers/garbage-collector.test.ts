import { describe, it, expect } from 'vitest';
import type { OwnerReference } from '../api/types.ts';
import { R } from '../client/client.ts';
import { classifyReferences, decideDeletion, type OwnerStatus } from './garbage-collector.ts';
import { createControllerHarness } from '../testing/controllers/harness.ts';

const ref = (uid: string): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true, blockOwnerDeletion: true });

describe('classifyReferences', () => {
	it('sorts owner references into solid, dangling and waiting for dependents', () => {
		const status: Record<string, OwnerStatus> = { a: 'present', b: 'absent', c: 'deleting-dependents' };
		const out = classifyReferences([ref('a'), ref('b'), ref('c')], (r) => status[r.uid]);
		expect([out.solid.map((r) => r.uid), out.dangling.map((r) => r.uid), out.waiting.map((r) => r.uid)]).toEqual([['a'], ['b'], ['c']]);
	});
});

describe('decideDeletion (attemptToDeleteItem)', () => {
	const classify = (statuses: OwnerStatus[]) => classifyReferences(statuses.map((_, i) => ref(`o${i}`)), (r) => statuses[Number(r.uid.slice(1))]);
	it.each([
		['keeps an object whose owner is alive', ['present'], [], [], { action: 'none' }],
		['removes only the dangling reference when another owner is alive', ['present', 'absent'], [], [], { action: 'remove-references', uids: ['o1'] }],
		['removes a reference to an owner deleting its dependents when another owner is alive', ['present', 'deleting-dependents'], [], [], { action: 'remove-references', uids: ['o1'] }],
		['deletes in the background an object whose only owner is gone', ['absent'], [], [], { action: 'delete', policy: 'Background', unblockFirst: false }],
		['honours an orphan finalizer the garbage already carries', ['absent'], ['orphan'], [], { action: 'delete', policy: 'Orphan', unblockFirst: false }],
		['honours a foreground finalizer the garbage already carries', ['absent'], ['foregroundDeletion'], [], { action: 'delete', policy: 'Foreground', unblockFirst: false }],
		['deletes in the foreground an object with dependents whose owner waits for them', ['deleting-dependents'], [], [{ deletingDependents: false }], { action: 'delete', policy: 'Foreground', unblockFirst: false }],
		['unblocks its references first when a dependent is itself deleting dependents', ['deleting-dependents'], [], [{ deletingDependents: true }], { action: 'delete', policy: 'Foreground', unblockFirst: true }],
		['deletes in the background a leaf whose owner waits for it', ['deleting-dependents'], [], [], { action: 'delete', policy: 'Background', unblockFirst: false }],
	] as const)('%s', (_name, owners, finalizers, dependents, expected) => {
		expect(decideDeletion([...finalizers], classify([...owners]), [...dependents])).toEqual(expected);
	});
});

describe('the garbage collector in a cluster', () => {
	it('deletes an object whose owner never existed, and drops only the dangling reference of an object with a live owner', () => {
		const c = createControllerHarness();
		const owner = c.kubectl.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owner' } });
		const ownerUid = owner.ok ? owner.object.metadata.uid : '';
		const ghost = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-4000-8000-000000000000' };
		c.kubectl.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'orphaned', ownerReferences: [ghost] } });
		c.kubectl.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', ownerReferences: [ghost, { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: ownerUid }] } });
		c.advance(2000);
		const names = c.list(R.configmaps, 'default').map((o) => o.metadata.name);
		expect(names).not.toContain('orphaned');
		expect(names).toContain('shared');
		const shared = c.kubectl.get(R.configmaps, 'default', 'shared');
		expect(shared.ok && shared.object.metadata.ownerReferences?.map((r) => r.name)).toEqual(['owner']);
	});
});
