/**
 * The ConfigMap strategy: key names, the 1 MiB size limit, and immutable
 * ConfigMaps.
 *
 * Mirrors pkg/registry/core/configmap/strategy.go,
 * pkg/apis/core/validation/validation.go (ValidateConfigMap,
 * ValidateConfigMapUpdate).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, forbidden, invalid, jsonEquals, key, tooLong, type FieldError } from './field.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { utf8Length } from '../../golang/utf8.ts';
import { isConfigMapKey, metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';

/** core.MaxSecretSize = 1 * 1024 * 1024, shared by ConfigMaps and Secrets. */
export const MAX_SECRET_SIZE_BYTES = 1024 * 1024;

/** The decoded length of a base64 string (what binaryData and Secret data hold). */
export function base64DecodedLength(text: string): number {
	const clean = text.replace(/\s/g, '');
	const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

const sortedKeys = (rec: Record<string, unknown> | undefined) => Object.keys(rec ?? {}).sort(compareGoStrings);

/** ValidateConfigMap. */
function validateConfigMap(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, true);
	const data = asRecord(obj.data);
	const binary = asRecord(obj.binaryData);
	let total = 0;
	for (const k of sortedKeys(data)) {
		for (const m of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, m));
		if (binary && k in binary) errs.push(invalid(key('data', k), k, 'duplicate of key present in binaryData'));
		total += utf8Length(String(data![k] ?? ''));
	}
	for (const k of sortedKeys(binary)) {
		for (const m of isConfigMapKey(k)) errs.push(invalid(key('binaryData', k), k, m));
		total += base64DecodedLength(String(binary![k] ?? ''));
	}
	// Reported against the whole object: the field path is empty.
	if (total > MAX_SECRET_SIZE_BYTES) errs.push(tooLong('', MAX_SECRET_SIZE_BYTES));
	return errs;
}

export const configMapStrategy: Strategy = {
	validate: validateConfigMap,
	validateUpdate(obj, old) {
		const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
		if (old.immutable === true) {
			if (obj.immutable !== true) errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
			if (!jsonEquals(obj.data ?? null, old.data ?? null)) errs.push(forbidden('data', 'field is immutable when `immutable` is set'));
			if (!jsonEquals(obj.binaryData ?? null, old.binaryData ?? null)) errs.push(forbidden('binaryData', 'field is immutable when `immutable` is set'));
		}
		return [...errs, ...validateConfigMap(obj)];
	},
};
