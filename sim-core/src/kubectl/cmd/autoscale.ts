/**
 * `kubectl autoscale (TYPE NAME | TYPE/NAME | -f FILE) [--min=MINPODS]
 * --max=MAXPODS [--cpu=CPU] [--memory=MEMORY] [--name=NAME]`: creates an
 * autoscaling/v2 HorizontalPodAutoscaler for a Deployment, ReplicaSet,
 * ReplicationController or StatefulSet and prints
 * `horizontalpodautoscaler.autoscaling/php-apache autoscaled`. `--cpu`
 * and `--memory` take a percentage of the request (`50%`: average
 * utilization) or a quantity (`500m`, `200Mi`: average value; a bare
 * number is millicores for CPU); without either the API server's
 * default applies (80 % CPU). `--cpu-percent=N`, the older spelling, still
 * works as `--cpu=N%` and warns that it is deprecated.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/autoscale/autoscale.go
 * (NewCmdAutoscale, Validate, Run, createHorizontalPodAutoscalerV2),
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/canbeautoscaled.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { resourceByName } from '../../api/resources.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter } from './print-flags.ts';
import { isFatalCall, typed } from './resource-info.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';

const HPA = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const CPU_PERCENT_DEPRECATION = "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).\n";
const SCALABLE = ['Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet'];

/** One resource metric from `--cpu`/`--memory`: `50%` is a utilization target, anything else an average value. */
function metricFor(resource: 'cpu' | 'memory', text: string): { metric: unknown } | { error: KubectlError } {
	if (text.endsWith('%')) {
		const n = Number(text.slice(0, -1));
		if (!Number.isInteger(n) || n < 0) return { error: plain(`invalid ${resource} percentage "${text}"`) };
		return { metric: { type: 'Resource', resource: { name: resource, target: { type: 'Utilization', averageUtilization: n } } } };
	}
	const value = resource === 'cpu' && /^\d+$/.test(text) ? `${text}m` : text;
	try {
		return { metric: { type: 'Resource', resource: { name: resource, target: { type: 'AverageValue', averageValue: parseQuantity(value).toString() } } } };
	} catch {
		return { error: plain(`invalid ${resource} value "${text}"`) };
	}
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	let stderr = '';
	if (!args.set.has('max')) return checkErr(plain('required flag(s) "max" not set'));
	if (args.set.has('cpu-percent')) stderr += CPU_PERCENT_DEPRECATION;
	const max = Number(flags.max);
	const min = Number(flags.min ?? -1);
	if (max < 1) return checkErr(plain(`--max=MAXPODS is required and must be at least 1, max: ${max}`), '', stderr);
	if (max < min) return checkErr(plain(`--max=MAXPODS must be larger or equal to --min=MINPODS, max: ${max}, min: ${min}`), '', stderr);
	const metrics: unknown[] = [];
	const cpuPercent = Number(flags['cpu-percent'] ?? -1);
	const cpu = String(flags.cpu ?? '') || (cpuPercent >= 0 ? `${cpuPercent}%` : '');
	for (const [resource, text] of [
		['cpu', cpu],
		['memory', String(flags.memory ?? '')],
	] as const) {
		if (!text) continue;
		const m = metricFor(resource, text);
		if ('error' in m) return checkErr(m.error, '', stderr);
		metrics.push(m.metric);
	}
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error, '', stderr);
	stderr += dry.stderr;
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', stderr);
	const visited = visit(inv, { allowEmptySelector: false, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal, '', stderr);
	const info = resourceByName('autoscaling', 'horizontalpodautoscalers')!;
	let stdout = '';
	const errors: KubectlError[] = [...visited.errors];
	for (const target of visited.targets) {
		const obj = target.object as KubeObject;
		if (!SCALABLE.includes(obj.kind)) {
			errors.push(plain(`cannot autoscale a ${obj.kind}: ${target.info.resource}${target.info.group ? `.${target.info.group}` : ''} "${target.name}" not found`));
			continue;
		}
		const spec: Record<string, unknown> = { scaleTargetRef: { apiVersion: obj.apiVersion, kind: obj.kind, name: target.name } };
		if (min > 0) spec.minReplicas = min;
		spec.maxReplicas = max;
		if (metrics.length) spec.metrics = metrics;
		const hpa: KubeObject = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: String(flags.name ?? '') || target.name }, spec };
		if (dry.strategy === 'client') {
			stdout += printer.printer(hpa, 'autoscaled');
			continue;
		}
		const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(flags['field-manager'] || 'kubectl-autoscale') };
		if (dry.strategy === 'server') query.dryRun = 'All';
		const created = inv.client.create(HPA, target.namespace ?? inv.namespace, hpa, query);
		if (!created.ok) {
			if (isFatalCall(created)) return checkErr(callError(created, inv.env.serverUrl), stdout, stderr);
			errors.push(callError(created, inv.env.serverUrl));
			continue;
		}
		stdout += printer.printer(typed(info, created.object), 'autoscaled');
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

export const autoscaleCommand: KubectlCommand = {
	name: 'autoscale',
	summary: 'Auto-scale a deployment, replica set, stateful set, or replication controller',
	usage: 'kubectl autoscale (-f FILENAME | TYPE NAME | TYPE/NAME) [--min=MINPODS] --max=MAXPODS [--cpu=CPU] [--memory=MEMORY]',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'min', kind: 'int', default: -1 },
		{ name: 'max', kind: 'int', default: -1 },
		{ name: 'cpu-percent', kind: 'int', default: -1 },
		{ name: 'cpu', kind: 'string' },
		{ name: 'memory', kind: 'string' },
		{ name: 'name', kind: 'string' },
		{ name: 'save-config', kind: 'bool' },
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		FIELD_MANAGER_FLAG('kubectl-autoscale'),
	],
	run,
};
