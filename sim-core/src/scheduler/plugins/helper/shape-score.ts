/**
 * BuildBrokenLinearFunction: a function made of straight segments between
 * the shape points, flat before the first and after the last, evaluated in
 * integer arithmetic (Go's division truncates toward zero, which matters on
 * falling segments).
 *
 * Mirrors pkg/scheduler/framework/plugins/helper/shape_score.go.
 */

/** helper.FunctionShapePoint. */
export interface FunctionShapePoint {
	utilization: number;
	score: number;
}

export function buildBrokenLinearFunction(shape: FunctionShapePoint[]): (p: number) => number {
	return (p: number) => {
		for (let i = 0; i < shape.length; i++) {
			if (p <= shape[i].utilization) {
				if (i === 0) return shape[0].score;
				const prev = shape[i - 1];
				return prev.score + Math.trunc(((shape[i].score - prev.score) * (p - prev.utilization)) / (shape[i].utilization - prev.utilization));
			}
		}
		return shape[shape.length - 1].score;
	};
}
