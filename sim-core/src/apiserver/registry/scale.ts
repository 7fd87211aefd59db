/**
 * The scale subresource of Deployments, ReplicaSets, StatefulSets and
 * ReplicationControllers: an autoscaling/v1 Scale (spec.replicas;
 * status.replicas and the selector as a string) read from the object, and
 * an update of it that changes the object's spec.replicas through the
 * ordinary update path.
 *
 * Mirrors pkg/registry/apps/deployment/storage/storage.go (ScaleREST:
 * scaleFromDeployment, Update; replicaset and statefulset have the same),
 * pkg/registry/core/replicationcontroller/storage/storage.go (scaleFromRC).
 */
import type { KubeObject } from '../../api/types.ts';
import { labelSelectorFromObject, selectorToString, type MetaLabelSelector } from '../../api/labels.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import { deepCopy } from '../../golang/json.ts';
import type { Caller } from '../config.ts';
import * as errors from '../errors.ts';
import type { RequestScope } from '../endpoints/handlers/rest.ts';
import { update } from '../endpoints/handlers/update.ts';

/** labels.Selector's String() of the object's selector (a ReplicationController's is a plain map: its matchLabels). */
function selectorString(selector: MetaLabelSelector | undefined): string {
	try {
		return selectorToString(labelSelectorFromObject(selector));
	} catch {
		return '';
	}
}

/** autoscaling/v1 Scale of a Deployment, ReplicaSet, StatefulSet or ReplicationController. */
export function scaleOf(obj: KubeObject): KubeObject {
	const spec = obj.spec as { replicas?: number; selector?: unknown };
	const status = obj.status as { replicas?: number } | undefined;
	const selector = selectorString(obj.kind === 'ReplicationController' ? { matchLabels: spec.selector as Record<string, string> | undefined } : (spec.selector as MetaLabelSelector | undefined));
	return {
		kind: 'Scale',
		apiVersion: 'autoscaling/v1',
		metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace, uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion, creationTimestamp: obj.metadata.creationTimestamp },
		spec: { replicas: spec.replicas ?? 1 },
		status: { replicas: status?.replicas ?? 0, selector },
	};
}

/** Sets the object's spec.replicas from a (patched) Scale; answers with the new Scale. */
export function updateScale(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient, old: KubeObject, scale: KubeObject): ApiResponse {
	const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
	if (typeof replicas !== 'number' || !Number.isInteger(replicas)) return errors.badRequest('spec.replicas: Invalid value');
	const updated = deepCopy(old);
	(updated.spec as { replicas?: number }).replicas = replicas;
	// Recorded as a write of the scale subresource that owns spec.replicas (fieldmanager's ScaleHandler).
	const response = update(scope, { ...request, subresource: undefined }, info, caller, store, undefined, updated, { subresource: 'scale' });
	if (response.code >= 400) return response;
	return { code: 200, body: scaleOf(response.body as KubeObject) };
}
