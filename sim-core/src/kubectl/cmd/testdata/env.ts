/**
 * The world kubectl's changing commands are tested in: a real etcd and
 * kube-apiserver (every strategy, the default admission chain, strict field
 * validation), the namespaces and service account bootstrap would create,
 * and `kubectl(...)` to run a command line. Tests play the controllers and
 * kubelets by writing objects and statuses through `admin`.
 */
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.ts';
import { createKubectlTestEnv } from '../../../testing/kubectl-env.ts';
import { defaultStrategies } from '../../../apiserver/registry/index.ts';
import { defaultAdmissionPlugins } from '../../../apiserver/admission/index.ts';
import { strictDecode } from '../../../api/schema/index.ts';
import type { KubeObject } from '../../../api/types.ts';
import { R, refOf, type ApiClient } from '../../../client/client.ts';
import { resourceForKind } from '../../../api/resources.ts';
import { runKubectl, type KubectlEnvironment } from '../../kubectl.ts';
import { COMMANDS } from '../index.ts';
import type { CommandResult } from '../../../shell/types.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import { ProcessBase } from '../../../sim/process-base.ts';
import type { QueuedEvent } from '../../../sim/event-queue.ts';
import type { Kernel } from '../../../sim/kernel.ts';

/**
 * Plays the cluster's other components on the virtual clock: each step is
 * a callback run at a given time (the steps live in this test object, the
 * queued events only carry their index, as plain data).
 */
class Scripted extends ProcessBase<{ next: number }> {
	steps: Array<() => void> = [];
	constructor(kernel: Kernel) {
		super('test-scripted', kernel);
	}
	freshState() {
		return { next: 0 };
	}
	onStart(): void {}
	at(delayMs: number, step: () => void): void {
		this.steps.push(step);
		this.after(delayMs, 'step', { index: this.steps.length - 1 });
	}
	every(periodMs: number, step: () => void): void {
		const index = this.steps.push(() => {
			step();
			this.after(periodMs, 'step', { index });
		}) - 1;
		this.after(periodMs, 'step', { index }, { background: true });
	}
	handle(event: QueuedEvent): void {
		const { index } = event.payload as { index: number };
		this.steps[index]?.();
	}
}

/** Splits a command line as a POSIX shell would for simple cases: whitespace, single and double quotes, backslash escapes. */
export function splitArgs(line: string): string[] {
	const out: string[] = [];
	let current = '';
	let started = false;
	for (let i = 0; i < line.length; i++) {
		const c = line[i];
		if (c === "'") {
			const end = line.indexOf("'", i + 1);
			current += line.slice(i + 1, end);
			i = end;
			started = true;
		} else if (c === '"') {
			let j = i + 1;
			for (; j < line.length && line[j] !== '"'; j++) {
				if (line[j] === '\\' && j + 1 < line.length) j++;
				current += line[j];
			}
			i = j;
			started = true;
		} else if (c === '\\' && i + 1 < line.length) {
			current += line[++i];
			started = true;
		} else if (/\s/.test(c)) {
			if (started) out.push(current);
			current = '';
			started = false;
		} else {
			current += c;
			started = true;
		}
	}
	if (started) out.push(current);
	return out;
}

export interface World {
	harness: ApiHarness;
	env: KubectlEnvironment & { files: Record<string, string> };
	/** Acts as the cluster's other components (controllers, kubelets). */
	admin: ApiClient;
	/** `kubectl <line>`; the line is split like a shell would. */
	kubectl(line: string, stdin?: string): CommandResult;
	/** Creates objects as given (the way a controller or a test would). */
	create(...objects: KubeObject[]): void;
	/** Reads an object back. */
	get(ref: { group: string; version: string; resource: string }, namespace: string | undefined, name: string): KubeObject | undefined;
	/** etcd's revision: unchanged means nothing was written. */
	revision(): number;
	/** What the kubelet answers for pods/log and pods/exec. */
	nodeProxy: { handler?: (node: string, request: ApiRequest) => ApiResponse | undefined };
	/** Runs `step` after `delayMs` of virtual time, as another component would act. */
	at(delayMs: number, step: () => void): void;
	/** Runs `step` every `periodMs`. */
	every(periodMs: number, step: () => void): void;
	/** Plays the kubelets' part in deletion: every second, pods marked for deletion are removed. */
	finishPodDeletions(): void;
}

export function world(options: { files?: Record<string, string>; namespaces?: string[] } = {}): World {
	const nodeProxy: World['nodeProxy'] = {};
	const harness = createApiHarness({
		deps: {
			strategies: defaultStrategies(),
			admission: defaultAdmissionPlugins(),
			decode: (body, info) => {
				const result = strictDecode(body, { group: info.group, version: info.version, kind: info.kind });
				return { errors: result.errors, warnings: result.warnings };
			},
			nodeProxy: (node, request) => nodeProxy.handler?.(node, request),
		},
	});
	const env = createKubectlTestEnv(harness, options.files ?? {});
	const scripted = new Scripted(harness.kernel);
	harness.kernel.register(scripted);
	harness.kernel.start(scripted.id);
	const admin = harness.client('kube-controller-manager');
	for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease', ...(options.namespaces ?? [])]) {
		admin.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
		admin.create(R.serviceaccounts, name, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
	}
	return {
		harness,
		env,
		admin,
		nodeProxy,
		// The two streams, as a test compares them; the order a terminal shows them in is tested through the shell.
		kubectl: (line, stdin = '') => {
			const { stdout, stderr, exitCode } = runKubectl(splitArgs(line), stdin, env, COMMANDS);
			return { stdout, stderr, exitCode };
		},
		create: (...objects) => {
			for (const obj of objects) {
				const info = resourceForKind(obj.apiVersion, obj.kind);
				if (!info) throw new Error(`unknown kind ${obj.kind}`);
				const created = admin.create(refOf(info), info.namespaced ? (obj.metadata.namespace ?? 'default') : undefined, obj);
				if (!created.ok) throw new Error(`creating ${obj.kind} ${obj.metadata.name}: ${created.message}`);
				if (obj.status !== undefined) {
					const withStatus = { ...(created.object as KubeObject), status: obj.status };
					const updated = admin.updateStatus(refOf(info), withStatus);
					if (!updated.ok) throw new Error(`status of ${obj.kind} ${obj.metadata.name}: ${updated.message}`);
				}
			}
		},
		get: (ref, namespace, name) => {
			const got = admin.get(ref, namespace, name);
			return got.ok ? got.object : undefined;
		},
		revision: () => harness.etcd.revision,
		at: (delayMs, step) => scripted.at(delayMs, step),
		every: (periodMs, step) => scripted.every(periodMs, step),
		finishPodDeletions: () =>
			scripted.every(1000, () => {
				const listed = admin.list(R.pods);
				if (!listed.ok) return;
				for (const pod of listed.object.items) if (pod.metadata.deletionTimestamp) admin.delete(R.pods, pod.metadata.namespace, pod.metadata.name!, { gracePeriodSeconds: 0 });
			}),
	};
}
