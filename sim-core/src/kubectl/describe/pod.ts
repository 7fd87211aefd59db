/**
 * `kubectl describe pod`. Mirrors k8s.io/kubectl/pkg/describe/describe.go
 * (PodDescriber, describePod, describePodIPs), pkg/util/qos (GetPodQOS,
 * ComputePodQOS) and the effective requests and limits of
 * k8s.io/component-helpers/resource (PodRequests, PodLimits) that the node
 * describer sums.
 */
import type { Container, KubeObject, Pod } from '../../api/types.ts';
import type { Quantity } from '../../api/quantity.ts';
import { isRestartableInitContainer } from '../printers/table-pods.ts';
import { translateTimestampSince } from '../printers/table-columns.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printController, printLabelsMultiline, printTolerationsMultiline, quantity, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeContainers, describeResources, describeTopologySpreadConstraints, describeVolumes, envResolver } from './containers.ts';
import { describeEvents, searchEvents } from './events.ts';

type ResourceList = Map<string, Quantity>;

/** QoS only looks at cpu and memory (qos.go supportedQoSComputeResources). */
const QOS_RESOURCES = new Set(['cpu', 'memory']);

/** ComputePodQOS: Guaranteed when every container limits cpu and memory at its requests, BestEffort with no cpu or memory at all, else Burstable. */
export function computePodQOS(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
	const requests: ResourceList = new Map();
	const limits: ResourceList = new Map();
	let isGuaranteed = true;
	const add = (list: ResourceList, from: Record<string, string | number> | undefined) => {
		for (const [name, value] of Object.entries(from ?? {})) {
			if (!QOS_RESOURCES.has(name)) continue;
			const q = quantity(value);
			if (q.sign() !== 1) continue;
			const prev = list.get(name);
			list.set(name, prev ? q.add(prev) : q);
		}
	};
	const limitsCoverBoth = (from: Record<string, string | number> | undefined) => ['cpu', 'memory'].every((name) => quantity((from ?? {})[name]).sign() === 1);
	const podResources = pod.spec?.resources as { requests?: Record<string, string>; limits?: Record<string, string> } | undefined;
	if (podResources) {
		add(requests, podResources.requests);
		if (podResources.limits) {
			add(limits, podResources.limits);
			if (!limitsCoverBoth(podResources.limits)) isGuaranteed = false;
		}
	} else {
		for (const c of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
			add(requests, c.resources?.requests);
			add(limits, c.resources?.limits);
			if (!limitsCoverBoth(c.resources?.limits)) isGuaranteed = false;
		}
	}
	if (requests.size === 0 && limits.size === 0) return 'BestEffort';
	if (isGuaranteed) {
		for (const [name, req] of requests) {
			const lim = limits.get(name);
			if (!lim || lim.cmp(req) !== 0) {
				isGuaranteed = false;
				break;
			}
		}
	}
	return isGuaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** GetPodQOS: the class the API server recorded, else computed. */
export function podQOS(pod: Pod): string {
	return pod.status?.qosClass || computePodQOS(pod);
}

function addInto(into: ResourceList, from: Record<string, string | number> | ResourceList | undefined): void {
	const entries = from instanceof Map ? [...from.entries()] : Object.entries(from ?? {}).map(([k, v]) => [k, quantity(v)] as const);
	for (const [name, q] of entries) {
		const prev = into.get(name);
		into.set(name, prev ? prev.add(q) : q);
	}
}

function maxInto(into: ResourceList, from: ResourceList): void {
	for (const [name, q] of from) {
		const prev = into.get(name);
		if (!prev || q.cmp(prev) > 0) into.set(name, q);
	}
}

/**
 * PodRequests / PodLimits: the sum over regular containers and sidecars,
 * raised to what any init container needs while it runs (with the sidecars
 * started before it), plus the pod overhead (for limits only where a limit
 * exists). Pod-level resources win when set.
 */
export function podResourceTotals(pod: Pod, which: 'requests' | 'limits'): ResourceList {
	const podLevel = (pod.spec?.resources as Record<string, Record<string, string>> | undefined)?.[which];
	const total: ResourceList = new Map();
	if (podLevel && Object.keys(podLevel).length > 0) {
		addInto(total, podLevel);
		return total;
	}
	const of = (c: Container) => (which === 'requests' ? c.resources?.requests : c.resources?.limits);
	for (const c of pod.spec?.containers ?? []) addInto(total, of(c));
	const sidecars: ResourceList = new Map();
	const initMax: ResourceList = new Map();
	for (const c of pod.spec?.initContainers ?? []) {
		let needs: ResourceList;
		if (isRestartableInitContainer(c)) {
			addInto(total, of(c));
			addInto(sidecars, of(c));
			needs = new Map(sidecars);
		} else {
			needs = new Map();
			addInto(needs, of(c));
			addInto(needs, sidecars);
		}
		maxInto(initMax, needs);
	}
	maxInto(total, initMax);
	const overhead = (pod.spec?.overhead as Record<string, string> | undefined) ?? {};
	for (const [name, value] of Object.entries(overhead)) {
		if (which === 'requests') addInto(total, { [name]: value });
		else if (total.has(name)) addInto(total, { [name]: value });
	}
	return total;
}

/** describePod. */
export function describePod(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const pod = obj as Pod;
	const spec = pod.spec ?? { containers: [] };
	const status = pod.status ?? {};
	// The pod's events are searched without a kind (ref.Kind is cleared); mirror pods use their mirror's uid.
	const mirrorUid = pod.metadata.annotations?.['kubernetes.io/config.mirror'];
	const events = ctx.showEvents ? searchEvents(ctx, { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', uid: mirrorUid ?? pod.metadata.uid }) : undefined;
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${pod.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${pod.metadata.namespace ?? ''}\n`);
	if (typeof spec.priority === 'number') w.write(LEVEL_0, `Priority:\t${spec.priority}\n`);
	if (spec.priorityClassName) w.write(LEVEL_0, `Priority Class Name:\t${spec.priorityClassName}\n`);
	if (typeof spec.runtimeClassName === 'string' && spec.runtimeClassName) w.write(LEVEL_0, `Runtime Class Name:\t${spec.runtimeClassName}\n`);
	if (spec.serviceAccountName) w.write(LEVEL_0, `Service Account:\t${spec.serviceAccountName}\n`);
	w.write(LEVEL_0, spec.nodeName ? `Node:\t${spec.nodeName}/${status.hostIP ?? ''}\n` : 'Node:\t<none>\n');
	if (status.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
	printLabelsMultiline(w, 'Labels', pod.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', pod.metadata.annotations);
	if (pod.metadata.deletionTimestamp && status.phase !== 'Failed' && status.phase !== 'Succeeded') {
		w.write(LEVEL_0, `Status:\tTerminating (lasts ${translateTimestampSince(pod.metadata.deletionTimestamp, ctx.nowMs)})\n`);
		w.write(LEVEL_0, `Termination Grace Period:\t${pod.metadata.deletionGracePeriodSeconds ?? 0}s\n`);
	} else w.write(LEVEL_0, `Status:\t${status.phase ?? ''}\n`);
	if (status.reason) w.write(LEVEL_0, `Reason:\t${status.reason}\n`);
	if (status.message) w.write(LEVEL_0, `Message:\t${status.message}\n`);
	const seccomp = (spec.securityContext as { seccompProfile?: { type?: string; localhostProfile?: string } } | undefined)?.seccompProfile;
	if (seccomp) {
		w.write(LEVEL_0, `SeccompProfile:\t${seccomp.type ?? ''}\n`);
		if (seccomp.type === 'Localhost') w.write(LEVEL_0, `LocalhostProfile:\t${seccomp.localhostProfile ?? ''}\n`);
	}
	w.write(LEVEL_0, `IP:\t${status.podIP ?? ''}\n`);
	if (!status.podIPs?.length) w.write(LEVEL_0, 'IPs:\t<none>\n');
	else {
		w.write(LEVEL_0, 'IPs:\n');
		for (const ip of status.podIPs) w.write(LEVEL_1, `IP:\t${ip.ip}\n`);
	}
	const controlledBy = printController(pod);
	if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
	if (status.nominatedNodeName) w.write(LEVEL_0, `NominatedNodeName:\t${status.nominatedNodeName}\n`);
	if (spec.resources) {
		w.write(LEVEL_0, 'Resources:\n');
		describeResources(spec.resources as Container['resources'], w, LEVEL_1);
	}
	const resolve = envResolver(pod);
	if (spec.initContainers?.length) describeContainers('Init Containers', spec.initContainers, status.initContainerStatuses, resolve, w, '');
	describeContainers('Containers', spec.containers ?? [], status.containerStatuses, resolve, w, '');
	const gates = (spec.readinessGates as Array<{ conditionType: string }> | undefined) ?? [];
	if (gates.length) {
		w.write(LEVEL_0, 'Readiness Gates:\n  Type\tStatus\n');
		for (const g of gates) {
			const condition = (status.conditions ?? []).find((c) => c.type === g.conditionType);
			w.write(LEVEL_1, `${g.conditionType} \t${condition ? condition.status : '<none>'} \n`);
		}
	}
	if (status.conditions?.length) {
		w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\n');
		for (const c of status.conditions) w.write(LEVEL_1, `${c.type} \t${c.status} \n`);
	}
	describeVolumes(spec.volumes, w, '');
	w.write(LEVEL_0, `QoS Class:\t${podQOS(pod)}\n`);
	printLabelsMultiline(w, 'Node-Selectors', spec.nodeSelector);
	printTolerationsMultiline(w, 'Tolerations', spec.tolerations);
	describeTopologySpreadConstraints(spec.topologySpreadConstraints, w, '');
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
