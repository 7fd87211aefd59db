/**
 * Cluster DNS, wired: CoreDNS's servers (one per running `coredns`
 * container) answering the queries that reach them through the nodes'
 * rules, and the query path of every machine and Pod.
 *
 * - A query from a Pod or a node goes to its nameserver's address on UDP
 *   53 through the node's rules (kube-proxy DNATs 10.96.0.10 to a ready
 *   CoreDNS Pod); it lands on a CoreDNS container that listens there, or is
 *   refused (ICMP port unreachable: a REJECT rule for a DNS Service without
 *   endpoints, or a Pod with no DNS server), or gets no answer.
 * - Each server answers from its loaded Corefile (../coredns/server.ts)
 *   and what the API holds (its informers' view), and writes its log and
 *   errors lines to its own container's log.
 * - The reload plugin: every server looks at its mounted Corefile on its
 *   own schedule (interval and jitter from `reload`, 30 s ± 15 s by
 *   default); a changed file is loaded and logged, a broken one is logged
 *   and the running configuration kept. The ConfigMap's edit reaches the
 *   file when the kubelet remounts the volume (its sync, every minute).
 * - Outside names go to the nodes' upstream (systemd-resolved's file,
 *   192.168.56.1), which this offline lab does not answer: forward fails
 *   after its read timeout and the client gets SERVFAIL.
 *
 * Mirrors nothing upstream: the simulator's wiring of CoreDNS to the
 * network and the API (coredns/coredns plugin/reload/reload.go is followed
 * for the reload schedule and its log lines).
 */
import { parseCorefile, type ServerBlock } from '../coredns/corefile.ts';
import type { ClusterView } from '../coredns/kubernetes.ts';
import type { DnsQuestion, DnsReply } from '../coredns/message.ts';
import { serveQuery, type UpstreamResult } from '../coredns/server.ts';
import { sha512Hex } from '../golang/sha512.ts';
import { utf8Encode } from '../golang/utf8.ts';
import type { ConnectSource } from '../network/service-traffic.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import type { KubeObject } from '../api/types.ts';
import { clusterConnect } from './node-network.ts';
import type { NetworkContext } from './wiring.ts';

/** Where kubeadm's Deployment mounts the Corefile. */
const COREFILE_PATH = '/etc/coredns/Corefile';
/** How often the servers' reload checks are looked at: the jitter's size, so each check lands within its window. */
const RELOAD_TICK_MS = 5_000;

interface ServerState {
	node: string;
	ip: string;
	/** The Corefile the server runs, and its digest. */
	corefile: string;
	sha: string;
	nextCheckMs: number;
	/** The reload plugin's period for the configuration it runs: interval ± half the jitter, drawn once per load. */
	periodMs: number;
	rotation: number;
	/** The last broken Corefile it refused, so it is logged once. */
	refusedSha?: string;
}

interface CoreDnsState {
	servers: Record<string, ServerState>;
	/** The number of the tick chain's next event: a chain started again over a restored snapshot is told apart and dropped. */
	tick: number;
}

/** A DNS exchange as the tools see it. */
export type DnsExchange = { kind: 'reply'; reply: DnsReply } | { kind: 'timeout' } | { kind: 'refused' };

/** The CoreDNS servers of the cluster, their reload checks and their answers. */
export class CoreDnsServers extends ProcessBase<CoreDnsState> {
	constructor(
		kernel: Kernel,
		private readonly cluster: NetworkContext,
	) {
		super('coredns-servers', kernel);
	}

	freshState(): CoreDnsState {
		return { servers: {}, tick: 0 };
	}

	onStart(): void {
		// The chain starts with the cluster; over a restored snapshot (virtual time already running) the restored queue carries it on.
		if (this.nowMs === 0) this.periodic(RELOAD_TICK_MS, 'reload-check', this.state.tick);
	}

	handle(event: QueuedEvent): void {
		if (event.kind !== 'reload-check' || event.payload !== this.state.tick) return;
		this.checkReloads();
		this.state.tick++;
		this.periodic(RELOAD_TICK_MS, 'reload-check', this.state.tick);
	}

	/** Every running CoreDNS container: its node, id and address. */
	private running(): Array<{ node: string; id: string; ip: string; sinceMs: number; listens(port: number): boolean }> {
		const out: Array<{ node: string; id: string; ip: string; sinceMs: number; listens(port: number): boolean }> = [];
		for (const host of this.cluster.hosts.values()) {
			if (host.poweredOff) continue;
			for (const c of host.runtime.componentContainers('coredns')) out.push({ node: host.name, id: c.id, ip: c.ip, sinceMs: c.servingSinceMs, listens: c.listens });
		}
		return out;
	}

	private readCorefile(node: string, id: string): string | undefined {
		return this.cluster.hosts.get(node)?.runtime.containerFile(id, COREFILE_PATH);
	}

	/** The server state of a container, registered with the Corefile it started with. */
	private server(node: string, id: string, ip: string): ServerState {
		let s = this.state.servers[id];
		if (!s) {
			const corefile = this.readCorefile(node, id) ?? '';
			s = { node, ip, corefile, sha: sha512Hex(utf8Encode(corefile)), nextCheckMs: 0, periodMs: 0, rotation: 0 };
			this.loaded(s);
			this.state.servers[id] = s;
		}
		return s;
	}

	private config(s: ServerState): ServerBlock[] {
		const parsed = parseCorefile(s.corefile, COREFILE_PATH);
		return parsed.ok ? parsed.servers : [];
	}

	/**
	 * A configuration was loaded: reload/setup.go draws the period it checks
	 * the file with once, the interval moved by up to half the jitter either
	 * way (30 s ± 7.5 s by default), and keeps it until the next load.
	 */
	private loaded(s: ServerState): void {
		const reload = this.config(s).find((b) => b.reload)?.reload;
		s.periodMs = reload ? reload.intervalMs + Math.round((this.rng.float() - 0.5) * reload.jitterMs) : 0;
		s.nextCheckMs = reload ? this.nowMs + s.periodMs : Number.POSITIVE_INFINITY;
	}

	private checkReloads(): void {
		const alive = new Set<string>();
		for (const c of this.running()) {
			alive.add(c.id);
			const s = this.server(c.node, c.id, c.ip);
			if (this.nowMs < s.nextCheckMs) continue;
			const text = this.readCorefile(c.node, c.id);
			const sha = text === undefined ? s.sha : sha512Hex(utf8Encode(text));
			if (text !== undefined && sha !== s.sha && sha !== s.refusedSha) {
				const parsed = parseCorefile(text, COREFILE_PATH);
				const runtime = this.cluster.hosts.get(c.node)!.runtime;
				const log = (line: string) => runtime.appendContainerLog(c.id, 'stdout', line);
				if (!parsed.ok && parsed.kind === 'syntax') {
					// reload.go parses the file before it restarts anything: a syntax error is only a warning.
					log(`[WARNING] plugin/reload: Corefile parse failed: ${parsed.error}`);
					s.refusedSha = sha;
				} else if (!parsed.ok) {
					// The restart builds the servers and fails; the running ones stay.
					log(`[ERROR] Restart failed: ${parsed.error}`);
					log(`[ERROR] plugin/reload: Corefile changed but reload failed: ${parsed.error}`);
					s.refusedSha = sha;
				} else {
					log('[INFO] Reloading');
					if (this.config(s).some((b) => b.has('health'))) log('[INFO] plugin/health: Going into lameduck mode for 5s');
					log(`[INFO] plugin/reload: Running configuration SHA512 = ${sha}`);
					log('[INFO] Reloading complete');
					s.corefile = text;
					s.sha = sha;
					s.refusedSha = undefined;
					this.loaded(s);
					this.emit({ action: 'reload', object: `pods/kube-system/coredns`, msg: `CoreDNS on ${c.node} loaded a new Corefile (SHA512 ${sha.slice(0, 12)}…)` });
				}
			}
			if (this.nowMs >= s.nextCheckMs) s.nextCheckMs = this.nowMs + s.periodMs;
		}
		for (const id of Object.keys(this.state.servers)) if (!alive.has(id)) delete this.state.servers[id];
	}

	/** What the kubernetes plugin's informers hold now. */
	private view(): ClusterView {
		const list = (r: string) => this.cluster.list(r);
		const services = list('services').map((s) => {
			const spec = (s.spec ?? {}) as { type?: string; clusterIP?: string; clusterIPs?: string[]; externalName?: string; publishNotReadyAddresses?: boolean; ports?: Array<{ name?: string; port: number; protocol?: string }> };
			const ips = spec.clusterIPs ?? (spec.clusterIP ? [spec.clusterIP] : []);
			return {
				name: s.metadata.name ?? '',
				namespace: s.metadata.namespace ?? 'default',
				type: spec.type ?? 'ClusterIP',
				clusterIPs: ips.filter((ip) => ip !== 'None'),
				externalName: spec.externalName,
				publishNotReadyAddresses: spec.publishNotReadyAddresses,
				ports: (spec.ports ?? []).map((p) => ({ name: p.name, port: p.port, protocol: p.protocol ?? 'TCP' })),
			};
		});
		const endpoints: ClusterView['endpoints'][number][] = [];
		for (const slice of list('endpointslices') as Array<KubeObject & { endpoints?: Array<{ addresses?: string[]; hostname?: string; conditions?: { ready?: boolean } }>; ports?: Array<{ name?: string; port?: number; protocol?: string }> }>) {
			const service = slice.metadata.labels?.['kubernetes.io/service-name'];
			if (!service) continue;
			const ports = (slice.ports ?? []).map((p) => ({ name: p.name || undefined, port: p.port ?? 0, protocol: p.protocol ?? 'TCP' }));
			for (const e of slice.endpoints ?? []) for (const ip of e.addresses ?? []) endpoints.push({ service, namespace: slice.metadata.namespace ?? 'default', ip, hostname: e.hostname, ready: e.conditions?.ready !== false, ports });
		}
		const pods = list('pods').map((p) => ({ namespace: p.metadata.namespace ?? 'default', ip: (p.status as { podIP?: string } | undefined)?.podIP ?? '' }));
		return { namespaces: list('namespaces').map((n) => n.metadata.name ?? ''), services, endpoints, pods, serial: Math.floor(this.kernel.epochMs / 1000) };
	}

	/** A query that reached CoreDNS container `id` on `node` from `client`. */
	serve(node: string, id: string, ip: string, question: DnsQuestion, client: { ip: string }): DnsReply | undefined {
		const s = this.server(node, id, ip);
		const servers = this.config(s);
		const runtime = this.cluster.hosts.get(node)!.runtime;
		const rotation = { next: s.rotation };
		const served = serveQuery(servers, question, { ip: client.ip, port: 32_768 + Math.floor(this.rng.float() * 28_000) }, {
			ip,
			view: () => this.view(),
			resolvConfServers: () => (this.cluster.hosts.get(node)?.runtime.containerFile(id, '/etc/resolv.conf') ?? '').split('\n').flatMap((l) => /^nameserver\s+(\S+)/.exec(l.trim())?.[1] ?? []),
			upstream: (up) => this.upstream(node, ip, up),
			random: () => this.rng.float(),
			rotation,
		});
		s.rotation = rotation.next;
		for (const line of served.logs) runtime.appendContainerLog(id, 'stdout', line);
		return served.reply;
	}

	/** forward to an upstream from the CoreDNS Pod: only another cluster DNS server would answer; the LAN has none. */
	private upstream(node: string, fromIp: string, upstreamIp: string): UpstreamResult {
		const landing = clusterConnect(this.cluster, { kind: 'pod', node, ip: fromIp }, upstreamIp, 53, 'udp');
		return landing.kind === 'refused' ? { kind: 'refused' } : { kind: 'timeout' };
	}

	/** Sends one DNS query from `source` to `server`:53 and returns what comes back. */
	exchange(source: ConnectSource, server: string, question: DnsQuestion): DnsExchange {
		const landing = clusterConnect(this.cluster, source, server, 53, 'udp');
		switch (landing.kind) {
			case 'refused':
				return { kind: 'refused' };
			case 'timeout':
			case 'unreachable':
				return { kind: 'timeout' };
			case 'host':
				// systemd-resolved's stub on the node: it forwards to the LAN's server, which does not answer here.
				if (landing.ip === '127.0.0.53') return { kind: 'reply', reply: { rcode: 'SERVFAIL', aa: false, ra: true, answer: [], authority: [], additional: [] } };
				return { kind: 'refused' };
			case 'pod': {
				const target = this.running().find((c) => c.node === landing.node && c.ip === landing.ip && c.listens(53));
				if (!target) return { kind: 'refused' };
				const reply = this.serve(target.node, target.id, target.ip, question, { ip: landing.clientIp });
				return reply ? { kind: 'reply', reply } : { kind: 'timeout' };
			}
		}
	}
}
