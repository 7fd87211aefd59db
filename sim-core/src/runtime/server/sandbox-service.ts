/**
 * containerd's CRI pod sandbox calls: RunPodSandbox over virtual time (the
 * sandbox image pulled if missing, the pause container, the CNI ADD of the
 * bridge plugin with host-local IPAM), StopPodSandbox (what still runs in
 * the pod is killed, its address freed), RemovePodSandbox,
 * PodSandboxStatus and ListPodSandbox.
 *
 * Mirrors containerd/containerd internal/cri/server/sandbox_run.go,
 * containerd/containerd internal/cri/server/sandbox_stop.go,
 * containerd/containerd internal/cri/server/sandbox_remove.go,
 * containerd/containerd internal/cri/server/sandbox_status.go,
 * containerd/containerd internal/cri/server/sandbox_list.go.
 */
import type { CriResult, SandboxConfig, SandboxInfo } from '../../cri-api/cri.ts';
import { deepCopy } from '../../golang/json.ts';
import { killNow } from '../program.ts';
import { allocateIp, gatewayIp, releaseIp } from '../ipam.ts';
import { CNI_NOT_INITIALIZED, setupNetwork } from '../cni.ts';
import * as errors from '../errors.ts';
import type { SandboxRecord } from '../host-state.ts';
import { findLocal, preload, pullPlan } from './image-service.ts';
import { catchUp, recordExit } from './events.ts';
import type { CriService } from './cri-service.ts';

/** Sandbox creation: the pause container plus the CNI ADD (bridge + host-local), a few hundred ms on a VM. */
export const SANDBOX_SETUP_MS = 250;
/** The kernel event kind of a sandbox set-up's completion. */
export const SANDBOX_READY = 'sandbox-ready';

/** The runtime handlers containerd's CRI plugin has (`crictl info`'s runtimes: kubeadm's config.toml declares runc, the default). */
const CONFIGURED_RUNTIMES = ['runc'];

function toSandboxInfo(s: SandboxRecord): SandboxInfo {
	return { id: s.id, podUid: s.podUid, podName: s.podName, namespace: s.namespace, attempt: s.attempt, state: s.state, ip: s.ip, hostNetwork: s.hostNetwork, createdWallMs: s.createdWallMs, labels: { ...s.labels }, annotations: { ...s.annotations } };
}

/**
 * CRI RunPodSandbox: pulls the sandbox image if missing (containerd does
 * this itself, with no kubelet event), starts the pause container and
 * sets up the network. Completes with a `sandbox-ready` event.
 */
export function runPodSandbox(ctx: CriService, config: SandboxConfig, requester: string): CriResult<{ opId: number }> {
	if (!ctx.up) return ctx.down();
	// The handler must be one of the runtimes config.toml declares (a kubeadm node's: runc only).
	if (config.runtimeHandler && !CONFIGURED_RUNTIMES.includes(config.runtimeHandler)) {
		const error: errors.CriError = { code: 'Unknown', desc: `unable to get OCI runtime for sandbox "${ctx.newId()}": no runtime for ${JSON.stringify(config.runtimeHandler)} is configured` };
		ctx.journal('error', `RunPodSandbox for ${config.namespace}/${config.podName} failed: ${errors.criErrorMessage(error)}`);
		return { ok: false, error };
	}
	const opId = ctx.state.nextOpId++;
	let ms = SANDBOX_SETUP_MS;
	if (!findLocal(ctx, ctx.sandboxImage)) ms += pullPlan(ctx, ctx.sandboxImage).ms;
	ctx.state.sandboxOps.push({ opId, requester, config: deepCopy(config), readyAtMs: ctx.nowMs + ms });
	ctx.journal('info', `RunPodSandbox for pod ${config.namespace}/${config.podName} uid=${config.podUid} attempt=${config.attempt}`);
	ctx.after(ms, SANDBOX_READY, { opId });
	return { ok: true, value: { opId } };
}

/** The set-up's time is up: the sandbox is ready with its address (or the set-up fails). */
export function finishSandbox(ctx: CriService, opId: number): void {
	const index = ctx.state.sandboxOps.findIndex((o) => o.opId === opId);
	if (index < 0) return;
	const [op] = ctx.state.sandboxOps.splice(index, 1);
	const config = op.config;
	const fail = (error: errors.CriError) => {
		ctx.journal('error', `RunPodSandbox for ${config.namespace}/${config.podName} failed: ${errors.criErrorMessage(error)}`);
		ctx.notify({ type: 'sandbox-ready', opId, podUid: config.podUid, ok: false, error }, op.requester);
	};
	if (!findLocal(ctx, ctx.sandboxImage) && !preload(ctx, ctx.sandboxImage)) return fail(errors.manifestNotFound(ctx.sandboxImage));
	const pause = findLocal(ctx, ctx.sandboxImage);
	if (pause) pause.pinned = true;
	const id = ctx.newId();
	let ip = ctx.host.nodeIp;
	if (!config.hostNetwork) {
		// The CNI ADD: with the node's files, containerd runs the plugins of its config (../cni.ts).
		const cniError = ctx.deps.cni && ctx.deps.hostFiles ? setupNetwork(ctx.deps.hostFiles, { podCidr: ctx.host.podCidr }, ctx.deps.cni) : (ctx.deps.networkReady?.() ?? true) ? undefined : CNI_NOT_INITIALIZED;
		if (cniError) return fail({ code: 'Unknown', desc: `failed to setup network for sandbox "${id}": ${cniError}` });
		const allocated = allocateIp(ctx.host, id);
		if (!allocated) {
			return fail({ code: 'Unknown', desc: `failed to setup network for sandbox "${id}": plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${gatewayIp(ctx.host.podCidr)}-${ctx.host.podCidr.replace(/\.0\/\d+$/, '.254')}` });
		}
		ip = allocated;
	}
	const record: SandboxRecord = {
		id,
		podUid: config.podUid,
		podName: config.podName,
		namespace: config.namespace,
		attempt: config.attempt,
		state: 'SANDBOX_READY',
		ip,
		hostNetwork: config.hostNetwork,
		hostname: config.hostname,
		createdMs: ctx.nowMs,
		createdWallMs: ctx.kernel.wallMs(),
		labels: { ...config.labels },
		annotations: { ...config.annotations },
	};
	if (config.dnsConfig) record.resolvConf = resolvConfText(config.dnsConfig);
	ctx.host.sandboxes[id] = record;
	ctx.journal('info', `RunPodSandbox for ${config.namespace}/${config.podName} returns sandbox id "${id}"`);
	ctx.emit({ action: 'sandbox', object: `pods/${config.namespace}/${config.podName}`, msg: `sandbox ${id.slice(0, 13)} ready, IP ${ip}` });
	ctx.notify({ type: 'sandbox-ready', opId, podUid: config.podUid, ok: true, sandboxId: id }, op.requester);
}

/** CRI StopPodSandbox: kills what still runs in the pod and tears its network down. */
export function stopPodSandbox(ctx: CriService, id: string): CriResult<void> {
	if (!ctx.up) return ctx.down();
	const s = ctx.host.sandboxes[id];
	if (!s) return { ok: true, value: undefined };
	for (const c of Object.values(ctx.host.containers)) {
		if (c.sandboxId !== id) continue;
		catchUp(ctx, c);
		if (c.state === 'CONTAINER_RUNNING' && c.program) {
			killNow(c.program, ctx.nowMs);
			recordExit(ctx, c);
		}
	}
	if (s.state === 'SANDBOX_READY') {
		s.state = 'SANDBOX_NOTREADY';
		if (!s.hostNetwork) releaseIp(ctx.host, s.ip);
		ctx.journal('info', `StopPodSandbox for "${id}" returns successfully`);
	}
	return { ok: true, value: undefined };
}

/** CRI RemovePodSandbox: removes the sandbox and all its containers. */
export function removePodSandbox(ctx: CriService, id: string): CriResult<void> {
	if (!ctx.up) return ctx.down();
	const s = ctx.host.sandboxes[id];
	if (!s) return { ok: true, value: undefined };
	if (s.state === 'SANDBOX_READY') stopPodSandbox(ctx, id);
	for (const c of Object.values(ctx.host.containers)) if (c.sandboxId === id) delete ctx.host.containers[c.id];
	delete ctx.host.sandboxes[id];
	ctx.journal('info', `RemovePodSandbox for "${id}" returns successfully`);
	return { ok: true, value: undefined };
}

/** CRI ListPodSandbox. */
export function listPodSandbox(ctx: CriService, filter: { podUid?: string; state?: SandboxRecord['state'] }): CriResult<SandboxInfo[]> {
	if (!ctx.up) return ctx.down();
	const list = Object.values(ctx.host.sandboxes)
		.filter((s) => (!filter.podUid || s.podUid === filter.podUid) && (!filter.state || s.state === filter.state))
		.sort((a, b) => a.createdMs - b.createdMs || a.id.localeCompare(b.id))
		.map((s) => toSandboxInfo(s));
	return { ok: true, value: list };
}

/** CRI PodSandboxStatus; with `verbose`, containerd's info about the sandbox too (the image its pause container runs). */
export function podSandboxStatus(ctx: CriService, id: string, verbose: boolean): CriResult<SandboxInfo> {
	if (!ctx.up) return ctx.down();
	const s = ctx.host.sandboxes[id];
	if (!s) return { ok: false, error: errors.sandboxNotFound(id) };
	const info = toSandboxInfo(s);
	if (verbose) info.info = { image: ctx.sandboxImage };
	return { ok: true, value: info };
}

/**
 * The resolv.conf containerd writes for a sandbox from CRI's DNSConfig
 * (search line, one nameserver line each, options line), bind-mounted
 * into every container of the Pod. A host-network sandbox with no
 * DNSConfig keeps the node's file.
 */
export function resolvConfText(config: { servers: string[]; searches: string[]; options: string[] }): string {
	let text = '';
	if (config.searches.length) text += `search ${config.searches.join(' ')}\n`;
	for (const s of config.servers) text += `nameserver ${s}\n`;
	if (config.options.length) text += `options ${config.options.join(' ')}\n`;
	return text;
}
