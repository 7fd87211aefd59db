/**
 * `kubectl describe node`: roles, labels, taints, the node Lease,
 * conditions, addresses, capacity and allocatable, system info, pod CIDRs,
 * the non-terminated pods with their requests and limits as percentages of
 * allocatable, the allocated totals, and the node's events (searched both by
 * uid and by name, as the kubelet records them under the node's name).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (NodeDescriber, describeNode, describeNodeLease, describeNodeResource,
 * getPodsTotalRequestsAndLimits).
 */
import type { KubeList, KubeObject, Lease, Node, Pod } from '../../api/types.ts';
import type { Quantity } from '../../api/quantity.ts';
import { R } from '../../client/client.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { findNodeRoles } from '../printers/table-cluster.ts';
import { translateTimestampSince } from '../printers/table-columns.ts';
import { apiErrorMessage } from '../resource-args.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printLabelsMultiline, printTaintsMultiline, quantity, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeEvents, searchEvents } from './events.ts';
import { podResourceTotals } from './pod.ts';

/** corev1.NamespaceNodeLease: where each kubelet renews its Lease. */
const NAMESPACE_NODE_LEASE = 'kube-node-lease';
/** The standard container resources (IsStandardContainerResourceName); the rest of allocatable is "extended". */
const STANDARD_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/**
 * Go's `int64(float64)` of a percentage: truncated toward zero; a division
 * by a zero allocatable (±Inf or NaN) converts to the smallest int64 on
 * amd64, which is what kubectl then prints.
 */
const percent = (part: number, whole: number) => {
	const value = (part / whole) * 100;
	return Number.isFinite(value) ? String(Math.trunc(value)) : '-9223372036854775808';
};

/** describeNodeLease. */
function describeNodeLease(lease: Lease, w: PrefixWriter): void {
	w.write(LEVEL_0, 'Lease:\n');
	w.write(LEVEL_1, `HolderIdentity:\t${lease.spec?.holderIdentity ?? '<unset>'}\n`);
	w.write(LEVEL_1, `AcquireTime:\t${lease.spec?.acquireTime ? rfc1123z(lease.spec.acquireTime) : '<unset>'}\n`);
	w.write(LEVEL_1, `RenewTime:\t${lease.spec?.renewTime ? rfc1123z(lease.spec.renewTime) : '<unset>'}\n`);
}

/** describeNodeResource: the pods table and the Allocated resources table. */
function describeNodeResource(pods: readonly Pod[], node: Node, w: PrefixWriter, nowMs: number): void {
	w.write(LEVEL_0, `Non-terminated Pods:\t(${pods.length} in total)\n`);
	w.write(LEVEL_1, 'Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n');
	w.write(LEVEL_1, '---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n');
	const allocatable: Record<string, string> = Object.keys(node.status?.allocatable ?? {}).length > 0 ? (node.status?.allocatable ?? {}) : (node.status?.capacity ?? {});
	const cpuAllocatable = quantity(allocatable.cpu).milliValue();
	const memoryAllocatable = quantity(allocatable.memory).value();
	const get = (list: Map<string, Quantity>, name: string) => list.get(name) ?? quantity(undefined);
	for (const pod of pods) {
		const req = podResourceTotals(pod, 'requests');
		const limit = podResourceTotals(pod, 'limits');
		const cpuReq = get(req, 'cpu');
		const cpuLimit = get(limit, 'cpu');
		const memReq = get(req, 'memory');
		const memLimit = get(limit, 'memory');
		w.write(
			LEVEL_1,
			`${pod.metadata.namespace ?? ''}\t${pod.metadata.name ?? ''}\t\t${cpuReq.toString()} (${percent(cpuReq.milliValue(), cpuAllocatable)}%)\t${cpuLimit.toString()} (${percent(cpuLimit.milliValue(), cpuAllocatable)}%)\t` +
				`${memReq.toString()} (${percent(memReq.value(), memoryAllocatable)}%)\t${memLimit.toString()} (${percent(memLimit.value(), memoryAllocatable)}%)\t${translateTimestampSince(pod.metadata.creationTimestamp, nowMs)}\n`,
		);
	}
	w.write(LEVEL_0, 'Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n');
	w.write(LEVEL_1, 'Resource\tRequests\tLimits\n');
	w.write(LEVEL_1, '--------\t--------\t------\n');
	const reqs = new Map<string, Quantity>();
	const limits = new Map<string, Quantity>();
	for (const pod of pods) {
		for (const [name, q] of podResourceTotals(pod, 'requests')) reqs.set(name, reqs.has(name) ? (reqs.get(name) as Quantity).add(q) : q);
		for (const [name, q] of podResourceTotals(pod, 'limits')) limits.set(name, limits.has(name) ? (limits.get(name) as Quantity).add(q) : q);
	}
	const row = (name: string, whole: number, milli: boolean) => {
		const r = get(reqs, name);
		const l = get(limits, name);
		const value = (q: Quantity) => (milli ? q.milliValue() : q.value());
		const pr = whole !== 0 ? percent(value(r), whole) : 0;
		const pl = whole !== 0 ? percent(value(l), whole) : 0;
		w.write(LEVEL_1, `${name}\t${r.toString()} (${pr}%)\t${l.toString()} (${pl}%)\n`);
	};
	row('cpu', cpuAllocatable, true);
	row('memory', memoryAllocatable, false);
	row('ephemeral-storage', quantity(allocatable['ephemeral-storage']).value(), false);
	const names = Object.keys(allocatable).sort(compareGoStrings);
	for (const name of names.filter((n) => n.startsWith('hugepages-'))) row(name, quantity(allocatable[name]).value(), false);
	for (const name of names.filter((n) => !n.startsWith('hugepages-') && !STANDARD_RESOURCES.has(n) && n !== 'pods')) {
		w.write(LEVEL_1, `${name}\t${get(reqs, name).toString()}\t${get(limits, name).toString()}\n`);
	}
}

/** describeNode. */
export function describeNode(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const node = obj as Node;
	const name = node.metadata.name ?? '';
	// Pods on the node that have not finished (a field selector the pod strategy serves).
	let pods: Pod[] | undefined;
	const listed = ctx.client.list<Pod>(R.pods, undefined, { fieldSelector: `spec.nodeName=${name},status.phase!=Succeeded,status.phase!=Failed` });
	if (listed.ok) pods = (listed.object as KubeList<Pod>).items ?? [];
	else if (listed.code !== 403) return { ok: false, error: apiErrorMessage(listed, ctx.serverUrl) };
	let events: ReturnType<typeof searchEvents>;
	if (ctx.showEvents) {
		// The node controller records events under the node's uid, the kubelet under its name.
		const byUid = searchEvents(ctx, { name, namespace: '', kind: 'Node', uid: node.metadata.uid });
		const byName = searchEvents(ctx, { name, namespace: '', kind: 'Node', uid: name });
		events = byUid ? [...byUid, ...(byName ?? [])] : undefined;
	}
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${name}\n`);
	const roles = findNodeRoles(node);
	w.write(LEVEL_0, `Roles:\t${roles.length ? roles.join(',') : '<none>'}\n`);
	printLabelsMultiline(w, 'Labels', node.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', node.metadata.annotations);
	w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(node.metadata.creationTimestamp)}\n`);
	printTaintsMultiline(w, 'Taints', node.spec?.taints);
	w.write(LEVEL_0, `Unschedulable:\t${node.spec?.unschedulable === true}\n`);
	const lease = ctx.client.get<Lease>(R.leases, NAMESPACE_NODE_LEASE, name);
	if (lease.ok) describeNodeLease(lease.object, w);
	else w.write(LEVEL_0, `Lease:\tFailed to get lease: ${lease.message}\n`);
	const conditions = node.status?.conditions ?? [];
	if (conditions.length) {
		w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n');
		w.write(LEVEL_1, '----\t------\t-----------------\t------------------\t------\t-------\n');
		for (const c of conditions) {
			w.write(LEVEL_1, `${c.type} \t${c.status} \t${rfc1123z(c.lastHeartbeatTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
		}
	}
	w.write(LEVEL_0, 'Addresses:\n');
	for (const address of node.status?.addresses ?? []) w.write(LEVEL_1, `${address.type}:\t${address.address}\n`);
	const printResourceList = (list: Record<string, string>) => {
		for (const key of Object.keys(list).sort(compareGoStrings)) w.write(LEVEL_0, `  ${key}:\t${quantity(list[key]).toString()}\n`);
	};
	if (Object.keys(node.status?.capacity ?? {}).length) {
		w.write(LEVEL_0, 'Capacity:\n');
		printResourceList(node.status?.capacity ?? {});
	}
	if (Object.keys(node.status?.allocatable ?? {}).length) {
		w.write(LEVEL_0, 'Allocatable:\n');
		printResourceList(node.status?.allocatable ?? {});
	}
	const info = node.status?.nodeInfo;
	w.write(LEVEL_0, 'System Info:\n');
	w.write(LEVEL_0, `  Machine ID:\t${info?.machineID ?? ''}\n`);
	w.write(LEVEL_0, `  System UUID:\t${info?.systemUUID ?? ''}\n`);
	w.write(LEVEL_0, `  Boot ID:\t${info?.bootID ?? ''}\n`);
	w.write(LEVEL_0, `  Kernel Version:\t${info?.kernelVersion ?? ''}\n`);
	w.write(LEVEL_0, `  OS Image:\t${info?.osImage ?? ''}\n`);
	w.write(LEVEL_0, `  Operating System:\t${info?.operatingSystem ?? ''}\n`);
	w.write(LEVEL_0, `  Architecture:\t${info?.architecture ?? ''}\n`);
	w.write(LEVEL_0, `  Container Runtime Version:\t${info?.containerRuntimeVersion ?? ''}\n`);
	w.write(LEVEL_0, `  Kubelet Version:\t${info?.kubeletVersion ?? ''}\n`);
	if (node.spec?.podCIDR) w.write(LEVEL_0, `PodCIDR:\t${node.spec.podCIDR}\n`);
	if (node.spec?.podCIDRs?.length) w.write(LEVEL_0, `PodCIDRs:\t${node.spec.podCIDRs.join(',')}\n`);
	if (node.spec?.providerID) w.write(LEVEL_0, `ProviderID:\t${node.spec.providerID}\n`);
	if (pods) describeNodeResource(pods, node, w, ctx.nowMs);
	else w.write(LEVEL_0, 'Pods:\tnot authorized\n');
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
