/**
 * The taint-eviction controller: deletes pods running on a node with a
 * NoExecute taint they do not tolerate, at once, or when the shortest
 * `tolerationSeconds` among the tolerations they rely on runs out (300 s for
 * the not-ready and unreachable tolerations the DefaultTolerationSeconds
 * admission plugin adds to every pod). A toleration without
 * tolerationSeconds (DaemonSet pods) means never. Removing the taint in time
 * cancels the eviction. Before deleting, it marks the pod with the
 * DisruptionTarget condition. The controller was split out of the node
 * lifecycle controller in v1.29.
 *
 * Mirrors pkg/controller/tainteviction/taint_eviction.go,
 * pkg/controller/tainteviction/timed_workers.go.
 */
import type { KubeObject, Node, Pod, Taint } from '../api/types.ts';
import { R } from '../client/client.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { keyFor, splitKey } from './pod-util.ts';
import { matchingTolerations } from '../component-helpers/taints.ts';

const TAINT_EVICTION_CONTROLLER = 'taint-eviction-controller';
/** retries: deletePodHandler tries a deletion up to 5 times. */
const DELETE_RETRIES = 5;

/** A scheduled deletion (TimedWorker): when it was first planned and when it fires, wall ms. */
interface TimedWork {
	createdAtMs: number;
	fireAtMs: number;
}

interface TaintEvictionState {
	/** taintedNodes: node -> its NoExecute taints. */
	taintedNodes: Record<string, Taint[]>;
	/** taintEvictionQueue: `namespace/name` -> scheduled deletion. */
	work: Record<string, TimedWork>;
}

function noExecuteTaints(taints: Taint[] | undefined): Taint[] {
	return (taints ?? []).filter((t) => t.effect === 'NoExecute');
}

/**
 * getMinTolerationTime: the shortest tolerationSeconds among the tolerations
 * used, in ms; 0 when none are used; -1 (forever) when none sets a time.
 */
export function minTolerationTimeMs(used: Array<{ tolerationSeconds?: number }>): number {
	if (used.length === 0) return 0;
	let min = Number.POSITIVE_INFINITY;
	for (const t of used) {
		if (t.tolerationSeconds === undefined || t.tolerationSeconds === null) continue;
		if (t.tolerationSeconds <= 0) return 0;
		min = Math.min(min, t.tolerationSeconds);
	}
	return min === Number.POSITIVE_INFINITY ? -1 : min * 1000;
}

export class TaintEvictionController extends ControllerBase<TaintEvictionState> {
	readonly name = TAINT_EVICTION_CONTROLLER;
	readonly sub = 'taint-eviction';
	readonly resources = ['nodes', 'pods'] as const;
	/** UpdateWorkerSize: 8 workers for node and pod updates (pkg/controller/tainteviction/taint_eviction.go). */
	override readonly workers = 8;

	freshState(): TaintEvictionState {
		return { taintedNodes: {}, work: {} };
	}

	// ---- handlers: PodUpdated / NodeUpdated -----------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'nodes') this.enqueue(`node/${obj.metadata.name}`);
		else if (resource === 'pods') this.podUpdated(undefined, obj as Pod);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'nodes') {
			if (JSON.stringify(noExecuteTaints((oldObj as Node).spec?.taints)) === JSON.stringify(noExecuteTaints((newObj as Node).spec?.taints))) return;
			this.enqueue(`node/${newObj.metadata.name}`);
		} else if (resource === 'pods') this.podUpdated(oldObj as Pod, newObj as Pod);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'nodes') this.enqueue(`node/${obj.metadata.name}`);
		else if (resource === 'pods') this.podUpdated(obj as Pod, undefined);
	}

	private podUpdated(oldPod: Pod | undefined, pod: Pod | undefined): void {
		if (oldPod && pod && JSON.stringify(oldPod.spec.tolerations ?? []) === JSON.stringify(pod.spec.tolerations ?? []) && oldPod.spec.nodeName === pod.spec.nodeName) return;
		const p = (pod ?? oldPod)!;
		this.enqueue(`pod/${p.spec.nodeName ?? ''}/${keyFor(p.metadata.namespace, p.metadata.name ?? '')}`);
	}

	// ---- workers ------------------------------------------------------------------------------

	sync(key: string): SyncError {
		if (key.startsWith('node/')) this.handleNodeUpdate(key.slice('node/'.length));
		else if (key.startsWith('pod/')) {
			const rest = key.slice('pod/'.length);
			const slash = rest.indexOf('/');
			this.handlePodUpdate(rest.slice(0, slash), rest.slice(slash + 1));
		}
		return undefined;
	}

	private handlePodUpdate(nodeName: string, podKey: string): void {
		const pod = this.host.informer('pods').get(podKey) as Pod | undefined;
		if (!pod) {
			this.cancelWorkWithEvent(podKey);
			return;
		}
		// Keyed by node: another item handles the pod's current node.
		if ((pod.spec.nodeName ?? '') !== nodeName || !nodeName) return;
		const taints = this.state.taintedNodes[nodeName];
		if (!taints) return;
		this.processPodOnNode(podKey, nodeName, pod, taints, this.wallMs);
	}

	private handleNodeUpdate(nodeName: string): void {
		const node = this.host.informer('nodes').get(nodeName) as Node | undefined;
		if (!node) {
			delete this.state.taintedNodes[nodeName];
			return;
		}
		const taints = noExecuteTaints(node.spec?.taints);
		if (taints.length === 0) delete this.state.taintedNodes[nodeName];
		else this.state.taintedNodes[nodeName] = taints;
		const pods = (this.host.informer('pods').list() as Pod[]).filter((p) => p.spec.nodeName === nodeName);
		if (pods.length === 0) return;
		if (taints.length === 0) {
			for (const pod of pods) this.cancelWorkWithEvent(keyFor(pod.metadata.namespace, pod.metadata.name ?? ''));
			return;
		}
		this.trace('reconcile', `nodes/${nodeName}`, `node ${nodeName} has NoExecute taints ${taints.map((t) => t.key).join(', ')}; checking ${pods.length} pod${pods.length === 1 ? '' : 's'}`);
		const now = this.wallMs;
		for (const pod of pods) this.processPodOnNode(keyFor(pod.metadata.namespace, pod.metadata.name ?? ''), nodeName, pod, taints, now);
	}

	/** processPodOnNode: evict now, later, or never. */
	private processPodOnNode(podKey: string, nodeName: string, pod: Pod, taints: Taint[], nowMs: number): void {
		const { allTolerated, used } = matchingTolerations(taints, pod.spec.tolerations ?? []);
		if (!allTolerated) {
			this.trace('evict', `pods/${podKey}`, `pod ${podKey} does not tolerate the NoExecute taints of node ${nodeName}; deleting it now`);
			this.cancelWorkWithEvent(podKey);
			this.addWork(podKey, nowMs, nowMs);
			return;
		}
		const minMs = minTolerationTimeMs(used);
		if (minMs < 0) {
			this.cancelWorkWithEvent(podKey);
			return;
		}
		let startMs = nowMs;
		const triggerMs = startMs + minMs;
		const scheduled = this.state.work[podKey];
		if (scheduled) {
			startMs = scheduled.createdAtMs;
			if (startMs + minMs < triggerMs) return;
			this.cancelWorkWithEvent(podKey);
		}
		this.trace('evict', `pods/${podKey}`, `pod ${podKey} tolerates the taints of node ${nodeName} for ${minMs / 1000}s; deleting it then`);
		this.addWork(podKey, startMs, startMs + minMs);
	}

	/** TimedWorkerQueue.AddWork: ignored if the pod already has scheduled work. */
	private addWork(podKey: string, createdAtMs: number, fireAtMs: number): void {
		if (this.state.work[podKey]) return;
		this.state.work[podKey] = { createdAtMs, fireAtMs };
		this.host.timer(this.sub, 'evict', Math.max(0, fireAtMs - this.wallMs), { podKey, fireAtMs });
	}

	private cancelWork(podKey: string): boolean {
		if (!this.state.work[podKey]) return false;
		delete this.state.work[podKey];
		return true;
	}

	private cancelWorkWithEvent(podKey: string): void {
		if (!this.cancelWork(podKey)) return;
		const { namespace, name } = splitKey(podKey);
		this.host.recorder(TAINT_EVICTION_CONTROLLER).record({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, 'Normal', 'TaintManagerEviction', `Cancelling deletion of Pod ${podKey}`);
	}

	override onTimer(timer: string, data: unknown): void {
		if (timer !== 'evict') return;
		const { podKey, fireAtMs } = data as { podKey: string; fireAtMs: number };
		const work = this.state.work[podKey];
		if (!work || work.fireAtMs !== fireAtMs) return;
		delete this.state.work[podKey];
		this.deletePod(podKey);
	}

	/** deletePodHandler: event, DisruptionTarget condition, delete (retried). */
	private deletePod(podKey: string): void {
		const { namespace, name } = splitKey(podKey);
		this.trace('evict', `pods/${podKey}`, `deleting pod ${podKey}`);
		this.host.recorder(TAINT_EVICTION_CONTROLLER).record({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace } }, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${podKey}`);
		for (let i = 0; i < DELETE_RETRIES; i++) {
			if (this.addConditionAndDeletePod(namespace, name)) return;
		}
	}

	/** addConditionAndDeletePod: true when done (or the pod is gone). */
	private addConditionAndDeletePod(namespace: string, name: string): boolean {
		const got = this.host.client.get<Pod>(R.pods, namespace, name);
		if (!got.ok) return got.code === 404;
		const existing = got.object.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
		if (!existing || existing.status !== 'True' || existing.reason !== 'DeletionByTaintManager') {
			const condition = { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: this.nowRfc3339(), reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' };
			const patched = this.host.client.patch(R.pods, namespace, name, { status: { conditions: [condition] } }, 'application/strategic-merge-patch+json', 'status');
			if (!patched.ok) return patched.code === 404;
		}
		const deleted = this.host.client.delete(R.pods, namespace, name);
		return deleted.ok || deleted.code === 404;
	}
}
