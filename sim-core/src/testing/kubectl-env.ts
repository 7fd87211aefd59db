/**
 * A KubectlEnvironment over the API harness, for kubectl's tests: files in
 * a plain map, waits that run the harness's virtual clock, watches through a
 * small watcher process.
 *
 * Mirrors nothing upstream: a kubectl environment over the test harness.
 */
import type { ApiHarness } from './api-harness.ts';
import type { KubectlEnvironment } from '../kubectl/kubectl.ts';
import { ApiClient, type ResourceRef } from '../client/client.ts';
import { ProcessBase } from '../sim/process-base.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { WatchEvent } from '../api/request.ts';

class WatchSink extends ProcessBase<{ watchId: number | null }> {
	onEvent: (event: WatchEvent) => void = () => {};
	freshState() {
		return { watchId: null as number | null };
	}
	onStart(): void {}
	handle(event: QueuedEvent): void {
		if (event.kind !== 'watch') return;
		const payload = event.payload as { watchId: number; event: WatchEvent };
		if (payload.watchId === this.state.watchId) this.onEvent(payload.event);
	}
}

export function createKubectlTestEnv(harness: ApiHarness, files: Record<string, string> = {}): KubectlEnvironment & { files: Record<string, string> } {
	const sink = new WatchSink('kubectl-watch', harness.kernel);
	harness.kernel.register(sink);
	harness.kernel.start(sink.id);
	harness.transport.enroll('kubectl', { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] });
	harness.transport.enroll(sink.id, { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] });
	const step = 100;
	return {
		files,
		client: (impersonate) => new ApiClient(harness.transport, 'kubectl', impersonate ? { user: impersonate.user, groups: impersonate.groups } : undefined),
		defaultNamespace: 'default',
		serverUrl: 'https://192.168.56.10:6443',
		readFile: (path) => files[path],
		listDir: (path) => {
			const prefix = path.endsWith('/') ? path : `${path}/`;
			const names = Object.keys(files).filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length));
			return names.length ? names : undefined;
		},
		nowMs: () => harness.kernel.nowMs,
		wallMs: () => harness.kernel.wallMs(),
		waitFor: (done, timeoutMs) => {
			const end = harness.kernel.nowMs + timeoutMs;
			while (!done()) {
				if (harness.kernel.nowMs >= end) return false;
				harness.advance(Math.min(step, end - harness.kernel.nowMs));
			}
			return true;
		},
		watch: (ref: ResourceRef, request, onEvent, stop, timeoutMs) => {
			const client = new ApiClient(harness.transport, sink.id);
			const started = client.watch(ref, request.namespace, request.query);
			if (!started.ok) return;
			sink.state.watchId = started.object.watchId;
			sink.onEvent = onEvent;
			const end = harness.kernel.nowMs + timeoutMs;
			while (!stop() && harness.kernel.nowMs < end) harness.advance(Math.min(step, end - harness.kernel.nowMs));
			client.stopWatch(started.object.watchId);
			sink.state.watchId = null;
		},
		clientVersion: 'v1.36.3',
	};
}
