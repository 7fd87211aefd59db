/**
 * What every controller inside kube-controller-manager gets from its host
 * process, and the shape every controller has. Every controller has the
 * sample-controller loop's shape: event handlers only enqueue keys; a worker
 * pops a key, reconciles from the caches, and either forgets it or requeues
 * it rate-limited.
 *
 * Controllers are plain objects owned by the KubeControllerManager process;
 * their volatile state is a plain-JSON slice of the process state.
 *
 * Mirrors cmd/kube-controller-manager/app/controllermanager.go
 * (ControllerContext: shared informers, clients, event recorders),
 * staging/src/k8s.io/sample-controller/controller.go (the loop).
 */
import type { KubeObject, LabelSelector, Pod } from '../api/types.ts';
import { RESOURCES } from '../api/resources.ts';
import type { ApiClient, ResourceRef } from '../client/client.ts';
import type { EventRecorder } from '../client/events.ts';
import type { Informer } from '../client/informer.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { compileSelector, keyFor } from './pod-util.ts';

/**
 * The resources the controller manager can watch with a shared informer,
 * by plural name: every listable, watchable, deletable resource except
 * Events (which the garbage collector ignores upstream too).
 */
export const WATCHABLE_RESOURCES: Readonly<Record<string, ResourceRef & { namespaced: boolean }>> = Object.freeze(
	Object.fromEntries(
		RESOURCES.filter((r) => r.resource !== 'events' && ['list', 'watch', 'delete'].every((v) => r.verbs.includes(v))).map((r) => [
			r.resource,
			{ group: r.group, version: r.version, resource: r.resource, namespaced: r.namespaced },
		]),
	),
);

/** What a controller may use of its host. Implemented by KubeControllerManager. */
/** The virtual clocks a controller reads. */
interface ControllerClock {
	/** Virtual ms since the cluster started (timers, expectations). */
	nowMs(): number;
	/** Wall-clock-looking epoch ms (timestamps in objects). */
	wallMs(): number;
}

export interface ControllerHost {
	readonly clock: ControllerClock;
	/** The manager's API client (identity system:kube-controller-manager). */
	readonly client: ApiClient;
	/** The shared informer of a resource (one per resource, shared by every controller). */
	informer(resource: string): Informer;
	/** The cached objects of one namespace, in key order (a lister's `.Namespace(ns).List()`, served from a namespace index). */
	listInNamespace<T extends KubeObject>(resource: string, namespace: string | undefined): T[];
	/**
	 * The cached objects of a namespace whose controller reference has this
	 * UID, in key order; the empty UID gives the namespace's orphans
	 * (PodControllerUIDIndex, OrphanPodIndexKeyForNamespace).
	 */
	listControlledBy<T extends KubeObject>(resource: string, namespace: string | undefined, uid: string): T[];
	/** The event recorder of an event source such as 'deployment-controller'. */
	recorder(component: string): EventRecorder;
	/** Adds a key to a controller's work queue, remembering the current origin. */
	enqueue(controller: string, key: string): void;
	/** AddAfter: adds the key later. Background requeues (checks, retries) do not keep settle() busy. */
	enqueueAfter(controller: string, key: string, delayMs: number, background?: boolean): void;
	/** AddRateLimited: adds the key after its per-key exponential back-off. */
	enqueueRateLimited(controller: string, key: string): void;
	/** Schedules a controller timer ('monitor', 'tick'...); periodic timers start a new origin. */
	timer(controller: string, timer: string, delayMs: number, data?: unknown, periodic?: boolean): void;
	/** The controller's own volatile state (plain JSON). */
	controllerState(controller: string): unknown;
	/** Writes a trace line as kube-controller-manager, sub-loop `controller`. */
	trace(controller: string, action: string, object: string | undefined, msg: string): void;
}

/** The outcome of one sync: undefined when done, an error message to requeue rate-limited. */
export type SyncError = string | undefined;

/** One controller of kube-controller-manager. */
export abstract class ControllerBase<S> {
	/** The upstream controller name `--controllers` knows, e.g. 'deployment-controller'. */
	abstract readonly name: string;
	/** The short alias, used as the trace sub-loop: 'deployment', 'replicaset', 'garbagecollector'... */
	abstract readonly sub: string;
	/** The shared informers it reads. */
	abstract readonly resources: readonly string[];
	/** Keys reconciled per work tick (upstream's --concurrent-*-syncs workers). */
	readonly workers: number = 1;
	/** Retries before a failing key is dropped (undefined: never dropped). */
	readonly maxRetries: number | undefined = undefined;

	constructor(protected readonly host: ControllerHost) {}

	/** The controller's volatile state at start. Plain JSON. */
	abstract freshState(): S;

	/** Reconciles one key. Must not throw. */
	abstract sync(key: string): SyncError;

	/** Informer events for the resources it reads: enqueue keys only. */
	onAdd?(resource: string, obj: KubeObject): void;
	onUpdate?(resource: string, oldObj: KubeObject, newObj: KubeObject): void;
	onDelete?(resource: string, obj: KubeObject): void;

	/** Runs when the manager becomes leader and the caches are synced: start timers. */
	onLeading?(): void;

	/** A timer this controller scheduled fired. */
	onTimer?(timer: string, data: unknown): void;

	protected get state(): S {
		return this.host.controllerState(this.sub) as S;
	}

	protected enqueue(key: string): void {
		this.host.enqueue(this.sub, key);
	}

	protected trace(action: string, object: string | undefined, msg: string): void {
		this.host.trace(this.sub, action, object, msg);
	}

	/** metav1.Now(): the virtual wall clock as an RFC 3339 timestamp. */
	protected nowRfc3339(): string {
		return formatRfc3339(this.host.clock.wallMs());
	}

	protected get wallMs(): number {
		return this.host.clock.wallMs();
	}
}

/**
 * resolveControllerRef: the cached object a Pod's controller reference
 * names, if it is of `kind` and still the very object (same UID): a
 * namesake created after the owner was deleted is not the owner.
 */
export function resolveControllerRef<T extends KubeObject>(host: ControllerHost, resource: string, kind: string, namespace: string | undefined, ref: { kind: string; name: string; uid: string }): T | undefined {
	if (ref.kind !== kind) return undefined;
	const owner = host.informer(resource).get(keyFor(namespace, ref.name)) as T | undefined;
	return owner && owner.metadata.uid === ref.uid ? owner : undefined;
}

/** The namespace's objects of `resource` whose non-empty selector matches the Pod (getPodReplicaSets, getStatefulSetsForPod, getPodJobs). */
export function ownersSelecting<T extends KubeObject & { spec: { selector?: LabelSelector | null } }>(host: ControllerHost, resource: string, pod: Pod): T[] {
	return host.listInNamespace<T>(resource, pod.metadata.namespace).filter((owner) => {
		const selector = compileSelector(owner.spec.selector);
		return selector.ok && !selector.empty && selector.matches(pod.metadata.labels);
	});
}

/**
 * What a controller may claim: the objects it controls and the orphans of
 * its namespace, in key order (getRSPods, getDeploymentsForReplicaSet's
 * counterpart for pods). Objects controlled by someone else are never
 * claimed, so they need not be read.
 */
export function controlledOrOrphaned<T extends KubeObject>(host: ControllerHost, resource: string, namespace: string | undefined, uid: string): T[] {
	const controlled = uid ? host.listControlledBy<T>(resource, namespace, uid) : [];
	const orphans = host.listControlledBy<T>(resource, namespace, '');
	if (orphans.length === 0) return controlled;
	return [...controlled, ...orphans].sort((a, b) => {
		const ka = a.metadata.name ?? '';
		const kb = b.metadata.name ?? '';
		return ka < kb ? -1 : ka > kb ? 1 : 0;
	});
}

