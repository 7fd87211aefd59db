/**
 * The ServiceAccount strategy: names are DNS subdomains.
 *
 * Mirrors pkg/registry/core/serviceaccount/strategy.go,
 * pkg/apis/core/validation/validation.go (ValidateServiceAccount).
 */
import type { Strategy } from './strategy.ts';
import { metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';

export const serviceAccountStrategy: Strategy = {
	validate(obj) {
		return metaErrors(obj, true);
	},
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...metaErrors(obj, true)];
	},
};
