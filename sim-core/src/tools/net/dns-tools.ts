/**
 * The DNS lookup tools a reader types in a Pod or on a node:
 *
 * - busybox's nslookup, in its two generations: up to 1.28 a thin wrapper
 *   over the C library (`Address 1: 10.96.0.1 kubernetes.default.svc...`,
 *   the output kubernetes.io's DNS debugging page shows, and why that page
 *   uses busybox:1.28); from 1.29 its own resolver, which sends A and AAAA
 *   queries for the name with each search domain (only when the name has
 *   no dot) and prints every reply, NXDOMAIN ones included;
 * - BIND's nslookup, dig and host (the dnsutils image, netshoot, Ubuntu's
 *   bind9-dnsutils on the nodes), with the search list applied by ndots,
 *   dig's sections and statistics, host's one-line answers.
 *
 * Mirrors mirror/busybox networking/nslookup.c (both generations: the
 * libc one before 1.29), isc-projects/bind9 bin/dig/nslookup.c,
 * isc-projects/bind9 bin/dig/dig.c, isc-projects/bind9 bin/dig/host.c.
 */
import { civilTime, MONTH_NAMES, WEEKDAY_NAMES } from '../../golang/time.ts';
import { askServers, hostsLookup, parseResolvConf, queryId, searchCandidates, type ServerLookup } from './resolver.ts';
import type { DnsAnswer, DnsRecord, NetDeps, RRType, ToolResult } from './types.ts';

const RCODE_NUMBER: Record<string, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;
const TYPES: readonly RRType[] = ['A', 'AAAA', 'SRV', 'PTR', 'CNAME', 'TXT', 'NS', 'SOA', 'MX', 'ANY'];

function ptrName(ip: string): string {
	return `${ip.split('.').reverse().join('.')}.in-addr.arpa.`;
}

const bare = (name: string) => name.replace(/\.$/, '');

// ---- busybox nslookup -----------------------------------------------------------------

/** busybox 1.29+: `nslookup [-type=T] [-debug] NAME [SERVER]`. */
function busyboxNslookup(deps: NetDeps, args: string[]): ToolResult {
	let type: RRType | undefined;
	const words: string[] = [];
	for (const a of args) {
		const m = /^-(?:type|query|q|t)=(\w+)$/i.exec(a);
		if (m) {
			const t = m[1].toUpperCase() as RRType;
			if (!TYPES.includes(t)) return { exitCode: 1, stdout: '', stderr: `nslookup: invalid query type "${m[1]}"\n` };
			type = t;
		} else if (!a.startsWith('-')) words.push(a);
	}
	if (words.length === 0 || words.length > 2) return { exitCode: 1, stdout: '', stderr: 'BusyBox v1.37.0 multi-call binary.\n\nUsage: nslookup [-type=QUERY_TYPE] [-debug] HOST [DNS_SERVER]\n' };
	const [name, explicit] = words;
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	const servers = explicit ? [explicit] : conf.nameservers;
	const search = conf.search.filter((s) => s !== '.');
	// Which queries it sends: a PTR for an address, else A and AAAA (or the asked type), with the search domains when the name has no dot.
	const names = (t: RRType) => (t === 'PTR' || search.length === 0 || name.includes('.') ? [name.replace(/\.?$/, '.')] : search.map((d) => `${name}.${d.replace(/\.$/, '')}.`));
	const queries: Array<{ name: string; type: RRType }> = [];
	if (!type && IPV4.test(name)) queries.push({ name: ptrName(name), type: 'PTR' });
	else for (const t of type ? [type] : (['A', 'AAAA'] as RRType[])) for (const n of names(t)) queries.push({ name: n, type: t });
	let out = '';
	let failed = false;
	for (const server of servers) {
		const replies: Array<{ q: (typeof queries)[number]; reply: DnsAnswer }> = [];
		let anyReply = false;
		for (const q of queries) {
			const r = deps.dns(server, { name: q.name, type: q.type, id: queryId(deps), proto: 'udp' });
			if (r.kind === 'reply') {
				anyReply = true;
				replies.push({ q, reply: r.reply });
			}
		}
		if (!anyReply) continue;
		out += `Server:\t\t${server}\nAddress:\t${server}:53\n\n`;
		for (const { q, reply } of replies) {
			if (reply.rcode !== 'NOERROR') {
				out += `** server can't find ${bare(q.name)}: ${reply.rcode}\n\n`;
				failed = true;
				continue;
			}
			if (!reply.aa) out += 'Non-authoritative answer:\n';
			for (const rr of reply.answer) out += busyboxRecord(rr);
			out += '\n';
		}
		return { exitCode: failed ? 1 : 0, stdout: out, stderr: '' };
	}
	return { exitCode: 1, stdout: ';; connection timed out; no servers could be reached\n\n', stderr: '' };
}

function busyboxRecord(rr: DnsRecord): string {
	const name = bare(rr.name);
	switch (rr.type) {
		case 'A':
		case 'AAAA':
			return `Name:\t${name}\nAddress: ${rr.data}\n`;
		case 'CNAME':
			return `${name}\tcanonical name = ${bare(rr.data)}\n`;
		case 'PTR':
			return `${name}\tname = ${bare(rr.data)}\n`;
		case 'NS':
			return `${name}\tnameserver = ${bare(rr.data)}\n`;
		case 'SRV': {
			const [p, w, port, target] = rr.data.split(' ');
			return `${name}\tservice = ${p} ${w} ${port} ${bare(target)}\n`;
		}
		case 'SOA': {
			const [mname, rname, serial, refresh, retry, expire, minimum] = rr.data.split(' ');
			return `${name}\n\torigin = ${bare(mname)}\n\tmail addr = ${bare(rname)}\n\tserial = ${serial}\n\trefresh = ${refresh}\n\tretry = ${retry}\n\texpire = ${expire}\n\tminimum = ${minimum}\n`;
		}
		case 'TXT':
			return `${name}\ttext = ${rr.data}\n`;
		default:
			return '';
	}
}

/** The reverse name of an address, through the C library (busybox 1.28 prints it beside each address). */
function reverseOf(deps: NetDeps, servers: readonly string[], ip: string): string | undefined {
	const r = askServers(deps, servers, ptrName(ip), 'PTR');
	return r.kind === 'reply' ? r.reply.answer.find((x) => x.type === 'PTR')?.data.replace(/\.$/, '') : undefined;
}

/** busybox ≤ 1.28: getaddrinfo for the server and the name, each address with its reverse name. */
function oldBusyboxNslookup(deps: NetDeps, args: string[]): ToolResult {
	const words = args.filter((a) => !a.startsWith('-'));
	if (words.length === 0 || words.length > 2) return { exitCode: 1, stdout: '', stderr: 'BusyBox v1.28.4 (2018-05-22 17:00:17 UTC) multi-call binary.\n\nUsage: nslookup [HOST] [SERVER]\n' };
	const [name, explicit] = words;
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	const servers = explicit ? [explicit] : conf.nameservers;
	const server = servers[0];
	const serverName = reverseOf(deps, servers, server);
	let out = `Server:    ${server}\nAddress 1: ${server}${serverName ? ` ${serverName}` : ''}\n\n`;
	const found = IPV4.test(name) ? { ip: name } : resolveForOld(deps, servers, conf, name);
	if (!found) return { exitCode: 1, stdout: out, stderr: `nslookup: can't resolve '${name}'\n` };
	const reverse = reverseOf(deps, servers, found.ip);
	out += `Name:      ${name}\nAddress 1: ${found.ip}${reverse ? ` ${reverse}` : ''}\n`;
	return { exitCode: 0, stdout: out, stderr: '' };
}

function resolveForOld(deps: NetDeps, servers: readonly string[], conf: ReturnType<typeof parseResolvConf>, name: string): { ip: string } | undefined {
	const hosts = hostsLookup(deps, name);
	if (hosts) return { ip: hosts };
	for (const candidate of searchCandidates(name, conf)) {
		const r = askServers(deps, servers, candidate, 'A');
		if (r.kind !== 'reply') return undefined;
		const a = r.reply.answer.find((x) => x.type === 'A');
		if (a) return { ip: a.data };
	}
	return undefined;
}

// ---- BIND ---------------------------------------------------------------------------

/** Looks a name up through the search list, as BIND's nslookup and host do (ndots from resolv.conf); the last failure is reported. */
function bindSearch(deps: NetDeps, servers: readonly string[], name: string, type: RRType, useSearch: boolean): { lookup: ServerLookup; name: string } {
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	const candidates = useSearch ? searchCandidates(name, conf) : [name.replace(/\.?$/, '.')];
	let last: { lookup: ServerLookup; name: string } | undefined;
	for (const candidate of candidates) {
		const lookup = askServers(deps, servers, candidate, type);
		if (lookup.kind !== 'reply') return { lookup, name: candidate };
		last = { lookup, name: candidate };
		// A name that exists ends the search, with or without records of the type (NODATA).
		if (lookup.reply.rcode === 'NOERROR') return last;
	}
	// BIND reports the name as typed when every candidate failed.
	return last ?? { lookup: { kind: 'timeout' }, name };
}

function bindNslookup(deps: NetDeps, args: string[]): ToolResult {
	let type: RRType = 'A';
	const words: string[] = [];
	for (const a of args) {
		const m = /^-(?:type|query|q|t)=(\w+)$/i.exec(a);
		if (m) type = m[1].toUpperCase() as RRType;
		else if (!a.startsWith('-')) words.push(a);
	}
	if (words.length === 0) return { exitCode: 1, stdout: '', stderr: '' };
	const [name, explicit] = words;
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	const servers = explicit ? [explicit] : conf.nameservers;
	const ptr = IPV4.test(name);
	const { lookup, name: asked } = bindSearch(deps, servers, ptr ? ptrName(name) : name, ptr ? 'PTR' : type, !ptr);
	if (lookup.kind === 'timeout') return { exitCode: 1, stdout: ';; connection timed out; no servers could be reached\n\n', stderr: '' };
	if (lookup.kind === 'refused') return { exitCode: 1, stdout: `;; communications error to ${lookup.server}#53: connection refused\n;; no servers could be reached\n\n`, stderr: '' };
	let out = `Server:\t\t${lookup.server}\nAddress:\t${lookup.server}#53\n\n`;
	const reply = lookup.reply;
	if (reply.rcode !== 'NOERROR') return { exitCode: 1, stdout: `${out}** server can't find ${ptr ? ptrName(name).replace(/\.$/, '') : name}: ${reply.rcode}\n\n`, stderr: '' };
	if (!reply.aa) out += 'Non-authoritative answer:\n';
	if (reply.answer.length === 0) return { exitCode: 0, stdout: `${out}*** Can't find ${bare(asked)}: No answer\n\n`, stderr: '' };
	for (const rr of reply.answer) out += busyboxRecord(rr);
	// Without -type, BIND 9.18's nslookup also asks for AAAA and prints nothing for an empty answer.
	return { exitCode: 0, stdout: `${out}\n`, stderr: '' };
}

/** dig's presentation of one record: owner, TTL, class, type, data, tab separated as dig aligns them. */
function digRecord(rr: DnsRecord): string {
	const owner = rr.name.length < 24 ? `${rr.name}\t\t` : `${rr.name}\t`;
	return `${owner}${rr.ttl}\tIN\t${rr.type}\t${rr.data}`;
}

function digDate(wallMs: number): string {
	const t = civilTime(wallMs);
	const p = (n: number) => String(n).padStart(2, '0');
	return `${WEEKDAY_NAMES[t.weekday]} ${MONTH_NAMES[t.month - 1]} ${p(t.day)} ${p(t.hour)}:${p(t.minute)}:${p(t.second)} UTC ${t.year}`;
}

/** BIND's dig: `dig [@server] [-x addr] [name] [type] [+short] [+search] ...`. */
function dig(deps: NetDeps, args: string[]): ToolResult {
	let server: string | undefined;
	let name: string | undefined;
	let type: RRType | undefined;
	let short = false;
	let search = false;
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a.startsWith('@')) server = a.slice(1);
		else if (a === '-x') {
			const ip = args[++i] ?? '';
			name = ptrName(ip);
			type = 'PTR';
		} else if (a === '-t') type = (args[++i] ?? 'A').toUpperCase() as RRType;
		else if (a === '+short') short = true;
		else if (a === '+search') search = true;
		else if (a === '+nosearch') search = false;
		else if (a.startsWith('+') || a.startsWith('-')) continue;
		else if (!name) name = a;
		else if (TYPES.includes(a.toUpperCase() as RRType)) type = a.toUpperCase() as RRType;
	}
	name ??= '.';
	type ??= name === '.' ? 'NS' : 'A';
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	const servers = server ? [server] : conf.nameservers;
	const typed = args.join(' ');
	const { lookup, name: asked } = bindSearch(deps, servers, name, type, search);
	if (lookup.kind !== 'reply') {
		const text = lookup.kind === 'refused' ? `;; communications error to ${lookup.server}#53: connection refused\n` : '';
		if (short) return { exitCode: 9, stdout: `${text};; connection timed out; no servers could be reached\n`, stderr: '' };
		return { exitCode: 9, stdout: `\n; <<>> DiG ${deps.dialects.bindVersion} <<>> ${typed}\n;; global options: +cmd\n${text};; connection timed out; no servers could be reached\n`, stderr: '' };
	}
	const reply = lookup.reply;
	if (short) return { exitCode: 0, stdout: reply.answer.map((r) => `${r.data}\n`).join(''), stderr: '' };
	const fqdn = asked.endsWith('.') ? asked : `${asked}.`;
	const flags = ['qr', ...(reply.aa ? ['aa'] : []), 'rd', ...(reply.ra ? ['ra'] : [])].join(' ');
	const lines = [
		'',
		`; <<>> DiG ${deps.dialects.bindVersion} <<>> ${typed}`,
		';; global options: +cmd',
		';; Got answer:',
		`;; ->>HEADER<<- opcode: QUERY, status: ${reply.rcode}, id: ${queryId(deps)}`,
		`;; flags: ${flags}; QUERY: 1, ANSWER: ${reply.answer.length}, AUTHORITY: ${reply.authority.length}, ADDITIONAL: ${reply.additional.length + 1}`,
		...(reply.ra ? [] : [';; WARNING: recursion requested but not available']),
		'',
		';; OPT PSEUDOSECTION:',
		'; EDNS: version: 0, flags:; udp: 1232',
		';; QUESTION SECTION:',
		`;${fqdn}\t\tIN\t${type}`,
		'',
	];
	if (reply.answer.length) lines.push(';; ANSWER SECTION:', ...reply.answer.map(digRecord), '');
	if (reply.authority.length) lines.push(';; AUTHORITY SECTION:', ...reply.authority.map(digRecord), '');
	if (reply.additional.length) lines.push(';; ADDITIONAL SECTION:', ...reply.additional.map(digRecord), '');
	const size = 12 + fqdn.length + 5 + reply.answer.length * 16 + reply.additional.length * 16 + reply.authority.length * 60 + 11;
	lines.push(`;; Query time: ${Math.floor(deps.random() * 2)} msec`, `;; SERVER: ${lookup.server}#53(${lookup.server}) (UDP)`, `;; WHEN: ${digDate(deps.wallMs())}`, `;; MSG SIZE  rcvd: ${size}`, '', '');
	return { exitCode: 0, stdout: lines.join('\n'), stderr: '' };
}

/** BIND's host: `host [-t type] name [server]`. */
function host(deps: NetDeps, args: string[]): ToolResult {
	let type: RRType | undefined;
	const words: string[] = [];
	for (let i = 0; i < args.length; i++) {
		if (args[i] === '-t') type = (args[++i] ?? 'A').toUpperCase() as RRType;
		else if (!args[i].startsWith('-')) words.push(args[i]);
	}
	if (words.length === 0) return { exitCode: 1, stdout: '', stderr: 'Usage: host [-aCdilrTvVw] [-c class] [-N ndots] [-t type] [-W time]\n            [-R number] [-m flag] [-p port] hostname [server]\n' };
	const [name, explicit] = words;
	const conf = parseResolvConf(deps.readFile('/etc/resolv.conf'));
	const servers = explicit ? [explicit] : conf.nameservers;
	const header = explicit ? `Using domain server:\nName: ${explicit}\nAddress: ${explicit}#53\nAliases: \n\n` : '';
	const ptr = IPV4.test(name);
	const types: RRType[] = ptr ? ['PTR'] : type ? [type] : ['A', 'AAAA', 'MX'];
	let out = header;
	let found = false;
	for (const t of types) {
		const { lookup } = bindSearch(deps, servers, ptr ? ptrName(name) : name, t, !ptr);
		if (lookup.kind !== 'reply') return { exitCode: 1, stdout: `${header};; connection timed out; no servers could be reached\n`, stderr: '' };
		if (lookup.reply.rcode !== 'NOERROR') return { exitCode: 1, stdout: `${header}Host ${ptr ? ptrName(name).replace(/\.$/, '') : name} not found: ${RCODE_NUMBER[lookup.reply.rcode]}(${lookup.reply.rcode})\n`, stderr: '' };
		for (const rr of lookup.reply.answer) {
			found = true;
			const owner = bare(rr.name);
			if (rr.type === 'A') out += `${owner} has address ${rr.data}\n`;
			else if (rr.type === 'AAAA') out += `${owner} has IPv6 address ${rr.data}\n`;
			else if (rr.type === 'CNAME') out += `${owner} is an alias for ${rr.data}\n`;
			else if (rr.type === 'PTR') out += `${owner} domain name pointer ${rr.data}\n`;
			else if (rr.type === 'SRV') out += `${owner} has SRV record ${rr.data}\n`;
			else if (rr.type === 'MX') out += `${owner} mail is handled by ${rr.data}\n`;
			else out += `${owner} has ${rr.type} record ${rr.data}\n`;
		}
	}
	if (!found && type) out += `${name} has no ${type} record\n`;
	return { exitCode: 0, stdout: out, stderr: '' };
}

/** Runs one of the DNS tools, or undefined when `argv[0]` is none of them. */
export function runDnsTool(deps: NetDeps, argv: readonly string[]): ToolResult | undefined {
	const base = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
	const args = argv.slice(1);
	switch (base) {
		case 'nslookup':
			if (deps.dialects.nslookup === 'bind') return bindNslookup(deps, args);
			return deps.dialects.nslookup === 'busybox-old' ? oldBusyboxNslookup(deps, args) : busyboxNslookup(deps, args);
		case 'dig':
			return dig(deps, args);
		case 'host':
			return host(deps, args);
	}
	return undefined;
}
