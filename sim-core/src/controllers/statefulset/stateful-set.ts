/**
 * The StatefulSet controller: Pods with stable names, ordinals and network
 * identities (`web-0`, `web-1`, ... each with hostname `web-N` and
 * subdomain `serviceName`, so `web-0.nginx.default.svc.cluster.local`
 * resolves through a headless Service), created in order and removed in
 * reverse order, updated from the highest ordinal down, with every template
 * recorded as a ControllerRevision. The loop itself is in
 * ./stateful-set-control.ts.
 *
 * Event handlers only enqueue: a StatefulSet's own changes, and any change
 * of a Pod it controls (or, for an orphan, of every StatefulSet whose
 * selector matches it). A sync claims the Pods whose name says they belong
 * to the set (`<set>-<ordinal>`) and whose labels match its selector, adopts
 * orphaned revisions, then runs the loop. There are no expectations, unlike
 * the ReplicaSet controller: a Pod's fixed name makes a second create fail
 * with AlreadyExists instead of making a duplicate.
 *
 * Mirrors pkg/controller/statefulset/stateful_set.go.
 */
import type { ControllerRevision, KubeObject, Pod, StatefulSet } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { ControllerBase, ownersSelecting, resolveControllerRef, type SyncError } from '../controller-context.ts';
import { canonicalJson } from '../hash.ts';
import { compileSelector, controllerOf, isPodReady, newControllerRef } from '../pod-util.ts';
import { claimObjects } from '../ref-manager.ts';
import { StatefulPodControl } from './stateful-pod-control.ts';
import { StatefulSetControl } from './stateful-set-control.ts';
import { isMemberOf, specOf } from './stateful-set-utils.ts';

const STATEFULSET_CONTROLLER = 'statefulset-controller';

export class StatefulSetController extends ControllerBase<Record<string, never>> {
	readonly name = STATEFULSET_CONTROLLER;
	readonly sub = 'statefulset';
	readonly resources = ['statefulsets', 'pods', 'controllerrevisions'] as const;
	/** --concurrent-statefulset-syncs default 5 (pkg/controller/statefulset/config/v1alpha1/defaults.go). */
	override readonly workers = 5;

	private readonly control = new StatefulSetControl({
		client: () => this.host.client,
		podControl: new StatefulPodControl(
			() => this.host.client,
			() => this.host.recorder(STATEFULSET_CONTROLLER),
		),
		nowWallMs: () => this.host.clock.wallMs(),
		trace: (action, object, msg) => this.trace(action, object, msg),
	});

	freshState(): Record<string, never> {
		return {};
	}

	// ---- event handlers --------------------------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'statefulsets') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.addPod(obj as Pod);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'statefulsets') this.enqueue(keyOf(newObj));
		else if (resource === 'pods') this.updatePod(oldObj as Pod, newObj as Pod);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'statefulsets') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.deletePod(obj as Pod);
	}

	private addPod(pod: Pod): void {
		if (pod.metadata.deletionTimestamp) {
			this.deletePod(pod);
			return;
		}
		const ref = controllerOf(pod);
		if (ref) {
			const set = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (set) this.enqueue(keyOf(set));
			return;
		}
		for (const set of this.setsSelecting(pod)) this.enqueue(keyOf(set));
	}

	private updatePod(oldPod: Pod, pod: Pod): void {
		if (oldPod.metadata.resourceVersion === pod.metadata.resourceVersion) return;
		const labelChanged = canonicalJson(oldPod.metadata.labels ?? {}) !== canonicalJson(pod.metadata.labels ?? {});
		const ref = controllerOf(pod);
		const oldRef = controllerOf(oldPod);
		const refChanged = canonicalJson(ref ?? null) !== canonicalJson(oldRef ?? null);
		if (refChanged && oldRef) {
			const old = this.resolveControllerRef(oldPod.metadata.namespace, oldRef);
			if (old) this.enqueue(keyOf(old));
		}
		if (ref) {
			const set = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (!set) return;
			this.enqueue(keyOf(set));
			const minReady = specOf(set).minReadySeconds;
			// The Pod becomes available minReadySeconds after it became ready: look again then (plus a second).
			if (!isPodReady(oldPod) && isPodReady(pod) && minReady > 0) this.host.enqueueAfter(this.sub, keyOf(set), minReady * 1000 + 1000);
			return;
		}
		if (labelChanged || refChanged) for (const set of this.setsSelecting(pod)) this.enqueue(keyOf(set));
	}

	private deletePod(pod: Pod): void {
		const ref = controllerOf(pod);
		if (!ref) return;
		const set = this.resolveControllerRef(pod.metadata.namespace, ref);
		if (set) this.enqueue(keyOf(set));
	}

	private resolveControllerRef(namespace: string | undefined, ref: { kind: string; name: string; uid: string }): StatefulSet | undefined {
		return resolveControllerRef<StatefulSet>(this.host, 'statefulsets', 'StatefulSet', namespace, ref);
	}

	/** getStatefulSetsForPod: the namespace's StatefulSets whose selector matches the Pod. */
	private setsSelecting(pod: Pod): StatefulSet[] {
		return ownersSelecting<StatefulSet>(this.host, 'statefulsets', pod);
	}

	// ---- sync ------------------------------------------------------------------------

	sync(key: string): SyncError {
		const set = this.host.informer('statefulsets').get(key) as StatefulSet | undefined;
		if (!set) {
			this.trace('reconcile', `statefulsets/${key}`, `StatefulSet ${key} has been deleted`);
			return undefined;
		}
		const selector = compileSelector(set.spec.selector);
		// An invalid selector is not retried: the set must be fixed first.
		if (!selector.ok) return undefined;
		this.trace('reconcile', `statefulsets/${key}`, `syncing StatefulSet ${key}`);
		const revisions = this.revisionsOf(set, selector.matches);
		if ('error' in revisions) return revisions.error;
		const pods = this.podsFor(set, selector.matches);
		if ('error' in pods) return pods.error;
		const result = this.control.updateStatefulSet(set, pods.pods, revisions.revisions);
		if (result.error) return result.error;
		const spec = specOf(set);
		if (spec.minReadySeconds > 0 && result.status && result.status.availableReplicas !== spec.replicas) this.host.enqueueAfter(this.sub, key, spec.minReadySeconds * 1000);
		return undefined;
	}

	/**
	 * ListRevisions + adoptOrphanRevisions: the revisions whose labels match
	 * the selector and that are this set's or nobody's; orphans are adopted
	 * (after a fresh read shows the set is still there).
	 */
	private revisionsOf(set: StatefulSet, matches: (labels: Record<string, string> | undefined) => boolean): { revisions: ControllerRevision[] } | { error: string } {
		const revisions = this.host
			.listInNamespace<ControllerRevision>('controllerrevisions', set.metadata.namespace)
			.filter((r) => matches(r.metadata.labels) && (!controllerOf(r) || controllerOf(r)?.uid === set.metadata.uid));
		const orphans = revisions.filter((r) => !controllerOf(r));
		if (orphans.length === 0) return { revisions };
		const fresh = this.host.client.get<StatefulSet>(R.statefulsets, set.metadata.namespace, set.metadata.name ?? '');
		if (!fresh.ok) return { error: `can't adopt ControllerRevisions: ${fresh.message}` };
		if (fresh.object.metadata.uid !== set.metadata.uid) return { error: `can't adopt ControllerRevisions: original ${set.metadata.namespace}/${set.metadata.name} is gone: got uid ${fresh.object.metadata.uid}, wanted ${set.metadata.uid}` };
		if (fresh.object.metadata.deletionTimestamp) return { error: `can't adopt ControllerRevisions: ${set.metadata.namespace}/${set.metadata.name} has just been deleted at ${fresh.object.metadata.deletionTimestamp}` };
		const out: ControllerRevision[] = [];
		for (const revision of revisions) {
			if (controllerOf(revision)) {
				out.push(revision);
				continue;
			}
			const adopted = this.host.client.patch<ControllerRevision>(R.controllerrevisions, revision.metadata.namespace, revision.metadata.name ?? '', {
				metadata: { ownerReferences: [newControllerRef(set)], uid: revision.metadata.uid },
			});
			if (!adopted.ok) return { error: adopted.message };
			out.push(adopted.object);
		}
		return { revisions: out };
	}

	/** getPodsForStatefulSet: claim the Pods named `<set>-<ordinal>` that match the selector; release owned ones that no longer do. */
	private podsFor(set: StatefulSet, matches: (labels: Record<string, string> | undefined) => boolean): { pods: Pod[] } | { error: string } {
		const pods = this.host.listInNamespace<Pod>('pods', set.metadata.namespace);
		const claimed = claimObjects({ client: this.host.client, owner: set, ownerResource: R.statefulsets, childResource: R.pods, matches: (p) => matches(p.metadata.labels) && isMemberOf(set, p as Pod) }, pods);
		if (claimed.errors.length) return { error: claimed.errors.join('; ') };
		return { pods: claimed.claimed as Pod[] };
	}
}
