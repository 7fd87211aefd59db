/**
 * From an HTTP request line to an API request, as kube-apiserver's
 * RequestInfoFactory reads a URL: `/api/v1/...` and
 * `/apis/<group>/<version>/...` are resource requests; after the version
 * come `namespaces/<ns>/` (unless the next part is a namespace subresource:
 * status, finalize), then `<resource>/<name>/<subresource>`. The HTTP method
 * and the `watch` query parameter give the verb (GET → get or list, a list
 * with `watch` other than false/0 → watch, POST → create, PUT → update,
 * PATCH → patch, DELETE → delete or deletecollection). Everything else
 * (`/healthz`, `/version`, `/api`, `/apis/apps`...) is a non-resource
 * request.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go
 * (RequestInfoFactory.NewRequestInfo).
 */
import type { ApiRequest, PatchType, Verb } from '../../api/request.ts';

/** A request the resource handlers serve. */
interface ResourceRequest {
	kind: 'resource';
	request: ApiRequest;
	/** `pretty` query parameter, if present (`?pretty=true`). */
	pretty?: string;
}

/** A request for a path outside the resource tree (health, version, discovery, metrics). */
export interface NonResourceRequest {
	kind: 'nonresource';
	path: string;
	query: URLSearchParamsLike;
	pretty?: string;
}

/** The query string, parsed (the simulation has no URLSearchParams: plain ECMAScript only). */
type URLSearchParamsLike = ReadonlyMap<string, string[]>;

export type ParsedPath = ResourceRequest | NonResourceRequest;

/** requestinfo.go namespaceSubresources: parts after /namespaces/<ns>/ that belong to the namespace itself. */
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** Percent-decoding of one URL component (`%2F`, `+` stays `+` in paths). */
function decode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** `a=1&b=2&b=3` to a map of value lists (form decoding: `+` is a space). */
function parseQuery(query: string): Map<string, string[]> {
	const out = new Map<string, string[]>();
	for (const pair of query.split('&')) {
		if (!pair) continue;
		const eq = pair.indexOf('=');
		const key = decode((eq < 0 ? pair : pair.slice(0, eq)).replaceAll('+', ' '));
		const value = eq < 0 ? '' : decode(pair.slice(eq + 1).replaceAll('+', ' '));
		out.set(key, [...(out.get(key) ?? []), value]);
	}
	return out;
}

const METHOD_VERBS: Record<string, Verb | undefined> = { POST: 'create', PUT: 'update', PATCH: 'patch' };

/** Content types PATCH accepts (apimachinery pkg/types/patch.go). */
const PATCH_TYPES: readonly PatchType[] = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

/** The patch type a Content-Type header names, if it is one the server accepts. */
export function patchTypeOf(contentType: string | undefined): PatchType | undefined {
	const bare = (contentType ?? '').split(';')[0].trim().toLowerCase();
	return PATCH_TYPES.find((t) => t === bare);
}

/** Parses `METHOD path?query` into a resource or non-resource request. */
export function parseApiPath(method: string, target: string): ParsedPath {
	const q = target.indexOf('?');
	const path = q < 0 ? target : target.slice(0, q);
	const query = parseQuery(q < 0 ? '' : target.slice(q + 1));
	const first = (name: string) => query.get(name)?.[0];
	const pretty = first('pretty');
	const segments = path.split('/').filter(Boolean).map(decode);

	let group: string;
	let version: string;
	let rest: string[];
	if (segments[0] === 'api' && segments.length >= 3) {
		[group, version, rest] = ['', segments[1], segments.slice(2)];
	} else if (segments[0] === 'apis' && segments.length >= 4) {
		[group, version, rest] = [segments[1], segments[2], segments.slice(3)];
	} else {
		return pretty === undefined ? { kind: 'nonresource', path, query } : { kind: 'nonresource', path, query, pretty };
	}

	let namespace: string | undefined;
	let parts = rest;
	if (parts[0] === 'namespaces' && parts.length > 1) {
		namespace = parts[1];
		if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2])) parts = parts.slice(2);
	}
	const resource = parts[0];
	const name = parts[1];
	const subresource = parts[2];
	// A Namespace object is cluster-scoped: /api/v1/namespaces/<name> names it, it does not scope it.
	if (resource === 'namespaces') namespace = undefined;

	let verb: Verb;
	const upper = method.toUpperCase();
	if (upper === 'GET' || upper === 'HEAD') {
		verb = name ? 'get' : 'list';
		const watch = first('watch');
		if (verb === 'list' && watch !== undefined && !['false', '0'].includes(watch.toLowerCase())) verb = 'watch';
	} else if (upper === 'DELETE') verb = name ? 'delete' : 'deletecollection';
	else verb = METHOD_VERBS[upper] ?? 'get';

	const request: ApiRequest = { verb, group, version, resource };
	if (namespace !== undefined) request.namespace = namespace;
	if (name !== undefined) request.name = name;
	if (subresource !== undefined) request.subresource = subresource;

	const q2: NonNullable<ApiRequest['query']> = {};
	const text = (key: 'labelSelector' | 'fieldSelector' | 'resourceVersion' | 'fieldManager' | 'container' | 'continue') => {
		const v = first(key);
		if (v !== undefined) q2[key] = v;
	};
	text('labelSelector');
	text('fieldSelector');
	text('resourceVersion');
	text('fieldManager');
	text('container');
	text('continue');
	const limit = first('limit');
	if (limit !== undefined && /^\d+$/.test(limit)) q2.limit = Number(limit);
	const tail = first('tailLines');
	if (tail !== undefined && /^\d+$/.test(tail)) q2.tailLines = Number(tail);
	const limitBytes = first('limitBytes');
	if (limitBytes !== undefined && /^\d+$/.test(limitBytes)) q2.limitBytes = Number(limitBytes);
	for (const flag of ['previous', 'timestamps', 'force', 'stdin', 'tty'] as const) {
		const v = first(flag);
		if (v !== undefined) q2[flag] = v === 'true' || v === '1';
	}
	if (first('dryRun') === 'All') q2.dryRun = 'All';
	const validation = first('fieldValidation');
	if (validation === 'Strict' || validation === 'Warn' || validation === 'Ignore') q2.fieldValidation = validation;
	const command = query.get('command');
	if (command) q2.command = command;
	if (Object.keys(q2).length) request.query = q2;

	if (verb === 'delete' || verb === 'deletecollection') {
		const grace = first('gracePeriodSeconds');
		const propagation = first('propagationPolicy');
		const options: NonNullable<ApiRequest['deleteOptions']> = {};
		if (grace !== undefined && /^\d+$/.test(grace)) options.gracePeriodSeconds = Number(grace);
		if (propagation === 'Orphan' || propagation === 'Background' || propagation === 'Foreground') options.propagationPolicy = propagation;
		if (Object.keys(options).length) request.deleteOptions = options;
	}
	return pretty === undefined ? { kind: 'resource', request } : { kind: 'resource', request, pretty };
}
