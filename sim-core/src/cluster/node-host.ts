/**
 * One machine of the cluster: its files (kubeadm's, plus whatever the
 * reader writes), containerd (`container-runtime/<node>`) with its durable
 * state, and the kubelet (`kubelet/<node>`). On the control-plane node the
 * kubelet's static pods are the control plane: when a container backed by
 * etcd, kube-apiserver, kube-controller-manager or kube-scheduler starts or
 * stops, the matching process starts or stops with it.
 *
 * A reader's "stop kube-scheduler" is modelled as the component failing:
 * its container exits and every restart fails again, so its pod shows
 * CrashLoopBackOff, as a broken control-plane component does. "Start"
 * clears the failure and touches the manifest, so the kubelet recreates the
 * pod at its next file check (within 20 s), as fixing a manifest does.
 */
import type { Taint } from '../api/types.ts';
import type { ApiRequest, ApiResponse } from '../apiserver/request.ts';
import { MemoryFs, type FsJSON, type Host } from '../shell/index.ts';
import { ContainerRuntime } from '../runtime/container-runtime.ts';
import { emptyRuntimeHostState, type RuntimeHostState } from '../runtime/host-state.ts';
import type { SystemComponent } from '../runtime/images.ts';
import { Kubelet } from '../kubelet/kubelet.ts';
import { emptyKubeletHostState, type KubeletHostState } from '../kubelet/journal.ts';
import { nodeDiskFromFs } from '../kubelet/volumes/node-disk.ts';
import { ApiClient } from '../client/client.ts';
import { parseYaml, stringifyYaml } from '../yaml/index.ts';
import type { Cluster, Component } from './cluster.ts';
import { nodeFiles } from './files.ts';
import { NETWORK, isControlPlane, type NodeOptions } from './options.ts';

/** What survives a snapshot of a machine. */
export interface NodeHostState {
	fs: FsJSON;
	runtime: RuntimeHostState;
	kubelet: KubeletHostState;
	poweredOff: boolean;
}

const CONTROL_PLANE_PROCESSES = new Set(['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']);
const MANIFEST_DIR = '/etc/kubernetes/manifests';

export class NodeHost {
	readonly name: string;
	readonly ip: string;
	readonly podCidr: string;
	readonly controlPlane: boolean;
	readonly fs: MemoryFs;
	readonly runtimeState: RuntimeHostState;
	readonly kubeletState: KubeletHostState;
	readonly runtime: ContainerRuntime;
	readonly kubelet: Kubelet;
	/** The shell's view of this machine (ssh target); tools add their commands to it. */
	readonly shellHost: Host;
	poweredOff = false;
	/** Tools that run inside this node's system containers (etcdctl in etcd's), set by the tools wiring. */
	execInSystemContainer?: (component: string, argv: string[]) => { exitCode: number; stdout: string; stderr: string } | undefined;

	constructor(
		private readonly cluster: Cluster,
		readonly options: NodeOptions,
		readonly index: number,
		facts: { apiServerUrl: string; nodeIp: string; podCidr: string; restore?: NodeHostState },
	) {
		this.name = options.name;
		this.ip = facts.nodeIp;
		this.podCidr = facts.podCidr;
		this.controlPlane = isControlPlane(options);
		const kernel = cluster.kernel;

		if (facts.restore) {
			this.fs = MemoryFs.fromJSON(facts.restore.fs);
			this.runtimeState = JSON.parse(JSON.stringify(facts.restore.runtime));
			this.kubeletState = JSON.parse(JSON.stringify(facts.restore.kubelet));
			this.poweredOff = facts.restore.poweredOff;
		} else {
			this.fs = new MemoryFs();
			const files = nodeFiles({
				nodeName: this.name,
				nodeIp: this.ip,
				apiServerUrl: facts.apiServerUrl,
				controlPlane: this.controlPlane,
				controlPlaneFacts: this.controlPlane ? { nodeName: this.name, nodeIp: this.ip, serviceCidr: NETWORK.serviceCidr, podCidr: NETWORK.podCidr } : undefined,
			});
			for (const [path, text] of Object.entries(files)) {
				this.fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', true);
				this.fs.writeFile(path, text);
			}
			this.fs.mkdir('/root', true);
			this.runtimeState = emptyRuntimeHostState(this.name, this.ip, this.podCidr);
			this.kubeletState = emptyKubeletHostState();
		}
		this.fs.cwd = '/root';
		this.fs.home = '/root';

		// One disk for both daemons: the kubelet writes volumes there, containerd bind-mounts them.
		const disk = nodeDiskFromFs(this.fs);
		this.runtime = new ContainerRuntime(kernel, this.name, {
			host: this.runtimeState,
			hostFiles: disk,
			hooks: {
				onSystemContainerStart: (_node, component) => this.systemContainerStarted(component),
				onSystemContainerStop: (_node, component) => this.systemContainerStopped(component),
				isComponentFailing: (_node, component) => cluster.isFailing(component, this.name),
				probe: (_node, component, _port, path) => this.probeComponent(component, path),
				exec: (_node, component, argv) => this.execInSystemContainer?.(component, argv),
			},
		});
		for (const image of options.images ?? []) for (const name of image.names) this.runtime.preload(name);

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
			annotations: { 'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock' },
			runtime: this.runtime,
			client: new ApiClient(cluster.transport, `kubelet/${this.name}`),
			host: this.kubeletState,
			staticPodManifests: () => this.manifests(),
			kubernetesServiceHost: NETWORK.kubernetesServiceIp,
			disk,
		});
		kernel.register(this.runtime);
		kernel.register(this.kubelet);

		this.shellHost = { name: this.name, fs: this.fs, commands: new Map(), user: 'root', home: '/root', kind: 'node' };
	}

	/** Process ids that run on this machine. */
	processIds(): string[] {
		const ids = [this.runtime.id, this.kubelet.id, `kube-proxy/${this.name}`];
		if (this.controlPlane) ids.push(...CONTROL_PLANE_PROCESSES);
		return ids;
	}

	/** The machine boots: containerd, then the kubelet (systemd order). */
	powerOn(): void {
		this.poweredOff = false;
		if (!this.cluster.isFailing('container-runtime', this.name)) this.cluster.kernel.start(this.runtime.id);
		if (!this.cluster.isFailing('kubelet', this.name)) this.cluster.kernel.start(this.kubelet.id);
	}

	/** Static pod manifests as the kubelet reads them from disk. */
	private manifests(): Array<{ path: string; text: string }> {
		if (!this.fs.isDir(MANIFEST_DIR)) return [];
		return this.fs
			.list(MANIFEST_DIR)
			.filter((name) => /\.(ya?ml|json)$/.test(name))
			.sort()
			.map((name) => ({ path: `${MANIFEST_DIR}/${name}`, text: this.fs.readFile(`${MANIFEST_DIR}/${name}`) }));
	}

	private systemContainerStarted(component: SystemComponent): void {
		if (CONTROL_PLANE_PROCESSES.has(component) && this.controlPlane) this.cluster.kernel.start(component);
	}

	private systemContainerStopped(component: SystemComponent): void {
		if (CONTROL_PLANE_PROCESSES.has(component) && this.controlPlane) this.cluster.kernel.stop(component);
	}

	/** HTTP probes of the control plane's containers: healthy while the process runs (and, for the API server, is ready). */
	private probeComponent(component: SystemComponent, path: string): number | undefined {
		if (!CONTROL_PLANE_PROCESSES.has(component)) return 200;
		if (!this.cluster.kernel.isRunning(component)) return undefined;
		if (component === 'kube-apiserver' && path.startsWith('/readyz')) return this.cluster.apiServer.isReady() ? 200 : 500;
		return 200;
	}

	/** Whether kube-proxy's container runs here. */
	kubeProxyRunning(): boolean {
		return Object.values(this.runtimeState.containers).some((c) => c.state === 'CONTAINER_RUNNING' && c.name === 'kube-proxy');
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
			case 'kube-proxy':
				if (verb === 'stop') this.runtime.markComponentExited('kube-proxy', 1);
				return;
			default:
				if (!CONTROL_PLANE_PROCESSES.has(component)) return;
				if (verb === 'stop') {
					kernel.stop(component);
					this.runtime.markComponentExited(component as SystemComponent, 1);
				} else {
					this.touchManifest(component);
				}
		}
	}

	/** A control-plane process ended on its own (e.g. it lost its leader lease): its container exits 1. */
	componentCrashed(component: string): void {
		if (!CONTROL_PLANE_PROCESSES.has(component)) return;
		this.runtime.markComponentExited(component as SystemComponent, 1);
		this.cluster.kernel.stop(component);
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

	/** pods/log and pods/exec, as the kubelet's server on port 10250 answers them. */
	serveKubeletRequest(request: ApiRequest): ApiResponse {
		const namespace = request.namespace ?? 'default';
		const pod = request.name ?? '';
		if (request.subresource === 'log') {
			const result = this.kubelet.serveLog(namespace, pod, request.query?.container, { tailLines: request.query?.tailLines, previous: request.query?.previous, timestamps: request.query?.timestamps });
			if (!result.ok) return { code: result.code, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: result.reason, message: result.message, code: result.code } };
			return { code: 200, body: result.value };
		}
		if (request.subresource === 'exec') {
			const body = request.body as { command?: string[]; container?: string } | undefined;
			// kubectl sends PodExecOptions as query parameters (`?command=ls&container=web`).
			const result = this.kubelet.exec(namespace, pod, body?.container ?? request.query?.container, body?.command ?? request.query?.command ?? []);
			if (!result.ok) return { code: result.code, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: result.reason, message: result.message, code: result.code } };
			return { code: 200, body: result.value };
		}
		return { code: 404, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', message: 'the server could not find the requested resource', code: 404 } };
	}

	snapshot(): NodeHostState {
		return {
			fs: this.fs.toJSON(),
			runtime: JSON.parse(JSON.stringify(this.runtimeState)),
			kubelet: JSON.parse(JSON.stringify(this.kubeletState)),
			poweredOff: this.poweredOff,
		};
	}
}
