/**
 * `kubectl describe hpa`: the reference, each metric as `( current /
 * target )` (`resource cpu on pods  (as a percentage of request):  250%
 * (501m) / 50%`), min and max replicas, the behavior when one is set,
 * `Deployment pods: 1 current / 4 desired`, the conditions table and
 * the events.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (HorizontalPodAutoscalerDescriber, describeHorizontalPodAutoscalerV2,
 * printDirectionBehavior).
 */
import type { KubeObject } from '../../api/types.ts';
import { parseQuantity } from '../../api/quantity.ts';
import type { Hpa } from '../printers/table-autoscaling.ts';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printLabelsMultiline, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeEvents, eventsFor } from './events.ts';

const q = (text: string | undefined) => {
	try {
		return parseQuantity(String(text)).toString();
	} catch {
		return String(text);
	}
};

interface Rules {
	stabilizationWindowSeconds?: number;
	selectPolicy?: string;
	policies?: Array<{ type: string; value: number; periodSeconds: number }>;
}

function printDirectionBehavior(w: PrefixWriter, direction: string, rules: Rules | undefined): void {
	if (!rules) return;
	w.write(LEVEL_1, `${direction}:\n`);
	if (rules.stabilizationWindowSeconds !== undefined) w.write(LEVEL_2, `Stabilization Window: ${rules.stabilizationWindowSeconds} seconds\n`);
	if (rules.policies?.length) {
		w.write(LEVEL_2, `Select Policy: ${rules.selectPolicy ?? '<unset>'}\n`);
		w.write(LEVEL_2, 'Policies:\n');
		for (const p of rules.policies) w.write(LEVEL_3, `- Type: ${p.type}\tValue: ${p.value}\tPeriod: ${p.periodSeconds} seconds\n`);
	}
}

/** describeHorizontalPodAutoscalerV2. */
export function describeHorizontalPodAutoscaler(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const hpa = obj as Hpa;
	const spec = hpa.spec ?? {};
	const status = hpa.status ?? {};
	const current = status.currentMetrics ?? [];
	const events = eventsFor(hpa, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${hpa.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${hpa.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', hpa.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', hpa.metadata.annotations);
	w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(hpa.metadata.creationTimestamp)}\n`);
	w.write(LEVEL_0, `Reference:\t${spec.scaleTargetRef?.kind ?? ''}/${spec.scaleTargetRef?.name ?? ''}\n`);
	w.write(LEVEL_0, 'Metrics:\t( current / target )\n');
	(spec.metrics ?? []).forEach((metric, i) => {
		const cur = current[i];
		switch (metric.type) {
			case 'Resource':
			case 'ContainerResource': {
				const src = metric.type === 'Resource' ? metric.resource : metric.containerResource;
				const curValue = metric.type === 'Resource' ? cur?.resource?.current : cur?.containerResource?.current;
				const has = metric.type === 'Resource' ? !!cur?.resource : !!cur?.containerResource;
				w.write(LEVEL_1, metric.type === 'Resource' ? `resource ${src?.name ?? ''} on pods` : `resource ${src?.name ?? ''} of container "${metric.containerResource?.container ?? ''}" on pods`);
				if (src?.target?.averageValue !== undefined) {
					w.write(LEVEL_0, `:\t${has && curValue?.averageValue !== undefined ? q(curValue.averageValue) : '<unknown>'} / ${q(src.target.averageValue)}\n`);
				} else {
					const c = has && curValue?.averageUtilization !== undefined ? `${curValue.averageUtilization}% (${q(curValue.averageValue)})` : '<unknown>';
					const t = src?.target?.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
					w.write(LEVEL_1, `(as a percentage of request):\t${c} / ${t}\n`);
				}
				break;
			}
			case 'Pods':
				w.write(LEVEL_1, `"${metric.pods?.metric?.name ?? ''}" on pods:\t${cur?.pods?.current?.averageValue !== undefined ? q(cur.pods.current.averageValue) : '<unknown>'} / ${q(metric.pods?.target?.averageValue)}\n`);
				break;
			default:
				w.write(LEVEL_1, `<unknown metric type "${metric.type ?? ''}">\n`);
		}
	});
	w.write(LEVEL_0, `Min replicas:\t${spec.minReplicas === undefined ? '<unset>' : spec.minReplicas}\n`);
	w.write(LEVEL_0, `Max replicas:\t${spec.maxReplicas ?? 0}\n`);
	const behavior = spec.behavior as { scaleUp?: Rules; scaleDown?: Rules } | undefined;
	if (behavior) {
		w.write(LEVEL_0, 'Behavior:\n');
		printDirectionBehavior(w, 'Scale Up', behavior.scaleUp);
		printDirectionBehavior(w, 'Scale Down', behavior.scaleDown);
	}
	w.write(LEVEL_0, `${spec.scaleTargetRef?.kind ?? ''} pods:\t`);
	w.write(LEVEL_0, `${status.currentReplicas ?? 0} current / ${status.desiredReplicas ?? 0} desired\n`);
	if (status.conditions?.length) {
		w.write(LEVEL_0, 'Conditions:\n');
		w.write(LEVEL_1, 'Type\tStatus\tReason\tMessage\n');
		w.write(LEVEL_1, '----\t------\t------\t-------\n');
		for (const c of status.conditions) w.write(LEVEL_1, `${c.type}\t${c.status}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
