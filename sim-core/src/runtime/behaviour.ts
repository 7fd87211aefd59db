/**
 * What a container does, from its image and its command/args: which
 * program runs as PID 1, what it prints, which ports it serves, how it
 * reacts to the stop signal, and what `kubectl exec` finds inside.
 *
 * The rules follow how containers really behave, because those are the
 * lessons: a command replaces the image ENTRYPOINT and args replace its
 * CMD; a shell or `sleep` running as PID 1 ignores SIGTERM (the kernel
 * drops signals PID 1 has no handler for), so deletion waits out the whole
 * grace period; a server started from a script without `exec` never sees
 * the signal either; `nginx` without `daemon off;` forks away and the
 * container exits; a shell image started with no command exits at once
 * (no terminal attached), which under restartPolicy Always is a
 * CrashLoopBackOff. Program output is written in our own words, shaped
 * like the real programs' output.
 *
 * Pure functions over plain data; the interpreter that runs them over
 * virtual time is ./program.ts.
 */
import { civilTime, MONTH_NAMES, WEEKDAY_NAMES } from '../golang/time.ts';
import type { CatalogImage, ImageFamily, SystemComponent } from './images.ts';
import { systemComponentOf } from './images.ts';
import type { Mount } from './mounts.ts';
import { klogHeader } from '../component-base/klog.ts';

/** Static facts about one container, fixed at creation. Plain JSON. */
export interface ContainerContext {
	/** Repository and tag the container was created from (catalogue lookup key). */
	imageRef: string;
	hostname: string;
	podName: string;
	namespace: string;
	podIp: string;
	nodeName: string;
	/** The environment as the process sees it, in order (image ENV, then the container's). */
	env: Array<{ name: string; value: string }>;
	/** The cgroup memory limit, when the container has one. */
	memoryLimitBytes?: number;
	workingDir?: string;
	/** The argv the container was started with (after ENTRYPOINT/CMD resolution). */
	argv: string[];
	/** Bind mounts from the kubelet (CRI ContainerConfig.mounts): volumes, in volumeMounts order (./mounts.ts). */
	mounts?: Mount[];
}

/** One line of container output. */
export interface OutputLine {
	stream: 'stdout' | 'stderr';
	text: string;
}

/** A port a server listens on; `http` ports answer HTTP, `tcp` ports only accept connections. */
export interface ServedPort {
	port: number;
	protocol: 'http' | 'tcp';
}

/** How the main process reacts to the stop signal. */
export type SignalReaction =
	/** Shuts down cleanly after `afterMs` and exits with `exitCode`. */
	| { kind: 'graceful'; afterMs: number; exitCode: number }
	/** No handler: as PID 1 the signal is dropped; only SIGKILL ends it. */
	| { kind: 'ignore' };

/**
 * A long-running server the main process becomes. Plain JSON. Start-up
 * (`readyAfterMs`) and shutdown (`onStop.afterMs`) times are rough orders of
 * magnitude for each program on a small VM, not measurements: tens of ms
 * for nginx or redis, seconds for a database's first start.
 */
export interface ServerSpec {
	name: string;
	ports: ServedPort[];
	/** Delay from start to listening. */
	readyAfterMs: number;
	onStop: SignalReaction;
	/** Lines printed at start. */
	startup: string[];
	/** Lines printed when a stop signal is handled. */
	shutdown: string[];
	/** Static-file root for file-serving servers (nginx, httpd, python http.server). */
	docRoot?: string;
	/** Access-log style for HTTP requests. */
	accessLog?: 'nginx' | 'httpd' | 'python';
	/** Exits by itself after `afterMs` with `exitCode` (a crash, or a `--timeout`). */
	exitsAfter?: { afterMs: number; exitCode: number; reason?: 'OOMKilled' | 'Error' | 'Completed'; lines: OutputLine[] };
	/** Backed by a simulated control-plane process. */
	component?: SystemComponent;
	/** agnhost liveness: /healthz answers 200 for this long after start, then 500. */
	healthyForMs?: number;
}

/** What running one command did. */
export type CommandOutcome =
	| { kind: 'done'; status: number; out: OutputLine[] }
	| { kind: 'sleep'; ms: number; out: OutputLine[] }
	| { kind: 'exit'; status: number; out: OutputLine[] }
	| { kind: 'serve'; server: ServerSpec; out: OutputLine[] }
	| { kind: 'not-found'; binary: string };

/** A container's writable layer: paths written (string) or deleted (null) on top of the image. */
export type FileOverrides = Record<string, string | null>;

/** The kubelet's User-Agent on probes: `kube-probe/<major>.<minor>` (pkg/probe/http/request.go). */
export const PROBE_USER_AGENT = 'kube-probe/1.36';

// ---- time formatting ------------------------------------------------------------

const DAYS = WEEKDAY_NAMES;
const MONTHS = MONTH_NAMES;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function split(wallMs: number) {
	const t = civilTime(wallMs);
	return { year: t.year, month: t.month, day: t.day, weekday: t.weekday, h: t.hour, m: t.minute, s: t.second };
}

/** `date` in the C locale, UTC: `Mon Nov 30 08:00:05 UTC 2026`. */
export function formatDateCommand(wallMs: number): string {
	const t = split(wallMs);
	return `${DAYS[t.weekday]} ${MONTHS[t.month - 1]} ${pad(t.day)} ${pad(t.h)}:${pad(t.m)}:${pad(t.s)} UTC ${t.year}`;
}

/** nginx error-log time: `2026/11/30 08:00:05`. */
function nginxTime(wallMs: number): string {
	const t = split(wallMs);
	return `${t.year}/${pad(t.month)}/${pad(t.day)} ${pad(t.h)}:${pad(t.m)}:${pad(t.s)}`;
}

/** Common Log Format time: `30/Nov/2026:08:00:15 +0000`. */
function clfTime(wallMs: number): string {
	const t = split(wallMs);
	return `${pad(t.day)}/${MONTHS[t.month - 1]}/${t.year}:${pad(t.h)}:${pad(t.m)}:${pad(t.s)} +0000`;
}

// ---- the image's userland ----------------------------------------------------------

/** Programs every userland has (or the busybox multi-call binary provides). */
const COMMON_TOOLS = ['sh', 'echo', 'printf', 'sleep', 'cat', 'ls', 'date', 'env', 'printenv', 'hostname', 'touch', 'rm', 'mkdir', 'true', 'false', 'uname', 'whoami', 'id', 'pwd', 'seq', 'head', 'tail', 'wc', 'tee', 'test', '[', 'basename', 'dirname', 'kill', 'which', 'grep'];
/** busybox applets beyond the common set. */
const BUSYBOX_TOOLS = ['ash', 'ps', 'wget', 'nslookup', 'uptime', 'free', 'df'];
/** Debian and Ubuntu base images: bash and dash, no procps (so no `ps`). */
const DEBIAN_TOOLS = ['bash', 'dash'];

/** The program binaries an image adds to its userland. */
function programBinaries(image: CatalogImage): string[] {
	switch (image.program) {
		case 'nginx':
			return ['nginx', '/docker-entrypoint.sh', 'curl'];
		case 'httpd':
			return ['httpd', 'httpd-foreground', 'apachectl'];
		case 'redis':
			return ['redis-server', 'redis-cli', 'docker-entrypoint.sh'];
		case 'python':
			return ['python', 'python3', 'pip'];
		case 'postgres':
			return ['postgres', 'psql', 'pg_isready', 'docker-entrypoint.sh'];
		case 'mysql':
			return ['mysqld', 'mysql', 'mysqladmin', 'docker-entrypoint.sh'];
		case 'pause':
			return ['/pause'];
		case 'etcd':
			return ['etcd', 'etcdctl', 'etcdutl', '/usr/local/bin/etcd'];
		case 'coredns':
			return ['/coredns'];
		case 'agnhost':
			return ['/agnhost'];
		case 'stress':
			return ['stress'];
		case 'kube-proxy':
			return ['kube-proxy', '/usr/local/bin/kube-proxy'];
		case 'kube-apiserver':
		case 'kube-controller-manager':
		case 'kube-scheduler':
			return [image.program, `/usr/local/bin/${image.program}`];
		default:
			return [];
	}
}

/** Whether `binary` (a name or a path) can be executed in the image. */
export function binaryExists(image: CatalogImage, binary: string): boolean {
	const base = binary.includes('/') ? binary.slice(binary.lastIndexOf('/') + 1) : binary;
	const own = programBinaries(image);
	if (own.includes(binary) || own.includes(base)) return true;
	const tools = toolsOf(image.family);
	return tools.includes(base) && (binary === base || /^\/(usr\/)?(s)?bin\//.test(binary));
}

function toolsOf(family: ImageFamily): string[] {
	switch (family) {
		case 'busybox':
		case 'alpine':
			return [...COMMON_TOOLS, ...BUSYBOX_TOOLS];
		case 'debian':
		case 'ubuntu':
			return [...COMMON_TOOLS, ...DEBIAN_TOOLS];
		default:
			return [];
	}
}

/** Which shell dialect prints the errors: busybox ash or dash/bash. */
function usesBusybox(image: CatalogImage): boolean {
	return image.family === 'busybox' || image.family === 'alpine';
}

// ---- files -------------------------------------------------------------------------------

const TOP_DIRS = ['bin', 'dev', 'etc', 'home', 'lib', 'proc', 'root', 'run', 'sbin', 'sys', 'tmp', 'usr', 'var'];

const OS_RELEASE: Record<ImageFamily, string> = {
	debian: 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="13"\nID=debian\n',
	ubuntu: 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\n',
	alpine: 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.22.2\nPRETTY_NAME="Alpine Linux v3.22"\n',
	busybox: '',
	distroless: 'PRETTY_NAME="Distroless"\nNAME="Debian GNU/Linux"\nID="debian"\n',
};

/** The kubelet-managed /etc/hosts (pkg/kubelet/kubelet_pods.go managedHostsFileContent). */
function hostsFile(ctx: ContainerContext): string {
	return [
		'# Kubernetes-managed hosts file.',
		'127.0.0.1\tlocalhost',
		'::1\tlocalhost ip6-localhost ip6-loopback',
		'fe00::0\tip6-localnet',
		'fe00::0\tip6-mcastprefix',
		'fe00::1\tip6-allnodes',
		'fe00::2\tip6-allrouters',
		`${ctx.podIp}\t${ctx.hostname}`,
		'',
	].join('\n');
}

const NGINX_INDEX = [
	'<!DOCTYPE html>',
	'<html>',
	'<head><title>nginx is running</title></head>',
	'<body>',
	'<h1>nginx is up</h1>',
	'<p>This is the default page of the nginx image: the server answers, nothing is configured yet.</p>',
	'</body>',
	'</html>',
	'',
].join('\n');

/** The image's own file at `path`, before the container wrote anything. */
export function baselineFile(image: CatalogImage, ctx: ContainerContext, path: string): string | undefined {
	switch (path) {
		case '/etc/hostname':
			return `${ctx.hostname}\n`;
		case '/etc/hosts':
			return hostsFile(ctx);
		case '/etc/resolv.conf':
			return `search ${ctx.namespace}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n`;
		case '/etc/os-release':
			return OS_RELEASE[image.family] || undefined;
	}
	if (image.program === 'nginx') {
		if (path === '/usr/share/nginx/html/index.html') return NGINX_INDEX;
		if (path === '/usr/share/nginx/html/50x.html') return '<html><body><h1>Something went wrong on our side.</h1></body></html>\n';
		if (path === '/etc/nginx/nginx.conf') return 'user nginx;\nworker_processes auto;\nevents { worker_connections 1024; }\nhttp { include /etc/nginx/conf.d/*.conf; }\n';
		if (path === '/etc/nginx/conf.d/default.conf') return 'server {\n    listen 80;\n    location / { root /usr/share/nginx/html; index index.html; }\n}\n';
	}
	if (image.program === 'httpd' && path === '/usr/local/apache2/htdocs/index.html') return '<html><body><h1>It works!</h1></body></html>\n';
	return undefined;
}

/**
 * Every baseline file path of the image (for `ls`, and for the files a
 * mount hides). The service account files under
 * /var/run/secrets/kubernetes.io/serviceaccount come from the pod's
 * kube-api-access volume, mounted by the kubelet, not from the image.
 */
export function baselinePaths(image: CatalogImage): string[] {
	const paths = ['/etc/hostname', '/etc/hosts', '/etc/resolv.conf'];
	if (OS_RELEASE[image.family]) paths.push('/etc/os-release');
	if (image.program === 'nginx') paths.push('/usr/share/nginx/html/index.html', '/usr/share/nginx/html/50x.html', '/etc/nginx/nginx.conf', '/etc/nginx/conf.d/default.conf', '/docker-entrypoint.sh');
	if (image.program === 'httpd') paths.push('/usr/local/apache2/htdocs/index.html');
	return paths;
}

/** Reads a file through the writable layer. */
export function readFile(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, path: string): string | undefined {
	const p = normalizePath(path, ctx);
	if (Object.hasOwn(files, p)) return files[p] ?? undefined;
	return baselineFile(image, ctx, p);
}

export function normalizePath(path: string, ctx: Pick<ContainerContext, 'workingDir'>): string {
	const abs = path.startsWith('/') ? path : `${ctx.workingDir && ctx.workingDir !== '/' ? ctx.workingDir : ''}/${path}`;
	const out: string[] = [];
	for (const part of abs.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') out.pop();
		else out.push(part);
	}
	return `/${out.join('/')}`;
}

/** Names directly inside `dir`, or undefined if it is not a directory. */
export function listDirectory(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, dir: string): string[] | undefined {
	const d = normalizePath(dir, ctx);
	const names = new Set<string>();
	const prefix = d === '/' ? '/' : `${d}/`;
	let isDir = d === '/' || TOP_DIRS.includes(d.slice(1));
	const consider = (p: string) => {
		if (!p.startsWith(prefix)) return;
		isDir = true;
		names.add(p.slice(prefix.length).split('/')[0]);
	};
	for (const p of baselinePaths(image)) if (!(Object.hasOwn(files, p) && files[p] === null)) consider(p);
	for (const [p, v] of Object.entries(files)) if (v !== null) consider(p);
	if (d === '/') for (const top of TOP_DIRS) names.add(top);
	// `dir/` marks a directory (mkdir, an empty mount): it names no entry.
	names.delete('');
	if (!isDir) return undefined;
	return [...names].sort();
}

// ---- the program an image runs --------------------------------------------------------

/**
 * The argv of a container: `command` replaces the ENTRYPOINT, `args`
 * replace the CMD (kuberuntime_container.go with containerd's image config).
 */
export function resolveArgv(image: CatalogImage, command: string[] | undefined, args: string[] | undefined): string[] {
	if (command && command.length > 0) return [...command, ...(args ?? [])];
	if (args && args.length > 0) return [...image.entrypoint, ...args];
	return [...image.entrypoint, ...image.cmd];
}

/** Entrypoint scripts of the official images: they run setup, then `exec "$@"`. */
const ENTRYPOINT_SCRIPTS = new Set(['/docker-entrypoint.sh', 'docker-entrypoint.sh']);

/** Strips an image's entrypoint script, keeping the command it will exec. */
export function unwrapEntrypoint(image: CatalogImage, argv: string[]): { argv: string[]; viaEntrypoint: boolean } {
	if (argv.length > 1 && ENTRYPOINT_SCRIPTS.has(argv[0]) && programBinaries(image).includes(argv[0])) return { argv: argv.slice(1), viaEntrypoint: true };
	return { argv, viaEntrypoint: false };
}

/** The shells a container command may start. */
export function isShell(binary: string): boolean {
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	return base === 'sh' || base === 'bash' || base === 'ash' || base === 'dash';
}

function envValue(ctx: ContainerContext, name: string): string | undefined {
	for (let i = ctx.env.length - 1; i >= 0; i--) if (ctx.env[i].name === name) return ctx.env[i].value;
	return undefined;
}

/** Parses `150M`, `1G`, `512k` (stress's size syntax, powers of 1024), in bytes. */
function parseStressSize(text: string): number {
	const m = /^(\d+)([bkmgBKMG]?)$/.exec(text);
	if (!m) return Number.NaN;
	const unit = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()] ?? 1;
	return Number(m[1]) * unit;
}

function flagValue(argv: string[], names: string[]): string | undefined {
	for (let i = 0; i < argv.length; i++) {
		for (const name of names) {
			if (argv[i] === name) return argv[i + 1];
			if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
		}
	}
	return undefined;
}

/** The ports and probe answers of the control-plane programs (their default secure/health ports). */
const COMPONENT_PORTS: Record<SystemComponent, ServedPort[]> = {
	// etcd: clients 2379, peers 2380, metrics and /health 2381 (kubeadm's --listen-metrics-urls).
	etcd: [
		{ port: 2379, protocol: 'tcp' },
		{ port: 2380, protocol: 'tcp' },
		{ port: 2381, protocol: 'http' },
	],
	'kube-apiserver': [{ port: 6443, protocol: 'http' }],
	'kube-controller-manager': [{ port: 10257, protocol: 'http' }],
	'kube-scheduler': [{ port: 10259, protocol: 'http' }],
	// kube-proxy: metrics 10249, healthz 10256.
	'kube-proxy': [
		{ port: 10249, protocol: 'http' },
		{ port: 10256, protocol: 'http' },
	],
	// CoreDNS: DNS 53, health 8080, ready 8181, metrics 9153.
	coredns: [
		{ port: 53, protocol: 'tcp' },
		{ port: 8080, protocol: 'http' },
		{ port: 8181, protocol: 'http' },
		{ port: 9153, protocol: 'http' },
	],
};

/**
 * Runs one command as a program would, at wall time `wallMs`. `main` is
 * true when the command is the container's main process (then servers
 * keep running and `exit`-like outcomes end the container).
 */
export function runCommand(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, argv: string[], wallMs: number, options: { main: boolean; viaEntrypoint?: boolean; listening?: (port: number) => boolean } = { main: false }): CommandOutcome {
	const binary = argv[0] ?? '';
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	const out: OutputLine[] = [];
	const print = (text: string) => out.push({ stream: 'stdout', text });
	const fail = (text: string) => out.push({ stream: 'stderr', text });
	const done = (status: number): CommandOutcome => ({ kind: 'done', status, out });
	const busybox = usesBusybox(image);

	// Shell builtins work in every shell; as a standalone binary they need the userland.
	if (!binaryExists(image, binary)) return { kind: 'not-found', binary };

	switch (base) {
		case 'echo': {
			let words = args;
			let newline = true;
			while (words[0] === '-n' || words[0] === '-e' || words[0] === '-ne' || words[0] === '-en') {
				if (words[0].includes('n')) newline = false;
				words = words.slice(1);
			}
			const text = words.join(' ').replace(/\\n/g, '\n');
			for (const line of text.split('\n')) print(line);
			if (!newline && out.length && out[out.length - 1].text === '') out.pop();
			return done(0);
		}
		case 'printf': {
			const [format = '', ...rest] = args;
			let k = 0;
			const text = format.replace(/%[sd]|%%|\\n|\\t/g, (m) => (m === '%%' ? '%' : m === '\\n' ? '\n' : m === '\\t' ? '\t' : (rest[k++] ?? (m === '%d' ? '0' : ''))));
			const lines = text.split('\n');
			if (lines[lines.length - 1] === '') lines.pop();
			for (const line of lines) print(line);
			return done(0);
		}
		case 'true':
			return done(0);
		case 'false':
			return done(1);
		case 'sleep': {
			if (args.length === 0) {
				fail(busybox ? 'Usage: sleep [N]...' : 'sleep: missing operand');
				return done(1);
			}
			let total = 0;
			for (const a of args) {
				if (a === 'infinity' || a === 'inf') return { kind: 'sleep', ms: Number.POSITIVE_INFINITY, out };
				const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(a);
				if (!m) {
					fail(busybox ? `sleep: invalid number '${a}'` : `sleep: invalid time interval '${a}'`);
					return done(1);
				}
				total += Number(m[1]) * ({ '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]] ?? 1000);
			}
			return { kind: 'sleep', ms: total, out };
		}
		case 'date':
			print(formatDateCommand(wallMs));
			return done(0);
		case 'hostname':
			print(ctx.hostname);
			return done(0);
		case 'whoami':
			print('root');
			return done(0);
		case 'id':
			print(busybox ? 'uid=0(root) gid=0(root) groups=0(root),10(wheel)' : 'uid=0(root) gid=0(root) groups=0(root)');
			return done(0);
		case 'pwd':
			print(ctx.workingDir || '/');
			return done(0);
		case 'uname':
			// The kernel is the node's: containers share it.
			print(args.includes('-a') ? `Linux ${ctx.hostname} 6.8.0-88-generic #89-Ubuntu SMP PREEMPT_DYNAMIC x86_64 GNU/Linux` : 'Linux');
			return done(0);
		case 'env':
		case 'printenv': {
			if (base === 'printenv' && args.length > 0) {
				let status = 0;
				for (const name of args) {
					const v = envValue(ctx, name);
					if (v === undefined) status = 1;
					else print(v);
				}
				return done(status);
			}
			for (const e of ctx.env) print(`${e.name}=${e.value}`);
			return done(0);
		}
		case 'cat': {
			let status = 0;
			for (const path of args.filter((a) => !a.startsWith('-'))) {
				const content = readFile(image, ctx, files, path);
				if (content === undefined) {
					const isDir = listDirectory(image, ctx, files, path) !== undefined;
					fail(busybox ? `cat: ${isDir ? `read error: Is a directory` : `can't open '${path}': No such file or directory`}` : `cat: ${path}: ${isDir ? 'Is a directory' : 'No such file or directory'}`);
					status = 1;
					continue;
				}
				const lines = content.split('\n');
				if (lines[lines.length - 1] === '') lines.pop();
				for (const line of lines) print(line);
			}
			return done(status);
		}
		case 'ls': {
			const targets = args.filter((a) => !a.startsWith('-'));
			const long = args.some((a) => a.startsWith('-') && a.includes('l'));
			let status = 0;
			for (const target of targets.length ? targets : [ctx.workingDir || '/']) {
				const entries = listDirectory(image, ctx, files, target);
				if (entries) {
					if (targets.length > 1) print(`${target}:`);
					for (const e of entries) print(long ? `-rw-r--r--    1 root     root             0 ${e}` : e);
					continue;
				}
				if (readFile(image, ctx, files, target) !== undefined) {
					print(target);
					continue;
				}
				fail(busybox ? `ls: ${target}: No such file or directory` : `ls: cannot access '${target}': No such file or directory`);
				status = busybox ? 1 : 2;
			}
			return done(status);
		}
		case 'ps': {
			// busybox ps: PID right-aligned in 5 columns, user in 8.
			print('PID   USER     TIME  COMMAND');
			print(`${'1'.padStart(5)} root      0:00 ${ctx.argv.join(' ')}`);
			print(`${String(options.main ? 2 : 7).padStart(5)} root      0:00 ps${args.length ? ' ' + args.join(' ') : ''}`);
			return done(0);
		}
		case 'touch':
		case 'mkdir':
		case 'rm':
		case 'tee':
			// File effects are applied by the interpreter (it owns the writable layer).
			return done(0);
		case 'seq': {
			const nums = args.map(Number);
			const [first, last] = nums.length === 1 ? [1, nums[0]] : [nums[0], nums[nums.length - 1]];
			for (let v = first; v <= last && v - first < 10_000; v++) print(String(v));
			return done(0);
		}
		case 'kill':
		case 'which':
		case 'test':
		case '[':
		case 'basename':
		case 'dirname':
		case 'head':
		case 'tail':
		case 'wc':
		case 'grep':
			return done(0);
		case 'uptime':
			print(' 08:00:00 up 1 min,  0 users,  load average: 0.08, 0.03, 0.01');
			return done(0);
		case 'wget':
		case 'nslookup':
		case 'curl': {
			const host = args.filter((a) => !a.startsWith('-')).pop() ?? '';
			fail(base === 'curl' ? `curl: (6) Could not resolve host: ${host}` : `${base}: bad address '${host.replace(/^https?:\/\//, '').split('/')[0]}'`);
			return done(base === 'curl' ? 6 : 1);
		}
	}
	return runProgramBinary(image, ctx, argv, wallMs, options, out);
}

/** The image's own programs (servers, clients, the control plane). */
function runProgramBinary(image: CatalogImage, ctx: ContainerContext, argv: string[], wallMs: number, options: { main: boolean; viaEntrypoint?: boolean; listening?: (port: number) => boolean }, out: OutputLine[]): CommandOutcome {
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
				ports: [{ port: 80, protocol: 'http' }],
				readyAfterMs: 50,
				// SIGQUIT (the image's stop signal): finish in-flight requests, then exit 0.
				onStop: { kind: 'graceful', afterMs: 100, exitCode: 0 },
				startup,
				shutdown: [`${nginxTime(wallMs)} [notice] 1#1: quit signal received, closing listeners and waiting for workers`],
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
		case 'stress':
			return stress(ctx, args, options, out);
		case 'agnhost':
			return agnhost(ctx, args, wallMs, options, out);
		case 'coredns':
			return systemServer(image, 'coredns', args, wallMs, options, out);
	}
	const component = systemComponentOf(image);
	if (component && (base === component || base === 'kube-proxy')) return systemServer(image, component, args, wallMs, options, out);
	if (image.program === 'etcd' && (base === 'etcdctl' || base === 'etcdutl')) {
		if (args.includes('version') || args.includes('--version')) {
			print(`${base} version: ${version}`);
			print('API version: 3.6');
			return done(0);
		}
		return done(0);
	}
	// A binary present in the image but with nothing to simulate: it runs and succeeds.
	void print;
	return done(0);
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

function agnhost(ctx: ContainerContext, args: string[], wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	const sub = args[0] ?? 'pause';
	const graceful: SignalReaction = { kind: 'graceful', afterMs: 0, exitCode: 0 };
	const serve = (server: ServerSpec): CommandOutcome => (options.main ? { kind: 'serve', server, out } : { kind: 'done', status: 0, out });
	void wallMs;
	switch (sub) {
		case 'netexec': {
			const port = Number(flagValue(args, ['--http-port']) ?? 8080);
			return serve({ name: 'agnhost-netexec', ports: [{ port, protocol: 'http' }], readyAfterMs: 100, onStop: graceful, startup: [`Started HTTP server on port ${port}`], shutdown: [] });
		}
		case 'liveness':
			// The kubernetes.io liveness task: /healthz answers 200 for 10 s after start, then 500.
			return serve({ name: 'agnhost-liveness', ports: [{ port: 8080, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [], shutdown: [], healthyForMs: 10_000 });
		case 'serve-hostname':
			return serve({ name: 'agnhost-serve-hostname', ports: [{ port: 9376, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [`Serving the host name ${ctx.hostname} on port 9376`], shutdown: [] });
		case 'test-webserver':
			return serve({ name: 'agnhost-test-webserver', ports: [{ port: 80, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [], shutdown: [] });
		default:
			return serve({ name: 'agnhost-pause', ports: [], readyAfterMs: 0, onStop: graceful, startup: ['Paused'], shutdown: ['Shutting down after receiving signal: terminated.'] });
	}
}

/** The control-plane programs and kube-proxy/CoreDNS: backed by simulated processes through the runtime's hooks. */
function systemServer(image: CatalogImage, component: SystemComponent, args: string[], wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	if (args.includes('--version') || args.includes('-version') || args[0] === 'version') {
		out.push({ stream: 'stdout', text: component === 'etcd' ? `etcd Version: ${image.version}` : component === 'coredns' ? `CoreDNS-${image.version}` : `Kubernetes ${image.version}` });
		return { kind: options.main ? 'exit' : 'done', status: 0, out } as CommandOutcome;
	}
	if (!options.main) return { kind: 'done', status: 0, out };
	// klog's header as the control-plane programs write it (PID 1 in their container).
	const h = (fileLine: string) => klogHeader('I', wallMs, 1, fileLine);
	const startup: Record<SystemComponent, string[]> = {
		etcd: [`{"level":"info","msg":"starting etcd member","etcd-version":"${image.version}"}`, '{"level":"info","msg":"serving client traffic on 0.0.0.0:2379"}'],
		'kube-apiserver': [`${h('options.go:249')}external host was not specified, using the advertise address`, `${h('server.go:163')}kube-apiserver ${image.version} starting`],
		'kube-controller-manager': [`${h('serving.go:386')}generated a self-signed serving certificate`, `${h('controllermanager.go:199')}kube-controller-manager ${image.version} starting`],
		'kube-scheduler': [`${h('serving.go:386')}generated a self-signed serving certificate`, `${h('server.go:167')}kube-scheduler ${image.version} starting`],
		// kube-proxy's process writes its own start-up lines, which name its mode (network/kube-proxy.ts).
		'kube-proxy': [],
		coredns: ['.:53', `CoreDNS-${image.version}`, 'linux/amd64, go1.24.6'],
	};
	return {
		kind: 'serve',
		out,
		server: {
			name: component,
			ports: COMPONENT_PORTS[component],
			readyAfterMs: component === 'kube-apiserver' ? 2_000 : 500,
			// Go servers handle SIGTERM and stop cleanly. CoreDNS waits out its
			// `lameduck 5s` (kubeadm's Corefile) before exiting.
			onStop: { kind: 'graceful', afterMs: component === 'coredns' ? 5_000 : component === 'kube-apiserver' ? 1_000 : 200, exitCode: 0 },
			startup: startup[component],
			shutdown: component === 'coredns' ? ['[INFO] SIGTERM: Shutting down servers then terminating', '[INFO] plugin/health: Going into lameduck mode for 5s'] : [],
			component,
		},
	};
}

/**
 * The HTTP answer of a server to `GET path`. Conventions for scenario
 * authors: any path starting with `/fail` answers 500 on every simulated
 * server; static-file servers (nginx, httpd, python http.server) answer
 * from their document root (404 for a missing file, 403 for a directory
 * without index.html); other servers answer 200 on every other path.
 */
export function httpAnswer(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, server: ServerSpec, path: string, runningForMs: number): { status: number; bytes: number; body?: string } {
	const clean = path.split('?')[0] || '/';
	if (clean.startsWith('/fail')) return { status: 500, bytes: 0 };
	if (server.healthyForMs !== undefined && clean === '/healthz') return runningForMs < server.healthyForMs ? { status: 200, bytes: 2 } : { status: 500, bytes: 0 };
	if (server.docRoot) {
		const target = normalizePath(`${server.docRoot}/${clean}`, ctx);
		const asDir = listDirectory(image, ctx, files, target);
		if (asDir) {
			const index = readFile(image, ctx, files, `${target}/index.html`);
			if (index !== undefined) return { status: 200, bytes: index.length, body: index };
			return server.accessLog === 'python' ? { status: 200, bytes: 512 } : { status: 403, bytes: 153 };
		}
		const content = readFile(image, ctx, files, target);
		return content === undefined ? { status: 404, bytes: 153 } : { status: 200, bytes: content.length, body: content };
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
		case 'python':
			return `${clientIp} - - [${clfTime(wallMs).replace(/ \+0000$/, '')}] "GET ${path} HTTP/1.1" ${status} -`;
		default:
			return undefined;
	}
}
