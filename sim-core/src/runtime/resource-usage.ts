/**
 * What a container's programs cost the machine: CPU and memory as the
 * cgroup would account them, from what each image does. An idle server
 * (nginx, httpd, redis) uses almost no CPU and a few MiB; the control
 * plane's programs have their steady cost (kube-apiserver tens of
 * millicores and a quarter GiB); `stress --cpu N` burns N cores and
 * `--vm N --vm-bytes B` holds N×B; a server's requests each cost CPU
 * time, most of all php-apache's (`registry.k8s.io/hpa-example`, whose
 * index.php runs a million square roots per request: about 30 ms of one
 * core, so a load generator's 20-odd requests per second ask for about
 * 650m).
 *
 * CPU is a fluid account: idle work and the requests' work queue up and
 * are served at up to the container's CPU limit (its CFS quota), or the
 * node's cores without one; what exceeds the limit waits (throttling) and
 * is dropped past 10 s of backlog, as clients time out. The figures are
 * orders of magnitude seen on small VMs, not measurements.
 *
 * Mirrors nothing upstream: the kernel's cgroup CPU and memory accounting
 * that cAdvisor and containerd read (cpuacct.usage, memory.stat
 * working set), reduced to per-image profiles.
 */
import type { ContainerRecord, ContainerUsageState } from './host-state.ts';

/** What one program costs: its idle CPU (millicores), its working set (bytes), the CPU time of one HTTP request (ms). */
export interface UsageProfile {
	idleMillicores: number;
	workingSetBytes: number;
	cpuPerRequestMs: number;
}

const MI = 1024 * 1024;
/** Working sets are whole pages. */
const page = (bytes: number) => Math.ceil(bytes / 4096) * 4096;

/** The programs' profiles, by the name of the server the main process became (or the program). */
const PROFILES: Record<string, UsageProfile> = {
	nginx: { idleMillicores: 0.2, workingSetBytes: page(3.3 * MI), cpuPerRequestMs: 0.05 },
	httpd: { idleMillicores: 0.6, workingSetBytes: page(7.6 * MI), cpuPerRequestMs: 0.1 },
	'php-apache': { idleMillicores: 0.4, workingSetBytes: page(9.8 * MI), cpuPerRequestMs: 30 },
	redis: { idleMillicores: 2, workingSetBytes: page(3.1 * MI), cpuPerRequestMs: 0.05 },
	postgres: { idleMillicores: 4, workingSetBytes: page(21.5 * MI), cpuPerRequestMs: 0.5 },
	mysql: { idleMillicores: 7, workingSetBytes: page(378 * MI), cpuPerRequestMs: 0.5 },
	python: { idleMillicores: 0.2, workingSetBytes: page(11.2 * MI), cpuPerRequestMs: 0.5 },
	etcd: { idleMillicores: 22, workingSetBytes: page(47.6 * MI), cpuPerRequestMs: 0 },
	'kube-apiserver': { idleMillicores: 48, workingSetBytes: page(243 * MI), cpuPerRequestMs: 0 },
	'kube-controller-manager': { idleMillicores: 14, workingSetBytes: page(45.8 * MI), cpuPerRequestMs: 0 },
	'kube-scheduler': { idleMillicores: 4, workingSetBytes: page(20.7 * MI), cpuPerRequestMs: 0 },
	'kube-proxy': { idleMillicores: 1, workingSetBytes: page(16.9 * MI), cpuPerRequestMs: 0 },
	coredns: { idleMillicores: 2, workingSetBytes: page(13.8 * MI), cpuPerRequestMs: 0 },
	'metrics-server': { idleMillicores: 4, workingSetBytes: page(18.9 * MI), cpuPerRequestMs: 0 },
	// The Pod network's daemons, idle on a small cluster: flanneld a few MiB, calico-node (Felix, BIRD, confd) far more.
	flanneld: { idleMillicores: 3, workingSetBytes: page(13.2 * MI), cpuPerRequestMs: 0 },
	'calico-node': { idleMillicores: 28, workingSetBytes: page(118 * MI), cpuPerRequestMs: 0 },
	'calico-kube-controllers': { idleMillicores: 2, workingSetBytes: page(19.6 * MI), cpuPerRequestMs: 0 },
};

/** A shell, `sleep`, agnhost or anything else that mostly waits. */
const WAITING: UsageProfile = { idleMillicores: 0, workingSetBytes: page(0.45 * MI), cpuPerRequestMs: 0.05 };

/** Without a CPU limit a container may use the node's cores; the simulated machines have two. */
const UNLIMITED_MILLICORES = 2_000;
/** Work older than this is dropped: clients gave up waiting. */
const MAX_BACKLOG_NS = 10_000 * 1e6;

/** `150M`, `1G` (stress's sizes, powers of 1024), in bytes. */
function stressSize(text: string | undefined): number {
	const m = /^(\d+)([bkmgBKMG]?)$/.exec(text ?? '256M');
	if (!m) return 256 * MI;
	return Number(m[1]) * ({ '': 1, b: 1, k: 1024, m: MI, g: 1024 * MI }[m[2].toLowerCase()] ?? 1);
}

function flag(argv: string[], names: string[]): string | undefined {
	for (let i = 0; i < argv.length; i++) {
		if (names.includes(argv[i])) return argv[i + 1];
		for (const n of names) if (argv[i].startsWith(`${n}=`)) return argv[i].slice(n.length + 1);
	}
	return undefined;
}

/** A container's own spread around its program's figures (0.85..1.15), fixed by its id: no two replicas read exactly alike. */
function spread(id: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
	return 0.85 + (h % 301) / 1000;
}

/** The profile of a running container, with its own spread. */
export function profileOf(c: ContainerRecord): UsageProfile {
	const base = baseProfileOf(c);
	const f = spread(c.id);
	// stress holds what it was told to, to the page: only its CPU varies.
	const memory = c.program?.serving?.server.name === 'stress' ? base.workingSetBytes : page(base.workingSetBytes * f);
	return { idleMillicores: base.idleMillicores * f, workingSetBytes: memory, cpuPerRequestMs: base.cpuPerRequestMs };
}

/** The program's profile: its server's, stress's from its arguments (stress holds exactly what it is told), or a waiting program's. */
function baseProfileOf(c: ContainerRecord): UsageProfile {
	const server = c.program?.serving?.server.name;
	if (c.imageRef.includes('hpa-example')) return PROFILES['php-apache'];
	if (server === 'stress') {
		const argv = c.ctx.argv;
		const hogs = Number(flag(argv, ['--cpu', '-c']) ?? 0) || 0;
		const vm = Number(flag(argv, ['--vm', '-m']) ?? 0) || 0;
		return { idleMillicores: hogs * 1000, workingSetBytes: page(vm * stressSize(flag(argv, ['--vm-bytes'])) + 1.2 * MI), cpuPerRequestMs: 0 };
	}
	if (server && PROFILES[server]) return PROFILES[server];
	if (server?.startsWith('agnhost')) return { idleMillicores: 0.3, workingSetBytes: page(7.1 * MI), cpuPerRequestMs: 0.05 };
	return WAITING;
}

/**
 * A few hundred nanoseconds more or less in each accrual, drawn from the
 * container and the instant (no random stream moves): a real cgroup's
 * usage counter is never a round number of microseconds, so metrics-server's
 * nanocore figures end in `n` (`148917482n`), not in a rounded `u`.
 */
function subMicrosecond(id: string, nowMs: number): number {
	let h = 2166136261;
	const key = `${id}@${nowMs}`;
	for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619) >>> 0;
	return h % 1000;
}

/** The container's account, brought up to `nowMs`: idle work and queued requests served at up to its CPU limit. */
export function accrue(c: ContainerRecord, nowMs: number): ContainerUsageState {
	const startMs = c.startedMs ?? nowMs;
	const usage = (c.usage ??= { cpuNanos: 0, backlogNanos: 0, atMs: startMs, requests: 0 });
	const dtMs = nowMs - usage.atMs;
	if (dtMs <= 0) return usage;
	const profile = profileOf(c);
	const limit = c.ctx.cpuLimitMillis ?? UNLIMITED_MILLICORES;
	// 1 millicore for 1 ms is 1,000 ns of CPU time.
	const capacity = limit * dtMs * 1e3;
	const idle = Math.min(profile.idleMillicores * dtMs * 1e3, capacity);
	const served = Math.min(usage.backlogNanos, capacity - idle);
	usage.cpuNanos += Math.round(idle + served) + (idle + served > 0 ? subMicrosecond(c.id, nowMs) : 0);
	usage.backlogNanos -= served;
	usage.atMs = nowMs;
	return usage;
}

/**
 * One HTTP request reached the container's server: its CPU time joins the
 * queue. Returns how long the answer takes (ms): the request's own CPU time,
 * or, when the container is throttled, the time its queue needs at the CPU
 * limit (what a client such as wget waits before its next request).
 */
export function recordRequest(c: ContainerRecord, nowMs: number): number {
	const usage = accrue(c, nowMs);
	usage.requests++;
	const cost = profileOf(c).cpuPerRequestMs;
	usage.backlogNanos = Math.min(MAX_BACKLOG_NS, usage.backlogNanos + cost * 1e6);
	const limit = c.ctx.cpuLimitMillis ?? UNLIMITED_MILLICORES;
	return Math.max(cost, usage.backlogNanos / (limit * 1e3));
}
