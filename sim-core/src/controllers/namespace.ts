/**
 * The namespace controller: when a Namespace has a deletionTimestamp, it
 * deletes everything in it, resource by resource (deletecollection, or one
 * by one), waits for what takes time to go (pods for their grace period,
 * objects held by finalizers), reports progress in the namespace's
 * conditions, and finally removes its `kubernetes` entry from
 * `spec.finalizers` through the `finalize` subresource, which lets the API
 * server remove the namespace.
 *
 * Differences: the resource list comes from the simulation's resource
 * table instead of discovery (events.k8s.io Events, the same objects as v1
 * Events, are not deleted twice); and the finalize call is made even when
 * `spec.finalizers` was already empty (upstream returns early because its
 * API server would have removed such a namespace at once).
 *
 * Mirrors pkg/controller/namespace/namespace_controller.go,
 * pkg/controller/namespace/deletion/namespaced_resources_deleter.go,
 * pkg/controller/namespace/deletion/status_condition_utils.go.
 */
import type { KubeObject, Namespace, Pod } from '../api/types.ts';
import { RESOURCES, type ResourceInfo } from '../api/resources.ts';
import { R, refOf } from '../client/client.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { timeMs } from './pod-util.ts';
import { deepCopy } from '../golang/json.ts';

/** v1.FinalizerKubernetes: the namespace controller's finalizer token. */
export const FINALIZER_KUBERNETES = 'kubernetes';
/** namespaceDeletionGracePeriod: a deleted namespace is looked at 5s later, so late creations are seen (namespace_controller.go). */
const NAMESPACE_DELETION_GRACE_PERIOD_MS = 5_000;
/** --namespace-sync-period default 5m: terminating namespaces are looked at again at least this often. */
const NAMESPACE_SYNC_PERIOD_MS = 5 * 60_000;
/** finalizerEstimateSeconds: the wait assumed for objects held by finalizers (namespaced_resources_deleter.go). */
const FINALIZER_ESTIMATE_SECONDS = 15;

type NamespaceCondition = { type: string; status: 'True' | 'False' | 'Unknown'; lastTransitionTime?: string; reason?: string; message?: string };

/** The condition types the deleter maintains, in order, with their healthy reason and message (status_condition_utils.go). */
const CONDITION_TYPES = [
	{ type: 'NamespaceDeletionDiscoveryFailure', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
	{ type: 'NamespaceDeletionGroupVersionParsingFailure', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
	{ type: 'NamespaceDeletionContentFailure', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
	{ type: 'NamespaceContentRemaining', reason: 'ContentRemoved', message: 'All content successfully removed' },
	{ type: 'NamespaceFinalizersRemaining', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
] as const;

/** What deleting one resource left behind. */
interface ResourceRemaining {
	estimateSeconds: number;
	remaining: number;
	finalizers: Record<string, number>;
	error?: string;
}

/**
 * The failing conditions for what remains (ProcessContentTotals): e.g.
 * `Some resources are remaining: pods. has 2 resource instances` and
 * `Some content in the namespace has finalizers remaining: foregroundDeletion in 1 resource instances`.
 */
export function remainingConditions(remaining: Record<string, number>, finalizers: Record<string, number>, errors: string[], now: string): NamespaceCondition[] {
	const out: NamespaceCondition[] = [];
	if (errors.length) {
		const msgs = [...errors].sort();
		out.push({ type: 'NamespaceDeletionContentFailure', status: 'True', lastTransitionTime: now, reason: 'ContentDeletionFailed', message: `Failed to delete all resource types, ${errors.length} remaining: ${msgs.join(', ')}` });
	}
	const resources = Object.entries(remaining)
		.filter(([, n]) => n > 0)
		.map(([gr, n]) => `${gr} has ${n} resource instances`)
		.sort();
	if (resources.length) out.push({ type: 'NamespaceContentRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeResourcesRemain', message: `Some resources are remaining: ${resources.join(', ')}` });
	const byFinalizer = Object.entries(finalizers)
		.filter(([, n]) => n > 0)
		.map(([f, n]) => `${f} in ${n} resource instances`)
		.sort();
	if (byFinalizer.length) out.push({ type: 'NamespaceFinalizersRemaining', status: 'True', lastTransitionTime: now, reason: 'SomeFinalizersRemain', message: `Some content in the namespace has finalizers remaining: ${byFinalizer.join(', ')}` });
	return out;
}

/** updateConditions: each maintained type set to its failing value or its healthy one; true if anything changed. */
export function updateNamespaceConditions(conditions: NamespaceCondition[], failing: NamespaceCondition[], now: string): boolean {
	let changed = false;
	for (const kind of CONDITION_TYPES) {
		const next = failing.find((c) => c.type === kind.type) ?? { type: kind.type, status: 'False' as const, lastTransitionTime: now, reason: kind.reason, message: kind.message };
		const old = conditions.find((c) => c.type === kind.type);
		if (!old) {
			conditions.push(next);
			changed = true;
		} else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
			if (old.status !== next.status) old.lastTransitionTime = now;
			old.status = next.status;
			old.reason = next.reason;
			old.message = next.message;
			changed = true;
		}
	}
	return changed;
}

/** The namespaced resources that can be deleted, in resource-table order, without duplicate storage. */
function deletableNamespacedResources(): ResourceInfo[] {
	return RESOURCES.filter((r) => r.namespaced && r.verbs.includes('delete') && r.group !== 'events.k8s.io');
}

export class NamespaceController extends ControllerBase<Record<string, never>> {
	readonly name = 'namespace-controller';
	readonly sub = 'namespace';
	readonly resources = ['namespaces'] as const;
	/** --concurrent-namespace-syncs default 10 (pkg/controller/namespace/config/v1alpha1/defaults.go). */
	override readonly workers = 10;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(_resource: string, obj: KubeObject): void {
		this.enqueueNamespace(obj);
	}

	override onUpdate(_resource: string, _old: KubeObject, obj: KubeObject): void {
		this.enqueueNamespace(obj);
	}

	override onLeading(): void {
		this.host.timer(this.sub, 'resync', NAMESPACE_SYNC_PERIOD_MS, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer !== 'resync') return;
		for (const ns of this.host.informer('namespaces').list()) this.enqueueNamespace(ns);
		this.host.timer(this.sub, 'resync', NAMESPACE_SYNC_PERIOD_MS, undefined, true);
	}

	/** enqueueNamespace: only namespaces being deleted, after the deletion grace period. */
	private enqueueNamespace(ns: KubeObject): void {
		if (!ns.metadata.deletionTimestamp) return;
		this.host.enqueueAfter(this.sub, ns.metadata.name ?? '', NAMESPACE_DELETION_GRACE_PERIOD_MS);
	}

	sync(key: string): SyncError {
		if (!this.host.informer('namespaces').get(key)) return undefined;
		this.trace('reconcile', `namespaces/${key}`, `syncing namespace ${key}`);
		const got = this.host.client.get<Namespace>(R.namespaces, undefined, key);
		if (!got.ok) return got.code === 404 ? undefined : got.message;
		let ns = got.object;
		if (!ns.metadata.deletionTimestamp) return undefined;
		if (ns.status?.phase !== 'Terminating') {
			const terminating = deepCopy(ns);
			terminating.status = { ...(terminating.status ?? {}), phase: 'Terminating' };
			const written = this.host.client.updateStatus<Namespace>(R.namespaces, terminating);
			if (!written.ok) return written.code === 404 ? undefined : written.message;
			ns = written.object;
		}
		const { estimateSeconds, error } = this.deleteAllContent(ns);
		if (error) return error;
		if (estimateSeconds > 0) {
			// ResourcesRemainingError: look again after half the estimate, plus a second.
			const waitSeconds = Math.floor(estimateSeconds / 2) + 1;
			this.trace('reconcile', `namespaces/${key}`, `content remaining in namespace ${key}; waiting ${waitSeconds}s`);
			this.host.enqueueAfter(this.sub, key, waitSeconds * 1000, true);
			return undefined;
		}
		// Everything is gone: drop our finalizer token.
		const finalize = deepCopy(ns);
		finalize.spec = { ...(finalize.spec ?? {}), finalizers: [...new Set((ns.spec?.finalizers ?? []).filter((f) => f !== FINALIZER_KUBERNETES))].sort() };
		this.trace('finalize', `namespaces/${key}`, `namespace ${key} is empty; removing the ${FINALIZER_KUBERNETES} finalizer`);
		const finalized = this.host.client.update(R.namespaces, finalize, 'finalize');
		return finalized.ok || finalized.code === 404 ? undefined : finalized.message;
	}

	/** deleteAllContent: the longest estimate over all resources, and the conditions written. */
	private deleteAllContent(ns: Namespace): { estimateSeconds: number; error?: string } {
		const namespace = ns.metadata.name ?? '';
		const deletedAtMs = timeMs(ns.metadata.deletionTimestamp);
		let estimate = 0;
		const errors: string[] = [];
		const remaining: Record<string, number> = {};
		const finalizers: Record<string, number> = {};
		for (const info of deletableNamespacedResources()) {
			const result = this.deleteResource(info, namespace, deletedAtMs);
			if (result.error) errors.push(result.error);
			estimate = Math.max(estimate, result.estimateSeconds);
			if (result.remaining > 0) {
				remaining[`${info.resource}.${info.group}`] = result.remaining;
				for (const [f, n] of Object.entries(result.finalizers)) finalizers[f] = (finalizers[f] ?? 0) + n;
			}
		}
		const status = deepCopy(ns.status ?? {});
		status.conditions = (status.conditions ?? []) as NamespaceCondition[];
		const now = this.nowRfc3339();
		if (updateNamespaceConditions(status.conditions as NamespaceCondition[], remainingConditions(remaining, finalizers, errors, now), now)) {
			const written = this.host.client.updateStatus(R.namespaces, { ...deepCopy(ns), status });
			if (!written.ok) this.trace('error', `namespaces/${namespace}`, `couldn't update status condition for namespace "${namespace}": ${written.message}`);
		}
		return { estimateSeconds: estimate, error: errors.length ? errors.join('; ') : undefined };
	}

	/** deleteAllContentForGroupVersionResource. */
	private deleteResource(info: ResourceInfo, namespace: string, deletedAtMs: number): ResourceRemaining {
		const ref = refOf(info);
		let estimate = info.group === '' && info.resource === 'pods' ? this.estimateGracefulTerminationForPods(namespace) : 0;
		// The estimate only counts while the namespace has been deleting for less than it.
		if (this.wallMs - deletedAtMs >= estimate * 1000) estimate = 0;
		if (info.verbs.includes('deletecollection')) {
			const deleted = this.host.client.raw({ verb: 'deletecollection', ...ref, namespace, deleteOptions: { propagationPolicy: 'Background' } });
			const code = 'code' in deleted ? deleted.code : 0;
			if (code >= 400 || code === 0) return { estimateSeconds: estimate, remaining: 0, finalizers: {}, error: `failed to delete ${info.resource}: ${code}` };
		} else {
			const listed = this.host.client.list(ref, namespace);
			if (!listed.ok) return { estimateSeconds: estimate, remaining: 0, finalizers: {}, error: listed.message };
			for (const item of listed.object.items) {
				const deleted = this.host.client.delete(ref, namespace, item.metadata.name ?? '', { propagationPolicy: 'Background' });
				if (!deleted.ok && deleted.code !== 404 && deleted.code !== 405) return { estimateSeconds: estimate, remaining: 0, finalizers: {}, error: deleted.message };
			}
		}
		const left = this.host.client.list(ref, namespace);
		if (!left.ok) return { estimateSeconds: estimate, remaining: 0, finalizers: {}, error: left.message };
		const items = left.object.items;
		if (items.length === 0) return { estimateSeconds: 0, remaining: 0, finalizers: {} };
		const finalizers: Record<string, number> = {};
		for (const item of items) for (const f of item.metadata.finalizers ?? []) finalizers[f] = (finalizers[f] ?? 0) + 1;
		if (estimate !== 0) return { estimateSeconds: estimate, remaining: items.length, finalizers };
		if (Object.keys(finalizers).length > 0) return { estimateSeconds: FINALIZER_ESTIMATE_SECONDS, remaining: items.length, finalizers };
		return { estimateSeconds: estimate, remaining: items.length, finalizers, error: `unexpected items still remain in namespace: ${namespace} for gvr: ${info.group}/${info.version}, Resource=${info.resource}` };
	}

	/** estimateGracefulTerminationForPods: the longest terminationGracePeriodSeconds of the unfinished pods. */
	private estimateGracefulTerminationForPods(namespace: string): number {
		const listed = this.host.client.list<Pod>(R.pods, namespace);
		if (!listed.ok) return 0;
		let estimate = 0;
		for (const pod of listed.object.items) {
			const phase = pod.status?.phase;
			if (phase === 'Succeeded' || phase === 'Failed') continue;
			// The API server defaults it to 30 (DefaultTerminationGracePeriodSeconds); read it so when absent.
			const grace = pod.spec?.terminationGracePeriodSeconds ?? 30;
			if (grace > estimate) estimate = grace;
		}
		return estimate;
	}
}
