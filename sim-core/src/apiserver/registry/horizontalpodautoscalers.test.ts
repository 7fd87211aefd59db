import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { horizontalPodAutoscalerStrategy as strategy } from './horizontalpodautoscalers.ts';

const hpa = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default' }, spec });
const ctx = {} as Parameters<NonNullable<typeof strategy.validate>>[1];

describe('HorizontalPodAutoscaler strategy (autoscaling/v2)', () => {
	it('defaults minReplicas to 1 and the metrics to 80 % CPU, and leaves behavior unset', () => {
		const obj = hpa({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5 });
		strategy.defaults!(obj);
		expect(obj.spec).toEqual({
			scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
			maxReplicas: 5,
			minReplicas: 1,
			metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
		});
	});

	it('fills a behavior that is set with the default rules', () => {
		const obj = hpa({ scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } });
		strategy.defaults!(obj);
		expect((obj.spec as { behavior: unknown }).behavior).toEqual({
			scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }, { type: 'Percent', value: 100, periodSeconds: 15 }] },
			scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
		});
	});

	it('refuses maxReplicas below minReplicas and a target without a name', () => {
		const errors = strategy.validate!(hpa({ scaleTargetRef: { kind: 'Deployment' }, minReplicas: 3, maxReplicas: 2 }), ctx).map((e) => `${e.field}: ${e.detail ?? ''}`);
		expect(errors).toEqual(['spec.maxReplicas: must be greater than or equal to `minReplicas`', 'spec.scaleTargetRef.name: ']);
	});
});
