/**
 * Which table each resource prints with: the upstream printer's, or the API
 * server's generic `NAME CREATED AT` for resources that have none (roles,
 * clusterroles).
 *
 * Mirrors pkg/printers/internalversion/printers.go (AddHandlers).
 */
import type { ResourceInfo } from '../../api/resources.ts';
import { DEFAULT_TABLE, type TableDefinition } from './table-columns.ts';
import { POD_TABLE } from './table-pods.ts';
import { CONTROLLERREVISION_TABLE, CRONJOB_TABLE, DAEMONSET_TABLE, DEPLOYMENT_TABLE, JOB_TABLE, REPLICASET_TABLE, STATEFULSET_TABLE } from './table-workloads.ts';
import { ENDPOINTSLICE_TABLE, ENDPOINTS_TABLE, SERVICE_TABLE } from './table-services.ts';
import { APISERVICE_TABLE, HPA_TABLE, NODEMETRICS_TABLE, PODMETRICS_TABLE } from './table-autoscaling.ts';
import {
	CONFIGMAP_TABLE,
	EVENT_TABLE,
	LEASE_TABLE,
	NAMESPACE_TABLE,
	NODE_TABLE,
	PODDISRUPTIONBUDGET_TABLE,
	PRIORITYCLASS_TABLE,
	ROLEBINDING_TABLE,
	SECRET_TABLE,
	SERVICEACCOUNT_TABLE,
} from './table-cluster.ts';

/** `group/resource` → table. */
const TABLES: Readonly<Record<string, TableDefinition>> = {
	'/pods': POD_TABLE,
	'/nodes': NODE_TABLE,
	'/namespaces': NAMESPACE_TABLE,
	'/services': SERVICE_TABLE,
	'/endpoints': ENDPOINTS_TABLE,
	'/events': EVENT_TABLE,
	'/configmaps': CONFIGMAP_TABLE,
	'/secrets': SECRET_TABLE,
	'/serviceaccounts': SERVICEACCOUNT_TABLE,
	'apps/deployments': DEPLOYMENT_TABLE,
	'apps/replicasets': REPLICASET_TABLE,
	'apps/daemonsets': DAEMONSET_TABLE,
	'apps/statefulsets': STATEFULSET_TABLE,
	'apps/controllerrevisions': CONTROLLERREVISION_TABLE,
	'batch/jobs': JOB_TABLE,
	'batch/cronjobs': CRONJOB_TABLE,
	'coordination.k8s.io/leases': LEASE_TABLE,
	'discovery.k8s.io/endpointslices': ENDPOINTSLICE_TABLE,
	'events.k8s.io/events': EVENT_TABLE,
	'policy/poddisruptionbudgets': PODDISRUPTIONBUDGET_TABLE,
	'rbac.authorization.k8s.io/rolebindings': ROLEBINDING_TABLE,
	'rbac.authorization.k8s.io/clusterrolebindings': ROLEBINDING_TABLE,
	'scheduling.k8s.io/priorityclasses': PRIORITYCLASS_TABLE,
	'autoscaling/horizontalpodautoscalers': HPA_TABLE,
	'apiregistration.k8s.io/apiservices': APISERVICE_TABLE,
	'metrics.k8s.io/nodes': NODEMETRICS_TABLE,
	'metrics.k8s.io/pods': PODMETRICS_TABLE,
};

/** The table a resource prints with. */
export function tableFor(info: Pick<ResourceInfo, 'group' | 'resource'>): TableDefinition {
	return TABLES[`${info.group}/${info.resource}`] ?? DEFAULT_TABLE;
}
