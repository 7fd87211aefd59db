/**
 * The routes of one resource: which verbs and subresources it serves (an
 * unknown subresource is 404, a verb the resource does not have 405), the
 * authorization of the request as its verb, resource and name, and the
 * handler each verb and subresource goes to. Reviews are answered by the
 * authorizers without touching etcd; everything else needs the watch cache
 * loaded and etcd reachable.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/installer.go
 * (registerResourceHandlers),
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/authorization.go
 * (GetAuthorizerAttributes),
 * staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { qualifiedResource, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { authorizationName } from '../auth/request-info.ts';
import type { Caller } from '../config.ts';
import * as errors from '../errors.ts';
import { podExec, podLog, proxyLocation } from '../registry/pod-proxy.ts';
import { bind, evict } from '../registry/pod-storage.ts';
import { updateScale } from '../registry/scale.ts';
import { REQUEST_TIMED_OUT, type EtcdClient } from '../../etcd-api/etcd.ts';
import { isReviewResource, serveReview } from '../reviews.ts';
import { serveComponentStatuses } from '../registry/componentstatus.ts';
import { Authentication } from './filters/authentication.ts';
import { authorize } from './filters/authorization.ts';
import { create, createServiceAccountToken } from './handlers/create.ts';
import { deleteCollection, deleteResource } from './handlers/delete.ts';
import { get, list } from './handlers/get.ts';
import { patch } from './handlers/patch.ts';
import type { RequestScope } from './handlers/rest.ts';
import { update } from './handlers/update.ts';
import { watch } from './handlers/watch.ts';

/** Serves a request for a known resource, as an authenticated caller. */
export function serveResource(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
	const { server } = scope;
	server.emit({ action: 'authenticate', msg: `user ${caller.user.username} (groups ${caller.user.groups.join(', ')})` });
	const verb = request.verb;
	if (request.subresource && !info.subresources.includes(request.subresource)) return errors.pathNotFound();
	if (!request.subresource && !info.verbs.includes(verb)) return errors.methodNotAllowed();
	if (info.namespaced && request.namespace === undefined && ['create', 'update', 'patch', 'delete'].includes(verb)) {
		return errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
	}
	const authzVerb = request.subresource === 'binding' ? 'create' : verb;
	// A list or watch pinned to one name by `metadata.name=` is authorized for that name (requestinfo.go).
	const authzName = authorizationName(authzVerb, request.name, request.query?.fieldSelector);
	const denied = authorize(server, {
		user: caller.user,
		verb: authzVerb,
		resourceRequest: true,
		group: info.group,
		version: info.version,
		resource: info.resource,
		subresource: request.subresource,
		namespace: info.namespaced ? request.namespace : undefined,
		name: authzName,
		fieldSelector: request.query?.fieldSelector,
		labelSelector: request.query?.labelSelector,
	});
	if (denied) {
		return errors.forbidden(qualifiedResource(info), authzName, denied, info.group, info.resource);
	}

	// Access and rules reviews are answered by the authorizers, never stored.
	if (verb === 'create' && isReviewResource(info)) return review(scope, request, info, caller);
	// ComponentStatuses are probed, not stored: the scheduler and controller manager on this machine, and etcd.
	if (info.group === '' && info.resource === 'componentstatuses') {
		const health = { scheduler: server.kernel.isRunning('kube-scheduler'), controllerManager: server.kernel.isRunning('kube-controller-manager'), etcd: server.ensureCache() !== undefined };
		return serveComponentStatuses(request.name, health);
	}
	const store = server.ensureCache();
	if (!store || !server.state.ready) {
		return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: REQUEST_TIMED_OUT, code: 500 } };
	}
	if (verb === 'create' && request.subresource === 'eviction') return evict(scope, request, info, caller, store);
	if (verb === 'create' && request.subresource === 'exec') return podExec(scope, request, info);
	if (request.subresource === 'proxy' && info.group === '' && (info.resource === 'pods' || info.resource === 'services')) return proxyLocation(scope, request, info);
	if (request.subresource === 'token' && info.group === '' && info.resource === 'serviceaccounts') {
		// TokenRequest is create-only (a NamedCreater): other verbs get 405.
		return verb === 'create' ? createServiceAccountToken(scope, request, info, caller) : errors.methodNotAllowed();
	}
	switch (verb) {
		case 'get':
			return request.subresource === 'log' ? podLog(scope, request, info) : get(scope, request, info);
		case 'list':
			return list(scope, request, info);
		case 'watch':
			return watch(scope, request, info, caller);
		case 'create':
			return request.subresource === 'binding' ? bind(scope, request, info, store) : create(scope, request, info, caller, store);
		case 'update':
			if (request.subresource === 'scale') return putScale(scope, request, info, caller, store);
			return update(scope, request, info, caller, store, request.body as KubeObject);
		case 'patch':
			return patch(scope, request, info, caller, store);
		case 'delete':
			return deleteResource(scope, request, info, caller, store);
		case 'deletecollection':
			return deleteCollection(scope, request, info, caller, store);
	}
	return errors.methodNotAllowed();
}

/** PUT of a scale subresource (an autoscaling/v1 Scale, as the HPA controller's Scales client sends it). */
function putScale(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
	const body = request.body as KubeObject | undefined;
	if (!body || body.kind !== 'Scale' || body.apiVersion !== 'autoscaling/v1') return errors.badRequest(`the API version in the data (${String(body?.apiVersion)}) does not match the expected API version (autoscaling/v1)`);
	const old = scope.registry.get(info, request.namespace, request.name ?? '');
	if (!old) return errors.notFound(qualifiedResource(info), request.name ?? '', info.group, info.resource);
	const wantedRv = body.metadata?.resourceVersion;
	if (wantedRv && wantedRv !== old.metadata.resourceVersion) return errors.conflict(qualifiedResource(info), request.name ?? '');
	return updateScale(scope, request, info, caller, store, old, body);
}

/** POST of an access, rules or self-subject review: answered from the authorizers (../reviews.ts). */
function review(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
	const { server } = scope;
	const response = serveReview(request, info, caller.user, server.deps.authorizers, server.reader, formatRfc3339(server.kernel.wallMs()), {
		authenticate: (token) => new Authentication(server).authenticateToken(token),
		apiAudiences: server.tokenConfig().apiAudiences,
	});
	server.emit({ action: 'review', msg: `${info.kind} for ${caller.user.username}: ${response.code}` });
	return response;
}
