/**
 * The order Go's encoding/json writes an API object's fields in, for the
 * typed structs client-go and kube-apiserver encode: kind, apiVersion,
 * metadata (ObjectMeta's own order), the rest, status last; a list's items
 * likewise; metav1.Status in its order. The simulated objects hold fields
 * in the order clients wrote them, so this puts the top level, metadata and
 * Status in Go's order (nested spec fields keep their stored order, which
 * usually matches).
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go
 * (ObjectMeta, ListMeta, Status, StatusDetails field order).
 */
import type { GoJsonValue } from '../golang/json.ts';

/** metav1.ObjectMeta's JSON field order. */
const OBJECT_META_ORDER = [
	'name',
	'generateName',
	'namespace',
	'selfLink',
	'uid',
	'resourceVersion',
	'generation',
	'creationTimestamp',
	'deletionTimestamp',
	'deletionGracePeriodSeconds',
	'labels',
	'annotations',
	'ownerReferences',
	'finalizers',
	'managedFields',
];
/** metav1.ListMeta's order. */
const LIST_META_ORDER = ['selfLink', 'resourceVersion', 'continue', 'remainingItemCount'];
/** metav1.Status's order. */
const STATUS_ORDER = ['kind', 'apiVersion', 'metadata', 'status', 'message', 'reason', 'details', 'code'];
/** metav1.StatusDetails's order. */
const STATUS_DETAILS_ORDER = ['name', 'group', 'kind', 'uid', 'causes', 'retryAfterSeconds'];

type Json = GoJsonValue;
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys in `order` first (when present), then the rest in their stored order. */
function ordered(obj: JsonObject, order: readonly string[], omitEmpty = false): JsonObject {
	const out: JsonObject = {};
	const keep = (v: Json) => v !== undefined && !(omitEmpty && (v === '' || v === 0 || v === null || (Array.isArray(v) && v.length === 0)));
	for (const key of order) if (key in obj && keep(obj[key])) out[key] = obj[key];
	for (const key of Object.keys(obj)) if (!(key in out) && !order.includes(key) && obj[key] !== undefined) out[key] = obj[key];
	return out;
}

function objectMeta(meta: Json): Json {
	return isObject(meta) ? ordered(meta, OBJECT_META_ORDER) : meta;
}

/** An API object (or list) in Go struct order. */
export function inGoOrder(value: unknown): Json {
	if (!isObject(value)) return value as Json;
	if (value.kind === 'Status') {
		const status = ordered(value, STATUS_ORDER);
		if (isObject(status.details)) status.details = ordered(status.details, STATUS_DETAILS_ORDER, true);
		return status;
	}
	const top = ordered(value, ['kind', 'apiVersion', 'metadata']);
	const isList = Array.isArray(top.items);
	if (isList) {
		if (isObject(top.metadata)) top.metadata = ordered(top.metadata, LIST_META_ORDER);
		top.items = (top.items as Json[]).map((item) => (isObject(item) ? itemInGoOrder(item) : item));
	} else if ('metadata' in top) top.metadata = objectMeta(top.metadata);
	// status, when present, is the last field of every Kubernetes object.
	if ('status' in top && 'spec' in top) {
		const status = top.status;
		delete top.status;
		top.status = status;
	}
	return top;
}

function itemInGoOrder(item: JsonObject): JsonObject {
	const out = ordered(item, ['kind', 'apiVersion', 'metadata']);
	if ('metadata' in out) out.metadata = objectMeta(out.metadata);
	if ('status' in out && 'spec' in out) {
		const status = out.status;
		delete out.status;
		out.status = status;
	}
	return out;
}

