/**
 * Cluster events: what changed in the cluster, in the terms plugins use to
 * say which changes could make a rejected pod schedulable again (their
 * EventsToRegister and QueueingHint functions).
 *
 * Mirrors staging/src/k8s.io/kube-scheduler/framework/types.go
 * (ClusterEvent, ActionType, EventResource),
 * pkg/scheduler/framework/events.go (the helpers that turn an object update
 * into the events it amounts to).
 */
import type { KubeObject, Node, Pod } from '../../api/types.ts';
import { podRequests } from '../../component-helpers/resource.ts';

/** fwk.ActionType bits, in upstream's order. */
export const ActionType = {
	Add: 1 << 0,
	Delete: 1 << 1,
	UpdateNodeAllocatable: 1 << 2,
	UpdateNodeLabel: 1 << 3,
	UpdateNodeTaint: 1 << 4,
	UpdateNodeCondition: 1 << 5,
	UpdateNodeAnnotation: 1 << 6,
	UpdatePodLabel: 1 << 7,
	UpdatePodScaleDown: 1 << 8,
	UpdatePodToleration: 1 << 9,
	UpdatePodSchedulingGatesEliminated: 1 << 10,
	UpdatePodGeneratedResourceClaim: 1 << 11,
	UpdatePodOther: 1 << 12,
} as const;

/** fwk.Update: every update bit. */
export const ACTION_UPDATE =
	ActionType.UpdateNodeAllocatable |
	ActionType.UpdateNodeLabel |
	ActionType.UpdateNodeTaint |
	ActionType.UpdateNodeCondition |
	ActionType.UpdateNodeAnnotation |
	ActionType.UpdatePodLabel |
	ActionType.UpdatePodScaleDown |
	ActionType.UpdatePodToleration |
	ActionType.UpdatePodSchedulingGatesEliminated |
	ActionType.UpdatePodGeneratedResourceClaim |
	ActionType.UpdatePodOther;
/** fwk.All: every bit above. */
const ACTION_ALL = ActionType.Add | ActionType.Delete | ACTION_UPDATE;

/**
 * fwk.EventResource. Plugins register `Pod`, which matches events about
 * both assigned and unscheduled pods; the queue emits `AssignedPod` or
 * `UnschedulablePod` (upstream's internal assignedPod / unschedulablePod).
 */
type EventResource = 'Pod' | 'AssignedPod' | 'UnschedulablePod' | 'Node' | 'Namespace' | 'PersistentVolumeClaim' | 'PersistentVolume' | 'StorageClass' | '*';

export interface ClusterEvent {
	resource: EventResource;
	actionType: number;
	/** A fixed label for special events (upstream's ClusterEvent.label), e.g. 'UnschedulableTimeout'. */
	label?: string;
}

/** EventResource.match: `Pod` covers assigned and unscheduled pods; `*` covers everything. */
function resourceMatches(registered: EventResource, incoming: EventResource): boolean {
	return registered === '*' || registered === incoming || (registered === 'Pod' && (incoming === 'AssignedPod' || incoming === 'UnschedulablePod'));
}

/** ClusterEvent.Match. */
export function matchClusterEvents(registered: ClusterEvent, incoming: ClusterEvent): boolean {
	return isWildCard(registered) || (resourceMatches(registered.resource, incoming.resource) && (registered.actionType & incoming.actionType) !== 0);
}

export function isWildCard(event: ClusterEvent): boolean {
	return event.resource === '*' && event.actionType === ACTION_ALL;
}

const ACTION_NAMES = Object.entries(ActionType).map(([name, bit]) => ({ name, bit }));

/** ClusterEvent.Label(): the fixed label, or resource + action, e.g. `NodeAdd`, `AssignedPodDelete`. */
export function eventLabel(event: ClusterEvent): string {
	if (event.label) return event.label;
	if (event.actionType === ACTION_ALL) return `${event.resource}All`;
	const names = ACTION_NAMES.filter((a) => (event.actionType & a.bit) !== 0).map((a) => a.name);
	return `${event.resource}${names.join('|')}`;
}

// Well-known events (pkg/scheduler/framework/events.go).
export const EVENT_NODE_ADD: ClusterEvent = { resource: 'Node', actionType: ActionType.Add };
export const EVENT_NODE_DELETE: ClusterEvent = { resource: 'Node', actionType: ActionType.Delete };
export const EVENT_ASSIGNED_POD_ADD: ClusterEvent = { resource: 'AssignedPod', actionType: ActionType.Add };
export const EVENT_ASSIGNED_POD_DELETE: ClusterEvent = { resource: 'AssignedPod', actionType: ActionType.Delete };
export const EVENT_UNSCHEDULED_POD_ADD: ClusterEvent = { resource: 'UnschedulablePod', actionType: ActionType.Add };
export const EVENT_UNSCHEDULED_POD_UPDATE: ClusterEvent = { resource: 'UnschedulablePod', actionType: ACTION_UPDATE };
export const EVENT_UNSCHEDULED_POD_DELETE: ClusterEvent = { resource: 'UnschedulablePod', actionType: ActionType.Delete };
/** Moves every pod in unschedulablePods that stayed longer than podMaxInUnschedulablePodsDuration. */
export const EVENT_UNSCHEDULABLE_TIMEOUT: ClusterEvent = { resource: '*', actionType: ACTION_ALL, label: 'UnschedulableTimeout' };

/** Queue reasons that are not cluster events (framework.ScheduleAttemptFailure, BackoffComplete...). */
export const SCHEDULE_ATTEMPT_FAILURE = 'ScheduleAttemptFailure';
export const BACKOFF_COMPLETE = 'BackoffComplete';
export const POP_FROM_BACKOFF_Q = 'PopFromBackoffQ';

/** fwk.QueueingHint. */
export enum QueueingHint {
	QueueSkip = 0,
	Queue = 1,
}

/** fwk.QueueingHintFn: may this change make `pod` schedulable? Objects are undefined when absent (add has no old, delete no new). */
type QueueingHintFn = (pod: Pod, oldObj: KubeObject | undefined, newObj: KubeObject | undefined) => QueueingHint;

/** fwk.ClusterEventWithHint; without a hint function the event always requeues. */
export interface ClusterEventWithHint {
	event: ClusterEvent;
	hint?: QueueingHintFn;
}

function sameJson(a: unknown, b: unknown): boolean {
	return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Condition type -> status, the part of node conditions that matters (extractNodeConditionsChange ignores heartbeat times). */
function conditionStatuses(node: Node): Record<string, string> {
	const out: Record<string, string> = {};
	for (const c of node.status?.conditions ?? []) out[c.type] = c.status;
	return out;
}

/**
 * nodeSchedulingPropertiesChange (pkg/scheduler/eventhandlers.go): the
 * events an update of a Node amounts to; heartbeats alone amount to none.
 */
export function nodeSchedulingPropertiesChange(newNode: Node, oldNode: Node): ClusterEvent[] {
	const events: ClusterEvent[] = [];
	const push = (actionType: number) => events.push({ resource: 'Node', actionType });
	if (!!newNode.spec?.unschedulable !== !!oldNode.spec?.unschedulable) push(ActionType.UpdateNodeTaint);
	if (!sameJson(newNode.status?.allocatable, oldNode.status?.allocatable)) push(ActionType.UpdateNodeAllocatable);
	if (!sameJson(newNode.metadata.labels, oldNode.metadata.labels)) push(ActionType.UpdateNodeLabel);
	if (!sameJson(newNode.spec?.taints, oldNode.spec?.taints) && !events.some((e) => e.actionType === ActionType.UpdateNodeTaint)) push(ActionType.UpdateNodeTaint);
	if (!sameJson(conditionStatuses(newNode), conditionStatuses(oldNode))) push(ActionType.UpdateNodeCondition);
	if (!sameJson(newNode.metadata.annotations, oldNode.metadata.annotations)) push(ActionType.UpdateNodeAnnotation);
	return events;
}


/**
 * framework.PodSchedulingPropertiesChange: the events an update of a pod
 * amounts to (label change, scale-down, toleration change, gates removed),
 * or a catch-all "other" update.
 */
export function podSchedulingPropertiesChange(newPod: Pod, oldPod: Pod, resource: EventResource): ClusterEvent[] {
	const events: ClusterEvent[] = [];
	const push = (actionType: number) => events.push({ resource, actionType });
	if (!sameJson(newPod.metadata.labels, oldPod.metadata.labels)) push(ActionType.UpdatePodLabel);
	const oldReq = podRequests(oldPod.spec);
	const newReq = podRequests(newPod.spec);
	for (const [name, value] of oldReq) {
		const now = newReq.get(name);
		if (now === undefined || now.cmp(value) < 0) {
			push(ActionType.UpdatePodScaleDown);
			break;
		}
	}
	if (!sameJson(newPod.spec.tolerations, oldPod.spec.tolerations)) push(ActionType.UpdatePodToleration);
	if ((oldPod.spec.schedulingGates?.length ?? 0) > 0 && (newPod.spec.schedulingGates?.length ?? 0) === 0) push(ActionType.UpdatePodSchedulingGatesEliminated);
	if (events.length === 0) push(ActionType.UpdatePodOther);
	return events;
}
