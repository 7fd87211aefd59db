/**
 * Why a pod fits nowhere: the per-node statuses collected while filtering
 * (NodeToStatus, Diagnosis) and the message built from them, which becomes
 * the FailedScheduling event and the PodScheduled condition's message.
 *
 * The message layout is upstream's:
 *   0/<all nodes> nodes are available: <PreFilterMsg>. <FilterMsg>. <PostFilterMsg>
 * where FilterMsg counts each reason over the nodes, formats `<count>
 * <reason>`, sorts those strings (Go's sort.Strings, byte order) and joins
 * them with ", ". The PreFilter message replaces the filter histogram when
 * PreFilter already rejected the pod.
 *
 * Mirrors pkg/scheduler/framework/types.go (FitError, Diagnosis),
 * staging/src/k8s.io/kube-scheduler/framework/interface.go (NodeToStatus).
 */
import { Code, Status } from './status.ts';

/** NoNodeAvailableMsg. */
const NO_NODE_AVAILABLE_MSG = '0/%v nodes are available';
/** ErrNoNodesAvailable's text (schedule_one.go). */
export const ERR_NO_NODES_AVAILABLE = 'no nodes available to schedule pods';

/**
 * framework.NodeToStatus: the status of each node that was examined, and
 * the status that stands for every node that was not (absent nodes), which
 * by default is UnschedulableAndUnresolvable without a reason.
 */
export class NodeToStatus {
	private readonly statuses = new Map<string, Status>();
	private absent: Status = new Status(Code.UnschedulableAndUnresolvable);

	get(nodeName: string): Status {
		return this.statuses.get(nodeName) ?? this.absent;
	}

	set(nodeName: string, status: Status): void {
		this.statuses.set(nodeName, status);
	}

	/** The explicitly recorded statuses, in the order they were recorded. */
	entries(): Array<[string, Status]> {
		return [...this.statuses];
	}

	get size(): number {
		return this.statuses.size;
	}

	absentNodesStatus(): Status {
		return this.absent;
	}

	setAbsentNodesStatus(status: Status): void {
		this.absent = status;
	}

	/** NodesForStatusCode: every node (of `allNodes`) whose status has `code`. */
	nodesForStatusCode(allNodes: string[], code: Code): string[] {
		return allNodes.filter((n) => this.get(n).code === code);
	}
}

/** framework.Diagnosis. */
export interface Diagnosis {
	nodeToStatus: NodeToStatus;
	/** Plugins that rejected the pod somewhere (used by queueing hints). */
	unschedulablePlugins: Set<string>;
	pendingPlugins: Set<string>;
	preFilterMsg: string;
	postFilterMsg: string;
}

export function newDiagnosis(): Diagnosis {
	return { nodeToStatus: new NodeToStatus(), unschedulablePlugins: new Set(), pendingPlugins: new Set(), preFilterMsg: '', postFilterMsg: '' };
}

/** Diagnosis.AddPluginStatus: remember which plugin rejected the pod. */
export function addPluginStatus(d: Diagnosis, status: Status): void {
	if (!status.plugin) return;
	if (status.code === Code.Unschedulable || status.code === Code.UnschedulableAndUnresolvable || status.code === Code.Pending) d.unschedulablePlugins.add(status.plugin);
	if (status.code === Code.Pending) d.pendingPlugins.add(status.plugin);
}

/** Go's sort.Strings compares bytes; for the ASCII reasons here, UTF-16 order is the same, but compare code points to be safe. */
function compareGoStrings(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/** The `<count> <reason>` histogram of FitError.Error(), sorted and joined. */
function reasonHistogram(nodeToStatus: NodeToStatus, numAllNodes: number): string {
	const counts = new Map<string, number>();
	for (const [, status] of nodeToStatus.entries()) for (const reason of status.allReasons()) counts.set(reason, (counts.get(reason) ?? 0) + 1);
	if (nodeToStatus.size < numAllNodes) {
		for (const reason of nodeToStatus.absentNodesStatus().allReasons()) counts.set(reason, (counts.get(reason) ?? 0) + numAllNodes - nodeToStatus.size);
	}
	return [...counts]
		.map(([reason, n]) => `${n} ${reason}`)
		.sort(compareGoStrings)
		.join(', ');
}

/** framework.FitError: the pod fits on none of `numAllNodes` nodes. */
export class FitError {
	constructor(
		readonly numAllNodes: number,
		readonly diagnosis: Diagnosis,
	) {}

	/** FitError.Error(). */
	message(): string {
		let msg = `${NO_NODE_AVAILABLE_MSG.replace('%v', String(this.numAllNodes))}:`;
		const preFilterMsg = this.diagnosis.preFilterMsg;
		if (preFilterMsg !== '') {
			msg += ` ${preFilterMsg}.`;
		} else {
			const histogram = reasonHistogram(this.diagnosis.nodeToStatus, this.numAllNodes);
			if (histogram !== '') msg += ` ${histogram}.`;
		}
		// The PostFilter message is appended as is (it carries its own final period).
		if (this.diagnosis.postFilterMsg !== '') msg += ` ${this.diagnosis.postFilterMsg}`;
		return msg;
	}
}

/** validation.NoteLengthLimit: an event message longer than this is cut (schedule_one.go truncateMessage). */
const NOTE_LENGTH_LIMIT = 1024;

/** truncateMessage: cut to 1024 characters, ending with " ...". */
export function truncateMessage(message: string): string {
	if (message.length <= NOTE_LENGTH_LIMIT) return message;
	const suffix = ' ...';
	return message.slice(0, NOTE_LENGTH_LIMIT - suffix.length) + suffix;
}
