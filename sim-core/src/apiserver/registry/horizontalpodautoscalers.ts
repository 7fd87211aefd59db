/**
 * The HorizontalPodAutoscaler strategy (autoscaling/v2): minReplicas
 * defaults to 1, an HPA without metrics targets 80 % CPU utilization, and
 * a behavior that is set gets the default rules where it has none;
 * status is a subresource (the controller writes it); validation checks
 * what `kubectl autoscale` and hand-written manifests most often get
 * wrong (maxReplicas at least 1 and not below minReplicas, minReplicas at
 * least 1, a scale target with kind and name, a resource metric with a
 * target).
 *
 * Mirrors pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go,
 * pkg/apis/autoscaling/v2/defaults.go (SetDefaults_HorizontalPodAutoscaler,
 * SetDefaults_HorizontalPodAutoscalerBehavior, GenerateHPAScaleUpRules,
 * GenerateHPAScaleDownRules),
 * pkg/apis/autoscaling/validation/validation.go (ValidateHorizontalPodAutoscalerSpec).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, invalid, required, type FieldError } from './field.ts';
import { metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';
import { bumpGenerationOnSpecChange, initGeneration } from './generation.ts';

/** autoscaling.DefaultCPUUtilization. */
export const DEFAULT_CPU_UTILIZATION = 80;

function validateSpec(obj: KubeObject): FieldError[] {
	const errs: FieldError[] = [];
	const spec = asRecord(obj.spec) ?? {};
	const min = spec.minReplicas as number | undefined;
	const max = spec.maxReplicas as number | undefined;
	if (min !== undefined && min < 1) errs.push(invalid('spec.minReplicas', min, 'must be greater than or equal to 1'));
	if (max === undefined) errs.push(required('spec.maxReplicas'));
	else if (max < 1) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to 1'));
	else if (min !== undefined && max < min) errs.push(invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
	const ref = asRecord(spec.scaleTargetRef);
	if (!ref?.kind) errs.push(required('spec.scaleTargetRef.kind'));
	if (!ref?.name) errs.push(required('spec.scaleTargetRef.name'));
	((spec.metrics as unknown[] | undefined) ?? []).forEach((m, i) => {
		const metric = asRecord(m) ?? {};
		if (metric.type === 'Resource' && !asRecord(metric.resource)) errs.push(required(`spec.metrics[${i}].resource`, 'must populate information for the given metric source'));
	});
	return errs;
}

export const horizontalPodAutoscalerStrategy: Strategy = {
	hasStatusSubresource: true,
	defaults(obj) {
		const spec = asRecord(obj.spec);
		if (!spec) return;
		if (spec.minReplicas === undefined) spec.minReplicas = 1;
		const metrics = spec.metrics as unknown[] | undefined;
		if (!metrics || metrics.length === 0) {
			spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
		}
		// SetDefaults_HorizontalPodAutoscalerBehavior: a behavior that is set gets every unset field's default
		// (scale-down keeps no window of its own: the controller's 5-minute flag applies).
		const behavior = asRecord(spec.behavior);
		if (behavior) {
			const up = (asRecord(behavior.scaleUp) ?? {}) as Record<string, unknown>;
			up.stabilizationWindowSeconds ??= 0;
			up.selectPolicy ??= 'Max';
			up.policies ??= [
				{ type: 'Pods', value: 4, periodSeconds: 15 },
				{ type: 'Percent', value: 100, periodSeconds: 15 },
			];
			behavior.scaleUp = up;
			const down = (asRecord(behavior.scaleDown) ?? {}) as Record<string, unknown>;
			down.selectPolicy ??= 'Max';
			down.policies ??= [{ type: 'Percent', value: 100, periodSeconds: 15 }];
			behavior.scaleDown = down;
		}
	},
	prepareForCreate(obj) {
		initGeneration(obj);
		delete obj.status;
	},
	prepareForUpdate(obj, old) {
		bumpGenerationOnSpecChange(obj, old);
	},
	validate(obj) {
		return [...metaErrors(obj, true), ...validateSpec(obj)];
	},
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateSpec(obj)];
	},
	validateStatusUpdate(obj, old) {
		return validateObjectMetaUpdate(obj.metadata, old.metadata);
	},
};
