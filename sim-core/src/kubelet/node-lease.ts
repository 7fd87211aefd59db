/**
 * The node's heartbeat Lease: `kube-node-lease/<node>`, held by the node,
 * leaseDurationSeconds 40, renewed every 10 s (FACTS.md A). The node
 * lifecycle controller reads its renewTime to tell a live node from a dead
 * one. Once the Node exists the Lease is owned by it, so deleting the Node
 * deletes its Lease. While the API server is away the renewal is retried
 * with back-off (200 ms doubling to 7 s).
 *
 * A kubelet that does not register its Node (registerNode false) creates
 * no Lease while the Node does not exist: the Lease must be owned by it.
 *
 * Mirrors
 * staging/src/k8s.io/component-helpers/apimachinery/lease/controller.go
 * (Run, sync, ensureLease, renewLease, backoffEnsureLease),
 * pkg/kubelet/util/nodelease.go (setNodeOwnerFunc).
 */
import type { Lease, Node } from '../api/types.ts';
import { R, type ApiClient, type CallResult } from '../client/client.ts';
import { deepCopy } from '../golang/json.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import { formatRfc3339Micro } from '../golang/time.ts';
import type { KubeletContext } from './kubelet-context.ts';

export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
/** nodeLeaseRenewIntervalFraction (pkg/kubelet/kubelet.go). */
const LEASE_RENEW_FRACTION = 0.25;

/** One renewal: create the Lease if missing, else take and refresh it. The result says which verb failed. */
function renewNodeLease(client: ApiClient, nodeName: string, nodeUid: string | undefined, durationSeconds: number, nowMicro: string): CallResult<unknown> & { method: 'Get' | 'Post' | 'Put' } {
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

/**
 * setNodeOwnerFunc for a kubelet that does not register its Node: the
 * Lease is created only with the Node as its owner, so while there is no
 * Node there is no Lease (ensureLease creates nothing and the next try
 * comes a renew interval later). True when the Node was found.
 */
function ensureNodeOwner(ctx: KubeletContext): boolean {
	const node = ctx.client.get<Node>(R.nodes, undefined, ctx.nodeName);
	if (node.ok) {
		ctx.state.nodeUid = node.object.metadata.uid;
		return true;
	}
	const renewMs = ctx.config.nodeLeaseDurationSeconds * 1000 * LEASE_RENEW_FRACTION;
	if (node.code === 404) {
		ctx.log('E', 'nodelease.go:49', 'Failed to get node when trying to set owner ref to the node lease', { err: `nodes "${ctx.nodeName}" not found`, node: ctx.nodeName });
		ctx.after(renewMs, 'lease', undefined, { background: true, origin: `periodic:${ctx.id}:lease` });
		return false;
	}
	// The API server is away: the Lease GET would fail too; back off as a failed renewal does.
	return true;
}

/** The node lease in kube-node-lease, renewed every 10 s; retried with back-off while the API server is away. */
export function renewLease(ctx: KubeletContext): void {
	if (!ctx.state.nodeUid && !ctx.config.registerNode && !ensureNodeOwner(ctx)) return;
	const result = renewNodeLease(ctx.client, ctx.nodeName, ctx.state.nodeUid, ctx.config.nodeLeaseDurationSeconds, formatRfc3339Micro(ctx.wallMs()));
	if (result.ok) {
		ctx.state.leaseDelayMs = 0;
		ctx.emit({ action: 'renew', object: `leases/kube-node-lease/${ctx.nodeName}`, msg: 'renewed node lease' });
		ctx.after(ctx.config.nodeLeaseDurationSeconds * 1000 * LEASE_RENEW_FRACTION, 'lease', undefined, { background: true, origin: `periodic:${ctx.id}:lease` });
		return;
	}
	const delay = ctx.state.leaseDelayMs === 0 ? ctx.config.leaseRetryInitialMs : Math.min(ctx.state.leaseDelayMs * 2, ctx.config.leaseRetryMaxMs);
	ctx.state.leaseDelayMs = delay;
	if (delay === ctx.config.leaseRetryInitialMs || delay === ctx.config.leaseRetryMaxMs) {
		ctx.log('E', 'controller.go:145', 'Could not renew the node lease; retrying', { err: ctx.callError(result, result.method, `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${ctx.nodeName}`), interval: formatGoDurationMs(delay) });
	}
	ctx.after(delay, 'lease', undefined, { background: true, origin: `periodic:${ctx.id}:lease` });
}
