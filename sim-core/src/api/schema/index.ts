/**
 * The simulated API server's field schema and strict decoder: what it
 * accepts in a request body, and the exact errors a real kube-apiserver
 * (v1.36, strict field validation) and kubectl give for what it does not.
 *
 * Typical `kubectl apply` flow: readTypeMeta → resolveKind → strictDecode.
 *
 * Mirrors nothing upstream: the entry point that gathers the schema modules.
 */

export { strictDecode, decodeErrorMessage, noKindMatch, goJson, type DecodeResult, type DecodeOptions } from './decode.ts';
export { readTypeMeta, mappingNotFoundMessage, type TypeMetaResult } from './kubectl.ts';
export { apiResources, resolveKind, type ApiResource, type ApiSubresource, type KindResolution } from './resources.ts';
export { quantityError, timeError, base64Error } from './scalars.ts';
export {
	typeSchema,
	typeKeys,
	typeForKind,
	groupVersionString,
	type GroupVersionKind,
	type TypeSchema,
	type FieldSchema,
	type FieldType,
	type ScalarCode,
} from './schema.ts';
