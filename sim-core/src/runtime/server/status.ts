/**
 * containerd's Version and Status calls: its name and version, the
 * RuntimeReady and NetworkReady conditions (NetworkReady false while no CNI
 * network config is found in /etc/cni/net.d, ../cni.ts), and with verbose set the part of containerd's
 * own info crictl shows, its CRI config's pinned sandbox image.
 *
 * Mirrors containerd/containerd internal/cri/server/version.go,
 * containerd/containerd internal/cri/server/status.go, containerd/go-cni
 * cni.go (Status).
 */
import type { CriResult, RuntimeCondition, StatusResponse, VersionInfo } from '../../cri-api/cri.ts';
import type { CriService } from './cri-service.ts';
import { loadNetwork } from '../cni.ts';

/** CRI Version. */
export function version(ctx: CriService): CriResult<VersionInfo> {
	if (!ctx.up) return ctx.down();
	return { ok: true, value: { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: ctx.containerdVersion, runtimeApiVersion: 'v1' } };
}

/** CRI Status: RuntimeReady and NetworkReady. */
export function conditions(ctx: CriService): CriResult<RuntimeCondition[]> {
	if (!ctx.up) return ctx.down();
	// With the node's files: NetworkReady while /etc/cni/net.d holds a network config (go-cni's Status: ready()).
	const cni = ctx.deps.cni;
	const network = cni && ctx.deps.hostFiles ? loadNetwork(ctx.deps.hostFiles, cni) !== undefined : (ctx.deps.networkReady?.() ?? true);
	return {
		ok: true,
		value: [
			{ type: 'RuntimeReady', status: true, reason: '', message: '' },
			network ? { type: 'NetworkReady', status: true, reason: '', message: '' } : { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' },
		],
	};
}

/** CRI Status with its request: the conditions, and containerd's info when verbose. */
export function status(ctx: CriService, verbose: boolean): CriResult<StatusResponse> {
	const listed = conditions(ctx);
	if (!listed.ok) return listed;
	const response: StatusResponse = { conditions: listed.value };
	if (verbose) response.info = { config: { pinnedImages: { sandbox: ctx.sandboxImage } } };
	return { ok: true, value: response };
}
