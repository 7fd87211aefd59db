/**
 * The server programs of the application images and their clients: nginx
 * (which forks away without `daemon off;`), httpd, redis and redis-cli,
 * postgres and pg_isready, mysqld and mysqladmin (both refusing to start
 * without a root password option), python and its http.server, and the
 * pause container, and the hpa-example's php-apache; how a server answers
 * an HTTP GET (static files from its document root, the Go test servers'
 * handlers) and the access-log line it writes for it.
 *
 * It follows the official images' programs (docker-library nginx, httpd,
 * redis, postgres, mysql, python; registry.k8s.io/pause): their start-up and
 * shutdown lines, in our own words, and nginx's and httpd's log formats.
 *
 * Mirrors build/pause/linux/pause.c, nginx/nginx
 * src/http/modules/ngx_http_log_module.c, apache/httpd
 * modules/loggers/mod_log_config.c, redis/redis src/server.c, python/cpython
 * Lib/http/server.py.
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine, RunOptions, ServerSpec } from '../behaviour.ts';
import { utf8Length } from '../../golang/utf8.ts';
import { httpDate } from '../../golang/time.ts';
import { clfTime, nginxTime } from './time-formats.ts';
import { goServerAnswer, goServerLogLine } from './test-images.ts';
import { listDirectory, normalizePath, readFile } from './rootfs.ts';
import { envValue, flagValue } from './userland.ts';

/** The kubelet's User-Agent on probes: `kube-probe/<major>.<minor>` (pkg/probe/http/request.go). */
export const PROBE_USER_AGENT = 'kube-probe/1.36';

/** The Apache of php:5-apache on Debian jessie (the hpa-example image). */
const PHP_APACHE_VERSION = '2.4.10';

/** Apache's error-log time: `Mon Nov 30 08:00:05.000000 2026`. */
function apacheErrorTime(wallMs: number): string {
	const d = httpDate(wallMs); // `Mon, 30 Nov 2026 08:00:05 GMT`
	const [, weekday, day, month, year, clock] = /^(\w+), (\d+) (\w+) (\d+) ([\d:]+) GMT$/.exec(d) ?? [];
	return `${weekday} ${month} ${day} ${clock}.${String(wallMs % 1000).padStart(3, '0')}000 ${year}`;
}

/** What a request carries beyond its path: who sent it and when. */
export interface HttpRequestInfo {
	/** The client's address, as the server sees it. */
	clientIp?: string;
	/** The wall-clock time of the request. */
	wallMs?: number;
	/** The HTTP method (GET when not given). */
	method?: string;
	/** The port the request came in on. */
	port?: number;
}

/** Runs `argv` if it is one of the image's servers or their clients; undefined if it is another program. */
export function runServerProgram(image: CatalogImage, ctx: ContainerContext, argv: string[], wallMs: number, options: RunOptions, out: OutputLine[]): CommandOutcome | undefined {
	const binary = argv[0];
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	const print = (text: string) => out.push({ stream: 'stdout', text });
	const fail = (text: string) => out.push({ stream: 'stderr', text });
	const done = (status: number): CommandOutcome => ({ kind: 'done', status, out });
	const serve = (server: ServerSpec): CommandOutcome => (options.main ? { kind: 'serve', server, out } : done(0));
	const version = image.version;
	const listening = options.listening ?? (() => false);

	switch (base) {
		case 'nginx': {
			if (args.includes('-v')) {
				fail(`nginx version: nginx/${version}`);
				return done(0);
			}
			if (args.includes('-V')) {
				fail(`nginx version: nginx/${version}`);
				fail('configure arguments: --prefix=/etc/nginx --sbin-path=/usr/sbin/nginx --conf-path=/etc/nginx/nginx.conf');
				return done(0);
			}
			if (args.includes('-t')) {
				fail('nginx: configuration file /etc/nginx/nginx.conf: syntax ok, test passed');
				return done(0);
			}
			if (args.includes('-s')) return done(0);
			const t = nginxTime(wallMs);
			const entry = options.viaEntrypoint
				? ['/docker-entrypoint.sh: scanning /docker-entrypoint.d/ for start-up scripts', '/docker-entrypoint.sh: ran 10-listen-on-ipv6-by-default.sh, 20-envsubst-on-templates.sh, 30-tune-worker-processes.sh', '/docker-entrypoint.sh: set-up done, starting nginx']
				: [];
			const startup = [...entry, `${t} [notice] 1#1: nginx ${version} starting (event loop: epoll)`, `${t} [notice] 1#1: master process ready, spawning worker processes`];
			const daemonOff = args.join(' ').replace(/\s+/g, ' ').includes('daemon off;');
			if (!daemonOff) {
				// Without `daemon off;` nginx forks into the background and the foreground process exits 0.
				for (const line of startup) fail(line);
				return options.main ? { kind: 'exit', status: 0, out } : done(0);
			}
			return serve({
				name: 'nginx',
				// bprashanth/nginxhttps's configuration also listens on 443 with TLS (its handshake is not modelled: a plain TCP port).
				ports: image.repository === 'docker.io/bprashanth/nginxhttps' ? [{ port: 80, protocol: 'http' }, { port: 443, protocol: 'tcp' }] : [{ port: 80, protocol: 'http' }],
				readyAfterMs: 50,
				// SIGQUIT (the image's stop signal): finish in-flight requests, then exit 0.
				onStop: { kind: 'graceful', afterMs: 100, exitCode: 0 },
				startup,
				shutdown: [`${nginxTime(wallMs)} [notice] 1#1: quit signal received, closing listeners and waiting for workers`],
				docRoot: '/usr/share/nginx/html',
				accessLog: 'nginx',
			});
		}
		case 'auto-reload-nginx.sh': {
			// bprashanth/nginxhttps's script: starts nginx (which daemonizes), then waits on inotifywait
			// to reload it when /etc/nginx/conf.d changes. The script is PID 1 with no trap: SIGTERM is dropped.
			const t = nginxTime(wallMs);
			return serve({
				name: 'nginx',
				ports: [
					{ port: 80, protocol: 'http' },
					{ port: 443, protocol: 'tcp' },
				],
				readyAfterMs: 50,
				onStop: { kind: 'ignore' },
				startup: [`${t} [notice] 1#1: nginx ${version} starting (event loop: epoll)`, 'Setting up watches.', 'Watches established.'],
				shutdown: [],
				docRoot: '/usr/share/nginx/html',
				accessLog: 'nginx',
			});
		}
		case 'httpd':
		case 'apachectl':
			if (args.includes('-v')) {
				print(`Server version: Apache/${version} (Unix)`);
				return done(0);
			}
			return done(0);
		case 'httpd-foreground': {
			const t = nginxTime(wallMs);
			return serve({
				name: 'httpd',
				ports: [{ port: 80, protocol: 'http' }],
				readyAfterMs: 100,
				onStop: { kind: 'graceful', afterMs: 200, exitCode: 0 },
				startup: [`[${t}] [mpm_event:notice] [pid 1:tid 1] Apache/${version} (Unix) set up, ready to serve requests`, `[${t}] [core:notice] [pid 1:tid 1] running as: httpd -D FOREGROUND`],
				shutdown: [`[${t}] [mpm_event:notice] [pid 1:tid 1] graceful stop requested, finishing open connections`],
				docRoot: '/usr/local/apache2/htdocs',
				accessLog: 'httpd',
			});
		}
		case 'apache2-foreground': {
			// php:5-apache runs Debian's apache2 in the foreground with mod_php (prefork).
			const t = apacheErrorTime(wallMs);
			const fqdn = `AH00558: apache2: Could not reliably determine the server's fully qualified domain name, using ${ctx.podIp}. Set the 'ServerName' directive globally to suppress this message`;
			return serve({
				name: 'php-apache',
				ports: [{ port: 80, protocol: 'http' }],
				readyAfterMs: 150,
				onStop: { kind: 'graceful', afterMs: 200, exitCode: 0 },
				startup: [fqdn, fqdn, `[${t}] [mpm_prefork:notice] [pid 1] AH00163: Apache/${PHP_APACHE_VERSION} (Debian) PHP/${version} configured -- resuming normal operations`, `[${t}] [core:notice] [pid 1] AH00094: Command line: 'apache2 -D FOREGROUND'`],
				shutdown: [`[${t}] [mpm_prefork:notice] [pid 1] AH00170: caught SIGWINCH, shutting down gracefully`],
				docRoot: '/var/www/html',
				accessLog: 'apache-combined',
			});
		}
		case 'redis-server': {
			const port = Number(flagValue(args, ['--port']) ?? 6379);
			return serve({
				name: 'redis',
				ports: [{ port, protocol: 'tcp' }],
				readyAfterMs: 50,
				onStop: { kind: 'graceful', afterMs: 100, exitCode: 0 },
				startup: [`1:M redis ${version} starting, standalone mode, port ${port}`, '1:M loaded no data (empty data directory)', '1:M ready to take connections'],
				shutdown: ['1:M got SIGTERM, saving and shutting down', '1:M bye'],
			});
		}
		case 'redis-cli':
			if (args[args.length - 1]?.toLowerCase() === 'ping') {
				if (listening(6379)) {
					print('PONG');
					return done(0);
				}
				fail('Could not connect to Redis at 127.0.0.1:6379: Connection refused');
				return done(1);
			}
			return done(0);
		case 'postgres': {
			const password = envValue(ctx, 'POSTGRES_PASSWORD');
			const trust = envValue(ctx, 'POSTGRES_HOST_AUTH_METHOD') === 'trust';
			if (!password && !trust) {
				fail('error: this database has not been initialized and no superuser password was given.');
				fail('       Set POSTGRES_PASSWORD to a non-empty password for the superuser, or');
				fail('       POSTGRES_HOST_AUTH_METHOD=trust to allow every connection without one (insecure).');
				return options.main ? { kind: 'exit', status: 1, out } : done(1);
			}
			return serve({
				name: 'postgres',
				ports: [{ port: 5432, protocol: 'tcp' }],
				// First start runs initdb: a few seconds before connections are accepted.
				readyAfterMs: 3_000,
				onStop: { kind: 'graceful', afterMs: 300, exitCode: 0 },
				startup: ['initializing a new database cluster in /var/lib/postgresql/data', `postgres ${version} starting on 0.0.0.0 port 5432`, 'database system is ready to accept connections'],
				shutdown: ['fast shutdown requested: aborting open transactions', 'database system is shut down'],
			});
		}
		case 'pg_isready':
			if (listening(5432)) {
				print('/var/run/postgresql:5432 - accepting connections');
				return done(0);
			}
			print('/var/run/postgresql:5432 - no response');
			return done(2);
		case 'mysqld': {
			const ok = ['MYSQL_ROOT_PASSWORD', 'MYSQL_ALLOW_EMPTY_PASSWORD', 'MYSQL_RANDOM_ROOT_PASSWORD'].some((n) => envValue(ctx, n));
			if (!ok) {
				fail('[ERROR] [Entrypoint]: the database is not initialized and no root password option was given');
				fail('    Set one of MYSQL_ROOT_PASSWORD, MYSQL_ALLOW_EMPTY_PASSWORD or MYSQL_RANDOM_ROOT_PASSWORD');
				return options.main ? { kind: 'exit', status: 1, out } : done(1);
			}
			return serve({
				name: 'mysql',
				ports: [
					{ port: 3306, protocol: 'tcp' },
					{ port: 33060, protocol: 'tcp' },
				],
				// The first start initializes the data directory; mysqld listens after ~15 s.
				readyAfterMs: 15_000,
				onStop: { kind: 'graceful', afterMs: 1_500, exitCode: 0 },
				startup: [`[Note] [Entrypoint]: entrypoint script for MySQL Server ${version} started`, '[Note] [Entrypoint]: initializing the database files (this takes a while)', `[System] [Server] mysqld ${version} ready for connections on port 3306`],
				shutdown: ['[System] [Server] received SHUTDOWN, stopping', '[System] [Server] shutdown complete'],
			});
		}
		case 'mysqladmin':
			if (args.includes('ping')) {
				if (listening(3306)) {
					print('mysqld is alive');
					return done(0);
				}
				fail("mysqladmin: connect to server at 'localhost' failed");
				return done(1);
			}
			return done(0);
		case 'python':
		case 'python3': {
			if (args[0] === '--version' || args[0] === '-V') {
				print(`Python ${version}`);
				return done(0);
			}
			if (args[0] === '-m' && args[1] === 'http.server') {
				const port = Number(args[2] ?? 8000);
				return serve({
					name: 'python-http',
					ports: [{ port, protocol: 'http' }],
					readyAfterMs: 200,
					// No SIGTERM handler: as PID 1 python keeps running until SIGKILL.
					onStop: { kind: 'ignore' },
					startup: [`Serving HTTP on 0.0.0.0 port ${port} (http://0.0.0.0:${port}/) ...`],
					shutdown: [],
					docRoot: ctx.workingDir || '/',
					accessLog: 'python',
				});
			}
			if (args[0] === '-c') {
				for (const m of (args[1] ?? '').matchAll(/print\(\s*(['"])(.*?)\1\s*\)/g)) print(m[2]);
				return done(0);
			}
			if (args.length > 0 && !args[0].startsWith('-')) {
				fail(`python3: can't open file '${args[0].startsWith('/') ? args[0] : (ctx.workingDir || '') + '/' + args[0]}': [Errno 2] No such file or directory`);
				return done(2);
			}
			// The REPL reads stdin; a container has none, so it exits at once.
			return done(0);
		}
		case 'pause':
			return serve({ name: 'pause', ports: [], readyAfterMs: 0, onStop: { kind: 'graceful', afterMs: 0, exitCode: 0 }, startup: [], shutdown: [] });
	}
	return undefined;
}

/**
 * The HTTP answer of a server to `GET path`. Conventions for scenario
 * authors: any path starting with `/fail` answers 500 on every simulated
 * server; static-file servers (nginx, httpd, python http.server) answer
 * from their document root (404 for a missing file, 403 for a directory
 * without index.html); the Go test servers answer as their handlers do
 * (./test-images.ts); the hpa-example's index.php answers `OK!`; other
 * servers answer 200 on every other path. `bytes` is the body's length in
 * bytes, as Content-Length and the access logs count it.
 */
export function httpAnswer(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, server: ServerSpec, path: string, runningForMs: number, request: HttpRequestInfo = {}): { status: number; bytes: number; body?: string; contentType?: string } {
	const clean = path.split('?')[0] || '/';
	const text = (status: number, body: string) => ({ status, bytes: utf8Length(body), body });
	if (clean.startsWith('/fail')) return { status: 500, bytes: 0 };
	if (server.healthyForMs !== undefined && clean === '/healthz') return runningForMs < server.healthyForMs ? { status: 200, bytes: 2 } : { status: 500, bytes: 0 };
	const go = goServerAnswer(server, ctx, path, { ...request, runningForMs });
	if (go) return go.contentType ? { ...text(go.status, go.body), contentType: go.contentType } : text(go.status, go.body);
	if (server.name === 'php-apache') {
		// DirectoryIndex index.php: `/` runs it too.
		const script = clean === '/' ? '/index.php' : clean;
		if (script === '/index.php' && readFile(image, ctx, files, `${server.docRoot}/index.php`) !== undefined) return text(200, 'OK!');
	}
	if (server.docRoot) {
		const target = normalizePath(`${server.docRoot}/${clean}`, ctx);
		const asDir = listDirectory(image, ctx, files, target);
		if (asDir) {
			const index = readFile(image, ctx, files, `${target}/index.html`);
			if (index !== undefined) return text(200, index);
			return server.accessLog === 'python' ? { status: 200, bytes: 512 } : { status: 403, bytes: 153 };
		}
		const content = readFile(image, ctx, files, target);
		return content === undefined ? { status: 404, bytes: 153 } : text(200, content);
	}
	return { status: 200, bytes: 2 };
}

/** The access-log line a server writes for one request. */
export function accessLogLine(server: ServerSpec, clientIp: string, path: string, status: number, bytes: number, userAgent: string, wallMs: number): string | undefined {
	switch (server.accessLog) {
		case 'nginx':
			return `${clientIp} - - [${clfTime(wallMs)}] "GET ${path} HTTP/1.1" ${status} ${bytes} "-" "${userAgent}" "-"`;
		case 'httpd':
			return `${clientIp} - - [${clfTime(wallMs)}] "GET ${path} HTTP/1.1" ${status} ${bytes}`;
		case 'apache-combined':
			// Debian's "combined" format counts the bytes sent with the headers (%O): about 200 of them here.
			return `${clientIp} - - [${clfTime(wallMs)}] "GET ${path} HTTP/1.1" ${status} ${bytes + 205} "-" "${userAgent}"`;
		case 'python':
			return `${clientIp} - - [${clfTime(wallMs).replace(/ \+0000$/, '')}] "GET ${path} HTTP/1.1" ${status} -`;
		case 'agnhost-netexec':
		case 'serve-hostname':
			return goServerLogLine(server, path, { clientIp, wallMs, runningForMs: 0 });
		default:
			return undefined;
	}
}
