/**
 * NodeResourcesBalancedAllocation: favours nodes whose resource usage the
 * pod leaves more balanced. Since v1.36 it scores the change in balance
 * (kubernetes/kubernetes#135573): `50 + (50 + with − without) / 2`, where
 * with/without are `int((1 − std) × 100)` of the requested fractions after
 * and before the pod (75 = unchanged). It uses the real requests (no
 * 100m/200Mi defaults), and a best-effort pod, requesting none of the
 * configured resources, makes PreScore return Skip (kubernetes#129138).
 *
 * Mirrors
 * pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go.
 */
import type { Pod } from '../../api/types.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import type { PreScorePlugin, ScorePlugin } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import type { NodeInfo } from '../framework/types.ts';
import { ArgsError, invalid } from './args-validation.ts';
import { balancedResourceScorer, podResourceRequestList, resourceAllocationScore, type ResourceSpec } from './resource-allocation.ts';
import { Names } from './names.ts';

/** NodeResourcesBalancedAllocationArgs. */
export interface NodeResourcesBalancedAllocationArgs {
	resources?: ResourceSpec[];
}

/** SetDefaults_NodeResourcesBalancedAllocationArgs: cpu and memory, weight 1. */
function defaultBalancedAllocationArgs(args: NodeResourcesBalancedAllocationArgs | undefined): NodeResourcesBalancedAllocationArgs {
	const resources = args?.resources?.length ? args.resources.map((r) => ({ name: r.name, weight: r.weight ?? 1 })) : [
		{ name: 'cpu', weight: 1 },
		{ name: 'memory', weight: 1 },
	];
	return { resources };
}

/** ValidateNodeResourcesBalancedAllocationArgs: every weight must be 1. */
function validateBalancedAllocationArgs(args: NodeResourcesBalancedAllocationArgs): string[] {
	const errors: string[] = [];
	(args.resources ?? []).forEach((r, i) => {
		if (r.weight !== 1) errors.push(invalid(`resources[${i}].weight`, r.weight, 'must be 1'));
	});
	return errors;
}

const PRE_SCORE_KEY = `PreScore${Names.NodeResourcesBalancedAllocation}`;

class PreScoreState implements StateData {
	constructor(readonly podRequests: number[]) {}
	clone(): StateData {
		return this;
	}
}

export class NodeResourcesBalancedAllocation implements PreScorePlugin, ScorePlugin {
	readonly name = Names.NodeResourcesBalancedAllocation;
	private readonly resources: ResourceSpec[];

	constructor(rawArgs?: NodeResourcesBalancedAllocationArgs) {
		const args = defaultBalancedAllocationArgs(rawArgs);
		const errors = validateBalancedAllocationArgs(args);
		if (errors.length) throw new ArgsError(errors);
		this.resources = args.resources!;
	}

	preScore(state: CycleState, pod: Pod): Status | undefined {
		const requests = podResourceRequestList(pod.spec, this.resources, true);
		// Skip best-effort pods, so they do not all pile onto one node (kubernetes#129138).
		if (requests.every((r) => r === 0)) return new Status(Code.Skip);
		state.write(PRE_SCORE_KEY, new PreScoreState(requests));
		return undefined;
	}

	score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		let requests = state.read<PreScoreState>(PRE_SCORE_KEY)?.podRequests;
		if (!requests) {
			requests = podResourceRequestList(pod.spec, this.resources, true);
			if (requests.every((r) => r === 0)) return { score: 0 };
		}
		return { score: resourceAllocationScore(nodeInfo, this.resources, requests, true, balancedResourceScorer) };
	}
}
