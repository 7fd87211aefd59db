/**
 * Which describer `kubectl describe` uses for a resource: its own, or the
 * generic one that prints every field.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go (describerMap,
 * DescriberFor, GenericDescriberFor).
 */
import type { ResourceInfo } from '../../api/resources.ts';
import type { Describer } from './helpers.ts';
import { describePod } from './pod.ts';
import { describeNode } from './node.ts';
import { describeCronJob, describeDaemonSet, describeDeployment, describeJob, describeReplicaSet, describeStatefulSet, describeReplicationController } from './workloads.ts';
import { describeEndpointSlice, describeEndpoints, describeService, describeIngress, describeIngressClass, describeIpAddress, describeNetworkPolicy, describeServiceCidr } from './network.ts';
import { describeCertificateSigningRequest } from './certificates.ts';
import { describePersistentVolume, describePersistentVolumeClaim, describeStorageClass } from './storage.ts';
import { describeConfigMap, describeNamespace, describePriorityClass, describeSecret, describeServiceAccount } from './config.ts';
import { describeRole, describeRoleBinding } from './rbac.ts';
import { describeGeneric, describePodDisruptionBudget } from './generic.ts';
import { describeHorizontalPodAutoscaler } from './autoscaling.ts';
import { describeLimitRange, describeResourceQuota } from './policy.ts';

export type { Describer, DescribeContext, DescribeResult } from './helpers.ts';

const RBAC = 'rbac.authorization.k8s.io';

/** group/kind → describer (describerMap). */
const DESCRIBERS: Readonly<Record<string, Describer>> = {
	'/Pod': describePod,
	'/Node': describeNode,
	'/Namespace': describeNamespace,
	'/Service': describeService,
	'/Endpoints': describeEndpoints,
	'/ConfigMap': describeConfigMap,
	'/Secret': describeSecret,
	'/ServiceAccount': describeServiceAccount,
	'apps/Deployment': describeDeployment,
	'apps/ReplicaSet': describeReplicaSet,
	'apps/DaemonSet': describeDaemonSet,
	'apps/StatefulSet': describeStatefulSet,
	'batch/Job': describeJob,
	'batch/CronJob': describeCronJob,
	'autoscaling/HorizontalPodAutoscaler': describeHorizontalPodAutoscaler,
	'discovery.k8s.io/EndpointSlice': describeEndpointSlice,
	'policy/PodDisruptionBudget': describePodDisruptionBudget,
	'scheduling.k8s.io/PriorityClass': describePriorityClass,
	'certificates.k8s.io/CertificateSigningRequest': describeCertificateSigningRequest,
	'/PersistentVolume': describePersistentVolume,
	'/PersistentVolumeClaim': describePersistentVolumeClaim,
	'storage.k8s.io/StorageClass': describeStorageClass,
	'networking.k8s.io/Ingress': describeIngress,
	'networking.k8s.io/IngressClass': describeIngressClass,
	'networking.k8s.io/NetworkPolicy': describeNetworkPolicy,
	'networking.k8s.io/ServiceCIDR': describeServiceCidr,
	'networking.k8s.io/IPAddress': describeIpAddress,
	'/ReplicationController': describeReplicationController,
	'/ResourceQuota': describeResourceQuota,
	'/LimitRange': describeLimitRange,
	[`${RBAC}/Role`]: describeRole,
	[`${RBAC}/ClusterRole`]: describeRole,
	[`${RBAC}/RoleBinding`]: describeRoleBinding,
	[`${RBAC}/ClusterRoleBinding`]: describeRoleBinding,
};

/** The describer for a resource (Describer: its own, else the generic one). */
export function describerFor(info: Pick<ResourceInfo, 'group' | 'kind'>): Describer {
	return DESCRIBERS[`${info.group}/${info.kind}`] ?? describeGeneric;
}
