/**
 * The pod lifecycle event generator: what the container runtime reports
 * (the runtime came up, a container exited, a sandbox is ready, an image
 * pull finished) becomes a sync of the pod it concerns. A failed sandbox
 * or pull records its events here; the pod's next sync sees the back-off.
 *
 * The pull's events follow pkg/kubelet/images/image_manager.go.
 *
 * Mirrors pkg/kubelet/pleg/generic.go (relist turning runtime changes into
 * pod events), pkg/kubelet/kubelet.go (the PLEG branch of
 * syncLoopIteration), pkg/kubelet/images/image_manager.go (the pull's
 * events).
 */
import { keyOf } from '../client/informer.ts';
import { criErrorText, type CriEvent } from '../cri-api/cri.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import { backoffGc, backoffNext, IMAGE_PULL_BACKOFF } from './backoff.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { POD_WORKER_BACKOFF_MS, requestSync } from './pod-workers.ts';
import { writeStatus } from './status-manager.ts';

export function onCri(ctx: KubeletContext, event: CriEvent): void {
	switch (event.type) {
		case 'runtime-started':
			ctx.state.runtime.lastOkMs = ctx.nowMs;
			ctx.state.runtime.down = false;
			for (const w of Object.values(ctx.state.pods)) requestSync(ctx, w, 0, false);
			return;
		case 'container-exited': {
			const w = ctx.state.pods[event.podUid];
			if (w) requestSync(ctx, w, 0, false);
			return;
		}
		case 'sandbox-ready': {
			const w = Object.values(ctx.state.pods).find((p) => p.op?.opId === event.opId && p.op.kind === 'sandbox');
			if (!w) {
				// The pod went away meanwhile: the sandbox is an orphan for housekeeping.
				return;
			}
			w.op = undefined;
			if (event.ok) w.sandboxId = event.sandboxId;
			else {
				ctx.podEvent(w, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${criErrorText(event.error)}`);
				ctx.log('E', 'kuberuntime_sandbox.go:72', 'Could not create the pod sandbox', { err: criErrorText(event.error), pod: keyOf(w.pod) });
				requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
				return;
			}
			requestSync(ctx, w, 0, false);
			return;
		}
		case 'pull-done': {
			const w = Object.values(ctx.state.pods).find((p) => p.op?.opId === event.opId && p.op.kind === 'pull');
			if (!w || !w.op) return;
			const op = w.op;
			w.op = undefined;
			const image = op.image ?? event.image;
			const container = op.container ?? '';
			const isInit = (w.pod.spec.initContainers ?? []).some((c) => c.name === container);
			const key = `${w.uid}_${image}`;
			if (event.ok) {
				ctx.podEvent(w, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${formatGoDurationMs(event.pullMs)} (${formatGoDurationMs(event.totalMs)} including waiting). Image size: ${event.sizeBytes} bytes.`, container, isInit);
				w.justPulled = { container, imageRef: event.imageRef };
				delete w.waiting[container];
				backoffGc(ctx.state.imageBackoff, IMAGE_PULL_BACKOFF, ctx.nowMs);
				requestSync(ctx, w, 0, false);
				return;
			}
			const text = criErrorText(event.error);
			ctx.podEvent(w, 'Warning', 'Failed', `Failed to pull image "${image}": ${text}`, container, isInit);
			backoffNext(ctx.state.imageBackoff, IMAGE_PULL_BACKOFF, key, ctx.nowMs, ctx.nowMs);
			ctx.state.lastPullError[key] = text;
			w.waiting[container] = { reason: 'ErrImagePull', message: text };
			ctx.podEvent(w, 'Warning', 'Failed', 'Error: ErrImagePull', container, isInit);
			ctx.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `failed to "StartContainer" for "${container}" with ErrImagePull: "${text.replace(/"/g, '\\"')}"`, pod: keyOf(w.pod), podUID: w.uid });
			writeStatus(ctx, w);
			// The PLEG's next relist syncs the pod again: the pull is then in back-off.
			requestSync(ctx, w, ctx.config.plegRelistPeriodMs, false);
			return;
		}
	}
}
