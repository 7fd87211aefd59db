/**
 * The ControllerRevision strategy (apps/v1): a revision needs data and a
 * non-negative revision number, and its data never changes once written
 * (controllers bump `revision` on a rollback, never `data`).
 *
 * Mirrors pkg/registry/apps/controllerrevision/strategy.go,
 * pkg/apis/apps/validation/validation.go (ValidateControllerRevisionCreate,
 * ValidateControllerRevisionUpdate).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { required, type FieldError } from './field.ts';
import { metaErrors, validateImmutable, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';

/** ValidateControllerRevision. */
function validateControllerRevision(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, true);
	const data = (obj as { data?: unknown }).data;
	if (data === undefined || data === null) errs.push(required('data', 'data is mandatory'));
	errs.push(...validateNonnegative((obj as { revision?: number }).revision, 'revision'));
	return errs;
}

export const controllerRevisionStrategy: Strategy = {
	validate: validateControllerRevision,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateControllerRevision(obj), ...validateImmutable((obj as { data?: unknown }).data, (old as { data?: unknown }).data, 'data')];
	},
};
