/**
 * What the Endpoints controller and the EndpointSlice controller both ask
 * about Services and Pods: which Services select a Pod, whether a Pod
 * belongs in endpoints at all, what its endpoint's readiness is, whether it
 * gets a hostname, which container port a Service port resolves to, which
 * Services a Pod update concerns, when two endpoints are the same, and the
 * `endpoints.kubernetes.io/last-change-trigger-time` both write.
 *
 * Upstream this was pkg/controller/util/endpoint; it now lives in
 * staging/src/k8s.io/endpointslice/util, the package both controllers import
 * as `endpointsliceutil`. FindPort and IsPodTerminal come from
 * pkg/api/v1/pod/util.go, IsServiceIPSet from pkg/apis/core/v1/helper; only
 * these two controllers use them here.
 *
 * Differences: NewPortMapKey hashes Go values to name a set of ports; here
 * the ports are sorted by number, name and protocol and written as
 * canonical JSON, so runs are reproducible.
 *
 * Mirrors staging/src/k8s.io/endpointslice/util/controller_utils.go,
 * staging/src/k8s.io/endpointslice/util/trigger_time_tracker.go,
 * pkg/api/v1/pod/util.go (FindPort, IsPodTerminal),
 * pkg/apis/core/v1/helper/helpers.go (IsServiceIPSet).
 */
import type { EndpointSlice, Pod, Service, ServicePort } from '../../api/types.ts';
import { matches, selectorFromSet } from '../../api/labels.ts';
import { keyOf } from '../../client/informer.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { canonicalJson } from '../hash.ts';
import { isPodReady, podReadyCondition, timeMs } from '../pod-util.ts';

/** v1.IsHeadlessService (k8s.io/api/core/v1/well_known_labels.go): set on the endpoints of a Service without a cluster IP. */
export const LABEL_HEADLESS_SERVICE = 'service.kubernetes.io/headless';
/** v1.EndpointsLastChangeTriggerTime (k8s.io/api/core/v1/annotation_key_constants.go). */
export const ANNOTATION_LAST_CHANGE_TRIGGER_TIME = 'endpoints.kubernetes.io/last-change-trigger-time';

/** One endpoint of a slice (discovery/v1 Endpoint), with the hostname the shared type leaves out. */
export type SliceEndpoint = EndpointSlice['endpoints'][number] & { hostname?: string };
/** One port of a slice (discovery/v1 EndpointPort). */
export type SlicePort = NonNullable<EndpointSlice['ports']>[number];

// ---- Services selecting Pods ------------------------------------------------------------

/**
 * The Service's selector as a label selector, or undefined when it selects
 * nothing: a nil selector (and an empty one, which storage turns into nil)
 * means the Service's endpoints are managed by someone else.
 */
export function serviceSelector(service: Service): ((labels: Record<string, string> | undefined) => boolean) | undefined {
	const selector = service.spec?.selector;
	if (!selector || Object.keys(selector).length === 0) return undefined;
	const parsed = selectorFromSet(selector);
	return (labels) => matches(parsed, labels ?? {});
}

/** Services of the Pod's namespace whose selector matches these labels, as `namespace/name` keys (getServicesForPod). */
export function servicesSelecting(services: readonly Service[], labels: Record<string, string> | undefined): Set<string> {
	const keys = new Set<string>();
	for (const service of services) {
		const selects = serviceSelector(service);
		if (selects?.(labels)) keys.add(keyOf(service));
	}
	return keys;
}

/**
 * podEndpointsChanged: whether the Pod changed in a way that may change its
 * endpoint (deletion started, readiness, IPs), and whether it changed in a
 * way that may change which Services select it (labels, hostname or
 * subdomain).
 */
export function podEndpointsChanged(oldPod: Pod, newPod: Pod): { podChanged: boolean; labelsChanged: boolean } {
	const labelsChanged =
		canonicalJson(oldPod.metadata.labels ?? {}) !== canonicalJson(newPod.metadata.labels ?? {}) || oldPod.spec.hostname !== newPod.spec.hostname || oldPod.spec.subdomain !== newPod.spec.subdomain;
	if (oldPod.metadata.deletionTimestamp !== newPod.metadata.deletionTimestamp) return { podChanged: true, labelsChanged };
	if (isPodReady(oldPod) !== isPodReady(newPod)) return { podChanged: true, labelsChanged };
	const oldIPs = oldPod.status?.podIPs ?? [];
	const newIPs = newPod.status?.podIPs ?? [];
	if (oldIPs.length !== newIPs.length || oldIPs.some((ip, i) => ip.ip !== newIPs[i].ip)) return { podChanged: true, labelsChanged };
	return { podChanged: false, labelsChanged };
}

/**
 * GetServicesToUpdateOnPodChange: the Services to look at after a Pod
 * update. Nothing when only irrelevant fields changed; with new labels,
 * the Services that select the Pod before or after (all of them if the
 * endpoint changed too, else only those whose membership changed).
 */
export function servicesToUpdateOnPodChange(services: readonly Service[], oldPod: Pod, newPod: Pod): Set<string> {
	if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return new Set();
	const { podChanged, labelsChanged } = podEndpointsChanged(oldPod, newPod);
	if (!podChanged && !labelsChanged) return new Set();
	const now = servicesSelecting(services, newPod.metadata.labels);
	if (!labelsChanged) return now;
	const before = servicesSelecting(services, oldPod.metadata.labels);
	if (podChanged) return new Set([...now, ...before]);
	// Only the labels changed: the symmetric difference.
	return new Set([...[...now].filter((k) => !before.has(k)), ...[...before].filter((k) => !now.has(k))]);
}

// ---- a Pod's endpoint -------------------------------------------------------------------

/** isPodTerminal: Succeeded or Failed (pkg/api/v1/pod). */
function isPodTerminal(pod: Pod): boolean {
	return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/**
 * ShouldPodBeInEndpoints: not finished, has an IP, and (unless
 * `includeTerminating`) not being deleted.
 */
export function shouldPodBeInEndpoints(pod: Pod, includeTerminating: boolean): boolean {
	if (isPodTerminal(pod)) return false;
	if (!pod.status?.podIP && !pod.status?.podIPs?.length) return false;
	if (!includeTerminating && pod.metadata.deletionTimestamp) return false;
	return true;
}

/**
 * The readiness of a Pod's endpoint: serving is the Pod's Ready condition,
 * terminating is its deletion having started, and ready is serving and not
 * terminating, or always when the Service publishes not-ready addresses.
 * The EndpointSlice controller writes all three (podToEndpoint); the
 * Endpoints controller lists a ready address under `addresses` and any
 * other under `notReadyAddresses` (addEndpointSubset asks IsPodReady, which
 * is the same thing for the Pods it lists: it leaves terminating Pods out
 * unless the Service publishes not-ready addresses).
 */
export function podEndpointConditions(pod: Pod, service: Service): { ready: boolean; serving: boolean; terminating: boolean } {
	const serving = isPodReady(pod);
	const terminating = !!pod.metadata.deletionTimestamp;
	// For compatibility a terminating endpoint is never ready, unless the Service publishes not-ready addresses.
	const ready = !!service.spec?.publishNotReadyAddresses || (serving && !terminating);
	return { ready, serving, terminating };
}

/** ShouldSetHostname: the Pod names a hostname and the Service as its subdomain. */
export function shouldSetHostname(pod: Pod, service: Service): boolean {
	return !!pod.spec.hostname && pod.spec.subdomain === service.metadata.name && service.metadata.namespace === pod.metadata.namespace;
}

/** The reference an endpoint keeps to its Pod (an ObjectReference of kind Pod, without resourceVersion). */
export function podReference(pod: Pod): { kind: string; namespace?: string; name?: string; uid?: string } {
	return { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid };
}

/** IsServiceIPSet: a cluster IP other than None (a headless Service has none). */
export function isServiceIPSet(service: Service): boolean {
	const ip = service.spec?.clusterIP ?? '';
	return ip !== 'None' && ip !== '';
}

/**
 * FindPort: the container port a Service port sends to on this Pod. A
 * numeric targetPort is used as is; a named one is looked up among the
 * containers' ports (same name and protocol), then among restartable init
 * containers (sidecars). Undefined when no container has that name.
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
	// SetDefaults_Service defaults the protocol to TCP and targetPort to port; the API server always stores both.
	const protocol = servicePort.protocol ?? 'TCP';
	const target = servicePort.targetPort ?? servicePort.port;
	if (typeof target === 'number') return target;
	const lookIn = (containers: Pod['spec']['containers'] | undefined) => {
		for (const container of containers ?? []) {
			// SetDefaults_ContainerPort: a container port's protocol defaults to TCP.
			for (const port of container.ports ?? []) if (port.name === target && (port.protocol ?? 'TCP') === protocol) return port.containerPort;
		}
		return undefined;
	};
	const found = lookIn(pod.spec.containers);
	if (found !== undefined) return found;
	return lookIn((pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always'));
}

// ---- comparing endpoints ----------------------------------------------------------------

/** A deterministic order for a slice's ports (upstream sorts by a hash of each port). */
export function sortPorts(ports: SlicePort[]): SlicePort[] {
	return ports.sort(
		(a, b) => (a.port ?? 0) - (b.port ?? 0) || compareGoStrings(a.name ?? '', b.name ?? '') || compareGoStrings(a.protocol ?? '', b.protocol ?? '') || compareGoStrings(a.appProtocol ?? '', b.appProtocol ?? ''),
	);
}

/** NewPortMapKey: identifies a set of ports, whatever their order. */
export function portMapKey(ports: readonly SlicePort[]): string {
	return canonicalJson(sortPorts(ports.map((p) => ({ ...p }))));
}

/**
 * semanticIgnoreResourceVersion for one object reference: the reference as
 * it is compared, without its resourceVersion (a Pod's resourceVersion
 * moves with every update, most of which change nothing its endpoints
 * show).
 */
export function withoutResourceVersion<T extends Record<string, unknown>>(ref: T | undefined): Omit<T, 'resourceVersion'> | undefined {
	if (!ref) return undefined;
	const { resourceVersion: _rv, ...rest } = ref;
	return rest;
}

/** EndpointsEqualBeyondHash: node, zone, the three conditions and the target (its resourceVersion aside) are equal. */
export function endpointsEqualBeyondHash(a: SliceEndpoint, b: SliceEndpoint): boolean {
	if ((a.nodeName ?? null) !== (b.nodeName ?? null) || (a.zone ?? null) !== (b.zone ?? null)) return false;
	const ca = a.conditions ?? {};
	const cb = b.conditions ?? {};
	if ((ca.ready ?? null) !== (cb.ready ?? null) || (ca.serving ?? null) !== (cb.serving ?? null) || (ca.terminating ?? null) !== (cb.terminating ?? null)) return false;
	return canonicalJson(withoutResourceVersion(a.targetRef)) === canonicalJson(withoutResourceVersion(b.targetRef));
}

// ---- the trigger time tracker (trigger_time_tracker.go) -------------------------------------

/** Per-Service memory of the trigger time tracker: the trigger times seen at the last sync (epoch ms, 0 = none). */
export interface TriggerTimeState {
	lastServiceTriggerMs: number;
	/** Pod name -> its Ready condition's lastTransitionTime. */
	lastPodTriggerMs: Record<string, number>;
}

/**
 * TriggerTimeTracker.ComputeEndpointLastChangeTriggerTime: the time of the
 * earliest change (a Pod's Ready transition, the Service's creation) not
 * seen at the previous sync, for the `last-change-trigger-time`
 * annotation. A Service seen for the first time reports its creation time;
 * 0 means "no new trigger" (the annotation is then removed). Updates
 * `states` in place.
 */
export function computeEndpointLastChangeTriggerTime(states: Record<string, TriggerTimeState>, service: Service, pods: readonly Pod[]): number {
	const key = keyOf(service);
	const known = states[key];
	const state: TriggerTimeState = known ?? { lastServiceTriggerMs: 0, lastPodTriggerMs: {} };
	let minChanged = 0;
	const podTriggers: Record<string, number> = {};
	for (const pod of pods) {
		const ready = podReadyCondition(pod);
		const trigger = ready ? timeMs(ready.lastTransitionTime) : 0;
		if (!trigger) continue;
		const name = pod.metadata.name ?? '';
		podTriggers[name] = trigger;
		if (trigger > (state.lastPodTriggerMs[name] ?? 0)) minChanged = minChanged === 0 ? trigger : Math.min(minChanged, trigger);
	}
	const serviceTrigger = timeMs(service.metadata.creationTimestamp);
	if (serviceTrigger > state.lastServiceTriggerMs) minChanged = minChanged === 0 ? serviceTrigger : Math.min(minChanged, serviceTrigger);
	states[key] = { lastServiceTriggerMs: serviceTrigger, lastPodTriggerMs: podTriggers };
	if (!known) return serviceTrigger;
	return minChanged;
}

/** time.RFC3339Nano in UTC: seconds, plus a fraction only when there is one (trailing zeros trimmed). */
export function formatRfc3339Nano(epochMs: number): string {
	const base = formatRfc3339(epochMs);
	const ms = ((epochMs % 1000) + 1000) % 1000;
	if (ms === 0) return base;
	return `${base.slice(0, -1)}.${String(ms).padStart(3, '0').replace(/0+$/, '')}Z`;
}

/** Sets the `last-change-trigger-time` annotation in `annotations`, or removes it when there is no new trigger (0). */
export function setTriggerTime(annotations: Record<string, string>, triggerMs: number): void {
	if (triggerMs) annotations[ANNOTATION_LAST_CHANGE_TRIGGER_TIME] = formatRfc3339Nano(triggerMs);
	else delete annotations[ANNOTATION_LAST_CHANGE_TRIGGER_TIME];
}
