/**
 * The stub resolver of a machine, as its C library runs it: /etc/hosts
 * first, then /etc/resolv.conf's nameservers (at most 3), tried in order
 * with `timeout` and `attempts`, and the `search` list applied by the
 * `ndots` rule: a name with fewer dots than ndots (5 in a Pod, 1 by
 * default) is tried with each search domain first and as given last; a
 * name with a trailing dot is tried only as given. CNAME answers are
 * followed.
 *
 * This is why `wget http://web` in a Pod asks CoreDNS for
 * `web.default.svc.cluster.local` first, and why an outside name like
 * `example.com` costs four failed lookups before the real one.
 *
 * Mirrors gnu/glibc resolv/res_query.c (__res_context_search: the ndots
 * rule), gnu/glibc resolv/res_init.c (the resolv.conf options and their
 * defaults), bminor/musl src/network/lookup_name.c.
 */
import type { DnsAnswer, DnsQuery, NetDeps, RRType } from './types.ts';

export interface ResolvConf {
	nameservers: string[];
	search: string[];
	ndots: number;
	timeoutS: number;
	attempts: number;
}

/** res_init.c: MAXNS 3, ndots 1, RES_TIMEOUT 5 s, RES_DFLRETRY 2. */
export function parseResolvConf(text: string | undefined): ResolvConf {
	const conf: ResolvConf = { nameservers: [], search: [], ndots: 1, timeoutS: 5, attempts: 2 };
	for (const raw of (text ?? '').split('\n')) {
		const line = raw.replace(/[#;].*$/, '').trim();
		const [key, ...values] = line.split(/\s+/);
		if (key === 'nameserver' && values[0] && conf.nameservers.length < 3) conf.nameservers.push(values[0]);
		else if (key === 'search' || key === 'domain') conf.search = values;
		else if (key === 'options') {
			for (const v of values) {
				const [k, n] = v.split(':');
				if (k === 'ndots') conf.ndots = Math.min(15, Number(n) || 0);
				if (k === 'timeout') conf.timeoutS = Math.min(30, Number(n) || 1);
				if (k === 'attempts') conf.attempts = Math.min(5, Number(n) || 1);
			}
		}
	}
	// No nameserver line: the local host (res_init.c's loopback default).
	if (conf.nameservers.length === 0) conf.nameservers.push('127.0.0.1');
	return conf;
}

/** The names the search rule tries, in order. */
export function searchCandidates(name: string, conf: ResolvConf): string[] {
	if (name.endsWith('.')) return [name];
	const dots = name.split('.').length - 1;
	const searched = conf.search.filter((d) => d !== '.').map((d) => `${name}.${d.replace(/\.$/, '')}.`);
	return dots >= conf.ndots ? [`${name}.`, ...searched] : [...searched, `${name}.`];
}

/** What one lookup through the servers gave. */
export type ServerLookup = { kind: 'reply'; server: string; reply: DnsAnswer } | { kind: 'timeout' } | { kind: 'refused'; server: string };

/** Transaction ids: from the seeded stream, as a resolver draws them. */
export function queryId(deps: NetDeps): number {
	return Math.floor(deps.random() * 65_535) + 1;
}

/** Sends one question to each server in turn until one answers (a refused or silent server passes to the next). */
export function askServers(deps: NetDeps, servers: readonly string[], name: string, type: RRType, extra: Partial<DnsQuery> = {}): ServerLookup {
	let refused: string | undefined;
	for (const server of servers) {
		const exchange = deps.dns(server, { name, type, id: queryId(deps), proto: 'udp', ...extra });
		if (exchange.kind === 'reply') return { kind: 'reply', server, reply: exchange.reply };
		if (exchange.kind === 'refused') refused ??= server;
	}
	return refused ? { kind: 'refused', server: refused } : { kind: 'timeout' };
}

/** An address from /etc/hosts, if the name is there. */
export function hostsLookup(deps: NetDeps, name: string): string | undefined {
	const wanted = name.replace(/\.$/, '').toLowerCase();
	for (const raw of (deps.readFile('/etc/hosts') ?? '').split('\n')) {
		const [ip, ...names] = raw.replace(/#.*$/, '').trim().split(/\s+/);
		if (ip && /^\d+\.\d+\.\d+\.\d+$/.test(ip) && names.some((n) => n.toLowerCase() === wanted)) return ip;
	}
	return undefined;
}

/** getaddrinfo's outcome for an IPv4 address. */
export type AddressLookup = { kind: 'address'; ip: string; canonical: string } | { kind: 'not-found' } | { kind: 'temporary' };

const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

/** Resolves `name` to an IPv4 address as getaddrinfo does (hosts, then DNS with the search list, following CNAMEs). */
export function resolveAddress(deps: NetDeps, name: string): AddressLookup {
	if (IPV4.test(name)) return { kind: 'address', ip: name, canonical: name };
	const fromHosts = hostsLookup(deps, name);
	if (fromHosts) return { kind: 'address', ip: fromHosts, canonical: name };
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	let sawTimeout = false;
	for (const candidate of searchCandidates(name, conf)) {
		let asked = candidate;
		for (let hops = 0; hops < 8; hops++) {
			const r = askServers(deps, conf.nameservers, asked, 'A');
			if (r.kind !== 'reply') {
				sawTimeout = true;
				break;
			}
			const a = r.reply.answer.find((x) => x.type === 'A' && x.name === asked);
			if (a) return { kind: 'address', ip: a.data, canonical: candidate };
			const cname = r.reply.answer.find((x) => x.type === 'CNAME' && x.name === asked);
			if (!cname) {
				if (r.reply.rcode === 'SERVFAIL') sawTimeout = true;
				break;
			}
			// The answer may carry the target's A record already.
			const chained = r.reply.answer.find((x) => x.type === 'A' && x.name === cname.data);
			if (chained) return { kind: 'address', ip: chained.data, canonical: candidate };
			asked = cname.data;
		}
	}
	return sawTimeout ? { kind: 'temporary' } : { kind: 'not-found' };
}
