/**
 * What `kubectl -v=N` writes to stderr about the HTTP requests it sends.
 * client-go wraps kubectl's transport in a debugging round tripper when
 * the verbosity is 6 or more, and the REST client logs bodies from 8:
 *
 * - from 1: client-go's feature gates, once, as the first REST client is
 *   built (`"Feature gate default state" feature="…" enabled=…`, one line
 *   per known gate; Go prints them in map order, here in the order
 *   known_features.go declares them);
 * - 6: `Config loaded from file:  <kubeconfig>` (clientcmd's loader), then
 *   one `"Response" verb url status milliseconds` line per request;
 * - 7: a `"Request" verb url headers` line before it, and a shorter
 *   `"Response" status milliseconds` (the request line already said which);
 * - 8: the response headers, and `"Request Body"` / `"Response Body"`
 *   lines, bodies cut after 1024 characters (`[truncated N chars]`);
 * - 9: the request as a `curl` command line instead of the request line,
 *   the dial, the response with verb, url, headers and connection timing,
 *   bodies cut after 10240 characters; 10 and more: whole bodies.
 *
 * Header values named Authorization are masked (`Bearer <masked>`). Times
 * are the virtual clock's: the simulated API server answers within the
 * same virtual millisecond, so round trips take `milliseconds=0`.
 *
 * Not modelled: the body lines of protobuf exchanges (upstream prints hex
 * dumps of the protobuf bytes), the Table a server-side-printing GET gets
 * back (the body logged is the object or list the simulated server
 * returns), the `X-Kubernetes-Pf-*` response headers, and discovery
 * requests (the simulated kubectl knows the resource table, as a real one
 * with a warm discovery cache does).
 *
 * The file:line in each header is the upstream call site of that log
 * statement in those tags: loader.go:407, envvar.go:195,
 * round_trippers.go:527 (Request), :562 (Dial succeed), :560 (Dial failed),
 * :632 (Response); body lines name the caller of the REST request
 * (cli-runtime v0.36.2 pkg/resource/helper.go: Get :105, List :113, Watch
 * :170, Delete :202, Create :246, Patch :269, Replace :319).
 *
 * Mirrors staging/src/k8s.io/client-go/transport/round_trippers.go
 * (debuggingRoundTripper, levelsV6…V9, requestInfo.toCurl, maskValue,
 * headersMap.String), staging/src/k8s.io/client-go/rest/request.go (logBody,
 * truncateBody), staging/src/k8s.io/client-go/tools/clientcmd/loader.go
 * (LoadFromFile), staging/src/k8s.io/client-go/features/envvar.go,
 * staging/src/k8s.io/cli-runtime/pkg/resource/helper.go (the callers the
 * body lines name).
 */
import type { ApiRequest } from '../api/request.ts';
import { ApiClient } from '../client/client.ts';
import { isTransportFailure, type ApiTransport, type TransportResult } from '../client/transport.ts';
import { compactJson, goQuote, type JsonValue } from '../golang/json.ts';
import { utf8Length, utf8Encode } from '../golang/utf8.ts';
import { httpDate } from '../golang/time.ts';
import { deriveRngState, Rng } from '../sim/rng.ts';
import { klogLine, klogStructured, type KlogValue } from '../component-base/klog.ts';

/**
 * How one invocation talks HTTP: what it accepts and sends. The commands
 * adjust it (get's server-side tables, create token's protobuf).
 */
export interface HttpProfile {
	/** The Accept header. */
	accept: string;
	/** The Content-Type of request bodies (patches use their patch type). */
	contentType: string;
	/** Bodies are protobuf: their body lines (hex dumps upstream) are not reproduced. */
	protobuf?: boolean;
	/** file:line that body lines name (the caller of the REST request); by default cli-runtime's helper.go for the verb. */
	bodySource?: string;
}

/** The Accept header of cli-runtime's unstructured client (resource.UnstructuredPlusDefaultContentConfig). */
export const JSON_ACCEPT = 'application/json';
/** get.go transformRequests: server-side printing asks for a Table (meta.k8s.io v1, then v1beta1), then plain JSON. */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
/** Typed clients generated with --prefers-protobuf (rest.Request.UseProtobufAsDefault). */
export const PROTOBUF_ACCEPT = 'application/vnd.kubernetes.protobuf,application/json';

/** client-go features/known_features.go (v0.36.3): each gate's default for v1.36, in declaration order. */
export const CLIENT_GO_FEATURE_GATES: ReadonlyArray<readonly [string, boolean]> = [
	['AtomicFIFO', true],
	['ClientsAllowCARotation', true],
	['ClientsAllowCBOR', false],
	['ClientsAllowTLSCacheGC', true],
	['ClientsPreferCBOR', false],
	['InOrderInformers', true],
	['InOrderInformersBatchProcess', true],
	['InformerResourceVersion', true],
	['UnlockWhileProcessingFIFO', true],
	['WatchListClient', true],
];

/** rest/request.go truncateBody: at -v=8 bodies are cut after 1024 characters, at 9 after 10240, from 10 never. */
const BODY_LIMIT_V8 = 1024;
const BODY_LIMIT_V9 = 10_240;
/** Go's http2 server: a body that fits one 4 KiB write gets a Content-Length header (as the curl tool models it). */
const CONTENT_LENGTH_LIMIT = 4096;

/** net/http StatusText for the codes the API server answers with. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
	200: 'OK',
	201: 'Created',
	202: 'Accepted',
	204: 'No Content',
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	406: 'Not Acceptable',
	409: 'Conflict',
	410: 'Gone',
	413: 'Request Entity Too Large',
	415: 'Unsupported Media Type',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

const METHODS: Record<ApiRequest['verb'], string> = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' };

/** cli-runtime helper.go: the line that calls Do() (or Watch()) for each verb. */
const HELPER_LINES: Record<ApiRequest['verb'], string> = {
	get: 'helper.go:105',
	list: 'helper.go:113',
	watch: 'helper.go:170',
	delete: 'helper.go:202',
	deletecollection: 'helper.go:202',
	create: 'helper.go:246',
	patch: 'helper.go:269',
	update: 'helper.go:319',
};

/** url.QueryEscape: everything but letters, digits and `-_.~` is %-escaped (UTF-8 bytes); a space is `+`. */
export function goQueryEscape(text: string): string {
	let out = '';
	for (const byte of utf8Encode(text)) {
		const c = String.fromCharCode(byte);
		if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
		else if (c === ' ') out += '+';
		else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
	}
	return out;
}

/**
 * The URL client-go sends for a request: the kubeconfig's server, the
 * REST path, and the query in url.Values.Encode's form (keys sorted,
 * repeated keys for lists, `watch=true` for a watch).
 */
export function requestUrlOf(serverUrl: string, request: ApiRequest): string {
	const root = request.group ? `/apis/${request.group}/${request.version}` : `/api/${request.version}`;
	const ns = request.namespace !== undefined && request.resource !== 'namespaces' ? `/namespaces/${request.namespace}` : '';
	const name = request.name ? `/${request.name}` : '';
	const sub = request.subresource ? `/${request.subresource}` : '';
	const params: Array<[string, string]> = [];
	for (const [key, value] of Object.entries(request.query ?? {})) {
		if (value === undefined) continue;
		if (Array.isArray(value)) for (const v of value) params.push([key, String(v)]);
		else params.push([key, String(value)]);
	}
	if (request.verb === 'watch') params.push(['watch', 'true']);
	// url.Values.Encode sorts by key (a stable sort keeps repeated values in order).
	params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
	const query = params.map(([k, v]) => `${goQueryEscape(k)}=${goQueryEscape(v)}`).join('&');
	return `${serverUrl}${root}${ns}/${request.resource}${name}${sub}${query ? `?${query}` : ''}`;
}

/**
 * JSON as the API server's encoder writes it (encoding/json: HTML
 * characters escaped, a trailing newline), TypeMeta first as Go's structs
 * put it.
 */
function serverJson(value: unknown): string {
	if (value !== null && typeof value === 'object' && !Array.isArray(value) && 'kind' in value && 'apiVersion' in value) {
		const { kind, apiVersion, ...rest } = value as Record<string, unknown>;
		value = { kind, apiVersion, ...rest };
	}
	return `${JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** maskValue: credentials in Authorization headers are never logged. */
function maskValue(key: string, value: string): string {
	if (key.toLowerCase() !== 'authorization' || value === '') return value;
	const space = value.indexOf(' ');
	const authType = space > 0 ? value.slice(0, space) : value;
	if (!['bearer', 'basic', 'negotiate'].includes(authType.toLowerCase())) return '<masked>';
	return value.length > authType.length + 1 ? `${authType} <masked>` : authType;
}

/** headersMap.String: `Key: value` lines, keys sorted, each line ending in a newline. */
function headersText(headers: ReadonlyArray<readonly [string, string]>): string {
	return [...headers]
		.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
		.map(([k, v]) => `${k}: ${maskValue(k, v)}\n`)
		.join('');
}

/** truncateBody. */
function truncate(body: string, verbosity: number): string {
	if (verbosity >= 10) return body;
	const limit = verbosity >= 9 ? BODY_LIMIT_V9 : BODY_LIMIT_V8;
	return body.length <= limit ? body : `${body.slice(0, limit)} [truncated ${body.length - limit} chars]`;
}

/** What the logger needs to know about the invocation. */
interface RequestLoggerOptions {
	/** `-v`. */
	verbosity: number;
	/** The kubeconfig's server, `https://192.168.56.10:6443`. */
	serverUrl: string;
	/** The kubeconfig file kubectl read, for the loader line (none: no line). */
	kubeconfigPath?: string;
	/** kubectl's process id, in every klog header. */
	pid: number;
	/** Virtual wall clock (epoch ms) and virtual time (ms since the cluster started). */
	wallMs(): number;
	nowMs(): number;
	/** rest.DefaultKubernetesUserAgent: `kubectl/v1.36.3 (linux/amd64) kubernetes/73fdc7a`. */
	userAgent: string;
	/** `--as` / `--as-group`: the impersonation headers the outer round tripper adds. */
	impersonate?: { user: string; groups: string[] };
	/** Whether the kubeconfig authenticates with a bearer token (the Authorization header, masked). */
	bearerToken?: boolean;
}

/**
 * Collects kubectl's `-v` lines for one invocation and wraps its API
 * client so every request is logged as it is sent and answered.
 */
export class RequestLogger {
	private readonly lines: string[] = [];
	private started = false;
	private dialed = false;
	private sequence = 0;
	/** What the invocation accepts and sends; commands may change it before they call the API. */
	readonly profile: HttpProfile = { accept: JSON_ACCEPT, contentType: 'application/json' };

	constructor(private readonly options: RequestLoggerOptions) {}

	/** Everything logged so far. */
	text(): string {
		return this.lines.join('');
	}

	private log(level: number, fileLine: string, text: string): void {
		if (this.options.verbosity < level) return;
		this.lines.push(klogLine('I', this.options.wallMs(), this.options.pid, fileLine, text));
	}

	private structured(level: number, fileLine: string, message: string, pairs: Array<readonly [string, KlogValue]>): void {
		this.log(level, fileLine, klogStructured(message, pairs));
	}

	/** The kubeconfig is read and the first REST client built just before the first request. */
	private start(): void {
		if (this.started) return;
		this.started = true;
		// Infoln("Config loaded from file: ", filename): println puts a space between operands.
		if (this.options.kubeconfigPath) this.log(6, 'loader.go:407', `Config loaded from file:  ${this.options.kubeconfigPath}`);
		for (const [feature, enabled] of CLIENT_GO_FEATURE_GATES) this.structured(1, 'envvar.go:195', 'Feature gate default state', [['feature', feature], ['enabled', enabled]]);
	}

	/** The headers the debugging round tripper sees (those set by the request and by the wrappers outside it). */
	private requestHeaders(request: ApiRequest, hasBody: boolean): Array<[string, string]> {
		const headers: Array<[string, string]> = [['Accept', this.profile.accept], ['User-Agent', this.options.userAgent]];
		if (hasBody) headers.push(['Content-Type', request.verb === 'patch' ? (request.patchType ?? 'application/strategic-merge-patch+json') : this.profile.contentType]);
		if (this.options.bearerToken) headers.push(['Authorization', 'Bearer <token>']);
		if (this.options.impersonate) {
			headers.push(['Impersonate-User', this.options.impersonate.user]);
			for (const group of this.options.impersonate.groups) headers.push(['Impersonate-Group', group]);
		}
		return headers;
	}

	/** The request body as kubectl encodes it, or '' for none. */
	private requestBody(request: ApiRequest): string {
		if (request.verb === 'delete' || request.verb === 'deletecollection') {
			// metav1.DeleteOptions through json.NewEncoder: its fields in Go's order, a trailing newline.
			const o = request.deleteOptions ?? {};
			const ordered: Record<string, unknown> = {};
			if (o.gracePeriodSeconds !== undefined) ordered.gracePeriodSeconds = o.gracePeriodSeconds;
			if (o.preconditions) ordered.preconditions = o.preconditions;
			if (o.propagationPolicy) ordered.propagationPolicy = o.propagationPolicy;
			return serverJson(ordered);
		}
		if (request.body === undefined) return '';
		// A patch is sent as kubectl built it; an object as the unstructured encoder writes it (sorted keys, newline).
		if (request.verb === 'patch') return typeof request.body === 'string' ? request.body : compactJson(request.body as JsonValue);
		return `${compactJson(request.body as JsonValue)}\n`;
	}

	private bodyLine(label: 'Request Body' | 'Response Body', request: ApiRequest, body: string): void {
		if (this.profile.protobuf) return;
		// logBody: printable text as is (a string with a line break prints as a block), else a hex dump.
		this.structured(8, this.profile.bodySource ?? HELPER_LINES[request.verb], label, [['body', truncate(body, this.options.verbosity)]]);
	}

	/** Logs one round trip around `send`. */
	roundTrip(request: ApiRequest, send: () => TransportResult): TransportResult {
		this.start();
		const v = this.options.verbosity;
		if (v < 6) return send();
		const method = METHODS[request.verb];
		const url = requestUrlOf(this.options.serverUrl, request);
		const body = this.requestBody(request);
		const headers = this.requestHeaders(request, body !== '' && method !== 'GET');
		// Do() and Watch() log the request body first (an empty one too), before the round tripper runs.
		this.bodyLine('Request Body', request, body);
		if (v >= 9) {
			const curlHeaders = [...headers]
				.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
				.map(([k, value]) => ` -H ${goQuote(`${k}: ${maskValue(k, value)}`)}`)
				.join('');
			this.structured(9, 'round_trippers.go:527', 'Request', [['curlCommand', `curl -v -X${method} ${curlHeaders} '${url}'\n`]]);
		} else if (v >= 7) this.structured(7, 'round_trippers.go:527', 'Request', [['verb', method], ['url', url], ['headers', headersText(headers)]]);

		const startMs = this.options.nowMs();
		const result = send();
		const milliseconds = Math.max(0, Math.round(this.options.nowMs() - startMs));
		const reused = this.dialed;
		const failed = isTransportFailure(result);
		if (v >= 9 && !reused) {
			if (failed) this.structured(9, 'round_trippers.go:560', 'HTTP Trace: Dial failed', [['network', 'tcp'], ['address', result.address], ['err', result.message]]);
			else this.structured(9, 'round_trippers.go:562', 'HTTP Trace: Dial succeed', [['network', 'tcp'], ['address', this.options.serverUrl.replace(/^https?:\/\//, '')]]);
		}
		if (!failed) this.dialed = true;
		const status = failed ? '' : `${result.code} ${STATUS_TEXT[result.code] ?? ''}`.trimEnd();
		const responseBody = failed ? '' : typeof result.body === 'string' ? result.body : serverJson(result.body);
		const responseHeaders: Array<[string, string]> = [];
		if (!failed) {
			this.sequence++;
			const auditId = new Rng(deriveRngState(this.options.pid * 1_000_003 + this.sequence, `kubectl/audit-id@${Math.floor(startMs)}`)).uuid();
			// A protobuf request is answered in protobuf; its length is not modelled, so no Content-Length is claimed for it.
			const contentType = typeof result.body === 'string' ? 'text/plain' : this.profile.protobuf ? 'application/vnd.kubernetes.protobuf' : 'application/json';
			responseHeaders.push(['Audit-Id', auditId], ['Cache-Control', 'no-cache, private'], ['Content-Type', contentType], ['Date', httpDate(this.options.wallMs())]);
			if (request.verb !== 'watch' && !this.profile.protobuf && responseBody.length <= CONTENT_LENGTH_LIMIT) responseHeaders.push(['Content-Length', String(utf8Length(responseBody))]);
			for (const warning of result.warnings ?? []) responseHeaders.push(['Warning', `299 - ${JSON.stringify(warning)}`]);
		}
		const pairs: Array<readonly [string, KlogValue]> = [];
		if (v >= 9 || v === 6) pairs.push(['verb', method], ['url', url]);
		pairs.push(['status', status]);
		if (v >= 8) pairs.push(['headers', headersText(responseHeaders)]);
		pairs.push(['milliseconds', milliseconds]);
		if (v >= 9) {
			if (!reused) pairs.push(['dnsLookupMilliseconds', 0], ['dialMilliseconds', 0], ['tlsHandshakeMilliseconds', 0]);
			else pairs.push(['getConnectionMilliseconds', 0]);
		}
		this.structured(6, 'round_trippers.go:632', 'Response', pairs);
		// Do() logs the body it read (transformResponse); a watch, pods/log (Stream) and the upgraded exec streams do not.
		const streamed = request.verb === 'watch' || ['log', 'exec', 'attach', 'portforward'].includes(request.subresource ?? '');
		if (!failed && !streamed) this.bodyLine('Response Body', request, responseBody);
		return result;
	}

	/** A client whose every request goes through this logger, then through `inner` (which keeps its impersonation). */
	wrap(inner: ApiClient): ApiClient {
		const transport: ApiTransport = {
			request: (_from, request) => this.roundTrip(request, () => inner.raw(request)),
			stopWatch: (_from, watchId) => inner.stopWatch(watchId),
		};
		return new ApiClient(transport, inner.from);
	}
}
