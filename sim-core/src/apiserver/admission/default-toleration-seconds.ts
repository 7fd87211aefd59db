/**
 * DefaultTolerationSeconds: every pod that does not already tolerate the
 * node.kubernetes.io/not-ready and node.kubernetes.io/unreachable NoExecute
 * taints gets a toleration for each, for 300 seconds, so its pods leave a
 * failed node about five minutes after the node is marked.
 *
 * Mirrors plugin/pkg/admission/defaulttolerationseconds/admission.go.
 */
import type { Toleration } from '../../api/types.ts';
import type { AdmissionPlugin } from './plugin.ts';
import { isResource } from './errors.ts';

/** --default-not-ready-toleration-seconds and --default-unreachable-toleration-seconds (both 300). */
const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;

/** v1.TaintNodeNotReady / v1.TaintNodeUnreachable (well_known_taints.go). */
export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';

/** Whether the pod already tolerates `key:NoExecute` (an empty key or effect matches anything). */
function tolerates(tolerations: Toleration[], key: string): boolean {
	return tolerations.some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
}

export const defaultTolerationSeconds: AdmissionPlugin = {
	name: 'DefaultTolerationSeconds',
	admit(a) {
		if (!isResource(a, '', 'pods') || (a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.object) return undefined;
		const spec = (a.object.spec ?? (a.object.spec = {})) as { tolerations?: Toleration[] };
		const tolerations = spec.tolerations ?? [];
		const added: Toleration[] = [];
		if (!tolerates(tolerations, TAINT_NODE_NOT_READY)) added.push({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS });
		if (!tolerates(tolerations, TAINT_NODE_UNREACHABLE)) added.push({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: DEFAULT_UNREACHABLE_TOLERATION_SECONDS });
		if (added.length) spec.tolerations = [...tolerations, ...added];
		return undefined;
	},
};
