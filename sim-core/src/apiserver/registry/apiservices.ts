/**
 * The APIService strategy (apiregistration.k8s.io/v1): cluster-scoped,
 * named `<version>.<group>`, with a status subresource that only the
 * aggregator's availability check writes.
 *
 * Mirrors staging/src/k8s.io/kube-aggregator/pkg/registry/apiservice/strategy.go,
 * staging/src/k8s.io/kube-aggregator/pkg/apis/apiregistration/validation/validation.go
 * (ValidateAPIService: the name must be version.group).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, invalid, type FieldError } from './field.ts';
import { metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';

function validateApiService(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, false);
	const spec = asRecord(obj.spec) ?? {};
	const group = String(spec.group ?? '');
	const version = String(spec.version ?? '');
	const name = obj.metadata.name ?? '';
	const expected = group ? `${version}.${group}` : version;
	if (name !== expected) errs.push(invalid('metadata.name', name, `must be \`spec.version+"."+spec.group\`: "${expected}"`));
	return errs;
}

export const apiServiceStrategy: Strategy = {
	hasStatusSubresource: true,
	prepareForCreate(obj) {
		delete obj.status;
	},
	validate: validateApiService,
	validateUpdate(obj, old) {
		return [...validateApiService(obj), ...validateObjectMetaUpdate(obj.metadata, old.metadata)];
	},
	validateStatusUpdate(obj, old) {
		return validateObjectMetaUpdate(obj.metadata, old.metadata);
	},
};
