/**
 * `kubectl wait (TYPE/NAME | TYPE -l SEL | -f FILE) --for=condition=Ready |
 * --for=delete | --for=create | --for=jsonpath='{.status.phase}'=Running
 * [--timeout=30s]`: runs the cluster until every object meets every
 * condition, printing `pod/web condition met` for each, or fails with
 * `timed out waiting for the condition on pods/web`. `--timeout=0` checks
 * once; a negative timeout means a week upstream and is bounded here by
 * WAIT_NEGATIVE_TIMEOUT_CAP_MS.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/wait/condition.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/wait/delete.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/wait/create.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/wait/json.go.
 */
import type { KubeObject } from '../../api/types.ts';
import type { JsonValue } from '../../golang/json.ts';
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { parseJsonPath, findJsonPathResults, relaxedJsonPathExpression, JsonPathError, type JsonPathTemplate } from '../printers/jsonpath.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { durationFlag } from './delete.ts';
import { PRINT_FLAGS, toPrinter } from './print-flags.ts';
import { visit } from './visit.ts';
import type { TargetInfo } from './resource-info.ts';
import type { CommandResult } from '../../shell/types.ts';

/** The wait flags' default timeout (wait.go NewWaitFlags: 30s). */
const DEFAULT_TIMEOUT = '30s';
/** A negative --timeout waits a week upstream; here at most 10 minutes of virtual time. */
const WAIT_NEGATIVE_TIMEOUT_CAP_MS = 10 * 60_000;
/** --for=create polls every 500ms (wait.go RunWaitContext). */
const CREATE_POLL_MS = 500;

type Condition =
	| { kind: 'delete' }
	| { kind: 'create' }
	| { kind: 'condition'; name: string; value: string }
	| { kind: 'jsonpath'; parsed: JsonPathTemplate; value: string | undefined };

/** wait.go splitJSONPathInput: split at `=` except `==`. */
function splitJsonPathInput(input: string): string[] {
	const out: string[] = [];
	let element = '';
	for (let i = 0; i < input.length; i++) {
		if (input[i] === '=') {
			if (i < input.length - 1 && input[i + 1] === '=') {
				element += '==';
				i++;
				continue;
			}
			out.push(element);
			element = '';
			continue;
		}
		element += input[i];
	}
	out.push(element);
	return out;
}

/** conditionFuncsFor: the --for values, or kubectl's error. */
function parseConditions(values: string[]): { conditions: Condition[] } | { error: KubectlError } {
	const conditions: Condition[] = [];
	for (const cond of values) {
		const lower = cond.toLowerCase();
		if (lower === 'delete') conditions.push({ kind: 'delete' });
		else if (lower === 'create') conditions.push({ kind: 'create' });
		else if (cond.startsWith('condition=')) {
			let name = cond.slice('condition='.length);
			let value = 'true';
			const eq = name.indexOf('=');
			if (eq !== -1) {
				value = name.slice(eq + 1);
				name = name.slice(0, eq);
			}
			conditions.push({ kind: 'condition', name, value });
		} else if (cond.startsWith('jsonpath=')) {
			const parts = splitJsonPathInput(cond.slice('jsonpath='.length));
			if (parts.length < 1 || parts.length > 2) return { error: plain("jsonpath wait format must be --for=jsonpath='{.status.readyReplicas}'=3 or --for=jsonpath='{.status.readyReplicas}'") };
			let expression: string;
			try {
				expression = relaxedJsonPathExpression(parts[0]);
			} catch (error) {
				if (error instanceof JsonPathError) return { error: plain(error.message) };
				throw error;
			}
			let value: string | undefined;
			if (parts.length === 2) {
				value = parts[1].replace(/^['"]+|['"]+$/g, '');
				if (value === '') return { error: plain("jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3") };
			}
			if (expression === '') return { error: plain('jsonpath expression cannot be empty') };
			try {
				conditions.push({ kind: 'jsonpath', parsed: parseJsonPath(expression), value });
			} catch (error) {
				if (error instanceof JsonPathError) return { error: plain(error.message) };
				throw error;
			}
		} else return { error: plain(`unrecognized condition: ${JSON.stringify(cond)}`) };
	}
	if (conditions.length === 0) return { error: plain('unrecognized condition: []') };
	return { conditions };
}

/** Go's `%v` of a JSONPath result scalar. */
function goValue(value: JsonValue): string {
	return value === null ? '<nil>' : String(value);
}

/** Whether an object meets a status condition or a JSONPath condition now (checkCondition). */
function meets(obj: KubeObject, cond: Condition): { met: boolean } | { error: KubectlError } {
	if (cond.kind === 'condition') {
		const conditions = ((obj.status as { conditions?: Array<{ type?: string; status?: string; observedGeneration?: number }> } | undefined)?.conditions ?? []);
		for (const c of conditions) {
			if (typeof c.type !== 'string' || c.type.toLowerCase() !== cond.name.toLowerCase() || typeof c.status !== 'string') continue;
			const generation = obj.metadata.generation;
			if (generation !== undefined) {
				const observed = c.observedGeneration ?? (obj.status as { observedGeneration?: number } | undefined)?.observedGeneration;
				if (observed !== undefined && observed < generation) return { met: false };
			}
			return { met: c.status.toLowerCase() === cond.value.toLowerCase() };
		}
		return { met: false };
	}
	if (cond.kind === 'jsonpath') {
		let results: JsonValue[][];
		try {
			results = findJsonPathResults(cond.parsed, obj as unknown as JsonValue, { allowMissingKeys: true });
		} catch (error) {
			if (error instanceof JsonPathError) return { error: plain(error.message) };
			throw error;
		}
		if (results.length === 0 || results[0].length === 0) return { met: false };
		if (results.length > 1) return { error: plain('given jsonpath expression matches more than one list') };
		if (results[0].length > 1) return { error: plain('given jsonpath expression matches more than one value') };
		if (cond.value === undefined) return { met: true };
		const value = results[0][0];
		if (value !== null && typeof value === 'object') return { error: plain('jsonpath leads to a nested object or list which is not supported') };
		return { met: goValue(value).trim() === cond.value.trim() };
	}
	return { met: true };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const printer = toPrinter(args);
	if ('error' in printer) return checkErr(printer.error);
	const timeout = durationFlag(inv, 'timeout');
	if ('error' in timeout) return checkErr(timeout.error);
	const parsed = parseConditions((args.flags.for as string[]) ?? []);
	if ('error' in parsed) return checkErr(parsed.error);
	const timeoutMs = timeout.ms < 0 ? WAIT_NEGATIVE_TIMEOUT_CAP_MS : timeout.ms;
	const forDelete = parsed.conditions.some((c) => c.kind === 'delete');
	const forCreate = parsed.conditions.some((c) => c.kind === 'create');
	const start = inv.env.nowMs();
	const remaining = () => Math.max(0, timeoutMs - (inv.env.nowMs() - start));
	const find = () => visit(inv, { allowEmptySelector: true, requireObject: true, ignoreNotFound: forDelete });
	let visited = find();
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	if (forCreate) {
		// Poll until the objects exist (NotFound keeps the poll going).
		let next = inv.env.nowMs();
		const found = () => {
			if (inv.env.nowMs() < next) return false;
			next = inv.env.nowMs() + CREATE_POLL_MS;
			visited = find();
			if (visited.usage || visited.fatal) return true;
			if (visited.errors.length) return !visited.errors.every((e) => e.kind === 'status' && e.code === 404);
			return visited.targets.length > 0;
		};
		if (!found() && !inv.env.waitFor(found, timeoutMs)) return checkErr(plain('timed out waiting for the condition'));
		if (visited.fatal) return checkErr(visited.fatal);
	}
	if (visited.errors.length) return checkErr(visited.errors[0]);
	let stdout = '';
	for (const target of visited.targets) {
		for (const cond of parsed.conditions) {
			const result = waitOne(inv, target, cond, timeoutMs === 0 ? 0 : remaining());
			if ('error' in result) return checkErr(result.error, stdout);
			stdout += printer.printer(result.object, 'condition met');
		}
	}
	if (visited.targets.length === 0 && !forDelete) return checkErr(plain('no matching resources found'), stdout);
	return { stdout, stderr: '', exitCode: 0 };
}

/** One condition on one object: check, then run the clock until it holds or time runs out. */
function waitOne(inv: KubectlInvocation, target: TargetInfo, cond: Condition, timeoutMs: number): { object: KubeObject } | { error: KubectlError } {
	const ref = refOf(target.info);
	const objectName = `${target.info.resource}/${target.name}`;
	const timedOut = plain(`timed out waiting for the condition on ${objectName}`);
	if (!target.name) return { error: plain('resource name must be provided') };
	if (cond.kind === 'create') return { object: target.object as KubeObject };
	if (cond.kind === 'delete') {
		const uid = target.object?.metadata.uid;
		const gone = (): boolean | KubectlError => {
			const got = inv.client.get(ref, target.namespace, target.name);
			if (!got.ok) return got.code === 404 ? true : callError(got, inv.env.serverUrl);
			return !!uid && got.object.metadata.uid !== uid;
		};
		const first = gone();
		if (typeof first !== 'boolean') return { error: first };
		if (first) return { object: target.object as KubeObject };
		if (timeoutMs === 0) return { error: plain(`condition not met for ${objectName}`) };
		let failure: KubectlError | undefined;
		const done = inv.env.waitFor(() => {
			const now = gone();
			if (typeof now !== 'boolean') {
				failure = now;
				return true;
			}
			return now;
		}, timeoutMs);
		if (failure) return { error: failure };
		return done ? { object: target.object as KubeObject } : { error: timedOut };
	}
	let latest = target.object as KubeObject;
	let failure: KubectlError | undefined;
	const check = (): boolean => {
		const got = inv.client.get(ref, target.namespace, target.name);
		if (!got.ok) {
			failure = callError(got, inv.env.serverUrl);
			return true;
		}
		latest = { ...got.object, apiVersion: latest.apiVersion, kind: latest.kind };
		const result = meets(latest, cond);
		if ('error' in result) {
			failure = result.error;
			return true;
		}
		return result.met;
	};
	if (timeoutMs === 0) {
		const met = check();
		if (failure) return { error: failure };
		return met ? { object: latest } : { error: plain(`condition not met for ${objectName}`) };
	}
	const met = check() || inv.env.waitFor(check, timeoutMs);
	if (failure) return { error: failure };
	return met ? { object: latest } : { error: timedOut };
}

export const waitCommand: KubectlCommand = {
	name: 'wait',
	summary: 'Wait for a specific condition on one or many resources',
	usage: "kubectl wait ([-f FILENAME] | resource.group/resource.name | resource.group [(-l label | --all)]) [--for=create|--for=delete|--for condition=available|--for=jsonpath='{}'[=value]]",
	flags: [
		{ name: 'for', kind: 'stringArray', noSplit: true },
		{ name: 'timeout', kind: 'duration', default: DEFAULT_TIMEOUT },
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'selector', short: 'l', kind: 'string' },
		{ name: 'field-selector', kind: 'string' },
		{ name: 'all', kind: 'bool' },
		{ name: 'all-namespaces', short: 'A', kind: 'bool' },
		{ name: 'local', kind: 'bool' },
		...PRINT_FLAGS,
	],
	run,
};
