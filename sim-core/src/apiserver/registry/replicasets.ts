/**
 * The ReplicaSet strategy: replicas 1 by default, validation, immutable
 * selector, and the `status.replicas` field selector.
 *
 * Mirrors pkg/registry/apps/replicaset/strategy.go,
 * pkg/apis/apps/v1/defaults.go (SetDefaults_ReplicaSet),
 * pkg/apis/apps/validation/validation.go (ValidateReplicaSet,
 * ValidateReplicaSetSpec).
 */
import type { KubeObject } from '../../api/types.ts';
import { asRecord, type FieldError } from './field.ts';
import { metaErrors, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { selectorImmutable, validateSelectorAndTemplate, workloadStrategy } from './apps-validation.ts';

type Json = Record<string, unknown>;

/** ValidateReplicaSetSpec (its empty-selector message says "deployment" upstream too). */
function validateReplicaSetSpec(spec: Json): FieldError[] {
	return [
		...validateNonnegative(spec.replicas as number | undefined, 'spec.replicas'),
		...validateNonnegative(spec.minReadySeconds as number | undefined, 'spec.minReadySeconds'),
		...validateSelectorAndTemplate(spec, 'spec', 'empty selector is invalid for deployment', 'ReplicaSet'),
	];
}

const validateReplicaSet = (obj: KubeObject) => [...metaErrors(obj, true), ...validateReplicaSetSpec(asRecord(obj.spec) ?? {})];

export const replicaSetStrategy = {
	...workloadStrategy({
		defaults(spec) {
			if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
		},
		validate: validateReplicaSet,
		validateUpdate(obj, old) {
			return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateReplicaSetSpec(asRecord(obj.spec) ?? {}), ...selectorImmutable(obj, old)];
		},
	}),
	fields(obj: KubeObject): Record<string, string> {
		return { 'status.replicas': String((asRecord(obj.status) ?? {}).replicas ?? 0) };
	},
};
