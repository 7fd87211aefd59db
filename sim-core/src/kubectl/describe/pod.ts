/**
 * `kubectl describe pod`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go (PodDescriber,
 * describePod, describePodIPs),
 * staging/src/k8s.io/kubectl/pkg/util/qos/qos.go (GetPodQOS, ComputePodQOS),
 * staging/src/k8s.io/component-helpers/resource/helpers.go (PodRequests,
 * PodLimits, which the node describer sums).
 */
import type { Container, KubeObject, Pod } from '../../api/types.ts';
import type { Quantity } from '../../api/quantity.ts';
import { translateTimestampSince } from '../printers/table-columns.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printController, printLabelsMultiline, printTolerationsMultiline, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeContainers, describeResources, describeTopologySpreadConstraints, describeVolumes, envResolver } from './containers.ts';
import { describeEvents, searchEvents } from './events.ts';
import { computePodQOS } from '../../component-helpers/qos.ts';
import { podLimits, podRequests } from '../../component-helpers/resource.ts';

type ResourceList = Map<string, Quantity>;

/** GetPodQOS: the class the API server recorded, else computed. */
function podQOS(pod: Pod): string {
	return pod.status?.qosClass || computePodQOS(pod.spec);
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
	if (spec.ephemeralContainers?.length) describeContainers('Ephemeral Containers', spec.ephemeralContainers, status.ephemeralContainerStatuses, resolve, w, '');
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

/** What a pod requests or limits in all (resourcehelper.PodRequests / PodLimits, as describe's resource tables use them). */
export function podResourceTotals(pod: Pod, which: 'requests' | 'limits'): ResourceList {
	return which === 'requests' ? podRequests(pod.spec) : podLimits(pod.spec);
}
