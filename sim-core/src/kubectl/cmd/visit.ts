/**
 * The objects a changing command visits: its resource arguments, `-f`
 * manifests and selectors resolved by ../resource-args.ts, then, as the
 * builder's visitors do, each named object fetched (when the command needs
 * the object) and each selector listed. Errors of one object do not stop the
 * others (ContinueOnError); a lost connection stops everything.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/resource/builder.go (Do,
 * RequireObject, Latest, Flatten),
 * staging/src/k8s.io/cli-runtime/pkg/resource/selector.go.
 */
import type { KubeList, KubeObject } from '../../api/types.ts';
import { refOf } from '../../client/client.ts';
import { matches, parseLabelSelector, SelectorError } from '../../api/labels.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { parseResourceArgs, withTypeMeta, type ResourceArgsOptions } from '../resource-args.ts';
import { callError, plain, type KubectlError } from './check-err.ts';
import { isFatalCall, type TargetInfo } from './resource-info.ts';

interface VisitOptions extends ResourceArgsOptions {
	/** RequireObject(true): GET each named object (false for delete, which needs only names). */
	requireObject: boolean;
	/** Drop NotFound errors (`--ignore-not-found`). */
	ignoreNotFound?: boolean;
}

/** What visiting gave. */
interface Visited {
	/** The objects, in kubectl's order. */
	targets: TargetInfo[];
	/** Errors of single objects (NotFound...), in order. */
	errors: KubectlError[];
	/** Server warnings seen while reading. */
	warnings: string[];
	/** Rejected arguments: kubectl's whole stderr text, nothing was done. */
	usage?: string;
	/** A failure that ends the command (no connection, 401). */
	fatal?: KubectlError;
	/** Whether exactly one object was named (builder singleItemImplied). */
	singleItemImplied: boolean;
	/** Whether a selector or --all was used (delete then ignores NotFound and prints "No resources found"). */
	bySelector: boolean;
}

/** Resolves and, where needed, fetches the objects a command acts on. */
export function visit(inv: KubectlInvocation, options: VisitOptions): Visited {
	const parsed = parseResourceArgs(inv, options);
	const out: Visited = { targets: [], errors: [], warnings: [], singleItemImplied: parsed.singleItemImplied, bySelector: false };
	if (parsed.error) return { ...out, usage: parsed.error };
	const warn = (warnings: string[] | undefined) => {
		for (const w of warnings ?? []) if (!out.warnings.includes(w)) out.warnings.push(w);
	};
	for (const target of parsed.targets) {
		const ref = refOf(target.info);
		const source = target.manifest?.source ?? '';
		if (target.name !== undefined) {
			if (!options.requireObject) {
				out.targets.push({ info: target.info, namespace: target.namespace, name: target.name, source, object: target.manifest?.object });
				continue;
			}
			const got = inv.client.get(ref, target.namespace, target.name);
			if (!got.ok) {
				if (isFatalCall(got)) return { ...out, fatal: callError(got, inv.env.serverUrl) };
				if (!(options.ignoreNotFound && got.code === 404)) out.errors.push(callError(got, inv.env.serverUrl));
				continue;
			}
			warn(got.warnings);
			const obj = withTypeMeta(target.info, got.object);
			if (target.manifest && target.labelSelector) {
				try {
					if (!matches(parseLabelSelector(target.labelSelector), obj.metadata.labels)) continue;
				} catch (error) {
					if (error instanceof SelectorError) return { ...out, fatal: plain(error.message) };
					throw error;
				}
			}
			out.targets.push({ info: target.info, namespace: target.namespace, name: target.name, source, object: obj });
			continue;
		}
		out.bySelector = true;
		const query: { labelSelector?: string; fieldSelector?: string } = {};
		if (target.labelSelector) query.labelSelector = target.labelSelector;
		if (target.fieldSelector) query.fieldSelector = target.fieldSelector;
		const listed = inv.client.list(ref, target.namespace, query);
		if (!listed.ok) {
			if (isFatalCall(listed)) return { ...out, fatal: callError(listed, inv.env.serverUrl) };
			out.errors.push(callError(listed, inv.env.serverUrl));
			continue;
		}
		warn(listed.warnings);
		for (const item of (listed.object as KubeList).items ?? []) {
			const obj: KubeObject = withTypeMeta(target.info, item);
			out.targets.push({ info: target.info, namespace: obj.metadata.namespace, name: obj.metadata.name ?? '', source: '', object: obj });
		}
	}
	return out;
}
