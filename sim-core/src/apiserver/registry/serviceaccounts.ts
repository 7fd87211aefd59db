/**
 * The ServiceAccount strategy: names are DNS subdomains. Mirrors
 * k8s.io/kubernetes/pkg/registry/core/serviceaccount/strategy.go and
 * ValidateServiceAccount.
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
