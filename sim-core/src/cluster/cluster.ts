/**
 * A whole simulated cluster, wired the way kubeadm wires a real one.
 *
 * Every machine has containerd and a kubelet (systemd services). On the
 * control-plane node the kubelet runs the static pods kubeadm wrote to
 * /etc/kubernetes/manifests: etcd, kube-apiserver, kube-controller-manager
 * and kube-scheduler, each backed by its simulated process. When the API
 * server answers, its post-start hooks create the system namespaces, the
 * system PriorityClasses, the `kubernetes` Service and the RBAC defaults;
 * `kubeadm init` then uploads its configuration, installs kube-proxy and
 * CoreDNS and marks the control-plane node. The workers' kubelets register
 * themselves. Nothing here calls a component directly for cluster work:
 * they all meet at the API server.
 *
 * This file only connects the parts and exposes the public API (../index.ts).
 *
 * Mirrors nothing upstream: the simulator's wiring of a whole cluster and
 * its public API.
 */
import { MetricsServer, METRICS_SERVER } from '../metrics-server/metrics-server.ts';
import { aggregatedBackend, metricsServerDeps } from './metrics-wiring.ts';
import type { KubeObject, Pod } from '../api/types.ts';
import { RESOURCES, etcdPrefix, resourceByName, type ResourceInfo } from '../api/resources.ts';
import { parseGoDurationMs } from '../golang/duration.ts';
import { Kernel, type KernelState } from '../sim/kernel.ts';
import { parseRfc3339 } from '../golang/time.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { MvccStore, type MvccState } from '../store/mvcc.ts';
import { EtcdMember } from '../store/etcd.ts';
import { DATA_DIR_DB } from '../tools/etcdctl/etcdutl.ts';
import { parseYaml } from '../yaml/index.ts';
import { decodeSnapshot } from '../tools/etcdctl/snapshot-file.ts';
import { EtcdCluster, type EtcdClusterSnapshot, type RaftView } from '../store/etcd-cluster.ts';
import { KubeApiServer } from '../apiserver/apiserver.ts';
import { defaultStrategies } from '../apiserver/registry/index.ts';
import { defaultAdmissionPlugins } from '../apiserver/admission/index.ts';
import { defaultAuthorizers } from '../apiserver/auth/index.ts';
import { identityOf } from '../apiserver/auth/identities.ts';
import { bootstrapPolicyObjects, kubeadmRbacObjects } from '../apiserver/auth/bootstrap-policy.ts';
import type { ApiRequest, ApiResponse } from '../api/request.ts';
import { strictDecode } from '../api/schema/index.ts';
import { ApiClient } from '../client/client.ts';
import { KubeScheduler } from '../scheduler/scheduler.ts';
import type { SchedulingExplanation } from '../scheduler/explanation.ts';
import { KubeControllerManager } from '../controllers/controller-manager.ts';
import { ClusterTransport } from './transport.ts';
import { KubeadmInit } from './kubeadm.ts';
import { NodeHost, controlPlaneProcessId, type NodeHostState } from './node-host.ts';
import { systemNamespaces, systemPriorityClasses, kubernetesService } from './bootstrap/system-objects.ts';
import { coreDnsObjects, kubeadmConfigMaps, kubeProxyObjects } from './bootstrap/addons.ts';
import { DEFAULT_SEED, DEFAULT_START_TIME, NETWORK, controlPlaneReplicas, isControlPlane, nodeIp, nodePodCidr, resolveNodes, type ClusterOptions, type NodeOptions } from './options.ts';
import { ReaderShell, type ShellState } from './reader-shell.ts';
import { TimedFaults, type PlannedFault } from './timed-faults.ts';
import { unconverged } from './convergence.ts';
import { registerTools } from './tools.ts';
import type { ToolsContext } from './wiring.ts';
import { CONTROL_PLANE_COMPONENTS, Faults, type Component, type Fault, type FaultCause } from './faults.ts';
import { readShutdownSchedule, SHUTDOWN_SCHEDULE_FILE } from '../tools/systemd/index.ts';
import { deepCopy } from '../golang/json.ts';
import { CLOUD_CONTROLLER_MANAGER, createCloudControllerManager } from '../controllers/cloud/cloud-controller-manager.ts';
import { SimCloud, type SimCloudState } from './sim-cloud.ts';
import { cloudControllerManagerObjects } from './bootstrap/cloud.ts';
import { podNetworkObjects, type PodNetworkAddon } from './bootstrap/pod-network.ts';
import { complete, kubectlVerbs, type Completion, type ResourceKind } from './completion.ts';
import { nodeViews, podViews, type NodeView, type PodView } from './map-view.ts';
import { kubeconfigClientCertificate, pkiDates, SERVING_CERTIFICATE, type PkiDates } from '../tools/kubeadm/pki.ts';
import type { LoadedCertificates } from './transport.ts';

/** The certificates each end of the API server's etcd connection loaded (keys in the transport's loaded certificates). */
const ETCD_CLIENT_CERTIFICATE = 'kube-apiserver/etcd-client';
const ETCD_SERVING_CERTIFICATE = 'etcd/server';
import { COMMANDS as KUBECTL_COMMANDS } from '../kubectl/cmd/index.ts';

/** Everything a snapshot holds: plain JSON. */
export interface ClusterSnapshot {
	format: 'cluster-anatomy/snapshot@1';
	options: ClusterOptions;
	kernel: KernelState;
	etcd: MvccState;
	/** With several etcd members: each member's Raft state and store (`etcd` is then the first member's store). */
	etcdCluster?: EtcdClusterSnapshot;
	/** A lone member's other data directories (a restore made them), and the host path it runs on now. */
	etcdDataDirs?: Array<{ path: string; state: MvccState; restoredFrom?: string }>;
	etcdDataDir?: string;
	hosts: Record<string, NodeHostState>;
	partitions: string[];
	faults: string[];
	shell: ShellState;
	inputs: ClusterInput[];
	/** The simulated cloud's state, with `cloud: true`. */
	cloud?: SimCloudState;
	/** The client certificates the components loaded when they last started. */
	certificates?: LoadedCertificates;
}

/** One thing the reader (or a scenario) did; replaying the list rebuilds the session. */
export type ClusterInput =
	/** `edit`: the reader's editor session for a `kubectl edit` on the line (see EditSession). */
	| { kind: 'exec'; line: string; stdin?: string; edit?: EditSession }
	| { kind: 'advance'; ms: number }
	| { kind: 'settle'; maxMs: number }
	| { kind: 'stop' | 'start'; component: string; node?: string }
	| { kind: 'partition' | 'heal'; node: string }
	| { kind: 'powerOff' | 'powerOn'; node: string }
	/** A node's clock set `offsetMs` away from true time (0 puts it back in step). */
	| { kind: 'setClock'; node: string; offsetMs: number }
	| { kind: 'writeFile'; path: string; text: string; host?: string };

/**
 * What the reader did in the editor `kubectl edit` opened: the text it
 * opened with (when the editor was open while time ran; omitted, the
 * object as read when the line runs), and what they saved each time it
 * opened (it reopens after an invalid save), in order. An editor opened
 * beyond the saves closes unchanged.
 */
export interface EditSession {
	opened?: string;
	saves: string[];
}

/** The result of a command, as a terminal shows it. */
export interface ExecResult {
	stdout: string;
	stderr: string;
	/** stdout and stderr interleaved in the order written. */
	output: string;
	exitCode: number;
	/** The texts an editor opened with during the line (kubectl edit), in order: what the sandbox shows in its editor. */
	editor?: string[];
}

export type { Component };

/** What applying one input did: `recorded` is false when the cluster refused it (and so did not log it), with the reason. */
export interface ApplyResult {
	recorded: boolean;
	/** What an `exec` printed. */
	result?: ExecResult;
	/** For `settle`: whether only housekeeping was left when it returned. */
	settled?: boolean;
	error?: string;
}

/** How long createCluster runs the boot before handing the cluster over, at most. */
const BOOT_MAX_MS = 180_000;
/**
 * How long a node's `reboot` keeps it down, from the command to containerd
 * and the kubelet starting on the new boot: a few seconds for systemd to
 * stop the units, about 5 s of VM firmware and GRUB, 3 s of kernel and
 * initrd, and 15–20 s of Ubuntu 24.04's userspace before containerd.service
 * (what `systemd-analyze` reports on small cloud VMs). 30 s in all: the
 * node's Lease (renewed every 10 s) stays younger than the 50 s
 * node-monitor grace period, so the control plane rarely notices a reboot.
 */
export const REBOOT_MS = 30_000;
/**
 * The pod CIDR a machine without a Node gives its runtime: node IPAM never
 * assigns it one, and its static pods use the host's network. The last /24
 * of the cluster CIDR, which the range allocator reaches only at the 256th
 * Node.
 */
const UNREGISTERED_POD_CIDR = nodePodCidr(255);

/** What tab completion knows without asking the cluster: kubectl's verbs and flags, discovery's kinds (aggregated ones are not kubectl's to list here). */
const COMPLETION_VERBS = kubectlVerbs(KUBECTL_COMMANDS);
const COMPLETION_KINDS: ResourceKind[] = RESOURCES.filter((r) => r.verbs.length > 0 && !r.aggregated).map((r) => ({ name: r.resource, shortNames: r.shortNames, kind: r.kind, namespaced: r.namespaced }));

export class Cluster {
	readonly kernel: Kernel;
	readonly options: ClusterOptions & { seed: number; startTime: string };
	readonly nodes: NodeOptions[];
	/** A lone etcd member's data directories on its machine, by host path: the one kubeadm made and any a restore made. */
	private readonly etcdDataDirs = new Map<string, { store: MvccStore; restoredFrom?: string }>();
	private etcdDataDir = ETCD_DATA_DIR;
	/** When kubeadm issued the cluster's certificates (virtual time 0) and for how long (./pki.ts). */
	readonly pki: PkiDates;
	readonly etcd: EtcdMember;
	/** Every etcd member, the first control-plane machine's first (`controlPlane.etcdMembers`). */
	readonly etcdMembers: EtcdMember[];
	/** The Raft cluster of the members, with more than one. */
	readonly etcdCluster?: EtcdCluster;
	readonly apiServer: KubeApiServer;
	readonly scheduler: KubeScheduler;
	readonly controllerManager: KubeControllerManager;
	/** Every kube-scheduler replica, the first control-plane machine's first (`controlPlane.schedulers`). */
	readonly schedulers: KubeScheduler[];
	/** Every kube-controller-manager replica, the first control-plane machine's first (`controlPlane.controllerManagers`). */
	readonly controllerManagers: KubeControllerManager[];
	/** metrics-server's process: idle until the reader installs it (kubeadm does not). */
	readonly metricsServer: MetricsServer;
	readonly transport: ClusterTransport;
	readonly hosts = new Map<string, NodeHost>();
	readonly shell: ReaderShell;
	/** With `cloud: true`: the simulated cloud and the cloud-controller-manager process (it runs while its DaemonSet's container does). */
	readonly cloud?: SimCloud;
	readonly cloudControllerManager?: KubeControllerManager;
	private readonly timedFaults: TimedFaults;
	private readonly faults: Faults;
	private readonly inputLog: ClusterInput[] = [];
	private inputCount = 0;
	/** False with `controlPlane: { registerNode: false }`: the control-plane machines' kubelets create no Node. */
	private readonly registerControlPlane: boolean;
	/** The Pod network add-on applied after kubeadm init (the `cni` option). */
	private readonly podNetwork: PodNetworkAddon;

	constructor(options: ClusterOptions = {}, restore?: ClusterSnapshot) {
		this.options = {
			...options,
			seed: options.seed ?? DEFAULT_SEED,
			startTime: options.startTime ?? DEFAULT_START_TIME,
		};
		const replicas = controlPlaneReplicas(options.controlPlane);
		this.nodes = resolveNodes(options.nodes, Math.max(replicas.schedulers, replicas.controllerManagers, replicas.etcdMembers));
		// Several API servers behind a load balancer are still to come; until then say so rather than quietly build one.
		const { registerNode, schedulers: _schedulers, controllerManagers: _controllerManagers, etcdMembers: _etcdMembers, ...counts } = options.controlPlane ?? {};
		for (const [field, value] of Object.entries(counts)) {
			if (value !== undefined && value !== 1) throw new Error(`controlPlane.${field}: ${String(value)} is not supported yet; this version runs one kube-apiserver (set 1 or leave it out)`);
		}
		if (registerNode !== undefined && typeof registerNode !== 'boolean') throw new Error(`controlPlane.registerNode: ${JSON.stringify(registerNode)} is not a boolean (false: the control-plane machine registers no Node, as on a managed cluster)`);
		this.registerControlPlane = registerNode !== false;
		if (options.cni !== undefined && !['flannel', 'calico', 'none'].includes(options.cni)) throw new Error(`cni: ${JSON.stringify(options.cni)} is not one of "flannel", "calico", "none"`);
		this.podNetwork = options.cni ?? 'flannel';
		const cloudOption = options.cloud;
		if (cloudOption !== undefined && typeof cloudOption !== 'boolean' && (typeof cloudOption !== 'object' || cloudOption === null)) throw new Error(`cloud: ${JSON.stringify(cloudOption)} is neither true/false nor { configureCloudRoutes }`);
		const withCloud = cloudOption === true || (typeof cloudOption === 'object' && cloudOption !== null);
		// The manager runs as a DaemonSet on the control-plane Node: a control plane that is no Node has nowhere to run it.
		if (withCloud && !this.registerControlPlane) throw new Error('cloud: the cloud-controller-manager runs as a DaemonSet on the control-plane Node; it cannot be combined with controlPlane.registerNode: false');
		const epochMs = parseRfc3339(this.options.startTime);
		if (Number.isNaN(epochMs)) throw new Error(`startTime "${this.options.startTime}" is not an RFC 3339 time`);
		this.kernel = new Kernel(this.options.seed, epochMs, restore?.kernel);
		this.pki = pkiDates(epochMs, options.kubeadm);
		const controlPlane = this.nodes[0];
		const controlPlaneMachines = this.nodes.filter(isControlPlane);
		if (replicas.etcdMembers > 1 || restore?.etcdCluster) {
			// Members talk over the machines' network: both powered on, neither cut off.
			const machineUp = (machine: string) => !this.hosts.get(machine)?.poweredOff && !this.faults.isPartitioned(machine);
			this.etcdCluster = new EtcdCluster(
				{
					isRunning: (id) => this.kernel.isRunning(id),
					reachable: (a, b) => machineUp(a) && machineUp(b),
					random: (id) => ({ int: (n) => this.kernel.rng(`etcd-raft/${id}`).int(n) }),
					applied: (name) => this.etcdMembers.find((m) => m.raft?.name === name)?.announce(),
					wallMs: () => this.kernel.wallMs(),
					peerUrl: (name) => {
						const index = this.nodes.findIndex((n) => n.name === name);
						return index < 0 ? undefined : `https://${nodeIp(index)}:2380`;
					},
					// etcd exits once it learns it was removed; the kubelet restarts it, and it exits again.
					removed: (name) => this.etcdMembers.find((m) => m.raft?.name === name)?.shutDownRemoved(),
					raftChanged: (name, before, after) => this.etcdMembers.find((m) => m.raft?.name === name)?.log(...raftLogLine(before, after)),
				},
				restore?.etcdCluster ? deepCopy(restore.etcdCluster) : undefined,
			);
		}
		const firstStore = restore ? new MvccStore(deepCopy(restore.etcd)) : MvccStore.empty();
		const primaryStore = this.etcdCluster ? (restore?.etcdCluster ? this.etcdCluster.store(controlPlane.name)! : this.etcdCluster.bootstrap(controlPlane.name, 'etcd', firstStore)) : firstStore;
		for (const dir of restore?.etcdDataDirs ?? []) this.etcdDataDirs.set(dir.path, { store: new MvccStore(deepCopy(dir.state)), ...(dir.restoredFrom !== undefined ? { restoredFrom: dir.restoredFrom } : {}) });
		if (restore?.etcdDataDir) this.etcdDataDir = restore.etcdDataDir;
		this.etcdDataDirs.set(this.etcdDataDir, { ...this.etcdDataDirs.get(this.etcdDataDir), store: primaryStore });
		this.faults = new Faults(
			{
				kernel: this.kernel,
				hosts: this.hosts,
				controlPlaneNode: () => this.controlPlaneNode,
				closeWatchesOf: (ids) => this.apiServer.closeWatchesOf(ids),
				hostWentDown: (node) => this.shell.hostWentDown(node),
				hasCloudControllerManager: options.cloud === true || (typeof options.cloud === 'object' && options.cloud !== null),
				instanceDeleted: (node) => this.cloud?.instanceOf(node)?.state === 'terminated',
				planReboot: (node, afterBoot) => this.timedFaults.plan({ atMs: this.kernel.nowMs + REBOOT_MS, verb: 'powerOn', node, by: `systemd/${node}`, afterBoot }, { work: true, origin: this.kernel.origin }),
			},
			restore ? { failing: restore.faults, partitions: restore.partitions } : undefined,
		);
		if (restore) this.inputLog.push(...restore.inputs);

		const apiIp = nodeIp(0);
		const apiAddress = `${apiIp}:${NETWORK.apiServerPort}`;
		const apiServerUrl = `https://${apiAddress}`;

		this.transport = new ClusterTransport(
			this.kernel,
			() => this.apiServer,
			apiAddress,
			(node) => this.faults.isPartitioned(node) || !!this.hosts.get(node)?.poweredOff,
			() => !!this.hosts.get(controlPlane.name)?.poweredOff,
			{ machine: controlPlane.name, servingCertificate: () => this.fileOn(controlPlane.name, SERVING_CERTIFICATE) },
			restore?.certificates,
		);
		const memberExit = (machine: string) => () => this.hosts.get(machine)?.componentCrashed('etcd');
		this.etcd = new EtcdMember(this.kernel, primaryStore, 'etcd', controlPlane.name, apiIp, this.etcdCluster ? { cluster: this.etcdCluster, name: controlPlane.name, exit: memberExit(controlPlane.name) } : undefined, () => this.openEtcdDataDir(controlPlane.name));
		this.etcdMembers = [this.etcd];
		this.apiServer = new KubeApiServer(this.kernel, {
			// etcd refuses the API server's client certificate, or the API server etcd's serving one, once either (as loaded when its process started) is outside its validity.
			etcd: { store: () => (this.etcdHandshakeFails(controlPlane.name) ? undefined : this.etcd.store()), watch: (id) => this.etcd.addWatcher(id), notify: () => this.etcd.announce() },
			strategies: defaultStrategies(),
			admission: defaultAdmissionPlugins(),
			authorizers: defaultAuthorizers(this.options.authorizationMode ?? 'Node,RBAC'),
			decode: (body, info) => strictDecode(body, { group: info.group, version: info.version, kind: info.kind }),
			systemObjects: () => [...systemNamespaces(), ...systemPriorityClasses(), ...kubernetesService({ apiServerIp: apiIp, kubernetesServiceIp: NETWORK.kubernetesServiceIp }), ...bootstrapPolicyObjects()],
			nodeProxy: (nodeName, request) => this.proxyToKubelet(nodeName, request),
			// A machine that is off answers no ARP (EHOSTUNREACH); a cut-off one drops the SYNs until the dial times out.
			kubeletDialError: (nodeName) => (this.hosts.get(nodeName)?.poweredOff ? 'connect: no route to host' : this.faults.isPartitioned(nodeName) ? 'i/o timeout' : 'connect: connection refused'),
			aggregatedBackend: (target, request) => aggregatedBackend(this.metricsServer, target, request),
		});
		this.metricsServer = new MetricsServer(this.kernel, this.transport, metricsServerDeps({ hosts: this.hosts, isPartitioned: (node) => this.faults.isPartitioned(node), clusterDnsIp: NETWORK.dnsServiceIp }));
		// Losing the leader lease ends the process (its container exits 1 and the kubelet restarts it).
		const crash = (component: string) => () => this.hosts.get(controlPlane.name)?.componentCrashed(component);
		this.scheduler = new KubeScheduler(this.kernel, this.transport, { config: this.options.scheduler, hostname: controlPlane.name, onLeadershipLost: crash('kube-scheduler') });
		// An invalid KubeSchedulerConfiguration is refused before anything runs, in the words kube-scheduler exits with.
		if (this.scheduler.configError) throw new Error(`scheduler: ${this.scheduler.configError}`);
		this.controllerManager = new KubeControllerManager(this.kernel, this.transport, { onLeadershipLost: crash('kube-controller-manager') });
		// Standby replicas, one per further control-plane machine (kubeadm's HA topology): same flags, their own identity in the Lease.
		this.schedulers = [this.scheduler];
		this.controllerManagers = [this.controllerManager];
		controlPlaneMachines.slice(1).forEach((machine, i) => {
			const crashHere = (component: string) => () => this.hosts.get(machine.name)?.componentCrashed(component);
			if (i + 1 < replicas.etcdMembers && this.etcdCluster) {
				// A stacked member: it joins the cluster when its static Pod first starts (kubeadm join --control-plane).
				const id = controlPlaneProcessId('etcd', machine.name, false);
				this.etcdMembers.push(new EtcdMember(this.kernel, this.etcdCluster.prepare(machine.name, id), id, machine.name, nodeIp(this.nodes.indexOf(machine)), { cluster: this.etcdCluster, name: machine.name, exit: memberExit(machine.name) }));
			}
			if (i + 1 < replicas.schedulers) {
				const id = controlPlaneProcessId('kube-scheduler', machine.name, false);
				this.schedulers.push(new KubeScheduler(this.kernel, this.transport, { config: this.options.scheduler, hostname: machine.name, onLeadershipLost: crashHere('kube-scheduler') }, id));
				this.transport.enroll(id, this.identity('kube-scheduler'), machine.name);
			}
			if (i + 1 < replicas.controllerManagers) {
				const id = controlPlaneProcessId('kube-controller-manager', machine.name, false);
				const manager = new KubeControllerManager(this.kernel, this.transport, { hostname: machine.name, onLeadershipLost: crashHere('kube-controller-manager') }, id);
				this.controllerManagers.push(manager);
				this.transport.enroll(id, this.identity('kube-controller-manager'), machine.name);
				for (const name of manager.controllerNames()) this.transport.enroll(`${id}/${name}`, this.identity(`kube-controller-manager/${name}`), machine.name);
			}
		});
		// What each control-plane machine runs as static pods; its NodeHost keeps it from there (host.staticComponents).
		const staticComponentsByMachine = new Map(
			controlPlaneMachines.map((machine, i) => [
				machine.name,
				i === 0 ? [...CONTROL_PLANE_COMPONENTS] : [...(i < replicas.etcdMembers ? ['etcd'] : []), ...(i < replicas.controllerManagers ? ['kube-controller-manager'] : []), ...(i < replicas.schedulers ? ['kube-scheduler'] : [])],
			]),
		);
		// No Node to mark without its registration: as `kubeadm init --skip-phases=mark-control-plane`.
		const kubeadm = new KubeadmInit(this.kernel, this.transport, this.registerControlPlane ? this.nodes.filter(isControlPlane).map((n) => n.name) : [], () => [
			...kubeadmConfigMaps(this.addonFacts(apiServerUrl)),
			...kubeadmRbacObjects(),
			...kubeProxyObjects(this.addonFacts(apiServerUrl)),
			...coreDnsObjects(this.addonFacts(apiServerUrl)),
			// The Pod network add-on, applied right after kubeadm init as the tutorial does (none: left to the reader).
			...podNetworkObjects(this.podNetwork),
			// The provider's manifest, applied right after kubeadm init.
			...(withCloud ? cloudControllerManagerObjects({ clusterCidr: NETWORK.podCidr, configureCloudRoutes }) : []),
		], controlPlaneMachines.length > 1 ? () => { for (const machine of controlPlaneMachines.slice(1)) this.hosts.get(machine.name)?.powerOn(); } : undefined);
		this.timedFaults = new TimedFaults(this.kernel, (fault) => this.firePlannedFault(fault));
		const configureCloudRoutes = typeof cloudOption === 'object' && cloudOption !== null && cloudOption.configureCloudRoutes === true;
		if (withCloud) {
			this.cloud = new SimCloud(
				{
					kernel: this.kernel,
					hosts: this.hosts,
					isPartitioned: (node) => this.faults.isPartitioned(node),
					list: (resource, namespace) => this.list(resource, namespace),
					powerOff: (node) => this.faults.apply({ verb: 'powerOff', node }, { actor: 'simcloud' }),
				},
				restore?.cloud,
			);
			this.cloudControllerManager = createCloudControllerManager(this.kernel, this.transport, this.cloud, {
				hostname: controlPlane.name,
				configureCloudRoutes,
				clusterCidr: NETWORK.podCidr,
				onLeadershipLost: crash(CLOUD_CONTROLLER_MANAGER),
			});
			this.kernel.register(this.cloudControllerManager);
			this.transport.enroll(CLOUD_CONTROLLER_MANAGER, this.identity(CLOUD_CONTROLLER_MANAGER), controlPlane.name);
		}
		for (const process of [...this.etcdMembers, this.apiServer, ...this.schedulers, ...this.controllerManagers, kubeadm, this.timedFaults, this.metricsServer]) this.kernel.register(process);
		this.transport.enroll(METRICS_SERVER, this.identity(METRICS_SERVER));

		// Identities: what each process's kubeconfig (or service account) authenticates as.
		this.transport.enroll('kube-apiserver', KubeApiServer.LOOPBACK_USER, controlPlane.name);
		for (const id of ['kube-scheduler', 'kube-controller-manager']) this.transport.enroll(id, this.identity(id), controlPlane.name);
		// kubeadm init talks to the API server with super-admin.conf (system:masters) since v1.29.
		this.transport.enroll('kubeadm', { username: 'kubernetes-super-admin', groups: ['system:masters', 'system:authenticated'] }, controlPlane.name);
		for (const name of this.controllerManager.controllerNames()) this.transport.enroll(`kube-controller-manager/${name}`, this.identity(`kube-controller-manager/${name}`), controlPlane.name);
		// The two ends of the API server's connection to etcd: each loads its certificate when it starts.
		this.transport.presentCertificateFrom(ETCD_CLIENT_CERTIFICATE, { process: this.apiServer.id, read: () => this.fileOn(controlPlane.name, '/etc/kubernetes/pki/apiserver-etcd-client.crt') });
		this.transport.presentCertificateFrom(ETCD_SERVING_CERTIFICATE, { process: this.etcd.id, read: () => this.fileOn(controlPlane.name, '/etc/kubernetes/pki/etcd/server.crt') });
		// Their client certificates: each loaded from the component's kubeconfig when it starts (kubeadm's files, tools/kubeadm/pki.ts).
		const kubeconfigCertificate = (process: string, machine: string, file: string) => ({ process, read: () => kubeconfigClientCertificate(this.fileOn(machine, file)) });
		for (const scheduler of this.schedulers) this.transport.presentCertificateFrom(scheduler.id, kubeconfigCertificate(scheduler.id, this.transport.nodeOf(scheduler.id) ?? controlPlane.name, '/etc/kubernetes/scheduler.conf'));
		for (const manager of this.controllerManagers) {
			const source = kubeconfigCertificate(manager.id, this.transport.nodeOf(manager.id) ?? controlPlane.name, '/etc/kubernetes/controller-manager.conf');
			this.transport.presentCertificateFrom(manager.id, source);
			for (const name of manager.controllerNames()) this.transport.presentCertificateFrom(`${manager.id}/${name}`, source);
		}

		// What the machines, the reader's shell and the tools see of the cluster (./wiring.ts).
		const context: ToolsContext = {
			kernel: this.kernel,
			transport: this.transport,
			hosts: this.hosts,
			peers: () => this.hosts.values(),
			controlPlaneNode: controlPlane.name,
			isFailing: (component, node) => this.faults.isFailing(component, node),
			isPartitioned: (node) => this.faults.isPartitioned(node),
			list: (resource, namespace) => this.list(resource, namespace),
			get: (resource, namespace, name) => this.get(resource, namespace, name),
			apiServerReady: () => this.apiServer.isReady(),
			externalCloudProvider: withCloud,
			cloud: this.cloud,
			metricsServer: {
				started: (node, container) => this.metricsServer.containerStarted({ ...container, node }),
				stopped: (containerId) => this.metricsServer.containerStopped(containerId),
				probe: (node, path) => this.metricsServer.probe(node, path),
			},
			etcd: () => this.etcd.store(),
			etcdMembers: () =>
				this.etcdMembers.filter((member) => !this.etcdCluster?.isRemoved(member.nodeName)).map((member) => ({
					name: member.nodeName,
					ip: member.address,
					connect: () => (member === this.etcd && this.etcdHandshakeFails(controlPlane.name) ? undefined : member.connect()),
					raft: this.etcdCluster?.raftFacts(member.nodeName),
					addedAtWallMs: this.etcdCluster?.addedAtWallMs(member.nodeName),
				}))
				.concat((this.etcdCluster?.unstarted() ?? []).map((m) => ({ name: m.name, ip: '', connect: () => undefined, raft: undefined, addedAtWallMs: m.addedAtWallMs, unstartedPeerUrl: m.peerUrl }))),
			announceEtcd: () => this.etcd.announce(),
			authenticateToken: (token) => this.apiServer.authenticateToken(token),
			nodeFault: (fault, cause) => this.nodeFault(fault, cause),
			scheduleShutdownCheck: (node, atWallMs) => this.scheduleShutdownCheck(node, atWallMs),
		};
		// A joining member's --initial-cluster: the members before it and itself, as kubeadm join writes it.
		const etcdMachines = controlPlaneMachines.slice(0, replicas.etcdMembers);
		const joinedEtcdMembers = (machine: string) => {
			const position = etcdMachines.findIndex((m) => m.name === machine);
			return position > 0 ? etcdMachines.slice(0, position + 1).map((m) => `${m.name}=https://${nodeIp(this.nodes.indexOf(m))}:2380`) : undefined;
		};
		// Pod CIDRs as node IPAM hands them out: in the order the Nodes register (a machine without a Node gets none from it).
		let cidrIndex = 0;
		this.nodes.forEach((node, index) => {
			const registerNode = this.registersNode(node);
			const host = new NodeHost(context, node, index, {
				apiServerUrl,
				nodeIp: nodeIp(index),
				podCidr: registerNode ? nodePodCidr(cidrIndex++) : UNREGISTERED_POD_CIDR,
				registerNode,
				pki: this.pki,
				restore: restore?.hosts[node.name],
				staticComponents: staticComponentsByMachine.get(node.name),
				primaryControlPlane: node.name === controlPlane.name,
				etcdInitialCluster: joinedEtcdMembers(node.name),
			});
			this.hosts.set(node.name, host);
			this.transport.enroll(`kubelet/${node.name}`, this.identity(`kubelet/${node.name}`), node.name);
			this.transport.presentCertificateFrom(`kubelet/${node.name}`, { process: `kubelet/${node.name}`, read: () => kubeconfigClientCertificate(this.fileOn(node.name, '/etc/kubernetes/kubelet.conf')) });
			// kube-proxy authenticates with its ServiceAccount's token (kube-system/kube-proxy, bound to system:node-proxier).
			this.transport.enroll(`kube-proxy/${node.name}`, this.identity(`kube-proxy/${node.name}`), node.name);
		});

		// The reader's ~/.kube/config is a copy of the control plane's admin.conf, as kubeadm's instructions make it.
		const adminConf = this.hosts.get(controlPlane.name)!.fs.readFile('/etc/kubernetes/admin.conf');
		this.shell = new ReaderShell({ kernel: this.kernel, transport: this.transport, hosts: this.hosts, isPoweredOff: (node) => this.isPoweredOff(node), observe: (request) => this.apiServer.observe(request), get: (resource, namespace, name) => this.get(resource, namespace, name) }, apiServerUrl, adminConf, restore?.shell);
		registerTools(context, this.shell);
		// `kubectl __complete` (the completion scripts' question) gets the answers Tab gets.
		this.shell.completer = (line) => this.complete(line, line.length).candidates;

		if (restore) {
			this.kernel.restoreProcesses(restore.kernel);
			this.apiServer.restoreCache();
		} else {
			this.boot();
		}
	}

	// ---- wiring helpers ---------------------------------------------------------------

	private identity(processId: string) {
		const user = identityOf(processId, { useServiceAccountCredentials: true });
		if (!user) throw new Error(`no identity for process ${processId}`);
		return user;
	}

	private addonFacts(apiServerUrl: string) {
		return {
			apiServerUrl,
			serviceCidr: NETWORK.serviceCidr,
			podCidr: NETWORK.podCidr,
			dnsServiceIp: NETWORK.dnsServiceIp,
			kubeProxyMode: this.options.kubeProxyMode ?? ('' as const),
			controlPlaneEndpoint: `${nodeIp(0)}:${NETWORK.apiServerPort}`,
			certificateValidityMs: this.pki.certificateValidityMs,
			caCertificateValidityMs: this.pki.caCertificateValidityMs,
		};
	}

	/** The lone etcd member's store: the database in the data directory it last started on. */
	get etcdData(): MvccStore {
		return this.etcd.data;
	}

	/**
	 * The store in the data directory etcd's static pod points at as it
	 * starts: its manifest's `--data-dir`, through the hostPath volume mounted
	 * there. A directory `etcdutl snapshot restore` wrote (its member/snap/db)
	 * is a store restored from that snapshot; the directory kubeadm made is
	 * the one etcd has been writing; any other is empty, and etcd starts a
	 * new, empty cluster there, as it would.
	 */
	private openEtcdDataDir(machine: string): MvccStore | undefined {
		const manifest = this.fileOn(machine, '/etc/kubernetes/manifests/etcd.yaml');
		const path = manifest ? hostDataDir(manifest) : undefined;
		if (!path) return undefined;
		const db = this.fileOn(machine, `${path}/${DATA_DIR_DB}`);
		const known = this.etcdDataDirs.get(path);
		let store = known?.store;
		if (db !== undefined && db !== known?.restoredFrom) {
			const snapshot = decodeSnapshot(db);
			if (snapshot) {
				store = MvccStore.restored(snapshot.revision, snapshot.kvs, this.kernel.nowMs);
				this.etcdDataDirs.set(path, { store, restoredFrom: db });
			}
		}
		if (!store) {
			store = MvccStore.empty();
			this.etcdDataDirs.set(path, { store });
		}
		this.etcdDataDir = path;
		return store;
	}

	/** Whether the TLS handshake between the API server and etcd fails now, judged by the control plane's clock. */
	private etcdHandshakeFails(machine: string): boolean {
		return this.transport.loadedCertificateError(ETCD_CLIENT_CERTIFICATE, machine) !== undefined || this.transport.loadedCertificateError(ETCD_SERVING_CERTIFICATE, machine) !== undefined;
	}

	/** A file's text on a machine, or undefined when it (or the machine) is missing. */
	private fileOn(machine: string, path: string): string | undefined {
		const fs = this.hosts.get(machine)?.fs;
		return fs?.exists(path) && !fs.isDir(path) ? fs.readFile(path) : undefined;
	}

	/** Whether a machine's kubelet registers its Node. */
	private registersNode(node: NodeOptions): boolean {
		return this.registerControlPlane || !isControlPlane(node);
	}

	/** The node a control-plane component runs on (one control plane for now; HA comes later). */
	get controlPlaneNode(): string {
		return this.nodes[0].name;
	}

	/** Whether a component on a node has been made to fail by the reader. */
	isFailing(component: string, node: string): boolean {
		return this.faults.isFailing(component, node);
	}

	/** pods/log and pods/exec, forwarded to the kubelet of the node (over the node's network). */
	private proxyToKubelet(nodeName: string, request: ApiRequest): ApiResponse | undefined {
		const host = this.hosts.get(nodeName);
		if (!host || this.faults.isPartitioned(nodeName) || host.poweredOff) return undefined;
		return host.serveKubeletRequest(request);
	}

	/** Boots the machines: containerd and the kubelet start on every node; the rest follows from there. */
	private boot(): void {
		const origin = this.kernel.newOrigin('boot');
		const previous = this.kernel.origin;
		this.kernel.origin = origin;
		// The further control-plane machines join after `kubeadm init` (KubeadmInit's joinControlPlane).
		for (const host of this.hosts.values()) if (!host.controlPlane || host.primaryControlPlane) host.powerOn();
		this.kernel.start('kubeadm');
		this.kernel.start(this.timedFaults.id);
		this.kernel.origin = previous;
		this.settleBoot();
	}

	/** Runs the boot until the cluster is up (all nodes Ready, CoreDNS running), bounded. */
	private settleBoot(): void {
		const wanted = this.options.bootMs;
		if (wanted !== undefined) {
			this.kernel.runUntil(this.kernel.nowMs + wanted);
			return;
		}
		const deadline = this.kernel.nowMs + BOOT_MAX_MS;
		while (this.kernel.nowMs < deadline) {
			this.kernel.runUntil(this.kernel.nowMs + 1000);
			if (this.podNetwork === 'none' ? this.bootCompleteWithoutNetwork() : this.bootComplete()) break;
		}
		// A little calm after the last pod started, as a reader arrives some time after kubeadm finished.
		this.kernel.runUntil(this.kernel.nowMs + 5000);
	}

	private bootComplete(): boolean {
		const nodes = this.list('nodes');
		if (nodes.length < this.nodes.filter((n) => this.registersNode(n)).length) return false;
		const ready = (n: KubeObject) => ((n.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
		if (!nodes.every(ready)) return false;
		// Every system pod up and Ready, CoreDNS included (its Deployment exists once kubeadm finished).
		const pods = [...this.list('pods', 'kube-system'), ...this.list('pods', 'kube-flannel')];
		const podReady = (p: KubeObject) => ((p.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
		return pods.some((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns') && pods.every(podReady);
	}

	/**
	 * Without a Pod network add-on the cluster is up as far as it gets: every
	 * node registered (NotReady), the control plane's static pods Ready,
	 * kubeadm's add-ons created (CoreDNS stays Pending).
	 */
	private bootCompleteWithoutNetwork(): boolean {
		const nodes = this.list('nodes');
		if (nodes.length < this.nodes.filter((n) => this.registersNode(n)).length) return false;
		const pods = this.list('pods', 'kube-system');
		const podReady = (p: KubeObject) => ((p.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
		const scheduled = pods.filter((p) => (p.spec as { nodeName?: string } | undefined)?.nodeName && (p.spec as { hostNetwork?: boolean }).hostNetwork === true);
		return pods.some((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns') && scheduled.length > 0 && scheduled.every(podReady);
	}

	// ---- public API: time ------------------------------------------------------------

	now(): number {
		return this.kernel.nowMs;
	}

	/** The wall-clock time the cluster's virtual clock stands for (ms since the epoch; timestamps in objects and logs use it). */
	wallMs(): number {
		return this.kernel.wallMs();
	}

	/** When the next thing is due to happen (virtual ms), for a "step to the next event" control; undefined when nothing is queued. */
	nextEventAtMs(): number | undefined {
		return this.kernel.nextEventAtMs();
	}

	/**
	 * Tab completion of the reader's line at `cursor`: the candidates for the
	 * word there and where that word starts (see cluster/completion.ts).
	 * Reads the cluster as an observer; records nothing.
	 */
	complete(line: string, cursor: number): Completion {
		return complete(line, cursor, {
			// Words only: bash completes `[` and `:` too, but no reader tabs for them.
			commands: this.shell.session.commandNames().filter((name) => /^[a-z]/.test(name)),
			kubectl: COMPLETION_VERBS,
			resources: COMPLETION_KINDS,
			names: (resource, namespace) => {
				const info = findResource(resource);
				return info ? this.list(info.resource, info.namespaced ? namespace : undefined).map((o) => o.metadata.name ?? '') : [];
			},
			namespaces: () => this.list('namespaces').map((o) => o.metadata.name ?? ''),
			nodes: () => this.nodeNames(),
		});
	}

	/** The nodes as a map draws them: Ready, taints, problems, and what the Pods bound to each request of it (cluster/map-view.ts). Read from etcd; no request, no trace. */
	nodeViews(): NodeView[] {
		return nodeViews(this.list('nodes'), this.list('pods'), { isPartitioned: (node) => this.isPartitioned(node), isPoweredOff: (node) => this.isPoweredOff(node), clockOffset: (node) => this.clockOffset(node) });
	}

	/** The Pods as a map draws them, with kubectl's READY, STATUS and RESTARTS cells (cluster/map-view.ts). Read from etcd; no request, no trace. */
	podViews(): PodView[] {
		return podViews(this.list('pods'), this.kernel.wallMs());
	}

	/** The names of the cluster's machines (nodes), in order. */
	nodeNames(): string[] {
		return this.nodes.map((n) => n.name);
	}

	/** Runs the cluster for `duration` of virtual time (ms or '30s'). */
	advance(duration: number | string): void {
		const ms = typeof duration === 'number' ? duration : parseGoDurationMs(duration);
		if (!(ms >= 0)) throw new Error(`cannot advance by ${String(duration)}`);
		this.record({ kind: 'advance', ms });
		this.kernel.runUntil(this.kernel.nowMs + ms);
	}

	/**
	 * Runs until the cluster has converged, or `maxMs` passes: no event is
	 * pending and nothing will change by itself (./convergence.ts: a healed
	 * component still to be restarted, a Lease no replica holds yet, a
	 * client reconnecting to a reachable API server). `pending` says what was
	 * still awaited when it gave up.
	 */
	settle(options: { maxMs?: number } = {}): { settled: boolean; elapsedMs: number; pending?: string[] } {
		const maxMs = options.maxMs ?? 60_000;
		this.record({ kind: 'settle', maxMs });
		return this.settleQuietly(maxMs);
	}

	/** settle() without recording an input (used inside commands that wait). */
	settleQuietly(maxMs: number): { settled: boolean; elapsedMs: number; pending?: string[] } {
		const start = this.kernel.nowMs;
		const deadline = start + maxMs;
		// The convergence check reads the whole cluster: only ask it once the queue holds nothing but housekeeping.
		while (this.kernel.hasPendingWork() || this.unconverged().length > 0) {
			const next = this.kernel.nextEventAtMs();
			if (next === undefined || next > deadline) break;
			this.kernel.step();
		}
		const pending = this.kernel.hasPendingWork() ? ['events still queued'] : this.unconverged();
		const settled = pending.length === 0;
		if (!settled) this.kernel.runUntil(deadline);
		return settled ? { settled, elapsedMs: this.kernel.nowMs - start } : { settled, elapsedMs: this.kernel.nowMs - start, pending };
	}

	/** Why the cluster would still change by itself (./convergence.ts); empty once it has converged. */
	private unconverged(): string[] {
		return unconverged({
			kernel: this.kernel,
			hosts: this.hosts,
			isFailing: (component, node) => this.faults.isFailing(component, node),
			reachesApiServer: (processId) => this.transport.dial(processId) === undefined && this.kernel.isRunning(this.etcd.id),
			staticComponents: (host) => host.staticComponents.map((component) => ({ component, processId: host.processIdOf(component) })),
			candidates: () => [...this.schedulers, ...this.controllerManagers, ...(this.cloudControllerManager ? [this.cloudControllerManager] : [])].map((p) => ({ processId: p.id, lease: p.leaseName, isLeader: p.isLeader })),
			systemPods: () => this.list('pods', 'kube-system') as Pod[],
		});
	}

	// ---- public API: commands --------------------------------------------------------

	/** Runs a shell command line as the reader would type it. Never throws. */
	exec(line: string, options: { stdin?: string; edit?: EditSession } = {}): ExecResult {
		const input: ClusterInput = { kind: 'exec', line };
		if (options.stdin !== undefined) input.stdin = options.stdin;
		if (options.edit !== undefined) input.edit = { ...(options.edit.opened === undefined ? {} : { opened: options.edit.opened }), saves: [...options.edit.saves] };
		this.record(input);
		return this.asInput(() => this.shell.exec(line, options.stdin, options.edit));
	}

	/**
	 * Runs a read-only kubectl command (get, describe, events...) as an
	 * observer: answered from the API server's cache without a request, so
	 * nothing changes, nothing is traced and nothing is recorded. The
	 * sandbox's inspector uses it.
	 */
	observe(line: string): ExecResult {
		return this.shell.observe(line);
	}

	/** The shell's prompt, e.g. `reader@workstation:~$ `. */
	prompt(): string {
		return this.shell.prompt();
	}

	/** Writes a file on the reader's workstation (or a node), as a setup step or an editor save would. */
	writeFile(path: string, text: string, host?: string): void {
		this.record(host ? { kind: 'writeFile', path, text, host } : { kind: 'writeFile', path, text });
		this.shell.writeFile(path, text, host);
	}

	// ---- public API: inputs -----------------------------------------------------------

	/**
	 * Applies one input, as the reader's own call would: the one entry point
	 * the sandbox, the golden scripts and the scenario runner replay inputs
	 * through. A refused input (an unknown node, a machine already off) is
	 * not recorded and says why.
	 */
	apply(input: ClusterInput): ApplyResult {
		switch (input.kind) {
			case 'exec':
				return { recorded: true, result: this.exec(input.line, { ...(input.stdin === undefined ? {} : { stdin: input.stdin }), ...(input.edit === undefined ? {} : { edit: input.edit }) }) };
			case 'advance':
				this.advance(input.ms);
				return { recorded: true };
			case 'settle':
				return { recorded: true, settled: this.settle({ maxMs: input.maxMs }).settled };
			case 'writeFile':
				this.writeFile(input.path, input.text, input.host);
				return { recorded: true };
			case 'stop':
			case 'start':
				return this.readerFault(input.node ? { verb: input.kind, component: input.component, node: input.node } : { verb: input.kind, component: input.component }, input);
			case 'partition':
			case 'heal':
			case 'powerOff':
			case 'powerOn':
				return this.readerFault({ verb: input.kind, node: input.node }, input);
			case 'setClock':
				return this.readerFault({ verb: 'setClock', node: input.node, offsetMs: input.offsetMs }, input);
		}
	}

	// ---- public API: faults -----------------------------------------------------------

	/** Stops a component (on a node, for kubelet, kube-proxy and container-runtime). Returns an error message if the request makes no sense. */
	stop(component: Component, node?: string): string | undefined {
		return this.apply(node ? { kind: 'stop', component, node } : { kind: 'stop', component }).error;
	}

	start(component: Component, node?: string): string | undefined {
		return this.apply(node ? { kind: 'start', component, node } : { kind: 'start', component }).error;
	}

	/** Cuts a node off from the control plane (its processes keep running; its watches break). */
	partition(node: string): string | undefined {
		return this.apply({ kind: 'partition', node }).error;
	}

	heal(node: string): string | undefined {
		return this.apply({ kind: 'heal', node }).error;
	}

	isPartitioned(node: string): boolean {
		return this.faults.isPartitioned(node);
	}

	/**
	 * Cuts a node's power: every process on it stops at once (the kubelet,
	 * containerd, the containers; on the control-plane node the control
	 * plane too), with no graceful termination; what was in memory is lost;
	 * the machine answers nothing on the network. The control plane sees
	 * what it sees of a partitioned node. Returns an error message for a
	 * node that does not exist or is already off.
	 */
	powerOff(node: string): string | undefined {
		return this.apply({ kind: 'powerOff', node }).error;
	}

	/**
	 * Powers a node on: it boots (a new boot ID), containerd starts, then the
	 * kubelet, which finds its pods' containers gone and starts them again in
	 * new sandboxes (the static pods too). Units stopped by hand before are
	 * started again, as systemd does at boot. Returns an error message for a
	 * node that does not exist or is already on.
	 */
	powerOn(node: string): string | undefined {
		return this.apply({ kind: 'powerOn', node }).error;
	}

	/**
	 * Sets a node's clock `offsetMs` away from true time (negative: behind),
	 * as `date -s` on the node would; 0 puts it back in step. Its kubelet
	 * then stamps its Lease and status with that time, and it judges the
	 * API server's certificate by it. Returns an error message for a node
	 * that does not exist.
	 */
	setClock(node: string, offsetMs: number): string | undefined {
		return this.apply({ kind: 'setClock', node, offsetMs }).error;
	}

	/** How far a node's clock is off true time (ms; negative behind). */
	clockOffset(node: string): number {
		return this.kernel.clockOffset(node);
	}

	/** Whether a node's machine is powered off. */
	isPoweredOff(node: string): boolean {
		return !!this.hosts.get(node)?.poweredOff;
	}

	/** A fault the reader asked for: checked, recorded as the next input, applied with that input's origin. */
	private readerFault(fault: Fault, input: ClusterInput): ApplyResult {
		const problem = this.faults.check(fault);
		if (problem !== undefined) return { recorded: false, error: problem };
		this.record(input);
		this.asInput(() => this.faults.apply(fault, { actor: 'reader' }));
		return { recorded: true };
	}

	/**
	 * A fault caused from inside the simulation: a command on a node's shell
	 * (`systemctl stop kubelet`, `poweroff`, `reboot`: the command is the
	 * input that replays it) or logind's schedule coming due. Not a new input.
	 */
	nodeFault(fault: Fault, cause: FaultCause): void {
		this.faults.apply(fault, cause);
	}

	/** logind's timer for a scheduled shutdown (`shutdown +5`): at `atWallMs` the node looks at its schedule file. */
	scheduleShutdownCheck(node: string, atWallMs: number): void {
		this.timedFaults.plan({ atMs: atWallMs - this.kernel.epochMs, verb: 'scheduled-shutdown', node, by: `systemd/${node}` }, { work: false, origin: this.kernel.origin });
	}

	/** Runs `fn` as the newest reader input (its events carry the input's origin). */
	private asInput<T>(fn: () => T): T {
		const previous = this.kernel.origin;
		this.kernel.origin = `input:${this.inputCount}`;
		try {
			return fn();
		} finally {
			this.kernel.origin = previous;
		}
	}

	/** Plans a fault at a virtual time (a scenario's `faults:`); it fires inside the simulation. */
	planFault(fault: PlannedFault): void {
		this.timedFaults.plan(fault);
	}

	/** A planned fault comes due: it acts like the reader's own, but is not a new input (it replays from the plan). */
	private firePlannedFault(planned: PlannedFault): void {
		const cause = { actor: planned.by ?? 'scenario' };
		const node = planned.node ?? '';
		switch (planned.verb) {
			case 'scheduled-shutdown': {
				// logind's timer: the schedule must still be there (`shutdown -c` removes it; a power cut wipes /run).
				const host = this.hosts.get(node);
				const schedule = host ? readShutdownSchedule(host.fs) : undefined;
				if (!host || !schedule || schedule.atWallMs !== planned.atMs + this.kernel.epochMs || host.poweredOff) return;
				host.fs.remove(SHUTDOWN_SCHEDULE_FILE);
				if (!schedule.dryRun) this.faults.apply({ verb: 'powerOff', node, shutdown: { action: schedule.action, force: false } }, cause);
				return;
			}
			case 'stop':
			case 'start':
				this.faults.apply(planned.node ? { verb: planned.verb, component: planned.component ?? '', node } : { verb: planned.verb, component: planned.component ?? '' }, cause);
				return;
			case 'powerOn':
				this.faults.apply(planned.afterBoot === undefined ? { verb: 'powerOn', node } : { verb: 'powerOn', node, afterBoot: planned.afterBoot }, cause);
				return;
			case 'setClock':
				this.faults.apply({ verb: 'setClock', node, offsetMs: planned.offsetMs ?? 0 }, cause);
				return;
			default:
				this.faults.apply({ verb: planned.verb, node }, cause);
		}
	}

	// ---- public API: observing (no side effects, no trace) ----------------------------

	/** Objects of a resource as etcd holds them now (the observer's view: no request, no trace). */
	list(resource: string, namespace?: string): KubeObject[] {
		const info = findResource(resource);
		if (!info) return [];
		const { kvs } = this.etcdData.range(etcdPrefix(info, namespace), { prefix: true });
		return kvs.map((kv) => {
			const obj = JSON.parse(kv.value) as KubeObject;
			obj.metadata.resourceVersion = String(kv.modRevision);
			return obj;
		});
	}

	get(resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
		return this.list(resource, namespace).find((o) => o.metadata.name === name);
	}

	/** The scheduler's last decision for `namespace/pod`. */
	explain(podKey: string): SchedulingExplanation | undefined {
		// The decision was the leader's (a standby that took over explains what it scheduled since).
		const key = podKey.includes('/') ? podKey : `default/${podKey}`;
		for (const scheduler of [...this.schedulers.filter((s) => s.isLeader), ...this.schedulers]) {
			const explanation = scheduler.explain(key);
			if (explanation) return explanation;
		}
		return undefined;
	}

	trace(filter: { sinceMs?: number; afterSeq?: number; origin?: string } = {}): TraceEvent[] {
		return this.kernel.trace.events(filter);
	}

	/** A fingerprint of everything that happened: equal runs have equal fingerprints. */
	fingerprint(): string {
		return this.kernel.trace.fingerprint();
	}

	/** The reader's inputs so far (a session replays from these). */
	inputs(): ClusterInput[] {
		return this.inputLog.map((i) => ({ ...i }));
	}

	/** Health of every component, for the cluster map. */
	components(): Array<{ component: string; node: string; running: boolean; failing: boolean; leader?: boolean }> {
		const out: Array<{ component: string; node: string; running: boolean; failing: boolean; leader?: boolean }> = [];
		const cp = this.controlPlaneNode;
		const leaders = new Map<string, boolean>([...this.schedulers, ...this.controllerManagers].map((p) => [p.id, p.isLeader]));
		// etcd members in a Raft cluster: the one that leads now.
		if (this.etcdCluster) for (const member of this.etcdMembers) leaders.set(member.id, this.kernel.isRunning(member.id) && !!this.etcdCluster.raftFacts(member.nodeName)?.isLeader);
		for (const [machine, host] of this.hosts) {
			for (const c of host.staticComponents) {
				const id = host.processIdOf(c);
				const entry: { component: string; node: string; running: boolean; failing: boolean; leader?: boolean } = { component: c, node: machine, running: this.kernel.isRunning(id), failing: this.faults.isFailing(c, machine) };
				if (leaders.has(id)) entry.leader = leaders.get(id);
				out.push(entry);
			}
		}
		if (this.cloudControllerManager) out.push({ component: CLOUD_CONTROLLER_MANAGER, node: cp, running: this.kernel.isRunning(CLOUD_CONTROLLER_MANAGER), failing: this.faults.isFailing(CLOUD_CONTROLLER_MANAGER, cp), leader: this.cloudControllerManager.isLeader });
		for (const [name, host] of this.hosts) {
			out.push({ component: 'kubelet', node: name, running: this.kernel.isRunning(`kubelet/${name}`), failing: this.faults.isFailing('kubelet', name) });
			out.push({ component: 'container-runtime', node: name, running: this.kernel.isRunning(`container-runtime/${name}`), failing: this.faults.isFailing('container-runtime', name) });
			out.push({ component: 'kube-proxy', node: name, running: host.kubeProxyRunning(), failing: this.faults.isFailing('kube-proxy', name) });
		}
		return out;
	}

	// ---- snapshots ------------------------------------------------------------------

	snapshot(): ClusterSnapshot {
		const hosts: Record<string, NodeHostState> = {};
		for (const [name, host] of this.hosts) hosts[name] = host.snapshot();
		const certificates = this.transport.snapshot();
		return {
			...(Object.keys(certificates).length ? { certificates } : {}),
			format: 'cluster-anatomy/snapshot@1',
			options: deepCopy(this.options),
			kernel: this.kernel.snapshot(),
			etcd: deepCopy(this.etcdData.state),
			...(this.etcdDataDirs.size > 1 || this.etcdDataDir !== ETCD_DATA_DIR
				? { etcdDataDir: this.etcdDataDir, etcdDataDirs: [...this.etcdDataDirs].filter(([path]) => path !== this.etcdDataDir).map(([path, dir]) => ({ path, state: deepCopy(dir.store.state), ...(dir.restoredFrom !== undefined ? { restoredFrom: dir.restoredFrom } : {}) })) }
				: {}),
			...(this.etcdCluster ? { etcdCluster: this.etcdCluster.snapshot() } : {}),
			hosts,
			partitions: this.faults.snapshot().partitions,
			faults: this.faults.snapshot().failing,
			shell: this.shell.snapshot(),
			inputs: this.inputs(),
			...(this.cloud ? { cloud: deepCopy(this.cloud.state) } : {}),
		};
	}

	private record(input: ClusterInput): void {
		this.inputLog.push(input);
		this.inputCount = this.inputLog.length;
	}

	/** A client as some process (tests and tools). */
	client(processId: string): ApiClient {
		return new ApiClient(this.transport, processId);
	}
}

/** A resource by plural, singular or short name ('pods', 'pod', 'po', 'deployments.apps'). */
export function findResource(name: string): ResourceInfo | undefined {
	const [plural, group] = name.includes('.') ? [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)] : [name, undefined];
	return (
		(group !== undefined ? resourceByName(group, plural) : undefined) ??
		RESOURCES.find((r) => (group === undefined || r.group === group) && (r.resource === plural || r.singular === plural || r.shortNames.includes(plural)) && r.group !== 'events.k8s.io')
	);
}

/**
 * The trace line for a member's Raft change, in the words of etcd's raft
 * log ("became leader at term 3", "elected leader control-plane at term 3",
 * "lost leader control-plane at term 3").
 */
function raftLogLine(before: RaftView, after: RaftView): [string, string] {
	if (after.role === 'leader' && before.role !== 'leader') return ['elected', `became leader at term ${after.term}`];
	if (before.role === 'leader' && after.role !== 'leader') return ['stepped-down', `stepped down at term ${after.term}${after.lead ? `; follows ${after.lead}` : ''}`];
	if (after.lead && after.lead !== before.lead) return ['raft', `elected leader ${after.lead} at term ${after.term}`];
	if (!after.lead && before.lead) return ['raft', `lost leader ${before.lead} at term ${after.term}`];
	if (after.role === 'candidate' && before.role !== 'candidate') return ['raft', `became candidate at term ${after.term}`];
	return ['raft', `${after.role} at term ${after.term}`];
}

/** kubeadm's etcd data directory (cmd/kubeadm/app/constants EtcdDataDir, the etcd-data hostPath). */
const ETCD_DATA_DIR = '/var/lib/etcd';

/** The host directory etcd's manifest makes its --data-dir: the hostPath volume mounted at (or above) that path. */
function hostDataDir(manifest: string): string | undefined {
	try {
		const pod = parseYaml(manifest) as Pod;
		const container = pod.spec?.containers?.[0];
		const flag = [...(container?.command ?? []), ...(container?.args ?? [])].find((a) => a.startsWith('--data-dir='));
		const dataDir = flag?.slice('--data-dir='.length).replace(/\/+$/, '');
		if (!dataDir) return undefined;
		const mount = (container?.volumeMounts ?? []).filter((m) => dataDir === m.mountPath || dataDir.startsWith(m.mountPath.replace(/\/+$/, '') + '/')).sort((a, b) => b.mountPath.length - a.mountPath.length)[0];
		const hostPath = mount && (pod.spec.volumes?.find((v) => v.name === mount.name) as { hostPath?: { path?: string } } | undefined)?.hostPath?.path;
		return hostPath ? hostPath.replace(/\/+$/, '') + dataDir.slice(mount.mountPath.replace(/\/+$/, '').length) : undefined;
	} catch {
		return undefined;
	}
}
