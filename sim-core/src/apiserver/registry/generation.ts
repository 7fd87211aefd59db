/**
 * metadata.generation for resources with a spec: 1 on create, +1 whenever an
 * update of the main resource changes the spec (never for metadata-only or
 * status changes).
 *
 * Mirrors pkg/registry/apps/deployment/strategy.go (PrepareForCreate,
 * PrepareForUpdate; the other apps, batch and core pod strategies do the
 * same).
 */
import type { KubeObject } from '../../api/types.ts';
import { jsonEquals } from './field.ts';

/** PrepareForCreate: the first generation. */
export function initGeneration(obj: KubeObject): void {
	obj.metadata.generation = 1;
}

/** PrepareForUpdate: bump when the spec changed. */
export function bumpGenerationOnSpecChange(obj: KubeObject, old: KubeObject): void {
	const previous = old.metadata.generation ?? 0;
	obj.metadata.generation = jsonEquals(obj.spec, old.spec) ? previous : previous + 1;
}
