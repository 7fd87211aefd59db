/**
 * TaintNodesByCondition: a new Node starts with the
 * node.kubernetes.io/not-ready:NoSchedule taint, so nothing is scheduled
 * onto it before the node lifecycle controller has seen it Ready (and
 * removed the taint).
 *
 * Mirrors plugin/pkg/admission/nodetaint/admission.go.
 */
import type { Taint } from '../../api/types.ts';
import type { AdmissionPlugin } from './plugin.ts';
import { isResource } from './errors.ts';
import { TAINT_NODE_NOT_READY } from './default-toleration-seconds.ts';

export const taintNodesByCondition: AdmissionPlugin = {
	name: 'TaintNodesByCondition',
	admit(a) {
		if (!isResource(a, '', 'nodes') || a.operation !== 'CREATE' || !a.object) return undefined;
		const spec = (a.object.spec ?? (a.object.spec = {})) as { taints?: Taint[] };
		const taints = spec.taints ?? [];
		// MatchTaint: same key and effect.
		if (!taints.some((t) => t.key === TAINT_NODE_NOT_READY && t.effect === 'NoSchedule')) spec.taints = [...taints, { key: TAINT_NODE_NOT_READY, effect: 'NoSchedule' }];
		return undefined;
	},
};
