/**
 * The pod garbage collector: every 20 s it force-deletes the pods nobody
 * else will ever finish. That is what clears a dead node:
 * - orphaned pods, bound to a node that no longer exists (after a 40 s
 *   quarantine and a fresh GET of the node, in case the informer lags),
 *   marked Failed with the DisruptionTarget condition `DeletionByPodGC`;
 * - terminating pods on a node that is not Ready and carries the
 *   `node.kubernetes.io/out-of-service` taint (an operator's statement that
 *   the machine is really down: non-graceful node shutdown, GA in v1.28);
 * - terminating pods that were never scheduled;
 * - the oldest terminated pods beyond --terminated-pod-gc-threshold (12500).
 * A pod still running is marked Failed first, then deleted with a grace
 * period of 0, so no kubelet needs to confirm it.
 *
 * Mirrors pkg/controller/podgc/gc_controller.go (gc, gcTerminated,
 * gcTerminating, gcOrphaned with its nodeQueue quarantine,
 * gcUnscheduledTerminating, markFailedAndDeletePodWithCondition).
 */
import type { Node, Pod, Taint } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { TaintKeys } from '../component-helpers/taints.ts';

const POD_GC_CONTROLLER = 'pod-garbage-collector-controller';
/** gcCheckPeriod. */
export const GC_CHECK_PERIOD_MS = 20_000;
/** quarantineTime: how long a missing node may take to show up in the informer before a GET decides. */
const ORPHAN_QUARANTINE_MS = 40_000;
/** --terminated-pod-gc-threshold default (kube-controller-manager options). */
export const TERMINATED_POD_GC_THRESHOLD = 12_500;

interface PodGcState {
	/** nodeQueue: missing node name -> when its quarantine ends (virtual ms). */
	quarantine: Record<string, number>;
}

const isTerminated = (pod: Pod) => !['Pending', 'Running', 'Unknown'].includes(pod.status?.phase ?? 'Pending');
const isReady = (node: Node) => (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const hasTaintKey = (taints: Taint[] | undefined, key: string) => (taints ?? []).some((t) => t.key === key);

/** byEvictionAndCreationTimestamp: evicted pods first, then the oldest, then by name. */
function byEvictionAndAge(a: Pod, b: Pod): number {
	const evicted = (p: Pod) => p.status?.phase === 'Failed' && p.status?.reason === 'Evicted';
	if (evicted(a) !== evicted(b)) return evicted(a) ? -1 : 1;
	const ta = a.metadata.creationTimestamp ?? '';
	const tb = b.metadata.creationTimestamp ?? '';
	if (ta !== tb) return ta < tb ? -1 : 1;
	return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
}

export class PodGcController extends ControllerBase<PodGcState> {
	readonly name = POD_GC_CONTROLLER;
	readonly sub = 'podgc';
	readonly resources = ['pods', 'nodes'] as const;

	constructor(
		host: ConstructorParameters<typeof ControllerBase>[0],
		private readonly terminatedPodThreshold = TERMINATED_POD_GC_THRESHOLD,
	) {
		super(host);
	}

	freshState(): PodGcState {
		return { quarantine: {} };
	}

	/** Everything happens in the periodic pass; there is no work queue. */
	sync(): SyncError {
		return undefined;
	}

	override onLeading(): void {
		// wait.UntilWithContext runs the first pass at once.
		this.host.timer(this.sub, 'gc', 0, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer !== 'gc') return;
		this.gc();
		this.host.timer(this.sub, 'gc', GC_CHECK_PERIOD_MS, undefined, true);
	}

	private gc(): void {
		const pods = this.host.informer('pods').list() as Pod[];
		const nodes = new Map((this.host.informer('nodes').list() as Node[]).map((n) => [n.metadata.name ?? '', n]));
		if (this.terminatedPodThreshold > 0) this.gcTerminated(pods);
		this.gcTerminating(pods, nodes);
		this.gcOrphaned(pods, nodes);
		this.gcUnscheduledTerminating(pods);
	}

	private gcTerminated(pods: Pod[]): void {
		const terminated = pods.filter(isTerminated);
		const excess = terminated.length - this.terminatedPodThreshold;
		if (excess <= 0) return;
		this.trace('gc', undefined, `garbage collecting ${excess} terminated pods`);
		for (const pod of [...terminated].sort(byEvictionAndAge).slice(0, excess)) this.markFailedAndDelete(pod);
	}

	private gcTerminating(pods: Pod[], nodes: Map<string, Node>): void {
		for (const pod of pods) {
			if (!pod.metadata.deletionTimestamp) continue;
			const node = nodes.get(pod.spec.nodeName ?? '');
			if (!node || isReady(node) || !hasTaintKey(node.spec?.taints, TaintKeys.OutOfService)) continue;
			this.trace('gc', `pods/${keyOf(pod)}`, `pod ${keyOf(pod)} is terminating on node ${node.metadata.name}, which is not ready and out of service; force deleting it`);
			this.markFailedAndDelete(pod);
		}
	}

	private gcOrphaned(pods: Pod[], nodes: Map<string, Node>): void {
		const now = this.host.clock.nowMs();
		const quarantine = this.state.quarantine;
		// Newly missing nodes wait out the quarantine; nodes that came back leave it.
		for (const pod of pods) {
			const nodeName = pod.spec.nodeName ?? '';
			if (nodeName && !nodes.has(nodeName) && quarantine[nodeName] === undefined) quarantine[nodeName] = now + ORPHAN_QUARANTINE_MS;
		}
		const deleted = new Set<string>();
		for (const [nodeName, until] of Object.entries(quarantine)) {
			if (nodes.has(nodeName)) {
				delete quarantine[nodeName];
				continue;
			}
			if (until > now) continue;
			delete quarantine[nodeName];
			// discoverDeletedNodes: the informer may lag; only a NotFound from the API server proves it.
			const got = this.host.client.get(R.nodes, undefined, nodeName);
			if (!got.ok && got.code === 404) deleted.add(nodeName);
		}
		for (const pod of pods) {
			if (!deleted.has(pod.spec.nodeName ?? '')) continue;
			this.trace('gc', `pods/${keyOf(pod)}`, `found orphaned pod ${keyOf(pod)} assigned to node ${pod.spec.nodeName}, which no longer exists; deleting it`);
			this.markFailedAndDelete(pod, { type: 'DisruptionTarget', status: 'True', reason: 'DeletionByPodGC', message: 'PodGC: node no longer exists' });
		}
	}

	private gcUnscheduledTerminating(pods: Pod[]): void {
		for (const pod of pods) {
			if (!pod.metadata.deletionTimestamp || pod.spec.nodeName) continue;
			this.trace('gc', `pods/${keyOf(pod)}`, `found unscheduled terminating pod ${keyOf(pod)}; deleting it`);
			this.markFailedAndDelete(pod);
		}
	}

	/** markFailedAndDeletePodWithCondition: phase Failed (with the condition), then a delete with grace period 0. */
	private markFailedAndDelete(pod: Pod, condition?: { type: string; status: string; reason: string; message: string }): void {
		const namespace = pod.metadata.namespace ?? 'default';
		const name = pod.metadata.name ?? '';
		const phase = pod.status?.phase;
		if (phase !== 'Succeeded' && phase !== 'Failed') {
			const status: Record<string, unknown> = { phase: 'Failed' };
			if (condition) status.conditions = [{ ...condition, lastProbeTime: null, lastTransitionTime: this.nowRfc3339() }];
			const patched = this.host.client.patch(R.pods, namespace, name, { status }, 'application/strategic-merge-patch+json', 'status');
			if (!patched.ok) return;
		}
		this.host.client.delete(R.pods, namespace, name, { gracePeriodSeconds: 0 });
	}
}
