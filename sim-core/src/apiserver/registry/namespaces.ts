/**
 * The Namespace strategy: the `kubernetes.io/metadata.name` label, the
 * `kubernetes` finalizer, phase Active on create, and the rule that the main
 * resource cannot change spec.finalizers or status.
 *
 * Mirrors pkg/registry/core/namespace/strategy.go,
 * pkg/apis/core/v1/defaults.go (SetDefaults_Namespace,
 * SetDefaults_NamespaceStatus), pkg/apis/core/validation/validation.go
 * (ValidateNamespace).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asArray, asRecord, invalid } from './field.ts';
import { metaErrors, nameIsDNSLabel, validateFinalizerName, validateObjectMetaUpdate } from './objectmeta.ts';

/** v1.LabelMetadataName. */
const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';
/** v1.FinalizerKubernetes: the namespace controller's finalizer. */
export const FINALIZER_KUBERNETES = 'kubernetes';

/** Canonicalize and SetDefaults_Namespace: the name label is always present and always right. */
function setNameLabel(obj: KubeObject): void {
	if (!obj.metadata.name) return;
	obj.metadata.labels = { ...(obj.metadata.labels ?? {}), [LABEL_METADATA_NAME]: obj.metadata.name };
}

const specOf = (obj: KubeObject) => (asRecord(obj.spec) ?? {}) as { finalizers?: string[] };
const statusOf = (obj: KubeObject) => (asRecord(obj.status) ?? {}) as { phase?: string };

export const namespaceStrategy: Strategy = {
	hasStatusSubresource: true,
	defaults(obj) {
		setNameLabel(obj);
	},
	prepareForCreate(obj) {
		setNameLabel(obj);
		obj.status = { phase: 'Active' };
		const finalizers = asArray<string>(specOf(obj).finalizers);
		if (!finalizers.includes(FINALIZER_KUBERNETES)) finalizers.push(FINALIZER_KUBERNETES);
		obj.spec = { ...specOf(obj), finalizers };
	},
	prepareForUpdate(obj, old) {
		setNameLabel(obj);
		// Finalizers change only through namespaces/<name>/finalize.
		obj.spec = { ...specOf(obj), finalizers: specOf(old).finalizers ?? [] };
		obj.status = old.status;
	},
	validate(obj) {
		const errs = metaErrors(obj, false, nameIsDNSLabel);
		asArray<string>(specOf(obj).finalizers).forEach((f) => errs.push(...validateFinalizerName(f, 'spec.finalizers')));
		return errs;
	},
	validateUpdate(obj, old) {
		return validateObjectMetaUpdate(obj.metadata, old.metadata);
	},
	validateStatusUpdate(obj, old) {
		const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
		const phase = statusOf(obj).phase ?? '';
		if (!obj.metadata.deletionTimestamp && phase !== 'Active') errs.push(invalid('status.Phase', phase, "may only be 'Active' if `deletionTimestamp` is empty"));
		if (obj.metadata.deletionTimestamp && phase !== 'Terminating') errs.push(invalid('status.Phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty"));
		return errs;
	},
	fields(obj) {
		// "name" is kept for backward compatibility upstream.
		return { 'status.phase': statusOf(obj).phase ?? '', name: obj.metadata.name ?? '' };
	},
};

