/**
 * A typed REST client for the cluster's processes (the part of client-go's
 * clientset and REST client they use). Every call is one API request over
 * the transport; results are either an API response or a transport failure.
 *
 * Mirrors staging/src/k8s.io/client-go/kubernetes/clientset.go,
 * staging/src/k8s.io/client-go/rest/client.go (RESTClient),
 * staging/src/k8s.io/client-go/rest/request.go (Request.Do).
 */
import type { KubeObject, KubeList, Status } from '../api/types.ts';
import { groupVersion, resourceForKind, type ResourceInfo } from '../api/resources.ts';
import type { ApiRequest, ApiResponse, PatchType } from '../api/request.ts';
import { isTransportFailure, type ApiTransport, type TransportResult } from './transport.ts';

/** Identifies a resource for a client call. */
export interface ResourceRef {
	group: string;
	version: string;
	resource: string;
}

export function refOf(info: Pick<ResourceInfo, 'group' | 'version' | 'resource'>): ResourceRef {
	return { group: info.group, version: info.version, resource: info.resource };
}

/** Well-known resources, for brevity at call sites. */
export const R = {
	pods: { group: '', version: 'v1', resource: 'pods' },
	nodes: { group: '', version: 'v1', resource: 'nodes' },
	namespaces: { group: '', version: 'v1', resource: 'namespaces' },
	events: { group: '', version: 'v1', resource: 'events' },
	services: { group: '', version: 'v1', resource: 'services' },
	endpoints: { group: '', version: 'v1', resource: 'endpoints' },
	configmaps: { group: '', version: 'v1', resource: 'configmaps' },
	secrets: { group: '', version: 'v1', resource: 'secrets' },
	serviceaccounts: { group: '', version: 'v1', resource: 'serviceaccounts' },
	persistentvolumes: { group: '', version: 'v1', resource: 'persistentvolumes' },
	persistentvolumeclaims: { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
	replicationcontrollers: { group: '', version: 'v1', resource: 'replicationcontrollers' },
	resourcequotas: { group: '', version: 'v1', resource: 'resourcequotas' },
	limitranges: { group: '', version: 'v1', resource: 'limitranges' },
	runtimeclasses: { group: 'node.k8s.io', version: 'v1', resource: 'runtimeclasses' },
	controllerrevisions: { group: 'apps', version: 'v1', resource: 'controllerrevisions' },
	deployments: { group: 'apps', version: 'v1', resource: 'deployments' },
	replicasets: { group: 'apps', version: 'v1', resource: 'replicasets' },
	daemonsets: { group: 'apps', version: 'v1', resource: 'daemonsets' },
	statefulsets: { group: 'apps', version: 'v1', resource: 'statefulsets' },
	jobs: { group: 'batch', version: 'v1', resource: 'jobs' },
	cronjobs: { group: 'batch', version: 'v1', resource: 'cronjobs' },
	leases: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' },
	endpointslices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices' },
	storageclasses: { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses' },
	priorityclasses: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' },
	certificatesigningrequests: { group: 'certificates.k8s.io', version: 'v1', resource: 'certificatesigningrequests' },
} as const satisfies Record<string, ResourceRef>;

/** The result of a call: the answer, or why there was none. */
export type CallResult<T = KubeObject> =
	| { ok: true; code: number; object: T; warnings?: string[] }
	| {
			ok: false;
			code: number;
			reason: string;
			message: string;
			transport?: boolean;
			/** The address dialled, on a transport failure. */
			address?: string;
			details?: Status['details'];
			/** The Status's ListMeta continue: the token a 410 for a compacted continue hands out (an inconsistent remainder). */
			continue?: string;
			warnings?: string[];
	  };

function toResult<T>(result: TransportResult): CallResult<T> {
	if (isTransportFailure(result)) return { ok: false, code: 0, reason: result.failure, message: result.message, transport: true, address: result.address };
	const response = result as ApiResponse;
	if (response.code >= 400) {
		const status = response.body as { reason?: string; message?: string; details?: Status['details']; metadata?: { continue?: string } };
		const failure: CallResult<T> = { ok: false, code: response.code, reason: status.reason ?? '', message: status.message ?? '' };
		// kubectl needs the details: an Invalid error prints its causes, one per line.
		if (status.details) failure.details = status.details;
		if (status.metadata?.continue) failure.continue = status.metadata.continue;
		if (response.warnings?.length) failure.warnings = response.warnings;
		return failure;
	}
	return { ok: true, code: response.code, object: response.body as T, warnings: response.warnings };
}

export class ApiClient {
	constructor(
		private readonly transport: ApiTransport,
		/** The calling process's id. */
		readonly from: string,
		/** Act as another user (`kubectl --as`); the API server checks the right to impersonate. */
		private readonly impersonate?: { user: string; groups?: string[] },
	) {}

	/** Sends a raw request. */
	raw(request: ApiRequest): TransportResult {
		return this.transport.request(this.from, this.impersonate ? { ...request, impersonate: this.impersonate } : request);
	}

	get<T = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string): CallResult<T> {
		return toResult(this.raw({ verb: 'get', ...ref, namespace, name }));
	}

	list<T extends KubeObject = KubeObject>(ref: ResourceRef, namespace?: string, query: ApiRequest['query'] = {}): CallResult<KubeList<T>> {
		return toResult(this.raw({ verb: 'list', ...ref, namespace, query }));
	}

	create<T = KubeObject>(ref: ResourceRef, namespace: string | undefined, body: unknown, query?: ApiRequest['query']): CallResult<T> {
		return toResult(this.raw(query ? { verb: 'create', ...ref, namespace, body, query } : { verb: 'create', ...ref, namespace, body }));
	}

	update<T = KubeObject>(ref: ResourceRef, obj: KubeObject, subresource?: string, query?: ApiRequest['query']): CallResult<T> {
		const request: ApiRequest = { verb: 'update', ...ref, namespace: obj.metadata.namespace, name: obj.metadata.name, body: obj, subresource };
		if (query) request.query = query;
		return toResult(this.raw(request));
	}

	updateStatus<T = KubeObject>(ref: ResourceRef, obj: KubeObject): CallResult<T> {
		return this.update<T>(ref, obj, 'status');
	}

	patch<T = KubeObject>(ref: ResourceRef, namespace: string | undefined, name: string, patch: unknown, patchType: PatchType = 'application/strategic-merge-patch+json', subresource?: string, query?: ApiRequest['query']): CallResult<T> {
		const request: ApiRequest = { verb: 'patch', ...ref, namespace, name, body: patch, patchType, subresource };
		if (query) request.query = query;
		return toResult(this.raw(request));
	}

	delete(ref: ResourceRef, namespace: string | undefined, name: string, options: ApiRequest['deleteOptions'] = {}, query?: ApiRequest['query']): CallResult {
		const request: ApiRequest = { verb: 'delete', ...ref, namespace, name, deleteOptions: options };
		if (query) request.query = query;
		return toResult(this.raw(request));
	}

	/** A request with a body, answered with any JSON (a subresource POST such as pods/eviction or pods/exec). */
	call<T = KubeObject>(request: ApiRequest): CallResult<T> {
		return toResult(this.raw(request));
	}

	/** Starts a watch; the events arrive as 'watch' kernel events addressed to this process. */
	watch(ref: ResourceRef, namespace: string | undefined, query: ApiRequest['query']): CallResult<{ watchId: number; metadata: { resourceVersion: string } }> {
		return toResult(this.raw({ verb: 'watch', ...ref, namespace, query }));
	}

	stopWatch(watchId: number): void {
		this.transport.stopWatch(this.from, watchId);
	}

	/** POST pods/<name>/binding. */
	bind(namespace: string, podName: string, nodeName: string): CallResult {
		return toResult(
			this.raw({
				verb: 'create',
				...R.pods,
				subresource: 'binding',
				namespace,
				name: podName,
				body: { apiVersion: 'v1', kind: 'Binding', metadata: { name: podName, namespace }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } },
			}),
		);
	}

	/** Creates an object from its own apiVersion and kind. */
	createObject(obj: KubeObject): CallResult {
		const info = resourceForKind(obj.apiVersion, obj.kind);
		if (!info) return { ok: false, code: 404, reason: 'NotFound', message: `no matches for kind "${obj.kind}" in version "${obj.apiVersion}"` };
		return this.create(refOf(info), info.namespaced ? (obj.metadata.namespace ?? 'default') : undefined, obj);
	}
}

export { groupVersion };
