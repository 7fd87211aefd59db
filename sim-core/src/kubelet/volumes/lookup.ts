/**
 * How the volume plugins read the API objects a pod's volumes name. The
 * kubelet reads them as its node identity (`system:node:<node>`), so the
 * Node authorizer lets it see only ConfigMaps and Secrets that a pod bound
 * to the node refers to. Upstream goes through the configmap and secret
 * managers (configMapAndSecretChangeDetectionStrategy Watch: a reflector
 * per referenced object); here each set-up is one GET, and the error
 * texts are the managers' own: their caches name the resource in the
 * singular (`configmap "web-content" not found`), unlike the API server's
 * `configmaps "web-content" not found`.
 *
 * Mirrors pkg/kubelet/configmap/configmap_manager.go,
 * pkg/kubelet/secret/secret_manager.go,
 * pkg/kubelet/util/manager/watch_based_manager.go.
 */
import type { ConfigMap, KubeObject, Secret } from '../../api/types.ts';

/** The result of reading one object. */
export type LookupResult<T> = { ok: true; object: T } | { ok: false; notFound: boolean; error: string };

/** Reads ConfigMaps, Secrets and PersistentVolumeClaims in the pod's namespace, and the PersistentVolumes its claims are bound to. */
export interface ObjectLookup {
	configMap(namespace: string, name: string): LookupResult<ConfigMap>;
	secret(namespace: string, name: string): LookupResult<Secret>;
	/** Read straight from the API server, as the populator does; errors are the API server's (`persistentvolumeclaims "x" not found`). */
	persistentVolumeClaim(namespace: string, name: string): LookupResult<KubeObject>;
	persistentVolume(name: string): LookupResult<KubeObject>;
}

/** The NotFound error of the kubelet's object caches (apierrors.NewNotFound with the singular resource). */
export function notFoundError(resource: 'configmap' | 'secret', name: string): { ok: false; notFound: true; error: string } {
	return { ok: false, notFound: true, error: `${resource} "${name}" not found` };
}

/**
 * What the watch-based manager answers when its reflector never synced
 * (the API server unreachable, or the read forbidden): it waits a second
 * for the cache, then gives up with this error.
 */
export function cacheSyncError(resource: 'configmap' | 'secret'): { ok: false; notFound: false; error: string } {
	return { ok: false, notFound: false, error: `failed to sync ${resource} cache: timed out waiting for the condition` };
}
