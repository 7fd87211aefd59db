/**
 * For the reading commands' tests: a real etcd + kube-apiserver (with the
 * registry's strategies, so objects get upstream's defaults), a kubectl
 * environment over it, and small builders for the objects a scenario
 * needs. Tests play the controllers and kubelets by writing objects and
 * statuses through the API. Not used by the simulation itself.
 *
 * Mirrors nothing upstream: fixtures for kubectl's reading commands' tests.
 */
import type { KubeObject } from '../../api/types.ts';
import { resourceForKind } from '../../api/resources.ts';
import { refOf } from '../../client/client.ts';
import { createApiHarness, type ApiHarness } from '../api-harness.ts';
import { createKubectlTestEnv } from '../kubectl-env.ts';
import { defaultStrategies } from '../../apiserver/registry/index.ts';
import { defaultAdmissionPlugins } from '../../apiserver/admission/index.ts';
import { runKubectl, type KubectlEnvironment } from '../../kubectl/kubectl.ts';
import type { CommandResult } from '../../shell/types.ts';
import { COMMANDS } from '../../kubectl/cmd/index.ts';

/** The virtual cluster's start, as the harness sets it (2026-11-30T08:00:00Z). */
export const START = '2026-11-30T08:00:00Z';

/** Splits a command line like a shell would for these tests: whitespace, with single and double quotes. */
export function splitArgs(line: string): string[] {
	const out: string[] = [];
	let current = '';
	let quote: string | undefined;
	let any = false;
	for (const ch of line) {
		if (quote) {
			if (ch === quote) quote = undefined;
			else current += ch;
		} else if (ch === '"' || ch === "'") {
			quote = ch;
			any = true;
		} else if (/\s/.test(ch)) {
			if (current || any) out.push(current);
			current = '';
			any = false;
		} else current += ch;
	}
	if (current || any) out.push(current);
	return out;
}

export interface KubectlFixture {
	harness: ApiHarness;
	env: KubectlEnvironment & { files: Record<string, string> };
	/** Runs `kubectl <line>` (the line without `kubectl`). */
	kubectl(line: string, stdin?: string): CommandResult;
	/** Creates an object as a controller would (no kubectl involved); returns the stored object. */
	create<T extends KubeObject = KubeObject>(obj: KubeObject): T;
	/** Replaces an object's status (status subresource when the resource has one). */
	setStatus<T extends KubeObject = KubeObject>(obj: KubeObject, status: unknown): T;
	/** Runs the virtual clock forward. */
	advance(ms: number): void;
}

/**
 * A cluster with the `default` namespace and a kubectl to drive it. With
 * `admission`, the API server also runs the default admission plugins (and
 * the namespace gets its `default` service account, which they require).
 */
export function kubectlFixture(options: { files?: Record<string, string>; serverVersion?: string; admission?: boolean } = {}): KubectlFixture {
	const harness = createApiHarness({ deps: { strategies: defaultStrategies(), admission: options.admission ? defaultAdmissionPlugins() : [] } });
	const base = createKubectlTestEnv(harness, options.files ?? {});
	const gitVersion = options.serverVersion;
	const env = gitVersion ? Object.assign(base, { serverVersion: () => ({ ok: true as const, code: 200, object: { gitVersion } }) }) : base;
	const client = harness.client('kube-controller-manager');
	const create = <T extends KubeObject>(obj: KubeObject): T => {
		const info = resourceForKind(obj.apiVersion, obj.kind);
		if (!info) throw new Error(`unknown kind ${obj.kind}`);
		const made = client.create<T>(refOf(info), info.namespaced ? (obj.metadata.namespace ?? 'default') : undefined, obj);
		if (!made.ok) throw new Error(`create ${obj.kind} ${obj.metadata.name}: ${made.message}`);
		return made.object;
	};
	const setStatus = <T extends KubeObject>(obj: KubeObject, status: unknown): T => {
		const info = resourceForKind(obj.apiVersion, obj.kind);
		if (!info) throw new Error(`unknown kind ${obj.kind}`);
		const current = client.get(refOf(info), info.namespaced ? (obj.metadata.namespace ?? 'default') : undefined, obj.metadata.name ?? '');
		if (!current.ok) throw new Error(`get ${obj.kind} ${obj.metadata.name}: ${current.message}`);
		const updated = { ...current.object, status } as KubeObject;
		const done = info.subresources.includes('status') ? client.updateStatus<T>(refOf(info), updated) : client.update<T>(refOf(info), updated);
		if (!done.ok) throw new Error(`status ${obj.kind} ${obj.metadata.name}: ${done.message}`);
		return done.object;
	};
	create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
	if (options.admission) create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
	return {
		harness,
		env,
		// The two streams, as a test compares them; the order a terminal shows them in is tested through the shell.
		kubectl: (line, stdin = '') => {
			const { stdout, stderr, exitCode } = runKubectl(splitArgs(line), stdin, env, COMMANDS);
			return { stdout, stderr, exitCode };
		},
		create,
		setStatus,
		advance: (ms) => harness.advance(ms),
	};
}

/** Joins lines and adds the final newline, so expected output reads like the terminal. */
export const lines = (...ls: string[]): string => ls.join('\n') + '\n';
