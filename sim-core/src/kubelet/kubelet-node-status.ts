/**
 * The kubelet and its Node: registration with the API server (retried with
 * back-off, adopting a Node that already exists), the runtime's health as
 * the Ready condition sees it (checked every 5 s, with the PLEG's), and the
 * node status loop: computed every nodeStatusUpdateFrequency, posted when
 * it changed, when the report is due, or after a reboot, with the Node
 * events of each condition change, a cordon or an uncordon.
 *
 * Mirrors pkg/kubelet/kubelet_node_status.go (registerWithAPIServer,
 * tryRegisterWithAPIServer, updateNodeStatus, tryUpdateNodeStatus),
 * pkg/kubelet/nodestatus/setters.go (the MachineInfo and ReadyCondition
 * setters, through ./node-status.ts), pkg/kubelet/runtime.go (runtimeState),
 * pkg/kubelet/kubelet.go (updateRuntimeUp).
 */
import type { Node, NodeStatus } from '../api/types.ts';
import { R } from '../client/client.ts';
import { TaintKeys } from '../component-helpers/taints.ts';
import { criErrorText } from '../cri-api/cri.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import { deepCopy } from '../golang/json.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { syncMirrorPods } from './housekeeping.ts';
import type { KubeletDeps } from './kubelet.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { initialNode, nodeAllocatable, nodeImages, nodeStatusHasChanged, setNodeConditions, type NodeIdentity } from './node-status.ts';
import { hash128 } from './static-pods.ts';
import { nodePressureConditions } from './eviction-manager.ts';
import { KUBERNETES_GIT_VERSION } from '../api/version.ts';

/** The kubelet's version: the release every binary reports (../api/version.ts). */
const KUBELET_VERSION = KUBERNETES_GIT_VERSION;

/** The Node's identity from the kubelet's dependencies: versions, OS, and the machine, system and boot IDs (MachineInfo). */
export function nodeIdentity(deps: KubeletDeps): NodeIdentity {
	const machine = hash128(`machine:${deps.nodeName}`);
	const uuid = hash128(`system-uuid:${deps.nodeName}`);
	return {
		name: deps.nodeName,
		ip: deps.nodeIp,
		labels: deps.labels,
		annotations: deps.annotations,
		// initialNode: an external cloud provider initializes the Node later (TaintExternalCloudProvider).
		taints: deps.externalCloudProvider ? [...(deps.taints ?? []), { key: TaintKeys.ExternalCloudProvider, value: 'true', effect: 'NoSchedule' }] : deps.taints,
		capacity: deps.capacity,
		kubeletVersion: deps.kubeletVersion ?? KUBELET_VERSION,
		containerRuntimeVersion: deps.containerRuntimeVersion ?? 'containerd://2.2.1',
		osImage: deps.osImage ?? 'Ubuntu 24.04.3 LTS',
		kernelVersion: deps.kernelVersion ?? '6.8.0-88-generic',
		machineId: machine,
		systemUuid: `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20, 32)}`,
		bootId: (() => {
			const b = hash128(`boot:${deps.nodeName}`);
			return `${b.slice(0, 8)}-${b.slice(8, 12)}-4${b.slice(13, 16)}-a${b.slice(17, 20)}-${b.slice(20, 32)}`;
		})(),
	};
}

export function register(ctx: KubeletContext): void {
	if (ctx.state.registered) return;
	ctx.log('I', 'kubelet_node_status.go:75', 'Registering the node with the API server', { node: ctx.nodeName });
	const node = initialNode(ctx.identity, ctx.config.evictionHard);
	const created = ctx.client.create<Node>(R.nodes, undefined, node);
	if (created.ok) return registered(ctx, created.object);
	if (created.code === 409) {
		const existing = ctx.client.get<Node>(R.nodes, undefined, ctx.nodeName);
		if (existing.ok) return registered(ctx, existing.object);
	}
	const step = ctx.state.registerDelayMs === 0 ? ctx.config.registerInitialBackoffMs : Math.min(ctx.state.registerDelayMs * 2, ctx.config.registerMaxBackoffMs);
	ctx.state.registerDelayMs = step;
	ctx.log('E', 'kubelet_node_status.go:107', 'Node registration failed; retrying', { err: ctx.callError(created, 'Post', '/api/v1/nodes'), node: ctx.nodeName });
	ctx.after(step, 'register', undefined, { reconnect: true });
}

function registered(ctx: KubeletContext, node: Node): void {
	ctx.state.registered = true;
	ctx.state.registerDelayMs = 0;
	ctx.state.node = node;
	ctx.state.nodeUid = node.metadata.uid;
	ctx.log('I', 'kubelet_node_status.go:78', 'Node registered with the API server', { node: ctx.nodeName });
	ctx.emit({ action: 'register', object: `nodes/${ctx.nodeName}`, msg: `registered node ${ctx.nodeName}` });
	ctx.flushNodeEvents();
	updateNodeStatus(ctx, true);
	syncMirrorPods(ctx);
}

/** The runtime's health as the Ready condition sees it (runtimeState.runtimeErrors / networkErrors). */
function runtimeErrors(ctx: KubeletContext): { runtime: string[]; network: string[] } {
	const rt = ctx.state.runtime;
	const errors: string[] = [];
	if (rt.lastOkMs === undefined) errors.push('container runtime status check may not have completed yet');
	else if (ctx.nowMs - rt.lastOkMs >= ctx.config.maxWaitForContainerRuntimeMs) errors.push('container runtime is down');
	if (rt.lastOkMs !== undefined && ctx.nowMs - rt.lastOkMs > ctx.config.plegRelistThresholdMs) {
		errors.push(`PLEG is not healthy: pleg was last seen active ${formatGoDurationMs(ctx.nowMs - rt.lastOkMs)} ago; threshold is ${formatGoDurationMs(ctx.config.plegRelistThresholdMs)}`);
	}
	return { runtime: errors, network: rt.networkError ? [rt.networkError] : [] };
}

/** updateRuntimeUp: asks the runtime for its status every 5 s. */
export function updateRuntimeUp(ctx: KubeletContext): void {
	const before = runtimeErrors(ctx);
	const status = ctx.runtime.status();
	const rt = ctx.state.runtime;
	if (!status.ok) {
		if (!rt.down) ctx.log('E', 'kubelet.go:3016', 'Container runtime is not answering', { err: criErrorText(status.error) });
		rt.down = true;
	} else {
		rt.down = false;
		rt.lastOkMs = ctx.nowMs;
		const network = status.value.find((c) => c.type === 'NetworkReady');
		rt.networkError = network && !network.status ? `container runtime network not ready: NetworkReady=false reason:${network.reason} message:${network.message}` : undefined;
	}
	// Readiness changed: post it at once rather than at the next tick (fastStatusUpdateOnce).
	const after = runtimeErrors(ctx);
	if (JSON.stringify(before) !== JSON.stringify(after) && ctx.state.registered) updateNodeStatus(ctx);
}

/** updateNodeStatus: compute every tick, post when changed or when the report is due. */
export function updateNodeStatus(ctx: KubeletContext, force = false): void {
	// A registering kubelet posts status once registered; one with registerNode false tries every tick, as syncNodeStatus does.
	if ((!ctx.state.registered && ctx.config.registerNode) || ctx.state.nodeStatus.busy) return;
	ctx.state.nodeStatus.busy = true;
	try {
		const got = ctx.client.get<Node>(R.nodes, undefined, ctx.nodeName);
		if (!got.ok) {
			// registerNode false: the API answers, and there is no Node (nobody else created it).
			if (got.code === 404 && !ctx.state.registered && !ctx.state.nodeEventsUnregistered) {
				ctx.state.nodeEventsUnregistered = true;
				ctx.flushNodeEvents();
			}
			ctx.log('E', 'kubelet_node_status.go:535', 'Could not update the node status; retrying at the next tick', { err: got.code === 404 ? `nodes "${ctx.nodeName}" not found` : ctx.callError(got, 'Get', `/api/v1/nodes/${ctx.nodeName}`) });
			return;
		}
		const current = got.object;
		if (!ctx.state.registered) {
			// registerNode false, and someone created this Node: from now on the kubelet keeps it, as a registered one would.
			ctx.state.registered = true;
			ctx.state.nodeUid = current.metadata.uid;
			ctx.flushNodeEvents();
			force = true;
		}
		ctx.state.node = current;
		// The MachineInfo setter (nodestatus/setters.go) notices a new boot ID: the node rebooted.
		const previousBoot = current.status?.nodeInfo?.bootID;
		const rebooted = !!previousBoot && previousBoot !== ctx.identity.bootId;
		const updated: Node = deepCopy(current);
		const status: NodeStatus = (updated.status ??= {});
		const fresh = initialNode(ctx.identity, ctx.config.evictionHard).status!;
		// The MachineInfo setter writes what it measures over the capacity there is, so resources it does not own (an
		// extended resource a device plugin or a user patched in) stay; allocatable is capacity minus reservations, key by key.
		status.capacity = { ...(current.status?.capacity ?? {}), ...fresh.capacity };
		status.allocatable = nodeAllocatable(status.capacity, ctx.config.evictionHard);
		// setters.go NodeAddress: with --cloud-provider=external, addresses already set (by cloud-controller-manager) take precedence.
		if (!(ctx.deps.externalCloudProvider && (current.status?.addresses ?? []).length > 0)) status.addresses = fresh.addresses;
		status.daemonEndpoints = fresh.daemonEndpoints;
		status.nodeInfo = fresh.nodeInfo;
		const images = ctx.runtime.listImages();
		if (images.ok) status.images = nodeImages(images.value);
		const errors = runtimeErrors(ctx);
		const now = formatRfc3339(ctx.wallMs());
		const events: Array<[string, string]> = [];
		setNodeConditions(status, now, { runtimeErrors: errors.runtime, networkErrors: errors.network, pressure: nodePressureConditions(ctx) }, (type, reason) => events.push([type, reason]));
		// recordNodeSchedulableEvent, the last setter: a cordon or uncordon seen since the last pass (a fresh kubelet starts from false).
		const unschedulable = current.spec?.unschedulable === true;
		if ((ctx.state.lastNodeUnschedulable ?? false) !== unschedulable) {
			const reason = unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable';
			ctx.nodeEvent('Normal', reason, `Node ${ctx.nodeName} status is now: ${reason}`);
			ctx.state.lastNodeUnschedulable = unschedulable;
		}
		const due = !ctx.state.nodeStatus.everPosted || ctx.nowMs - ctx.state.nodeStatus.lastPostedMs >= ctx.config.nodeStatusReportFrequencyMs;
		if (!force && !due && !rebooted && !nodeStatusHasChanged(current.status, status)) return;
		delete updated.metadata.resourceVersion;
		const written = ctx.client.updateStatus<Node>(R.nodes, updated);
		if (!written.ok) {
			ctx.log('E', 'kubelet_node_status.go:535', 'Could not update the node status; retrying at the next tick', { err: ctx.callError(written, 'Put', `/api/v1/nodes/${ctx.nodeName}/status`) });
			return;
		}
		ctx.state.node = written.object;
		ctx.state.nodeStatus.lastPostedMs = ctx.nowMs;
		ctx.state.nodeStatus.everPosted = true;
		ctx.emit({ action: 'node-status', object: `nodes/${ctx.nodeName}`, msg: `posted node status (Ready=${status.conditions?.find((c) => c.type === 'Ready')?.status})` });
		if (rebooted) ctx.nodeEvent('Warning', 'Rebooted', `Node ${ctx.nodeName} has been rebooted, boot id: ${ctx.identity.bootId}`);
		for (const [type, reason] of events) ctx.nodeEvent(type as 'Normal', reason, `Node ${ctx.nodeName} status is now: ${reason}`);
	} finally {
		ctx.state.nodeStatus.busy = false;
	}
}
