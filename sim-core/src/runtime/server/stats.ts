/**
 * CRI ListContainerStats: each running container's cumulative CPU time
 * and working set, sampled now from the account ../resource-usage.ts
 * keeps, its writable layer and log on disk (../disk-usage.ts) and its
 * process count. The kubelet reads it for its resource metrics endpoint
 * and its eviction manager.
 *
 * Mirrors containerd/containerd internal/cri/server/container_stats_list.go
 * (ListContainerStats: CPU, memory and the writable layer).
 */
import type { ContainerStats, CriResult } from '../../cri-api/cri.ts';
import { accrue, profileOf } from '../resource-usage.ts';
import type { CriService } from './cri-service.ts';
import { catchUp } from './events.ts';
import { containerLogUse, writableLayerUse } from '../disk-usage.ts';
import { containerProcesses } from '../host-state.ts';

export function listContainerStats(ctx: CriService): CriResult<ContainerStats[]> {
	if (!ctx.up) return ctx.down();
	const out: ContainerStats[] = [];
	const wall = ctx.kernel.wallMs();
	for (const c of Object.values(ctx.host.containers)) {
		catchUp(ctx, c);
		if (c.state !== 'CONTAINER_RUNNING') continue;
		const usage = accrue(c, ctx.nowMs);
		const layer = writableLayerUse(c);
		out.push({
			containerId: c.id,
			name: c.name,
			podUid: c.podUid,
			podName: c.podName,
			namespace: c.namespace,
			timestampWallMs: wall,
			startedWallMs: ctx.kernel.epochMs + (c.startedMs ?? ctx.nowMs),
			usageCoreNanoSeconds: usage.cpuNanos,
			workingSetBytes: profileOf(c).workingSetBytes,
			writableLayerBytes: layer.bytes,
			writableLayerInodes: layer.inodes,
			logBytes: containerLogUse(c).bytes,
			processes: containerProcesses(c),
		});
	}
	out.sort((a, b) => (a.containerId < b.containerId ? -1 : 1));
	return { ok: true, value: out };
}
