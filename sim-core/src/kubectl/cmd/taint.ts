/**
 * `kubectl taint nodes NAME key=value:Effect | key:Effect- | key-`: edits
 * `spec.taints` of nodes and patches them, printing `node/x tainted`,
 * `untainted` or `modified`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/taint/taint.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/taint/utils.go.
 */
import type { Node, Taint } from '../../api/types.ts';
import { isQualifiedName, isValidLabelValue } from '../../api/labels.ts';
import { refOf, R } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { resolveResourceType } from '../resource-args.ts';
import { callError, checkErr, plain, usageError, type KubectlError } from './check-err.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, VALIDATE_FLAG, dryRunStrategy, toPrinter, validationDirective } from './print-flags.ts';
import { isFatalCall, typed } from './resource-info.ts';
import { resourceByName } from '../../api/resources.ts';
import type { CommandResult } from '../../shell/types.ts';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** Taint.ToString: `key=value:effect`, parts left out when empty. */
export function taintString(t: Pick<Taint, 'key' | 'value' | 'effect'>): string {
	let out = t.key;
	if (t.value) out += `=${t.value}`;
	if (t.effect) out += `:${t.effect}`;
	return out;
}

/** utils.go parseTaint. */
function parseTaint(spec: string): { taint: Taint } | { error: string } {
	const parts = spec.split(':');
	let key: string;
	let value = '';
	let effect = '';
	if (parts.length === 1) key = parts[0];
	else if (parts.length === 2) {
		effect = parts[1];
		if (!EFFECTS.includes(effect)) return { error: `invalid taint effect: ${effect}, unsupported taint effect` };
		const kv = parts[0].split('=');
		if (kv.length > 2) return { error: `invalid taint spec: ${spec}` };
		key = kv[0];
		if (kv.length === 2) {
			value = kv[1];
			const errs = isValidLabelValue(value);
			if (errs.length) return { error: `invalid taint spec: ${spec}, ${errs.join('; ')}` };
		}
	} else return { error: `invalid taint spec: ${spec}` };
	const errs = isQualifiedName(key);
	if (errs.length) return { error: `invalid taint spec: ${spec}, ${errs.join('; ')}` };
	const taint = { key, effect } as Taint;
	if (value) taint.value = value;
	return { taint };
}

/** utils.go parseTaints: taints to add (with an effect) and to remove (`-` suffix). */
function parseTaints(specs: string[]): { add: Taint[]; remove: Taint[] } | { error: string } {
	const add: Taint[] = [];
	const remove: Taint[] = [];
	for (const spec of specs) {
		if (spec.endsWith('-')) {
			const parsed = parseTaint(spec.slice(0, -1));
			if ('error' in parsed) return parsed;
			remove.push({ key: parsed.taint.key, effect: parsed.taint.effect } as Taint);
			continue;
		}
		const parsed = parseTaint(spec);
		if ('error' in parsed) return parsed;
		if (!parsed.taint.effect) return { error: `invalid taint spec: ${spec}` };
		if (add.some((t) => t.key === parsed.taint.key && t.effect === parsed.taint.effect)) {
			// %v of a corev1.Taint value: {key value effect <nil>}.
			return { error: `duplicated taints with the same key and effect: {${parsed.taint.key} ${parsed.taint.value ?? ''} ${parsed.taint.effect} <nil>}` };
		}
		add.push(parsed.taint);
	}
	return { add, remove };
}

/** reorganizeTaints: the node's new taints and the operation, or the removals that matched nothing. */
function reorganizeTaints(old: Taint[], overwrite: boolean, add: Taint[], remove: Taint[]): { operation: string; taints: Taint[]; errors: string[] } {
	let taints = [...add];
	const match = (a: Taint, b: Taint) => a.key === b.key && a.effect === b.effect;
	for (const t of old) if (!taints.some((n) => match(n, t))) taints.push(t);
	// addTaints reports a change when the count changed (upstream's own test).
	const added = old.length !== taints.length;
	const errors: string[] = [];
	let deleted = false;
	for (const r of remove) {
		const before = taints.length;
		taints = r.effect ? taints.filter((t) => !match(t, r)) : taints.filter((t) => t.key !== r.key);
		deleted = taints.length !== before;
		if (!deleted) errors.push(`taint ${JSON.stringify(taintString(r))} not found`);
	}
	const operation = (added && deleted) || overwrite ? 'modified' : added ? 'tainted' : 'untainted';
	return { operation, taints, errors };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const validation = validationDirective(args);
	if ('error' in validation) return checkErr(validation.error, '', dry.stderr);
	const fail = (error: KubectlError) => checkErr(error, '', dry.stderr);
	const resources: string[] = [];
	const taintArgs: string[] = [];
	for (const s of args.positionals) {
		const isTaint = s.includes('=') || s.includes(':') || s.endsWith('-');
		if (isTaint) taintArgs.push(s);
		else if (taintArgs.length) return fail(plain(`all resources must be specified before taint changes: ${s}`));
		else resources.push(s);
	}
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return fail(printer.error);
	if (resources.length < 1) return fail(plain('one or more resources must be specified as <resource> <name>'));
	if (taintArgs.length < 1) return fail(plain('at least one taint update is required'));
	const parsed = parseTaints(taintArgs);
	if ('error' in parsed) return fail(usageError('kubectl taint', parsed.error));
	// Validate: only nodes; no taint both added and removed; names or --all/-l.
	const type = resolveResourceType(resources[0].toLowerCase());
	if (!type.ok) return fail(plain(type.error));
	if (type.info.kind !== 'Node') return fail(plain(`invalid resource type ${resources[0].toLowerCase()}, only node types are supported`));
	const conflicts = parsed.add.flatMap((a) => parsed.remove.filter((r) => r.key === a.key && (!r.effect || r.effect === a.effect)).map((r) => `${r.key}=${r.effect ?? ''}`));
	if (conflicts.length) return fail(plain(`can not both modify and remove the following taint(s) in the same command: ${conflicts.join(', ')}`));
	const all = args.flags.all === true;
	const selector = String(args.flags.selector ?? '');
	if (all && selector) return fail(plain("setting 'all' parameter with a non empty selector is prohibited"));
	if (!all && !selector && resources.length < 2) return fail(plain("at least one resource name must be specified since 'all' parameter is not set"));

	let nodes: Node[] = [];
	const errors: KubectlError[] = [];
	if (all || selector) {
		const listed = inv.client.list<Node>(R.nodes, undefined, selector ? { labelSelector: selector } : {});
		if (!listed.ok) return fail(callError(listed, inv.env.serverUrl));
		nodes = listed.object.items;
	} else {
		for (const name of resources.slice(1)) {
			const got = inv.client.get<Node>(R.nodes, undefined, name);
			if (!got.ok) {
				if (isFatalCall(got)) return fail(callError(got, inv.env.serverUrl));
				errors.push(callError(got, inv.env.serverUrl));
				continue;
			}
			nodes.push(got.object);
		}
	}
	let stdout = '';
	const info = resourceByName('', 'nodes')!;
	for (const node of nodes) {
		const current = (node.spec?.taints ?? []) as Taint[];
		if (args.flags.overwrite !== true) {
			const exists = parsed.add.filter((t) => current.some((o) => o.key === t.key && o.effect === t.effect)).map((t) => t.key);
			if (exists.length) {
				errors.push(plain(`node ${node.metadata.name} already has ${exists.join(',')} taint(s) with same effect(s) and --overwrite is false`));
				continue;
			}
		}
		const next = reorganizeTaints(current, args.flags.overwrite === true, parsed.add, parsed.remove);
		if (next.errors.length) {
			errors.push(next.errors.length === 1 ? plain(next.errors[0]) : { kind: 'aggregate', errors: next.errors.map(plain) });
			continue;
		}
		// CreateTwoWayMergePatch: taints have no merge key, so the whole list is replaced (or dropped).
		const patch = { spec: { taints: next.taints.length ? next.taints : null } };
		const updated = { ...typed(info, node), spec: { ...node.spec, taints: next.taints } };
		if (!next.taints.length) delete (updated.spec as { taints?: Taint[] }).taints;
		if (dry.strategy === 'client') {
			stdout += printer.printer(updated, next.operation);
			continue;
		}
		const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(args.flags['field-manager'] || 'kubectl-taint'), fieldValidation: validation.directive };
		if (dry.strategy === 'server') query.dryRun = 'All';
		const result = inv.client.patch(refOf(R.nodes), undefined, node.metadata.name!, patch, 'application/strategic-merge-patch+json', undefined, query);
		if (!result.ok) {
			if (isFatalCall(result)) return checkErr(callError(result, inv.env.serverUrl), stdout, dry.stderr);
			errors.push(callError(result, inv.env.serverUrl));
			continue;
		}
		stdout += printer.printer(typed(info, result.object), next.operation);
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, dry.stderr);
	return { stdout, stderr: dry.stderr, exitCode: 0 };
}

export const taintCommand: KubectlCommand = {
	name: 'taint',
	summary: 'Update the taints on one or more nodes',
	usage: 'kubectl taint NODE NAME KEY_1=VAL_1:TAINT_EFFECT_1 ... KEY_N=VAL_N:TAINT_EFFECT_N',
	flags: [
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		VALIDATE_FLAG,
		{ name: 'selector', short: 'l', kind: 'string' },
		{ name: 'overwrite', kind: 'bool' },
		{ name: 'all', kind: 'bool' },
		FIELD_MANAGER_FLAG('kubectl-taint'),
	],
	run,
};
