/**
 * The pods subresources the API server proxies to the kubelet of the pod's
 * node: GET pods/<name>/log and POST pods/<name>/exec. The container is
 * resolved as upstream does (the only one, or an error naming the
 * choices); a pod not yet on a node cannot be reached; a kubelet that does
 * not answer gives the dial error a Go client would print.
 *
 * Mirrors pkg/registry/core/pod/rest/log.go (LogREST.Get),
 * pkg/registry/core/pod/rest/subresources.go (ExecREST.Connect),
 * pkg/registry/core/pod/strategy.go (LogLocation, ExecLocation).
 */
import { qualifiedResource, resourceByName, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import type { RequestScope } from '../endpoints/handlers/rest.ts';
import * as errors from '../errors.ts';

/** The node's InternalIP as the cache has it (the kubelet's address), else its name. */
function kubeletAddress(scope: RequestScope, nodeName: string): string {
	const node = scope.registry.get(resourceByName('', 'nodes')!, undefined, nodeName);
	return ((node?.status as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address ?? nodeName;
}

/**
 * POST pods/<name>/exec: checked as upstream's ExecLocation does, then
 * forwarded to the kubelet of the pod's node, like pods/log.
 */
export function podExec(scope: RequestScope, request: ApiRequest, info: ResourceInfo): ApiResponse {
	const name = request.name ?? '';
	const pod = scope.registry.get(info, request.namespace, name);
	if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	const containers = ((pod.spec as { containers?: Array<{ name: string }> }).containers ?? []).map((c) => c.name);
	const all = [...containers, ...((pod.spec as { initContainers?: Array<{ name: string }> }).initContainers ?? []).map((c) => c.name), ...((pod.spec as { ephemeralContainers?: Array<{ name: string }> }).ephemeralContainers ?? []).map((c) => c.name)];
	let container = request.query?.container ?? '';
	if (!container) {
		if (containers.length === 0) return errors.badRequest(`a container name must be specified for pod ${name}`);
		if (containers.length > 1) return errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`);
		container = containers[0];
	} else if (!all.includes(container)) return errors.badRequest(`container ${container} is not valid for pod ${name}`);
	const nodeName = (pod.spec as { nodeName?: string }).nodeName;
	if (!nodeName) return errors.badRequest(`pod ${name} does not have a host assigned`);
	const forwarded: ApiRequest = { ...request, query: { ...request.query, container } };
	const { deps } = scope.server;
	const response = deps.nodeProxy?.(nodeName, forwarded);
	if (!response) {
		const address = kubeletAddress(scope, nodeName);
		// The proxy's own failure: a 500 without a reason, which kubectl prints as `Error from server: error dialing backend: ...`.
		return dialFailure(`error dialing backend: dial tcp ${address}:10250: ${deps.kubeletDialError?.(nodeName) ?? 'connect: connection refused'}`);
	}
	return response;
}

/** GET pods/<name>/log: forwarded to the kubelet of the pod's node. */
export function podLog(scope: RequestScope, request: ApiRequest, info: ResourceInfo): ApiResponse {
	const pod = scope.registry.get(info, request.namespace, request.name ?? '');
	if (!pod) return errors.notFound(qualifiedResource(info), request.name ?? '', info.group, info.resource);
	const nodeName = (pod.spec as { nodeName?: string }).nodeName;
	if (!nodeName) return errors.badRequest(`pod ${request.name} does not have a host assigned`);
	const { deps } = scope.server;
	const response = deps.nodeProxy?.(nodeName, request);
	if (!response) {
		const address = kubeletAddress(scope, nodeName);
		// The log stream's client error, served as a Status without a reason (ErrorToAPIStatus of a plain error).
		return dialFailure(`Get "https://${address}:10250/containerLogs/${request.namespace}/${request.name}/${request.query?.container ?? ''}": dial tcp ${address}:10250: ${deps.kubeletDialError?.(nodeName) ?? 'connect: connection refused'}`);
	}
	return response;
}

/** A 500 Status without a reason: what a plain Go error becomes on the wire; kubectl prints `Error from server: <message>`. */
function dialFailure(message: string): ApiResponse {
	return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 } };
}
