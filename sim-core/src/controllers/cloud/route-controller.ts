/**
 * node-route-controller (the route controller): every
 * `--route-reconciliation-period` (10 s), and when a Node's Pod CIDR or
 * addresses change, it makes the cloud's route table match the Nodes: one
 * route per Node, its Pod CIDR to that instance; routes of Nodes that are
 * gone are deleted (only routes inside the cluster CIDR, which this cluster
 * owns). A Node whose route exists gets the condition NetworkUnavailable
 * False, reason `RouteCreated` ("RouteController created a route').
 *
 * It runs only with `--configure-cloud-routes` (upstream default true).
 * This cluster's Pods reach each other through flannel's VXLAN overlay, so
 * it runs the cloud-controller-manager with `--configure-cloud-routes=false`
 * unless asked (`cloud: { configureCloudRoutes: true }`), as clusters with
 * an overlay network do.
 *
 * Mirrors staging/src/k8s.io/cloud-provider/controllers/route/route_controller.go
 * (reconcile, updateNetworkingCondition, isResponsibleForRoute),
 * staging/src/k8s.io/cloud-provider/config/v1alpha1/defaults.go
 * (RouteReconciliationPeriod 10s, ConfigureCloudRoutes true),
 * staging/src/k8s.io/cloud-provider/app/core.go (startRouteController).
 */
import type { KubeObject, Node, NodeCondition } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { ControllerBase, type ControllerHost, type SyncError } from '../controller-context.ts';
import type { CloudProvider } from './cloud.ts';

/** --route-reconciliation-period (default 10s). */
export const ROUTE_RECONCILIATION_PERIOD_MS = 10_000;

function ipv4(text: string): number {
	return text.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}

function cidrContains(outer: string, inner: string): boolean {
	const [base, bits] = outer.split('/');
	const [ip] = inner.split('/');
	const size = 2 ** (32 - Number(bits));
	return Math.floor(ipv4(ip) / size) === Math.floor(ipv4(base) / size);
}

export class RouteController extends ControllerBase<Record<string, never>> {
	readonly name = 'node-route-controller';
	readonly sub = 'route';
	readonly resources = ['nodes'] as const;

	constructor(
		host: ControllerHost,
		private readonly cloud: CloudProvider,
		private readonly clusterName: string,
		private readonly clusterCidr: string,
	) {
		super(host);
	}

	freshState(): Record<string, never> {
		return {};
	}

	override onLeading(): void {
		this.enqueue('reconcile');
		this.host.timer(this.sub, 'reconcile', ROUTE_RECONCILIATION_PERIOD_MS, undefined, true);
	}

	override onAdd(): void {
		this.enqueue('reconcile');
	}

	override onUpdate(_resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		const a = oldObj as Node;
		const b = newObj as Node;
		if (a.spec?.podCIDR !== b.spec?.podCIDR || JSON.stringify(a.status?.addresses) !== JSON.stringify(b.status?.addresses)) this.enqueue('reconcile');
	}

	override onDelete(): void {
		this.enqueue('reconcile');
	}

	override onTimer(timer: string): void {
		if (timer !== 'reconcile') return;
		this.enqueue('reconcile');
		this.host.timer(this.sub, 'reconcile', ROUTE_RECONCILIATION_PERIOD_MS, undefined, true);
	}

	/** reconcileNodeRoutes. */
	sync(): SyncError {
		const routes = this.cloud.routes;
		if (!routes) return undefined;
		const nodes = this.host.informer('nodes').list() as Node[];
		const existing = routes.list(this.clusterName);
		const wanted = new Map<string, string>();
		for (const node of nodes) if (node.spec?.podCIDR) wanted.set((node.metadata.name ?? ''), node.spec.podCIDR);
		for (const [nodeName, cidr] of wanted) {
			if (existing.some((r) => r.targetNode === nodeName && r.destinationCidr === cidr)) continue;
			const error = routes.create(this.clusterName, this.host.informer('nodes').get(nodeName)?.metadata.uid ?? nodeName, { targetNode: nodeName, destinationCidr: cidr });
			const node = nodes.find((n) => n.metadata.name === nodeName)!;
			if (error) {
				this.host.recorder('route_controller').record(node, 'Warning', 'FailedToCreateRoute', `Could not create route ${nodeName} ${cidr} for node ${nodeName} after 0s: ${error}`);
				continue;
			}
			this.trace('route', `nodes/${nodeName}`, `Created route for node ${nodeName} ${cidr}`);
		}
		for (const route of existing) {
			if (!cidrContains(this.clusterCidr, route.destinationCidr)) continue;
			if (wanted.get(route.targetNode) === route.destinationCidr) continue;
			routes.delete(this.clusterName, route);
			this.trace('route', undefined, `Deleted route ${route.name} ${route.destinationCidr}`);
		}
		const now = routes.list(this.clusterName);
		for (const node of nodes) {
			const created = now.some((r) => r.targetNode === node.metadata.name && r.destinationCidr === node.spec?.podCIDR);
			if (node.spec?.podCIDR) this.updateNetworkingCondition(node, created);
		}
		return undefined;
	}

	private updateNetworkingCondition(node: Node, created: boolean): void {
		const current = node.status?.conditions?.find((c) => c.type === 'NetworkUnavailable');
		const reason = created ? 'RouteCreated' : 'NoRouteCreated';
		if (current && current.status === (created ? 'False' : 'True') && current.reason === reason) return;
		const now = formatRfc3339(this.wallMs);
		const condition: NodeCondition = {
			type: 'NetworkUnavailable',
			status: created ? 'False' : 'True',
			reason,
			message: created ? 'RouteController created a route' : 'RouteController failed to create a route',
			lastTransitionTime: now,
			lastHeartbeatTime: now,
		};
		const patched = this.host.client.patch(R.nodes, undefined, (node.metadata.name ?? ''), { status: { conditions: [condition] } }, 'application/strategic-merge-patch+json', 'status');
		if (!patched.ok) this.trace('error', `nodes/${node.metadata.name}`, `Error updating node ${node.metadata.name}: ${patched.message}`);
	}
}
