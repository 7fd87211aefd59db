/**
 * simcloud: the simulator's cloud, behind the cluster's machines when the
 * cluster is built with `cloud: true`. It is what a provider's API is to a
 * real cloud-controller-manager: instances (one per machine, in region
 * `sim-east-1`, zones `sim-east-1a`/`-1b`/`-1c` in turn, type
 * `s1-standard-<cpu>`), network load balancers with public addresses, and a
 * route table. It implements the provider interface the
 * cloud-controller-manager calls (controllers/cloud/cloud.ts).
 *
 * - An instance is stopped while its machine is powered off, and gone once
 *   deleted (`simcloud instances delete`): the machine is off for good.
 * - A new load balancer takes LB_PROVISIONING_MS (20 s, a choice of this
 *   simulation: real clouds take from seconds to a few minutes) before
 *   EnsureLoadBalancer returns; an update of an existing one is immediate.
 *   Its address comes from 203.0.113.0/24 (TEST-NET-3, RFC 5737), from .10 up.
 * - It forwards a connection to one of its hosts' NodePort, chosen at random
 *   among the hosts that pass its health check at that moment: kube-proxy's
 *   /healthz on 10256 (kube-proxy running on a reachable machine), or for
 *   externalTrafficPolicy Local the Service's healthCheckNodePort, which
 *   kube-proxy answers 200 only on a node with a ready local endpoint. The
 *   client's address is kept (a pass-through network load balancer). No
 *   healthy host: the connection times out.
 *
 * Its state is part of the cluster's snapshot.
 *
 * Mirrors nothing upstream: the simulated cloud behind the provider
 * interface of staging/src/k8s.io/cloud-provider/cloud.go (the health
 * checks follow pkg/proxy/healthcheck/service_health.go and
 * proxy_health.go).
 */
import type { KubeObject, Node } from '../api/types.ts';
import type { Kernel } from '../sim/kernel.ts';
import type { CloudProvider, CloudRoute, EnsureResult, InstanceMetadata, LoadBalancerRequest } from '../controllers/cloud/cloud.ts';
import type { NodeHost } from './node-host.ts';

/** How long the cloud takes to build a new load balancer (a choice of the simulation). */
export const LB_PROVISIONING_MS = 20_000;
export const SIMCLOUD_REGION = 'sim-east-1';
const ZONES = ['sim-east-1a', 'sim-east-1b', 'sim-east-1c'];
/** TEST-NET-3 (RFC 5737): documentation addresses, never routed on the Internet. */
const LB_NET = '203.0.113.';
const FIRST_LB_HOST = 10;

export interface SimLoadBalancer extends LoadBalancerRequest {
	ip: string;
	createdAtMs: number;
	readyAtMs: number;
}

export interface SimCloudState {
	/** Machines whose instance was deleted. */
	deleted: string[];
	loadBalancers: Record<string, SimLoadBalancer>;
	routes: CloudRoute[];
	/** Released load balancer addresses are not handed out again (as clouds avoid reusing a public IP at once). */
	nextLbHost: number;
}

export function emptySimCloud(): SimCloudState {
	return { deleted: [], loadBalancers: {}, routes: [], nextLbHost: FIRST_LB_HOST };
}

interface SimCloudDeps {
	kernel: Kernel;
	hosts: ReadonlyMap<string, NodeHost>;
	isPartitioned(node: string): boolean;
	/** Objects as etcd holds them (the health check of a Local Service reads its EndpointSlices). */
	list(resource: string, namespace?: string): KubeObject[];
	/** A machine whose instance is deleted loses its power for good. */
	powerOff(node: string): void;
}

/** Where the cloud's load balancer sends a connection. */
export type LoadBalancerDecision = { kind: 'forward'; node: string; nodeIp: string; nodePort: number } | { kind: 'drop'; reason: string };

export class SimCloud implements CloudProvider {
	readonly state: SimCloudState;

	constructor(
		private readonly deps: SimCloudDeps,
		restore?: SimCloudState,
	) {
		this.state = restore ? (JSON.parse(JSON.stringify(restore)) as SimCloudState) : emptySimCloud();
	}

	providerName(): string {
		return 'simcloud';
	}

	/** The instance behind a machine: its zone and type (machines in order; a node's own zone option wins). */
	instanceOf(nodeName: string): { id: string; zone: string; type: string; state: 'running' | 'stopped' | 'terminated'; ip: string } | undefined {
		const names = [...this.deps.hosts.keys()];
		const index = names.indexOf(nodeName);
		const host = this.deps.hosts.get(nodeName);
		if (index < 0 || !host) return undefined;
		const zone = host.options.zone ?? ZONES[index % ZONES.length];
		const state = this.state.deleted.includes(nodeName) ? 'terminated' : host.poweredOff ? 'stopped' : 'running';
		return { id: nodeName, zone, type: `s1-standard-${host.options.cpu}`, state, ip: host.ip };
	}

	instances(): Array<NonNullable<ReturnType<SimCloud['instanceOf']>>> {
		return [...this.deps.hosts.keys()].map((n) => this.instanceOf(n)!);
	}

	/** Deletes an instance: the machine goes off and never comes back. An error text, or undefined. */
	deleteInstance(nodeName: string): string | undefined {
		const instance = this.instanceOf(nodeName);
		if (!instance || instance.state === 'terminated') return `instance ${nodeName} not found`;
		this.deps.kernel.emit({ component: 'simcloud', action: 'delete', object: `instances/${nodeName}`, msg: `deleted instance ${nodeName}` });
		if (instance.state === 'running') this.deps.powerOff(nodeName);
		this.state.deleted.push(nodeName);
		return undefined;
	}

	private nodeInstance(node: Node) {
		return this.instanceOf((node.metadata.name ?? ''));
	}

	instanceExists(node: Node): boolean {
		const instance = this.nodeInstance(node);
		return !!instance && instance.state !== 'terminated';
	}

	instanceShutdown(node: Node): boolean {
		return this.nodeInstance(node)?.state === 'stopped';
	}

	instanceMetadata(node: Node): InstanceMetadata | string {
		const instance = this.nodeInstance(node);
		if (!instance || instance.state === 'terminated') return 'instance not found';
		return {
			providerID: `simcloud://${instance.zone}/${instance.id}`,
			instanceType: instance.type,
			zone: instance.zone,
			region: SIMCLOUD_REGION,
			nodeAddresses: [
				{ type: 'InternalIP', address: instance.ip },
				{ type: 'InternalDNS', address: `${instance.id}.${SIMCLOUD_REGION}.compute.internal` },
				{ type: 'Hostname', address: instance.id },
			],
		};
	}

	getLoadBalancer(name: string): { ingressIp: string } | undefined {
		const lb = this.state.loadBalancers[name];
		return lb ? { ingressIp: lb.ip } : undefined;
	}

	ensureLoadBalancer(request: LoadBalancerRequest): EnsureResult {
		const nowMs = this.deps.kernel.nowMs;
		const existing = this.state.loadBalancers[request.name];
		if (existing) {
			Object.assign(existing, { ...request, ip: existing.ip });
			this.deps.kernel.emit({ component: 'simcloud', action: 'update', object: `loadbalancers/${request.name}`, msg: `updated load balancer ${request.name} (${existing.ip}) for ${request.service}` });
			return { ok: true, ingressIp: existing.ip, readyInMs: Math.max(0, existing.readyAtMs - nowMs) };
		}
		if (this.state.nextLbHost > 254) return { ok: false, error: 'no public address left in the pool' };
		const ip = `${LB_NET}${this.state.nextLbHost++}`;
		this.state.loadBalancers[request.name] = { ...request, ip, createdAtMs: nowMs, readyAtMs: nowMs + LB_PROVISIONING_MS };
		this.deps.kernel.emit({ component: 'simcloud', action: 'create', object: `loadbalancers/${request.name}`, msg: `creating load balancer ${request.name} (${ip}) for ${request.service}: ready in ${LB_PROVISIONING_MS / 1000}s` });
		return { ok: true, ingressIp: ip, readyInMs: LB_PROVISIONING_MS };
	}

	updateLoadBalancer(name: string, nodes: string[]): string | undefined {
		const lb = this.state.loadBalancers[name];
		if (!lb) return `load balancer ${name} not found`;
		lb.nodes = [...nodes];
		this.deps.kernel.emit({ component: 'simcloud', action: 'update', object: `loadbalancers/${name}`, msg: `load balancer ${name} now forwards to ${nodes.join(', ') || 'no host'}` });
		return undefined;
	}

	ensureLoadBalancerDeleted(name: string): void {
		if (!this.state.loadBalancers[name]) return;
		delete this.state.loadBalancers[name];
		this.deps.kernel.emit({ component: 'simcloud', action: 'delete', object: `loadbalancers/${name}`, msg: `deleted load balancer ${name}` });
	}

	readonly routes = {
		list: (): CloudRoute[] => this.state.routes.map((r) => ({ ...r })),
		create: (clusterName: string, nameHint: string, route: Omit<CloudRoute, 'name'>): string | undefined => {
			const name = `${clusterName}-${nameHint}`;
			this.state.routes = this.state.routes.filter((r) => r.name !== name);
			this.state.routes.push({ name, ...route });
			this.deps.kernel.emit({ component: 'simcloud', action: 'create', object: `routes/${name}`, msg: `route ${route.destinationCidr} via instance ${route.targetNode}` });
			return undefined;
		},
		delete: (_clusterName: string, route: CloudRoute): void => {
			this.state.routes = this.state.routes.filter((r) => r.name !== route.name);
			this.deps.kernel.emit({ component: 'simcloud', action: 'delete', object: `routes/${route.name}`, msg: `deleted route ${route.destinationCidr}` });
		},
	};

	/** The load balancers, oldest first. */
	loadBalancers(): SimLoadBalancer[] {
		return Object.values(this.state.loadBalancers).sort((a, b) => a.createdAtMs - b.createdAtMs || a.ip.localeCompare(b.ip));
	}

	/** The health check of one host of a load balancer, as the cloud's prober sees it now. */
	hostHealthy(lb: SimLoadBalancer, node: string): boolean {
		const host = this.deps.hosts.get(node);
		if (!host || host.poweredOff || this.deps.isPartitioned(node) || this.state.deleted.includes(node)) return false;
		if (!host.kubeProxyRunning()) return false;
		if (lb.healthCheck.path === '/healthz') return true;
		// A Local Service's health check node port: 200 when this node has a ready endpoint of the Service.
		const [namespace, name] = lb.service.split('/');
		return this.deps
			.list('endpointslices', namespace)
			.filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name)
			.some((s) => ((s as KubeObject & { endpoints?: Array<{ nodeName?: string; conditions?: { ready?: boolean } }> }).endpoints ?? []).some((e) => e.nodeName === node && e.conditions?.ready !== false));
	}

	/** Where a connection to ip:port goes, or undefined when ip is no load balancer of this cloud. */
	route(ip: string, port: number): LoadBalancerDecision | undefined {
		const lb = Object.values(this.state.loadBalancers).find((l) => l.ip === ip);
		if (!lb) return undefined;
		if (this.deps.kernel.nowMs < lb.readyAtMs) return { kind: 'drop', reason: 'the load balancer is still being provisioned' };
		const listener = lb.ports.find((p) => p.port === port && p.protocol === 'TCP');
		if (!listener || !listener.nodePort) return { kind: 'drop', reason: `no listener on port ${port}` };
		const healthy = lb.nodes.filter((n) => this.hostHealthy(lb, n));
		if (healthy.length === 0) return { kind: 'drop', reason: 'no healthy host' };
		const pick = healthy[Math.floor(this.deps.kernel.rng('simcloud/lb').float() * healthy.length) % healthy.length];
		return { kind: 'forward', node: pick, nodeIp: this.deps.hosts.get(pick)!.ip, nodePort: listener.nodePort };
	}
}
