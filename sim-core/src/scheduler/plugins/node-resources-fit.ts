/**
 * NodeResourcesFit: Filter checks that the node's allocatable minus what its
 * pods already request covers the pod's requests (reasons `Insufficient
 * cpu`, `Insufficient memory`, `Too many pods`...; a request larger than the
 * node's whole allocatable is unresolvable, since preemption cannot help);
 * Score ranks nodes by the configured strategy — LeastAllocated (default),
 * MostAllocated or RequestedToCapacityRatio — over the configured resources
 * and weights, with the 100m / 200Mi default requests for containers that
 * set none.
 *
 * Mirrors pkg/scheduler/framework/plugins/noderesources/fit.go.
 */
import type { Node, Pod } from '../../api/types.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import type { EnqueueExtensions, FilterPlugin, PreFilterPlugin, PreFilterResult, PreScorePlugin, ScorePlugin } from '../framework/interface.ts';
import { addListToResource, emptyResource, isExtendedResourceName, resourceFromList, type Resource } from '../framework/pod-resources.ts';
import { podRequests } from '../../component-helpers/resource.ts';
import { Code, Status } from '../framework/status.ts';
import { NodeInfo } from '../framework/types.ts';
import {
	leastResourceScorer,
	mostResourceScorer,
	podResourceRequestList,
	requestedToCapacityRatioScorer,
	resourceAllocationScore,
	type ResourceSpec,
	type Scorer,
	type UtilizationShapePoint,
} from './resource-allocation.ts';
import { ArgsError, invalid, notSupported, required } from './args-validation.ts';
import { Names } from './names.ts';
import { deepCopy } from '../../golang/json.ts';

type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

/** NodeResourcesFitArgs (kubescheduler.config.k8s.io/v1). */
export interface NodeResourcesFitArgs {
	ignoredResources?: string[];
	ignoredResourceGroups?: string[];
	scoringStrategy?: {
		type?: ScoringStrategyType;
		resources?: ResourceSpec[];
		requestedToCapacityRatio?: { shape?: UtilizationShapePoint[] };
	};
}

/** The default scoring resources: cpu and memory, weight 1 each (config/v1 defaults.go). */
const DEFAULT_SCORING_RESOURCES: ResourceSpec[] = [
	{ name: 'cpu', weight: 1 },
	{ name: 'memory', weight: 1 },
];

/** SetDefaults_NodeResourcesFitArgs: LeastAllocated over cpu and memory when unset. */
function defaultNodeResourcesFitArgs(args: NodeResourcesFitArgs | undefined): NodeResourcesFitArgs {
	const out: NodeResourcesFitArgs = deepCopy(args ?? {});
	out.scoringStrategy ??= { type: 'LeastAllocated' };
	out.scoringStrategy.type ??= 'LeastAllocated';
	if (!out.scoringStrategy.resources || out.scoringStrategy.resources.length === 0) out.scoringStrategy.resources = DEFAULT_SCORING_RESOURCES.map((r) => ({ ...r }));
	for (const r of out.scoringStrategy.resources) r.weight ??= 1;
	return out;
}

const SUPPORTED_STRATEGIES = ['LeastAllocated', 'MostAllocated', 'RequestedToCapacityRatio'];

/** ValidateNodeResourcesFitArgs (pkg/scheduler/apis/config/validation/validation_pluginargs.go), for the parts the simulator reads. */
function validateNodeResourcesFitArgs(args: NodeResourcesFitArgs): string[] {
	const errors: string[] = [];
	(args.ignoredResourceGroups ?? []).forEach((group, i) => {
		if (group.includes('/')) errors.push(invalid(`ignoredResourceGroups[${i}]`, group, "resource group name can't contain '/'"));
	});
	const strategy = args.scoringStrategy;
	if (strategy) {
		if (!SUPPORTED_STRATEGIES.includes(strategy.type ?? '')) errors.push(notSupported('scoringStrategy.type', strategy.type ?? '', SUPPORTED_STRATEGIES));
		validateResources(strategy.resources ?? [], 'scoringStrategy.resources', errors);
		if (strategy.requestedToCapacityRatio) validateFunctionShape(strategy.requestedToCapacityRatio.shape ?? [], 'scoringStrategy.shape', errors);
	}
	return errors;
}

/** validateResources: weights in (0, 100]. */
export function validateResources(resources: ResourceSpec[], path: string, errors: string[]): void {
	resources.forEach((r, i) => {
		if (!(r.weight > 0 && r.weight <= 100)) errors.push(invalid(`${path}[${i}].weight`, r.weight, `resource weight of ${r.name} not in valid range (0, 100]`));
	});
}

/** validateFunctionShape: at least one point, utilizations increasing in [0, 100], scores in [0, 10]. */
function validateFunctionShape(shape: UtilizationShapePoint[], path: string, errors: string[]): void {
	if (shape.length === 0) {
		errors.push(required(path, 'at least one point must be specified'));
		return;
	}
	for (let i = 1; i < shape.length; i++) {
		if (shape[i - 1].utilization >= shape[i].utilization) {
			errors.push(invalid(`${path}[${i}].utilization`, shape[i].utilization, 'utilization values must be sorted in increasing order'));
			break;
		}
	}
	shape.forEach((p, i) => {
		if (p.utilization < 0 || p.utilization > 100) errors.push(invalid(`${path}[${i}].utilization`, p.utilization, 'not in valid range [0, 100]'));
		if (p.score < 0 || p.score > 10) errors.push(invalid(`${path}[${i}].score`, p.score, 'not in valid range [0, 10]'));
	});
}

const PRE_FILTER_KEY = `PreFilter${Names.NodeResourcesFit}`;
const PRE_SCORE_KEY = `PreScore${Names.NodeResourcesFit}`;

class PreFilterState implements StateData {
	constructor(readonly request: Resource) {}
	clone(): StateData {
		return this;
	}
}

class PreScoreState implements StateData {
	constructor(readonly podRequests: number[]) {}
	clone(): StateData {
		return this;
	}
}

/** computePodResourceRequest: the pod's total requests (containers, init containers, overhead). */
function computePodResourceRequest(pod: Pod): Resource {
	const r = emptyResource();
	addListToResource(r, podRequests(pod.spec));
	return r;
}

/** fit.go InsufficientResource. */
interface InsufficientResource {
	resourceName: string;
	reason: string;
	requested: number;
	used: number;
	capacity: number;
	/** The pod asks more than the node's whole allocatable: preemption cannot help. */
	unresolvable: boolean;
}

/** fitsRequest: every resource the pod asks for, checked against the node's free allocatable. */
function fitsRequest(request: Resource, nodeInfo: NodeInfo, ignoredResources: Set<string> = new Set(), ignoredResourceGroups: Set<string> = new Set()): InsufficientResource[] {
	const out: InsufficientResource[] = [];
	const allocatable = nodeInfo.allocatable;
	const used = nodeInfo.requested;
	if (nodeInfo.pods.length + 1 > allocatable.allowedPodNumber) {
		out.push({ resourceName: 'pods', reason: 'Too many pods', requested: 1, used: nodeInfo.pods.length, capacity: allocatable.allowedPodNumber, unresolvable: false });
	}
	const scalarNames = Object.keys(request.scalar);
	if (request.milliCPU === 0 && request.memory === 0 && request.ephemeralStorage === 0 && scalarNames.length === 0) return out;
	if (request.milliCPU > 0 && request.milliCPU > allocatable.milliCPU - used.milliCPU) {
		out.push({ resourceName: 'cpu', reason: 'Insufficient cpu', requested: request.milliCPU, used: used.milliCPU, capacity: allocatable.milliCPU, unresolvable: request.milliCPU > allocatable.milliCPU });
	}
	if (request.memory > 0 && request.memory > allocatable.memory - used.memory) {
		out.push({ resourceName: 'memory', reason: 'Insufficient memory', requested: request.memory, used: used.memory, capacity: allocatable.memory, unresolvable: request.memory > allocatable.memory });
	}
	if (request.ephemeralStorage > 0 && request.ephemeralStorage > allocatable.ephemeralStorage - used.ephemeralStorage) {
		out.push({
			resourceName: 'ephemeral-storage',
			reason: 'Insufficient ephemeral-storage',
			requested: request.ephemeralStorage,
			used: used.ephemeralStorage,
			capacity: allocatable.ephemeralStorage,
			unresolvable: request.ephemeralStorage > allocatable.ephemeralStorage,
		});
	}
	// Go ranges over a map here; sorting keeps the reasons in a fixed order.
	for (const name of scalarNames.sort()) {
		const quantity = request.scalar[name];
		if (quantity === 0) continue;
		if (isExtendedResourceName(name) && (ignoredResources.has(name) || ignoredResourceGroups.has(name.split('/')[0]))) continue;
		const alloc = allocatable.scalar[name] ?? 0;
		const inUse = used.scalar[name] ?? 0;
		if (quantity > alloc - inUse) out.push({ resourceName: name, reason: `Insufficient ${name}`, requested: quantity, used: inUse, capacity: alloc, unresolvable: quantity > alloc });
	}
	return out;
}

/** isFit: would the pod fit the node were it empty? (for queueing hints). */
function fitsEmptyNode(pod: Pod, node: Node): boolean {
	return fitsRequest(computePodResourceRequest(pod), new NodeInfo(node)).length === 0;
}

/** haveAnyRequestedResourcesIncreased. */
function requestedResourcesIncreased(pod: Pod, oldNode: Node, newNode: Node): boolean {
	const request = computePodResourceRequest(pod);
	const before = resourceFromList(oldNode.status?.allocatable);
	const after = resourceFromList(newNode.status?.allocatable);
	if (after.allowedPodNumber > before.allowedPodNumber) return true;
	if ((request.milliCPU > 0 && after.milliCPU > before.milliCPU) || (request.memory > 0 && after.memory > before.memory) || (request.ephemeralStorage > 0 && after.ephemeralStorage > before.ephemeralStorage)) return true;
	return Object.entries(request.scalar).some(([name, q]) => q > 0 && (after.scalar[name] ?? 0) > (before.scalar[name] ?? 0));
}

function buildScorer(args: NodeResourcesFitArgs): Scorer {
	const resources = args.scoringStrategy!.resources!;
	switch (args.scoringStrategy!.type) {
		case 'MostAllocated':
			return mostResourceScorer(resources);
		case 'RequestedToCapacityRatio':
			return requestedToCapacityRatioScorer(resources, args.scoringStrategy!.requestedToCapacityRatio?.shape ?? []);
		default:
			return leastResourceScorer(resources);
	}
}

export class NodeResourcesFit implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, EnqueueExtensions {
	readonly name = Names.NodeResourcesFit;
	readonly args: NodeResourcesFitArgs;
	private readonly resources: ResourceSpec[];
	private readonly scorer: Scorer;
	private readonly ignoredResources: Set<string>;
	private readonly ignoredResourceGroups: Set<string>;

	/** NewFit: defaults the args, validates them (throws ArgsError), builds the strategy's scorer. */
	constructor(rawArgs?: NodeResourcesFitArgs) {
		this.args = defaultNodeResourcesFitArgs(rawArgs);
		const errors = validateNodeResourcesFitArgs(this.args);
		if (errors.length) throw new ArgsError(errors);
		this.resources = this.args.scoringStrategy!.resources!;
		this.scorer = buildScorer(this.args);
		this.ignoredResources = new Set(this.args.ignoredResources ?? []);
		this.ignoredResourceGroups = new Set(this.args.ignoredResourceGroups ?? []);
	}

	preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } {
		state.write(PRE_FILTER_KEY, new PreFilterState(computePodResourceRequest(pod)));
		return {};
	}

	filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const request = state.read<PreFilterState>(PRE_FILTER_KEY)?.request ?? computePodResourceRequest(pod);
		const insufficient = fitsRequest(request, nodeInfo, this.ignoredResources, this.ignoredResourceGroups);
		if (insufficient.length === 0) return undefined;
		const code = insufficient.some((r) => r.unresolvable) ? Code.UnschedulableAndUnresolvable : Code.Unschedulable;
		return new Status(code, insufficient.map((r) => r.reason));
	}

	preScore(state: CycleState, pod: Pod): Status | undefined {
		state.write(PRE_SCORE_KEY, new PreScoreState(podResourceRequestList(pod.spec, this.resources, false)));
		return undefined;
	}

	score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		const requests = state.read<PreScoreState>(PRE_SCORE_KEY)?.podRequests ?? podResourceRequestList(pod.spec, this.resources, false);
		return { score: resourceAllocationScore(nodeInfo, this.resources, requests, false, this.scorer) };
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{
				event: { resource: 'Pod', actionType: ActionType.Delete | ActionType.UpdatePodScaleDown },
				hint: (pod, old, updated) => {
					if (!updated) {
						// A deleted pod frees resources only if it was bound (or nominated).
						const deleted = old as Pod | undefined;
						return deleted && (deleted.spec.nodeName || deleted.status?.nominatedNodeName) ? QueueingHint.Queue : QueueingHint.QueueSkip;
					}
					const modified = updated as Pod;
					if (modified.metadata.uid === pod.metadata.uid) return QueueingHint.Queue;
					return modified.spec.nodeName ? QueueingHint.Queue : QueueingHint.QueueSkip;
				},
			},
			{
				event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeAllocatable },
				hint: (pod, old, updated) => {
					const node = updated as Node | undefined;
					if (!node || !fitsEmptyNode(pod, node)) return QueueingHint.QueueSkip;
					if (!old) return QueueingHint.Queue;
					return requestedResourcesIncreased(pod, old as Node, node) ? QueueingHint.Queue : QueueingHint.QueueSkip;
				},
			},
		];
	}
}
