/**
 * The taints the scheduler's filters look at
 * (DoNotScheduleTaintsFilterFunc): NoSchedule and NoExecute, not
 * PreferNoSchedule. The matching itself is
 * ../../../component-helpers/taints.ts.
 *
 * Mirrors pkg/scheduler/framework/plugins/helper/taint.go
 * (DoNotScheduleTaintsFilterFunc).
 */
import type { Taint } from '../../../api/types.ts';

/** The taints the Filter checks (helper.DoNotScheduleTaintsFilterFunc). */
export function isDoNotScheduleTaint(taint: Taint): boolean {
	return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}
