/**
 * kube-aggregator inside kube-apiserver: the APIServices that hand an API
 * group to an extension API server behind a Service (metrics-server's
 * `v1beta1.metrics.k8s.io`), the availability check that keeps each
 * APIService's `Available` condition, and the proxy that forwards a
 * request for such a group to one of the Service's endpoints while, and
 * only while, the APIService is Available.
 *
 * The check runs whenever a Service, an Endpoints object or an APIService
 * changes and again every 30 s: the Service must exist and listen on the
 * APIService's port, its endpoints must have a ready address with that
 * port's name, and the backend must answer discovery for its group
 * version. The reasons and messages are upstream's (`ServiceNotFound`,
 * `MissingEndpoints`, `FailedDiscoveryCheck`, `Passed`). A request for a
 * group whose APIService is not Available gets 503 `the server is
 * currently unable to handle the request`; one with no APIService at all
 * gets 404.
 *
 * Mirrors staging/src/k8s.io/kube-aggregator/pkg/controllers/status/remote/remote_available_controller.go
 * (sync: the checks and their reasons),
 * staging/src/k8s.io/kube-aggregator/pkg/apiserver/handler_proxy.go
 * (ServeHTTP: 503 while unavailable),
 * staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/v1/helper/helpers.go
 * (SetAPIServiceCondition).
 */
import type { KubeObject } from '../../api/types.ts';
import { qualifiedResource, resourceByName, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { LOOPBACK_USER, type ApiServerContext, type Caller } from '../config.ts';
import * as errors from '../errors.ts';
import { authorize } from '../endpoints/filters/authorization.ts';

/** The API group of APIServices. */
export const APIREGISTRATION_GROUP = 'apiregistration.k8s.io';
/** How often every APIService is checked again, besides on changes. */
export const AVAILABILITY_RECHECK_MS = 30_000;

/** An APIService as the aggregator reads it. */
export interface ApiService extends KubeObject {
	spec?: {
		group?: string;
		version?: string;
		service?: { namespace?: string; name?: string; port?: number };
		insecureSkipTLSVerify?: boolean;
		groupPriorityMinimum?: number;
		versionPriority?: number;
	};
	status?: { conditions?: ApiServiceCondition[] };
}

interface ApiServiceCondition {
	type: string;
	status: 'True' | 'False' | 'Unknown';
	lastTransitionTime?: string;
	reason?: string;
	message?: string;
}

/** What a backend answered to a proxied request; `dialError` when nothing answered at the address. */
export type BackendAnswer = ApiResponse | { dialError: string };

/** The endpoint a request goes to: the Service's cluster IP (what the aggregator dials) and the ready Pod behind it. */
export interface BackendTarget {
	serviceIp: string;
	servicePort: number;
	podIp: string;
	podPort: number;
}

/** The APIService's name for a group version: `v1beta1.metrics.k8s.io`. */
export function apiServiceName(group: string, version: string): string {
	return `${version}.${group}`;
}

function readObject(server: ApiServerContext, group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined {
	return server.reader.get(group, resource, namespace, name);
}

/** Whether an APIService's Available condition is True. */
export function isAvailable(apiService: ApiService | undefined): boolean {
	return (apiService?.status?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True');
}

interface Verdict {
	status: 'True' | 'False';
	reason: string;
	message: string;
	target?: BackendTarget;
}

/** The endpoint to use for an APIService's Service: a ready address with the port's name, and the Service's cluster IP. */
function resolveTarget(server: ApiServerContext, svcRef: { namespace: string; name: string; port: number }): Verdict {
	const { namespace, name, port } = svcRef;
	const service = readObject(server, '', 'services', namespace, name) as
		| (KubeObject & { spec?: { clusterIP?: string; ports?: Array<{ name?: string; port: number; targetPort?: number | string }> } })
		| undefined;
	if (!service) return { status: 'False', reason: 'ServiceNotFound', message: `service/${name} in "${namespace}" is not present` };
	const servicePort = (service.spec?.ports ?? []).find((p) => p.port === port);
	if (!servicePort) return { status: 'False', reason: 'ServicePortError', message: `service/${name} in "${namespace}" is not listening on port ${port}` };
	const endpoints = readObject(server, '', 'endpoints', namespace, name) as
		| (KubeObject & { subsets?: Array<{ addresses?: Array<{ ip: string }>; ports?: Array<{ name?: string; port: number }> }> })
		| undefined;
	if (!endpoints) return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find endpoints for service/${name} in "${namespace}"` };
	const portName = servicePort.name ?? '';
	for (const subset of endpoints.subsets ?? []) {
		const epPort = (subset.ports ?? []).find((p) => (p.name ?? '') === portName);
		const address = (subset.addresses ?? [])[0];
		if (epPort && address) {
			return { status: 'True', reason: 'Passed', message: 'all checks passed', target: { serviceIp: service.spec?.clusterIP ?? '', servicePort: port, podIp: address.ip, podPort: epPort.port } };
		}
	}
	return { status: 'False', reason: 'MissingEndpoints', message: `endpoints for service/${name} in "${namespace}" have no addresses with port name "${portName}"` };
}

/** The Service an APIService points at (port defaults to 443), or undefined for a local APIService. */
function serviceOf(apiService: ApiService): { namespace: string; name: string; port: number } | undefined {
	const svc = apiService.spec?.service;
	if (!svc?.name) return undefined;
	return { namespace: svc.namespace ?? 'default', name: svc.name, port: svc.port ?? 443 };
}

/** Checks one APIService as the availability controller's sync does. */
function check(server: ApiServerContext, apiService: ApiService): Verdict {
	const svc = serviceOf(apiService);
	if (!svc) return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
	const verdict = resolveTarget(server, svc);
	if (!verdict.target) return verdict;
	const group = apiService.spec?.group ?? '';
	const version = apiService.spec?.version ?? '';
	const url = `https://${verdict.target.serviceIp}:${svc.port}/apis/${group}/${version}`;
	const answer = server.deps.aggregatedBackend?.(verdict.target, { verb: 'get', group, version, resource: '' });
	if (!answer || 'dialError' in answer) {
		const err = answer && 'dialError' in answer ? answer.dialError : 'connect: connection refused';
		return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url}: Get "${url}": dial tcp ${verdict.target.serviceIp}:${svc.port}: ${err}` };
	}
	if (answer.code !== 200) return { status: 'False', reason: 'FailedDiscoveryCheck', message: `failing or missing response from ${url}: bad status from ${url}: ${answer.code}` };
	return verdict;
}

/**
 * Runs the availability check on every APIService and writes the
 * conditions that changed through the server's own handler chain, as its
 * loopback user. Returns how many APIServices there are.
 */
export function syncApiServices(server: ApiServerContext, serve: (request: ApiRequest, caller: Caller) => ApiResponse): number {
	const info = resourceByName(APIREGISTRATION_GROUP, 'apiservices');
	if (!info) return 0;
	const all = server.cacher.list(info) as ApiService[];
	for (const apiService of all) {
		const verdict = check(server, apiService);
		const previous = (apiService.status?.conditions ?? []).find((c) => c.type === 'Available');
		if (previous && previous.status === verdict.status && previous.reason === verdict.reason && previous.message === verdict.message) continue;
		const condition: ApiServiceCondition = {
			type: 'Available',
			status: verdict.status,
			lastTransitionTime: previous && previous.status === verdict.status && previous.lastTransitionTime ? previous.lastTransitionTime : formatRfc3339(server.kernel.wallMs()),
			reason: verdict.reason,
			message: verdict.message,
		};
		const body = JSON.parse(JSON.stringify(apiService)) as ApiService;
		body.status = { ...(body.status ?? {}), conditions: [...(body.status?.conditions ?? []).filter((c) => c.type !== 'Available'), condition] };
		server.emit({ action: 'apiservice-check', object: `apiservices/${apiService.metadata.name}`, msg: `Available=${verdict.status} (${verdict.reason}): ${verdict.message}` });
		serve({ verb: 'update', group: APIREGISTRATION_GROUP, version: 'v1', resource: 'apiservices', subresource: 'status', name: apiService.metadata.name, body }, { process: server.id, user: LOOPBACK_USER });
	}
	return all.length;
}

/**
 * Discovery of an aggregated group version (`GET /apis/metrics.k8s.io/v1beta1`):
 * 404 without an APIService, 503 while it is not Available, else the
 * backend's APIResourceList.
 */
export function serveAggregatedDiscovery(server: ApiServerContext, request: ApiRequest): ApiResponse {
	const apiService = readObject(server, APIREGISTRATION_GROUP, 'apiservices', undefined, apiServiceName(request.group, request.version)) as ApiService | undefined;
	if (!apiService) return errors.pathNotFound();
	if (!isAvailable(apiService)) return errors.serviceUnavailable('the server is currently unable to handle the request');
	const svc = serviceOf(apiService);
	const verdict = svc ? resolveTarget(server, svc) : undefined;
	const answer = verdict?.target ? server.deps.aggregatedBackend?.(verdict.target, request) : undefined;
	if (!answer || 'dialError' in answer) return errors.serviceUnavailable('the server is currently unable to handle the request');
	return answer;
}

/**
 * A request for an aggregated group (metrics.k8s.io), as the aggregator's
 * proxy handler serves it: authorized here like any resource request, then
 * forwarded to the APIService's backend while it is Available.
 */
export function serveAggregated(server: ApiServerContext, request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
	const apiService = readObject(server, APIREGISTRATION_GROUP, 'apiservices', undefined, apiServiceName(info.group, info.version)) as ApiService | undefined;
	if (!apiService) return errors.pathNotFound();
	if (!['get', 'list'].includes(request.verb)) return errors.methodNotAllowed();
	const denied = authorize(server, {
		user: caller.user,
		verb: request.verb,
		resourceRequest: true,
		group: info.group,
		version: info.version,
		resource: info.resource,
		namespace: info.namespaced ? request.namespace : undefined,
		name: request.name,
		labelSelector: request.query?.labelSelector,
		fieldSelector: request.query?.fieldSelector,
	});
	if (denied) return errors.forbidden(qualifiedResource(info), request.name, denied, info.group, info.resource);
	// The proxy answers 503 in plain text; client-go words it with the request (`(get pods.metrics.k8s.io)`).
	const unavailable = `the server is currently unable to handle the request (get ${info.resource}.${info.group})`;
	if (!isAvailable(apiService)) return errors.serviceUnavailable(unavailable);
	const svc = serviceOf(apiService);
	const verdict = svc ? resolveTarget(server, svc) : undefined;
	if (!verdict?.target) return errors.serviceUnavailable(unavailable);
	const answer = server.deps.aggregatedBackend?.(verdict.target, request);
	if (!answer || 'dialError' in answer) {
		const err = answer && 'dialError' in answer ? answer.dialError : 'connect: connection refused';
		return errors.serviceUnavailable(`error trying to reach service: dial tcp ${verdict.target.podIp}:${verdict.target.podPort}: ${err}`);
	}
	return answer;
}
