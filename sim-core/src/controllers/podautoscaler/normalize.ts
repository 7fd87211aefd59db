/**
 * How the HPA turns the metrics' proposal into the replica count it sets.
 * Without `spec.behavior`: the highest recommendation of the last 5
 * minutes (--horizontal-pod-autoscaler-downscale-stabilization) wins, and
 * a scale-up goes at most to max(2 × current, 4). With `spec.behavior`
 * (unset fields taking the defaults: up, no stabilization and at most 4
 * Pods or 100 % per 15 s, the larger; down, a 300 s window and 100 % per
 * 15 s): the recommendation is held between the lowest of the scale-up
 * window and the highest of the scale-down window, and the policies cap
 * the change against the scale events of each policy's period. The
 * AbleToScale and ScalingLimited conditions say what held it.
 *
 * Mirrors pkg/controller/podautoscaler/horizontal.go (normalizeDesiredReplicas,
 * stabilizeRecommendation, convertDesiredReplicasWithRules,
 * calculateScaleUpLimit, normalizeDesiredReplicasWithBehaviors,
 * stabilizeRecommendationWithBehaviors, convertDesiredReplicasWithBehaviorRate,
 * calculateScaleUpLimitWithScalingRules, calculateScaleDownLimitWithBehaviors,
 * getReplicasChangePerPeriod), pkg/apis/autoscaling/v2/defaults.go
 * (GenerateHPAScaleUpRules, GenerateHPAScaleDownRules).
 */

/** --horizontal-pod-autoscaler-downscale-stabilization. */
export const DOWNSCALE_STABILISATION_WINDOW_MS = 5 * 60_000;
const SCALE_UP_LIMIT_FACTOR = 2;
const SCALE_UP_LIMIT_MINIMUM = 4;

export interface ScalingPolicy {
	type: 'Pods' | 'Percent';
	value: number;
	periodSeconds: number;
}
export interface ScalingRules {
	stabilizationWindowSeconds?: number;
	selectPolicy?: 'Max' | 'Min' | 'Disabled';
	policies?: ScalingPolicy[];
}
export interface Behavior {
	scaleUp?: ScalingRules;
	scaleDown?: ScalingRules;
}

/** A past recommendation or scale event (plain JSON, in the controller's state). */
export interface Recommendation {
	recommendation: number;
	atMs: number;
}
export interface ScaleEvent {
	replicaChange: number;
	atMs: number;
	outdated?: boolean;
}

/** A condition the normalization sets. */
export interface NormalizedCondition {
	type: 'AbleToScale' | 'ScalingLimited';
	status: 'True' | 'False';
	reason: string;
	message: string;
}

/** GenerateHPAScaleUpRules / GenerateHPAScaleDownRules: the defaults filled in. */
export function withDefaults(behavior: Behavior): { scaleUp: Required<ScalingRules>; scaleDown: Required<ScalingRules> } {
	const up = behavior.scaleUp ?? {};
	const down = behavior.scaleDown ?? {};
	return {
		scaleUp: {
			stabilizationWindowSeconds: up.stabilizationWindowSeconds ?? 0,
			selectPolicy: up.selectPolicy ?? 'Max',
			policies: up.policies ?? [
				{ type: 'Pods', value: 4, periodSeconds: 15 },
				{ type: 'Percent', value: 100, periodSeconds: 15 },
			],
		},
		scaleDown: {
			stabilizationWindowSeconds: down.stabilizationWindowSeconds ?? DOWNSCALE_STABILISATION_WINDOW_MS / 1000,
			selectPolicy: down.selectPolicy ?? 'Max',
			policies: down.policies ?? [{ type: 'Percent', value: 100, periodSeconds: 15 }],
		},
	};
}

interface Args {
	nowMs: number;
	currentReplicas: number;
	desiredReplicas: number;
	minReplicas: number;
	maxReplicas: number;
	recommendations: Recommendation[];
}

const ableToScale = (status: 'True' | 'False', reason: string, message: string): NormalizedCondition => ({ type: 'AbleToScale', status, reason, message });
const limited = (limitedNow: boolean, reason: string, message: string): NormalizedCondition => ({ type: 'ScalingLimited', status: limitedNow ? 'True' : 'False', reason, message });

/** Records a recommendation, replacing the oldest expired one as upstream does (the list stays bounded). */
function record(list: Recommendation[], oldIndex: number | undefined, rec: Recommendation): void {
	if (oldIndex !== undefined) list[oldIndex] = rec;
	else list.push(rec);
}

/** normalizeDesiredReplicas: no behavior set. Mutates `recommendations`. */
export function normalizeDesiredReplicas(a: Args): { replicas: number; conditions: NormalizedCondition[] } {
	const cutoff = a.nowMs - DOWNSCALE_STABILISATION_WINDOW_MS;
	let max = a.desiredReplicas;
	let oldIndex: number | undefined;
	a.recommendations.forEach((rec, i) => {
		if (rec.atMs < cutoff) oldIndex = i;
		else if (rec.recommendation > max) max = rec.recommendation;
	});
	record(a.recommendations, oldIndex, { recommendation: a.desiredReplicas, atMs: a.nowMs });
	const conditions: NormalizedCondition[] = [
		max !== a.desiredReplicas
			? ableToScale('True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation')
			: ableToScale('True', 'ReadyForNewScale', 'recommended size matches current size'),
	];
	const scaleUpLimit = Math.max(SCALE_UP_LIMIT_FACTOR * a.currentReplicas, SCALE_UP_LIMIT_MINIMUM);
	let maximum: number;
	let reason: string;
	let message: string;
	if (a.maxReplicas > scaleUpLimit) {
		maximum = scaleUpLimit;
		reason = 'ScaleUpLimit';
		message = 'the desired replica count is increasing faster than the maximum scale rate';
	} else {
		maximum = a.maxReplicas;
		reason = 'TooManyReplicas';
		message = 'the desired replica count is more than the maximum replica count';
	}
	let replicas = max;
	if (max < a.minReplicas) {
		replicas = a.minReplicas;
		reason = 'TooFewReplicas';
		message = 'the desired replica count is less than the minimum replica count';
	} else if (max > maximum) {
		replicas = maximum;
	} else {
		reason = 'DesiredWithinRange';
		message = 'the desired count is within the acceptable range';
	}
	conditions.push(limited(replicas !== max, reason, message));
	return { replicas, conditions };
}

/** getReplicasChangePerPeriod. */
function changePerPeriod(periodSeconds: number, events: ScaleEvent[], nowMs: number): number {
	const cutoff = nowMs - periodSeconds * 1000;
	return events.filter((e) => e.atMs > cutoff).reduce((sum, e) => sum + e.replicaChange, 0);
}

function scaleUpLimit(current: number, up: ScaleEvent[], down: ScaleEvent[], rules: Required<ScalingRules>, nowMs: number): number {
	if (rules.selectPolicy === 'Disabled') return current;
	const pick = rules.selectPolicy === 'Min' ? Math.min : Math.max;
	let result = rules.selectPolicy === 'Min' ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
	for (const p of rules.policies) {
		const start = current - changePerPeriod(p.periodSeconds, up, nowMs) + changePerPeriod(p.periodSeconds, down, nowMs);
		const proposed = p.type === 'Pods' ? start + p.value : Math.ceil(start * (1 + p.value / 100));
		result = pick(result, proposed);
	}
	return result;
}

function scaleDownLimit(current: number, up: ScaleEvent[], down: ScaleEvent[], rules: Required<ScalingRules>, nowMs: number): number {
	if (rules.selectPolicy === 'Disabled') return current;
	// Scaling down, the smallest change ('Min') is the largest count.
	const pick = rules.selectPolicy === 'Min' ? Math.max : Math.min;
	let result = rules.selectPolicy === 'Min' ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER;
	for (const p of rules.policies) {
		const start = current - changePerPeriod(p.periodSeconds, up, nowMs) + changePerPeriod(p.periodSeconds, down, nowMs);
		const proposed = p.type === 'Pods' ? start - p.value : Math.trunc(start * (1 - p.value / 100));
		result = pick(result, proposed);
	}
	return result;
}

/** normalizeDesiredReplicasWithBehaviors. Mutates `recommendations`. */
export function normalizeDesiredReplicasWithBehaviors(a: Args & { behavior: Behavior; scaleUpEvents: ScaleEvent[]; scaleDownEvents: ScaleEvent[] }): { replicas: number; conditions: NormalizedCondition[] } {
	const { scaleUp, scaleDown } = withDefaults(a.behavior);
	// stabilizeRecommendationWithBehaviors.
	const upCutoff = a.nowMs - scaleUp.stabilizationWindowSeconds * 1000;
	const downCutoff = a.nowMs - scaleDown.stabilizationWindowSeconds * 1000;
	let upRec = a.desiredReplicas;
	let downRec = a.desiredReplicas;
	let oldIndex: number | undefined;
	a.recommendations.forEach((rec, i) => {
		if (rec.atMs > upCutoff) upRec = Math.min(rec.recommendation, upRec);
		if (rec.atMs > downCutoff) downRec = Math.max(rec.recommendation, downRec);
		if (rec.atMs < upCutoff && rec.atMs < downCutoff) oldIndex = i;
	});
	let stabilized = a.currentReplicas;
	if (stabilized < upRec) stabilized = upRec;
	if (stabilized > downRec) stabilized = downRec;
	record(a.recommendations, oldIndex, { recommendation: a.desiredReplicas, atMs: a.nowMs });
	const conditions: NormalizedCondition[] = [];
	if (stabilized !== a.desiredReplicas) {
		conditions.push(
			a.desiredReplicas >= a.currentReplicas
				? ableToScale('True', 'ScaleUpStabilized', 'recent recommendations were lower than current one, applying the lowest recent recommendation')
				: ableToScale('True', 'ScaleDownStabilized', 'recent recommendations were higher than current one, applying the highest recent recommendation'),
		);
	} else {
		conditions.push(ableToScale('True', 'ReadyForNewScale', 'recommended size matches current size'));
	}
	// convertDesiredReplicasWithBehaviorRate.
	let replicas = stabilized;
	let reason = 'DesiredWithinRange';
	let message = 'the desired count is within the acceptable range';
	if (stabilized > a.currentReplicas) {
		const limit = Math.max(scaleUpLimit(a.currentReplicas, a.scaleUpEvents, a.scaleDownEvents, scaleUp, a.nowMs), a.currentReplicas);
		let maximum = a.maxReplicas;
		if (maximum > limit) {
			maximum = limit;
			reason = 'ScaleUpLimit';
			message = 'the desired replica count is increasing faster than the maximum scale rate';
		} else {
			reason = 'TooManyReplicas';
			message = 'the desired replica count is more than the maximum replica count';
		}
		if (stabilized > maximum) replicas = maximum;
		else [reason, message] = ['DesiredWithinRange', 'the desired count is within the acceptable range'];
	} else if (stabilized < a.currentReplicas) {
		const limit = Math.min(scaleDownLimit(a.currentReplicas, a.scaleUpEvents, a.scaleDownEvents, scaleDown, a.nowMs), a.currentReplicas);
		let minimum = a.minReplicas;
		if (minimum < limit) {
			minimum = limit;
			reason = 'ScaleDownLimit';
			message = 'the desired replica count is decreasing faster than the maximum scale rate';
		} else {
			reason = 'TooFewReplicas';
			message = 'the desired replica count is less than the minimum replica count';
		}
		if (stabilized < minimum) replicas = minimum;
		else [reason, message] = ['DesiredWithinRange', 'the desired count is within the acceptable range'];
	}
	conditions.push(limited(replicas !== stabilized, reason, message));
	return { replicas, conditions };
}

/** storeScaleEvent: records a change and forgets events older than the longest policy period. */
export function storeScaleEvent(behavior: Behavior, up: ScaleEvent[], down: ScaleEvent[], prev: number, next: number, nowMs: number): void {
	const { scaleUp, scaleDown } = withDefaults(behavior);
	const longest = (rules: Required<ScalingRules>) => Math.max(0, ...rules.policies.map((p) => p.periodSeconds)) * 1000;
	if (next > prev) {
		up.push({ replicaChange: next - prev, atMs: nowMs });
	} else if (next < prev) {
		down.push({ replicaChange: prev - next, atMs: nowMs });
	}
	const prune = (list: ScaleEvent[], keepMs: number) => {
		const kept = list.filter((e) => e.atMs > nowMs - keepMs);
		list.splice(0, list.length, ...kept);
	};
	prune(up, longest(scaleUp));
	prune(down, longest(scaleDown));
}
