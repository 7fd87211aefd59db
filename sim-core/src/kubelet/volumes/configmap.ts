/**
 * The configMap volume plugin: each key of the ConfigMap (or each listed
 * item) becomes a file. A ConfigMap that does not exist fails the set-up
 * (`configmap "web-content" not found`) unless the volume is optional,
 * which gives an empty directory; an item naming a missing key fails it
 * (`configmap references non-existent config key: index.html`) unless the
 * volume is optional, which skips the item.
 *
 * Mirrors pkg/volume/configmap/configmap.go (SetUpAt, MakePayload).
 */
import type { ConfigMap } from '../../api/types.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import type { Payload } from './atomic-writer.ts';
import type { LookupResult } from './lookup.ts';

/** v1.ConfigMapVolumeSourceDefaultMode = 0644 (k8s.io/api core/v1 types.go). */
const CONFIGMAP_DEFAULT_MODE = 0o644;

/** v1.KeyToPath. */
export interface KeyToPath {
	key: string;
	path: string;
	mode?: number;
}

/** v1.ConfigMapVolumeSource (and the projection's ConfigMapProjection, which lacks defaultMode). */
export interface ConfigMapSource {
	name?: string;
	items?: KeyToPath[];
	defaultMode?: number;
	optional?: boolean;
}

export type PayloadResult = { ok: true; payload: Payload } | { ok: false; error: string };

/** MakePayload: the files of `configMap` for `items` (all keys when there are none). */
export function configMapPayload(items: KeyToPath[] | undefined, configMap: ConfigMap, defaultMode: number, optional: boolean): PayloadResult {
	const payload: Payload = {};
	const data = configMap.data ?? {};
	const binary = configMap.binaryData ?? {};
	// binaryData values are base64 in the API; the file holds the bytes (shown here as text).
	const binaryText = (value: string) => decodeBase64(value) ?? '';
	if (!items || items.length === 0) {
		for (const [key, value] of Object.entries(data)) payload[key] = { data: value, mode: defaultMode };
		for (const [key, value] of Object.entries(binary)) payload[key] = { data: binaryText(value), mode: defaultMode };
		return { ok: true, payload };
	}
	for (const item of items) {
		let text: string;
		if (Object.hasOwn(data, item.key)) text = data[item.key];
		else if (Object.hasOwn(binary, item.key)) text = binaryText(binary[item.key]);
		else {
			if (optional) continue;
			return { ok: false, error: `configmap references non-existent config key: ${item.key}` };
		}
		payload[item.path] = { data: text, mode: item.mode ?? defaultMode };
	}
	return { ok: true, payload };
}

/** SetUpAt's data step: read the ConfigMap, tolerate its absence when optional, make the payload. */
export function configMapVolumePayload(source: ConfigMapSource, namespace: string, read: (namespace: string, name: string) => LookupResult<ConfigMap>): PayloadResult {
	const optional = source.optional === true;
	const got = read(namespace, source.name ?? '');
	let configMap: ConfigMap;
	if (got.ok) configMap = got.object;
	else if (got.notFound && optional) configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: source.name, namespace } };
	else return { ok: false, error: got.error };
	return configMapPayload(source.items, configMap, source.defaultMode ?? CONFIGMAP_DEFAULT_MODE, optional);
}
