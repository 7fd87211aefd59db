/**
 * One machine's process table and sockets, built from the simulation's
 * state each time a tool asks (host/proc.ts is the shape):
 *
 * - what every Ubuntu 24.04 server runs from boot: systemd (PID 1, as
 *   `/sbin/init`), a few kernel threads, journald, udevd, networkd,
 *   resolved, timesyncd, cron, dbus, logind, rsyslogd, the console getty
 *   and sshd (socket-activated: ssh.socket holds port 22 with it), then
 *   the reader's login (`sshd: root@pts/0`, `-bash`) and the command
 *   being run, with the other commands of its pipeline (`ps aux | grep
 *   kubelet` shows the grep);
 * - containerd and the kubelet while their units run (the kubelet's command
 *   line is its unit's ExecStart with kubeadm's drop-in and flags file, as
 *   systemctl status shows it), with their PIDs from the unit records;
 * - per ready pod sandbox its shim (`containerd-shim-runc-v2 -namespace
 *   k8s.io -id <sandbox> -address /run/containerd/containerd.sock`, which
 *   outlives containerd: KillMode=process) and `/pause`; per running
 *   container its main process, child of the shim, with the command line
 *   the kubelet gave it (`$(VAR)` references expanded from its
 *   environment, as the kubelet does) and nginx's rewritten title.
 *   kube-proxy, CoreDNS and the control plane are such containers.
 *
 * A container that exited, a stopped unit, a powered-off machine: no
 * process. CPU time and memory come from the runtime's usage model
 * (runtime/resource-usage.ts, read without advancing it) and from the
 * systemctl figures for the two daemons; the base system's are fixed
 * figures of an idle server.
 *
 * Sockets are those of the node's network namespace: the daemons' and the
 * host-network containers' listeners (the control plane's and
 * kube-proxy's ports as kubeadm configures them), the long-lived
 * connections to the API server (each node's kubelet and kube-proxy, the
 * control plane's controller-manager and scheduler, the API server's own
 * to etcd) while both ends run, and the reader's ssh connection. A Pod
 * with its own network namespace (CoreDNS, the reader's Pods) holds
 * nothing here. Ephemeral ports are stable per connection and node.
 *
 * Mirrors nothing upstream: the simulator's wiring of a machine's process
 * table and sockets (the commands and ports follow
 * cmd/kubeadm/app/phases/controlplane/manifests.go,
 * cmd/kubeadm/app/phases/etcd/local.go and the kubelet's and kube-proxy's
 * defaults: pkg/cluster/ports/ports.go).
 */
import type { CommandContext } from '../shell/index.ts';
import { commOf, pidAt, stableHash, type ProcessEntry, type SocketEntry } from '../host/proc.ts';
import { execStart, UNITS } from '../host/systemd/units.ts';
import { cpuMs } from '../host/systemd/journal.ts';
import { memoryBytes } from '../tools/systemd/systemctl.ts';
import { accrue, profileOf } from '../runtime/resource-usage.ts';
import type { ContainerRecord } from '../runtime/host-state.ts';
import { parseQuantity } from '../api/quantity.ts';
import type { NodeHost } from './node-host.ts';
import type { ToolsContext } from './wiring.ts';

const KB = 1024;

/** The reader's workstation, the other end of the ssh session. */
const WORKSTATION_IP = '192.168.56.1';

interface BaseProcess {
	pid: number;
	comm: string;
	argv: string[];
	user: string;
	uid: number;
	rssKb: number;
	vszKb: number;
	state?: ProcessEntry['state'];
	threads?: number;
	tty?: string;
	nice?: number;
	foreground?: boolean;
	session?: boolean;
	/** CPU time over a day of uptime, ms (scaled to the uptime). */
	cpuPerDayMs?: number;
}

/** An idle Ubuntu 24.04 server's own processes (PIDs as a boot hands them out, before containerd's 600). */
const BASE: BaseProcess[] = [
	{ pid: 1, comm: 'systemd', argv: ['/sbin/init'], user: 'root', uid: 0, rssKb: 13_312, vszKb: 22_604, session: true, cpuPerDayMs: 60_000 },
	{ pid: 2, comm: 'kthreadd', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0 },
	{ pid: 3, comm: 'pool_workqueue_release', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0 },
	{ pid: 14, comm: 'ksoftirqd/0', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0, cpuPerDayMs: 9_000 },
	{ pid: 15, comm: 'rcu_preempt', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0, state: 'I', cpuPerDayMs: 20_000 },
	{ pid: 16, comm: 'migration/0', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0 },
	{ pid: 21, comm: 'migration/1', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0 },
	{ pid: 22, comm: 'ksoftirqd/1', argv: [], user: 'root', uid: 0, rssKb: 0, vszKb: 0, cpuPerDayMs: 8_000 },
	{ pid: 338, comm: 'systemd-journal', argv: ['/usr/lib/systemd/systemd-journald'], user: 'root', uid: 0, rssKb: 16_640, vszKb: 50_480, session: true, nice: -1, cpuPerDayMs: 20_000 },
	{ pid: 393, comm: 'systemd-udevd', argv: ['/usr/lib/systemd/systemd-udevd'], user: 'root', uid: 0, rssKb: 8_192, vszKb: 25_308, session: true, cpuPerDayMs: 2_000 },
	{ pid: 512, comm: 'systemd-network', argv: ['/usr/lib/systemd/systemd-networkd'], user: 'systemd-network', uid: 998, rssKb: 8_704, vszKb: 19_040, session: true, cpuPerDayMs: 3_000 },
	{ pid: 515, comm: 'systemd-resolve', argv: ['/usr/lib/systemd/systemd-resolved'], user: 'systemd-resolve', uid: 991, rssKb: 12_800, vszKb: 21_512, session: true, cpuPerDayMs: 3_000 },
	{ pid: 518, comm: 'systemd-timesyn', argv: ['/usr/lib/systemd/systemd-timesyncd'], user: 'systemd-timesync', uid: 996, rssKb: 7_424, vszKb: 91_024, session: true, threads: 2 },
	{ pid: 540, comm: 'cron', argv: ['/usr/sbin/cron', '-f', '-P'], user: 'root', uid: 0, rssKb: 2_688, vszKb: 6_824, session: true },
	{ pid: 541, comm: 'dbus-daemon', argv: ['@dbus-daemon', '--system', '--address=systemd:', '--nofork', '--nopidfile', '--systemd-activation', '--syslog-only'], user: 'messagebus', uid: 101, rssKb: 5_120, vszKb: 9_772, session: true },
	{ pid: 548, comm: 'systemd-logind', argv: ['/usr/lib/systemd/systemd-logind'], user: 'root', uid: 0, rssKb: 7_680, vszKb: 17_980, session: true },
	{ pid: 552, comm: 'rsyslogd', argv: ['/usr/sbin/rsyslogd', '-n', '-iNONE'], user: 'syslog', uid: 102, rssKb: 5_376, vszKb: 222_508, session: true, threads: 4 },
	{ pid: 570, comm: 'agetty', argv: ['/sbin/agetty', '-o', '-p', '--', '\\u', '--noclear', '-', 'linux'], user: 'root', uid: 0, rssKb: 2_048, vszKb: 6_176, tty: 'tty1', session: true, foreground: true },
	{ pid: 575, comm: 'sshd', argv: ['sshd: /usr/sbin/sshd -D [listener] 0 of 10-100 startups'], user: 'root', uid: 0, rssKb: 8_064, vszKb: 12_020, session: true },
];

/** Images whose processes run as a user of their own (their Dockerfile's USER): CoreDNS's distroless nonroot, metrics-server's manifest, pause. */
const IMAGE_USERS: Array<[RegExp, number]> = [
	[/coredns/, 65532],
	[/metrics-server/, 1000],
];
const PAUSE_UID = 65535;

/** The listening sockets of a control-plane component or kube-proxy, as kubeadm configures them (Go listeners: backlog 4096; `*` is a dual-stack wildcard). */
function componentListeners(component: string, nodeIp: string): Array<Pick<SocketEntry, 'localIp' | 'localPort'>> {
	switch (component) {
		case 'kube-apiserver':
			return [{ localIp: '*', localPort: 6443 }];
		case 'etcd':
			return [
				{ localIp: '127.0.0.1', localPort: 2379 },
				{ localIp: nodeIp, localPort: 2379 },
				{ localIp: nodeIp, localPort: 2380 },
				{ localIp: '127.0.0.1', localPort: 2381 },
			];
		case 'kube-scheduler':
			return [{ localIp: '127.0.0.1', localPort: 10259 }];
		case 'kube-controller-manager':
			return [{ localIp: '127.0.0.1', localPort: 10257 }];
		case 'kube-proxy':
			return [
				{ localIp: '127.0.0.1', localPort: 10249 },
				{ localIp: '*', localPort: 10256 },
			];
		default:
			return [];
	}
}

/** `$(VAR)` in a container's command, expanded from its environment as the kubelet does (expansion.Expand); `$$` is a literal `$`. */
function expand(arg: string, env: ReadonlyArray<{ name: string; value: string }>): string {
	return arg.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, name: string | undefined) => {
		if (whole === '$$') return '$';
		const found = env.find((e) => e.name === name);
		return found ? found.value : whole;
	});
}

/** What the container's main process shows as its command line: entrypoint scripts exec their arguments; nginx retitles its master. */
function containerArgv(c: ContainerRecord): string[] {
	let argv = c.ctx.argv.map((a) => expand(a, c.ctx.env));
	if (/docker-entrypoint\.sh$/.test(argv[0] ?? '') && argv.length > 1) argv = argv.slice(1);
	if (argv[0] === 'nginx' || argv[0]?.endsWith('/nginx')) return [`nginx: master process ${argv.join(' ')}`];
	return argv.length ? argv : ['/pause'];
}

/** comm of a process whose argv[0] may be a rewritten title. */
function commFor(argv: string[]): string {
	const first = argv[0] ?? '';
	if (first.startsWith('nginx: ')) return 'nginx';
	if (first.startsWith('sshd: ')) return 'sshd';
	return commOf(first.replace(/^[@-]/, ''));
}

/** Ephemeral port for a long-lived connection, stable per node and purpose. */
function ephemeral(node: string, key: string): number {
	return 32_768 + (stableHash(`${node}/${key}`) % 28_232);
}

export interface NodeProcessView {
	processes(ctx?: CommandContext): ProcessEntry[];
	sockets(): SocketEntry[];
	memTotalKb(): number;
	/** The long-lived connections, for conntrack's table (the daemons' watches). */
	connections(): Array<{ src: string; sport: number; dst: string; dport: number; replySrc: string; replyDport: number }>;
}

/** The process table and sockets of `host`, in the cluster `cluster`. */
export function nodeProcesses(cluster: ToolsContext, host: NodeHost): NodeProcessView {
	const cp = cluster.hosts.get(cluster.controlPlaneNode)!;
	const bootWallMs = () => host.boots[host.boots.length - 1]?.startWallMs ?? cluster.kernel.epochMs;
	const memTotalKb = () => Math.floor((parseQuantity(host.options.memory).value() / KB) * 0.955);

	/** Running containers, with their sandbox. */
	const running = () => Object.values(host.runtimeState.containers).filter((c) => c.state === 'CONTAINER_RUNNING' && host.runtimeState.sandboxes[c.sandboxId]?.state === 'SANDBOX_READY');
	const componentOf = (c: ContainerRecord) => c.component ?? (c.name === 'kube-proxy' ? 'kube-proxy' : undefined);
	const apiServerUp = () => !cp.poweredOff && Object.values(cp.runtimeState.containers).some((c) => c.state === 'CONTAINER_RUNNING' && c.component === 'kube-apiserver');

	function daemonProcesses(nowWall: number): ProcessEntry[] {
		const out: ProcessEntry[] = [];
		const boot = bootWallMs();
		const uptimeS = Math.max(1, (nowWall - boot) / 1000);
		for (const b of BASE) {
			out.push({
				pid: b.pid,
				ppid: b.pid === 1 || b.pid === 2 ? 0 : b.argv.length ? 1 : 2,
				uid: b.uid,
				user: b.user,
				comm: b.comm,
				argv: b.argv,
				startWallMs: boot,
				cpuMs: Math.round(((b.cpuPerDayMs ?? 500) * uptimeS) / 86_400),
				rssKb: b.rssKb,
				vszKb: b.vszKb,
				tty: b.tty ?? '?',
				state: b.state ?? (b.argv.length ? 'S' : 'S'),
				nice: b.nice,
				sessionLeader: b.session,
				threads: b.threads ?? 1,
				foreground: b.foreground,
			});
		}
		const containerd = host.runtimeState.service;
		if (containerd.active) {
			const items = running().length;
			out.push({ pid: containerd.mainPid, ppid: 1, uid: 0, user: 'root', comm: 'containerd', argv: execStart(host.fs, UNITS.containerd).argv, startWallMs: containerd.sinceWallMs, cpuMs: cpuMs('containerd', nowWall - containerd.sinceWallMs), rssKb: Math.round(memoryBytes('containerd', items) / KB), vszKb: 1_872_424, tty: '?', state: 'S', sessionLeader: true, threads: 9 });
		}
		const kubelet = host.kubeletState.service;
		if (kubelet.active) {
			const pods = Object.keys(host.runtimeState.sandboxes).length;
			out.push({ pid: kubelet.mainPid, ppid: 1, uid: 0, user: 'root', comm: 'kubelet', argv: execStart(host.fs, UNITS.kubelet).argv, startWallMs: kubelet.sinceWallMs, cpuMs: cpuMs('kubelet', nowWall - kubelet.sinceWallMs), rssKb: Math.round(memoryBytes('kubelet', pods) / KB), vszKb: 2_133_856, tty: '?', state: 'S', sessionLeader: true, threads: 13 });
		}
		return out;
	}

	function podProcesses(nowMs: number): ProcessEntry[] {
		const out: ProcessEntry[] = [];
		const boot = bootWallMs();
		const epoch = cluster.kernel.epochMs;
		const shimPids = new Map<string, number>();
		for (const s of Object.values(host.runtimeState.sandboxes)) {
			if (s.state !== 'SANDBOX_READY') continue;
			const shim = pidAt(s.createdWallMs - boot, `shim/${s.id}`);
			shimPids.set(s.id, shim);
			out.push({ pid: shim, ppid: 1, uid: 0, user: 'root', comm: 'containerd-shim', argv: ['/usr/bin/containerd-shim-runc-v2', '-namespace', 'k8s.io', '-id', s.id, '-address', '/run/containerd/containerd.sock'], startWallMs: s.createdWallMs, cpuMs: Math.round((nowMs + epoch - s.createdWallMs) * 0.0004), rssKb: 6_144 + (stableHash(s.id) % 2_048), vszKb: 1_238_148, tty: '?', state: 'S', threads: 10 });
			out.push({ pid: shim + 20, ppid: shim, uid: PAUSE_UID, user: String(PAUSE_UID), comm: 'pause', argv: ['/pause'], startWallMs: s.createdWallMs, cpuMs: 0, rssKb: 512 + (stableHash(s.id) % 512), vszKb: 996, tty: '?', state: 'S', sessionLeader: true, threads: 1 });
		}
		for (const c of running()) {
			const shim = shimPids.get(c.sandboxId);
			if (shim === undefined) continue;
			const startWall = epoch + (c.startedMs ?? c.createdMs);
			// The usage account, read from a copy: looking must not move it.
			const usage = accrue({ ...c, usage: c.usage ? { ...c.usage } : undefined }, nowMs);
			const argv = containerArgv(c);
			const uid = IMAGE_USERS.find(([re]) => re.test(c.image))?.[1] ?? 0;
			const rssKb = Math.round(profileOf(c).workingSetBytes / KB);
			const go = !!componentOf(c) || /coredns|metrics-server|agnhost/.test(c.image);
			out.push({
				pid: Math.max(shim + 21, pidAt(startWall - boot, `container/${c.id}`)),
				ppid: shim,
				uid,
				user: uid === 0 ? 'root' : String(uid),
				comm: commFor(argv),
				argv,
				startWallMs: startWall,
				cpuMs: Math.round(usage.cpuNanos / 1e6),
				rssKb,
				vszKb: go ? 1_280_000 + rssKb : Math.round(rssKb * 2.4 + 2_000),
				tty: '?',
				state: 'S',
				sessionLeader: true,
				threads: go ? 8 + (stableHash(c.id) % 6) : 1,
			});
		}
		return out;
	}

	/** The reader's login and the command being run, with the rest of its pipeline. */
	function sessionProcesses(nowWall: number, ctx?: CommandContext): ProcessEntry[] {
		const boot = bootWallMs();
		// The reader is taken to have logged in half a minute after the machine booted (a stand-in: the shell keeps no login time).
		const login = Math.min(nowWall, boot + 30_000);
		const sshd = pidAt(login - boot, 'sshd-session');
		const out: ProcessEntry[] = [
			{ pid: sshd, ppid: 575, uid: 0, user: 'root', comm: 'sshd', argv: ['sshd: root@pts/0'], startWallMs: login, cpuMs: 40, rssKb: 11_264, vszKb: 14_800, tty: '?', state: 'S', sessionLeader: true, threads: 1 },
			{ pid: sshd + 2, ppid: sshd, uid: 0, user: 'root', comm: 'bash', argv: ['-bash'], startWallMs: login, cpuMs: 20, rssKb: 5_376, vszKb: 8_836, tty: 'pts/0', state: 'S', sessionLeader: true, threads: 1 },
		];
		if (!ctx) return out;
		// The command and its pipeline: forked by bash, one after the other, now.
		const stages = ctx.shell.pipelineCommands() ?? [ctx.argv];
		const self = pidAt(nowWall - boot, `cmd/${cluster.kernel.nowMs}`);
		const at = Math.max(0, stages.findIndex((argv) => argv[0] === ctx.argv[0]));
		stages.forEach((argv, i) => {
			const isSelf = i === at;
			const shown = isSelf ? ctx.argv : argv;
			out.push({ pid: Math.max(sshd + 3, self) + i, ppid: sshd + 2, uid: 0, user: 'root', comm: commOf(shown[0] ?? ''), argv: shown, startWallMs: nowWall, cpuMs: 0, rssKb: isSelf ? 4_224 : 2_304, vszKb: isSelf ? 11_324 : 6_476, tty: 'pts/0', state: isSelf ? 'R' : 'S', foreground: true, threads: 1 });
		});
		return out;
	}

	const view: NodeProcessView = {
		memTotalKb,
		processes(ctx) {
			if (host.poweredOff) return [];
			const nowWall = cluster.kernel.wallMs();
			const all = [...daemonProcesses(nowWall), ...podProcesses(cluster.kernel.nowMs), ...sessionProcesses(nowWall, ctx)];
			// Two processes the formula put on one PID: the later one takes the next free number.
			const taken = new Set<number>();
			for (const p of all.sort((a, b) => a.startWallMs - b.startWallMs || a.pid - b.pid)) {
				while (taken.has(p.pid)) p.pid++;
				taken.add(p.pid);
			}
			return all;
		},
		sockets() {
			if (host.poweredOff) return [];
			const procs = view.processes();
			const byComm = (comm: string) => procs.find((p) => p.comm === comm);
			const out: SocketEntry[] = [];
			const listen = (proto: 'tcp' | 'udp', localIp: string, localPort: number, users: SocketEntry['users'], extra: Partial<SocketEntry> = {}) =>
				out.push({ proto, state: proto === 'tcp' ? 'LISTEN' : 'UNCONN', localIp, localPort, peerIp: localIp === '*' ? '*' : localIp.includes(':') ? '::' : '0.0.0.0', peerPort: 0, recvQ: 0, sendQ: proto === 'tcp' ? 4096 : 0, users, ...extra });
			const resolved = byComm('systemd-resolve')!;
			for (const proto of ['udp', 'tcp'] as const) {
				listen(proto, '127.0.0.53', 53, [{ comm: resolved.comm, pid: resolved.pid, fd: proto === 'udp' ? 13 : 14 }], { localIface: 'lo' });
				listen(proto, '127.0.0.54', 53, [{ comm: resolved.comm, pid: resolved.pid, fd: proto === 'udp' ? 15 : 16 }]);
			}
			// ssh.socket: systemd holds the listeners and hands them to sshd.
			const sshd = byComm('sshd')!;
			listen('tcp', '0.0.0.0', 22, [{ comm: 'sshd', pid: sshd.pid, fd: 3 }, { comm: 'systemd', pid: 1, fd: 98 }]);
			listen('tcp', '::', 22, [{ comm: 'sshd', pid: sshd.pid, fd: 4 }, { comm: 'systemd', pid: 1, fd: 99 }]);
			const containerd = byComm('containerd');
			if (containerd) listen('tcp', '127.0.0.1', ephemeral(host.name, 'cri-stream'), [{ comm: 'containerd', pid: containerd.pid, fd: 10 }]);
			const kubelet = byComm('kubelet');
			if (kubelet) {
				listen('tcp', '127.0.0.1', 10248, [{ comm: 'kubelet', pid: kubelet.pid, fd: 24 }]);
				listen('tcp', '*', 10250, [{ comm: 'kubelet', pid: kubelet.pid, fd: 22 }]);
			}
			// Host-network containers' listeners: the control plane's and kube-proxy's ports, or the ports the program serves.
			for (const c of running()) {
				const sandbox = host.runtimeState.sandboxes[c.sandboxId];
				if (!sandbox?.hostNetwork) continue;
				const proc = procs.find((p) => p.ppid !== 1 && p.argv.join(' ') === containerArgv(c).join(' ') && p.startWallMs === cluster.kernel.epochMs + (c.startedMs ?? c.createdMs));
				if (!proc) continue;
				const component = componentOf(c);
				const ports = component ? componentListeners(component, host.ip) : (c.program?.serving?.server.ports ?? []).map((p) => ({ localIp: '0.0.0.0', localPort: p.port }));
				ports.forEach((p, i) => listen('tcp', p.localIp, p.localPort, [{ comm: proc.comm, pid: proc.pid, fd: 3 + i * 2 + (component === 'etcd' ? 4 : 0) }]));
			}
			for (const conn of connections()) {
				const owner = procs.find((p) => p.pid === conn.pid);
				if (!owner) continue;
				out.push({ proto: 'tcp', state: 'ESTAB', localIp: conn.localIp, localPort: conn.localPort, peerIp: conn.peerIp, peerPort: conn.peerPort, recvQ: 0, sendQ: 0, users: [{ comm: owner.comm, pid: owner.pid, fd: conn.fd }] });
			}
			return out;
		},
		connections() {
			return connections()
				.filter((c) => c.outbound)
				.map((c) => ({ src: c.localIp.replace(/^::ffff:/, ''), sport: c.localPort, dst: c.peerIp.replace(/^::ffff:/, ''), dport: c.peerPort, replySrc: c.peerIp.replace(/^::ffff:/, ''), replyDport: c.localPort }));
		},
	};

	/** The long-lived TCP connections of this node (both ends, where they are here). */
	function connections(): Array<{ pid: number; fd: number; localIp: string; localPort: number; peerIp: string; peerPort: number; outbound: boolean }> {
		if (host.poweredOff) return [];
		const out: Array<{ pid: number; fd: number; localIp: string; localPort: number; peerIp: string; peerPort: number; outbound: boolean }> = [];
		const procs = view.processes();
		const mine = (comm: string) => procs.find((p) => p.comm === comm);
		const sshd = procs.find((p) => p.argv[0] === 'sshd: root@pts/0');
		if (sshd) out.push({ pid: sshd.pid, fd: 4, localIp: host.ip, localPort: 22, peerIp: WORKSTATION_IP, peerPort: ephemeral(host.name, 'ssh'), outbound: false });
		if (!apiServerUp() || cluster.isPartitioned(host.name) || cluster.isPartitioned(cp.name)) return out;
		const local = host === cp;
		const apiIp = local ? cp.ip : cp.ip;
		const clients: Array<[string, number]> = [
			['kubelet', 20],
			['kube-proxy', 7],
		];
		if (local) clients.push(['kube-controller', 7], ['kube-scheduler', 7]);
		for (const [comm, fd] of clients) {
			const p = mine(comm);
			if (!p) continue;
			const port = ephemeral(host.name, `api/${comm}`);
			out.push({ pid: p.pid, fd, localIp: host.ip, localPort: port, peerIp: apiIp, peerPort: 6443, outbound: true });
		}
		if (local) {
			const api = mine('kube-apiserver');
			const etcd = mine('etcd');
			if (api) {
				// The API server's accepted side of every node's clients (a dual-stack listener: v4-mapped addresses).
				let fd = 40;
				for (const other of cluster.hosts.values()) {
					if (other.poweredOff || cluster.isPartitioned(other.name)) continue;
					const theirs: string[] = ['kubelet', 'kube-proxy'];
					if (other === cp) theirs.push('kube-controller', 'kube-scheduler');
					const running = other === host ? procs : nodeProcesses(cluster, other).processes();
					for (const comm of theirs) {
						if (!running.some((p) => p.comm === comm)) continue;
						out.push({ pid: api.pid, fd: fd++, localIp: `::ffff:${cp.ip}`, localPort: 6443, peerIp: `::ffff:${other.ip}`, peerPort: ephemeral(other.name, `api/${comm}`), outbound: false });
					}
				}
				if (etcd) {
					const port = ephemeral(host.name, 'etcd-client');
					out.push({ pid: api.pid, fd: 8, localIp: '127.0.0.1', localPort: port, peerIp: '127.0.0.1', peerPort: 2379, outbound: true });
					out.push({ pid: etcd.pid, fd: 12, localIp: '127.0.0.1', localPort: 2379, peerIp: '127.0.0.1', peerPort: port, outbound: false });
				}
			}
		}
		return out;
	}

	return view;
}

