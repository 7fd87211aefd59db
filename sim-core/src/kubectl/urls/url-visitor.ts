/**
 * `-f https://...`: kubectl downloads the manifest (http.Get, following
 * redirects) and decodes it like a file. The workstation reaches the hosts
 * of ./manifests.ts only: a file they do not hold is a 404, which kubectl
 * reports as `unable to read URL "<url>", server reported 404 Not Found,
 * status code=404`; any other host fails name resolution, as on a machine
 * whose resolver (systemd-resolved at 127.0.0.53) knows no such name:
 * `Get "<url>": dial tcp: lookup <host> on 127.0.0.53:53: no such host`.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go
 * (URLVisitor, readHttpWithRetries, httpgetImpl),
 * staging/src/k8s.io/cli-runtime/pkg/resource/builder.go (FilenameParam:
 * paths starting with http:// or https:// are URLs).
 */
import { REACHABLE_HOSTS, servedFile } from './manifests.ts';

/** Whether a `-f` argument is a URL (builder.go: the prefix decides). */
export function isUrl(path: string): boolean {
	return path.startsWith('http://') || path.startsWith('https://');
}

/** The manifest text a URL serves, or kubectl's error (without the `error: ` prefix). */
export function readUrl(url: string): { ok: true; text: string } | { ok: false; error: string } {
	const m = /^(https?):\/\/([^/?#:]*)(?::(\d+))?([^?#]*)/.exec(url);
	const host = m?.[2] ?? '';
	if (!m || host === '') return { ok: false, error: `Get "${url}": http: no Host in request URL` };
	if (!REACHABLE_HOSTS.includes(host)) return { ok: false, error: `Get "${url}": dial tcp: lookup ${host} on 127.0.0.53:53: no such host` };
	// http:// is redirected to https:// by every one of these hosts.
	const text = servedFile(url.replace(/^http:/, 'https:'));
	if (text === undefined) return { ok: false, error: `unable to read URL "${url}", server reported 404 Not Found, status code=404` };
	return { ok: true, text };
}
