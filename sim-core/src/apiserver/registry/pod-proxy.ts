/**
 * The pods subresources the API server proxies to the kubelet of the pod's
 * node: GET pods/<name>/log and POST pods/<name>/exec. The container is
 * resolved as upstream does (the only one, or an error naming the
 * choices); a pod not yet on a node cannot be reached; a kubelet that does
 * not answer gives the dial error a Go client would print.
 *
 * And the proxy subresources of pods and services, for every method: the
 * id is `name`, `name:port` or `scheme:name:port`; a Pod's location is its
 * IP and the port asked for (else its first container port), a Service's
 * is one ready endpoint of the port asked for, picked at random as
 * upstream does. The HTTP front end relays the request there.
 *
 * Mirrors pkg/registry/core/pod/rest/log.go (LogREST.Get),
 * pkg/registry/core/pod/rest/subresources.go (ExecREST.Connect, ProxyREST.Connect),
 * pkg/registry/core/pod/strategy.go (LogLocation, ExecLocation, ResourceLocation),
 * pkg/registry/core/service/storage/storage.go (ResourceLocation),
 * staging/src/k8s.io/apimachinery/pkg/util/net/port_split.go (SplitSchemeNamePort).
 */
import { qualifiedResource, resourceByName, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse, ProxyLocation } from '../../api/request.ts';
import type { Endpoints, EndpointAddress } from '../../api/types.ts';
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

/** SplitSchemeNamePort: `name`, `name:port` or `scheme:name:port` with scheme http, https or none. */
function splitSchemeNamePort(id: string): { scheme: '' | 'http' | 'https'; name: string; port: string } | undefined {
	const parts = id.split(':');
	if (parts.length > 3) return undefined;
	const [scheme, name, port] = parts.length === 3 ? parts : ['', parts[0], parts[1] ?? ''];
	if (!name || (scheme !== '' && scheme !== 'http' && scheme !== 'https')) return undefined;
	return { scheme, name, port };
}

/** An IPv4 address a proxy may dial: not unspecified, loopback, link-local or multicast (net.IP.IsGlobalUnicast). */
function isGlobalUnicast(ip: string): boolean {
	const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
	if (!m || m.slice(1).some((o) => Number(o) > 255)) return false;
	const [a, b] = [Number(m[1]), Number(m[2])];
	return !(a === 0 || a === 127 || (a === 169 && b === 254) || a >= 224);
}

/** ProxyREST.Connect for pods and services: the location to relay to, or the error upstream gives. */
export function proxyLocation(scope: RequestScope, request: ApiRequest, info: ResourceInfo): ApiResponse {
	const id = request.name ?? '';
	const kind = info.resource === 'pods' ? 'pod' : 'service';
	const split = splitSchemeNamePort(id);
	if (!split) return errors.badRequest(`invalid ${kind} request ${JSON.stringify(id)}`);
	const located = kind === 'pod' ? podLocation(scope, request, info, split.name, split.port) : serviceLocation(scope, request, info, id, split.name, split.port);
	if ('code' in located) return located;
	return { code: 200, body: {}, proxy: { ...located, scheme: split.scheme || 'http' } };
}

function podLocation(scope: RequestScope, request: ApiRequest, info: ResourceInfo, name: string, port: string): Omit<ProxyLocation, 'scheme'> | ApiResponse {
	const pod = scope.registry.get(info, request.namespace, name);
	if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	const spec = pod.spec as { containers?: Array<{ ports?: Array<{ containerPort: number }> }> };
	// No port asked for: the first port any container declares, else the scheme's default.
	if (!port) port = String((spec.containers ?? []).find((c) => c.ports?.length)?.ports?.[0].containerPort ?? '');
	const ip = (pod.status as { podIP?: string } | undefined)?.podIP ?? '';
	if (!isGlobalUnicast(ip)) return errors.badRequest('address not allowed');
	return { ip, port };
}

function serviceLocation(scope: RequestScope, request: ApiRequest, info: ResourceInfo, id: string, name: string, port: string): Omit<ProxyLocation, 'scheme'> | ApiResponse {
	// A port number names the Service port it belongs to; endpoints are matched by that name.
	if (/^[+-]?\d+$/.test(port)) {
		const service = scope.registry.get(info, request.namespace, name);
		if (!service) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		const found = ((service.spec as { ports?: Array<{ name?: string; port: number }> }).ports ?? []).find((p) => p.port === Number(port));
		if (!found) return errors.serviceUnavailable(`no service port ${Number(port)} found for service ${JSON.stringify(name)}`);
		port = found.name ?? '';
	}
	const endpointsInfo = resourceByName('', 'endpoints')!;
	const endpoints = scope.registry.get(endpointsInfo, request.namespace, name) as Endpoints | undefined;
	if (!endpoints) return errors.notFound(qualifiedResource(endpointsInfo), name, '', 'endpoints');
	const subsets = endpoints.subsets ?? [];
	if (subsets.length === 0) return errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(name)}`);
	const rng = scope.server.kernel.rng('kube-apiserver/service-proxy');
	const subsetSeed = rng.int(subsets.length);
	for (let s = 0; s < subsets.length; s++) {
		const subset = subsets[(subsetSeed + s) % subsets.length];
		const addresses = subset.addresses ?? [];
		if (addresses.length === 0) continue;
		for (const p of subset.ports ?? []) {
			if ((p.name ?? '') !== port) continue;
			const addressSeed = rng.int(addresses.length);
			for (let a = 0; a < addresses.length; a++) {
				const address = addresses[(addressSeed + a) % addresses.length];
				// Only addresses that are Pods of this namespace, still at that IP, are proxied to.
				if (isPodAddress(scope, request.namespace, address)) return { ip: address.ip, port: String(p.port) };
			}
		}
	}
	return errors.serviceUnavailable(`no endpoints available for service ${JSON.stringify(id)}`);
}

/** isValidAddress: the address's targetRef is a Pod that exists in the namespace and has that IP. */
function isPodAddress(scope: RequestScope, namespace: string | undefined, address: EndpointAddress): boolean {
	const ref = address.targetRef;
	if (ref?.kind !== 'Pod' || !ref.name || (ref.namespace && ref.namespace !== namespace)) return false;
	const pod = scope.registry.get(resourceByName('', 'pods')!, namespace, ref.name);
	const status = pod?.status as { podIPs?: Array<{ ip: string }>; podIP?: string } | undefined;
	return !!status && (status.podIP === address.ip || (status.podIPs ?? []).some((p) => p.ip === address.ip));
}
