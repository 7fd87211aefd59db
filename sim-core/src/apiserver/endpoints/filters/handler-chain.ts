/**
 * The handler chain every request passes, synchronously, at the current
 * virtual time: the request line is traced, then authentication,
 * impersonation, and the resource's routes (authorization, admission and
 * storage happen there); panics of the storage layer become statuses (an
 * etcd error its API status, anything else a 500), the resource's warnings
 * are added, and the response is traced with its code.
 *
 * Requests for an aggregated group (metrics.k8s.io) go to the aggregator's
 * proxy (../../aggregator/apiservice.ts) instead of the resource routes.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/server/config.go
 * (DefaultBuildHandlerChain),
 * staging/src/k8s.io/apiserver/pkg/server/httplog/httplog.go (the request
 * line and response code),
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/warning.go.
 */
import type { KubeObject, Status } from '../../../api/types.ts';
import { AGGREGATED_GROUPS, resourceByName } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import { MvccError } from '../../../etcd-api/etcd.ts';
import type { Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import { storageError } from '../../registry/generic-store.ts';
import type { RequestScope } from '../handlers/rest.ts';
import { serveResource } from '../installer.ts';
import type { Authentication } from './authentication.ts';
import { impersonate } from './impersonation.ts';
import { serveAggregated, serveAggregatedDiscovery } from '../../aggregator/apiservice.ts';

export class HandlerChain {
	constructor(
		private readonly scope: RequestScope,
		private readonly authentication: Authentication,
	) {}

	/** Serves one request. Never throws: every failure is a Status response. */
	serve(request: ApiRequest, caller: Caller): ApiResponse {
		const { server } = this.scope;
		if (!server.kernel.isRunning(server.id)) return errors.serviceUnavailable('the server is not running');
		const info = resourceByName(request.group, request.resource);
		const path = describeRequest(request);
		server.emit({ action: 'request', component: caller.process, peer: server.id, object: request.name ? `${request.resource}/${request.namespace ? request.namespace + '/' : ''}${request.name}` : request.resource, msg: path });
		let response: ApiResponse;
		try {
			// Authentication: the client certificate (known to the transport), else the bearer token, else anonymous.
			const authenticated = this.authentication.authenticate(caller);
			const impersonated = 'code' in authenticated ? authenticated : request.impersonate ? impersonate(server, request.impersonate, authenticated) : authenticated;
			if ('code' in impersonated) response = impersonated;
			else if (info?.aggregated) response = serveAggregated(server, request, info, impersonated);
			else if (request.resource === '' && AGGREGATED_GROUPS.includes(request.group)) response = serveAggregatedDiscovery(server, request);
			else response = info ? serveResource(this.scope, request, info, impersonated) : errors.pathNotFound();
		} catch (error) {
			if (error instanceof MvccError) response = storageError(error);
			else response = errors.internalError(error instanceof Error ? error.message : String(error));
		}
		if (info) {
			const warnings = server.strategy(info).warnings;
			if (warnings) response.warnings = [...(response.warnings ?? []), ...warnings];
		}
		const ok = response.code < 400;
		server.emit({
			action: 'response',
			peer: caller.process,
			msg: `${response.code}${ok ? '' : ' ' + ((response.body as Status).reason ?? '')} for ${path}`,
			rv: ok ? Number((response.body as KubeObject)?.metadata?.resourceVersion) || undefined : undefined,
		});
		return response;
	}
}

/** `GET /api/v1/namespaces/default/pods/web-1`: the request line kubectl -v would show. */
function describeRequest(request: ApiRequest): string {
	const method = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' }[request.verb];
	const root = request.group ? `/apis/${request.group}/${request.version}` : `/api/${request.version}`;
	const ns = request.namespace ? `/namespaces/${request.namespace}` : '';
	const name = request.name ? `/${request.name}` : '';
	const sub = request.subresource ? `/${request.subresource}` : '';
	const watch = request.verb === 'watch' ? '?watch=true' : '';
	return `${method} ${root}${ns}/${request.resource}${name}${sub}${watch}`;
}
