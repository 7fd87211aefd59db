/**
 * DNS messages as the simulated resolvers and CoreDNS exchange them: a
 * question, an answer with its response code and flags, and resource
 * records in presentation form (`10.96.0.1`, `0 100 80 web.default.svc.
 * cluster.local.`), plus the wire size the tools print (dig's `MSG SIZE`,
 * the log plugin's request and reply sizes), counted as RFC 1035 encodes
 * them with name compression.
 *
 * Mirrors miekg/dns msg.go (the message shape and Len with compression),
 * coredns/coredns plugin/pkg/response/typify.go (the rcode names).
 */

export type RRType = 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME' | 'TXT' | 'NS' | 'SOA' | 'MX' | 'ANY';
export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

/** The numeric response codes (RFC 1035 §4.1.1), which `host` prints beside the name. */
export const RCODE_NUMBER: Record<Rcode, number> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

export interface ResourceRecord {
	/** Owner name, fully qualified with its trailing dot. */
	name: string;
	type: RRType;
	ttl: number;
	/** RDATA in presentation form. */
	data: string;
}

export interface DnsQuestion {
	name: string;
	type: RRType;
	/** The client's transaction id (the log plugin prints it). */
	id: number;
	proto: 'udp' | 'tcp';
	/** EDNS0 buffer size the client advertises (dig: 1232 since BIND 9.16, busybox: none). */
	bufsize?: number;
}

export interface DnsReply {
	rcode: Rcode;
	/** Authoritative answer: CoreDNS sets it for the zones it serves. */
	aa: boolean;
	/** Recursion available: set on answers that came through forward. */
	ra: boolean;
	answer: ResourceRecord[];
	authority: ResourceRecord[];
	additional: ResourceRecord[];
}

/** Length of a name in wire form: one length byte per label, the labels, the root byte. */
function nameLength(name: string): number {
	const labels = name.replace(/\.$/, '').split('.').filter((l) => l !== '');
	return labels.reduce((n, l) => n + l.length + 1, 0) + 1;
}

/** Wire length of RDATA. */
function rdataLength(rr: ResourceRecord): number {
	switch (rr.type) {
		case 'A':
			return 4;
		case 'AAAA':
			return 16;
		case 'SRV': {
			const target = rr.data.split(' ')[3] ?? '.';
			return 6 + nameLength(target);
		}
		case 'PTR':
		case 'CNAME':
		case 'NS':
			return nameLength(rr.data);
		case 'SOA': {
			const [mname = '.', rname = '.'] = rr.data.split(' ');
			return nameLength(mname) + nameLength(rname) + 20;
		}
		case 'TXT':
			return rr.data.replace(/"/g, '').length + 1;
		default:
			return 0;
	}
}

/**
 * The message's size on the wire: 12 header bytes, the question, each
 * record (an owner equal to the question's name compresses to a 2-byte
 * pointer), and an 11-byte OPT record when EDNS0 is used.
 */
export function wireSize(question: { name: string }, records: readonly ResourceRecord[], edns: boolean): number {
	let size = 12 + nameLength(question.name) + 4;
	for (const rr of records) size += (rr.name === question.name ? 2 : nameLength(rr.name)) + 10 + rdataLength(rr);
	return size + (edns ? 11 : 0);
}
