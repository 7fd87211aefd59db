/**
 * What a cluster is made of: the options `createCluster` accepts, their
 * defaults (a kubeadm-style cluster: one control-plane node and two
 * workers), and the addresses the simulated network hands out.
 *
 * Mirrors nothing upstream: the options of the simulator's createCluster.
 */
import type { Taint } from '../api/types.ts';
import type { KubeSchedulerConfiguration } from '../scheduler/config/types.ts';

export type { KubeSchedulerConfiguration };

/** One node of the cluster, as an author describes it. */
export interface NodeOptions {
	name: string;
	/** CPU as Kubernetes writes it: '2', '500m'. */
	cpu: string;
	/** Memory as Kubernetes writes it: '4Gi', '512Mi'. */
	memory: string;
	/** maxPods (kubelet default 110). */
	pods?: number;
	labels?: Record<string, string>;
	taints?: Taint[];
	/** Images already present on the node, with these names and size whether or not a registry here serves them (ImageLocality reads them from the Node's status). */
	images?: Array<{ names: string[]; sizeBytes: number }>;
	/** Sets topology.kubernetes.io/zone. */
	zone?: string;
	/** 'control-plane' nodes run the control plane's static pods and get kubeadm's label and taint. */
	role?: 'control-plane' | 'worker';
}

export interface ClusterOptions {
	/** Seed of every random choice (names, UIDs, tie-breaks). Same seed + same inputs = same trace. */
	seed?: number;
	nodes?: NodeOptions[];
	scheduler?: KubeSchedulerConfiguration;
	kubeProxyMode?: 'iptables' | 'ipvs' | 'nftables';
	/**
	 * The control plane. `etcdMembers`: 1 (default) to 5 etcd members in a
	 * Raft cluster, stacked one per control-plane machine as kubeadm's HA
	 * topology places them (the first bootstraps the cluster, the others
	 * join it when their machine comes up; extra machines are added as
	 * control-plane-2, -3, ...). `apiServers`: one (several behind a load
	 * balancer are still to come). `registerNode: false`: the control-plane
	 * machine still runs its static pods, but its kubelet runs with
	 * registerNode false, so the cluster's Nodes are exactly the workers, as
	 * on a managed cluster (no Node, no Lease, no mirror pods for it;
	 * kubeadm skips mark-control-plane).
	 */
	controlPlane?: {
		etcdMembers?: number;
		apiServers?: number;
		registerNode?: boolean;
		/**
		 * Replicas of kube-scheduler and of kube-controller-manager (1 to 3
		 * each, default 1). Each runs on its own control-plane machine, as
		 * kubeadm's HA topology places one per control-plane node: a second
		 * replica adds `control-plane-2`, a third `control-plane-3` (unless the
		 * node list already has that many control-plane machines). The extra
		 * machines run only these replicas as static pods; they elect one
		 * leader per Lease and the others stand by.
		 */
		schedulers?: number;
		controllerManagers?: number;
	};
	/** The wall-clock instant virtual time 0 stands for (RFC 3339). */
	startTime?: string;
	/** kubeadm's default is 'Node,RBAC'. */
	authorizationMode?: 'Node,RBAC' | 'AlwaysAllow';
	/**
	 * A cloud under the machines (simcloud) and its cloud-controller-manager:
	 * the kubelets run with --cloud-provider=external, the manager runs as a
	 * DaemonSet on the control plane. `configureCloudRoutes`: its route
	 * controller too (off by default: flannel's overlay carries Pod traffic).
	 * Without it the cluster is bare-metal kubeadm: a LoadBalancer Service
	 * stays `<pending>`.
	 */
	cloud?: boolean | { configureCloudRoutes?: boolean };
	/**
	 * The Pod network add-on applied after `kubeadm init` (./bootstrap/pod-network.ts):
	 * `flannel` (kube-flannel.yml: the kube-flannel-ds DaemonSet, VXLAN),
	 * `calico` (calico.yaml: calico-node and calico-kube-controllers in
	 * kube-system, IPIP), or `none`: nodes stay NotReady (`cni plugin not
	 * initialized`) and CoreDNS Pending until the reader applies one.
	 */
	cni?: 'flannel' | 'calico' | 'none';
	/**
	 * kubeadm's ClusterConfiguration fields for the certificates `kubeadm
	 * init` issues (Go durations): certificateValidityPeriod, default
	 * 8760h (a year), and caCertificateValidityPeriod, default 87600h. A
	 * short one (`2h`) lets a reader watch the control plane's certificates
	 * expire, then renew them with `kubeadm certs renew`.
	 */
	kubeadm?: { certificateValidityPeriod?: string; caCertificateValidityPeriod?: string };
	/** Virtual time to run at creation so the cluster is up when the reader arrives (default: until it settles). */
	bootMs?: number;
}

export const DEFAULT_START_TIME = '2026-11-30T08:00:00Z';
export const DEFAULT_SEED = 1;

const DEFAULT_NODES: NodeOptions[] = [
	{ name: 'control-plane', cpu: '2', memory: '4Gi', role: 'control-plane' },
	{ name: 'node-1', cpu: '2', memory: '4Gi' },
	{ name: 'node-2', cpu: '2', memory: '4Gi' },
];

/** Addresses on the simulated network (a private /24 for nodes, flannel-style pod CIDRs, kubeadm's service CIDR). */
export const NETWORK = {
	nodeSubnet: '192.168.56.0/24',
	firstNodeIp: 10,
	podCidr: '10.244.0.0/16',
	serviceCidr: '10.96.0.0/12',
	kubernetesServiceIp: '10.96.0.1',
	dnsServiceIp: '10.96.0.10',
	apiServerPort: 6443,
} as const;

export function nodeIp(index: number): string {
	return `192.168.56.${NETWORK.firstNodeIp + index}`;
}

/** The /24 each node gets from the pod CIDR (kube-controller-manager's node IPAM, --node-cidr-mask-size=24). */
export function nodePodCidr(index: number): string {
	return `10.244.${index}.0/24`;
}

export function isControlPlane(node: NodeOptions): boolean {
	return node.role === 'control-plane' || node.labels?.['node-role.kubernetes.io/control-plane'] !== undefined;
}

/** The most replicas of kube-scheduler or kube-controller-manager a cluster runs (kubeadm's HA guides use three control-plane nodes). */
export const MAX_CONTROL_PLANE_REPLICAS = 3;

/** The replica counts of `controlPlane`, checked: whole numbers from 1 to MAX_CONTROL_PLANE_REPLICAS. */
export function controlPlaneReplicas(controlPlane: ClusterOptions['controlPlane']): { schedulers: number; controllerManagers: number; etcdMembers: number } {
	const count = (field: 'schedulers' | 'controllerManagers' | 'etcdMembers', max: number, each: string): number => {
		const value = controlPlane?.[field];
		if (value === undefined) return 1;
		if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`controlPlane.${field}: ${JSON.stringify(value)} is not a whole number from 1 to ${max} (one ${each} per control-plane machine)`);
		return value;
	};
	return {
		schedulers: count('schedulers', MAX_CONTROL_PLANE_REPLICAS, 'replica'),
		controllerManagers: count('controllerManagers', MAX_CONTROL_PLANE_REPLICAS, 'replica'),
		etcdMembers: count('etcdMembers', MAX_ETCD_MEMBERS, 'member'),
	};
}

/** Stacked etcd members, one per control-plane machine: 1 to 5 (an even count is allowed, to show why it buys nothing). */
export const MAX_ETCD_MEMBERS = 5;

/**
 * The node list with a control-plane node guaranteed (first), names unique,
 * and at least `controlPlaneMachines` control-plane machines (the extra ones
 * named control-plane-2, -3 as the first is control-plane).
 */
export function resolveNodes(nodes: NodeOptions[] | undefined, controlPlaneMachines = 1): NodeOptions[] {
	const list = nodes && nodes.length ? nodes.map((n) => ({ ...n })) : DEFAULT_NODES.map((n) => ({ ...n }));
	const names = new Set<string>();
	for (const node of list) {
		if (names.has(node.name)) throw new Error(`duplicate node name "${node.name}"`);
		names.add(node.name);
	}
	if (!list.some(isControlPlane)) list.unshift({ name: names.has('control-plane') ? 'control-plane-0' : 'control-plane', cpu: '2', memory: '4Gi', role: 'control-plane' });
	for (let n = 2; list.filter(isControlPlane).length < controlPlaneMachines; n++) {
		const name = `control-plane-${n}`;
		if (names.has(name)) continue;
		names.add(name);
		list.push({ name, cpu: '2', memory: '4Gi', role: 'control-plane' });
	}
	// The control plane first, as kubeadm init comes before joins.
	return [...list.filter(isControlPlane), ...list.filter((n) => !isControlPlane(n))];
}
