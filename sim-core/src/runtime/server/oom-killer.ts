/**
 * The node kernel's OOM killer. When the machine's memory is used up (its
 * own daemons and every running container together need more than it
 * has), the kernel kills a process at once, before the kubelet's eviction
 * manager, which looks only every 10 s, can act. It picks the one with the
 * highest badness: its share of the memory in thousandths plus its
 * oom_score_adj, which the kubelet set from the Pod's QoS class (BestEffort
 * 1000, Burstable by its request, Guaranteed -997), so a BestEffort
 * container goes first and a Guaranteed one last; it kills again while
 * memory is still short. The container ends with exit code 137 and reason
 * OOMKilled, as it does at its own cgroup limit, and the kubelet restarts
 * it under its restart policy.
 *
 * Memory is taken when a container starts: that is when the kernel looks
 * here.
 *
 * Mirrors torvalds/linux mm/oom_kill.c (oom_badness, select_bad_process),
 * containerd/containerd internal/cri/server/events.go (the TaskOOM event).
 */
import type { ContainerRecord } from '../host-state.ts';
import { profileOf } from '../resource-usage.ts';
import type { CriService } from './cri-service.ts';
import { catchUp, recordExit } from './events.ts';

/** oom_badness: resident memory plus oom_score_adj in thousandths of the machine. */
function badness(c: ContainerRecord, capacityBytes: number): number {
	return profileOf(c).workingSetBytes + ((c.ctx.oomScoreAdj ?? 0) * capacityBytes) / 1000;
}

/** Kills containers, worst first, until what runs fits in the machine's memory. */
export function killIfOutOfMemory(ctx: CriService): void {
	const memory = ctx.deps.memory;
	if (!memory) return;
	const running = (): ContainerRecord[] => Object.values(ctx.host.containers).filter((c) => c.state === 'CONTAINER_RUNNING' && c.program && !c.program.exited);
	for (const c of running()) catchUp(ctx, c);
	for (;;) {
		const candidates = running();
		const used = candidates.reduce((sum, c) => sum + profileOf(c).workingSetBytes, memory.systemBytes);
		if (used <= memory.capacityBytes) return;
		// Ties go to the container started first (the lower PID, as the kernel walks the tasks).
		const victim = candidates.filter((c) => (c.ctx.oomScoreAdj ?? 0) > -1000).sort((a, b) => badness(b, memory.capacityBytes) - badness(a, memory.capacityBytes) || a.createdMs - b.createdMs)[0];
		if (!victim || !victim.program) return;
		const rssKb = Math.round(profileOf(victim).workingSetBytes / 1024);
		// containerd hears of it from the cgroup's OOM event (the kernel's own line goes to its ring buffer, not modelled).
		ctx.journal('info', `TaskOOM event container_id:"${victim.id}"`);
		ctx.emit({ action: 'oom-kill', object: `pods/${victim.namespace}/${victim.podName}`, msg: `the kernel's OOM killer killed container ${victim.name} (${rssKb} kB, oom_score_adj ${victim.ctx.oomScoreAdj ?? 0}): the machine ran out of memory` });
		victim.program.exited = { code: 137, atMs: ctx.nowMs, reason: 'OOMKilled' };
		recordExit(ctx, victim);
	}
}
