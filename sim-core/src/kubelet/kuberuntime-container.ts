/**
 * One container through the runtime: the image ensured (or its pull
 * started), the environment and mounts computed, the container created and
 * started, with the waiting reason and the event upstream gives for each
 * step that fails (CreateContainerConfigError, CreateContainerError,
 * RunContainerError); and the kill of one container to restart it, with
 * its grace period, never below 2 s.
 *
 * Mirrors pkg/kubelet/kuberuntime/kuberuntime_container.go (startContainer,
 * generateContainerConfig, killContainer), pkg/kubelet/kubelet_pods.go
 * (makeMounts, GenerateRunContainerOptions).
 */
import { containerOomScoreAdj } from './qos-policy.ts';
import { parseQuantity } from '../api/quantity.ts';
import type { Container } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { criErrorMessage, type ContainerInfo } from '../cri-api/cri.ts';
import { containerEnv, expandEnv } from './env.ts';
import { podDir } from './volumes/paths.ts';
import { ensureImage } from './image-manager.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { POD_WORKER_BACKOFF_MS, requestSync, type PodWorker } from './pod-workers.ts';
import { volumeLookup } from './kubelet-volumes.ts';
import { makeMounts } from './volumes/container-mounts.ts';

/** minimumGracePeriodInSeconds (kuberuntime_container.go): a kill never waits less than 2 s. */
export const MINIMUM_GRACE_PERIOD_S = 2;

/** The pod's restart policy, Always when unset (API defaulting). */
export function restartPolicy(w: PodWorker): 'Always' | 'OnFailure' | 'Never' {
	return w.pod.spec.restartPolicy ?? 'Always';
}

/** Pulls (if needed), creates and starts one container. 'pending' while a pull runs. */
export function startContainer(ctx: KubeletContext, w: PodWorker, c: Container, latest: ContainerInfo | undefined, isInit: boolean): 'started' | 'pending' | 'failed' {
	const image = ensureImage(ctx, w, c, isInit);
	if (image.kind !== 'ready') return image.kind;
	const pod = w.pod;
	const env = containerEnv(pod, c, {
		hostIp: ctx.deps.nodeIp,
		podIp: w.podIp ?? '',
		kubernetesServiceHost: ctx.deps.kubernetesServiceHost ?? '10.96.0.1',
		nodeAllocatable: ctx.getNodeAnyWay().status?.allocatable ?? {},
		services: ctx.serviceInformer.list().map((s) => {
			const spec = (s.spec ?? {}) as { clusterIP?: string; ports?: Array<{ name?: string; port: number; protocol?: string }> };
			return { name: s.metadata.name ?? '', namespace: s.metadata.namespace ?? 'default', clusterIP: spec.clusterIP, ports: spec.ports ?? [] };
		}),
		read: (kind, namespace, name) => {
			const got = ctx.client.get(kind === 'ConfigMap' ? R.configmaps : R.secrets, namespace, name);
			return got.ok ? got.object : undefined;
		},
	});
	if (!env.ok) {
		w.waiting[c.name] = { reason: 'CreateContainerConfigError', message: env.message };
		ctx.podEvent(w, 'Warning', 'Failed', `Error: ${env.message}`, c.name, isInit);
		requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
		return 'failed';
	}
	// The volumes, as bind mounts (makeMounts in GenerateRunContainerOptions); a subPath is prepared now.
	const mounts = makeMounts(pod, c, { disk: ctx.deps.disk, env: env.env, lookup: volumeLookup(ctx) });
	if (!mounts.ok) {
		w.waiting[c.name] = { reason: 'CreateContainerConfigError', message: mounts.error };
		ctx.podEvent(w, 'Warning', 'Failed', `Error: ${mounts.error}`, c.name, isInit);
		requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
		return 'failed';
	}
	let memoryLimitBytes: number | undefined;
	const limit = c.resources?.limits?.memory;
	if (limit !== undefined) {
		const m = /^(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(limit));
		if (m) memoryLimitBytes = Number(m[1]) * ({ '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] ?? ''] ?? 1);
	}
	// linux.resources.cpu_quota / cpu_period: the CPU limit, in millicores.
	let cpuLimitMillis: number | undefined;
	const cpuLimit = c.resources?.limits?.cpu;
	if (cpuLimit !== undefined) {
		try {
			cpuLimitMillis = parseQuantity(String(cpuLimit)).milliValue();
		} catch {
			cpuLimitMillis = undefined;
		}
	}
	const attempt = latest ? latest.attempt + 1 : 0;
	const messageMount = terminationMessageMount(ctx, w, c);
	// ExpandContainerCommandAndArgs: `$(VAR)` in command and args from the container's environment (`$$` escapes).
	const envValues = new Map(env.env.map((e) => [e.name, e.value]));
	const expand = (list: string[] | undefined) => list?.map((arg) => expandEnv(arg, (name) => envValues.get(name)));
	const created = ctx.runtime.createContainer(w.sandboxId ?? '', {
		name: c.name,
		attempt,
		image: image.image,
		command: expand(c.command),
		args: expand(c.args),
		workingDir: c.workingDir,
		...(c.stdin ? { stdin: true } : {}),
		...(c.tty ? { tty: true } : {}),
		env: env.env,
		memoryLimitBytes,
		oomScoreAdj: containerOomScoreAdj(pod, c, parseQuantity(ctx.identity.capacity.memory).value()),
		cpuLimitMillis,
		mounts: messageMount ? [...mounts.mounts, messageMount] : mounts.mounts,
		labels: { 'io.kubernetes.container.name': c.name, 'io.kubernetes.pod.name': pod.metadata.name ?? '', 'io.kubernetes.pod.namespace': pod.metadata.namespace ?? '', 'io.kubernetes.pod.uid': w.uid },
		annotations: { 'io.kubernetes.container.restartCount': String(attempt), 'io.kubernetes.container.terminationMessagePath': c.terminationMessagePath ?? '/dev/termination-log', 'io.kubernetes.container.terminationMessagePolicy': c.terminationMessagePolicy ?? 'File', 'io.kubernetes.pod.terminationGracePeriod': String(pod.spec.terminationGracePeriodSeconds ?? 30) },
	});
	if (!created.ok) {
		const text = criErrorMessage(created.error);
		w.waiting[c.name] = { reason: 'CreateContainerError', message: text };
		ctx.podEvent(w, 'Warning', 'Failed', `Error: ${text}`, c.name, isInit);
		requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
		return 'failed';
	}
	if (messageMount) (w.terminationMessageFiles ??= {})[created.value.containerId] = messageMount.hostPath;
	ctx.podEvent(w, 'Normal', 'Created', 'Container created', c.name, isInit);
	const started = ctx.runtime.startContainer(created.value.containerId);
	if (!started.ok) {
		const text = criErrorMessage(started.error);
		w.waiting[c.name] = { reason: 'RunContainerError', message: text };
		ctx.podEvent(w, 'Warning', 'Failed', `Error: ${text}`, c.name, isInit);
		ctx.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `failed to "StartContainer" for "${c.name}" with RunContainerError: "${text.replace(/"/g, '\\"')}"`, pod: keyOf(pod), podUID: w.uid });
		requestSync(ctx, w, ctx.config.plegRelistPeriodMs, false);
		return 'failed';
	}
	delete w.waiting[c.name];
	ctx.podEvent(w, 'Normal', 'Started', 'Container started', c.name, isInit);
	return 'started';
}

/**
 * The file the container may write its termination message to: an empty
 * file in the pod's directory, bind-mounted at terminationMessagePath
 * (kuberuntime_container.go makeMounts: `containers/<name>/<8 hex>`).
 */
function terminationMessageMount(ctx: KubeletContext, w: PodWorker, c: Container): { containerPath: string; hostPath: string; readonly: boolean } | undefined {
	const disk = ctx.deps.disk;
	if (!disk || !c.terminationMessagePath) return undefined;
	const dir = `${podDir(w.uid)}/containers/${c.name}`;
	const hostPath = `${dir}/${ctx.rng.uuid().replace(/-/g, '').slice(0, 8)}`;
	if (!disk.exists(dir) && !disk.mkdir(dir)) return undefined;
	if (!disk.writeFile(hostPath, '')) return undefined;
	return { containerPath: c.terminationMessagePath, hostPath, readonly: false };
}

/** killContainer for a restart: the Killing event with the reason, the stop signal, SIGKILL after the grace. */
export function killContainer(ctx: KubeletContext, w: PodWorker, c: Container, latest: ContainerInfo, message: string, graceSeconds: number): void {
	const grace = Math.max(MINIMUM_GRACE_PERIOD_S, graceSeconds);
	ctx.podEvent(w, 'Normal', 'Killing', message, c.name);
	ctx.log('I', 'kuberuntime_container.go:809', 'Stopping the container with a grace period', { pod: keyOf(w.pod), podUID: w.uid, containerName: c.name, containerID: `containerd://${latest.id}`, gracePeriod: grace });
	// Restarted as soon as it stopped, without crash-loop back-off (the kubelet restarts it in the same sync).
	if (restartPolicy(w) !== 'Never') w.restartNow[c.name] = true;
	ctx.runtime.stopContainer(latest.id, grace);
}
