import { describe, expect, it } from 'vitest';
import { normalizeDesiredReplicas, normalizeDesiredReplicasWithBehaviors, storeScaleEvent, type Recommendation, type ScaleEvent } from './normalize.ts';

const NOW = 1_000_000;

describe('normalizeDesiredReplicas (no spec.behavior)', () => {
	it('limits a scale-up to max(2 × current, 4)', () => {
		expect(normalizeDesiredReplicas({ nowMs: NOW, currentReplicas: 1, desiredReplicas: 5, minReplicas: 1, maxReplicas: 10, recommendations: [] })).toMatchObject({
			replicas: 4,
			conditions: [
				{ type: 'AbleToScale', reason: 'ReadyForNewScale' },
				{ type: 'ScalingLimited', status: 'True', reason: 'ScaleUpLimit', message: 'the desired replica count is increasing faster than the maximum scale rate' },
			],
		});
		expect(normalizeDesiredReplicas({ nowMs: NOW, currentReplicas: 3, desiredReplicas: 9, minReplicas: 1, maxReplicas: 10, recommendations: [] }).replicas).toBe(6);
	});

	it('caps at maxReplicas and floors at minReplicas', () => {
		expect(normalizeDesiredReplicas({ nowMs: NOW, currentReplicas: 8, desiredReplicas: 20, minReplicas: 1, maxReplicas: 10, recommendations: [] })).toMatchObject({ replicas: 10, conditions: [{}, { status: 'True', reason: 'TooManyReplicas' }] });
		expect(normalizeDesiredReplicas({ nowMs: NOW, currentReplicas: 3, desiredReplicas: 1, minReplicas: 2, maxReplicas: 10, recommendations: [] })).toMatchObject({ replicas: 2, conditions: [{}, { status: 'True', reason: 'TooFewReplicas' }] });
	});

	it('keeps the highest recommendation of the last 5 minutes (scale-down stabilization)', () => {
		const recommendations: Recommendation[] = [
			{ recommendation: 8, atMs: NOW - 299_000 },
			{ recommendation: 3, atMs: NOW - 100_000 },
		];
		expect(normalizeDesiredReplicas({ nowMs: NOW, currentReplicas: 8, desiredReplicas: 1, minReplicas: 1, maxReplicas: 10, recommendations })).toMatchObject({ replicas: 8, conditions: [{ reason: 'ScaleDownStabilized' }, { status: 'False', reason: 'DesiredWithinRange' }] });
		// 2 s later the 8 has left the window: the 3 of 102 s ago is the highest now.
		expect(normalizeDesiredReplicas({ nowMs: NOW + 2_000, currentReplicas: 8, desiredReplicas: 1, minReplicas: 1, maxReplicas: 10, recommendations }).replicas).toBe(3);
		expect(recommendations.length).toBe(3);
	});
});

describe('normalizeDesiredReplicasWithBehaviors (defaults filled in)', () => {
	const base = { nowMs: NOW, minReplicas: 1, maxReplicas: 100, recommendations: [] as Recommendation[], scaleUpEvents: [] as ScaleEvent[], scaleDownEvents: [] as ScaleEvent[] };

	it('scales up by at most max(4 Pods, 100 %) per 15 s', () => {
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior: {}, currentReplicas: 1, desiredReplicas: 10, recommendations: [] })).toMatchObject({ replicas: 5, conditions: [{}, { reason: 'ScaleUpLimit' }] });
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior: {}, currentReplicas: 10, desiredReplicas: 100, recommendations: [] }).replicas).toBe(20);
	});

	it('counts the period’s earlier scale events against the limit', () => {
		const up: ScaleEvent[] = [];
		storeScaleEvent({}, up, [], 1, 5, NOW - 5_000);
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior: {}, currentReplicas: 5, desiredReplicas: 20, recommendations: [], scaleUpEvents: up }).replicas).toBe(5);
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, nowMs: NOW + 11_000, behavior: {}, currentReplicas: 5, desiredReplicas: 20, recommendations: [], scaleUpEvents: up }).replicas).toBe(10);
	});

	it('holds a scale-down for the 300 s window, then drops at most 100 % per 15 s', () => {
		const recommendations: Recommendation[] = [{ recommendation: 6, atMs: NOW - 200_000 }];
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior: {}, currentReplicas: 6, desiredReplicas: 1, recommendations })).toMatchObject({ replicas: 6, conditions: [{ reason: 'ScaleDownStabilized' }, {}] });
		const later: Recommendation[] = [{ recommendation: 6, atMs: NOW - 301_000 }];
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior: {}, currentReplicas: 6, desiredReplicas: 1, recommendations: later }).replicas).toBe(1);
	});

	it('honours a Disabled scale-down policy and Pods policies', () => {
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior: { scaleDown: { selectPolicy: 'Disabled', stabilizationWindowSeconds: 0 } }, currentReplicas: 6, desiredReplicas: 1, recommendations: [] }).replicas).toBe(6);
		const behavior = { scaleDown: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods' as const, value: 2, periodSeconds: 60 }] } };
		expect(normalizeDesiredReplicasWithBehaviors({ ...base, behavior, currentReplicas: 6, desiredReplicas: 1, recommendations: [] })).toMatchObject({ replicas: 4, conditions: [{}, { reason: 'ScaleDownLimit' }] });
	});
});
