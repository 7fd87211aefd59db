/**
 * The pod status the kubelet reports: phase, conditions and container
 * statuses (ephemeral containers' too, which count for neither), computed from what the runtime says about the pod's sandbox
 * and containers, the probes' results, and the reasons the last sync left
 * for containers that could not start (the kubelet's "reason cache":
 * ErrImagePull, ImagePullBackOff, CrashLoopBackOff, RunContainerError...).
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, getPhase,
 * convertToAPIContainerStatuses), pkg/kubelet/status/generate.go,
 * pkg/kubelet/status/status_manager.go (the transition-time rules).
 */
import type { Container, ContainerState, ContainerStatus, Pod, PodCondition, PodStatus } from '../api/types.ts';
import { formatRfc3339 } from '../golang/time.ts';
import type { ContainerInfo } from '../cri-api/cri.ts';
import { computePodQOS } from '../component-helpers/qos.ts';

/** A start failure remembered for a container (the reason cache). */
export interface WaitingReason {
	reason: string;
	message?: string;
	/**
	 * Cached by the sync that is writing the status now. The kubelet builds a
	 * Pod's status before it syncs the containers (SyncPod calls
	 * generateAPIPodStatus first, reasonCache.Update after), so a reason
	 * found in a sync shows from the next status on: a container that just
	 * crashed is seen Terminated (Error), or with the reason cached before
	 * (`previous`, a RunContainerError), until the next sync shows CrashLoopBackOff.
	 */
	fresh?: boolean;
	previous?: { reason: string; message?: string };
}

interface PodStatusInputs {
	pod: Pod;
	/** The status currently in the API (for PodScheduled and transition times). */
	previous?: PodStatus;
	/** Virtual now, as RFC 3339. */
	now: string;
	hostIp: string;
	/** The pod IP (kept after the sandbox is gone). */
	podIp?: string;
	sandboxReady: boolean;
	/** Every container the runtime has for this pod, all attempts. */
	containers: ContainerInfo[];
	waiting: Record<string, WaitingReason>;
	/** Readiness of a running container (true when it has no readiness probe). */
	ready(name: string, containerId: string): boolean;
	/** Whether a running container passed its startup probe (true when it has none). */
	started(name: string, containerId: string): boolean;
	startTime?: string;
	/** The pod worker finished the pod (deleted or completed): containers will not restart. */
	terminal: boolean;
}

/** Upstream's zero time, which a container that never started reports as startedAt. */
const ZERO_TIME = '1970-01-01T00:00:00Z';

function rfc(wallMs: number | undefined): string {
	return wallMs === undefined ? ZERO_TIME : formatRfc3339(wallMs);
}

/** The containers of one name, newest attempt first. */
export function attemptsOf(containers: ContainerInfo[], name: string): ContainerInfo[] {
	return containers.filter((c) => c.name === name).sort((a, b) => b.attempt - a.attempt || b.createdWallMs - a.createdWallMs);
}

function terminated(c: ContainerInfo): ContainerState {
	const exitCode = c.exitCode ?? 0;
	return {
		terminated: {
			exitCode,
			reason: c.reason ?? (exitCode === 0 ? 'Completed' : 'Error'),
			...(c.message ? { message: c.message } : {}),
			startedAt: rfc(c.startedWallMs),
			finishedAt: rfc(c.finishedWallMs),
			containerID: `containerd://${c.id}`,
		},
	};
}

/** A sidecar: an init container with restartPolicy Always, which keeps running beside the app (podutil.IsRestartableInitContainer). */
export function isRestartableInit(c: Container): boolean {
	return c.restartPolicy === 'Always';
}

/** Whether the kubelet would start this container again (kubecontainer.ShouldContainerBeRestarted). */
export function shouldRestart(pod: Pod, isInit: boolean, latest: ContainerInfo | undefined, terminal: boolean, restartable = false): boolean {
	if (terminal) return false;
	if (!latest) return true;
	if (latest.state !== 'CONTAINER_EXITED') return false;
	if (restartable) return true;
	const policy = pod.spec.restartPolicy ?? 'Always';
	if (policy === 'Never') return false;
	if (policy === 'OnFailure' || isInit) return (latest.exitCode ?? 0) !== 0;
	return true;
}

function containerStatus(inputs: PodStatusInputs, spec: Container, isInit: boolean, hasInit: boolean): ContainerStatus {
	const [latest, previous] = attemptsOf(inputs.containers, spec.name);
	const status: ContainerStatus = {
		name: spec.name,
		state: { waiting: { reason: hasInit ? 'PodInitializing' : 'ContainerCreating' } },
		lastState: {},
		ready: false,
		restartCount: 0,
		image: spec.image ?? '',
		imageID: '',
		started: false,
	};
	if (latest) {
		status.image = latest.image;
		status.imageID = latest.repoDigest;
		status.containerID = `containerd://${latest.id}`;
		status.restartCount = latest.attempt;
		if (latest.state === 'CONTAINER_RUNNING') {
			status.state = { running: { startedAt: rfc(latest.startedWallMs) } };
			status.started = inputs.started(spec.name, latest.id);
			// A running init container is never ready (it is ready once it exits 0), unless it is a sidecar.
			status.ready = (!isInit || isRestartableInit(spec)) && status.started && inputs.ready(spec.name, latest.id);
		} else if (latest.state === 'CONTAINER_EXITED') {
			status.state = terminated(latest);
			// A finished init container counts as ready (it did its job).
			status.ready = isInit && (latest.exitCode ?? 0) === 0;
		} else status.state = { waiting: {} };
		if (previous && previous.state === 'CONTAINER_EXITED') status.lastState = terminated(previous);
	}
	const entry = inputs.waiting[spec.name];
	const cached = entry?.fresh ? entry.previous : entry;
	if (cached && shouldRestart(inputs.pod, isInit, latest, inputs.terminal, isInit && isRestartableInit(spec))) {
		if (status.state?.terminated) status.lastState = status.state;
		status.state = { waiting: cached.message ? { reason: cached.reason, message: cached.message } : { reason: cached.reason } };
		status.ready = false;
	}
	return status;
}

/**
 * The status of an ephemeral container: as a container's, but never ready
 * (no probes) and never waiting for a restart (it is not restarted);
 * Waiting (ContainerCreating, or why it could not start) until it runs.
 */
function ephemeralContainerStatus(inputs: PodStatusInputs, spec: Container): ContainerStatus {
	const [latest] = attemptsOf(inputs.containers, spec.name);
	const status: ContainerStatus = { name: spec.name, state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: spec.image ?? '', imageID: '', started: false };
	const cached = inputs.waiting[spec.name];
	if (!latest) {
		if (cached) status.state = { waiting: cached.message ? { reason: cached.reason, message: cached.message } : { reason: cached.reason } };
		return status;
	}
	status.image = latest.image;
	status.imageID = latest.repoDigest;
	status.containerID = `containerd://${latest.id}`;
	if (latest.state === 'CONTAINER_RUNNING') {
		status.state = { running: { startedAt: rfc(latest.startedWallMs) } };
		status.started = true;
	} else if (latest.state === 'CONTAINER_EXITED') status.state = terminated(latest);
	return status;
}

/** getPhase (kubelet_pods.go). */
export function podPhase(pod: Pod, initStatuses: ContainerStatus[], statuses: ContainerStatus[], terminal: boolean): NonNullable<PodStatus['phase']> {
	const policy = pod.spec.restartPolicy ?? 'Always';
	let pendingInit = 0;
	let failedInit = 0;
	for (const c of pod.spec.initContainers ?? []) {
		const s = initStatuses.find((x) => x.name === c.name);
		// A sidecar is pending only until it started.
		if (isRestartableInit(c)) {
			if (!s?.started && !statuses.some((x) => x.state?.running || x.state?.terminated || x.lastState?.terminated)) pendingInit++;
			continue;
		}
		if (!s || s.state?.running) pendingInit++;
		else if (s.state?.terminated) {
			if (s.state.terminated.exitCode !== 0) failedInit++;
		} else if (s.state?.waiting) {
			if (s.lastState?.terminated) {
				if (s.lastState.terminated.exitCode !== 0) failedInit++;
			} else pendingInit++;
		} else pendingInit++;
	}
	let unknown = 0;
	let running = 0;
	let waiting = 0;
	let stopped = 0;
	let succeeded = 0;
	for (const c of pod.spec.containers) {
		const s = statuses.find((x) => x.name === c.name);
		if (!s) unknown++;
		else if (s.state?.running) running++;
		else if (s.state?.terminated) {
			stopped++;
			if (s.state.terminated.exitCode === 0) succeeded++;
		} else if (s.state?.waiting) {
			if (s.lastState?.terminated) stopped++;
			else waiting++;
		} else unknown++;
	}
	if (failedInit > 0 && policy === 'Never') return 'Failed';
	if (pendingInit > 0 || waiting > 0) return 'Pending';
	if (running > 0 && unknown === 0) return 'Running';
	if (running === 0 && stopped > 0 && unknown === 0) {
		const isStatic = pod.metadata.annotations?.['kubernetes.io/config.source'] === 'file';
		if (terminal && !isStatic) return stopped === succeeded ? 'Succeeded' : 'Failed';
		if (policy === 'Always') return 'Running';
		if (stopped === succeeded) return 'Succeeded';
		if (policy === 'Never') return 'Failed';
		return 'Running';
	}
	return 'Pending';
}

function names(list: string[]): string {
	return `[${list.join(' ')}]`;
}

/** status.GeneratePodInitializedCondition. */
function initializedCondition(pod: Pod, initStatuses: ContainerStatus[], statuses: ContainerStatus[], phase: string): PodCondition {
	const incomplete: string[] = [];
	const unknownNames: string[] = [];
	for (const c of pod.spec.initContainers ?? []) {
		const s = initStatuses.find((x) => x.name === c.name);
		if (!s) unknownNames.push(c.name);
		else if (isRestartableInit(c) ? !s.started : !s.ready) incomplete.push(c.name);
	}
	if (phase === 'Succeeded' && unknownNames.length === 0) return { type: 'Initialized', status: 'True', reason: 'PodCompleted' };
	// A regular container that started means initialization happened before.
	if (statuses.some((s) => s.state?.running || s.state?.terminated || s.lastState?.terminated)) return { type: 'Initialized', status: 'True' };
	const messages: string[] = [];
	if (unknownNames.length) messages.push(`containers with unknown status: ${names(unknownNames)}`);
	if (incomplete.length) messages.push(`containers with incomplete status: ${names(incomplete)}`);
	if (messages.length) return { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: messages.join(', ') };
	return { type: 'Initialized', status: 'True' };
}

/** status.GenerateContainersReadyCondition. */
function containersReadyCondition(pod: Pod, initStatuses: ContainerStatus[], statuses: ContainerStatus[], phase: string): PodCondition {
	if (phase === 'Succeeded') return { type: 'ContainersReady', status: 'False', reason: 'PodCompleted' };
	if (phase === 'Failed') return { type: 'ContainersReady', status: 'False', reason: 'PodFailed' };
	const sidecars = (pod.spec.initContainers ?? []).filter(isRestartableInit).filter((c) => !initStatuses.find((s) => s.name === c.name)?.ready);
	const unready = [...sidecars, ...pod.spec.containers.filter((c) => !statuses.find((s) => s.name === c.name)?.ready)].map((c) => c.name);
	if (unready.length) return { type: 'ContainersReady', status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: ${names(unready)}` };
	return { type: 'ContainersReady', status: 'True' };
}

/** Keeps a condition's lastTransitionTime when its status did not change (status manager). */
function withTransition(condition: PodCondition, previous: PodStatus | undefined, now: string, generation: number | undefined): PodCondition {
	const old = previous?.conditions?.find((c) => c.type === condition.type);
	const out: PodCondition = { type: condition.type, status: condition.status };
	if (generation !== undefined) out.observedGeneration = generation;
	out.lastProbeTime = null;
	out.lastTransitionTime = old && old.status === condition.status && old.lastTransitionTime ? old.lastTransitionTime : now;
	if (condition.reason) out.reason = condition.reason;
	if (condition.message) out.message = condition.message;
	return out;
}

/** generateAPIPodStatus: the whole status of a pod the kubelet runs. */
export function generatePodStatus(inputs: PodStatusInputs): PodStatus {
	const { pod } = inputs;
	const hasInit = (pod.spec.initContainers ?? []).length > 0;
	const initStatuses = (pod.spec.initContainers ?? []).map((c) => containerStatus(inputs, c, true, hasInit));
	const statuses = pod.spec.containers.map((c) => containerStatus(inputs, c, false, hasInit)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const phase = podPhase(pod, initStatuses, statuses, inputs.terminal);
	const generation = pod.metadata.generation;
	const containersReady = containersReadyCondition(pod, initStatuses, statuses, phase);
	const ready: PodCondition = { ...containersReady, type: 'Ready' };
	const others = (inputs.previous?.conditions ?? []).filter((c) => !['PodScheduled', 'Ready', 'Initialized', 'ContainersReady', 'PodReadyToStartContainers'].includes(c.type));
	const scheduled = inputs.previous?.conditions?.find((c) => c.type === 'PodScheduled');
	const conditions: PodCondition[] = [
		...others,
		withTransition({ type: 'PodReadyToStartContainers', status: inputs.sandboxReady ? 'True' : 'False' }, inputs.previous, inputs.now, generation),
		withTransition(initializedCondition(pod, initStatuses, statuses, phase), inputs.previous, inputs.now, generation),
		withTransition(ready, inputs.previous, inputs.now, generation),
		withTransition(containersReady, inputs.previous, inputs.now, generation),
		scheduled ? { ...scheduled, status: 'True' } : withTransition({ type: 'PodScheduled', status: 'True' }, inputs.previous, inputs.now, generation),
	];
	const status: PodStatus = {
		...(generation !== undefined ? { observedGeneration: generation } : {}),
		phase,
		conditions,
		hostIP: inputs.hostIp,
		hostIPs: [{ ip: inputs.hostIp }],
	};
	if (inputs.podIp) {
		status.podIP = inputs.podIp;
		status.podIPs = [{ ip: inputs.podIp }];
	}
	if (inputs.startTime) status.startTime = inputs.startTime;
	if (hasInit) status.initContainerStatuses = initStatuses;
	status.containerStatuses = statuses;
	// A finished pod's worker starts nothing more: an ephemeral container added after it ended never gets a status.
	const ephemeral = (pod.spec.ephemeralContainers ?? []).filter((c) => !inputs.terminal || attemptsOf(inputs.containers, c.name).length > 0);
	if (ephemeral.length) status.ephemeralContainerStatuses = ephemeral.map((c) => ephemeralContainerStatus(inputs, c));
	status.qosClass = computePodQOS(pod.spec);
	return status;
}

/**
 * An evicted pod's status (evictPod's status function): Failed with reason
 * Evicted and the eviction manager's message, and, for a threshold
 * eviction, the DisruptionTarget condition (TerminationByKubelet), kept
 * from the first write on.
 */
export function evictedPodStatus(status: PodStatus, message: string, now: string, previous: PodStatus | undefined, disruptionCondition = true): PodStatus {
	if (!disruptionCondition) return { ...status, phase: 'Failed', reason: 'Evicted', message };
	const kept = previous?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
	const disruption: PodCondition = kept ?? { type: 'DisruptionTarget', status: 'True', lastProbeTime: null, lastTransitionTime: now, reason: 'TerminationByKubelet', message };
	const conditions = [disruption, ...(status.conditions ?? []).filter((c) => c.type !== 'DisruptionTarget')];
	return { ...status, phase: 'Failed', reason: 'Evicted', message, conditions };
}

/** active_deadline.go: the reason and message of a Pod stopped at its active deadline. */
export const DEADLINE_EXCEEDED_REASON = 'DeadlineExceeded';
export const DEADLINE_EXCEEDED_MESSAGE = 'Pod was active on the node longer than the specified deadline';

/** The status of a pod the kubelet refused (rejectPod): Failed, with the reason and `Pod was rejected: <message>`. */
export function rejectedPodStatus(pod: Pod, reason: string, message: string, startTime: string): PodStatus {
	return { phase: 'Failed', reason, message: `Pod was rejected: ${message}`, qosClass: computePodQOS(pod.spec), startTime };
}
