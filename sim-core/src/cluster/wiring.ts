/**
 * What each part of the wiring gets from the cluster it is part of: narrow
 * views instead of the whole Cluster, so a machine, the reader's shell and
 * the tools depend on what they use and the Cluster class stays the only
 * thing that holds everything.
 *
 * Mirrors nothing upstream: the narrow views the simulator's wiring parts
 * get of their cluster.
 */
import type { ApiRequest, ApiResponse, UserInfo } from '../api/request.ts';
import type { KubeObject } from '../api/types.ts';
import type { EtcdClient } from '../etcd-api/etcd.ts';
import type { Kernel } from '../sim/kernel.ts';
import type { Fault, FaultCause } from './faults.ts';
import type { NodeHost } from './node-host.ts';
import type { SimCloud } from './sim-cloud.ts';
import type { ClusterTransport } from './transport.ts';
import type { SystemContainerInfo } from '../runtime/container-runtime.ts';

/** What one machine (NodeHost and its network) needs. */
export interface MachineContext {
	readonly kernel: Kernel;
	readonly transport: ClusterTransport;
	/** Whether a component on a node has been made to fail (a unit that must stay down, a crash-looping static pod). */
	isFailing(component: string, node: string): boolean;
	isPartitioned(node: string): boolean;
	/** Objects of a resource as etcd holds them now (an observer's read: no request, no trace). */
	list(resource: string, namespace?: string): KubeObject[];
	/** Whether kube-apiserver answers /readyz (its static pod's readiness probe). */
	apiServerReady(): boolean;
	/** `cloud: true`: the kubelets run with --cloud-provider=external and a cloud-controller-manager container runs the process of that name. */
	readonly externalCloudProvider: boolean;
	/** Every machine of the cluster (the Pod network's routes run between them). */
	peers?(): Iterable<NodeHost>;
	/** metrics-server's containers, when the reader installs it: their starts, stops and probes. */
	metricsServer?: {
		started(node: string, container: SystemContainerInfo): void;
		stopped(containerId: string): void;
		probe(node: string, path: string): number | undefined;
	};
}

/** What the network between the machines needs: every machine, to find where a connection lands. */
export interface NetworkContext extends MachineContext {
	readonly hosts: ReadonlyMap<string, NodeHost>;
	get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
	/** The cloud under the machines, with `cloud: true` (its load balancers take connections). */
	readonly cloud?: SimCloud;
}

/** What the reader's shell needs. */
export interface ShellContext {
	readonly kernel: Kernel;
	readonly transport: ClusterTransport;
	readonly hosts: ReadonlyMap<string, NodeHost>;
	isPoweredOff(node: string): boolean;
	/** The API server's answer from its cache, without a request (the inspector's observer reads). */
	observe(request: ApiRequest): ApiResponse;
	/** An object as stored now (a port-forward job checks that its Pod is still there). */
	get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
}

/** One etcd member as a client dials it. */
export interface EtcdMemberEndpoint {
	/** `--name`: its machine's name. */
	name: string;
	ip: string;
	/** A connection while its process runs (its requests may still time out without a quorum). */
	connect(): EtcdClient | undefined;
	/** Its Raft facts in a cluster of several members (a lone member's are implied). */
	raft?: { term: number; leader: string; isLeader: boolean; raftIndex: number; appliedIndex: number };
	/** When a joined member was added (its ID depends on it). */
	addedAtWallMs?: number;
	/** Added by hand (etcdctl member add) and never started: its peer URL; it has no name and no client URLs yet. */
	unstartedPeerUrl?: string;
}

/** What the tools a reader types need, to be wired to the machines they run on. */
export interface ToolsContext extends NetworkContext {
	readonly controlPlaneNode: string;
	/** The first etcd member's client API, while it answers requests. */
	etcd(): EtcdClient | undefined;
	/** Every etcd member as etcdctl dials it, the first control-plane machine's first. */
	etcdMembers(): EtcdMemberEndpoint[];
	/** Tells etcd's watchers about writes made from outside the API server (etcdctl put). */
	announceEtcd(): void;
	/** The API server's token authenticator (bearer tokens curl sends). */
	authenticateToken(token: string): UserInfo | undefined;
	/** A fault caused from a node's own shell (systemctl, poweroff, reboot). */
	nodeFault(fault: Fault, cause: FaultCause): void;
	/** logind's timer for `shutdown +N`. */
	scheduleShutdownCheck(node: string, atWallMs: number): void;
}
