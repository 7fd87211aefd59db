/**
 * One machine of the cluster: its files (kubeadm's, plus whatever the
 * reader writes), containerd (`container-runtime/<node>`) with its durable
 * state, and the kubelet (`kubelet/<node>`). On the control-plane node the
 * kubelet's static pods are the control plane: when a container backed by
 * etcd, kube-apiserver, kube-controller-manager or kube-scheduler starts or
 * stops, the matching process starts or stops with it.
 *
 * The machine has power: powerOff() is a power cut (or, from the node's own
 * shell, a shutdown) and every process on it ends at once; powerOn() boots
 * it again with a new boot ID and systemd starts its enabled units. What
 * lived in memory (tmpfs: /run, Secret and projected volumes, memory-backed
 * emptyDirs) is gone; what is on disk stays.
 *
 * A reader's "stop kube-scheduler" is modelled as the component failing:
 * its container exits and every restart fails again, so its pod shows
 * CrashLoopBackOff, as a broken control-plane component does. "Start"
 * clears the failure and touches the manifest, so the kubelet recreates the
 * pod at its next file check (within 20 s), as fixing a manifest does.
 *
 * Mirrors nothing upstream: the simulator's wiring of one machine (its
 * files, containerd and the kubelet, its power).
 */
import type { Taint } from '../api/types.ts';
import type { ApiRequest, ApiResponse } from '../api/request.ts';
import { type Host } from '../shell/index.ts';
import { nodeProcessTable, nodeRootFsStats } from './node-root-fs.ts';
import { nodeOverhead } from '../kubelet/resource-metrics.ts';
import { parseQuantity } from '../api/quantity.ts';
import { MemoryFs, type FsJSON } from '../host/fs.ts';
import { ContainerRuntime, type PodNetworkIdentity, type SystemContainerInfo } from '../runtime/container-runtime.ts';
import { emptyRuntimeHostState, type RuntimeHostState } from '../runtime/host-state.ts';
import type { SystemComponent } from '../runtime/images.ts';
import { Kubelet } from '../kubelet/kubelet.ts';
import { emptyKubeletUnitRecord, FIRST_CONTAINERD_PID, FIRST_KUBELET_PID, type KubeletUnitRecord } from '../host/systemd/records.ts';
import { nodeDiskFromFs } from '../host/disk.ts';
import { KUBELET_ROOT_DIR } from '../kubelet/volumes/paths.ts';
import { hash128 } from '../kubelet/static-pods.ts';
import { UNITS, wantsLink, type NodeService } from '../host/systemd/units.ts';
import { type BootRecord } from '../host/systemd/records.ts';
import { ApiClient } from '../client/client.ts';
import { parseYaml, stringifyYaml } from '../yaml/index.ts';
import type { Component } from './faults.ts';
import type { MachineContext } from './wiring.ts';
import { nodeFiles } from './files.ts';
import type { PkiDates } from '../tools/kubeadm/pki.ts';
import { NodeNetwork } from './node-network.ts';
import { NodeCni } from './node-cni.ts';
import { DEFAULT_CNI_PATHS } from '../runtime/cni.ts';
import type { NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import { NETWORK, isControlPlane, type NodeOptions } from './options.ts';
import { deepCopy } from '../golang/json.ts';

/** What survives a snapshot of a machine. */
export interface NodeHostState {
	fs: FsJSON;
	runtime: RuntimeHostState;
	kubelet: KubeletUnitRecord;
	poweredOff: boolean;
	/** The kernel's packet-filter rules (kube-proxy's); absent in snapshots from before they were modelled. */
	dataplane?: NodeDataplaneState;
	/** The machine's boots, oldest first (bounded); absent in snapshots from before power was modelled. */
	boots?: BootRecord[];
}

const CONTROL_PLANE_PROCESSES = new Set(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);

/**
 * The process id of a control-plane component on a machine: the bare
 * component name on the first control-plane machine (as every trace and
 * golden names it), `component/<machine>` for a replica elsewhere, as
 * `kubelet/node-1` names a node's kubelet.
 */
export function controlPlaneProcessId(component: string, node: string, primary: boolean): string {
	return primary ? component : `${component}/${node}`;
}
/** The Pod network add-ons' daemons: their containers' starts leave files on the node (./node-cni.ts), no process of their own. */
const POD_NETWORK_DAEMONS = new Set<SystemComponent>(['flanneld', 'calico-node', 'calico-kube-controllers']);
/** In the order a machine going down loses them (the reverse of the order they come up). */
const CONTROL_PLANE_SHUTDOWN_ORDER = ['kube-scheduler', 'kube-controller-manager', 'kube-apiserver', 'etcd'];
const MANIFEST_DIR = '/etc/kubernetes/manifests';
/** The process (and container) of the cloud-controller-manager DaemonSet, with `cloud: true`. */
const CLOUD_CONTROLLER_MANAGER = 'cloud-controller-manager';
/** The kubelet's --config file (kubeadm's unit drop-in names it). */
const KUBELET_CONFIG_FILE = '/var/lib/kubelet/config.yaml';
/** Boots remembered per machine (the journal keeps a bounded history too). */
const MAX_BOOTS = 100;
/**
 * Directories on tmpfs on an Ubuntu node: /run (and /var/run, a link to
 * it), gone when the power goes. /tmp is on disk but emptied at every boot
 * (tmpfiles.d/tmp.conf `D /tmp`).
 */
const TMPFS_DIRS = ['/run', '/var/run'];
const CLEANED_AT_BOOT = ['/tmp'];
/**
 * Volume plugins whose directories are tmpfs mounts: Secret and projected
 * volumes are always memory-backed (their wrapped emptyDir has medium
 * Memory: pkg/volume/secret/secret.go, pkg/volume/projected/projected.go).
 */
const TMPFS_VOLUME_PLUGINS = ['kubernetes.io~secret', 'kubernetes.io~projected'];

/**
 * The boot ID of a machine's `n`-th boot, as /proc/sys/kernel/random/boot_id
 * reads (a version 4 UUID). Derived from the name and the count, so runs
 * repeat; boot 0 keeps the ID the kubelet always reported.
 */
function bootIdOf(node: string, n: number): string {
	const b = hash128(n === 0 ? `boot:${node}` : `boot:${node}:${n}`);
	return `${b.slice(0, 8)}-${b.slice(8, 12)}-4${b.slice(13, 16)}-a${b.slice(17, 20)}-${b.slice(20, 32)}`;
}

export class NodeHost {
	readonly name: string;
	readonly ip: string;
	readonly podCidr: string;
	readonly controlPlane: boolean;
	/** The control-plane components this machine runs as static pods (all four on the first control-plane machine, replicas elsewhere). */
	readonly staticComponents: readonly string[];
	/** Whether this is the first control-plane machine (the one `kubeadm init` ran on). */
	readonly primaryControlPlane: boolean;
	/** Whether this machine's kubelet creates its Node (false: registerNode: false in its config, as on a managed control plane). */
	readonly registersNode: boolean;
	readonly fs: MemoryFs;
	readonly runtimeState: RuntimeHostState;
	readonly kubeletState: KubeletUnitRecord;
	readonly runtime: ContainerRuntime;
	readonly kubelet: Kubelet;
	/** The shell's view of this machine (ssh target); tools add their commands to it. */
	readonly shellHost: Host;
	poweredOff = false;
	/** The machine's boots, oldest first; the last is the current one unless the machine is off. Durable. */
	readonly boots: BootRecord[];
	/** How many boots the machine had in all (the list above is bounded). */
	private bootCount: number;
	/** Tools that run inside this node's system containers (etcdctl in etcd's), set by the tools wiring. */
	execInSystemContainer?: (component: string, argv: string[]) => { exitCode: number; stdout: string; stderr: string } | undefined;
	/** Network clients run inside a Pod's container (curl in `kubectl exec`), set by the tools wiring. */
	/** `ip` run inside one of this node's Pods (by its address): its own network namespace, the node's for a host-network Pod (./tools.ts). */
	podIp?: (podIp: string | undefined, argv: string[]) => { exitCode: number; stdout: string; stderr: string } | undefined;
	podNetworkCommand?: (pod: PodNetworkIdentity, argv: string[], readFile?: (path: string) => string | undefined) => { exitCode: number; stdout: string; stderr: string; files?: Record<string, string> } | undefined;
	/** The kernel's packet-filter rules and kube-proxy (./node-network.ts). */
	readonly network: NodeNetwork;
	/** The Pod network add-on's side of this machine (./node-cni.ts). */
	readonly cni: NodeCni;

	constructor(
		/** The cluster, as this machine sees it. */
		private readonly cluster: MachineContext,
		readonly options: NodeOptions,
		readonly index: number,
		facts: {
			apiServerUrl: string;
			/** When kubeadm issued the certificates, and for how long. */
			pki: PkiDates;
			nodeIp: string;
			podCidr: string;
			registerNode?: boolean;
			restore?: NodeHostState;
			/** For a control-plane machine: which components it runs (default: all four) and whether it is the first. */
			staticComponents?: readonly string[];
			primaryControlPlane?: boolean;
			/** With several etcd members: `--initial-cluster` as kubeadm join writes it (the members so far, this one last). */
			etcdInitialCluster?: string[];
		},
	) {
		this.name = options.name;
		this.ip = facts.nodeIp;
		this.podCidr = facts.podCidr;
		this.controlPlane = isControlPlane(options);
		this.staticComponents = this.controlPlane ? [...(facts.staticComponents ?? CONTROL_PLANE_PROCESSES)] : [];
		this.primaryControlPlane = this.controlPlane && facts.primaryControlPlane !== false;
		this.registersNode = facts.registerNode !== false;
		const kernel = cluster.kernel;

		if (facts.restore) {
			this.fs = MemoryFs.fromJSON(facts.restore.fs);
			this.runtimeState = deepCopy(facts.restore.runtime);
			this.kubeletState = deepCopy(facts.restore.kubelet);
			this.poweredOff = facts.restore.poweredOff;
			// A snapshot from before boots were kept: the machine is in its first boot.
			this.boots = facts.restore.boots ? deepCopy(facts.restore.boots) : [{ id: bootIdOf(this.name, 0), startWallMs: kernel.epochMs }];
		} else {
			this.boots = [];
			this.fs = new MemoryFs();
			const files = nodeFiles({
				nodeName: this.name,
				nodeIp: this.ip,
				apiServerUrl: facts.apiServerUrl,
				controlPlane: this.controlPlane,
				registerNode: this.registersNode,
				externalCloudProvider: cluster.externalCloudProvider,
				pki: facts.pki,
				controlPlaneFacts: this.controlPlane ? { nodeName: this.name, nodeIp: this.ip, serviceCidr: NETWORK.serviceCidr, podCidr: NETWORK.podCidr, components: this.staticComponents, etcdInitialCluster: facts.etcdInitialCluster } : undefined,
			});
			for (const [path, text] of Object.entries(files)) {
				this.fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', true);
				this.fs.writeFile(path, text);
			}
			this.fs.mkdir('/root', true);
			// Every Ubuntu machine has /tmp (where runbooks park a static pod's manifest to restart it).
			this.fs.mkdir('/tmp', true);
			// Ubuntu's empty mount point, where kubernetes.io's hostPath PersistentVolume task keeps its data (/mnt/data).
			this.fs.mkdir('/mnt', true);
			// containerd's conf_dir, empty until a Pod network add-on installs its config.
			this.fs.mkdir('/etc/cni/net.d', true);
			this.runtimeState = emptyRuntimeHostState(this.name, this.ip, this.podCidr);
			this.kubeletState = emptyKubeletUnitRecord();
		}
		this.fs.cwd = '/root';
		this.fs.home = '/root';
		this.bootCount = this.boots.length;

		// One disk for both daemons: the kubelet writes volumes there, containerd bind-mounts them.
		const disk = nodeDiskFromFs(this.fs);
		// The kernel's side is the network's dataplane, made further down: read it when asked.
		this.cni = new NodeCni(this, disk, () => this.network.dataplane);
		// One root file system for the machine: the node's files and containerd's (./node-root-fs.ts).
		const rootFs = () => nodeRootFsStats(this.fs, this.runtimeState);
		this.runtime = new ContainerRuntime(kernel, this.name, {
			host: this.runtimeState,
			hostFiles: disk,
			rootFs,
			memory: { capacityBytes: parseQuantity(options.memory).value(), systemBytes: nodeOverhead(this.controlPlane).workingSetBytes },
			// containerd's CNI config and plugins are the node's /etc/cni/net.d and /opt/cni/bin (./node-cni.ts).
			cni: DEFAULT_CNI_PATHS,
			hooks: {
				onSystemContainerStart: (_node, component, container) => this.systemContainerStarted(component, container),
				onSystemContainerStop: (_node, component, containerId) => this.systemContainerStopped(component, containerId),
				isComponentFailing: (_node, component) => cluster.isFailing(component, this.name),
				probe: (_node, component, _port, path) => this.probeComponent(component, path),
				exec: (_node, component, argv) => this.execInSystemContainer?.(component, argv),
				podNetworkCommand: (_node, pod, argv, readFile) => this.podNetworkCommand?.(pod, argv, readFile),
			},
		});
		for (const image of options.images ?? []) {
			const preloaded = this.runtime.preloadNamed(image.names, image.sizeBytes);
			if (!preloaded.ok) throw new Error(`node "${this.name}": ${preloaded.error}`);
		}

		const labels: Record<string, string> = { ...(options.labels ?? {}) };
		if (options.zone) labels['topology.kubernetes.io/zone'] = options.zone;
		// kubeadm's control-plane label and taint come later, from kubeadm itself (NodeRestriction forbids the kubelet to set the role label).
		delete labels['node-role.kubernetes.io/control-plane'];
		const taints: Taint[] = [...(options.taints ?? [])];
		this.kubelet = new Kubelet(kernel, {
			nodeName: this.name,
			nodeIp: this.ip,
			podCidr: this.podCidr,
			capacity: { cpu: options.cpu, memory: options.memory, pods: options.pods ?? 110 },
			labels,
			taints,
			externalCloudProvider: cluster.externalCloudProvider,
			controlPlane: this.controlPlane,
			annotations: { 'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock' },
			runtime: this.runtime,
			client: new ApiClient(cluster.transport, `kubelet/${this.name}`),
			host: this.kubeletState,
			staticPodManifests: (dir) => this.manifests(dir),
			configFile: () => (this.fs.exists(KUBELET_CONFIG_FILE) ? this.fs.readFile(KUBELET_CONFIG_FILE) : undefined),
			configPath: KUBELET_CONFIG_FILE,
			hostFile: (path) => (this.fs.exists(path) ? this.fs.readFile(path) : undefined),
			kubernetesServiceHost: NETWORK.kubernetesServiceIp,
			disk,
			rootFs,
			processTable: () => nodeProcessTable(this.runtimeState),
			bootId: () => this.bootId(),
		});
		kernel.register(this.runtime);
		kernel.register(this.kubelet);
		this.network = new NodeNetwork(cluster, this, facts.restore?.dataplane);

		this.shellHost = { name: this.name, fs: this.fs, commands: new Map(), user: 'root', home: '/root', kind: 'node' };
	}

	/** Process ids that run on this machine. */
	processIds(): string[] {
		const ids = [this.runtime.id, this.kubelet.id, `kube-proxy/${this.name}`];
		ids.push(...this.staticComponents.map((c) => this.processIdOf(c)));
		if (this.controlPlane && this.cluster.externalCloudProvider) ids.push(CLOUD_CONTROLLER_MANAGER);
		return ids;
	}

	/** The process id of a control-plane component here (./node-host.ts controlPlaneProcessId). */
	processIdOf(component: string): string {
		return controlPlaneProcessId(component, this.name, this.primaryControlPlane);
	}

	/** Whether this machine runs the control-plane component `component` as a static pod. */
	runsStatic(component: string): boolean {
		return this.staticComponents.includes(component);
	}

	/** The current boot's ID (the last boot's while the machine is off). */
	bootId(): string {
		return this.boots[this.boots.length - 1]?.id ?? bootIdOf(this.name, 0);
	}

	/**
	 * The machine boots: a new boot ID, /tmp emptied, PIDs counted from the
	 * start again, then systemd starts the enabled units: containerd, then
	 * the kubelet (After=containerd.service). A unit the reader disabled
	 * (`systemctl disable`) stays down. False if the machine is already on.
	 */
	powerOn(): boolean {
		if (!this.poweredOff && this.boots.length > 0) return false;
		const kernel = this.cluster.kernel;
		const first = this.boots.length === 0;
		this.poweredOff = false;
		if (!first) {
			for (const dir of CLEANED_AT_BOOT) this.emptyDir(dir);
			this.runtimeState.nextPid = FIRST_CONTAINERD_PID;
			this.kubeletState.nextPid = FIRST_KUBELET_PID;
		}
		this.boots.push({ id: bootIdOf(this.name, this.bootCount), startWallMs: kernel.wallMs() });
		this.bootCount++;
		if (this.boots.length > MAX_BOOTS) this.boots.splice(0, this.boots.length - MAX_BOOTS);
		if (this.unitEnabled('containerd') && !this.cluster.isFailing('container-runtime', this.name)) kernel.start(this.runtime.id);
		if (this.unitEnabled('kubelet') && !this.cluster.isFailing('kubelet', this.name)) kernel.start(this.kubelet.id);
		return true;
	}

	/**
	 * The machine goes down. Every process on it ends now: the kubelet,
	 * containerd, the containers and their shims, and on the control-plane
	 * node the static pods' processes (etcd, kube-apiserver, the scheduler
	 * and the controller manager). With `abrupt` (a power cut, `poweroff
	 * -f`) the daemons get no chance to log their stop; otherwise (an
	 * orderly `poweroff`) systemd stops the two units first, and the
	 * containers, left behind under their shims, die when the machine
	 * halts. Either way no container is stopped gracefully (the kubelet's
	 * graceful node shutdown is off: kubeadm leaves shutdownGracePeriod at
	 * 0) and containerd finds them without their processes at the next
	 * boot. What lived in memory is lost. False if already off.
	 */
	powerOff(how: { abrupt: boolean }): boolean {
		if (this.poweredOff) return false;
		const kernel = this.cluster.kernel;
		const wallMs = kernel.wallMs();
		// Which emptyDirs were memory-backed: read before anything stops.
		const memoryVolumes = this.memoryEmptyDirs();
		for (const [id, service] of [
			[this.kubelet.id, this.kubeletState.service],
			[this.runtime.id, this.runtimeState.service],
		] as const) {
			const wasRunning = kernel.isRunning(id);
			kernel.stop(id, { abrupt: how.abrupt });
			// An abrupt stop runs no stop hook: the unit's record still has to say it is down.
			if (wasRunning && how.abrupt) Object.assign(service, { active: false, mainPid: 0, sinceWallMs: wallMs });
		}
		this.poweredOff = true;
		this.runtime.powerLost();
		this.network.powerLost();
		if (this.controlPlane) for (const id of CONTROL_PLANE_SHUTDOWN_ORDER) kernel.stop(id);
		if (this.controlPlane && this.cluster.externalCloudProvider) kernel.stop(CLOUD_CONTROLLER_MANAGER);
		for (const dir of TMPFS_DIRS) this.emptyDir(dir);
		this.dropTmpfsVolumes(memoryVolumes);
		const boot = this.boots[this.boots.length - 1];
		if (boot) boot.endWallMs = wallMs;
		return true;
	}

	/** Whether a unit starts at boot: its link in multi-user.target.wants (what `systemctl enable` makes). */
	private unitEnabled(service: NodeService): boolean {
		return this.fs.exists(wantsLink(UNITS[service]));
	}

	/** Empties a directory, keeping it (a mount point, or a directory tmpfiles cleans). */
	private emptyDir(dir: string): void {
		if (!this.fs.isDir(dir)) return;
		for (const name of this.fs.list(dir)) this.fs.remove(`${dir}/${name}`, true);
	}

	/** `<pod uid>/<volume>` of the memory-backed emptyDirs (medium: Memory) of the pods bound here, from etcd (no request). */
	private memoryEmptyDirs(): Set<string> {
		const out = new Set<string>();
		for (const pod of this.cluster.list('pods')) {
			const spec = pod.spec as { nodeName?: string; volumes?: Array<{ name: string; emptyDir?: { medium?: string } }> } | undefined;
			if (spec?.nodeName !== this.name) continue;
			// A static pod's volumes live under its own UID, which its mirror pod names.
			const uid = pod.metadata.annotations?.['kubernetes.io/config.mirror'] ?? pod.metadata.uid;
			for (const v of spec.volumes ?? []) if (v.emptyDir?.medium === 'Memory') out.add(`${uid}/${v.name}`);
		}
		return out;
	}

	/**
	 * Removes the volume directories that were tmpfs mounts. The whole
	 * directory goes, so the kubelet sets the volume up again at the next
	 * boot before the pod's containers start (a reconstructed volume whose
	 * mount is gone is mounted again).
	 */
	private dropTmpfsVolumes(memoryEmptyDirs: Set<string>): void {
		const podsDir = `${KUBELET_ROOT_DIR}/pods`;
		if (!this.fs.isDir(podsDir)) return;
		for (const uid of this.fs.list(podsDir)) {
			const volumes = `${podsDir}/${uid}/volumes`;
			if (!this.fs.isDir(volumes)) continue;
			for (const plugin of this.fs.list(volumes)) {
				const dir = `${volumes}/${plugin}`;
				if (!this.fs.isDir(dir)) continue;
				for (const name of this.fs.list(dir)) {
					const memory = TMPFS_VOLUME_PLUGINS.includes(plugin) || (plugin === 'kubernetes.io~empty-dir' && memoryEmptyDirs.has(`${uid}/${name}`));
					if (memory) this.fs.remove(`${dir}/${name}`, true);
				}
			}
		}
	}

	/** Static pod manifests as the kubelet reads them from disk. */
	private manifests(dir: string): Array<{ path: string; text: string }> {
		if (!this.fs.isDir(dir)) return [];
		const base = dir.replace(/\/+$/, '');
		return this.fs
			.list(dir)
			.filter((name) => /\.(ya?ml|json)$/.test(name))
			.sort()
			.map((name) => ({ path: `${base}/${name}`, text: this.fs.readFile(`${base}/${name}`) }));
	}

	private systemContainerStarted(component: SystemComponent, container?: SystemContainerInfo): void {
		if (POD_NETWORK_DAEMONS.has(component)) {
			if (container) this.cni.containerStarted(component, container.containerId);
			return;
		}
		if (component === 'metrics-server') {
			if (container) this.cluster.metricsServer?.started(this.name, container);
			return;
		}
		if (this.runsStatic(component)) this.cluster.kernel.start(this.processIdOf(component));
		if (component === CLOUD_CONTROLLER_MANAGER && this.cluster.externalCloudProvider) this.cluster.kernel.start(component);
		this.network.systemContainer(component, true);
	}

	private systemContainerStopped(component: SystemComponent, containerId?: string): void {
		// What a Pod network daemon set up stays when it stops (./node-cni.ts).
		if (POD_NETWORK_DAEMONS.has(component)) return;
		if (component === 'metrics-server') {
			if (containerId) this.cluster.metricsServer?.stopped(containerId);
			return;
		}
		// A static pod replaced by its new version (a changed manifest) can start its new container before the old one has
		// exited: the process belongs to the container still running, and the old one's exit must not stop it.
		if (this.componentContainerRunning(component, containerId)) return;
		if (this.runsStatic(component)) this.cluster.kernel.stop(this.processIdOf(component));
		if (component === CLOUD_CONTROLLER_MANAGER && this.cluster.externalCloudProvider) this.cluster.kernel.stop(component);
		this.network.systemContainer(component, false);
	}

	/** Whether a container other than `exceptId` runs this component here now. */
	private componentContainerRunning(component: SystemComponent, exceptId: string | undefined): boolean {
		return Object.values(this.runtimeState.containers).some((c) => c.id !== exceptId && c.state === 'CONTAINER_RUNNING' && c.component === component);
	}

	/** HTTP probes of the control plane's containers: healthy while the process runs (and, for the API server, is ready). */
	private probeComponent(component: SystemComponent, path: string): number | undefined {
		if (component === 'metrics-server') return this.cluster.metricsServer ? this.cluster.metricsServer.probe(this.name, path) : 200;
		if (!CONTROL_PLANE_PROCESSES.has(component)) return 200;
		if (!this.cluster.kernel.isRunning(this.processIdOf(component))) return undefined;
		if (component === 'kube-apiserver' && path.startsWith('/readyz')) return this.cluster.apiServerReady() ? 200 : 500;
		return 200;
	}

	/** Whether kube-proxy's container runs here (its record may still say running while the machine is off). */
	kubeProxyRunning(): boolean {
		if (this.poweredOff) return false;
		return Object.values(this.runtimeState.containers).some((c) => c.state === 'CONTAINER_RUNNING' && !!c.program && c.name === 'kube-proxy');
	}

	/** A reader's fault on this machine. */
	applyFault(component: Component, verb: 'stop' | 'start'): void {
		const kernel = this.cluster.kernel;
		switch (component) {
			case 'kubelet':
				if (verb === 'stop') kernel.stop(this.kubelet.id);
				else if (!this.poweredOff) kernel.start(this.kubelet.id);
				return;
			case 'container-runtime':
				if (verb === 'stop') kernel.stop(this.runtime.id);
				else if (!this.poweredOff) kernel.start(this.runtime.id);
				return;
			case 'cloud-controller-manager':
				// A DaemonSet's container, as kube-proxy's: it exits 1 and every restart fails until started again.
				if (verb === 'stop' && this.cluster.externalCloudProvider) {
					this.cluster.kernel.stop(CLOUD_CONTROLLER_MANAGER);
					this.runtime.markComponentExited(CLOUD_CONTROLLER_MANAGER, 1);
				}
				return;
			case 'kube-proxy':
				if (verb === 'stop') {
					// Its process ends with the container, as the control plane's do (markComponentExited fires no stop hook).
					this.network.systemContainer('kube-proxy', false);
					this.runtime.markComponentExited('kube-proxy', 1);
				}
				return;
			default:
				if (!this.runsStatic(component)) return;
				if (verb === 'stop') {
					kernel.stop(this.processIdOf(component));
					this.runtime.markComponentExited(component as SystemComponent, 1);
				} else {
					this.touchManifest(component);
				}
		}
	}

	/** A control-plane process ended on its own (e.g. it lost its leader lease): its container exits 1. */
	componentCrashed(component: string): void {
		if (!this.runsStatic(component) && component !== CLOUD_CONTROLLER_MANAGER) return;
		this.runtime.markComponentExited(component as SystemComponent, 1);
		this.cluster.kernel.stop(component === CLOUD_CONTROLLER_MANAGER ? component : this.processIdOf(component));
	}

	/** Rewrites a static pod's manifest with a new annotation, so the kubelet recreates the pod. */
	private touchManifest(component: string): void {
		const path = `${MANIFEST_DIR}/${component}.yaml`;
		if (!this.fs.exists(path)) return;
		try {
			const pod = parseYaml(this.fs.readFile(path)) as { metadata?: { annotations?: Record<string, string> } };
			pod.metadata ??= {};
			pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), 'cluster-anatomy.dev/restarted-at': String(this.cluster.kernel.wallMs()) };
			this.fs.writeFile(path, stringifyYaml(pod));
		} catch {
			// A manifest the reader broke stays broken, as it would on a real node.
		}
	}

	/** GET /metrics/resource on the kubelet's port 10250 (metrics-server's scrape); undefined when the kubelet does not run. */
	resourceMetrics(): string | undefined {
		if (this.poweredOff) return undefined;
		const boot = this.boots[this.boots.length - 1];
		return this.kubelet.resourceMetrics({ controlPlane: this.controlPlane, bootWallMs: boot?.startWallMs ?? this.cluster.kernel.epochMs });
	}

	/** pods/log and pods/exec, as the kubelet's server on port 10250 answers them. */
	serveKubeletRequest(request: ApiRequest): ApiResponse {
		const namespace = request.namespace ?? 'default';
		const pod = request.name ?? '';
		if (request.subresource === 'log') {
			const result = this.kubelet.serveLog(namespace, pod, request.query?.container, { tailLines: request.query?.tailLines, previous: request.query?.previous, timestamps: request.query?.timestamps, sinceSeconds: request.query?.sinceSeconds, sinceTime: request.query?.sinceTime, limitBytes: request.query?.limitBytes });
			if (!result.ok) return { code: result.code, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: result.reason, message: result.message, code: result.code } };
			return { code: 200, body: result.value };
		}
		if (request.subresource === 'exec') {
			const body = typeof request.body === 'object' ? (request.body as { command?: string[]; container?: string } | undefined) : undefined;
			// kubectl sends PodExecOptions as query parameters (`?command=ls&container=web`).
			// With stdin=true the request's body is the stream's standard input (kubectl exec -i, kubectl cp's tar stream).
			const stdin = request.query?.stdin === true && typeof request.body === 'string' ? request.body : undefined;
			const result = this.kubelet.exec(namespace, pod, body?.container ?? request.query?.container, body?.command ?? request.query?.command ?? [], stdin);
			if (!result.ok) return { code: result.code, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: result.reason, message: result.message, code: result.code } };
			return { code: 200, body: result.value };
		}
		return { code: 404, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', message: 'the server could not find the requested resource', code: 404 } };
	}

	snapshot(): NodeHostState {
		return {
			fs: this.fs.toJSON(),
			runtime: deepCopy(this.runtimeState),
			kubelet: deepCopy(this.kubeletState),
			poweredOff: this.poweredOff,
			boots: deepCopy(this.boots),
			dataplane: this.network.snapshot(),
		};
	}
}
