/**
 * kube-apiserver as an HTTP server, for curl: the handler chain around the
 * simulated API server (which serves resource requests as ApiRequest
 * objects) and the endpoints it does not serve itself.
 *
 * Upstream order of the filters a request meets (apiserver/pkg/server
 * config.go DefaultBuildHandlerChain): cache-control (`no-cache, private`),
 * audit init (`Audit-Id`), authentication (401 `Unauthorized`, before any
 * flow-control header), priority and fairness (`X-Kubernetes-PF-FlowSchema-UID`,
 * `...-PriorityLevel-UID`), authorization (403 with `X-Content-Type-Options:
 * nosniff`, responsewriters.Forbidden), then the handler. Responses go out
 * over HTTP/2, header names lower-case and sorted by Go's HTTP/2 server,
 * then `content-length` (when the whole body fits the 4 KiB write buffer)
 * and `date`.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/server/config.go
 * (DefaultBuildHandlerChain),
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/cachecontrol.go,
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/audit_init.go,
 * staging/src/k8s.io/apiserver/pkg/server/filters/priority-and-fairness.go,
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * (Forbidden), golang/go src/net/http/h2_bundle.go (HTTP/2 header order).
 */
import type { ApiRequest, ApiResponse, UserInfo } from '../../api/request.ts';
import { isTransportFailure } from '../../client/transport.ts';
import { parseYaml } from '../../yaml/index.ts';
import { httpDate } from '../../golang/time.ts';
import { goMarshalIndent } from '../../golang/json.ts';
import { utf8Length } from '../../golang/utf8.ts';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, rootPaths } from './discovery.ts';
import { RESOURCES } from '../../api/resources.ts';
import { probe, probeChecks } from './health.ts';
import { ANONYMOUS, defaultAuthorizeNonResource, flowSchemaFor, nameUuid } from './identity.ts';
import { parseApiPath, patchTypeOf, type NonResourceRequest } from './paths.ts';
import { goJsonSyntaxError } from '../../golang/json-syntax.ts';
import { encodeBody, inGoOrder, wantsPretty } from './serialize.ts';
import type { CurlDeps, MetricFamily } from './types.ts';

/** One HTTP request as it reaches the server. */
interface HttpRequest {
	method: string;
	/** Path and query: `/api/v1/namespaces/default/pods?limit=1`. */
	target: string;
	/** Request headers, names lower-case. */
	headers: ReadonlyMap<string, string>;
	body?: string;
}

/** What authentication concluded: a user, nobody (anonymous), or a failure (401). */
export type Authentication = { user: UserInfo } | { anonymous: true } | { failed: true };

export interface HttpResponse {
	status: number;
	/** Header names lower-case, in the order the server sends them. */
	headers: Array<[string, string]>;
	body: string;
}

/**
 * Where a redirect answer sends its client on this same server (the path of
 * its Location), or undefined for any other answer. Clients that follow
 * redirects (client-go, curl -L) ask again there.
 */
export function redirectLocation(response: Pick<HttpResponse, 'status' | 'headers'>): string | undefined {
	if (![301, 302, 303, 307, 308].includes(response.status)) return undefined;
	const location = response.headers.find(([n]) => n === 'location')?.[1];
	return location?.startsWith('/') ? location : undefined;
}

/** Go's http2handlerChunkWriteSize: a body that fits in one buffer gets a content-length. */
const CONTENT_LENGTH_LIMIT = 4096;

/** The media types a create or update accepts (JSON, YAML, protobuf; CBOR is behind an alpha gate in v1.36). */
const BODY_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const PATCH_TYPES_TEXT = 'application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml';

function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>) {
	const body: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason };
	if (details) body.details = details;
	body.code = code;
	return body;
}

/** A v4-looking UUID from the seeded stream (audit IDs). */
function randomUuid(random: () => number): string {
	const hex = (n: number) =>
		Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
	return `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(random() * 4)).toString(16)}${hex(3)}-${hex(12)}`;
}

/** Prometheus text exposition format 0.0.4 (label names sorted, as client_golang writes them). */
function metricsText(families: MetricFamily[]): string {
	let out = '';
	for (const family of families) {
		out += `# HELP ${family.name} ${family.help}\n# TYPE ${family.name} ${family.type}\n`;
		for (const sample of family.samples) {
			const labels = Object.keys(sample.labels)
				.sort()
				.map((k) => `${k}=${JSON.stringify(sample.labels[k])}`)
				.join(',');
			out += `${family.name}${labels ? `{${labels}}` : ''} ${sample.value}\n`;
		}
	}
	return out;
}

/** The invalid-JSON message the decoder gives (runtime/serializer/json meta.go Interpret over encoding/json). */
function jsonDecodeError(body: string): string {
	return `couldn't get version/kind; json parse error: ${goJsonSyntaxError(body) ?? 'unexpected end of JSON input'}`;
}

export class ApiServerHttp {
	constructor(private readonly deps: CurlDeps) {}

	/** Serves one request at the current virtual time. */
	serve(req: HttpRequest, auth: Authentication): HttpResponse {
		const headers: Array<[string, string]> = [
			['audit-id', randomUuid(this.deps.random)],
			['cache-control', 'no-cache, private'],
		];
		const userAgent = req.headers.get('user-agent') ?? '';
		const parsed = parseApiPath(req.method, req.target);
		const pretty = wantsPretty(parsed.pretty, userAgent);
		const json = (status: number, body: unknown, extra: Array<[string, string]> = []): HttpResponse => this.finish(status, [...headers, ['content-type', 'application/json'], ...extra], encodeBody(body, pretty));

		if ('failed' in auth) return json(401, statusBody(401, 'Unauthorized', 'Unauthorized'));
		const user = 'user' in auth ? auth.user : ANONYMOUS;
		const pf = flowSchemaFor(user, parsed.kind === 'nonresource' ? parsed.path : undefined);
		const flowHeaders: Array<[string, string]> = [
			['x-kubernetes-pf-flowschema-uid', nameUuid(`flowschema/${pf.flowSchema}`)],
			['x-kubernetes-pf-prioritylevel-uid', nameUuid(`prioritylevelconfiguration/${pf.priorityLevel}`)],
		];
		const nosniff: [string, string] = ['x-content-type-options', 'nosniff'];

		if (parsed.kind === 'nonresource') {
			const allowed = req.method === 'GET' || req.method === 'HEAD' ? (this.deps.authorizeNonResource ?? defaultAuthorizeNonResource)(user, parsed.path) : false;
			if (!allowed) {
				const verb = req.method === 'GET' || req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
				return json(403, statusBody(403, 'Forbidden', `forbidden: User "${user.username}" cannot ${verb} path "${parsed.path}"`, {}), [nosniff, ...flowHeaders]);
			}
			return this.nonResource(parsed, pretty, headers, flowHeaders, nosniff);
		}

		const request = parsed.request;
		if (request.resource === 'nodes' && request.subresource === 'proxy' && request.group === '' && request.name) {
			return this.nodeProxy(req, request, 'user' in auth ? auth.user : undefined, headers, flowHeaders, pretty);
		}
		if (request.subresource === 'proxy' && request.group === '' && (request.resource === 'pods' || request.resource === 'services') && request.name) {
			return this.resourceProxy(req, request, 'user' in auth ? auth.user : undefined, headers, flowHeaders, pretty);
		}
		// Streaming subresources need an upgraded connection (SPDY or WebSocket): plain HTTP gets 400.
		if (['exec', 'attach', 'portforward'].includes(request.subresource ?? '')) return json(400, statusBody(400, 'BadRequest', 'Upgrade request required'), flowHeaders);
		if (['create', 'update', 'patch'].includes(request.verb)) {
			const contentType = (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
			if (request.verb === 'patch') {
				const patchType = patchTypeOf(contentType);
				if (!patchType) return json(415, statusBody(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES_TEXT}`), flowHeaders);
				request.patchType = patchType;
			} else if (!BODY_TYPES.includes(contentType)) {
				return json(415, statusBody(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${BODY_TYPES.join(', ')}`), flowHeaders);
			}
			const text = req.body ?? '';
			try {
				request.body = contentType === 'application/yaml' || contentType === 'application/apply-patch+yaml' ? parseYaml(text) : JSON.parse(text);
			} catch (error) {
				const message = contentType.includes('yaml') ? `error converting YAML to JSON: ${error instanceof Error ? error.message : String(error)}` : jsonDecodeError(text);
				return json(400, statusBody(400, 'BadRequest', message), flowHeaders);
			}
		} else if ((request.verb === 'delete' || request.verb === 'deletecollection') && req.body) {
			try {
				const options = JSON.parse(req.body) as NonNullable<ApiRequest['deleteOptions']>;
				request.deleteOptions = { ...request.deleteOptions, ...options };
			} catch {
				return json(400, statusBody(400, 'BadRequest', jsonDecodeError(req.body)), flowHeaders);
			}
		}

		const asUser = 'user' in auth ? auth.user : undefined;
		if (request.verb === 'watch') return this.watch(request, asUser, headers, flowHeaders, pretty);
		const result = this.deps.request(asUser, request);
		if (isTransportFailure(result)) return { status: 0, headers: [], body: '' };
		return this.apiResponse(result, headers, flowHeaders, pretty, nosniff);
	}

	/**
	 * GET /api/v1/nodes/<node>/proxy/<path>: the API server authorizes the
	 * `nodes/proxy` subresource, finds the node, and relays the request to
	 * its kubelet on port 10250 (what `kubectl get --raw` uses to read a
	 * kubelet's /metrics/resource, /healthz, /pods or /configz). A kubelet it
	 * cannot dial gives 503 `error trying to reach service: <dial error>`.
	 * Mirrors pkg/registry/core/node/rest/proxy.go and the upgrade-aware
	 * proxy's error responder (k8s.io/apimachinery/pkg/util/proxy).
	 */
	private nodeProxy(req: HttpRequest, request: ApiRequest, user: UserInfo | undefined, headers: Array<[string, string]>, flowHeaders: Array<[string, string]>, pretty: boolean): HttpResponse {
		const nosniff: [string, string] = ['x-content-type-options', 'nosniff'];
		if (req.method !== 'GET' && req.method !== 'HEAD') return this.apiResponse({ code: 405, body: statusBody(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource') }, headers, flowHeaders, pretty, nosniff);
		// Authorization (get nodes/proxy) and the node's existence, as the API server checks them before dialing.
		const found = this.deps.request(user, { verb: 'get', group: '', version: 'v1', resource: 'nodes', name: request.name, subresource: 'proxy' });
		if (isTransportFailure(found)) return { status: 0, headers: [], body: '' };
		if (found.code >= 300) return this.apiResponse(found, headers, flowHeaders, pretty, nosniff);
		const target = req.target.split('?')[0];
		const path = target.slice(target.indexOf('/proxy') + '/proxy'.length) || '/';
		const answer = this.deps.kubeletProxy?.(request.name!, path) ?? { kind: 'unreachable' as const, error: `dial tcp: lookup ${request.name}: no such host` };
		if (answer.kind === 'unreachable') return this.apiResponse({ code: 503, body: statusBody(503, 'ServiceUnavailable', `error trying to reach service: ${answer.error}`) }, headers, flowHeaders, pretty, nosniff);
		return this.finish(answer.status, [...headers, ['content-type', answer.contentType]], answer.body);
	}

	/**
	 * Any method on /api/v1/namespaces/<ns>/{pods,services}/<id>/proxy/<path>:
	 * the API server authorizes the subresource with the method's verb,
	 * resolves where it leads (a Pod IP and port, or one endpoint of the
	 * Service), and relays the request from the control-plane node with its
	 * path and query; the upstream's status, headers and body come back. A
	 * GET of the bare `.../proxy` is redirected to `.../proxy/` first, as the
	 * upgrade-aware proxy does for a root path.
	 * Mirrors staging/src/k8s.io/apimachinery/pkg/util/proxy/upgradeaware.go
	 * (ServeHTTP, proxyRedirectsforRootPath).
	 */
	private resourceProxy(req: HttpRequest, request: ApiRequest, user: UserInfo | undefined, headers: Array<[string, string]>, flowHeaders: Array<[string, string]>, pretty: boolean): HttpResponse {
		const nosniff: [string, string] = ['x-content-type-options', 'nosniff'];
		const found = this.deps.request(user, request);
		if (isTransportFailure(found)) return { status: 0, headers: [], body: '' };
		if (found.code >= 300 || !found.proxy) return this.apiResponse(found, headers, flowHeaders, pretty, nosniff);
		const q = req.target.indexOf('?');
		const fullPath = q < 0 ? req.target : req.target.slice(0, q);
		const query = q < 0 ? '' : req.target.slice(q);
		const marker = fullPath.indexOf('/proxy', fullPath.indexOf(`/${request.resource}/`));
		const path = fullPath.slice(marker + '/proxy'.length);
		const method = req.method.toUpperCase();
		if (path === '' && (method === 'GET' || method === 'HEAD')) {
			// http.Redirect with 301: the body names the new location for a GET.
			const to = `${fullPath}/${query}`;
			return this.finish(301, [...headers, ['content-type', 'text/html; charset=utf-8'], ['location', to]], method === 'GET' ? `<a href="${to.replace(/&/g, '&amp;').replace(/"/g, '&#34;')}">Moved Permanently</a>.\n\n` : '');
		}
		const { ip, scheme } = found.proxy;
		// No port: the scheme's own.
		const port = found.proxy.port || (scheme === 'https' ? '443' : '80');
		const address = `${ip}:${port}`;
		const failed = (why: string) => this.apiResponse({ code: 503, body: statusBody(503, 'ServiceUnavailable', `error trying to reach service: ${why}`) }, headers, flowHeaders, pretty, nosniff);
		if (!/^\d+$/.test(port)) return failed(`dial tcp: lookup tcp/${port}: unknown port`);
		const landing = this.deps.connect?.(this.deps.apiServer.nodeName, ip, Number(port));
		if (!landing || landing.kind === 'timeout') {
			this.deps.elapse?.(30_000);
			return failed(`dial tcp ${address}: i/o timeout`);
		}
		if (landing.kind === 'refused') return failed(`dial tcp ${address}: connect: connection refused`);
		if (landing.kind === 'unreachable') {
			this.deps.elapse?.(landing.afterMs);
			return failed(`dial tcp ${address}: connect: no route to host`);
		}
		if (landing.kind !== 'http') return failed(`dial tcp ${address}: connect: connection refused`);
		// A plain-HTTP server meets the proxy's TLS client hello with an HTTP error, which Go's TLS client reads as this.
		if (scheme === 'https') return failed('tls: first record does not look like a TLS handshake');
		const userAgent = req.headers.get('user-agent');
		const answer = landing.serve({ method, target: `${path || '/'}${query}`, headers: userAgent ? [['User-Agent', userAgent]] : [] });
		if (answer.status === 0) return failed(`read tcp ${address}: read: connection reset by peer`);
		// The server's own headers come back; the API server adds its audit and cache headers and frames the body again.
		const relayed = answer.headers.filter(([n]) => !['date', 'content-length', 'connection'].includes(n.toLowerCase())).map(([n, v]): [string, string] => [n.toLowerCase(), v]);
		const response = this.finish(answer.status, [...headers.filter(([n]) => !relayed.some(([r]) => r === n)), ...relayed], answer.body);
		// A HEAD keeps the length of the body it does not carry.
		return method === 'HEAD' ? { ...response, body: '' } : response;
	}

	/** An ApiResponse as JSON (or plain text for logs), with its warning headers. */
	private apiResponse(response: ApiResponse, headers: Array<[string, string]>, flowHeaders: Array<[string, string]>, pretty: boolean, nosniff: [string, string]): HttpResponse {
		const warnings: Array<[string, string]> = (response.warnings ?? []).map((w) => ['warning', `299 - ${JSON.stringify(w)}`]);
		const extra: Array<[string, string]> = response.code === 403 ? [nosniff] : [];
		if (typeof response.body === 'string') return this.finish(response.code, [...headers, ['content-type', 'text/plain'], ...warnings, ...extra, ...flowHeaders], response.body);
		return this.finish(response.code, [...headers, ['content-type', 'application/json'], ...warnings, ...extra, ...flowHeaders], encodeBody(response.body, pretty));
	}

	/**
	 * A watch: without a resourceVersion (or with 0) the stream opens with a
	 * synthetic ADDED event per existing object; from resourceVersion N it
	 * replays what changed after N (ADDED, MODIFIED, DELETED), as the watch
	 * cache does. One compact JSON event per line. curl would then wait for
	 * more; the simulation ends the stream there, as the reader's Ctrl-C would.
	 */
	private watch(request: ApiRequest, user: UserInfo | undefined, headers: Array<[string, string]>, flowHeaders: Array<[string, string]>, pretty: boolean): HttpResponse {
		const rv = request.query?.resourceVersion;
		if (rv && rv !== '0') {
			const started = this.deps.request(user, { ...request, streamReplay: true });
			if (isTransportFailure(started)) return { status: 0, headers: [], body: '' };
			if (started.code >= 300) return this.apiResponse(started, headers, flowHeaders, pretty, ['x-content-type-options', 'nosniff']);
			const events = (started.body as { events?: Array<{ type: string; object: Record<string, unknown> }> }).events ?? [];
			return this.stream(events, headers, flowHeaders);
		}
		const result = this.deps.request(user, { ...request, verb: 'list' });
		if (isTransportFailure(result)) return { status: 0, headers: [], body: '' };
		if (result.code >= 300) return this.apiResponse(result, headers, flowHeaders, pretty, ['x-content-type-options', 'nosniff']);
		const list = result.body as { apiVersion?: string; kind?: string; items?: Array<Record<string, unknown>> };
		const kind = (list.kind ?? '').replace(/List$/, '');
		return this.stream((list.items ?? []).map((item) => ({ type: 'ADDED', object: { kind, apiVersion: list.apiVersion, ...item } })), headers, flowHeaders);
	}

	/** A watch stream of events, one compact JSON event per line. A stream has no length: it is never given a content-length. */
	private stream(events: ReadonlyArray<{ type: string; object: Record<string, unknown> }>, headers: Array<[string, string]>, flowHeaders: Array<[string, string]>): HttpResponse {
		const body = events.map((e) => encodeBody({ type: e.type, object: inGoOrder(e.object) }, false)).join('');
		return { status: 200, headers: [...headers, ['content-type', 'application/json'], ...flowHeaders, ['date', httpDate(this.deps.wallMs())]], body };
	}

	private nonResource(parsed: NonResourceRequest, pretty: boolean, headers: Array<[string, string]>, flowHeaders: Array<[string, string]>, nosniff: [string, string]): HttpResponse {
		const path = parsed.path.length > 1 ? parsed.path.replace(/\/+$/, '') : parsed.path;
		const json = (body: unknown) => this.finish(200, [...headers, ['content-type', 'application/json'], ...flowHeaders], encodeBody(body, pretty));
		const notFound = () => this.finish(404, [...headers, ['content-type', 'application/json'], ...flowHeaders], encodeBody(statusBody(404, 'NotFound', 'the server could not find the requested resource', {}), pretty));
		const probeMatch = /^\/(healthz|livez|readyz)(?:\/(.+))?$/.exec(path);
		if (probeMatch) {
			const result = probe(probeMatch[1] as 'healthz' | 'livez' | 'readyz', probeMatch[2], parsed.query, this.deps.etcdHealthy());
			if (!result) return notFound();
			return this.finish(result.status, [...headers, ['content-type', 'text/plain; charset=utf-8'], nosniff, ...flowHeaders], result.body);
		}
		if (path === '/version') {
			const v = this.deps.version;
			const [major, minor] = v.gitVersion.replace(/^v/, '').split('.');
			// responsewriters.WriteRawJSON: always indented, whatever the client.
			const info = {
				major,
				minor,
				emulationMajor: major,
				emulationMinor: minor,
				minCompatibilityMajor: major,
				minCompatibilityMinor: String(Math.max(0, Number(minor) - 1)),
				gitVersion: v.gitVersion,
				gitCommit: v.gitCommit,
				gitTreeState: 'clean',
				buildDate: v.buildDate,
				goVersion: v.goVersion,
				compiler: 'gc',
				platform: v.platform,
			};
			return this.finish(200, [...headers, ['content-type', 'application/json'], ...flowHeaders], goMarshalIndent(info));
		}
		if (path === '/api') return json(apiVersions(`${this.deps.apiServer.ip}:${this.deps.apiServer.port}`));
		const apiServices = this.deps.apiService ?? (() => 'absent' as const);
		// The root lists the server's paths, indented whatever the client asked (responsewriters.WriteRawJSON).
		if (path === '/') return this.finish(200, [...headers, ['content-type', 'application/json'], ...flowHeaders], goMarshalIndent(rootPaths(apiServices, probeChecks)));
		if (path === '/apis') return json(apiGroupList(apiServices));
		const core = /^\/api\/([^/]+)$/.exec(path);
		if (core) {
			const list = apiResourceList('', core[1]);
			return list ? json(list) : notFound();
		}
		const group = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
		if (group) {
			// An aggregated group version is its extension server's to describe: 404 without an APIService, 503 while it is not Available.
			const aggregated = group[2] !== undefined && RESOURCES.some((r) => r.aggregated && r.group === group[1] && r.version === group[2]);
			if (aggregated) {
				const state = apiServices(group[1], group[2]!);
				if (state === 'absent') return notFound();
				if (state === 'unavailable') return this.finish(503, [...headers, ['content-type', 'application/json'], ...flowHeaders], encodeBody(statusBody(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', {}), pretty));
			}
			const doc = group[2] ? apiResourceList(group[1], group[2]) : apiGroup(group[1], apiServices);
			return doc ? json(doc) : notFound();
		}
		if (path === '/metrics') return this.finish(200, [...headers, ['content-type', 'text/plain; version=0.0.4; charset=utf-8'], ...flowHeaders], metricsText(this.deps.metrics?.() ?? []));
		return notFound();
	}

	/** Adds content-length (when the body fits one write buffer) and date, after the sorted handler headers. */
	private finish(status: number, headers: Array<[string, string]>, body: string): HttpResponse {
		const sorted = [...headers].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
		const length = utf8Length(body);
		if (length <= CONTENT_LENGTH_LIMIT) sorted.push(['content-length', String(length)]);
		sorted.push(['date', httpDate(this.deps.wallMs())]);
		return { status, headers: sorted, body };
	}
}
