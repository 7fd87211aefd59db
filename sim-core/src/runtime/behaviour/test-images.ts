/**
 * The images tutorials use to exercise Kubernetes itself: agnhost, the
 * Kubernetes e2e test image (netexec, liveness, serve-hostname,
 * test-webserver, pause, dns-suffix, dns-server-list, etc-hosts), the old
 * serve_hostname and goproxy images, and stress, which burns CPU or
 * allocates memory until its cgroup's limit has the kernel OOM-kill the
 * container; and what their Go servers answer over HTTP.
 *
 * It follows agnhost's subcommands (their ports, flags, log lines and
 * handlers, the liveness task of the kubernetes.io docs), serve_hostname's
 * flags and goproxy's answer to a request that is not a proxy request
 * (elazarl/goproxy's NonproxyHandler), and
 * the stress tool's options. Go's log package prefixes each line with
 * `2006/01/02 15:04:05`.
 *
 * Mirrors test/images/agnhost/agnhost.go,
 * test/images/agnhost/liveness/server.go,
 * test/images/agnhost/netexec/netexec.go,
 * test/images/agnhost/serve-hostname/serve_hostname.go,
 * test/images/agnhost/dns/common.go.
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine, ServerSpec, SignalReaction } from '../behaviour.ts';
import { goTimeString } from '../../golang/time.ts';
import { goMarshal } from '../../golang/json.ts';
import { readFile } from './rootfs.ts';
import { nginxTime } from './time-formats.ts';
import { flagValue } from './userland.ts';
import { mounttest } from './mounttest.ts';

/** Runs `argv` if it is agnhost, serve_hostname, goproxy or stress; undefined if it is another program. */
export function runTestImageProgram(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, argv: string[], wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome | undefined {
	const binary = argv[0];
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	switch (base) {
		case 'stress':
			return stress(ctx, args, options, out);
		case 'agnhost':
		case 'agnhost-2':
			return agnhost(image, ctx, files, args, wallMs, options, out);
		case 'serve_hostname':
			return serveHostname(args.map((a) => a.replace(/^-(?=[a-z])/, '--')), wallMs, options, out, 'serve-hostname');
		case 'goproxy':
			return goproxy(wallMs, options, out);
	}
	return undefined;
}

/** Parses `150M`, `1G`, `512k` (stress's size syntax, powers of 1024), in bytes. */
function parseStressSize(text: string): number {
	const m = /^(\d+)([bkmgBKMG]?)$/.exec(text);
	if (!m) return Number.NaN;
	const unit = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()] ?? 1;
	return Number(m[1]) * unit;
}

function stress(ctx: ContainerContext, args: string[], options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	const print = (text: string) => out.push({ stream: 'stdout', text });
	if (args.length === 0 || args.includes('--help') || args.includes('-?')) {
		print('`stress` imposes certain types of compute stress on your system');
		print('Usage: stress [OPTION [ARG]] ...');
		return { kind: options.main ? 'exit' : 'done', status: 1, out } as CommandOutcome;
	}
	const vm = Number(flagValue(args, ['--vm', '-m']) ?? 0);
	const cpu = Number(flagValue(args, ['--cpu', '-c']) ?? 0);
	const vmBytes = parseStressSize(flagValue(args, ['--vm-bytes']) ?? '256M');
	const timeout = flagValue(args, ['--timeout', '-t']);
	print(`stress: info: [1] dispatching hogs: ${cpu} cpu, 0 io, ${vm} vm, 0 hdd`);
	if (!options.main) return { kind: 'done', status: 0, out };
	const spec: ServerSpec = { name: 'stress', ports: [], readyAfterMs: 0, onStop: { kind: 'ignore' }, startup: [], shutdown: [] };
	if (vm > 0 && ctx.memoryLimitBytes !== undefined && vm * vmBytes > ctx.memoryLimitBytes) {
		// The worker allocates past the cgroup limit: the kernel OOM-kills the container.
		spec.exitsAfter = { afterMs: 1_000, exitCode: 137, reason: 'OOMKilled', lines: [] };
	} else if (timeout) {
		const m = /^(\d+)([smh]?)$/.exec(timeout);
		const ms = m ? Number(m[1]) * ({ '': 1000, s: 1000, m: 60_000, h: 3_600_000 }[m[2]] ?? 1000) : 0;
		spec.exitsAfter = { afterMs: ms, exitCode: 0, lines: [{ stream: 'stdout', text: `stress: info: [1] successful run completed in ${Math.round(ms / 1000)}s` }] };
	}
	return { kind: 'serve', server: spec, out };
}

/** The agnhost subcommands (agnhost.go's rootCmd.AddCommand list); those without a model here run and wait like pause. */
const AGNHOST_SUBCOMMANDS = new Set([
	'audit-proxy', 'connect', 'crd-conversion-webhook', 'dns-server-list', 'dns-suffix', 'entrypoint-tester', 'etc-hosts', 'fake-gitserver', 'fake-registry-server', 'grpc-health-checking', 'guestbook',
	'inclusterclient', 'liveness', 'logs-generator', 'mounttest', 'net', 'netexec', 'nettest', 'no-snat-test', 'no-snat-test-proxy', 'pause', 'port-forward-tester', 'porter', 'resource-consumer-controller',
	'serve-hostname', 'tcp-reset', 'test-webserver', 'webhook', 'help', 'completion',
]);

/** The values of one resolv.conf keyword (`search`, `nameserver`), in order. */
function resolvConf(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, keyword: string): string[] {
	const text = readFile(image, ctx, files, '/etc/resolv.conf') ?? '';
	return text.split('\n').flatMap((line) => {
		const words = line.trim().split(/\s+/);
		return words[0] === keyword ? words.slice(1) : [];
	});
}

function agnhost(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, args: string[], wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	const sub = args[0] ?? 'pause';
	const graceful: SignalReaction = { kind: 'graceful', afterMs: 0, exitCode: 0 };
	const serve = (server: ServerSpec): CommandOutcome => (options.main ? { kind: 'serve', server, out } : { kind: 'done', status: 0, out });
	const print = (text: string) => out.push({ stream: 'stdout', text });
	const finish = (status: number): CommandOutcome => ({ kind: options.main ? 'exit' : 'done', status, out }) as CommandOutcome;
	const t = nginxTime(wallMs);
	if (!AGNHOST_SUBCOMMANDS.has(sub)) {
		// cobra's answer to an unknown subcommand.
		out.push({ stream: 'stderr', text: `Error: unknown command "${sub}" for "agnhost"` }, { stream: 'stderr', text: "Run 'agnhost --help' for usage." });
		return finish(1);
	}
	switch (sub) {
		case 'netexec': {
			const port = Number(flagValue(args, ['--http-port']) ?? 8080);
			const udpPort = Number(flagValue(args, ['--udp-port']) ?? 8081);
			return serve({
				name: 'agnhost-netexec',
				ports: [{ port, protocol: 'http' }],
				...(udpPort !== -1 ? { udpPorts: [udpPort] } : {}),
				readyAfterMs: 100,
				onStop: graceful,
				startup: [`${t} Started HTTP server on port ${port}`, ...(udpPort !== -1 ? [`${t} Started UDP server on port  ${udpPort}`] : [])],
				shutdown: [],
				accessLog: 'agnhost-netexec',
			});
		}
		case 'liveness':
			// The kubernetes.io liveness task: /healthz answers 200 for 10 s after start, then 500.
			return serve({ name: 'agnhost-liveness', ports: [{ port: 8080, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [], shutdown: [], healthyForMs: 10_000 });
		case 'serve-hostname':
			return serveHostname(args.slice(1), wallMs, options, out, 'agnhost-serve-hostname');
		case 'test-webserver':
			return serve({ name: 'agnhost-test-webserver', ports: [{ port: 80, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [], shutdown: [] });
		case 'dns-suffix':
			print(resolvConf(image, ctx, files, 'search').join(','));
			return finish(0);
		case 'dns-server-list':
			print(resolvConf(image, ctx, files, 'nameserver').join(','));
			return finish(0);
		case 'mounttest':
			return mounttest(image, ctx, files, args.slice(1), out);
		case 'porter': {
			// One HTTP server per SERVE_PORT_<port>=<value> in the environment, each answering its value
			// (as JSON with the request's method under --json-response). SERVE_TLS_PORT_ servers are not modelled.
			const responses: Record<string, string> = {};
			for (const { name, value } of ctx.env) {
				const port = name.startsWith('SERVE_PORT_') ? name.slice('SERVE_PORT_'.length) : '';
				if (/^\d+$/.test(port) && Number(port) > 0 && Number(port) < 65536) responses[port] = value;
			}
			const json = args.slice(1).some((a) => a === '--json-response' || a === '--json-response=true');
			return serve({
				name: 'agnhost-porter',
				ports: Object.keys(responses).map((port) => ({ port: Number(port), protocol: 'http' as const })),
				readyAfterMs: 50,
				onStop: graceful,
				startup: [],
				shutdown: [],
				porter: { responses, json },
			});
		}
		case 'etc-hosts': {
			// fmt.Println of the file: its own last newline, then one more.
			for (const line of (readFile(image, ctx, files, '/etc/hosts') ?? '').split('\n')) print(line);
			return finish(0);
		}
		default:
			return serve({ name: 'agnhost-pause', ports: [], readyAfterMs: 0, onStop: graceful, startup: ['Paused'], shutdown: ['Shutting down after receiving signal: terminated.'] });
	}
}

/**
 * serve-hostname (agnhost's, and the older registry.k8s.io/serve_hostname
 * image): HTTP on 9376 by default, or raw TCP/UDP with `--http=false`. On
 * SIGTERM it logs, then waits 60 s "awaiting pod deletion" before it exits,
 * so a pod with the default 30 s grace period is killed.
 */
function serveHostname(args: string[], wallMs: number, options: { main: boolean }, out: OutputLine[], name: string): CommandOutcome {
	const t = nginxTime(wallMs);
	const flag = (n: string) => args.some((a) => a === `--${n}` || a === `--${n}=true`);
	const http = !args.some((a) => a === '--http=false');
	const tcp = flag('tcp');
	const udp = flag('udp');
	const port = Number(flagValue(args, ['--port']) ?? 9376);
	if (http && (tcp || udp)) {
		out.push({ stream: 'stderr', text: `${t} Can't server TCP/UDP mode and HTTP mode at the same time` });
		return { kind: options.main ? 'exit' : 'done', status: 1, out } as CommandOutcome;
	}
	if (!options.main) return { kind: 'done', status: 0, out };
	return {
		kind: 'serve',
		server: {
			name,
			ports: http || tcp ? [{ port, protocol: http ? 'http' : 'tcp' }] : [],
			...(udp ? { udpPorts: [port] } : {}),
			readyAfterMs: 50,
			onStop: { kind: 'graceful', afterMs: 60_000, exitCode: 0 },
			startup: [`${t} Serving on port ${port}.`],
			shutdown: [`${t} Shutting down after receiving signal: terminated.`, `${t} Awaiting pod deletion.`],
			accessLog: 'serve-hostname',
		},
		out,
	};
}

/** registry.k8s.io/goproxy: elazarl/goproxy's HTTP proxy on 8080. */
function goproxy(wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	if (!options.main) return { kind: 'done', status: 0, out };
	void wallMs;
	return { kind: 'serve', server: { name: 'goproxy', ports: [{ port: 8080, protocol: 'http' }], readyAfterMs: 20, onStop: { kind: 'ignore' }, startup: [], shutdown: [] }, out };
}

/** What a request to a Go test server carries beyond its path. */
export interface GoRequest {
	/** The client's address, `10.244.1.1` or `10.244.1.1:43512`. */
	clientIp?: string;
	wallMs?: number;
	/** How long the server has been running (Go's monotonic clock reading in `/`). */
	runningForMs: number;
	/** The request's method (GET when not given). */
	method?: string;
	/** The port the request came in on (porter answers per port). */
	port?: number;
}

/**
 * The client's `ip:port` as a Go server's r.RemoteAddr shows it. The
 * runtime passes the address only; the port stands for the client's
 * ephemeral port (Linux picks from 32768–60999), derived from the address
 * and the time so that the body and the log line agree.
 */
export function remoteAddr(request: GoRequest): string {
	const ip = request.clientIp ?? '127.0.0.1';
	if (/^[\d.]+:\d+$/.test(ip)) return ip;
	let h = 2166136261;
	for (const ch of `${ip}@${request.wallMs ?? 0}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
	return `${ip}:${32768 + (h % (60999 - 32768 + 1))}`;
}

/** Go's url.Values decoding of one query parameter (`+` is a space, %XX a byte). */
function queryParam(query: string, name: string): string | undefined {
	for (const pair of query.split('&')) {
		const [k, v = ''] = pair.split('=');
		const decode = (x: string) => {
			try {
				return decodeURIComponent(x.replace(/\+/g, ' '));
			} catch {
				return x;
			}
		};
		if (decode(k) === name) return decode(v);
	}
	return undefined;
}

/**
 * What agnhost's netexec, serve-hostname (both images) and goproxy answer
 * to `GET path`; undefined for other servers. netexec's handlers: `/`
 * (the time), `/hostname` and `/hostName`, `/clientip` (r.RemoteAddr),
 * `/echo?msg=&code=`, `/healthz`; the handlers that act (`/shell`, `/dial`,
 * `/upload`, `/exit`, `/redirect`) are not modelled and answer as `/`.
 */
export function goServerAnswer(server: ServerSpec, ctx: ContainerContext, path: string, request: GoRequest): { status: number; body: string; contentType?: string } | undefined {
	const [clean = '/', query = ''] = path.split('?', 2);
	switch (server.name) {
		case 'agnhost-porter': {
			// porter's handler answers every path and method alike.
			const value = server.porter?.responses[String(request.port ?? '')] ?? '';
			if (!server.porter?.json) return { status: 200, body: value };
			return { status: 200, body: goMarshal({ method: request.method ?? 'GET', body: value }), contentType: 'application/json' };
		}
		case 'agnhost-serve-hostname':
		case 'serve-hostname':
			return { status: 200, body: ctx.hostname };
		case 'goproxy':
			// goproxy's NonproxyHandler: a request without an absolute URL is not a proxy request.
			return { status: 500, body: 'This is a proxy server. Does not respond to non-proxy requests.\n' };
		case 'agnhost-netexec':
			switch (clean) {
				case '/hostname':
				case '/hostName':
					return { status: 200, body: ctx.hostname };
				case '/clientip':
					return { status: 200, body: remoteAddr(request) };
				case '/healthz':
					return { status: 200, body: '' };
				case '/echo': {
					const msg = queryParam(query, 'msg') ?? '';
					const code = queryParam(query, 'code') ?? '';
					if (code !== '' && !/^-?\d+$/.test(code)) return { status: 200, body: `argument 'code' must be an integer or empty, got "${code}"\n` };
					return { status: code === '' ? 200 : Number(code), body: msg };
				}
				default:
					return { status: 200, body: `NOW: ${goTimeString(request.wallMs ?? 0, request.runningForMs)}` };
			}
	}
	return undefined;
}

/** The log line a Go test server writes for one request, with Go's log prefix. */
export function goServerLogLine(server: ServerSpec, path: string, request: GoRequest): string | undefined {
	const t = nginxTime(request.wallMs ?? 0);
	if (server.accessLog === 'serve-hostname') return `${t} HTTP request from ${remoteAddr(request)}`;
	if (server.accessLog !== 'agnhost-netexec') return undefined;
	const [clean = '/', query = ''] = path.split('?', 2);
	switch (clean) {
		case '/echo':
			return `${t} GET /echo?msg=${queryParam(query, 'msg') ?? ''}&code=${queryParam(query, 'code') ?? ''}`;
		case '/hostname':
		case '/hostName':
		case '/clientip':
		case '/healthz':
			return `${t} GET ${clean}`;
		default:
			return `${t} GET /`;
	}
}
