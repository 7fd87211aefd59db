import { describe, expect, it } from 'vitest';
import { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import { parseRfc3339 } from '../golang/time.ts';
import { ContainerRuntime, PULL_BYTES_PER_MS, PULL_NOT_FOUND_MS, PULL_OVERHEAD_MS, PULL_UNCHANGED_MS, SANDBOX_SETUP_MS, type SystemContainerHooks } from './container-runtime.ts';
import { emptyRuntimeHostState } from './host-state.ts';
import type { ContainerConfig, CriEvent, SandboxConfig } from '../cri-api/cri.ts';

/** Plays the kubelet: collects what the runtime tells it. */
class Listener extends ProcessBase<{ events: Array<{ atMs: number; event: CriEvent }> }> {
	freshState() {
		return { events: [] as Array<{ atMs: number; event: CriEvent }> };
	}
	onStart() {}
	handle(event: QueuedEvent) {
		if (event.kind === 'cri') this.state.events.push({ atMs: this.kernel.nowMs, event: event.payload as CriEvent });
	}
}

function setup(options: { serialize?: boolean; hooks?: SystemContainerHooks; seed?: number } = {}) {
	const kernel = new Kernel(options.seed ?? 7, parseRfc3339('2026-11-30T08:00:00Z'));
	const host = emptyRuntimeHostState('node-1', '192.168.56.11', '10.244.1.0/24');
	const runtime = new ContainerRuntime(kernel, 'node-1', { host, serializeImagePulls: options.serialize, hooks: options.hooks });
	const listener = new Listener('kubelet/node-1', kernel);
	kernel.register(listener);
	kernel.register(runtime);
	kernel.start(listener.id);
	kernel.start(runtime.id);
	const events = (type: CriEvent['type']) => listener.state.events.filter((e) => e.event.type === type);
	return { kernel, host, runtime, listener, events, run: (ms: number) => kernel.runUntil(kernel.nowMs + ms) };
}

const sandboxConfig = (name: string, extra: Partial<SandboxConfig> = {}): SandboxConfig => ({ podName: name, namespace: 'default', podUid: `uid-${name}`, attempt: 0, hostname: name, hostNetwork: false, labels: {}, annotations: {}, ...extra });
const containerConfig = (name: string, image: string, extra: Partial<ContainerConfig> = {}): ContainerConfig => ({ name, attempt: 0, image, env: [], labels: {}, annotations: {}, ...extra });

/** A ready sandbox, synchronously (pause preloaded). */
function sandbox(s: ReturnType<typeof setup>, name: string, extra: Partial<SandboxConfig> = {}): string {
	s.runtime.preload('registry.k8s.io/pause:3.10.2');
	const op = s.runtime.runPodSandbox(sandboxConfig(name, extra), 'kubelet/node-1');
	expect(op.ok).toBe(true);
	s.run(SANDBOX_SETUP_MS);
	const ready = s.events('sandbox-ready').pop()!.event;
	if (ready.type !== 'sandbox-ready' || !ready.ok) throw new Error('sandbox failed');
	return ready.sandboxId;
}

describe('images a node is built with', () => {
	it('keep the names (normalized, once each) and the size given, even when no registry here serves them', () => {
		const s = setup();
		expect(s.runtime.preloadNamed(['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], 40 * 1024 * 1024)).toEqual({ ok: true });
		const listed = s.runtime.listImages();
		expect(listed.ok && listed.value.map((i) => ({ tags: i.repoTags, size: i.sizeBytes, digests: i.repoDigests.length }))).toEqual([{ tags: ['gcr.io/40:latest', 'gcr.io/40:v1'], size: 41943040, digests: 1 }]);
	});

	it('keep a catalogue image its id and digest, with the size given', () => {
		const s = setup();
		s.runtime.pullImage('nginx:1.14.2', 'kubelet/node-1');
		s.run(10_000);
		const pulled = s.runtime.imageStatus('nginx:1.14.2');
		const s2 = setup();
		expect(s2.runtime.preloadNamed(['nginx:1.14.2'], 123)).toEqual({ ok: true });
		const preloaded = s2.runtime.imageStatus('nginx:1.14.2');
		expect(preloaded.ok && pulled.ok && { id: preloaded.value?.id, digests: preloaded.value?.repoDigests, size: preloaded.value?.sizeBytes }).toEqual({ id: pulled.ok && pulled.value?.id, digests: pulled.ok && pulled.value?.repoDigests, size: 123 });
	});

	it('refuse a name that is no image reference', () => {
		expect(setup().runtime.preloadNamed(['Not An Image'], 1)).toEqual({ ok: false, error: 'image "Not An Image": invalid reference format' });
	});
});

describe('image pulls', () => {
	it('take the fixed cost plus the compressed size at the registry throughput', () => {
		const s = setup();
		s.runtime.pullImage('nginx:1.14.2', 'kubelet/node-1');
		s.run(10_000);
		const [done] = s.events('pull-done');
		const expectedMs = PULL_OVERHEAD_MS + Math.round(44_710_000 / PULL_BYTES_PER_MS);
		expect(done.atMs).toBe(expectedMs);
		expect(done.event).toMatchObject({ ok: true, sizeBytes: 44_710_000, pullMs: expectedMs, totalMs: expectedMs });
		expect(s.runtime.imageStatus('docker.io/library/nginx:1.14.2')).toMatchObject({ ok: true, value: { repoTags: ['docker.io/library/nginx:1.14.2'], sizeBytes: 44_710_000 } });
		// Pulling it again only re-resolves the manifest.
		s.runtime.pullImage('nginx:1.14.2', 'kubelet/node-1');
		s.run(10_000);
		expect(s.events('pull-done')[1].event).toMatchObject({ ok: true, pullMs: PULL_UNCHANGED_MS });
	});

	it('run one at a time by default: the second one waits for the first', () => {
		const s = setup();
		s.runtime.pullImage('nginx:1.14.2', 'kubelet/node-1');
		s.runtime.pullImage('busybox:1.36', 'kubelet/node-1');
		s.run(10_000);
		const nginxMs = PULL_OVERHEAD_MS + Math.round(44_710_000 / PULL_BYTES_PER_MS);
		const busyboxMs = PULL_OVERHEAD_MS + Math.round(2_152_000 / PULL_BYTES_PER_MS);
		expect(s.events('pull-done').map((e) => [e.atMs, (e.event as { pullMs: number }).pullMs, (e.event as { totalMs: number }).totalMs])).toEqual([
			[nginxMs, nginxMs, nginxMs],
			[nginxMs + busyboxMs, busyboxMs, nginxMs + busyboxMs],
		]);
	});

	it('run side by side when serializeImagePulls is off', () => {
		const s = setup({ serialize: false });
		s.runtime.pullImage('nginx:1.14.2', 'kubelet/node-1');
		s.runtime.pullImage('busybox:1.36', 'kubelet/node-1');
		s.run(10_000);
		expect(s.events('pull-done').map((e) => e.atMs)).toEqual([PULL_OVERHEAD_MS + Math.round(2_152_000 / PULL_BYTES_PER_MS), PULL_OVERHEAD_MS + Math.round(44_710_000 / PULL_BYTES_PER_MS)]);
	});

	it.each([
		['nginx:1.99', 'NotFound', 'failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found'],
		// The mirror carries no such repository: the same 404, so the same words as a missing tag.
		['nginxx', 'NotFound', 'failed to pull and unpack image "docker.io/library/nginxx:latest": failed to resolve reference "docker.io/library/nginxx:latest": docker.io/library/nginxx:latest: not found'],
		['bitnami/nginx:1.27', 'NotFound', 'failed to pull and unpack image "docker.io/bitnami/nginx:1.27": failed to resolve reference "docker.io/bitnami/nginx:1.27": docker.io/bitnami/nginx:1.27: not found'],
		['registry.k8s.io/pause:9.9', 'NotFound', 'failed to pull and unpack image "registry.k8s.io/pause:9.9": failed to resolve reference "registry.k8s.io/pause:9.9": registry.k8s.io/pause:9.9: not found'],
		['example.com/team/app:1', 'Unknown', 'failed to pull and unpack image "example.com/team/app:1": failed to resolve reference "example.com/team/app:1": failed to do request: Head "https://example.com/v2/team/app/manifests/1": dial tcp: lookup example.com on 127.0.0.53:53: no such host'],
	])('fail for %s with code %s', (image, code, desc) => {
		const s = setup();
		s.runtime.pullImage(image, 'kubelet/node-1');
		s.run(5_000);
		expect(s.events('pull-done')[0].event).toEqual({ type: 'pull-done', opId: 1, image, ok: false, error: { code, desc } });
	});

	it('fail after the registry round trips for a missing tag', () => {
		const s = setup();
		s.runtime.pullImage('nginx:1.99', 'kubelet/node-1');
		s.run(5_000);
		expect(s.events('pull-done')[0].atMs).toBe(PULL_NOT_FOUND_MS);
	});
});

describe('sandboxes', () => {
	it('pull the pause image themselves, then take the next pod IP of the node CIDR', () => {
		const s = setup();
		s.runtime.runPodSandbox(sandboxConfig('a'), 'kubelet/node-1');
		s.run(5_000);
		const [ready] = s.events('sandbox-ready');
		expect(ready.atMs).toBe(PULL_OVERHEAD_MS + Math.round(320_450 / PULL_BYTES_PER_MS) + SANDBOX_SETUP_MS);
		expect(s.runtime.imageStatus('registry.k8s.io/pause:3.10.2')).toMatchObject({ ok: true, value: { pinned: true } });
		const ids = [sandbox(s, 'b'), sandbox(s, 'c')];
		const ips = s.runtime.listPodSandbox();
		expect(ips.ok && ips.value.map((x) => x.ip)).toEqual(['10.244.1.2', '10.244.1.3', '10.244.1.4']);
		// host-local does not hand a freed address out again at once.
		s.runtime.stopPodSandbox(ids[0]);
		const d = sandbox(s, 'd');
		expect(s.runtime.podSandboxStatus(d)).toMatchObject({ ok: true, value: { ip: '10.244.1.5' } });
		expect(s.runtime.podSandboxStatus(sandbox(s, 'host', { hostNetwork: true }))).toMatchObject({ ok: true, value: { ip: '192.168.56.11' } });
	});

	it('have 64-hex ids drawn from the node seed, the same for the same seed', () => {
		const one = setup({ seed: 3 });
		const two = setup({ seed: 3 });
		const a = sandbox(one, 'x');
		expect(a).toMatch(/^[0-9a-f]{64}$/);
		expect(sandbox(two, 'x')).toBe(a);
	});
});

describe('containers', () => {
	it('run their process, log, exit, and tell the kubelet', () => {
		const s = setup();
		const sb = sandbox(s, 'job');
		s.runtime.preload('busybox:1.36');
		const created = s.runtime.createContainer(sb, containerConfig('main', 'busybox:1.36', { command: ['sh', '-c', 'echo hello; sleep 5; echo bye'] }));
		expect(created.ok).toBe(true);
		const id = (created as { value: { containerId: string } }).value.containerId;
		const t0 = s.kernel.nowMs;
		expect(s.runtime.startContainer(id).ok).toBe(true);
		expect(s.runtime.containerStatus(id)).toMatchObject({ ok: true, value: { state: 'CONTAINER_RUNNING', image: 'docker.io/library/busybox:1.36' } });
		s.run(10_000);
		const exited = s.events('container-exited');
		expect(exited).toEqual([{ atMs: t0 + 5_000, event: { type: 'container-exited', containerId: id, podUid: 'uid-job' } }]);
		expect(s.runtime.containerStatus(id)).toMatchObject({ ok: true, value: { state: 'CONTAINER_EXITED', exitCode: 0, reason: 'Completed' } });
		const logs = s.runtime.readLogs(id);
		expect(logs.ok && logs.value.map((l) => l.text)).toEqual(['hello', 'bye']);
		expect(s.runtime.readLogs(id, { tailLines: 1 })).toMatchObject({ ok: true, value: [{ text: 'bye', stream: 'stdout' }] });
	});

	it('fail to start with StartError and exit code 128 when the command does not exist', () => {
		const s = setup();
		const sb = sandbox(s, 'typo');
		s.runtime.preload('busybox:1.36');
		const id = (s.runtime.createContainer(sb, containerConfig('app', 'busybox:1.36', { command: ['slep', '1'] })) as { value: { containerId: string } }).value.containerId;
		const started = s.runtime.startContainer(id);
		expect(started).toEqual({ ok: false, error: { code: 'Unknown', desc: 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "slep": executable file not found in $PATH: unknown' } });
		expect(s.runtime.containerStatus(id)).toMatchObject({ ok: true, value: { state: 'CONTAINER_EXITED', exitCode: 128, reason: 'StartError', startedWallMs: undefined } });
	});

	it('are stopped with the stop signal, then SIGKILL at the timeout', () => {
		const s = setup();
		const sb = sandbox(s, 'pod');
		s.runtime.preload('nginx:1.27');
		s.runtime.preload('busybox:1.36');
		const nginx = (s.runtime.createContainer(sb, containerConfig('nginx', 'nginx:1.27')) as { value: { containerId: string } }).value.containerId;
		const sleeper = (s.runtime.createContainer(sb, containerConfig('sleep', 'busybox:1.36', { command: ['sleep', '3600'] })) as { value: { containerId: string } }).value.containerId;
		s.runtime.startContainer(nginx);
		s.runtime.startContainer(sleeper);
		s.run(1_000);
		const t = s.kernel.nowMs;
		s.runtime.stopContainer(nginx, 30);
		s.runtime.stopContainer(sleeper, 30);
		s.run(60_000);
		expect(s.events('container-exited').map((e) => e.atMs - t)).toEqual([100, 30_000]);
		expect(s.runtime.containerStatus(sleeper)).toMatchObject({ ok: true, value: { exitCode: 137, reason: 'Error' } });
		expect(s.host.journal.some((l) => l.includes(`Stop container \\"${nginx}\\" with signal quit`))).toBe(true);
	});

	it('answer HTTP probes from the node, with an access-log line', () => {
		const s = setup();
		const sb = sandbox(s, 'web');
		s.runtime.preload('nginx:1.27');
		const id = (s.runtime.createContainer(sb, containerConfig('nginx', 'nginx:1.27')) as { value: { containerId: string } }).value.containerId;
		s.runtime.startContainer(id);
		expect(s.runtime.probeHttp(sb, 80, '/')).toEqual({ ok: true, value: { kind: 'refused' } });
		s.run(100);
		expect(s.runtime.probeHttp(sb, 80, '/')).toEqual({ ok: true, value: { kind: 'http', status: 200 } });
		expect(s.runtime.probeHttp(sb, 80, '/healthz')).toEqual({ ok: true, value: { kind: 'http', status: 404 } });
		expect(s.runtime.probeHttp(sb, 80, '/fail')).toEqual({ ok: true, value: { kind: 'http', status: 500 } });
		expect(s.runtime.probeHttp(sb, 8080, '/')).toEqual({ ok: true, value: { kind: 'refused' } });
		expect(s.runtime.probeTcp(sb, 80)).toEqual({ ok: true, value: { kind: 'connected' } });
		const logs = s.runtime.readLogs(id, { tailLines: 1 });
		expect(logs.ok && logs.value[0].text).toBe('10.244.1.1 - - [30/Nov/2026:08:00:00 +0000] "GET /fail HTTP/1.1" 500 0 "-" "kube-probe/1.36" "-"');
	});
});

describe('containerd stopping and starting', () => {
	it('fails every CRI call while down, but lets containers run on and reports what ended meanwhile', () => {
		const s = setup();
		const sb = sandbox(s, 'job');
		s.runtime.preload('busybox:1.36');
		const id = (s.runtime.createContainer(sb, containerConfig('main', 'busybox:1.36', { command: ['sh', '-c', 'sleep 20; exit 3'] })) as { value: { containerId: string } }).value.containerId;
		s.runtime.startContainer(id);
		const t0 = s.kernel.nowMs;
		s.kernel.stop(s.runtime.id);
		const down = { ok: false, error: { code: 'Unavailable', desc: 'connection error: desc = "transport: Error while dialing: dial unix /var/run/containerd/containerd.sock: connect: connection refused"' } };
		expect(s.runtime.version()).toEqual(down);
		expect(s.runtime.listContainers()).toEqual(down);
		expect(s.host.service.active).toBe(false);
		s.run(30_000);
		expect(s.events('container-exited')).toEqual([]);
		s.kernel.start(s.runtime.id);
		expect(s.runtime.containerStatus(id)).toMatchObject({ ok: true, value: { state: 'CONTAINER_EXITED', exitCode: 3, finishedWallMs: s.kernel.epochMs + t0 + 20_000 } });
		s.run(1);
		expect(s.events('runtime-started')).toHaveLength(2);
	});

	it('fails the pulls in flight when it stops', () => {
		const s = setup();
		s.runtime.pullImage('nginx:1.27', 'kubelet/node-1');
		s.run(100);
		s.kernel.stop(s.runtime.id);
		s.run(10);
		expect(s.events('pull-done')[0].event).toMatchObject({ ok: false, error: { code: 'Unavailable', desc: 'error reading from server: EOF' } });
	});
});

describe('system containers', () => {
	it('start and stop the control-plane process, and exit 1 while the component is failing', () => {
		const calls: string[] = [];
		let failing = false;
		const s = setup({ hooks: { onSystemContainerStart: (n, c) => calls.push(`start ${c}`), onSystemContainerStop: (n, c) => calls.push(`stop ${c}`), isComponentFailing: () => failing } });
		const sb = sandbox(s, 'kube-scheduler-cp', { hostNetwork: true });
		s.runtime.preload('registry.k8s.io/kube-scheduler:v1.36.3');
		const create = () => (s.runtime.createContainer(sb, containerConfig('kube-scheduler', 'registry.k8s.io/kube-scheduler:v1.36.3', { command: ['kube-scheduler', '--leader-elect=true'] })) as { value: { containerId: string } }).value.containerId;
		const first = create();
		s.runtime.startContainer(first);
		expect(calls).toEqual(['start kube-scheduler']);
		expect(s.runtime.probeHttp(sb, 10259, '/livez')).toEqual({ ok: true, value: { kind: 'refused' } });
		s.run(1_000);
		expect(s.runtime.probeHttp(sb, 10259, '/livez')).toEqual({ ok: true, value: { kind: 'http', status: 200 } });
		s.runtime.stopContainer(first, 30);
		s.run(1_000);
		expect(calls).toEqual(['start kube-scheduler', 'stop kube-scheduler']);
		failing = true;
		const second = create();
		s.runtime.startContainer(second);
		s.run(2_000);
		expect(calls).toEqual(['start kube-scheduler', 'stop kube-scheduler']);
		expect(s.runtime.containerStatus(second)).toMatchObject({ ok: true, value: { state: 'CONTAINER_EXITED', exitCode: 1, reason: 'Error' } });
	});
});
