/**
 * Which table each resource prints with: the upstream printer's, or the API
 * server's generic `NAME CREATED AT` for resources that have none (roles,
 * clusterroles, customresourcedefinitions).
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
import {
	CSIDRIVER_TABLE,
	CSINODE_TABLE,
	CSISTORAGECAPACITY_TABLE,
	PERSISTENTVOLUMECLAIM_TABLE,
	PERSISTENTVOLUME_TABLE,
	STORAGECLASS_TABLE,
	VOLUMEATTACHMENT_TABLE,
	VOLUMEATTRIBUTESCLASS_TABLE,
} from './table-storage.ts';
import { INGRESSCLASS_TABLE, INGRESS_TABLE, IPADDRESS_TABLE, NETWORKPOLICY_TABLE, SERVICECIDR_TABLE } from './table-networking.ts';
import {
	ADMISSIONPOLICYBINDING_TABLE,
	COMPONENTSTATUS_TABLE,
	CSR_TABLE,
	FLOWSCHEMA_TABLE,
	LIMITRANGE_TABLE,
	MUTATINGADMISSIONPOLICY_TABLE,
	NAME_AGE_TABLE,
	PODTEMPLATE_TABLE,
	PRIORITYLEVELCONFIGURATION_TABLE,
	REPLICATIONCONTROLLER_TABLE,
	RESOURCECLAIM_TABLE,
	RESOURCEQUOTA_TABLE,
	RESOURCESLICE_TABLE,
	RUNTIMECLASS_TABLE,
	VALIDATINGADMISSIONPOLICY_TABLE,
	WEBHOOKCONFIGURATION_TABLE,
} from './table-extensions.ts';

const ADMISSION = 'admissionregistration.k8s.io';

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
	'/componentstatuses': COMPONENTSTATUS_TABLE,
	'/limitranges': LIMITRANGE_TABLE,
	'/persistentvolumeclaims': PERSISTENTVOLUMECLAIM_TABLE,
	'/persistentvolumes': PERSISTENTVOLUME_TABLE,
	'/podtemplates': PODTEMPLATE_TABLE,
	'/replicationcontrollers': REPLICATIONCONTROLLER_TABLE,
	'/resourcequotas': RESOURCEQUOTA_TABLE,
	[`${ADMISSION}/mutatingwebhookconfigurations`]: WEBHOOKCONFIGURATION_TABLE,
	[`${ADMISSION}/validatingwebhookconfigurations`]: WEBHOOKCONFIGURATION_TABLE,
	[`${ADMISSION}/validatingadmissionpolicies`]: VALIDATINGADMISSIONPOLICY_TABLE,
	[`${ADMISSION}/validatingadmissionpolicybindings`]: ADMISSIONPOLICYBINDING_TABLE,
	[`${ADMISSION}/mutatingadmissionpolicies`]: MUTATINGADMISSIONPOLICY_TABLE,
	[`${ADMISSION}/mutatingadmissionpolicybindings`]: ADMISSIONPOLICYBINDING_TABLE,
	'certificates.k8s.io/certificatesigningrequests': CSR_TABLE,
	'flowcontrol.apiserver.k8s.io/flowschemas': FLOWSCHEMA_TABLE,
	'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations': PRIORITYLEVELCONFIGURATION_TABLE,
	'networking.k8s.io/ingresses': INGRESS_TABLE,
	'networking.k8s.io/ingressclasses': INGRESSCLASS_TABLE,
	'networking.k8s.io/networkpolicies': NETWORKPOLICY_TABLE,
	'networking.k8s.io/ipaddresses': IPADDRESS_TABLE,
	'networking.k8s.io/servicecidrs': SERVICECIDR_TABLE,
	'node.k8s.io/runtimeclasses': RUNTIMECLASS_TABLE,
	'resource.k8s.io/deviceclasses': NAME_AGE_TABLE,
	'resource.k8s.io/resourceclaims': RESOURCECLAIM_TABLE,
	'resource.k8s.io/resourceclaimtemplates': NAME_AGE_TABLE,
	'resource.k8s.io/resourceslices': RESOURCESLICE_TABLE,
	'storage.k8s.io/storageclasses': STORAGECLASS_TABLE,
	'storage.k8s.io/volumeattributesclasses': VOLUMEATTRIBUTESCLASS_TABLE,
	'storage.k8s.io/csidrivers': CSIDRIVER_TABLE,
	'storage.k8s.io/csinodes': CSINODE_TABLE,
	'storage.k8s.io/csistoragecapacities': CSISTORAGECAPACITY_TABLE,
	'storage.k8s.io/volumeattachments': VOLUMEATTACHMENT_TABLE,
};

/** The table a resource prints with. */
export function tableFor(info: Pick<ResourceInfo, 'group' | 'resource'>): TableDefinition {
	return TABLES[`${info.group}/${info.resource}`] ?? DEFAULT_TABLE;
}
