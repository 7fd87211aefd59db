/**
 * Every upstream table replayed through the public API, in the order the
 * test file runs them.
 */
import type { PublicTable } from './table.ts';
import { balancedAllocation, enoughRequests, fitScore, leastAllocated, mostAllocated, notEnoughRequests, requestedToCapacityRatio, restartableInitContainers, storageRequests } from './noderesources.ts';
import { imageLocalityPriority } from './imagelocality.ts';
import { interPodAffinityHardWeight, interPodAffinityPreferred, requiredAffinityMultipleNodes, requiredAffinitySingleNode } from './interpodaffinity.ts';
import { nodeAffinityFilter, nodeAffinityPriority } from './nodeaffinity.ts';
import { multipleConstraints, podTopologySpreadScore, singleConstraint } from './podtopologyspread.ts';
import { taintTolerationFilter, taintTolerationFilterWithFeatureGate, taintTolerationScore } from './tainttoleration.ts';

export const TABLES: PublicTable[] = [leastAllocated, mostAllocated, requestedToCapacityRatio, balancedAllocation, enoughRequests, notEnoughRequests, restartableInitContainers, storageRequests, fitScore, taintTolerationScore, taintTolerationFilter, taintTolerationFilterWithFeatureGate, nodeAffinityPriority, nodeAffinityFilter, imageLocalityPriority, podTopologySpreadScore, singleConstraint, multipleConstraints, interPodAffinityPreferred, interPodAffinityHardWeight, requiredAffinitySingleNode, requiredAffinityMultipleNodes];
