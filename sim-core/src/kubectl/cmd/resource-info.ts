/**
 * What kubectl's changing commands know about one object they act on: its
 * resource mapping, namespace, name and source file, and the ways kubectl
 * prints it in messages.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go (Info:
 * ObjectName, String), staging/src/k8s.io/client-go/rest/request.go (the
 * REST URLs).
 */
import type { KubeObject } from '../../api/types.ts';
import { groupVersion, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest } from '../../api/request.ts';
import type { CallResult } from '../../client/client.ts';

/** resource.Info: one object to act on. */
export interface TargetInfo {
	info: ResourceInfo;
	/** Undefined for cluster-scoped resources. */
	namespace: string | undefined;
	name: string;
	/** The file it came from (`-f`), as kubectl names it; '' otherwise. */
	source: string;
	/** The object: the manifest for `-f`, the live object once fetched. */
	object?: KubeObject;
}

/** Info.ObjectName: `deployments/nginx` (the plural resource, without its group). */
export function objectName(target: Pick<TargetInfo, 'info' | 'name'>): string {
	return `${target.info.resource}/${target.name}`;
}

/** Info.String: the mapping and the object's coordinates, as apply's error messages quote them. */
export function infoString(target: Pick<TargetInfo, 'info' | 'namespace' | 'name'>): string {
	const { info } = target;
	return `Resource: "${info.group}/${info.version}, Resource=${info.resource}", GroupVersionKind: "${info.group}/${info.version}, Kind=${info.kind}"\nName: ${JSON.stringify(target.name)}, Namespace: ${JSON.stringify(target.namespace ?? '')}`;
}

/** The URL client-go builds for a request, with its query (what a connection error quotes). */
export function requestUrl(serverUrl: string, request: Pick<ApiRequest, 'group' | 'version' | 'resource' | 'namespace' | 'name' | 'subresource' | 'query'>): string {
	const root = request.group ? `/apis/${request.group}/${request.version}` : `/api/${request.version}`;
	const ns = request.namespace ? `/namespaces/${request.namespace}` : '';
	const name = request.name ? `/${request.name}` : '';
	const sub = request.subresource ? `/${request.subresource}` : '';
	const query = Object.entries(request.query ?? {})
		.filter(([, v]) => v !== undefined)
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
		.join('&');
	return `${serverUrl}${root}${ns}/${request.resource}${name}${sub}${query ? `?${query}` : ''}`;
}

/** An object as the unstructured client sees it: apiVersion and kind always set. */
export function typed(info: ResourceInfo, obj: KubeObject): KubeObject {
	return { ...obj, apiVersion: obj.apiVersion || groupVersion(info), kind: obj.kind || info.kind };
}

/** Whether a failed call means nothing else can work either (no connection, not logged in). */
export function isFatalCall(result: Extract<CallResult<unknown>, { ok: false }>): boolean {
	return result.transport === true || result.reason === 'Unauthorized';
}
