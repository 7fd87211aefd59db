/**
 * DefaultNormalizeScore: scale raw scores so the highest becomes
 * `maxPriority`, in integer arithmetic; with `reverse`, the highest raw
 * score becomes the lowest. When every raw score is 0, nodes get 0 (or
 * `maxPriority` when reversed).
 *
 * Mirrors pkg/scheduler/framework/plugins/helper/normalize_score.go.
 */
import type { NodeScore } from '../../framework/interface.ts';

export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): void {
	let maxCount = 0;
	for (const s of scores) if (s.score > maxCount) maxCount = s.score;
	if (maxCount === 0) {
		if (reverse) for (const s of scores) s.score = maxPriority;
		return;
	}
	for (const s of scores) {
		// Go int64 division truncates toward zero.
		let score = Math.trunc((maxPriority * s.score) / maxCount);
		if (reverse) score = maxPriority - score;
		s.score = score;
	}
}
