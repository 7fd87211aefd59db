/**
 * service-lb-controller (the service controller): for each Service of type
 * LoadBalancer (without a `loadBalancerClass`) it has the cloud create a
 * load balancer in front of the cluster's nodes and writes its address into
 * `status.loadBalancer.ingress`.
 *
 * - Ensure: event `EnsuringLoadBalancer`, the finalizer
 *   `service.kubernetes.io/load-balancer-cleanup` first (so the Service
 *   cannot go before its load balancer), EnsureLoadBalancer with the stable
 *   node set (every Node not being deleted, not labelled
 *   `node.kubernetes.io/exclude-from-external-load-balancers`, not tainted
 *   `ToBeDeletedByClusterAutoscaler`; Ready or not: the load balancer's own
 *   health checks take broken nodes out), then `EnsuredLoadBalancer` and the
 *   status patch. Upstream's EnsureLoadBalancer blocks while the cloud
 *   builds the load balancer; here the cloud says how long it still needs
 *   and the controller finishes the call then.
 * - Nodes: a Node added or deleted, or one whose exclusion label or
 *   providerID changes, and every 100 s (nodeSyncPeriod), the hosts of every
 *   load balancer are compared with the stable node set; a difference is an
 *   UpdateLoadBalancer call and the event `UpdatedLoadBalancer` ("Updated
 *   load balancer with new hosts'); no host at all is `UnAvailableLoadBalancer`.
 * - Cleanup: a Service that no longer wants a load balancer, or is being
 *   deleted with the finalizer: `DeletingLoadBalancer`,
 *   EnsureLoadBalancerDeleted, the finalizer removed, `DeletedLoadBalancer`.
 * - Failures: `SyncLoadBalancerFailed` and a retry with exponential
 *   back-off from 5 s to 300 s.
 *
 * The health check the cloud is given: kube-proxy's /healthz on port 10256
 * for externalTrafficPolicy Cluster, the Service's healthCheckNodePort
 * (answered 200 only on nodes with a ready local endpoint) for Local.
 *
 * Mirrors staging/src/k8s.io/cloud-provider/controllers/service/controller.go
 * (syncLoadBalancerIfNeeded, needsUpdate, needsCleanup, wantsLoadBalancer,
 * nodeSyncService, stableNodeSetPredicates, shouldSyncUpdatedNode,
 * nodeSyncPeriod 100s, minRetryDelay 5s, maxRetryDelay 300s),
 * staging/src/k8s.io/cloud-provider/service/helpers/helper.go
 * (LoadBalancerCleanupFinalizer, RequestsOnlyLocalTraffic).
 */
import type { KubeObject, Node } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { ControllerBase, type ControllerHost, type SyncError } from '../controller-context.ts';
import { defaultLoadBalancerName, type CloudProvider, type LoadBalancerRequest } from './cloud.ts';

/** servicehelper.LoadBalancerCleanupFinalizer. */
export const LOAD_BALANCER_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
/** nodeSyncPeriod: how often every load balancer's hosts are compared with the nodes. */
export const NODE_SYNC_PERIOD_MS = 100_000;
/** kube-proxy's healthz port (ports.ProxyHealthzPort), the health check of a Cluster-policy load balancer. */
export const PROXY_HEALTHZ_PORT = 10256;
/** The queue key that stands for "sync the nodes of every load balancer" (service keys always have a slash). */
const NODE_SYNC_KEY = 'node-sync';
/** v1.LabelNodeExcludeBalancers. */
const EXCLUDE_BALANCERS_LABEL = 'node.kubernetes.io/exclude-from-external-load-balancers';
/** The Cluster Autoscaler's taint on a node it is about to delete. */
const TO_BE_DELETED_TAINT = 'ToBeDeletedByClusterAutoscaler';

interface ServiceSpecLike {
	type?: string;
	loadBalancerClass?: string;
	ports?: Array<{ name?: string; protocol?: string; port: number; nodePort?: number }>;
	externalTrafficPolicy?: string;
	healthCheckNodePort?: number;
	loadBalancerSourceRanges?: string[];
	loadBalancerIP?: string;
	externalIPs?: string[];
	sessionAffinity?: string;
}

interface ServiceControllerState {
	/** Services whose EnsureLoadBalancer is under way: when the cloud is done, and the address it gave. */
	pending: Record<string, { readyAtMs: number; ingressIp: string; uid: string }>;
	/** lastSyncedNodes: the hosts each load balancer was last given. */
	lastSyncedNodes: Record<string, string[]>;
}

function spec(service: KubeObject): ServiceSpecLike {
	return (service.spec ?? {}) as ServiceSpecLike;
}

/** wantsLoadBalancer: type LoadBalancer and no loadBalancerClass (another controller's then). */
export function wantsLoadBalancer(service: KubeObject): boolean {
	return spec(service).type === 'LoadBalancer' && spec(service).loadBalancerClass === undefined;
}

/** needsCleanup: the finalizer is there and the Service is going (or no longer wants a load balancer). */
function needsCleanup(service: KubeObject): boolean {
	if (!(service.metadata.finalizers ?? []).includes(LOAD_BALANCER_CLEANUP_FINALIZER)) return false;
	return !!service.metadata.deletionTimestamp || !wantsLoadBalancer(service);
}

function portsForLb(service: KubeObject): string {
	return JSON.stringify((spec(service).ports ?? []).map((p) => [p.name ?? '', p.protocol ?? 'TCP', p.port, p.nodePort ?? 0]));
}

/** needsUpdate: what of a Service its load balancer depends on. */
function needsUpdate(oldSvc: KubeObject, newSvc: KubeObject): boolean {
	if (!wantsLoadBalancer(oldSvc) && !wantsLoadBalancer(newSvc)) return false;
	if (wantsLoadBalancer(oldSvc) !== wantsLoadBalancer(newSvc)) return true;
	const a = spec(oldSvc);
	const b = spec(newSvc);
	return (
		JSON.stringify(a.loadBalancerSourceRanges) !== JSON.stringify(b.loadBalancerSourceRanges) ||
		portsForLb(oldSvc) !== portsForLb(newSvc) ||
		a.sessionAffinity !== b.sessionAffinity ||
		a.loadBalancerIP !== b.loadBalancerIP ||
		JSON.stringify(a.externalIPs ?? []) !== JSON.stringify(b.externalIPs ?? []) ||
		JSON.stringify(oldSvc.metadata.annotations ?? {}) !== JSON.stringify(newSvc.metadata.annotations ?? {}) ||
		oldSvc.metadata.uid !== newSvc.metadata.uid ||
		a.externalTrafficPolicy !== b.externalTrafficPolicy ||
		a.healthCheckNodePort !== b.healthCheckNodePort
	);
}

/** nodeIncludedPredicate: not labelled for exclusion (a label value that is not a boolean excludes too). */
function nodeIncluded(node: Node): boolean {
	const value = node.metadata.labels?.[EXCLUDE_BALANCERS_LABEL];
	if (value === undefined) return true;
	const v = value.toLowerCase();
	if (['0', 'f', 'false'].includes(v)) return true;
	return false;
}

/** stableNodeSetPredicates: not being deleted, included, not tainted for deletion. */
function inStableNodeSet(node: Node): boolean {
	if (node.metadata.deletionTimestamp) return false;
	if (!nodeIncluded(node)) return false;
	return !(node.spec?.taints ?? []).some((t) => t.key === TO_BE_DELETED_TAINT);
}

export class ServiceController extends ControllerBase<ServiceControllerState> {
	readonly name = 'service-lb-controller';
	readonly sub = 'service';
	readonly resources = ['services', 'nodes'] as const;

	constructor(
		host: ControllerHost,
		private readonly cloud: CloudProvider,
	) {
		super(host);
	}

	freshState(): ServiceControllerState {
		return { pending: {}, lastSyncedNodes: {} };
	}

	override onLeading(): void {
		this.host.timer(this.sub, 'node-sync', NODE_SYNC_PERIOD_MS, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer !== 'node-sync') return;
		this.enqueue(NODE_SYNC_KEY);
		this.host.timer(this.sub, 'node-sync', NODE_SYNC_PERIOD_MS, undefined, true);
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'nodes') this.enqueue(NODE_SYNC_KEY);
		else if (wantsLoadBalancer(obj) || needsCleanup(obj)) this.enqueue(`${obj.metadata.namespace}/${obj.metadata.name}`);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'nodes') {
			const a = oldObj as Node;
			const b = newObj as Node;
			if (nodeIncluded(a) !== nodeIncluded(b) || a.spec?.providerID !== b.spec?.providerID) this.enqueue(NODE_SYNC_KEY);
			return;
		}
		if (needsUpdate(oldObj, newObj) || needsCleanup(newObj)) this.enqueue(`${newObj.metadata.namespace}/${newObj.metadata.name}`);
	}

	override onDelete(resource: string): void {
		if (resource === 'nodes') this.enqueue(NODE_SYNC_KEY);
	}

	sync(key: string): SyncError {
		if (key === NODE_SYNC_KEY) return this.syncNodes();
		const service = this.host.informer('services').get(key);
		if (!service) {
			delete this.state.pending[key];
			delete this.state.lastSyncedNodes[key];
			return undefined;
		}
		const error = this.syncLoadBalancerIfNeeded(service, key);
		if (error) this.host.recorder('service-controller').record(service, 'Warning', 'SyncLoadBalancerFailed', `Error syncing load balancer: ${error}`);
		return error;
	}

	private stableNodes(): string[] {
		return (this.host.informer('nodes').list() as Node[])
			.filter(inStableNodeSet)
			.map((n) => n.metadata.name ?? '')
			.sort();
	}

	private request(service: KubeObject, nodes: string[]): LoadBalancerRequest {
		const s = spec(service);
		const local = s.externalTrafficPolicy === 'Local';
		return {
			name: defaultLoadBalancerName(service),
			service: `${service.metadata.namespace}/${service.metadata.name}`,
			ports: (s.ports ?? []).map((p) => ({ protocol: p.protocol ?? 'TCP', port: p.port, nodePort: p.nodePort ?? 0 })),
			nodes,
			healthCheck: local && s.healthCheckNodePort ? { port: s.healthCheckNodePort, path: '/' } : { port: PROXY_HEALTHZ_PORT, path: '/healthz' },
			loadBalancerSourceRanges: s.loadBalancerSourceRanges ?? [],
		};
	}

	/** syncLoadBalancerIfNeeded. */
	private syncLoadBalancerIfNeeded(service: KubeObject, key: string): SyncError {
		const recorder = this.host.recorder('service-controller');
		const name = defaultLoadBalancerName(service);
		if (!wantsLoadBalancer(service) || needsCleanup(service)) {
			delete this.state.pending[key];
			if (this.cloud.getLoadBalancer(name)) {
				this.trace('lb', `services/${key}`, `Deleting existing load balancer for service ${key}`);
				recorder.record(service, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer');
				this.cloud.ensureLoadBalancerDeleted(name);
			}
			const removed = this.setFinalizer(service, false);
			if (removed) return `failed to remove load balancer cleanup finalizer: ${removed}`;
			recorder.record(service, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer');
			delete this.state.lastSyncedNodes[key];
			return this.patchStatus(service, undefined);
		}
		const pending = this.state.pending[key];
		if (pending && pending.uid === service.metadata.uid) {
			const waitMs = pending.readyAtMs - this.host.clock.nowMs();
			if (waitMs > 0) {
				// The cloud is still building it: EnsureLoadBalancer has not returned yet.
				this.host.enqueueAfter(this.sub, key, waitMs);
				return undefined;
			}
			delete this.state.pending[key];
			recorder.record(service, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
			return this.patchStatus(service, pending.ingressIp);
		}
		this.trace('lb', `services/${key}`, `Ensuring load balancer for service ${key}`);
		recorder.record(service, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer');
		const added = this.setFinalizer(service, true);
		if (added) return `failed to add load balancer cleanup finalizer: ${added}`;
		const nodes = this.stableNodes();
		if (nodes.length === 0) recorder.record(service, 'Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
		this.state.lastSyncedNodes[key] = nodes;
		const result = this.cloud.ensureLoadBalancer(this.request(service, nodes));
		if (!result.ok) return `failed to ensure load balancer: ${result.error}`;
		if (result.readyInMs > 0) {
			this.state.pending[key] = { readyAtMs: this.host.clock.nowMs() + result.readyInMs, ingressIp: result.ingressIp, uid: service.metadata.uid ?? '' };
			this.host.enqueueAfter(this.sub, key, result.readyInMs);
			return undefined;
		}
		recorder.record(service, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer');
		return this.patchStatus(service, result.ingressIp);
	}

	/** addFinalizer / removeFinalizer: a merge patch of metadata.finalizers. An error text, or undefined. */
	private setFinalizer(service: KubeObject, present: boolean): string | undefined {
		const finalizers = service.metadata.finalizers ?? [];
		if (finalizers.includes(LOAD_BALANCER_CLEANUP_FINALIZER) === present) return undefined;
		const next = present ? [...finalizers, LOAD_BALANCER_CLEANUP_FINALIZER] : finalizers.filter((f) => f !== LOAD_BALANCER_CLEANUP_FINALIZER);
		const patched = this.host.client.patch(R.services, service.metadata.namespace, service.metadata.name ?? '', { metadata: { finalizers: next, resourceVersion: service.metadata.resourceVersion } }, 'application/merge-patch+json');
		if (!patched.ok && patched.code !== 404) return patched.message;
		return undefined;
	}

	/** patchStatus: status.loadBalancer, only when it changes. */
	private patchStatus(service: KubeObject, ingressIp: string | undefined): SyncError {
		const current = ((service.status ?? {}) as { loadBalancer?: { ingress?: Array<{ ip?: string }> } }).loadBalancer;
		const wanted = ingressIp ? { ingress: [{ ip: ingressIp, ipMode: 'VIP' }] } : {};
		if (JSON.stringify(current?.ingress ?? []) === JSON.stringify((wanted as { ingress?: unknown[] }).ingress ?? [])) return undefined;
		const patched = this.host.client.patch(R.services, service.metadata.namespace, service.metadata.name ?? '', { status: { loadBalancer: ingressIp ? wanted : { ingress: null } } }, 'application/merge-patch+json', 'status');
		if (!patched.ok && patched.code !== 404) return `failed to update load balancer status: ${patched.message}`;
		return undefined;
	}

	/** syncNodes / nodeSyncService: give every load balancer the current stable node set. */
	private syncNodes(): SyncError {
		const nodes = this.stableNodes();
		const recorder = this.host.recorder('service-controller');
		for (const service of this.host.informer('services').list()) {
			if (!wantsLoadBalancer(service) || service.metadata.deletionTimestamp) continue;
			const key = `${service.metadata.namespace}/${service.metadata.name}`;
			const last = this.state.lastSyncedNodes[key];
			if (!last || JSON.stringify(last) === JSON.stringify(nodes)) continue;
			const name = defaultLoadBalancerName(service);
			if (!this.cloud.getLoadBalancer(name)) continue;
			const error = this.cloud.updateLoadBalancer(name, nodes);
			if (error) {
				recorder.record(service, 'Warning', 'UpdateLoadBalancerFailed', `Error updating load balancer with new hosts [${nodes.join(' ')}] [node names limited, total number of nodes: ${nodes.length}], error: ${error}`);
				this.enqueue(key);
				continue;
			}
			this.state.lastSyncedNodes[key] = nodes;
			this.trace('lb', `services/${key}`, `updated the hosts of load balancer ${name}: ${nodes.join(', ') || '(none)'}`);
			if (nodes.length === 0) recorder.record(service, 'Warning', 'UnAvailableLoadBalancer', 'There are no available nodes for LoadBalancer');
			else recorder.record(service, 'Normal', 'UpdatedLoadBalancer', 'Updated load balancer with new hosts');
		}
		return undefined;
	}
}
