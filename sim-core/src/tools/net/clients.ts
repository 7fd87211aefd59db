/**
 * The connection tools of busybox (and iputils' ping) a reader runs in a
 * Pod to test a Service: wget, nc and ping. Each resolves its host as the
 * C library does (./resolver.ts), so `wget http://web` goes through
 * CoreDNS and the search list, and each reports failures in its own words:
 * `wget: bad address 'web'` when the name does not resolve, `can't connect
 * to remote host (10.96.0.12): Connection refused` when a REJECT rule or a
 * closed port answers, `Connection timed out` when nothing does.
 *
 * ping shows what a ClusterIP is: in iptables and nftables modes nothing
 * owns the virtual address, so echo requests go unanswered (100% packet
 * loss) while TCP to its port works; in IPVS mode kube-ipvs0 holds it, so
 * the node answers. TTLs tell the hops: 64 from the Pod's own node or a
 * Pod on the same bridge, one less per router crossed.
 *
 * Mirrors mirror/busybox networking/wget.c, mirror/busybox
 * networking/nc_bloaty.c, mirror/busybox networking/ping.c,
 * iputils/iputils ping/ping_common.c (its summary lines).
 */
import { resolveAddress } from './resolver.ts';
import type { NetDeps, ToolResult } from './types.ts';

const fail = (stderr: string, exitCode = 1): ToolResult => ({ exitCode, stdout: '', stderr });

/** busybox's progress line after a transfer: name, 100%, the bar, the size, the ETA. */
function progressLine(name: string, bytes: number): string {
	return `${name.padEnd(20).slice(0, 20)} 100% |********************************| ${String(bytes).padStart(5)}  0:00:00 ETA`;
}

function parseUrl(url: string): { scheme: string; host: string; port: number; path: string } | undefined {
	const m = /^(?:(https?):\/\/)?([^/:?#]+)(?::(\d+))?([^#]*)?/.exec(url);
	if (!m) return undefined;
	const scheme = m[1] ?? 'http';
	return { scheme, host: m[2], port: m[3] ? Number(m[3]) : scheme === 'https' ? 443 : 80, path: m[4] || '/' };
}

/** busybox wget: `wget [-q] [-O FILE] [-S] [-T SEC] [--spider] URL`. */
export function wget(deps: NetDeps, args: string[]): ToolResult {
	let quiet = false;
	let output: string | undefined;
	let spider = false;
	let headers = false;
	let url: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a === '-q' || a === '--quiet') quiet = true;
		else if (a === '-O') output = args[++i];
		else if (a.startsWith('-O') && a.length > 2) output = a.slice(2);
		else if (a === '-qO-' || a === '-qO') {
			quiet = true;
			output = a === '-qO-' ? '-' : args[++i];
		} else if (a === '--spider') spider = true;
		else if (a === '-S' || a === '--server-response') headers = true;
		else if (a === '-T' || a === '-t' || a === '--timeout' || a === '-U' || a === '--header') i++;
		else if (!a.startsWith('-')) url = a;
	}
	if (!url) return fail('BusyBox v1.37.0 multi-call binary.\n\nUsage: wget [-cqS] [--spider] [-O FILE] [-o LOGFILE] [--header STR]\n\t[--post-data STR | --post-file FILE] [-Y on/off]\n\t[-P DIR] [-U AGENT] [-T SEC] URL...\n');
	const target = parseUrl(url);
	if (!target) return fail(`wget: bad address '${url}'\n`);
	let err = '';
	const resolved = resolveAddress(deps, target.host);
	if (resolved.kind !== 'address') return fail(`wget: bad address '${target.host}'\n`);
	if (!quiet) err += `Connecting to ${target.host} (${resolved.ip}:${target.port})\n`;
	const connection = deps.connect(resolved.ip, target.port);
	const cannot = (why: string) => fail(`${err}wget: can't connect to remote host (${resolved.ip}): ${why}\n`);
	switch (connection.kind) {
		case 'refused':
			return cannot('Connection refused');
		case 'timeout':
			return cannot('Connection timed out');
		case 'unreachable':
			return cannot('No route to host');
		case 'apiserver':
			// busybox hands TLS to its ssl_client helper and does not check the certificate; anonymous users may not read /.
			if (target.scheme !== 'https') return fail(`${err}wget: error getting response: Connection reset by peer\n`);
			return fail(`${err}wget: note: TLS certificate validation not implemented\nwget: server returned error: HTTP/1.1 403 Forbidden\n`);
		case 'http':
			break;
	}
	if (target.scheme === 'https') return fail(`${err}wget: note: TLS certificate validation not implemented\nwget: error getting response: Connection reset by peer\n`);
	const answer = connection.serve({ method: spider ? 'HEAD' : 'GET', target: target.path, headers: [['Host', target.host], ['User-Agent', 'Wget'], ['Connection', 'close']] });
	if (answer.status === 0) return fail(`${err}wget: error getting response: Connection reset by peer\n`);
	const reason = STATUS_TEXT[answer.status] ?? '';
	if (headers && !quiet) err += `  ${answer.protocol} ${answer.status} ${reason}\n${answer.headers.map(([k, v]) => `  ${k}: ${v}\n`).join('')}`;
	if (answer.status >= 400) return fail(`${err}wget: server returned error: ${answer.protocol} ${answer.status} ${reason}\n`);
	if (spider) return { exitCode: 0, stdout: '', stderr: quiet ? '' : `${err}remote file exists\n` };
	const body = answer.body;
	const bytes = new TextEncoder().encode(body).length;
	const took = answer.latencyMs ? { elapsedMs: answer.latencyMs } : {};
	if (output === '-') {
		if (!quiet) err += 'writing to stdout\n';
		return { exitCode: 0, stdout: body, stderr: quiet ? '' : `${err}${progressLine('-', bytes)}\nwritten to stdout\n`, ...took };
	}
	const file = output ?? (target.path.replace(/[?#].*$/, '').split('/').pop() || 'index.html');
	if (!quiet) err += `saving to '${file}'\n${progressLine(file, bytes)}\n'${file}' saved\n`;
	return { exitCode: 0, stdout: '', stderr: err, files: { [file]: body }, ...took };
}

/** The reason phrases busybox prints after a status code (from the server's own status line). */
const STATUS_TEXT: Record<number, string> = { 200: 'OK', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

/** busybox nc: `nc [-z] [-v] [-u] [-w SEC] HOST PORT`. */
export function nc(deps: NetDeps, args: string[]): ToolResult {
	let zero = false;
	let verbose = false;
	let udp = false;
	const words: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a === '-w' || a === '-i' || a === '-p' || a === '-s') {
			i++;
			continue;
		}
		if (/^-[a-z]+$/i.test(a)) {
			if (a.includes('z')) zero = true;
			if (a.includes('v')) verbose = true;
			if (a.includes('u')) udp = true;
			continue;
		}
		words.push(a);
	}
	const [hostName, portText] = words;
	if (!hostName || !portText) return fail('BusyBox v1.37.0 multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\nnc [OPTIONS] -l -p PORT [HOST] [PORT]  - listen\n');
	const port = Number(portText);
	const resolved = resolveAddress(deps, hostName);
	if (resolved.kind !== 'address') return fail(`nc: bad address '${hostName}'\n`);
	const label = `${hostName} (${resolved.ip}:${port})`;
	// UDP has no handshake: a probe "succeeds" unless ICMP says otherwise, which nc -z does not wait for.
	if (udp) return { exitCode: 0, stdout: '', stderr: verbose ? `${label} open\n` : '' };
	const connection = deps.connect(resolved.ip, port);
	switch (connection.kind) {
		case 'refused':
			return fail(`nc: ${label}: Connection refused\n`);
		case 'timeout':
			return fail(`nc: ${label}: Connection timed out\n`);
		case 'unreachable':
			return fail(`nc: ${label}: No route to host\n`);
		default:
			// Connected. Without input the connection closes at once (stdin is empty in an exec).
			return { exitCode: 0, stdout: '', stderr: verbose ? `${label} open\n` : '' };
	}
	void zero;
}

/** ping: `ping [-c N] [-W SEC] HOST`; busybox's or iputils' output. */
export function ping(deps: NetDeps, args: string[]): ToolResult {
	let count: number | undefined;
	let target: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a === '-c') count = Number(args[++i]);
		else if (a.startsWith('-c') && a.length > 2) count = Number(a.slice(2));
		else if (a === '-W' || a === '-w' || a === '-i' || a === '-s' || a === '-t') i++;
		else if (!a.startsWith('-')) target = a;
	}
	const iputils = deps.dialects.ping === 'iputils';
	if (!target) return fail(iputils ? 'ping: usage error: Destination address required\n' : 'BusyBox v1.37.0 multi-call binary.\n\nUsage: ping [OPTIONS] HOST\n', iputils ? 1 : 1);
	const resolved = resolveAddress(deps, target);
	if (resolved.kind !== 'address') return fail(iputils ? `ping: ${target}: ${resolved.kind === 'temporary' ? 'Temporary failure in name resolution' : 'Name or service not known'}\n` : `ping: bad address '${target}'\n`, iputils ? 2 : 1);
	// A ping without -c runs until interrupted; here it is stopped after four echoes, as a reader pressing Ctrl-C would.
	const interrupted = count === undefined || !Number.isFinite(count) || count <= 0;
	const n = interrupted ? 4 : Math.min(count!, 100);
	const ip = resolved.ip;
	const lines: string[] = [iputils ? `PING ${target} (${ip}) 56(84) bytes of data.` : `PING ${target} (${ip}): 56 data bytes`];
	const times: number[] = [];
	let unreachable = false;
	for (let seq = 0; seq < n; seq++) {
		const echo = deps.echo(ip);
		if (echo.kind === 'reply') {
			const ms = 0.04 + deps.random() * 0.5 + (echo.ttl < 64 ? 0.3 : 0);
			times.push(ms);
			lines.push(iputils ? `64 bytes from ${ip}: icmp_seq=${seq + 1} ttl=${echo.ttl} time=${ms.toFixed(ms < 1 ? 3 : 2)} ms` : `64 bytes from ${ip}: seq=${seq} ttl=${echo.ttl} time=${ms.toFixed(3)} ms`);
		} else if (echo.kind === 'unreachable') {
			unreachable = true;
			if (iputils) lines.push(`From ${ip} icmp_seq=${seq + 1} Destination Host Unreachable`);
		}
	}
	if (interrupted) lines.push('^C');
	const received = times.length;
	const loss = Math.round(((n - received) / n) * 100);
	lines.push('', `--- ${target} ping statistics ---`);
	if (iputils) {
		lines.push(`${n} packets transmitted, ${received} received,${unreachable ? ` +${n - received} errors,` : ''} ${loss}% packet loss, time ${(n - 1) * 1000 + Math.floor(deps.random() * 10)}ms`);
		if (received) {
			const avg = times.reduce((a, b) => a + b, 0) / received;
			const mdev = Math.sqrt(times.reduce((a, t) => a + (t - avg) ** 2, 0) / received);
			lines.push(`rtt min/avg/max/mdev = ${Math.min(...times).toFixed(3)}/${avg.toFixed(3)}/${Math.max(...times).toFixed(3)}/${mdev.toFixed(3)} ms`);
		}
	} else {
		lines.push(`${n} packets transmitted, ${received} packets received, ${loss}% packet loss`);
		if (received) lines.push(`round-trip min/avg/max = ${Math.min(...times).toFixed(3)}/${(times.reduce((a, b) => a + b, 0) / received).toFixed(3)}/${Math.max(...times).toFixed(3)} ms`);
	}
	return { exitCode: received ? 0 : 1, stdout: `${lines.join('\n')}\n`, stderr: '' };
}

/** Runs wget, nc or ping, or undefined when `argv[0]` is none of them. */
export function runClientTool(deps: NetDeps, argv: readonly string[]): ToolResult | undefined {
	const base = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
	const args = argv.slice(1);
	switch (base) {
		case 'wget':
			return wget(deps, args);
		case 'nc':
		case 'netcat':
			return nc(deps, args);
		case 'ping':
			return ping(deps, args);
	}
	return undefined;
}
