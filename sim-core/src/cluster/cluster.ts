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
 */
import type { KubeObject } from '../api/types.ts';
import { RESOURCES, etcdPrefix, resourceByName, type ResourceInfo } from '../api/resources.ts';
import { parseGoDurationMs } from '../golang/duration.ts';
import { Kernel, type KernelState } from '../sim/kernel.ts';
import { parseRfc3339 } from '../golang/time.ts';
import type { TraceEvent } from '../sim/trace.ts';
import { MvccStore, type MvccState } from '../store/mvcc.ts';
import { EtcdMember } from '../store/etcd.ts';
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
import { NodeHost, type NodeHostState } from './node-host.ts';
import { systemNamespaces, systemPriorityClasses, kubernetesService } from './bootstrap/system-objects.ts';
import { coreDnsObjects, kubeadmConfigMaps, kubeProxyObjects } from './bootstrap/addons.ts';
import { DEFAULT_KUBERNETES_VERSION, DEFAULT_SEED, DEFAULT_START_TIME, NETWORK, nodeIp, nodePodCidr, resolveNodes, type ClusterOptions, type NodeOptions } from './options.ts';
import { ReaderShell, type ShellState } from './reader-shell.ts';
import { TimedFaults, type PlannedFault } from './timed-faults.ts';
import { registerTools } from './tools.ts';
import { readShutdownSchedule, SHUTDOWN_SCHEDULE_FILE } from '../tools/systemd/index.ts';
import { deepCopy } from '../golang/json.ts';

/** Everything a snapshot holds: plain JSON. */
export interface ClusterSnapshot {
	format: 'cluster-anatomy/snapshot@1';
	options: ClusterOptions;
	kernel: KernelState;
	etcd: MvccState;
	hosts: Record<string, NodeHostState>;
	partitions: string[];
	faults: string[];
	shell: ShellState;
	inputs: ClusterInput[];
}

/** One thing the reader (or a scenario) did; replaying the list rebuilds the session. */
export type ClusterInput =
	| { kind: 'exec'; line: string; stdin?: string }
	| { kind: 'advance'; ms: number }
	| { kind: 'settle'; maxMs: number }
	| { kind: 'stop' | 'start'; component: string; node?: string }
	| { kind: 'partition' | 'heal'; node: string }
	| { kind: 'powerOff' | 'powerOn'; node: string }
	| { kind: 'writeFile'; path: string; text: string; host?: string };

/** The result of a command, as a terminal shows it. */
export interface ExecResult {
	stdout: string;
	stderr: string;
	/** stdout and stderr interleaved in the order written. */
	output: string;
	exitCode: number;
}

/** A component the reader can stop and start. */
export type Component = 'kube-apiserver' | 'etcd' | 'kube-scheduler' | 'kube-controller-manager' | 'cloud-controller-manager' | 'kubelet' | 'kube-proxy' | 'container-runtime';

const CONTROL_PLANE_COMPONENTS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;
const NODE_COMPONENTS = ['kubelet', 'kube-proxy', 'container-runtime'] as const;

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

export class Cluster {
	readonly kernel: Kernel;
	readonly options: ClusterOptions & { seed: number; kubernetesVersion: string; startTime: string };
	readonly nodes: NodeOptions[];
	readonly etcdData: MvccStore;
	readonly etcd: EtcdMember;
	readonly apiServer: KubeApiServer;
	readonly scheduler: KubeScheduler;
	readonly controllerManager: KubeControllerManager;
	readonly transport: ClusterTransport;
	readonly hosts = new Map<string, NodeHost>();
	readonly shell: ReaderShell;
	private readonly timedFaults: TimedFaults;
	private readonly partitions = new Set<string>();
	/** `component@node` pairs the reader made fail. */
	private readonly faults = new Set<string>();
	private readonly inputLog: ClusterInput[] = [];
	private inputCount = 0;

	constructor(options: ClusterOptions = {}, restore?: ClusterSnapshot) {
		this.options = {
			...options,
			seed: options.seed ?? DEFAULT_SEED,
			kubernetesVersion: options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION,
			startTime: options.startTime ?? DEFAULT_START_TIME,
		};
		this.nodes = resolveNodes(options.nodes);
		// A highly available control plane (several etcd members in a Raft
		// cluster, several API servers behind a load balancer) comes with the
		// HA chapter; until then say so rather than quietly build one of each.
		for (const [field, value] of Object.entries(options.controlPlane ?? {})) {
			if (value !== undefined && value !== 1) throw new Error(`controlPlane.${field}: ${String(value)} is not supported yet; this version runs one etcd member and one kube-apiserver (set 1 or leave it out)`);
		}
		const epochMs = parseRfc3339(this.options.startTime);
		if (Number.isNaN(epochMs)) throw new Error(`startTime "${this.options.startTime}" is not an RFC 3339 time`);
		this.kernel = new Kernel(this.options.seed, epochMs, restore?.kernel);
		this.etcdData = restore ? new MvccStore(deepCopy(restore.etcd)) : MvccStore.empty();
		for (const node of restore?.partitions ?? []) this.partitions.add(node);
		for (const fault of restore?.faults ?? []) this.faults.add(fault);
		if (restore) this.inputLog.push(...restore.inputs);

		const controlPlane = this.nodes[0];
		const apiIp = nodeIp(0);
		const apiAddress = `${apiIp}:${NETWORK.apiServerPort}`;
		const apiServerUrl = `https://${apiAddress}`;

		this.transport = new ClusterTransport(
			this.kernel,
			() => this.apiServer,
			apiAddress,
			(node) => this.partitions.has(node) || !!this.hosts.get(node)?.poweredOff,
			() => !!this.hosts.get(controlPlane.name)?.poweredOff,
		);
		this.etcd = new EtcdMember(this.kernel, this.etcdData, 'etcd', controlPlane.name, apiIp);
		this.apiServer = new KubeApiServer(this.kernel, {
			etcd: { store: () => this.etcd.store(), watch: (id) => this.etcd.addWatcher(id), notify: () => this.etcd.announce() },
			strategies: defaultStrategies(),
			admission: defaultAdmissionPlugins(),
			authorizers: defaultAuthorizers(this.options.authorizationMode ?? 'Node,RBAC'),
			decode: (body, info) => strictDecode(body, { group: info.group, version: info.version, kind: info.kind }),
			systemObjects: () => [...systemNamespaces(), ...systemPriorityClasses(), ...kubernetesService({ apiServerIp: apiIp, kubernetesServiceIp: NETWORK.kubernetesServiceIp }), ...bootstrapPolicyObjects()],
			nodeProxy: (nodeName, request) => this.proxyToKubelet(nodeName, request),
			// A machine that is off answers no ARP (EHOSTUNREACH); a cut-off one drops the SYNs until the dial times out.
			kubeletDialError: (nodeName) => (this.hosts.get(nodeName)?.poweredOff ? 'connect: no route to host' : this.partitions.has(nodeName) ? 'i/o timeout' : 'connect: connection refused'),
		});
		// Losing the leader lease ends the process (its container exits 1 and the kubelet restarts it).
		const crash = (component: string) => () => this.hosts.get(controlPlane.name)?.componentCrashed(component);
		this.scheduler = new KubeScheduler(this.kernel, this.transport, { config: this.options.scheduler, hostname: controlPlane.name, onLeadershipLost: crash('kube-scheduler') });
		this.controllerManager = new KubeControllerManager(this.kernel, this.transport, { onLeadershipLost: crash('kube-controller-manager') });
		const kubeadm = new KubeadmInit(this.kernel, this.transport, controlPlane.name, () => [
			...kubeadmConfigMaps(this.addonFacts(apiServerUrl)),
			...kubeadmRbacObjects(),
			...kubeProxyObjects(this.addonFacts(apiServerUrl)),
			...coreDnsObjects(this.addonFacts(apiServerUrl)),
		]);
		this.timedFaults = new TimedFaults(this.kernel, (fault) => this.firePlannedFault(fault));
		for (const process of [this.etcd, this.apiServer, this.scheduler, this.controllerManager, kubeadm, this.timedFaults]) this.kernel.register(process);

		// Identities: what each process's kubeconfig (or service account) authenticates as.
		this.transport.enroll('kube-apiserver', KubeApiServer.LOOPBACK_USER, controlPlane.name);
		for (const id of ['kube-scheduler', 'kube-controller-manager']) this.transport.enroll(id, this.identity(id), controlPlane.name);
		// kubeadm init talks to the API server with super-admin.conf (system:masters) since v1.29.
		this.transport.enroll('kubeadm', { username: 'kubernetes-super-admin', groups: ['system:masters', 'system:authenticated'] }, controlPlane.name);
		for (const name of this.controllerManager.controllerNames()) this.transport.enroll(`kube-controller-manager/${name}`, this.identity(`kube-controller-manager/${name}`), controlPlane.name);

		this.nodes.forEach((node, index) => {
			const host = new NodeHost(this, node, index, {
				apiServerUrl,
				nodeIp: nodeIp(index),
				podCidr: nodePodCidr(index),
				restore: restore?.hosts[node.name],
			});
			this.hosts.set(node.name, host);
			this.transport.enroll(`kubelet/${node.name}`, this.identity(`kubelet/${node.name}`), node.name);
			// kube-proxy authenticates with its ServiceAccount's token (kube-system/kube-proxy, bound to system:node-proxier).
			this.transport.enroll(`kube-proxy/${node.name}`, this.identity(`kube-proxy/${node.name}`), node.name);
		});

		this.shell = new ReaderShell(this, apiServerUrl, restore?.shell);
		registerTools(this, this.shell);

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
		};
	}

	/** The node a control-plane component runs on (one control plane for now; HA comes later). */
	get controlPlaneNode(): string {
		return this.nodes[0].name;
	}

	/** Whether a component on a node has been made to fail by the reader. */
	isFailing(component: string, node: string): boolean {
		return this.faults.has(`${component}@${node}`);
	}

	/** pods/log and pods/exec, forwarded to the kubelet of the node (over the node's network). */
	private proxyToKubelet(nodeName: string, request: ApiRequest): ApiResponse | undefined {
		const host = this.hosts.get(nodeName);
		if (!host || this.partitions.has(nodeName) || host.poweredOff) return undefined;
		return host.serveKubeletRequest(request);
	}

	/** Boots the machines: containerd and the kubelet start on every node; the rest follows from there. */
	private boot(): void {
		const origin = this.kernel.newOrigin('boot');
		const previous = this.kernel.origin;
		this.kernel.origin = origin;
		for (const host of this.hosts.values()) host.powerOn();
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
			if (this.bootComplete()) break;
		}
		// A little calm after the last pod started, as a reader arrives some time after kubeadm finished.
		this.kernel.runUntil(this.kernel.nowMs + 5000);
	}

	private bootComplete(): boolean {
		const nodes = this.list('nodes');
		if (nodes.length < this.nodes.length) return false;
		const ready = (n: KubeObject) => ((n.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
		if (!nodes.every(ready)) return false;
		// Every system pod up and Ready, CoreDNS included (its Deployment exists once kubeadm finished).
		const pods = this.list('pods', 'kube-system');
		const podReady = (p: KubeObject) => ((p.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
		return pods.some((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns') && pods.every(podReady);
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

	/** Which of `names` the reader's current host can run (shell builtins and installed tools), for tab completion. */
	commandsAvailable(names: readonly string[]): string[] {
		return names.filter((name) => this.shell.session.lookup(name) !== undefined);
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

	/** Runs until nothing but housekeeping is pending, or `maxMs` passes. */
	settle(options: { maxMs?: number } = {}): { settled: boolean; elapsedMs: number } {
		const maxMs = options.maxMs ?? 60_000;
		this.record({ kind: 'settle', maxMs });
		return this.settleQuietly(maxMs);
	}

	/** settle() without recording an input (used inside commands that wait). */
	settleQuietly(maxMs: number): { settled: boolean; elapsedMs: number } {
		const start = this.kernel.nowMs;
		const deadline = start + maxMs;
		while (this.kernel.hasPendingWork()) {
			const next = this.kernel.nextEventAtMs();
			if (next === undefined || next > deadline) break;
			this.kernel.step();
		}
		const settled = !this.kernel.hasPendingWork();
		if (!settled) this.kernel.runUntil(deadline);
		return { settled, elapsedMs: this.kernel.nowMs - start };
	}

	// ---- public API: commands --------------------------------------------------------

	/** Runs a shell command line as the reader would type it. Never throws. */
	exec(line: string, options: { stdin?: string } = {}): ExecResult {
		this.record(options.stdin === undefined ? { kind: 'exec', line } : { kind: 'exec', line, stdin: options.stdin });
		const previous = this.kernel.origin;
		this.kernel.origin = `input:${this.inputCount}`;
		try {
			return this.shell.exec(line, options.stdin);
		} finally {
			this.kernel.origin = previous;
		}
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

	// ---- public API: faults -----------------------------------------------------------

	/** Stops a component (on a node, for kubelet, kube-proxy and container-runtime). Returns an error message if the request makes no sense. */
	stop(component: Component, node?: string): string | undefined {
		return this.fault('stop', component, node);
	}

	start(component: Component, node?: string): string | undefined {
		return this.fault('start', component, node);
	}

	private fault(verb: 'stop' | 'start', component: Component, node?: string): string | undefined {
		const target = this.faultTarget(component, node);
		if (typeof target === 'string') return target;
		this.record(node ? { kind: verb, component, node } : { kind: verb, component });
		const previous = this.kernel.origin;
		this.kernel.origin = `input:${this.inputCount}`;
		try {
			const key = `${component}@${target.node}`;
			if (verb === 'stop') this.faults.add(key);
			else this.faults.delete(key);
			this.kernel.emit({ component: 'reader', action: verb, msg: `${verb} ${component}${node ? ` on ${node}` : ''}` });
			target.host.applyFault(component, verb);
		} finally {
			this.kernel.origin = previous;
		}
		return undefined;
	}

	private faultTarget(component: Component, node?: string): { host: NodeHost; node: string } | string {
		if ((CONTROL_PLANE_COMPONENTS as readonly string[]).includes(component)) {
			if (node && node !== this.controlPlaneNode) return `${component} runs on ${this.controlPlaneNode}, not ${node}`;
			return { host: this.hosts.get(this.controlPlaneNode)!, node: this.controlPlaneNode };
		}
		if ((NODE_COMPONENTS as readonly string[]).includes(component)) {
			if (!node) return `${component} runs on every node: say which`;
			const host = this.hosts.get(node);
			if (!host) return `no node named ${node}`;
			return { host, node };
		}
		if (component === 'cloud-controller-manager') return 'this cluster runs without a cloud-controller-manager (as kubeadm clusters on your own machines do)';
		return `unknown component ${String(component)}`;
	}

	/** Cuts a node off from the control plane (its processes keep running). */
	partition(node: string): string | undefined {
		if (!this.hosts.has(node)) return `no node named ${node}`;
		this.record({ kind: 'partition', node });
		this.partitions.add(node);
		this.kernel.emit({ component: 'reader', action: 'partition', msg: `cut ${node} off from the control plane`, origin: `input:${this.inputCount}` });
		// Established watch connections from the node break.
		this.apiServer.closeWatchesOf([...this.hosts.get(node)!.processIds()]);
		return undefined;
	}

	heal(node: string): string | undefined {
		if (!this.hosts.has(node)) return `no node named ${node}`;
		this.record({ kind: 'heal', node });
		this.partitions.delete(node);
		this.kernel.emit({ component: 'reader', action: 'heal', msg: `reconnected ${node} to the control plane`, origin: `input:${this.inputCount}` });
		return undefined;
	}

	isPartitioned(node: string): boolean {
		return this.partitions.has(node);
	}

	// ---- public API: power ---------------------------------------------------------------

	/**
	 * Cuts a node's power: every process on it stops at once (the kubelet,
	 * containerd, the containers; on the control-plane node the control
	 * plane too), with no graceful termination; what was in memory is lost;
	 * the machine answers nothing on the network. The control plane sees
	 * what it sees of a partitioned node. Returns an error message for a
	 * node that does not exist or is already off.
	 */
	powerOff(node: string): string | undefined {
		const host = this.hosts.get(node);
		if (!host) return `no node named ${node}`;
		if (host.poweredOff) return `${node} is already powered off`;
		this.record({ kind: 'powerOff', node });
		this.asInput(() => {
			this.kernel.emit({ component: 'reader', action: 'power-off', object: `nodes/${node}`, msg: `cut the power of ${node}` });
			this.cutPower(host, { abrupt: true });
		});
		return undefined;
	}

	/**
	 * Powers a node on: it boots (a new boot ID), containerd starts, then the
	 * kubelet, which finds its pods' containers gone and starts them again in
	 * new sandboxes (the static pods too). Units stopped by hand before are
	 * started again, as systemd does at boot. Returns an error message for a
	 * node that does not exist or is already on.
	 */
	powerOn(node: string): string | undefined {
		const host = this.hosts.get(node);
		if (!host) return `no node named ${node}`;
		if (!host.poweredOff) return `${node} is already powered on`;
		this.record({ kind: 'powerOn', node });
		this.asInput(() => {
			this.kernel.emit({ component: 'reader', action: 'power-on', object: `nodes/${node}`, msg: `powered ${node} on: it boots` });
			this.bootMachine(host);
		});
		return undefined;
	}

	/** Whether a node's machine is powered off. */
	isPoweredOff(node: string): boolean {
		return !!this.hosts.get(node)?.poweredOff;
	}

	/**
	 * A node shut down from its own shell (`poweroff`, `reboot`, `shutdown`,
	 * or logind's scheduled shutdown coming due): the same machine going
	 * down as powerOff(), but orderly unless forced, and not a new input
	 * (the command that asked for it is the input and replays it). A reboot
	 * comes back up REBOOT_MS later, from inside the simulation.
	 */
	shutdownFromNode(node: string, action: 'poweroff' | 'reboot', options: { force: boolean; by: string }): void {
		const host = this.hosts.get(node);
		if (!host || host.poweredOff) return;
		this.kernel.emit({ component: options.by, action: 'power-off', object: `nodes/${node}`, msg: `${node} ${action === 'reboot' ? 'reboots' : 'powers off'}${options.force ? ' (forced: no orderly stop of its units)' : ''}` });
		const boot = host.bootId();
		this.cutPower(host, { abrupt: options.force });
		if (action === 'reboot') this.timedFaults.plan({ atMs: this.kernel.nowMs + REBOOT_MS, verb: 'powerOn', node, by: `systemd/${node}`, afterBoot: boot }, { work: true, origin: this.kernel.origin });
	}

	/** logind's timer for a scheduled shutdown (`shutdown +5`): at `atWallMs` the node looks at its schedule file. */
	scheduleShutdownCheck(node: string, atWallMs: number): void {
		this.timedFaults.plan({ atMs: atWallMs - this.kernel.epochMs, verb: 'scheduled-shutdown', node, by: `systemd/${node}` }, { work: false, origin: this.kernel.origin });
	}

	private cutPower(host: NodeHost, how: { abrupt: boolean }): void {
		if (!host.powerOff(how)) return;
		// The reader's ssh session to that machine (or through it) is dead.
		this.shell.hostWentDown(host.name);
	}

	private bootMachine(host: NodeHost): void {
		// systemd starts the enabled units at boot, whatever was stopped by hand before.
		this.faults.delete(`kubelet@${host.name}`);
		this.faults.delete(`container-runtime@${host.name}`);
		host.powerOn();
	}

	/** Runs `fn` as the newest reader input (its events carry the input's origin). */
	private asInput(fn: () => void): void {
		const previous = this.kernel.origin;
		this.kernel.origin = `input:${this.inputCount}`;
		try {
			fn();
		} finally {
			this.kernel.origin = previous;
		}
	}

	/** Plans a fault at a virtual time (a scenario's `faults:`); it fires inside the simulation. */
	planFault(fault: PlannedFault): void {
		this.timedFaults.plan(fault);
	}

	private firePlannedFault(fault: PlannedFault): void {
		// A planned fault acts like the reader's own, but is not a new input: it replays from the plan.
		const by = fault.by ?? 'scenario';
		if (fault.verb === 'powerOff' || fault.verb === 'powerOn' || fault.verb === 'scheduled-shutdown') {
			const host = fault.node ? this.hosts.get(fault.node) : undefined;
			if (!host) return;
			if (fault.verb === 'scheduled-shutdown') {
				// logind's timer: the schedule must still be there (`shutdown -c` removes it; a power cut wipes /run).
				const schedule = readShutdownSchedule(host.fs);
				if (!schedule || schedule.atWallMs !== fault.atMs + this.kernel.epochMs || host.poweredOff) return;
				host.fs.remove(SHUTDOWN_SCHEDULE_FILE);
				if (!schedule.dryRun) this.shutdownFromNode(host.name, schedule.action, { force: false, by });
				return;
			}
			if (fault.verb === 'powerOff' && !host.poweredOff) {
				this.kernel.emit({ component: by, action: 'power-off', object: `nodes/${host.name}`, msg: `cut the power of ${host.name}` });
				this.cutPower(host, { abrupt: true });
			} else if (fault.verb === 'powerOn' && host.poweredOff && (fault.afterBoot === undefined || fault.afterBoot === host.bootId())) {
				this.kernel.emit({ component: by, action: 'power-on', object: `nodes/${host.name}`, msg: fault.afterBoot ? `${host.name} boots again` : `powered ${host.name} on: it boots` });
				this.bootMachine(host);
			}
			return;
		}
		if (fault.verb === 'partition' || fault.verb === 'heal') {
			if (fault.node && fault.verb === 'partition') this.partitions.add(fault.node);
			if (fault.node && fault.verb === 'heal') this.partitions.delete(fault.node);
			if (fault.verb === 'partition' && fault.node) this.apiServer.closeWatchesOf([...(this.hosts.get(fault.node)?.processIds() ?? [])]);
			this.kernel.emit({ component: 'scenario', action: fault.verb, msg: `${fault.verb} ${fault.node}` });
			return;
		}
		const target = this.faultTarget(fault.component as Component, fault.node);
		if (typeof target === 'string') return;
		const key = `${fault.component}@${target.node}`;
		if (fault.verb === 'stop') this.faults.add(key);
		else this.faults.delete(key);
		this.kernel.emit({ component: 'scenario', action: fault.verb, msg: `${fault.verb} ${fault.component}${fault.node ? ` on ${fault.node}` : ''}` });
		target.host.applyFault(fault.component as Component, fault.verb);
	}

	/**
	 * A node service stopped or started from the node itself (`systemctl stop
	 * kubelet` in the reader's terminal): the same fault as stop()/start(),
	 * but not a new input, because the shell command that asked for it is
	 * the input and replays it.
	 */
	serviceFault(verb: 'stop' | 'start', component: 'kubelet' | 'container-runtime', node: string): void {
		const target = this.faultTarget(component, node);
		if (typeof target === 'string') return;
		const key = `${component}@${target.node}`;
		if (verb === 'stop') this.faults.add(key);
		else this.faults.delete(key);
		this.kernel.emit({ component: 'reader', action: verb, msg: `${verb} ${component} on ${node} (systemctl)` });
		target.host.applyFault(component, verb);
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
		return this.scheduler.explain(podKey.includes('/') ? podKey : `default/${podKey}`);
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
		for (const c of CONTROL_PLANE_COMPONENTS) {
			const entry: { component: string; node: string; running: boolean; failing: boolean; leader?: boolean } = { component: c, node: cp, running: this.kernel.isRunning(c), failing: this.faults.has(`${c}@${cp}`) };
			if (c === 'kube-scheduler') entry.leader = this.scheduler.isLeader;
			if (c === 'kube-controller-manager') entry.leader = this.controllerManager.isLeader;
			out.push(entry);
		}
		for (const [name, host] of this.hosts) {
			out.push({ component: 'kubelet', node: name, running: this.kernel.isRunning(`kubelet/${name}`), failing: this.faults.has(`kubelet@${name}`) });
			out.push({ component: 'container-runtime', node: name, running: this.kernel.isRunning(`container-runtime/${name}`), failing: this.faults.has(`container-runtime@${name}`) });
			out.push({ component: 'kube-proxy', node: name, running: host.kubeProxyRunning(), failing: this.faults.has(`kube-proxy@${name}`) });
		}
		return out;
	}

	// ---- snapshots ------------------------------------------------------------------

	snapshot(): ClusterSnapshot {
		const hosts: Record<string, NodeHostState> = {};
		for (const [name, host] of this.hosts) hosts[name] = host.snapshot();
		return {
			format: 'cluster-anatomy/snapshot@1',
			options: deepCopy(this.options),
			kernel: this.kernel.snapshot(),
			etcd: deepCopy(this.etcdData.state),
			hosts,
			partitions: [...this.partitions],
			faults: [...this.faults],
			shell: this.shell.snapshot(),
			inputs: this.inputs(),
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
