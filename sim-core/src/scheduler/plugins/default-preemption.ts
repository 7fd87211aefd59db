/**
 * DefaultPreemption (PostFilter): when no node fits, look for a node where
 * evicting lower-priority pods would let the pod fit, evict the fewest and
 * least important of them, and nominate the node for the pod
 * (status.nominatedNodeName), which then waits for the victims to go.
 *
 * The message it returns when preemption cannot help becomes the tail of
 * the FitError: `preemption: 0/N nodes are available: ...`.
 *
 * PodDisruptionBudgets count as upstream counts them: a victim whose
 * eviction would take a budget below zero disruptions allowed is a
 * violation; the victims that would violate are reprieved first, and the
 * node with the fewest violations wins. (Preemption deletes its victims
 * all the same: a budget is a preference here, not a guarantee.)
 *
 * Difference from upstream, on purpose: the evictions are made
 * synchronously in the cycle (upstream makes them asynchronously since
 * v1.33, SchedulerAsyncPreemption) — the outcome is the same: victims get a
 * DisruptionTarget condition and are deleted, and the pod is nominated.
 *
 * Mirrors
 * pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go,
 * pkg/scheduler/framework/preemption/preemption.go (Evaluator.Preempt,
 * findCandidates, DryRunPreemption, SelectVictimsOnNode,
 * pickOneNodeForPreemption, prepareCandidate, filterPodsWithPDBViolation).
 */
import type { KubeObject, LabelSelector, Pod, PodCondition } from '../../api/types.ts';
import { isEmptySelector, labelSelectorFromObject, matches, type Selector } from '../../api/labels.ts';
import { R } from '../../client/client.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import type { CycleState } from '../framework/cycle-state.ts';
import { FitError, newDiagnosis, NodeToStatus } from '../framework/fit-error.ts';
import type { Handle, PostFilterPlugin, PostFilterResult } from '../framework/interface.ts';
import { Code, isSuccess, Status } from '../framework/status.ts';
import { podKey, podPriority, type NodeInfo, type PodInfo } from '../framework/types.ts';
import { ArgsError, invalid } from './args-validation.ts';
import { Names } from './names.ts';

/**
 * filterPodsWithPDBViolation: walking the victims in order, each budget of
 * the pod's namespace whose (non-empty) selector matches it spends one of
 * its disruptionsAllowed (a pod the budget already counts as disrupted
 * spends nothing); a pod that takes any budget below zero is violating.
 */
export function filterPodsWithPDBViolation(podInfos: PodInfo[], pdbs: KubeObject[]): { violating: PodInfo[]; nonViolating: PodInfo[] } {
	const allowed = pdbs.map((pdb) => Number((pdb.status as { disruptionsAllowed?: number } | undefined)?.disruptionsAllowed ?? 0));
	const violating: PodInfo[] = [];
	const nonViolating: PodInfo[] = [];
	for (const pi of podInfos) {
		const pod = pi.pod;
		let violates = false;
		pdbs.forEach((pdb, i) => {
			if (pdb.metadata.namespace !== pod.metadata.namespace) return;
			let selector: Selector;
			try {
				selector = labelSelectorFromObject((pdb.spec as { selector?: LabelSelector } | undefined)?.selector);
			} catch {
				return;
			}
			// A budget with a nil or empty selector matches nothing here.
			if (isEmptySelector(selector) || !matches(selector, pod.metadata.labels ?? {})) return;
			const disrupted = (pdb.status as { disruptedPods?: Record<string, string> } | undefined)?.disruptedPods ?? {};
			if (pod.metadata.name && pod.metadata.name in disrupted) return;
			allowed[i]--;
			if (allowed[i] < 0) violates = true;
		});
		(violates ? violating : nonViolating).push(pi);
	}
	return { violating, nonViolating };
}

/** DefaultPreemptionArgs. */
export interface DefaultPreemptionArgs {
	/** At least this percentage of the nodes are dry-run as candidates (default 10). */
	minCandidateNodesPercentage?: number;
	/** And at least this many (default 100). */
	minCandidateNodesAbsolute?: number;
}

/** SetDefaults_DefaultPreemptionArgs: 10 % and 100 nodes. */
function defaultPreemptionArgs(args: DefaultPreemptionArgs | undefined): Required<DefaultPreemptionArgs> {
	return { minCandidateNodesPercentage: args?.minCandidateNodesPercentage ?? 10, minCandidateNodesAbsolute: args?.minCandidateNodesAbsolute ?? 100 };
}

/** The reasons and messages of preemption.go. */
const MSG_NOT_HELPFUL = 'Preemption is not helpful for scheduling';
const MSG_NO_VICTIMS = 'No preemption victims found for incoming pod';
const MSG_NEVER = 'not eligible due to preemptionPolicy=Never.';
const MSG_TERMINATING = 'not eligible due to a terminating pod on the nominated node.';

/** A node where preemption would work, with the pods to evict (most important first). */
export interface Candidate {
	name: string;
	victims: Pod[];
	numPDBViolations: number;
}

/** podTerminatingByPreemption: the pod is being deleted because the scheduler preempted it. */
function podTerminatingByPreemption(pod: Pod): boolean {
	if (!pod.metadata.deletionTimestamp) return false;
	return (pod.status?.conditions ?? []).some((c) => c.type === 'DisruptionTarget' && c.status === 'True' && c.reason === 'PreemptionByScheduler');
}

/** MoreImportantPod: higher priority, then earlier start time. */
export function moreImportantPod(a: Pod, b: Pod): boolean {
	const p1 = podPriority(a);
	const p2 = podPriority(b);
	if (p1 !== p2) return p1 > p2;
	const t1 = a.status?.startTime;
	const t2 = b.status?.startTime;
	if (!t1) return false;
	if (!t2) return true;
	return t1 < t2;
}

export class DefaultPreemption implements PostFilterPlugin {
	readonly name = Names.DefaultPreemption;
	private readonly args: Required<DefaultPreemptionArgs>;

	constructor(
		rawArgs: DefaultPreemptionArgs | undefined,
		private readonly handle: Handle,
	) {
		this.args = defaultPreemptionArgs(rawArgs);
		const errors: string[] = [];
		const { minCandidateNodesPercentage: pct, minCandidateNodesAbsolute: abs } = this.args;
		if (pct < 0 || pct > 100) errors.push(invalid('minCandidateNodesPercentage', pct, 'not in valid range [0, 100]'));
		if (abs < 0) errors.push(invalid('minCandidateNodesAbsolute', abs, 'not in valid range [0, inf)'));
		if (pct === 0 && abs === 0) errors.push(invalid('minCandidateNodesPercentage', pct, 'cannot be zero at the same time as minCandidateNodesAbsolute'));
		if (errors.length) throw new ArgsError(errors);
	}

	postFilter(state: CycleState, pod: Pod, m: NodeToStatus): { result?: PostFilterResult; status: Status } {
		const { result, status } = this.preempt(state, pod, m);
		const msg = status.message();
		if (msg) return { result, status: new Status(status.code, [`preemption: ${msg}`]) };
		return { result, status };
	}

	/** Evaluator.Preempt. */
	preempt(state: CycleState, podIn: Pod, m: NodeToStatus): { result?: PostFilterResult; status: Status } {
		// 0) The latest version of the pod.
		const pod = this.handle.listers.pod(podKey(podIn)) ?? podIn;
		// 1) May it preempt at all?
		const eligible = this.podEligibleToPreemptOthers(pod, m.get(pod.status?.nominatedNodeName ?? ''));
		if (eligible !== true) return { status: new Status(Code.Unschedulable, [eligible]) };
		// 2) Find the candidates.
		const allNodes = this.handle.snapshot.list();
		if (allNodes.length === 0) return { status: Status.asError('no nodes available') };
		const { candidates, nodeToStatus } = this.findCandidates(state, allNodes, pod, m);
		if (candidates.length === 0) {
			nodeToStatus.setAbsentNodesStatus(new Status(Code.UnschedulableAndUnresolvable, [MSG_NOT_HELPFUL]));
			const diagnosis = newDiagnosis();
			diagnosis.nodeToStatus.setAbsentNodesStatus(nodeToStatus.absentNodesStatus());
			for (const [name, s] of nodeToStatus.entries()) diagnosis.nodeToStatus.set(name, s);
			const fitError = new FitError(allNodes.length, diagnosis);
			return { result: { nominatingInfo: { nominatedNodeName: '', mode: 'Override' } }, status: new Status(Code.Unschedulable, [fitError.message()]) };
		}
		// 4) Pick the best candidate.
		const best = this.selectCandidate(candidates);
		// 5) Evict its victims.
		const prepared = this.prepareCandidate(best, pod);
		if (!isSuccess(prepared)) return { status: prepared! };
		return { result: { nominatingInfo: { nominatedNodeName: best.name, mode: 'Override' } }, status: new Status(Code.Success) };
	}

	/** PodEligibleToPreemptOthers: true, or the reason it may not. */
	podEligibleToPreemptOthers(pod: Pod, nominatedNodeStatus: Status): true | string {
		if (pod.spec.preemptionPolicy === 'Never') return MSG_NEVER;
		const nominated = pod.status?.nominatedNodeName;
		if (nominated) {
			// A nominated node that no longer fits at all is worth preempting on again.
			if (nominatedNodeStatus.code === Code.UnschedulableAndUnresolvable) return true;
			const nodeInfo = this.handle.snapshot.get(nominated);
			if (nodeInfo) {
				const priority = podPriority(pod);
				for (const p of nodeInfo.pods) if (podPriority(p.pod) < priority && podTerminatingByPreemption(p.pod)) return MSG_TERMINATING;
			}
		}
		return true;
	}

	/** calculateNumCandidates: max(nodes × percentage / 100, absolute), at most the node count. */
	calculateNumCandidates(numNodes: number): number {
		let n = Math.trunc((numNodes * this.args.minCandidateNodesPercentage) / 100);
		if (n < this.args.minCandidateNodesAbsolute) n = this.args.minCandidateNodesAbsolute;
		if (n > numNodes) n = numNodes;
		return n;
	}

	/** findCandidates: dry-run preemption on the nodes whose rejection was merely Unschedulable. */
	private findCandidates(state: CycleState, allNodes: NodeInfo[], pod: Pod, m: NodeToStatus): { candidates: Candidate[]; nodeToStatus: NodeToStatus } {
		const potential = allNodes.filter((n) => m.get(n.name).code === Code.Unschedulable);
		if (potential.length === 0) return { candidates: [], nodeToStatus: new NodeToStatus() };
		const offset = this.handle.random(potential.length);
		return this.dryRunPreemption(state, pod, potential, offset, this.calculateNumCandidates(potential.length));
	}

	/** DryRunPreemption: from a random offset, until enough candidates are found. */
	private dryRunPreemption(state: CycleState, pod: Pod, potential: NodeInfo[], offset: number, candidatesNum: number): { candidates: Candidate[]; nodeToStatus: NodeToStatus } {
		const candidates: Candidate[] = [];
		const nodeToStatus = new NodeToStatus();
		for (let i = 0; i < potential.length; i++) {
			const nodeInfoCopy = potential[(offset + i) % potential.length].clone();
			const stateCopy = state.clone();
			const { victims, numPDBViolations, status } = this.selectVictimsOnNode(stateCopy, pod, nodeInfoCopy);
			if (isSuccess(status) && victims.length > 0) {
				candidates.push({ name: nodeInfoCopy.name, victims, numPDBViolations });
				if (candidates.length >= candidatesNum) break;
				continue;
			}
			nodeToStatus.set(nodeInfoCopy.name, isSuccess(status) ? Status.asError(`expected at least one victim pod on node "${nodeInfoCopy.name}"`) : status!);
		}
		return { candidates, nodeToStatus };
	}

	/**
	 * SelectVictimsOnNode: remove every lower-priority pod; if the pod then
	 * fits, add them back one by one, most important first, keeping each
	 * that still leaves room (a reprieve); the rest are the victims.
	 */
	selectVictimsOnNode(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { victims: Pod[]; numPDBViolations: number; status?: Status } {
		const runner = this.handle.framework!;
		const potentialVictims: PodInfo[] = [];
		const removePod = (pi: PodInfo) => {
			nodeInfo.removePod(pi.key);
			return runner.runPreFilterExtensionRemovePod(state, pod, pi, nodeInfo);
		};
		const addPod = (pi: PodInfo) => {
			nodeInfo.addPodInfo(pi);
			return runner.runPreFilterExtensionAddPod(state, pod, pi, nodeInfo);
		};
		const priority = podPriority(pod);
		for (const pi of [...nodeInfo.pods]) {
			if (podPriority(pi.pod) < priority) {
				potentialVictims.push(pi);
				const s = removePod(pi);
				if (!isSuccess(s)) return { victims: [], numPDBViolations: 0, status: s };
			}
		}
		if (potentialVictims.length === 0) return { victims: [], numPDBViolations: 0, status: new Status(Code.UnschedulableAndUnresolvable, [MSG_NO_VICTIMS]) };
		const fits = runner.runFilterPluginsWithNominatedPods(state, pod, nodeInfo);
		if (!isSuccess(fits)) return { victims: [], numPDBViolations: 0, status: fits };
		potentialVictims.sort((a, b) => (moreImportantPod(a.pod, b.pod) ? -1 : moreImportantPod(b.pod, a.pod) ? 1 : 0));
		// Reprieve the victims that would break a budget first, then the others, most important first within each.
		const { violating, nonViolating } = filterPodsWithPDBViolation(potentialVictims, this.handle.listers.podDisruptionBudgets());
		const victims: Pod[] = [];
		let numPDBViolations = 0;
		const reprieve = (pi: PodInfo): { fits: boolean; status?: Status } => {
			const added = addPod(pi);
			if (!isSuccess(added)) return { fits: false, status: added };
			if (isSuccess(runner.runFilterPluginsWithNominatedPods(state, pod, nodeInfo))) return { fits: true };
			const removed = removePod(pi);
			if (!isSuccess(removed)) return { fits: false, status: removed };
			victims.push(pi.pod);
			return { fits: false };
		};
		for (const pi of violating) {
			const r = reprieve(pi);
			if (r.status) return { victims: [], numPDBViolations: 0, status: r.status };
			if (!r.fits) numPDBViolations++;
		}
		for (const pi of nonViolating) {
			const r = reprieve(pi);
			if (r.status) return { victims: [], numPDBViolations: 0, status: r.status };
		}
		return { victims, numPDBViolations, status: new Status(Code.Success) };
	}

	/** SelectCandidate via pickOneNodeForPreemption's ordered criteria. */
	selectCandidate(candidates: Candidate[]): Candidate {
		if (candidates.length === 1) return candidates[0];
		const earliestStart = (c: Candidate) => {
			const top = podPriority(c.victims[0]);
			let earliest: string | undefined;
			for (const v of c.victims) {
				if (podPriority(v) !== top || !v.status?.startTime) continue;
				if (!earliest || v.status.startTime < earliest) earliest = v.status.startTime;
			}
			return earliest;
		};
		const scoreFuncs: Array<(c: Candidate) => number | string> = [
			(c) => -c.numPDBViolations,
			(c) => -podPriority(c.victims[0]),
			// Priorities shifted by MaxInt32+1 so they are all ≥ 0 before summing.
			(c) => -c.victims.reduce((sum, v) => sum + podPriority(v) + 2147483648, 0),
			(c) => -c.victims.length,
			// The later the earliest start among the most important victims, the better; none counts as earliest.
			(c) => earliestStart(c) ?? '',
		];
		let remaining = candidates;
		for (const f of scoreFuncs) {
			let best: number | string | undefined;
			let selected: Candidate[] = [];
			for (const c of remaining) {
				const score = f(c);
				if (best === undefined || score > best) {
					best = score;
					selected = [];
				}
				if (score === best) selected.push(c);
			}
			if (selected.length === 1) return selected[0];
			remaining = selected;
		}
		return remaining[0];
	}

	/** prepareCandidate: mark and delete each victim, then clear lower-priority nominations on the node. */
	private prepareCandidate(c: Candidate, preemptor: Pod): Status | undefined {
		const client = this.handle.client;
		const now = formatRfc3339(this.handle.wallMs());
		for (const victim of c.victims) {
			const condition: PodCondition = {
				type: 'DisruptionTarget',
				status: 'True',
				lastProbeTime: null,
				lastTransitionTime: now,
				reason: 'PreemptionByScheduler',
				message: `${preemptor.spec.schedulerName ?? 'default-scheduler'}: preempting to accommodate a higher priority pod`,
			};
			const ns = victim.metadata.namespace ?? 'default';
			const name = victim.metadata.name ?? '';
			const patched = client.patch(R.pods, ns, name, { status: { conditions: [condition] } }, 'application/strategic-merge-patch+json', 'status');
			if (!patched.ok && patched.code !== 404) return Status.asError(patched.message);
			const deleted = client.delete(R.pods, ns, name);
			if (!deleted.ok && deleted.code !== 404) return Status.asError(deleted.message);
			this.handle.recordEvent(victim, preemptor, 'Normal', 'Preempted', 'Preempting', `Preempted by pod ${preemptor.metadata.uid ?? ''} on node ${c.name}`);
		}
		const priority = podPriority(preemptor);
		for (const pi of this.handle.nominator.nominatedPodsForNode(c.name)) {
			if (podPriority(pi.pod) >= priority) continue;
			client.patch(R.pods, pi.pod.metadata.namespace ?? 'default', pi.pod.metadata.name ?? '', { status: { nominatedNodeName: null } }, 'application/merge-patch+json', 'status');
		}
		return undefined;
	}
}
