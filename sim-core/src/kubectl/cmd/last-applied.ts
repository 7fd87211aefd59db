/**
 * The `kubectl.kubernetes.io/last-applied-configuration` annotation
 * client-side apply keeps on every object it writes, and the JSON kubectl
 * puts in it; shared by apply and by apply set-last-applied.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/util/apply.go (GetModifiedConfiguration).
 */
import type { KubeObject } from '../../api/types.ts';
import { compactJson, deepCopy, type JsonValue } from '../../golang/json.ts';

/** corev1.LastAppliedConfigAnnotation. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * The JSON kubectl writes into the annotation and sends as "modified"
 * (util.GetModifiedConfiguration): the object without the annotation,
 * encoded with json.Encoder (keys sorted, a trailing newline). Like
 * upstream, an object without annotations gains an empty `annotations: {}`
 * on the way, which shows in the JSON.
 */
export function modifiedConfiguration(obj: KubeObject, annotate: boolean): { json: string; object: KubeObject } {
	const copy = deepCopy(obj);
	const annotations = { ...(copy.metadata.annotations ?? {}) };
	delete annotations[LAST_APPLIED_ANNOTATION];
	copy.metadata.annotations = annotations;
	let json = `${compactJson(copy as unknown as JsonValue)}\n`;
	if (annotate) {
		copy.metadata.annotations = { ...annotations, [LAST_APPLIED_ANNOTATION]: json };
		json = `${compactJson(copy as unknown as JsonValue)}\n`;
	}
	return { json, object: copy };
}

