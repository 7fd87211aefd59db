/**
 * How kube-apiserver writes an object as JSON for a client: Go's
 * encoding/json over typed structs, so fields come in struct order (kind,
 * apiVersion, metadata, spec, status; ObjectMeta's own order), and either
 * pretty (`json.MarshalIndent(obj, "", " ")`, no trailing newline) or
 * compact (`json.Encoder.Encode`, one trailing newline). It pretty-prints
 * when the request says `?pretty=true`, or, without a `pretty` parameter,
 * when the User-Agent starts with `curl`, `Wget` or `Mozilla/5.0`.
 *
 * The field order is ../../api/go-field-order.ts's.
 *
 * Mirrors
 * staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go
 * (doEncode),
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation/negotiate.go
 * (isPrettyPrint).
 */
import { goMarshal, goMarshalIndent } from '../../golang/json.ts';
import { inGoOrder } from '../../api/go-field-order.ts';

export { inGoOrder };

/** isPrettyPrint: the `pretty` parameter wins; without one, curl, Wget and browsers get indentation. */
export function wantsPretty(prettyParam: string | undefined, userAgent: string): boolean {
	if (prettyParam !== undefined && prettyParam !== '') return /^(1|t|T|true|TRUE|True)$/.test(prettyParam);
	return userAgent.startsWith('curl') || userAgent.startsWith('Wget') || userAgent.startsWith('Mozilla/5.0');
}

/** The response body for an object: MarshalIndent without newline, or Encode with one. */
export function encodeBody(value: unknown, pretty: boolean): string {
	const ordered = inGoOrder(value);
	return pretty ? goMarshalIndent(ordered) : goMarshal(ordered) + '\n';
}
