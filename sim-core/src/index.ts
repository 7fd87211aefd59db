/**
 * sim-core's public API. The site, the scenario files and every test outside
 * sim-core use only what is exported here; see ../README.md.
 *
 * Mirrors nothing upstream: sim-core's public API.
 */
export type { Scenario, ScenarioStep, ScheduledFault, ScenarioTask, StateCheck, LocalizedText, PanelName, ComponentName } from './scenario/types.ts';
export { parseScenario, validateScenario, ScenarioError, COMPONENTS, NODE_COMPONENTS, PANELS } from './scenario/validate.ts';

export { Cluster, findResource, type ClusterSnapshot, type ClusterInput, type ExecResult, type EditSession, type Component, type ApplyResult } from './cluster/cluster.ts';
export { complete, currentCommand, kubectlVerbs, type Completion, type CompletionContext, type KubectlVerb, type ResourceKind } from './cluster/completion.ts';
export { readsOnly } from './cluster/read-only.ts';
export type { ClusterOptions, NodeOptions, KubeSchedulerConfiguration } from './cluster/options.ts';
export type { TraceEvent } from './sim/trace.ts';
export type { SchedulingExplanation } from './scheduler/explanation.ts';
export type { KubeObject } from './api/types.ts';

import { Cluster, type ClusterSnapshot } from './cluster/cluster.ts';
import type { ClusterOptions } from './cluster/options.ts';

/** Builds and boots a cluster (kubeadm-style by default) and runs it until it is up. */
export function createCluster(options: ClusterOptions = {}): Cluster {
	return new Cluster(options);
}

/** A cluster equal to the one a snapshot was taken of: it continues exactly as the original would. */
export function restoreCluster(snapshot: ClusterSnapshot): Cluster {
	if (snapshot?.format !== 'cluster-anatomy/snapshot@1') throw new Error('not a cluster snapshot (format cluster-anatomy/snapshot@1 expected)');
	return new Cluster(snapshot.options, snapshot);
}

export { startScenario, applyStep, evaluateCheck, checkAll, reachesExpectedState, type ScenarioRun, type CheckResult } from './scenario/run.ts';
export type { PlannedFault } from './cluster/timed-faults.ts';


/** What a Pod adds to its node's requested resources: the numbers the scheduler reserves and the kubelet admits against, for maps. */
export { podRequestedResources as podResourceRequests, type NodeView, type PodView } from './cluster/map-view.ts';

/** The YAML reader kubectl uses here, for editors that check a manifest as it is typed (a YamlError names its line and column). */
export { parseYamlDocuments, YamlError } from './yaml/parse.ts';
