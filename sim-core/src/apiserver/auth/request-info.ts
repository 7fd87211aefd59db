/**
 * What the API server derives from a request before it asks the authorizers.
 * As RequestInfoFactory.NewRequestInfo has it, a list or watch whose field
 * selector pins `metadata.name` is authorized as a request for that one
 * name, so `resourceNames` rules and the Node authorizer (a kubelet watching
 * one secret) see it.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
 * (RequestInfoFactory.NewRequestInfo).
 */
import { parseFieldSelector } from '../../api/labels.ts';

/** The name to authorize: the request's own, or for list/watch the exact `metadata.name=` of its field selector. */
export function authorizationName(verb: string, name: string | undefined, fieldSelector: string | undefined): string | undefined {
	if (name || (verb !== 'list' && verb !== 'watch') || !fieldSelector) return name;
	try {
		// RequiresExactMatch: an `=` (or `==`) term on the field.
		const term = parseFieldSelector(fieldSelector).terms.find((t) => t.field === 'metadata.name' && t.operator === '=');
		return term ? term.value : name;
	} catch {
		// An unparsable selector names nothing; the request itself fails later with 400.
		return name;
	}
}
