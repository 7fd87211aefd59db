/**
 * One CoreDNS server answering a query: the server block whose zone is the
 * longest match, then its plugins in plugin.cfg's order: rewrite (the
 * question's name), hosts (inline entries), kubernetes (the cluster's
 * records), forward (the upstream resolvers, which this offline cluster
 * cannot reach), with loadbalance rotating A records, log writing one line
 * per query and errors one line per failure.
 *
 * The answer comes with the lines the server writes to its log, in the
 * log and errors plugins' formats, so `kubectl logs -n kube-system
 * deploy/coredns` shows the queries once `log` is in the Corefile, as the
 * "Debugging DNS Resolution" task does.
 *
 * Mirrors coredns/coredns core/dnsserver/server.go (ServeDNS: zone match,
 * REFUSED outside every zone), coredns/coredns plugin/log/log.go,
 * coredns/coredns plugin/pkg/replacer/replacer.go (the default log format),
 * coredns/coredns plugin/errors/errors.go, coredns/coredns
 * plugin/forward/forward.go, coredns/coredns plugin/loadbalance/loadbalance.go,
 * coredns/coredns plugin/hosts/hosts.go, coredns/coredns plugin/rewrite/name.go.
 */
import { inZone, serverFor, type ServerBlock } from './corefile.ts';
import { kubernetesAnswer, type ClusterView } from './kubernetes.ts';
import { wireSize, type DnsQuestion, type DnsReply, type ResourceRecord } from './message.ts';

/** Where an upstream query went. */
export type UpstreamResult = { kind: 'reply'; reply: DnsReply } | { kind: 'timeout' } | { kind: 'refused' };

export interface ServerContext {
	/** The server's own address (its Pod IP), for the errors plugin's socket text. */
	ip: string;
	view(): ClusterView;
	/** The nameservers of the server's own /etc/resolv.conf (forward . /etc/resolv.conf). */
	resolvConfServers(): string[];
	upstream(ip: string, question: DnsQuestion): UpstreamResult;
	/** A number from the server's seeded stream, for source ports and durations. */
	random(): number;
	/** loadbalance's rotation counter, kept with the server. */
	rotation: { next: number };
}

/** What the server did with one query. */
export interface Served {
	/** No reply at all (the client times out). */
	reply?: DnsReply;
	logs: string[];
}

/** forward's read timeout before it gives up on an upstream (plugin/forward/persistent.go readTimeout: 2 s). */
export const FORWARD_READ_TIMEOUT_MS = 2_000;

function rotate<T>(items: T[], by: number): T[] {
	if (items.length < 2) return items;
	const k = by % items.length;
	return [...items.slice(k), ...items.slice(0, k)];
}

function applyRewrites(server: ServerBlock, name: string): string {
	for (const r of server.rewrites) {
		switch (r.kind) {
			case 'exact':
				if (name === r.from) return r.to;
				break;
			case 'suffix':
				if (name.endsWith(r.from)) return name.slice(0, -r.from.length) + r.to;
				break;
			case 'prefix':
				if (name.startsWith(r.from)) return r.to + name.slice(r.from.length);
				break;
			case 'substring':
				if (name.includes(r.from)) return name.replace(r.from, r.to);
				break;
		}
	}
	return name;
}

/** Answers one query as the server configured by `servers` does. */
export function serveQuery(servers: readonly ServerBlock[], question: DnsQuestion, client: { ip: string; port: number }, ctx: ServerContext): Served {
	const name = question.name.toLowerCase();
	const match = serverFor(servers, name);
	const logs: string[] = [];
	let waitedMs = 0;
	const finish = (reply: DnsReply, server?: ServerBlock): Served => {
		if (server?.has('log')) logs.push(logLine(question, client, reply, ctx, waitedMs));
		return { reply, logs };
	};
	if (!match) return finish({ rcode: 'REFUSED', aa: false, ra: false, answer: [], authority: [], additional: [] });
	const { server } = match;
	const asked = applyRewrites(server, name);
	const rename = (records: ResourceRecord[]) => (asked === name ? records : records.map((r) => (r.name === asked ? { ...r, name } : r)));
	const done = (reply: DnsReply): Served => {
		let answer = rename(reply.answer);
		if (server.has('loadbalance')) {
			const a = answer.filter((r) => r.type === 'A' || r.type === 'AAAA');
			if (a.length > 1) answer = [...answer.filter((r) => r.type !== 'A' && r.type !== 'AAAA'), ...rotate(a, ctx.rotation.next++)];
		}
		return finish({ ...reply, answer }, server);
	};

	if (server.hosts) {
		const hits = server.hosts.entries.filter((e) => e.names.includes(asked));
		if (hits.length && (question.type === 'A' || question.type === 'ANY')) return done({ rcode: 'NOERROR', aa: true, ra: false, answer: hits.map((h) => ({ name: asked, type: 'A' as const, ttl: 3600, data: h.ip })), authority: [], additional: [] });
		if (hits.length) return done({ rcode: 'NOERROR', aa: true, ra: false, answer: [], authority: [], additional: [] });
		if (!server.hosts.fallthrough && server.hosts.entries.length) return done({ rcode: 'NXDOMAIN', aa: true, ra: false, answer: [], authority: [], additional: [] });
	}
	const k8s = server.kubernetes;
	if (k8s) {
		const zone = k8s.zones.filter((z) => inZone(asked, z)).sort((a, b) => b.length - a.length)[0];
		if (zone) {
			const answer = kubernetesAnswer(k8s, zone, asked, question.type, ctx.view());
			if (answer.kind === 'reply') return done(answer.reply);
		}
	}
	if (server.forward && inZone(asked, server.forward.from)) {
		const upstreams = server.forward.to.flatMap((t) => (t === '/etc/resolv.conf' ? ctx.resolvConfServers() : [t.replace(/^dns:\/\//, '').replace(/:53$/, '')]));
		for (const up of upstreams) {
			const result = ctx.upstream(up, { ...question, name: asked });
			if (result.kind === 'reply') return done({ ...result.reply, aa: false, ra: true });
			waitedMs += result.kind === 'timeout' ? FORWARD_READ_TIMEOUT_MS : 0;
			if (server.has('errors')) {
				const port = 32_768 + Math.floor(ctx.random() * 28_000);
				const why = result.kind === 'timeout' ? 'i/o timeout' : 'connection refused';
				logs.push(`[ERROR] plugin/errors: 2 ${name} ${question.type}: read udp ${ctx.ip}:${port}->${up}:53: ${why}`);
			}
		}
		return done({ rcode: 'SERVFAIL', aa: false, ra: true, answer: [], authority: [], additional: [] });
	}
	return done({ rcode: 'SERVFAIL', aa: false, ra: false, answer: [], authority: [], additional: [] });
}

/**
 * The log plugin's default format: `{remote}:{port} - {>id} "{type} {class}
 * {name} {proto} {size} {>do} {>bufsize}" {rcode} {>rflags} {rsize}
 * {duration}`, behind `[INFO] `.
 */
function logLine(q: DnsQuestion, client: { ip: string; port: number }, reply: DnsReply, ctx: ServerContext, waitedMs: number): string {
	const name = q.name.endsWith('.') ? q.name : `${q.name}.`;
	const requestSize = wireSize({ name }, [], q.bufsize !== undefined);
	const responseSize = wireSize({ name }, [...reply.answer, ...reply.authority, ...reply.additional], q.bufsize !== undefined);
	const flags = ['qr', ...(reply.aa ? ['aa'] : []), 'rd', ...(reply.ra ? ['ra'] : [])].join(',');
	// Durations of an answer from memory: a few hundred microseconds, as Go prints a time.Duration in seconds.
	const seconds = (waitedMs / 1000 + 0.00005 + ctx.random() * 0.0004).toFixed(9).replace(/0+$/, '');
	return `[INFO] ${client.ip}:${client.port} - ${q.id} "${q.type} IN ${name} ${q.proto} ${requestSize} false ${q.bufsize ?? 512}" ${reply.rcode} ${flags} ${responseSize} ${seconds}s`;
}
