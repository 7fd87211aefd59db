/**
 * The cloud as cloud-controller-manager sees it: the provider interface its
 * controllers call (instances, load balancers, routes). A provider
 * implements it against its cloud's API; the simulator's cloud ("simcloud",
 * cluster/sim-cloud.ts) implements it against the simulated machines.
 *
 * Calls answer at once. Where a real provider's EnsureLoadBalancer blocks
 * until the cloud's load balancer exists, this one says how long the cloud
 * still needs (`readyInMs`), and the service controller comes back then
 * (controllers/cloud/service-controller.ts).
 *
 * Mirrors staging/src/k8s.io/cloud-provider/cloud.go (Interface,
 * InstancesV2, LoadBalancer, Routes, InstanceMetadata,
 * DefaultLoadBalancerName).
 */
import type { KubeObject, Node } from '../../api/types.ts';

/** InstanceMetadata: what the cloud knows of the machine behind a Node. */
export interface InstanceMetadata {
	/** `<provider>://<zone>/<instance>` (spec.providerID). */
	providerID: string;
	instanceType: string;
	nodeAddresses: Array<{ type: string; address: string }>;
	zone: string;
	region: string;
}

/** One listener of a cloud load balancer: the Service port, forwarded to the NodePort on every host. */
export interface LoadBalancerPort {
	protocol: string;
	port: number;
	nodePort: number;
}

/** What the service controller asks the cloud for. */
export interface LoadBalancerRequest {
	/** DefaultLoadBalancerName of the Service. */
	name: string;
	/** `namespace/name` of the Service (the cloud tags the load balancer with it). */
	service: string;
	ports: LoadBalancerPort[];
	/** The hosts behind it: node names. */
	nodes: string[];
	/** How the cloud checks a host: kube-proxy's /healthz (port 10256), or the Service's healthCheckNodePort with externalTrafficPolicy Local. */
	healthCheck: { port: number; path: string };
	loadBalancerSourceRanges: string[];
}

/** EnsureLoadBalancer's answer. */
export type EnsureResult = { ok: true; ingressIp: string; readyInMs: number } | { ok: false; error: string };

/** A route of the cloud's route table: traffic for a node's Pod CIDR goes to that instance. */
export interface CloudRoute {
	name: string;
	targetNode: string;
	destinationCidr: string;
}

/** cloudprovider.Interface, as far as the simulated controllers use it. */
export interface CloudProvider {
	/** ProviderName ('simcloud'). */
	providerName(): string;
	/** InstancesV2.InstanceExists. */
	instanceExists(node: Node): boolean;
	/** InstancesV2.InstanceShutdown: the instance exists but is stopped. */
	instanceShutdown(node: Node): boolean;
	/** InstancesV2.InstanceMetadata, or an error text (InstanceNotFound). */
	instanceMetadata(node: Node): InstanceMetadata | string;
	/** LoadBalancer.GetLoadBalancer: the load balancer's ingress IP if it exists. */
	getLoadBalancer(name: string): { ingressIp: string } | undefined;
	/** LoadBalancer.EnsureLoadBalancer: creates or updates it. */
	ensureLoadBalancer(request: LoadBalancerRequest): EnsureResult;
	/** LoadBalancer.UpdateLoadBalancer: only the hosts change. An error text, or undefined. */
	updateLoadBalancer(name: string, nodes: string[]): string | undefined;
	/** LoadBalancer.EnsureLoadBalancerDeleted. */
	ensureLoadBalancerDeleted(name: string): void;
	/** Routes(), when the cloud has a route table. */
	routes?: {
		list(clusterName: string): CloudRoute[];
		create(clusterName: string, nameHint: string, route: Omit<CloudRoute, 'name'>): string | undefined;
		delete(clusterName: string, route: CloudRoute): void;
	};
}

/** DefaultLoadBalancerName: "a" + the Service's UID without dashes, at most 32 characters. */
export function defaultLoadBalancerName(service: KubeObject): string {
	return `a${(service.metadata.uid ?? '').replace(/-/g, '')}`.slice(0, 32);
}

export { TaintKeys } from '../../component-helpers/taints.ts';
