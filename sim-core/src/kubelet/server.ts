/**
 * What the kubelet's HTTPS server (port 10250) answers for `kubectl logs`
 * and `kubectl exec`, as the API server forwards them: which container's
 * log to read given the pod's status (`--previous` reads the last
 * terminated one), and the errors kubectl prints when there is none.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (validateContainerLogStatus) and
 * pkg/kubelet/server/server.go.
 */
import type { PodStatus } from '../api/types.ts';

/** The result of a log or exec request, as the API server relays it. */
export type ServeResult<T> = { ok: true; value: T } | { ok: false; code: number; reason: string; message: string };

export function badRequest<T>(message: string): ServeResult<T> {
	return { ok: false, code: 400, reason: 'BadRequest', message };
}

export function notFound<T>(message: string): ServeResult<T> {
	return { ok: false, code: 404, reason: 'NotFound', message };
}

/**
 * Picks the container id whose log answers a logs request, or the error
 * kubectl shows (`container "x" in pod "y" is waiting to start: ContainerCreating`).
 */
export function logContainerId(podName: string, status: PodStatus, containerName: string, previous: boolean): { ok: true; containerId: string } | { ok: false; message: string } {
	const all = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? [])];
	const s = all.find((c) => c.name === containerName);
	if (!s) return { ok: false, message: `container "${containerName}" in pod "${podName}" is not available` };
	const strip = (id: string | undefined) => (id ?? '').replace(/^containerd:\/\//, '');
	const last = s.lastState?.terminated;
	const state = s.state ?? {};
	if (previous) {
		if (!last || !last.containerID) return { ok: false, message: `previous terminated container "${containerName}" in pod "${podName}" not found` };
		return { ok: true, containerId: strip(last.containerID) };
	}
	if (state.running) return { ok: true, containerId: strip(s.containerID) };
	if (state.terminated) {
		if (state.terminated.containerID) return { ok: true, containerId: strip(state.terminated.containerID) };
		if (last?.containerID) return { ok: true, containerId: strip(last.containerID) };
		return { ok: false, message: `container "${containerName}" in pod "${podName}" is terminated` };
	}
	if (last) {
		if (!last.containerID) return { ok: false, message: `container "${containerName}" in pod "${podName}" is terminated` };
		return { ok: true, containerId: strip(last.containerID) };
	}
	if (state.waiting) {
		const reason = state.waiting.reason ?? '';
		if (reason === 'ErrImagePull') return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start: image can't be pulled` };
		if (reason === 'ImagePullBackOff') return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start: trying and failing to pull image` };
		return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start: ${reason}` };
	}
	return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start - no logs yet` };
}
