/**
 * The in-tree plugin names. Every name of upstream's default profile is
 * listed, including those the simulator does not implement, so configuration
 * can tell "unknown plugin" from "known upstream, not simulated" (see
 * ./registry.ts).
 *
 * Mirrors pkg/scheduler/framework/plugins/names/names.go.
 */
export const Names = {
	PrioritySort: 'PrioritySort',
	DefaultBinder: 'DefaultBinder',
	DefaultPreemption: 'DefaultPreemption',
	DynamicResources: 'DynamicResources',
	ImageLocality: 'ImageLocality',
	InterPodAffinity: 'InterPodAffinity',
	NodeAffinity: 'NodeAffinity',
	NodeName: 'NodeName',
	NodePorts: 'NodePorts',
	NodeResourcesBalancedAllocation: 'NodeResourcesBalancedAllocation',
	NodeResourcesFit: 'NodeResourcesFit',
	NodeUnschedulable: 'NodeUnschedulable',
	NodeVolumeLimits: 'NodeVolumeLimits',
	PodTopologySpread: 'PodTopologySpread',
	SchedulingGates: 'SchedulingGates',
	TaintToleration: 'TaintToleration',
	VolumeBinding: 'VolumeBinding',
	VolumeRestrictions: 'VolumeRestrictions',
	VolumeZone: 'VolumeZone',
} as const;
