/**
 * The in-tree registry: plugin name -> factory (args, handle) -> plugin.
 *
 * VolumeBinding is simulated (PersistentVolumeClaims and the volumes they
 * bind to). The default profile's other volume and DRA plugins
 * (VolumeRestrictions, NodeVolumeLimits, VolumeZone, DynamicResources) are
 * not: the simulated cluster has no CSI drivers, attach limits, zones or
 * ResourceClaims. They are listed in NOT_SIMULATED so a configuration that
 * names them is told so, and they are left out of every profile rather than
 * passing silently.
 *
 * Mirrors pkg/scheduler/framework/plugins/registry.go (NewInTreeRegistry).
 */
import type { PluginFactory } from '../framework/interface.ts';
import { DefaultBinder } from './default-binder.ts';
import { DefaultPreemption, type DefaultPreemptionArgs } from './default-preemption.ts';
import { ImageLocality } from './image-locality.ts';
import { InterPodAffinity, type InterPodAffinityArgs } from './inter-pod-affinity.ts';
import { Names } from './names.ts';
import { NodeAffinity, type NodeAffinityArgs } from './node-affinity.ts';
import { NodeName } from './node-name.ts';
import { NodePorts } from './node-ports.ts';
import { NodeResourcesBalancedAllocation, type NodeResourcesBalancedAllocationArgs } from './node-resources-balanced-allocation.ts';
import { NodeResourcesFit, type NodeResourcesFitArgs } from './node-resources-fit.ts';
import { NodeUnschedulable } from './node-unschedulable.ts';
import { PodTopologySpread, type PodTopologySpreadArgs } from './pod-topology-spread.ts';
import { PrioritySort } from './priority-sort.ts';
import { SchedulingGates } from './scheduling-gates.ts';
import { TaintToleration } from './taint-toleration.ts';
import { VolumeBinding } from './volume-binding.ts';

/** NewInTreeRegistry. */
export function newInTreeRegistry(): Map<string, PluginFactory> {
	return new Map<string, PluginFactory>([
		[Names.SchedulingGates, () => new SchedulingGates()],
		[Names.PrioritySort, () => new PrioritySort()],
		[Names.NodeUnschedulable, () => new NodeUnschedulable()],
		[Names.NodeName, () => new NodeName()],
		[Names.TaintToleration, () => new TaintToleration()],
		[Names.NodeAffinity, (args) => new NodeAffinity(args as NodeAffinityArgs | undefined)],
		[Names.NodePorts, () => new NodePorts()],
		[Names.NodeResourcesFit, (args) => new NodeResourcesFit(args as NodeResourcesFitArgs | undefined)],
		[Names.VolumeBinding, (_args, handle) => new VolumeBinding(handle)],
		[Names.PodTopologySpread, (args, handle) => new PodTopologySpread(args as PodTopologySpreadArgs | undefined, handle)],
		[Names.InterPodAffinity, (args, handle) => new InterPodAffinity(args as InterPodAffinityArgs | undefined, handle)],
		[Names.DefaultPreemption, (args, handle) => new DefaultPreemption(args as DefaultPreemptionArgs | undefined, handle)],
		[Names.NodeResourcesBalancedAllocation, (args) => new NodeResourcesBalancedAllocation(args as NodeResourcesBalancedAllocationArgs | undefined)],
		[Names.ImageLocality, (_args, handle) => new ImageLocality(handle)],
		[Names.DefaultBinder, (_args, handle) => new DefaultBinder(handle)],
	]);
}

/** Upstream in-tree plugins this simulator does not implement (no CSI, attach limits, zones or DRA here). */
export const NOT_SIMULATED: ReadonlySet<string> = new Set([Names.VolumeRestrictions, Names.NodeVolumeLimits, Names.VolumeZone, Names.DynamicResources]);
