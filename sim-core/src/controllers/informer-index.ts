/**
 * The indexes kube-controller-manager keeps beside its shared informers'
 * caches, so that a controller asks for "the pods of this namespace" or
 * "the pods this ReplicaSet controls, and the orphans it may adopt" without
 * walking every pod in the cluster:
 * - by namespace (cache.NamespaceIndex, what a lister's
 *   `.Pods(ns).List()` reads);
 * - by controller UID, with orphans under their namespace
 *   (controller.PodControllerUIDIndex and OrphanPodIndexKeyForNamespace,
 *   which the ReplicaSet controller's getRSPods reads).
 *
 * Both are derived from the cache (not part of any snapshot), kept up to
 * date by the informer's handlers, in key order.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/cache/index.go,
 * pkg/controller/controller_utils.go (AddPodControllerUIDIndexer).
 */
import type { KubeObject } from '../api/types.ts';
import { keyOf } from '../client/informer.ts';
import { SortedKeyIndex } from '../golang/sort.ts';
import { controllerOf } from './pod-util.ts';

/** The controller-UID index value: the controller's UID, or (for orphans) the empty UID, under the namespace. */
function controllerValue(obj: KubeObject): string {
	return `${obj.metadata.namespace ?? ''}/${controllerOf(obj)?.uid ?? ''}`;
}

export class InformerIndex {
	private readonly byNamespace = new SortedKeyIndex();
	private readonly byController = new SortedKeyIndex();

	constructor(objects: Iterable<KubeObject> = []) {
		for (const obj of objects) this.added(obj);
	}

	added(obj: KubeObject): void {
		const key = keyOf(obj);
		this.byNamespace.add(obj.metadata.namespace ?? '', key);
		this.byController.add(controllerValue(obj), key);
	}

	updated(old: KubeObject, obj: KubeObject): void {
		const before = controllerValue(old);
		const after = controllerValue(obj);
		if (before === after) return;
		const key = keyOf(obj);
		this.byController.delete(before, key);
		this.byController.add(after, key);
	}

	deleted(obj: KubeObject): void {
		const key = keyOf(obj);
		this.byNamespace.delete(obj.metadata.namespace ?? '', key);
		this.byController.delete(controllerValue(obj), key);
	}

	/** The keys in a namespace ('' for cluster-scoped objects), in order. */
	inNamespace(namespace: string): readonly string[] {
		return this.byNamespace.keys(namespace);
	}

	/** The keys of the objects whose controller has this UID in the namespace, in order; the empty UID gives the orphans. */
	controlledBy(namespace: string, uid: string): readonly string[] {
		return this.byController.keys(`${namespace}/${uid}`);
	}
}
