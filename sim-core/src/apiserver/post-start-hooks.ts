/**
 * The post-start hooks: each time the server becomes ready it makes sure
 * the objects a cluster needs exist (the system namespaces, the system
 * PriorityClasses, the `kubernetes` Service, the bootstrap RBAC policy),
 * creating the missing ones through its own handler chain as its loopback
 * user and never overwriting what is there.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/server/hooks.go
 * (RunPostStartHooks),
 * pkg/controlplane/controller/systemnamespaces/system_namespaces_controller.go,
 * pkg/controlplane/controller/kubernetesservice/controller.go,
 * pkg/registry/scheduling/rest/storage_scheduling.go (priority classes),
 * pkg/registry/rbac/rest/storage_rbac.go (bootstrap policy).
 */
import { etcdKey } from '../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../api/request.ts';
import { resourceOf } from './cacher.ts';
import { LOOPBACK_USER, type ApiServerContext, type Caller } from './config.ts';

export function runPostStartHooks(server: ApiServerContext, serve: (request: ApiRequest, caller: Caller) => ApiResponse): void {
	const objects = server.deps.systemObjects?.() ?? [];
	if (objects.length === 0) return;
	let created = 0;
	for (const obj of objects) {
		const info = resourceOf(obj);
		if (!info || server.cacher.get(info, etcdKey(info, obj.metadata.namespace, obj.metadata.name ?? ''))) continue;
		const response = serve({ verb: 'create', group: info.group, version: info.version, resource: info.resource, namespace: obj.metadata.namespace, body: obj }, { process: server.id, user: LOOPBACK_USER });
		if (response.code < 300) created++;
	}
	if (created) server.emit({ action: 'bootstrap', msg: `post-start hooks created ${created} system object(s): namespaces, priority classes, the kubernetes Service, RBAC defaults` });
}
