/**
 * The secret volume plugin: each key of the Secret (or each listed item)
 * becomes a file holding the decoded value, so `cat` inside the container
 * prints the plain text, not the base64 of the API. The failure modes are
 * the configMap plugin's, with the secret's wording: `secret "db" not
 * found`, `references non-existent secret key: password`.
 *
 * Mirrors pkg/volume/secret/secret.go (SetUpAt, MakePayload).
 */
import type { Secret } from '../../api/types.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import type { Payload } from './atomic-writer.ts';
import type { KeyToPath, PayloadResult } from './configmap.ts';
import type { LookupResult } from './lookup.ts';

/** v1.SecretVolumeSourceDefaultMode = 0644 (k8s.io/api core/v1 types.go). */
const SECRET_DEFAULT_MODE = 0o644;

/** v1.SecretVolumeSource (`secretName`), or a projection's SecretProjection (`name`). */
export interface SecretSource {
	secretName?: string;
	name?: string;
	items?: KeyToPath[];
	defaultMode?: number;
	optional?: boolean;
}

/** The Secret's values as the files hold them: `data` decoded, `stringData` (if a reader kept it) as written. */
function secretValues(secret: Secret): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(secret.data ?? {})) out[key] = decodeBase64(value) ?? '';
	for (const [key, value] of Object.entries(secret.stringData ?? {})) out[key] = value;
	return out;
}

/** MakePayload. */
export function secretPayload(items: KeyToPath[] | undefined, secret: Secret, defaultMode: number, optional: boolean): PayloadResult {
	const payload: Payload = {};
	const values = secretValues(secret);
	if (!items || items.length === 0) {
		for (const [key, value] of Object.entries(values)) payload[key] = { data: value, mode: defaultMode };
		return { ok: true, payload };
	}
	for (const item of items) {
		if (!Object.hasOwn(values, item.key)) {
			if (optional) continue;
			return { ok: false, error: `references non-existent secret key: ${item.key}` };
		}
		payload[item.path] = { data: values[item.key], mode: item.mode ?? defaultMode };
	}
	return { ok: true, payload };
}

/** SetUpAt's data step. */
export function secretVolumePayload(source: SecretSource, namespace: string, read: (namespace: string, name: string) => LookupResult<Secret>): PayloadResult {
	const optional = source.optional === true;
	const name = source.secretName ?? source.name ?? '';
	const got = read(namespace, name);
	let secret: Secret;
	if (got.ok) secret = got.object;
	else if (got.notFound && optional) secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace } };
	else return { ok: false, error: got.error };
	return secretPayload(source.items, secret, source.defaultMode ?? SECRET_DEFAULT_MODE, optional);
}
