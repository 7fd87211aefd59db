/**
 * What kubectl checks on its side before it sends a manifest: that it says
 * what it is (apiVersion, kind), and which resource serves that. The API
 * server never sees a manifest that fails here.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go
 * (stopValidateMessage),
 * staging/src/k8s.io/cli-runtime/pkg/resource/mapper.go (infoForData),
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructured.go
 * (the missing-kind error).
 */

import { goJson } from './decode.ts';

/** A manifest's apiVersion and kind, or kubectl's complaint about them. */
export type TypeMetaResult = { readonly apiVersion: string; readonly kind: string; readonly error?: undefined } | { readonly error: string };

/** kubectl's tail on client-side validation errors (cli-runtime pkg/resource/visitor.go stopValidateMessage). */
const STOP_VALIDATE = 'if you choose to ignore these errors, turn validation off with --validate=false';

/**
 * Reads apiVersion and kind from a parsed manifest the way `kubectl apply`
 * does. With validation on (the default; `--validate=strict`), kubectl's
 * validator (kubectl pkg/validation getObjectKind) reports
 * `error validating data: kind not set; if you choose to ignore these
 * errors, turn validation off with --validate=false` (several problems
 * print as `[apiVersion not set, kind not set]`); kubectl prefixes it with
 * `error validating "x.yaml": `. Then, and always with `validate: false`,
 * its unstructured decoder requires a kind (apimachinery
 * unstructured.go → runtime.NewMissingKindErr): `Object 'Kind' is missing in
 * '{…}'` quoting the JSON kubectl made from the YAML, which kubectl
 * prefixes with `unable to decode "x.yaml": `. A missing apiVersion then
 * reaches resolveKind as ''.
 */
export function readTypeMeta(manifest: unknown, options: { validate?: boolean } = {}): TypeMetaResult {
	const isObject = manifest !== null && typeof manifest === 'object' && !Array.isArray(manifest);
	// A `null` document decodes to an empty object upstream, once past validation.
	const obj = isObject || manifest === null ? ((manifest ?? {}) as Record<string, unknown>) : undefined;
	if (options.validate ?? true) {
		const problems: string[] = [];
		if (!isObject) problems.push('invalid object to validate');
		else {
			const { apiVersion, kind } = manifest as Record<string, unknown>;
			if (apiVersion === undefined || apiVersion === null) problems.push('apiVersion not set');
			else if (typeof apiVersion !== 'string') problems.push("apiVersion isn't string type");
			else if (apiVersion !== '/' && apiVersion.split('/').length > 2) problems.push(`unexpected GroupVersion string: ${apiVersion}`);
			if (kind === undefined || kind === null) problems.push('kind not set');
			else if (typeof kind !== 'string') problems.push("kind isn't string type");
		}
		// utilerrors.NewAggregate prints one error as is, several in brackets.
		if (problems.length) return { error: `error validating data: ${problems.length > 1 ? `[${problems.join(', ')}]` : problems[0]}; ${STOP_VALIDATE}` };
	}
	// The unstructured decoder first looks for `items` (a List) with
	// json.Unmarshal into a local struct type, which is what fails here.
	if (!obj) return { error: `json: cannot unmarshal ${Array.isArray(manifest) ? 'array' : typeof manifest === 'boolean' ? 'bool' : typeof manifest} into Go value of type unstructured.detector` };
	const text = (v: unknown): string => (typeof v === 'string' ? v : '');
	const kind = text(obj.kind);
	if (!kind) return { error: `Object 'Kind' is missing in '${goJson(manifest)}'` };
	return { apiVersion: text(obj.apiVersion), kind };
}

/**
 * kubectl's whole message when REST mapping fails (cli-runtime
 * pkg/resource/mapper.go): `resource mapping not found for name: "web"
 * namespace: "" from "x.yaml": no matches for kind "Deploymnet" in version
 * "apps/v1"` and, on a second line, `ensure CRDs are installed first`.
 * `error` is resolveKind's.
 */
export function mappingNotFoundMessage(error: string, name: string, namespace: string, source: string): string {
	return `resource mapping not found for name: ${JSON.stringify(name)} namespace: ${JSON.stringify(namespace)} from ${JSON.stringify(source)}: ${error}\nensure CRDs are installed first`;
}
