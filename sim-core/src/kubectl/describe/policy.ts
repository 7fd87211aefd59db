/**
 * `kubectl describe` for the namespace policies: a ResourceQuota's scopes
 * (each with what it matches) and its Used/Hard table, a LimitRange's
 * Type/Resource/Min/Max/Default table with `-` for what a limit does not
 * set. Neither lists events (upstream's describers take none).
 *
 * Rows are in resource-name order; upstream walks a LimitRange's resources
 * in Go's random map order, so a real cluster may print them in any order.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (describeQuota, helpTextForResourceQuotaScope, describeLimitRange,
 * describeLimitRangeSpec).
 */
import type { KubeObject } from '../../api/types.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { LEVEL_0, PrefixWriter } from './prefix-writer.ts';
import type { DescribeResult } from './helpers.ts';
import { quantityString } from '../printers/table-storage.ts';

const SCOPE_HELP: Readonly<Record<string, string>> = {
	Terminating: 'Matches all pods that have an active deadline. These pods have a limited lifespan on a node before being actively terminated by the system.',
	NotTerminating: 'Matches all pods that do not have an active deadline. These pods usually include long running pods whose container command is not expected to terminate.',
	BestEffort: 'Matches all pods that do not have resource requirements set. These pods have a best effort quality of service.',
	NotBestEffort: 'Matches all pods that have at least one resource requirement set. These pods have a burstable or guaranteed quality of service.',
};

export function describeResourceQuota(obj: KubeObject): DescribeResult {
	const spec = (obj.spec ?? {}) as { scopes?: string[] };
	const status = (obj.status ?? {}) as { hard?: Record<string, string>; used?: Record<string, string> };
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	if (spec.scopes?.length) {
		const scopes = [...spec.scopes].sort(compareGoStrings);
		w.write(LEVEL_0, `Scopes:\t${scopes.join(', ')}\n`);
		for (const scope of scopes) if (SCOPE_HELP[scope]) w.write(LEVEL_0, ` * ${SCOPE_HELP[scope]}\n`);
	}
	w.write(LEVEL_0, 'Resource\tUsed\tHard\n');
	w.write(LEVEL_0, '--------\t----\t----\n');
	const hard = status.hard ?? {};
	for (const name of Object.keys(hard).sort(compareGoStrings)) {
		w.write(LEVEL_0, `${name}\t${quantityString(status.used?.[name] ?? '0')}\t${quantityString(hard[name])}\n`);
	}
	return { ok: true, text: w.toString() };
}

interface LimitRangeItem {
	type?: string;
	max?: Record<string, string>;
	min?: Record<string, string>;
	default?: Record<string, string>;
	defaultRequest?: Record<string, string>;
	maxLimitRequestRatio?: Record<string, string>;
}

export function describeLimitRange(obj: KubeObject): DescribeResult {
	const limits = ((obj.spec ?? {}) as { limits?: LimitRangeItem[] }).limits ?? [];
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, 'Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n');
	w.write(LEVEL_0, '----\t--------\t---\t---\t---------------\t-------------\t-----------------------\n');
	for (const item of limits) {
		const names = new Set<string>();
		for (const list of [item.max, item.min, item.default, item.defaultRequest, item.maxLimitRequestRatio]) for (const name of Object.keys(list ?? {})) names.add(name);
		const cell = (list: Record<string, string> | undefined, name: string) => (list && Object.hasOwn(list, name) ? quantityString(list[name]) : '-');
		for (const name of [...names].sort(compareGoStrings)) {
			w.write(LEVEL_0, `${item.type ?? ''}\t${name}\t${cell(item.min, name)}\t${cell(item.max, name)}\t${cell(item.defaultRequest, name)}\t${cell(item.default, name)}\t${cell(item.maxLimitRequestRatio, name)}\n`);
		}
	}
	return { ok: true, text: w.toString() };
}
