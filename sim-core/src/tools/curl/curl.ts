/**
 * `curl` (8.5, Ubuntu 24.04's) talking to the simulated kube-apiserver the
 * way the articles do it: `curl -k https://<control-plane>:6443/api/v1/...`,
 * with or without client certificates or a bearer token.
 *
 * Upstream behaviour reproduced (curl lib/ and src/):
 * - connection: `Failed to connect to <host> port <port> after <n> ms:
 *   Couldn't connect to server` (7) when nothing listens or, after 3 s of
 *   unanswered ARP, when the machine is off; (28) when the host is cut off
 *   (the kernel gives up a SYN after ~127 s); `Could not resolve host` (6);
 * - TLS: without -k and without a --cacert that holds the cluster CA,
 *   `SSL certificate problem: unable to get local issuer certificate` (60)
 *   with curl's hint lines; a name missing from the serving certificate
 *   (localhost, 127.0.0.1) fails (60) too; a missing --cacert file (77) or
 *   client certificate (58);
 * - output: the body as the server sent it (kube-apiserver pretty-prints for
 *   a curl User-Agent), `-i` headers (HTTP/2: `HTTP/2 200 ` and lower-case
 *   names, CRLF line ends), `-v` lines on stderr (`* `, `> `, `< `), `-o`,
 *   `-f` (22), `-w '%{http_code}'`, and the progress meter on stderr when
 *   stdout is not the terminal and -s is not given.
 * A plain `http://` request to 6443 gets Go's `Client sent an HTTP request to
 * an HTTPS server.` With a cluster's network wired in (`connect`), other
 * addresses answer too: a Service's ClusterIP or a NodePort leads, through
 * the node's kube-proxy rules, to a Pod's server (plain HTTP/1.1), to the
 * API server, or to `Connection refused` (a REJECT rule), `No route to
 * host` (an address nobody holds) or a timeout. Watches print the opening events and end (see
 * apiserver-http.ts). Because a command returns stdout and stderr
 * separately, a terminal shows -v's lines after the body, not around it.
 *
 * Mirrors curl/curl lib/cf-ip-happy.c (Failed to connect to ... after ...
 * ms), curl/curl lib/strerror.c, curl/curl lib/vtls/openssl.c (SSL
 * certificate problem), curl/curl src/tool_operate.c, curl/curl
 * src/tool_writeout.c (-w), golang/go src/net/http/server.go (Client sent an
 * HTTP request to an HTTPS server).
 */
import type { CommandContext, CommandHandler, CommandResult, Host } from '../../shell/types.ts';
import type { UserInfo } from '../../api/request.ts';
import { opensslDate } from '../common/calendar.ts';
import { utf8Length } from '../../golang/utf8.ts';
import { ApiServerHttp, redirectLocation, type Authentication, type HttpResponse } from './apiserver-http.ts';
import { defaultCertIdentity } from './identity.ts';
import { NO_URL_TEXT, OptionError, optionErrorText, parseCurlArgs, type CurlOptions } from './options.ts';
import { progressMeter } from './progress.ts';
import type { CurlConnection, CurlDeps } from './types.ts';

/** curl's User-Agent (curl/<version>). */
export const CURL_VERSION = '8.5.0';
/** kubeadm's cluster CA, which signs the API server's serving certificate. */
export const KUBEADM_CA_FILE = '/etc/kubernetes/pki/ca.crt';
/** Debian/Ubuntu's system CA bundle and directory (curl's built-in defaults there). */
const SYSTEM_CA_FILE = '/etc/ssl/certs/ca-certificates.crt';
const SYSTEM_CA_PATH = '/etc/ssl/certs';
/** kubeadm's constants.CertificateBackdate (5 minutes) and CertificateValidityPeriod (365 days). */
const CERT_BACKDATE_MS = 5 * 60_000;
const CERT_VALIDITY_MS = 365 * 86_400_000;
/** Linux's default SYN retries (tcp_syn_retries = 6): 1+2+4+8+16+32+64 s before connect() gives up. */
const SYN_TIMEOUT_MS = 127_000;
/** The CA hint curl prints after error 60 (src/tool_operate.c CURL_CA_CERT_ERRORMSG). */
const CA_HINT =
	'More details here: https://curl.se/docs/sslcerts.html\n\n' +
	'curl failed to verify the legitimacy of the server and therefore could not\n' +
	'establish a secure connection to it. To learn more about this situation and\n' +
	'how to fix it, please visit the web page mentioned above.\n';

/** A finished transfer. */
interface Transfer {
	stdout: string;
	stderr: string;
	exitCode: number;
	/** Lines for -v, in order. */
	verbose: string[];
}

/** Raised inside a transfer to end it with a curl error. */
class CurlError extends Error {
	constructor(
		readonly code: number,
		readonly text: string,
		readonly hint = '',
	) {
		super(text);
	}
}

interface ParsedUrl {
	scheme: string;
	host: string;
	port: number;
	/** Path and query, `/` when empty. */
	target: string;
	/** The URL as curl shows it in -v. */
	href: string;
}

function parseUrl(text: string): ParsedUrl | undefined {
	const m = /^(?:([a-zA-Z][\w+.-]*):\/\/)?(\[[^\]]+\]|[^/:?#]+)(?::(\d*))?([^?#]*)(\?[^#]*)?/.exec(text);
	if (!m) return undefined;
	const scheme = (m[1] ?? 'http').toLowerCase();
	const port = m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80;
	const target = (m[4] || '/') + (m[5] ?? '');
	return { scheme, host: m[2], port, target, href: `${scheme}://${m[2]}${m[3] ? `:${m[3]}` : ''}${target}` };
}

/** Reads a file on the host, or undefined. */
function readFile(host: Host, path: string): string | undefined {
	try {
		return host.fs.isDir(path) ? undefined : host.fs.readFile(path);
	} catch {
		return undefined;
	}
}

/** The request body from -d options: `@file` reads a file (-d strips CR and LF, --data-binary keeps them); several join with `&`. */
function requestBody(opts: CurlOptions, host: Host, warn: (text: string) => void): string | undefined {
	if (!opts.data.length) return undefined;
	return opts.data
		.map(({ text, mode }) => {
			if (mode === 'raw' || !text.startsWith('@')) return mode === 'ascii' ? text.replace(/[\r\n]/g, '') : text;
			const name = text.slice(1);
			const content = name === '-' ? '' : readFile(host, name);
			if (content === undefined) {
				warn(`Warning: Couldn't read data from file "${name}", this makes an empty POST.\n`);
				return '';
			}
			return mode === 'ascii' ? content.replace(/[\r\n]/g, '') : content;
		})
		.join('&');
}

/** `%{http_code}` and friends (src/tool_writeout.c), with `\n` escapes. */
function writeOut(format: string, status: number, sizeDownload: number, url: string): string {
	const vars: Record<string, string> = { http_code: String(status).padStart(3, '0'), response_code: String(status).padStart(3, '0'), size_download: String(sizeDownload), url_effective: url, url };
	return format.replace(/%\{([a-z_]+)\}/g, (all, name: string) => vars[name] ?? all).replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\r/g, '\r');
}

class Curl {
	private readonly server: ApiServerHttp;

	constructor(private readonly deps: CurlDeps) {
		this.server = new ApiServerHttp(deps);
	}

	run(ctx: CommandContext): CommandResult {
		let opts: CurlOptions;
		try {
			opts = parseCurlArgs(ctx.argv.slice(1));
		} catch (error) {
			if (error instanceof OptionError) return { stdout: '', stderr: optionErrorText(error), exitCode: 2 };
			throw error;
		}
		if (!opts.urls.length) return { stdout: '', stderr: NO_URL_TEXT, exitCode: 2 };
		let stdout = '';
		let stderr = '';
		let exitCode = 0;
		for (const url of opts.urls) {
			const t = this.transfer(url, opts, ctx);
			stdout += t.stdout;
			stderr += t.stderr;
			if (t.exitCode) exitCode = t.exitCode;
		}
		return { stdout, stderr, exitCode };
	}

	private transfer(urlText: string, opts: CurlOptions, ctx: CommandContext): Transfer {
		const verbose: string[] = [];
		const info = (line: string) => verbose.push(`* ${line}\n`);
		let stderr = '';
		const url = parseUrl(urlText);
		const fail = (error: CurlError): Transfer => {
			if (opts.verbose) {
				info(error.text);
				info('Closing connection');
			}
			const message = !opts.silent || opts.showError ? `curl: (${error.code}) ${error.text}\n${error.hint}` : '';
			// -w is written for a failed transfer too, with no response: `%{http_code}` is 000 (the probe idiom `-s -o /dev/null -w '%{http_code}'`).
			const written = opts.writeOut !== undefined ? writeOut(opts.writeOut, 0, 0, url?.href ?? urlText) : '';
			return { stdout: written, stderr: (opts.verbose ? verbose.join('') : '') + stderr + message, exitCode: error.code, verbose };
		};
		if (!url) return fail(new CurlError(3, 'URL using bad/illegal format or missing URL'));
		if (url.scheme !== 'http' && url.scheme !== 'https') return fail(new CurlError(1, `Protocol "${url.scheme}" not supported or disabled in libcurl`));
		const api = this.deps.apiServer;
		const warn = (text: string) => (stderr += opts.silent ? '' : text);
		const body = requestBody(opts, ctx.host, warn);

		// Name resolution: IP literals, localhost and the control-plane node's name (as /etc/hosts has it), then the host's resolver.
		const hostName = url.host.replace(/^\[|\]$/g, '');
		const loopback = hostName === 'localhost' || /^127\./.test(hostName) || hostName === '::1';
		const ip = loopback ? (hostName === 'localhost' ? '127.0.0.1' : hostName) : hostName === api.nodeName ? api.ip : /^\d+\.\d+\.\d+\.\d+$/.test(hostName) ? hostName : this.deps.resolve?.(ctx.host.name, hostName);
		if (!ip) return fail(new CurlError(6, `Could not resolve host: ${hostName}`));
		info(`  Trying ${ip}:${url.port}...`);
		// Where the connection lands after the network's rules (a Service's ClusterIP may lead to the API server or a Pod).
		const connection = this.deps.connect?.(ctx.host.name, ip, url.port);
		const listening = connection ? connection.kind === 'apiserver' : url.port === api.port && (loopback ? ctx.host.name === api.nodeName : ip === api.ip);
		let reach = listening ? this.deps.reachable(ctx.host.name) : 'refused';
		if (connection?.kind === 'timeout') reach = 'timeout';
		// An ephemeral port from Linux's default range (net.ipv4.ip_local_port_range = 32768 60999).
		const localPort = 32768 + Math.floor(this.deps.random() * 28232);
		const localIp = loopback ? '127.0.0.1' : (this.deps.hostIp?.(ctx.host.name) ?? '0.0.0.0');
		if (connection?.kind === 'unreachable') {
			// ARP gets no answer: connect() fails with EHOSTUNREACH once the kernel gives up.
			const waited = connection.afterMs + Math.floor(this.deps.random() * 100);
			const limitMs = opts.timeoutSeconds !== undefined ? Math.round(opts.timeoutSeconds * 1000) : undefined;
			if (limitMs !== undefined && limitMs < waited) {
				// -m / --connect-timeout runs out first.
				this.deps.elapse?.(limitMs);
				return fail(new CurlError(28, `Failed to connect to ${hostName} port ${url.port} after ${limitMs} ms: Timeout was reached`));
			}
			this.deps.elapse?.(waited);
			info(`connect to ${ip} port ${url.port} from ${localIp} port ${localPort} failed: No route to host`);
			return fail(new CurlError(7, `Failed to connect to ${hostName} port ${url.port} after ${waited} ms: Couldn't connect to server`));
		}
		if (connection?.kind === 'http') return this.plainTransfer(connection, opts, ctx, url, ip, verbose, stderr, body, fail);
		if (reach !== 'ok') {
			const limitMs = opts.timeoutSeconds !== undefined ? Math.round(opts.timeoutSeconds * 1000) : undefined;
			if (reach === 'timeout') {
				const waited = limitMs !== undefined && limitMs < SYN_TIMEOUT_MS ? limitMs : SYN_TIMEOUT_MS + Math.floor(this.deps.random() * 1000);
				this.deps.elapse?.(waited);
				const why = limitMs !== undefined && limitMs < SYN_TIMEOUT_MS ? 'Timeout was reached' : "Couldn't connect to server";
				return fail(new CurlError(28, `Failed to connect to ${hostName} port ${url.port} after ${waited} ms: ${why}`));
			}
			info(`connect to ${ip} port ${url.port} from ${localIp} port ${localPort} failed: Connection refused`);
			return fail(new CurlError(7, `Failed to connect to ${hostName} port ${url.port} after 0 ms: Couldn't connect to server`));
		}
		info(`Connected to ${hostName} (${ip}) port ${url.port}`);

		if (url.scheme === 'http') {
			// Go's TLS listener answers a plain HTTP request with a fixed HTTP/1.0 reply (net/http server.go).
			const response: HttpResponse = { status: 400, headers: [], body: 'Client sent an HTTP request to an HTTPS server.\n' };
			return this.output(opts, ctx, url, verbose, stderr, response, 'HTTP/1.0', this.requestHeaders(opts, url, body, true), body, 'HTTP/1.0 400 Bad Request');
		}

		// TLS.
		info('ALPN: curl offers h2,http/1.1');
		info('TLSv1.3 (OUT), TLS handshake, Client hello (1):');
		if (opts.cacert !== undefined && readFile(ctx.host, opts.cacert) === undefined) return fail(new CurlError(77, `error setting certificate file: ${opts.cacert}`));
		info(` CAfile: ${opts.cacert ?? SYSTEM_CA_FILE}`);
		info(` CApath: ${SYSTEM_CA_PATH}`);
		let certContent: string | undefined;
		if (opts.cert !== undefined) {
			const certPath = opts.cert.replace(/:[^/]*$/, '');
			certContent = readFile(ctx.host, certPath);
			if (certContent === undefined) {
				return fail(new CurlError(58, `could not load PEM client certificate from ${certPath}, OpenSSL error error:80000002:system library::No such file or directory, (no key found, wrong pass phrase, or wrong file format?)`));
			}
			const keyPath = opts.key ?? certPath;
			const keyContent = readFile(ctx.host, keyPath);
			if (keyContent === undefined || (opts.key === undefined && !/PRIVATE KEY/.test(keyContent))) return fail(new CurlError(58, `unable to set private key file: '${keyPath}' type PEM`));
		}
		info('TLSv1.3 (IN), TLS handshake, Server hello (2):');
		info('TLSv1.3 (IN), TLS handshake, Encrypted Extensions (8):');
		info('TLSv1.3 (IN), TLS handshake, Request CERT (13):');
		info('TLSv1.3 (IN), TLS handshake, Certificate (11):');
		const trusted = opts.cacert !== undefined && (this.deps.trustedCaFiles ?? [KUBEADM_CA_FILE]).includes(ctx.host.fs.resolve(opts.cacert));
		if (!opts.insecure && !trusted) {
			info('TLSv1.3 (OUT), TLS alert, unknown CA (560):');
			return fail(new CurlError(60, 'SSL certificate problem: unable to get local issuer certificate', CA_HINT));
		}
		info('TLSv1.3 (IN), TLS handshake, CERT verify (15):');
		info('TLSv1.3 (IN), TLS handshake, Finished (20):');
		info('TLSv1.3 (OUT), TLS change cipher, Change cipher spec (1):');
		info('TLSv1.3 (OUT), TLS handshake, Certificate (11):');
		if (certContent !== undefined) info('TLSv1.3 (OUT), TLS handshake, CERT verify (15):');
		info('TLSv1.3 (OUT), TLS handshake, Finished (20):');
		// Go's TLS 1.3 server: AES-128-GCM, X25519 with OpenSSL 3.0's offer, an RSA key from kubeadm.
		info('SSL connection using TLSv1.3 / TLS_AES_128_GCM_SHA256 / X25519 / RSASSA-PSS');
		info(opts.http1 ? 'ALPN: server accepted http/1.1' : 'ALPN: server accepted h2');
		info('Server certificate:');
		info(' subject: CN=kube-apiserver');
		info(` start date: ${opensslDate(api.certIssuedAtMs - CERT_BACKDATE_MS)}`);
		info(` expire date: ${opensslDate(api.certIssuedAtMs + CERT_VALIDITY_MS)}`);
		if (!opts.insecure) {
			if (!api.certSans.includes(hostName)) return fail(new CurlError(60, `SSL: no alternative certificate subject name matches target host name '${hostName}'`, CA_HINT));
			info(` subjectAltName: host "${hostName}" matched cert's ${/^\d+\.\d+\.\d+\.\d+$/.test(hostName) ? 'IP address' : `"${hostName}"`}!`);
		}
		info(' issuer: CN=kubernetes');
		info(opts.insecure && !trusted ? ' SSL certificate verify result: unable to get local issuer certificate (20), continuing anyway.' : ' SSL certificate verify ok.');
		info('  Certificate level 0: Public key type RSA (2048/112 Bits/secBits), signed using sha256WithRSAEncryption');

		// Authentication: client certificate first, then the bearer token (the union authenticator).
		const headers = this.requestHeaders(opts, url, body, opts.http1);
		const authorization = headers.find(([name]) => name.toLowerCase() === 'authorization')?.[1];
		let auth: Authentication = { anonymous: true };
		let certFailed = false;
		if (certContent !== undefined) {
			const user = (this.deps.identityForCert ?? defaultCertIdentity)(ctx.host.name, ctx.host.fs.resolve(opts.cert!.replace(/:[^/]*$/, '')), certContent);
			if (user) auth = { user };
			else certFailed = true;
		}
		if (!('user' in auth) && authorization !== undefined) {
			const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
			const user: UserInfo | undefined = token ? this.deps.identityForToken?.(token.trim()) : undefined;
			auth = user ? { user } : { failed: true };
		} else if (certFailed) auth = { failed: true };

		const method = opts.method ?? (opts.head ? 'HEAD' : body !== undefined ? 'POST' : 'GET');
		const headerMap = new Map(headers.map(([name, value]) => [name.toLowerCase(), value]));
		let response = this.server.serve({ method, target: url.target, headers: headerMap, ...(body !== undefined ? { body } : {}) }, auth);
		// -L: the API server redirects only within itself (a proxy's bare root to its `/`), so each hop is the same connection.
		// The output shows the last response (curl -iL would print every hop's headers).
		for (let hops = 0, to = redirectLocation(response); opts.location && to !== undefined && hops < 50; hops++, to = redirectLocation(response)) {
			verbose.push(`* Issue another request to this URL: 'https://${hostName}:${url.port}${to}'\n`);
			response = this.server.serve({ method: response.status === 303 ? 'GET' : method, target: to, headers: headerMap }, auth);
		}
		if (response.status === 0) return fail(new CurlError(52, 'Empty reply from server'));
		const protocol = opts.http1 ? 'HTTP/1.1' : 'HTTP/2';
		if (!opts.http1) {
			info('using HTTP/2');
			info(`[HTTP/2] [1] OPENED stream for ${url.href}`);
			const pseudo: Array<[string, string]> = [
				[':method', method],
				[':scheme', 'https'],
				[':authority', `${hostName}:${url.port}`],
				[':path', url.target],
			];
			for (const [name, value] of [...pseudo, ...headers.filter(([n]) => n !== 'Host').map(([n, v]): [string, string] => [n.toLowerCase(), v])]) info(`[HTTP/2] [1] [${name}: ${value}]`);
		}
		return this.output(opts, ctx, url, verbose, stderr, response, protocol, headers, body, undefined, method);
	}

	/**
	 * A plain-HTTP exchange with a server the network led to (a Pod, kube-proxy's
	 * health server): HTTP/1.1 without TLS; `https://` to it fails the TLS
	 * handshake, as OpenSSL 3 reports a server that answers in clear text.
	 */
	private plainTransfer(connection: Extract<CurlConnection, { kind: 'http' }>, opts: CurlOptions, ctx: CommandContext, url: ParsedUrl, ip: string, verbose: string[], stderr: string, body: string | undefined, fail: (error: CurlError) => Transfer): Transfer {
		const hostName = url.host.replace(/^\[|\]$/g, '');
		verbose.push(`* Connected to ${hostName} (${ip}) port ${url.port}\n`);
		if (url.scheme === 'https') {
			verbose.push('* ALPN: curl offers h2,http/1.1\n', '* TLSv1.3 (OUT), TLS handshake, Client hello (1):\n');
			// Ubuntu 24.04's curl 8.5.0 is built with OpenSSL 3.0.13; a clear-text answer is not a TLS record.
			return fail(new CurlError(35, 'OpenSSL/3.0.13: error:0A00010B:SSL routines::wrong version number'));
		}
		const method = opts.method ?? (opts.head ? 'HEAD' : body !== undefined ? 'POST' : 'GET');
		const headers = this.requestHeaders(opts, url, body, true, ctx.host.name);
		const answer = connection.serve({ method, target: url.target, headers });
		// Connected, but the server closed without an HTTP answer.
		if (answer.status === 0) return fail(new CurlError(52, 'Empty reply from server'));
		const response: HttpResponse = { status: answer.status, headers: answer.headers, body: method === 'HEAD' ? '' : answer.body };
		const reason = HTTP1_REASONS[answer.status] ?? '';
		return this.output(opts, ctx, url, verbose, stderr, response, answer.protocol, headers, body, `${answer.protocol} ${answer.status} ${reason}`.trimEnd(), method, true);
	}

	/** The request headers curl sends: Host, User-Agent, Accept, Content-Type for -d, then -H (which replace or, with `Name:`, remove defaults). */
	private requestHeaders(opts: CurlOptions, url: ParsedUrl, body: string | undefined, http1: boolean, hostName?: string): Array<[string, string]> {
		const defaults: Array<[string, string]> = [
			['Host', url.port === (url.scheme === 'https' ? 443 : 80) ? url.host : `${url.host}:${url.port}`],
			['User-Agent', opts.userAgent ?? `curl/${(hostName && this.deps.versionOn?.(hostName)) || CURL_VERSION}`],
			['Accept', opts.data.some((d) => d.mode === 'json') ? 'application/json' : '*/*'],
		];
		if (body !== undefined) {
			defaults.push(['Content-Type', opts.data.some((d) => d.mode === 'json') ? 'application/json' : 'application/x-www-form-urlencoded']);
			if (http1) defaults.push(['Content-Length', String(utf8Length(body))]);
		}
		const custom: Array<[string, string]> = [];
		for (const line of opts.headers) {
			const colon = line.indexOf(':');
			const semicolon = line.indexOf(';');
			if (colon < 0 && semicolon === line.length - 1) {
				custom.push([line.slice(0, -1), '']);
				continue;
			}
			if (colon < 0) continue;
			const name = line.slice(0, colon).trim();
			const value = line.slice(colon + 1).trim();
			const at = defaults.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
			if (value === '') {
				if (at >= 0) defaults.splice(at, 1);
				continue;
			}
			if (at >= 0) defaults[at] = [name, value];
			else custom.push([name, value]);
		}
		return [...defaults, ...custom];
	}

	/** Writes the response as curl would: body to stdout (or -o), headers with -i, verbose and progress on stderr. */
	private output(opts: CurlOptions, ctx: CommandContext, url: ParsedUrl, verbose: string[], stderr: string, response: HttpResponse, protocol: string, requestHeaders: Array<[string, string]>, requestBody: string | undefined, statusLine?: string, method = 'GET', plain = false): Transfer {
		const status = statusLine ?? (protocol === 'HTTP/2' ? `HTTP/2 ${response.status} ` : `HTTP/1.1 ${response.status} ${HTTP1_REASONS[response.status] ?? ''}`.trimEnd());
		// HTTP/1.1 header names go out in Go's canonical form (Audit-Id), then Date and Content-Length
		// (or chunked encoding) as net/http's extraHeader writes them; HTTP/2 names are lower-case.
		// A plain server's headers (plain) are already in its own order and spelling.
		let responseHeaders = response.headers;
		if (protocol === 'HTTP/1.1' && !plain) {
			const own = response.headers.filter(([n]) => n !== 'date' && n !== 'content-length');
			const date = response.headers.filter(([n]) => n === 'date');
			const length = response.headers.filter(([n]) => n === 'content-length');
			responseHeaders = [...own, ...date, ...(length.length ? length : ([['transfer-encoding', 'chunked']] as Array<[string, string]>))];
		}
		const headerLines = responseHeaders.map(([name, value]) => `${protocol === 'HTTP/2' || plain ? name : canonical(name)}: ${value}\r\n`);
		const head = `${status}\r\n${headerLines.join('')}\r\n`;
		const sent = `${method} ${url.target} ${protocol}\r\n${requestHeaders.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
		const v = [...verbose];
		v.push(...sent.split('\r\n').slice(0, -1).map((l) => `> ${l}\r\n`));
		if (requestBody !== undefined) v.push('* We are completely uploaded and fine\n');
		if (protocol !== 'HTTP/1.0' && !plain) v.push('* TLSv1.3 (IN), TLS handshake, Newsession Ticket (4):\n');
		v.push(...head.split('\r\n').slice(0, -1).map((l) => `< ${l}\r\n`));
		const failed = opts.fail && response.status >= 400;
		const body = opts.head || failed ? '' : response.body;
		const content = (opts.include || opts.head ? head : '') + body;
		let stdout = content;
		let exitCode = 0;
		let trailer = '';
		if (opts.output !== undefined) {
			stdout = '';
			try {
				// /dev/null discards (the simulated file system has no device files).
				if (opts.output !== '/dev/null') ctx.host.fs.writeFile(opts.output, content);
			} catch (error) {
				trailer += `Warning: Failed to open the file ${opts.output}: ${(error as Error).message}\n`;
				exitCode = 23;
			}
		}
		// -w output always goes to stdout, after the transfer.
		if (opts.writeOut !== undefined && exitCode === 0) stdout += writeOut(opts.writeOut, response.status, utf8Length(body), url.href);
		const showMeter = !opts.silent && !opts.noProgressMeter && (opts.output !== undefined || !ctx.tty);
		// One small HTTP/2 exchange with an API server on the same LAN: a few milliseconds.
		const elapsedMs = 2 + Math.floor(this.deps.random() * 12);
		const meter = showMeter ? progressMeter(utf8Length(response.body), response.headers.some(([n]) => n === 'content-length'), requestBody === undefined ? 0 : utf8Length(requestBody), elapsedMs) : { start: '', end: '' };
		if (exitCode === 23 && (!opts.silent || opts.showError)) trailer += 'curl: (23) Failure writing output to destination\n';
		if (failed) {
			exitCode = 22;
			if (!opts.silent || opts.showError) trailer += `curl: (22) The requested URL returned error: ${response.status}\n`;
		}
		const tail = opts.verbose && !failed ? `* Connection #0 to host ${url.host.replace(/^\[|\]$/g, '')} left intact\n` : '';
		return { stdout, stderr: meter.start + (opts.verbose ? v.join('') : '') + stderr + meter.end + tail + trailer, exitCode, verbose: v };
	}
}

/** Reason phrases Go's HTTP/1.1 server writes (net/http status.go). */
const HTTP1_REASONS: Record<number, string> = { 200: 'OK', 201: 'Created', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 410: 'Gone', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable', 504: 'Gateway Timeout' };

/** Go's CanonicalMIMEHeaderKey: `x-kubernetes-pf-flowschema-uid` → `X-Kubernetes-Pf-Flowschema-Uid`. */
function canonical(name: string): string {
	return name
		.split('-')
		.map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
		.join('-');
}

/** The curl command, wired to the cluster's API server. */
export function createCurl(deps: CurlDeps): CommandHandler {
	const curl = new Curl(deps);
	return (ctx) => {
		try {
			return curl.run(ctx);
		} catch (error) {
			return { stdout: '', stderr: `[sim-core/curl] internal error: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
		}
	};
}
