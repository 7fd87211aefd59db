/**
 * The HTTP responses of the plain-HTTP servers curl can reach through the
 * cluster's network: what a Pod's server sends (status line, headers in its
 * own order and spelling, body), built from the container runtime's answer
 * (runtime/behaviour.ts httpAnswer), and Go's net/http framing for
 * kube-proxy's health and metrics servers.
 *
 * - nginx: `Server: nginx/<version>`, then Date, Content-Type,
 *   Content-Length, Last-Modified, `Connection: keep-alive`, an ETag of the
 *   file's mtime and size in hex, `Accept-Ranges: bytes`; errors come with
 *   its built-in error pages (`<center><h1>404 Not Found</h1></center>`).
 * - Apache httpd: Date, `Server: Apache/<version> (Unix)`, Last-Modified,
 *   ETag, Accept-Ranges, Content-Length, Content-Type; its error pages.
 * - Python's http.server: an HTTP/1.0 status line, `Server: SimpleHTTP/0.6
 *   Python/<version>`, its directory listing and error pages.
 * - Go servers (agnhost, kube-proxy): Date, Content-Length and
 *   Content-Type (`text/plain; charset=utf-8` when unset).
 *
 * A file's modification time is when its container started (the image's
 * files have no other date here). nginx's ngx_http_special_response.c and
 * ngx_http_core_module (ETag), Apache's default error documents, CPython's
 * http/server.py (DEFAULT_ERROR_MESSAGE, list_directory) and net/http's
 * header writing.
 *
 * Mirrors nginx/nginx src/http/ngx_http_special_response.c, nginx/nginx
 * src/http/ngx_http_core_module.c (ETag), apache/httpd
 * modules/http/http_protocol.c (the default error documents), python/cpython
 * Lib/http/server.py (DEFAULT_ERROR_MESSAGE, list_directory), golang/go
 * src/net/http/server.go (the header writing).
 */
import { httpDate } from '../../golang/time.ts';
import { utf8Length } from '../../golang/utf8.ts';
import type { PlainHttpAnswer } from './types.ts';

/** What the container runtime says a Pod's server answered. */
interface PodServerAnswer {
	status: number;
	bytes: number;
	body?: string;
	/** The Content-Type the server set, when it is not its usual one (agnhost porter's JSON). */
	contentType?: string;
	/** The server's name in the runtime's model: `nginx`, `httpd`, `python-http`, `agnhost-netexec`... */
	server: string;
	/** The image's version (`1.29.3`). */
	version: string;
	/** When the server's container started (wall ms): the files' modification time. */
	startedWallMs: number;
	/** The Pod's hostname (agnhost serve-hostname answers it). */
	hostname: string;
}

/** Reason phrases (RFC 9110) as the servers print them. */
const REASONS: Readonly<Record<number, string>> = { 200: 'OK', 301: 'Moved Permanently', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function nginxErrorPage(status: number, version: string): string {
	const title = `${status} ${REASONS[status] ?? ''}`.trim();
	return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/${version}</center>\r\n</body>\r\n</html>\r\n`;
}

function apacheErrorPage(status: number): string {
	const explain: Record<number, string> = { 403: "You don't have permission to access this resource.", 404: 'The requested URL was not found on this server.', 500: 'The server encountered an internal error or\nmisconfiguration and was unable to complete\nyour request.' };
	return `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>${status} ${REASONS[status] ?? ''}</title>\n</head><body>\n<h1>${REASONS[status] ?? ''}</h1>\n<p>${explain[status] ?? ''}</p>\n</body></html>\n`;
}

function pythonErrorPage(status: number): string {
	const messages: Record<number, [string, string]> = { 404: ['File not found', 'Nothing matches the given URI'], 500: ['Internal Server Error', 'Server got itself in trouble'] };
	const [message, explain] = messages[status] ?? [REASONS[status] ?? '', ''];
	return `<!DOCTYPE HTML>\n<html lang="en">\n    <head>\n        <meta charset="utf-8">\n        <title>Error response</title>\n    </head>\n    <body>\n        <h1>Error response</h1>\n        <p>Error code: ${status}</p>\n        <p>Message: ${message}.</p>\n        <p>Error code explanation: ${status} - ${explain}.</p>\n    </body>\n</html>\n`;
}

function pythonListing(): string {
	return '<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Directory listing for /</title>\n</head>\n<body>\n<h1>Directory listing for /</h1>\n<hr>\n<ul>\n</ul>\n<hr>\n</body>\n</html>\n';
}

/** Go net/http framing: the handler's headers, then Date and Content-Length. */
export function goHttpAnswer(status: number, contentType: string, body: string, wallMs: number, extra: Array<[string, string]> = []): PlainHttpAnswer {
	return { protocol: 'HTTP/1.1', status, headers: [['Content-Type', contentType], ...extra, ['Date', httpDate(wallMs)], ['Content-Length', String(utf8Length(body))]], body };
}

/** A Pod server's full answer. */
export function podHttpAnswer(a: PodServerAnswer, wallMs: number): PlainHttpAnswer {
	const date = httpDate(wallMs);
	const modified = httpDate(a.startedWallMs);
	const seconds = Math.floor(a.startedWallMs / 1000);
	switch (a.server) {
		case 'nginx': {
			const ok = a.status === 200;
			const body = ok ? (a.body ?? '') : nginxErrorPage(a.status, a.version);
			const headers: Array<[string, string]> = [
				['Server', `nginx/${a.version}`],
				['Date', date],
				['Content-Type', 'text/html'],
				['Content-Length', String(utf8Length(body))],
			];
			if (ok) headers.push(['Last-Modified', modified], ['Connection', 'keep-alive'], ['ETag', `"${seconds.toString(16)}-${utf8Length(body).toString(16)}"`], ['Accept-Ranges', 'bytes']);
			else headers.push(['Connection', 'keep-alive']);
			return { protocol: 'HTTP/1.1', status: a.status, headers, body };
		}
		case 'httpd': {
			const ok = a.status === 200;
			const body = ok ? (a.body ?? '') : apacheErrorPage(a.status);
			const headers: Array<[string, string]> = [
				['Date', date],
				['Server', `Apache/${a.version} (Unix)`],
			];
			if (ok) headers.push(['Last-Modified', modified], ['ETag', `"${utf8Length(body).toString(16)}-${(seconds * 1_000_000).toString(16)}"`], ['Accept-Ranges', 'bytes']);
			headers.push(['Content-Length', String(utf8Length(body))], ['Content-Type', ok ? 'text/html' : 'text/html; charset=iso-8859-1']);
			return { protocol: 'HTTP/1.1', status: a.status, headers, body };
		}
		case 'python-http': {
			const server: [string, string] = ['Server', `SimpleHTTP/0.6 Python/${a.version}`];
			if (a.status !== 200) {
				const body = pythonErrorPage(a.status);
				return { protocol: 'HTTP/1.0', status: a.status, headers: [server, ['Date', date], ['Connection', 'close'], ['Content-Type', 'text/html;charset=utf-8'], ['Content-Length', String(utf8Length(body))]], body };
			}
			const body = a.body ?? pythonListing();
			return { protocol: 'HTTP/1.0', status: 200, headers: [server, ['Date', date], ['Content-type', 'text/html'], ['Content-Length', String(utf8Length(body))], ...(a.body !== undefined ? ([['Last-Modified', modified]] as Array<[string, string]>) : [])], body };
		}
		default: {
			// Go servers (agnhost): serve-hostname answers the Pod's name; the others a short text.
			let body = a.body ?? '';
			if (a.body === undefined) body = a.server === 'agnhost-serve-hostname' ? a.hostname : a.status === 200 ? 'ok' : `${REASONS[a.status] ?? 'error'}\n`;
			return goHttpAnswer(a.status, a.contentType ?? 'text/plain; charset=utf-8', body, wallMs);
		}
	}
}
