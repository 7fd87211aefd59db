/**
 * The node's heartbeat Lease: `kube-node-lease/<node>`, held by the node,
 * leaseDurationSeconds 40, renewed every 10 s (FACTS.md A). The node
 * lifecycle controller reads its renewTime to tell a live node from a dead
 * one. Once the Node exists the Lease is owned by it, so deleting the Node
 * deletes its Lease.
 *
 * Mirrors k8s.io/component-helpers/apimachinery/lease/controller.go
 * (ensureLease, renewLease) with the kubelet's setNodeOwnerFunc.
 */
import type { Lease } from '../api/types.ts';
import { R, type ApiClient, type CallResult } from '../client/client.ts';
import { deepCopy } from '../golang/json.ts';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/** One renewal: create the Lease if missing, else take and refresh it. The result says which verb failed. */
export function renewNodeLease(client: ApiClient, nodeName: string, nodeUid: string | undefined, durationSeconds: number, nowMicro: string): CallResult<unknown> & { method: 'Get' | 'Post' | 'Put' } {
	const owner = nodeUid ? [{ apiVersion: 'v1', kind: 'Node', name: nodeName, uid: nodeUid }] : undefined;
	const got = client.get<Lease>(R.leases, NODE_LEASE_NAMESPACE, nodeName);
	if (!got.ok && got.code === 404) {
		const lease: Lease = {
			apiVersion: 'coordination.k8s.io/v1',
			kind: 'Lease',
			metadata: { name: nodeName, namespace: NODE_LEASE_NAMESPACE, ...(owner ? { ownerReferences: owner } : {}) },
			spec: { holderIdentity: nodeName, leaseDurationSeconds: durationSeconds, renewTime: nowMicro },
		};
		return { ...client.create(R.leases, NODE_LEASE_NAMESPACE, lease), method: 'Post' };
	}
	if (!got.ok) return { ...got, method: 'Get' };
	const lease: Lease = deepCopy(got.object);
	lease.spec.holderIdentity = nodeName;
	lease.spec.leaseDurationSeconds = durationSeconds;
	lease.spec.renewTime = nowMicro;
	if (owner && !lease.metadata.ownerReferences?.length) lease.metadata.ownerReferences = owner;
	return { ...client.update(R.leases, lease), method: 'Put' };
}
