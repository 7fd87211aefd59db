// A kubelet module that reaches into other components' folders: the
// boundary rule must refuse each of these imports. Linted by
// ../component-boundaries.test.ts as if it lived at
// sim-core/src/kubelet/crossing-imports.ts.
import { ContainerRuntime } from '../runtime/container-runtime.ts';
import type { Cluster } from '../cluster/cluster.ts';
export { KubeScheduler } from '../scheduler/scheduler.ts';

// Shared layers and the kubelet's own folder are fine.
import { deepCopy } from '../golang/json.ts';
import { podRequests } from '../component-helpers/resource.ts';
import { admitPod } from './admission.ts';

export const used = [ContainerRuntime, deepCopy, podRequests, admitPod] as unknown as Cluster[];
