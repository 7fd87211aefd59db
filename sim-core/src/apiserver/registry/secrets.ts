/**
 * The Secret strategy: type Opaque by default, `stringData` folded into
 * base64 `data` (and dropped, as the v1 conversion does), key names, the 1
 * MiB size limit, the per-type required keys, immutable Secrets and the
 * `type` field selector.
 *
 * Mirrors pkg/registry/core/secret/strategy.go, pkg/apis/core/v1/defaults.go
 * (SetDefaults_Secret), pkg/apis/core/v1/conversion.go
 * (Convert_v1_Secret_To_core_Secret), pkg/apis/core/validation/validation.go
 * (ValidateSecret).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, forbidden, invalid, jsonEquals, key, required, tooLong, type FieldError } from './field.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import { isConfigMapKey, metaErrors, validateImmutable, validateObjectMetaUpdate } from './objectmeta.ts';
import { base64DecodedLength, MAX_SECRET_SIZE_BYTES } from './configmaps.ts';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding of the UTF-8 bytes of `text` (what `[]byte` marshals to). */
export function base64Encode(text: string): string {
	const bytes = utf8Encode(text);
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
		const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
		out += BASE64[(n >> 18) & 63] + BASE64[(n >> 12) & 63] + (b === undefined ? '=' : BASE64[(n >> 6) & 63]) + (c === undefined ? '=' : BASE64[n & 63]);
	}
	return out;
}

/** The required data keys per Secret type (core/types.go constants). */
function typeErrors(obj: KubeObject, data: Record<string, unknown>): FieldError[] {
	const has = (k: string) => k in data;
	switch (obj.type) {
		case 'kubernetes.io/service-account-token':
			return obj.metadata.annotations?.['kubernetes.io/service-account.name'] ? [] : [required(key('metadata.annotations', 'kubernetes.io/service-account.name'))];
		case 'kubernetes.io/dockercfg':
			return has('.dockercfg') ? [] : [required(key('data', '.dockercfg'))];
		case 'kubernetes.io/dockerconfigjson':
			return has('.dockerconfigjson') ? [] : [required(key('data', '.dockerconfigjson'))];
		case 'kubernetes.io/basic-auth':
			return has('username') || has('password') ? [] : [required(key('data', 'username')), required(key('data', 'password'))];
		case 'kubernetes.io/ssh-auth':
			return data['ssh-privatekey'] ? [] : [required(key('data', 'ssh-privatekey'))];
		case 'kubernetes.io/tls':
			return [...(has('tls.crt') ? [] : [required(key('data', 'tls.crt'))]), ...(has('tls.key') ? [] : [required(key('data', 'tls.key'))])];
		default:
			return [];
	}
}

/** ValidateSecret. */
function validateSecret(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, true);
	const data = asRecord(obj.data) ?? {};
	let total = 0;
	for (const k of Object.keys(data).sort(compareGoStrings)) {
		for (const m of isConfigMapKey(k)) errs.push(invalid(key('data', k), k, m));
		total += base64DecodedLength(String(data[k] ?? ''));
	}
	if (total > MAX_SECRET_SIZE_BYTES) errs.push(tooLong('data', MAX_SECRET_SIZE_BYTES));
	errs.push(...typeErrors(obj, data));
	return errs;
}

export const secretStrategy: Strategy = {
	defaults(obj) {
		if (!obj.type) obj.type = 'Opaque';
		const stringData = asRecord(obj.stringData);
		if (stringData) {
			const data = { ...(asRecord(obj.data) ?? {}) };
			for (const [k, v] of Object.entries(stringData)) data[k] = base64Encode(String(v));
			obj.data = data;
			delete obj.stringData;
		}
	},
	validate: validateSecret,
	validateUpdate(obj, old) {
		const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
		errs.push(...validateImmutable(obj.type, old.type, 'type'));
		if (old.immutable === true) {
			if (obj.immutable !== true) errs.push(forbidden('immutable', 'field is immutable when `immutable` is set'));
			if (!jsonEquals(obj.data ?? null, old.data ?? null)) errs.push(forbidden('data', 'field is immutable when `immutable` is set'));
		}
		return [...errs, ...validateSecret(obj)];
	},
	fields(obj) {
		return { type: typeof obj.type === 'string' ? obj.type : '' };
	},
};
