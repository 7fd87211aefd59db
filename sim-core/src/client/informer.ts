/**
 * A shared informer: lists a resource, then watches it from the list's
 * resourceVersion, keeping a local read-only cache and calling the owner's
 * handlers on every change. When the watch breaks it re-watches from the
 * last resourceVersion it saw; when that version is gone (410, compacted),
 * it lists again (a relist); while the API server cannot be reached it
 * retries with back-off (800 ms doubling to 30 s, with jitter, as the
 * reflector's default back-off manager).
 *
 * The cache may see only a subsequence of an object's states (several
 * changes can arrive as one), and handlers must never mutate cached
 * objects: both as in client-go. The informer's state lives inside its
 * owner's process state, so it snapshots with it.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/cache/shared_informer.go,
 * staging/src/k8s.io/client-go/tools/cache/reflector.go (ListAndWatch, the
 * relist on 410, the back-off manager),
 * staging/src/k8s.io/client-go/tools/cache/store.go.
 */
import type { KubeObject } from '../api/types.ts';
import type { WatchEvent } from '../api/request.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import type { ApiClient, ResourceRef } from './client.ts';

export interface InformerState {
	/** The cache: `namespace/name` (or `name`) -> object. */
	items: Record<string, KubeObject>;
	resourceVersion: string;
	watchId: number | null;
	/** True once the first list has completed. */
	synced: boolean;
	/** Current retry delay (0 when healthy). */
	retryDelayMs: number;
}

export function emptyInformer(): InformerState {
	return { items: {}, resourceVersion: '', watchId: null, synced: false, retryDelayMs: 0 };
}

interface InformerHandlers {
	onAdd?(obj: KubeObject): void;
	onUpdate?(oldObj: KubeObject, newObj: KubeObject): void;
	onDelete?(obj: KubeObject): void;
}

interface InformerSpec extends ResourceRef {
	namespace?: string;
	labelSelector?: string;
	fieldSelector?: string;
}

/** `namespace/name` for namespaced objects, `name` otherwise (cache.MetaNamespaceKeyFunc). */
export function keyOf(obj: KubeObject): string {
	return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : (obj.metadata.name ?? '');
}

const RETRY_INITIAL_MS = 800;
const RETRY_MAX_MS = 30_000;

export class Informer {
	constructor(
		/** Name unique within the owner, e.g. 'pods'. */
		readonly name: string,
		private readonly kernel: Kernel,
		private readonly ownerId: string,
		private readonly client: ApiClient,
		private readonly spec: InformerSpec,
		private readonly handlers: InformerHandlers,
		private readonly state: () => InformerState,
	) {}

	get synced(): boolean {
		return this.state().synced;
	}

	/** The cached object with this key. */
	get(key: string): KubeObject | undefined {
		return this.state().items[key];
	}

	/** Every cached object, in key order. */
	list(): KubeObject[] {
		const items = this.state().items;
		return Object.keys(items)
			.sort()
			.map((k) => items[k]);
	}

	/** Lists and watches (at process start, and after a 410). */
	start(): void {
		const s = this.state();
		const listed = this.client.list(this.spec, this.spec.namespace, { labelSelector: this.spec.labelSelector, fieldSelector: this.spec.fieldSelector });
		if (!listed.ok) {
			this.retry('relist');
			return;
		}
		const fresh: Record<string, KubeObject> = {};
		for (const item of listed.object.items) {
			const obj = withTypeMeta(item, this.spec, listed.object.kind);
			fresh[keyOf(obj)] = obj;
		}
		const previous = s.items;
		s.items = fresh;
		s.resourceVersion = listed.object.metadata.resourceVersion ?? '';
		s.synced = true;
		s.retryDelayMs = 0;
		// Replace(): report what changed relative to the old cache.
		for (const [key, obj] of Object.entries(fresh)) {
			const old = previous[key];
			if (!old) this.handlers.onAdd?.(obj);
			else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.handlers.onUpdate?.(old, obj);
		}
		for (const [key, old] of Object.entries(previous)) if (!fresh[key]) this.handlers.onDelete?.(old);
		this.watch();
	}

	private watch(): void {
		const s = this.state();
		const started = this.client.watch(this.spec, this.spec.namespace, {
			resourceVersion: s.resourceVersion,
			labelSelector: this.spec.labelSelector,
			fieldSelector: this.spec.fieldSelector,
		});
		if (started.ok) {
			s.watchId = started.object.watchId;
			s.retryDelayMs = 0;
			return;
		}
		s.watchId = null;
		// 410 (compacted away) and a revision the server has not reached (etcd restored from an older snapshot) both mean: list again.
		if (started.code === 410 || (started.code === 504 && /^Timeout: Too large resource version/.test(started.message))) this.start();
		else this.retry('rewatch');
	}

	private retry(kind: 'relist' | 'rewatch'): void {
		const s = this.state();
		const base = s.retryDelayMs === 0 ? RETRY_INITIAL_MS : Math.min(s.retryDelayMs * 2, RETRY_MAX_MS);
		s.retryDelayMs = base;
		const jittered = Math.round(base * (1 + this.kernel.rng(this.ownerId).float()));
		this.kernel.schedule(this.ownerId, jittered, 'informer-retry', { informer: this.name, kind }, { reconnect: true });
	}

	/** Offers a kernel event to this informer; true if it was this informer's. */
	handle(event: QueuedEvent): boolean {
		const s = this.state();
		if (event.kind === 'watch') {
			const payload = event.payload as { watchId: number; event: WatchEvent };
			if (payload.watchId !== s.watchId) return false;
			this.apply(payload.event);
			return true;
		}
		if (event.kind === 'watch-closed') {
			const payload = event.payload as { watchId: number };
			if (payload.watchId !== s.watchId) return false;
			s.watchId = null;
			this.retry('rewatch');
			return true;
		}
		if (event.kind === 'informer-retry') {
			const payload = event.payload as { informer: string; kind: 'relist' | 'rewatch' };
			if (payload.informer !== this.name) return false;
			if (payload.kind === 'relist' || !s.synced) this.start();
			else this.watch();
			return true;
		}
		return false;
	}

	private apply(event: WatchEvent): void {
		const s = this.state();
		if (event.type === 'ERROR' || event.type === 'BOOKMARK') return;
		const obj = event.object as KubeObject;
		const key = keyOf(obj);
		s.resourceVersion = obj.metadata.resourceVersion ?? s.resourceVersion;
		const old = s.items[key];
		if (event.type === 'DELETED') {
			delete s.items[key];
			this.handlers.onDelete?.(old ?? obj);
		} else if (old) {
			s.items[key] = obj;
			this.handlers.onUpdate?.(old, obj);
		} else {
			s.items[key] = obj;
			this.handlers.onAdd?.(obj);
		}
	}
}

/** List items carry no apiVersion/kind; the informer restores them, as client-go's typed decoding does. */
function withTypeMeta(item: KubeObject, spec: ResourceRef, listKind: string): KubeObject {
	if (item.apiVersion && item.kind) return item;
	return { ...item, apiVersion: spec.group ? `${spec.group}/${spec.version}` : spec.version, kind: listKind.replace(/List$/, '') };
}
