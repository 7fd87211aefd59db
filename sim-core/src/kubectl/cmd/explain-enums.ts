/**
 * The allowed values of the API's enum types, as v1.36's OpenAPI document
 * lists them under `enum` (sorted, `""` where the empty string is allowed),
 * keyed by the Go type the schema records for a field. `kubectl explain`
 * prints them: `ENUM:` with one value a line under `FIELD:`, and `enum:
 * a, b, c, d, ....` (at most four) under each field of a list. Types not
 * listed here have no enum line, as in upstream for types without the
 * `+enum` marker; the table covers the workload, service, storage,
 * scheduling and autoscaling fields readers explain.
 *
 * Mirrors staging/src/k8s.io/api/core/v1/types.go,
 * staging/src/k8s.io/api/apps/v1/types.go,
 * staging/src/k8s.io/api/batch/v1/types.go,
 * staging/src/k8s.io/api/networking/v1/types.go,
 * staging/src/k8s.io/api/storage/v1/types.go,
 * staging/src/k8s.io/api/autoscaling/v2/types.go (each `+enum` type's constants).
 */

export const ENUMS: Readonly<Record<string, readonly string[]>> = {
	// core/v1
	'v1.RestartPolicy': ['Always', 'Never', 'OnFailure'],
	'v1.ContainerRestartPolicy': ['Always'],
	'v1.PullPolicy': ['Always', 'IfNotPresent', 'Never'],
	'v1.DNSPolicy': ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'],
	'v1.PreemptionPolicy': ['Never', 'PreemptLowerPriority'],
	'v1.Protocol': ['SCTP', 'TCP', 'UDP'],
	'v1.TerminationMessagePolicy': ['FallbackToLogsOnError', 'File'],
	'v1.ServiceType': ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'],
	'v1.ServiceExternalTrafficPolicy': ['Cluster', 'Local'],
	'v1.ServiceInternalTrafficPolicy': ['Cluster', 'Local'],
	'v1.ServiceAffinity': ['ClientIP', 'None'],
	'v1.TaintEffect': ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
	'v1.NodeSelectorOperator': ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'],
	'v1.PersistentVolumeReclaimPolicy': ['Delete', 'Recycle', 'Retain'],
	'v1.PersistentVolumeMode': ['Block', 'Filesystem'],
	'v1.HostPathType': ['""', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'],
	'v1.URIScheme': ['HTTP', 'HTTPS'],
	'v1.MountPropagationMode': ['Bidirectional', 'HostToContainer', 'None'],
	'v1.SeccompProfileType': ['Localhost', 'RuntimeDefault', 'Unconfined'],
	'v1.UnsatisfiableConstraintAction': ['DoNotSchedule', 'ScheduleAnyway'],
	'v1.NodeInclusionPolicy': ['Honor', 'Ignore'],
	'v1.OSName': ['linux', 'windows'],
	'v1.ResourceResizeRestartPolicy': ['NotRequired', 'RestartContainer'],
	'v1.PodFSGroupChangePolicy': ['Always', 'OnRootMismatch'],
	'v1.ProcMountType': ['Default', 'Unmasked'],
	'v1.PodPhase': ['Failed', 'Pending', 'Running', 'Succeeded', 'Unknown'],
	'v1.PodQOSClass': ['BestEffort', 'Burstable', 'Guaranteed'],
	'v1.PersistentVolumePhase': ['Available', 'Bound', 'Failed', 'Pending', 'Released'],
	'v1.PersistentVolumeClaimPhase': ['Bound', 'Lost', 'Pending'],
	// apps/v1
	'v1.DeploymentStrategyType': ['Recreate', 'RollingUpdate'],
	'v1.StatefulSetUpdateStrategyType': ['OnDelete', 'RollingUpdate'],
	'v1.PodManagementPolicyType': ['OrderedReady', 'Parallel'],
	'v1.DaemonSetUpdateStrategyType': ['OnDelete', 'RollingUpdate'],
	'v1.PersistentVolumeClaimRetentionPolicyType': ['Delete', 'Retain'],
	// batch/v1
	'v1.ConcurrencyPolicy': ['Allow', 'Forbid', 'Replace'],
	'v1.CompletionMode': ['Indexed', 'NonIndexed'],
	'v1.PodReplacementPolicy': ['Failed', 'TerminatingOrFailed'],
	'v1.PodFailurePolicyAction': ['Count', 'FailIndex', 'FailJob', 'Ignore'],
	'v1.PodFailurePolicyOnExitCodesOperator': ['In', 'NotIn'],
	// networking/v1, storage/v1
	'v1.PathType': ['Exact', 'ImplementationSpecific', 'Prefix'],
	'v1.PolicyType': ['Egress', 'Ingress'],
	'v1.VolumeBindingMode': ['Immediate', 'WaitForFirstConsumer'],
	// autoscaling/v2
	'v2.MetricSourceType': ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'],
	'v2.MetricTargetType': ['AverageValue', 'Utilization', 'Value'],
	'v2.ScalingPolicySelect': ['Disabled', 'Max', 'Min'],
	'v2.HPAScalingPolicyType': ['Percent', 'Pods'],
};

/** The enum of a field's Go type. An array has none of its own (the OpenAPI enum sits on its items, which explain does not print). */
export function enumOf(goType: string): readonly string[] | undefined {
	return ENUMS[goType];
}
