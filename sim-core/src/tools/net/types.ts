/**
 * What the network clients inside a Pod or on a node are wired to: the
 * machine's files (its /etc/resolv.conf and /etc/hosts), one DNS exchange
 * with a server, one TCP connection, one ICMP echo, the clock and a seeded
 * stream; and which dialect of each tool the machine has (busybox's
 * applets, BIND's dig/nslookup/host, iputils' ping).
 *
 * The DNS shapes are the same as the simulated CoreDNS's
 * (coredns/message.ts); they are repeated here because a tool and a
 * server are separate components that meet only on the wire.
 *
 * Mirrors nothing upstream: the seam between the simulated network and the
 * tools that use it.
 */
import type { CurlConnection } from '../curl/types.ts';

export type RRType = 'A' | 'AAAA' | 'SRV' | 'PTR' | 'CNAME' | 'TXT' | 'NS' | 'SOA' | 'MX' | 'ANY';
export type Rcode = 'NOERROR' | 'FORMERR' | 'SERVFAIL' | 'NXDOMAIN' | 'NOTIMP' | 'REFUSED';

export interface DnsRecord {
	name: string;
	type: RRType;
	ttl: number;
	data: string;
}

export interface DnsAnswer {
	rcode: Rcode;
	aa: boolean;
	ra: boolean;
	answer: DnsRecord[];
	authority: DnsRecord[];
	additional: DnsRecord[];
}

export interface DnsQuery {
	name: string;
	type: RRType;
	id: number;
	proto: 'udp' | 'tcp';
	bufsize?: number;
}

/** One query to one server: its reply, no answer at all, or ICMP port unreachable. */
export type DnsExchange = { kind: 'reply'; reply: DnsAnswer } | { kind: 'timeout' } | { kind: 'refused' };

/** An ICMP echo: answered with the TTL the reply arrives with, or lost, or no route (ARP failed). */
export type EchoResult = { kind: 'reply'; ttl: number } | { kind: 'lost' } | { kind: 'unreachable' };

/** The dialects: busybox's old (≤ 1.28) or new nslookup, BIND 9's tools, iputils' ping. */
export interface ToolDialects {
	/** `busybox` for busybox and alpine images (1.29+), `busybox-old` for busybox ≤ 1.28, `bind` for BIND's nslookup. */
	nslookup: 'busybox' | 'busybox-old' | 'bind';
	ping: 'busybox' | 'iputils';
	/** BIND's version string, as dig prints it (`9.18.39-0ubuntu0.24.04.1-Ubuntu`). */
	bindVersion: string;
}

export interface NetDeps {
	readFile(path: string): string | undefined;
	dns(server: string, query: DnsQuery): DnsExchange;
	connect(ip: string, port: number): CurlConnection;
	echo(ip: string): EchoResult;
	wallMs(): number;
	random(): number;
	dialects: ToolDialects;
}

/** A tool's result, and files it wrote (wget's downloads). */
export interface ToolResult {
	exitCode: number;
	stdout: string;
	stderr: string;
	files?: Record<string, string>;
	/** How long the command took on the virtual clock (a server's answer time): a container's own process waits it out. */
	elapsedMs?: number;
}
