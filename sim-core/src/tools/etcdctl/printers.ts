/**
 * etcdctl's output formats (`-w simple|json|fields|table`) for the responses
 * the simulation serves. The formats, as etcd v3.6 prints them:
 * - simple: `printKV` prints the key then the value on their own lines
 *   (an empty line for the value with --keys-only), `--print-value-only`
 *   drops the key; `--hex` writes `\xNN` escapes.
 * - json: encoding/json of the protobuf structs, so []byte keys and values
 *   are base64, uint64 IDs are decimal numbers and zero fields are omitted.
 * - fields: `"Key" : value` lines, strings quoted with Go's %q.
 * - table: only member list, endpoint health/status (others fail with
 *   `table not supported as output format`, exit 4).
 * Values print as stored: the simulated API server stores JSON; a real
 * cluster stores protobuf, which prints as binary bytes.
 *
 * Mirrors etcd-io/etcd etcdctl/ctlv3/command/printer.go, etcd-io/etcd
 * etcdctl/ctlv3/command/printer_simple.go, etcd-io/etcd
 * etcdctl/ctlv3/command/printer_json.go, etcd-io/etcd
 * etcdctl/ctlv3/command/printer_fields.go, etcd-io/etcd
 * etcdctl/ctlv3/command/printer_table.go.
 */
import type { KeyValue } from '../../etcd-api/etcd.ts';
import { goQuote } from '../../golang/json.ts';
import { GoRaw, goMarshal, type GoJsonValue } from '../../golang/json.ts';
import { humanizeBytes } from '../common/humanize.ts';
import { hexToDecimal } from '../../golang/strconv.ts';
import { renderTable } from '../common/tablewriter.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import type { MemberStatus } from './status.ts';
import type { EtcdMemberFacts } from './types.ts';

export type OutputFormat = 'simple' | 'json' | 'fields' | 'table' | 'protobuf';

/** A response header (etcdserverpb.ResponseHeader). */
export interface Header {
	clusterId: string;
	memberId: string;
	/** 0 when the response carries none (cluster RPCs). */
	revision: number;
	raftTerm: number;
}

/** Printing options that change the simple and fields printers. */
export interface PrintOptions {
	hex: boolean;
	valueOnly: boolean;
}

/** A printer cannot print this response in this format (printerUnsupported). */
export class UnsupportedFormat extends Error {
	constructor(format: string) {
		super(`${format} not supported as output format`);
	}
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** encoding/json's []byte form: standard base64 with padding. */
export function base64(text: string): string {
	const bytes = utf8Encode(text);
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
		out += BASE64[a >> 2] + BASE64[((a & 3) << 4) | ((b ?? 0) >> 4)];
		out += b === undefined ? '=' : BASE64[((b & 15) << 2) | ((c ?? 0) >> 6)];
		out += c === undefined ? '=' : BASE64[c & 63];
	}
	return out;
}

/** printer.go addHexPrefix over hex.EncodeToString: `\x66\x6f\x6f`. */
function hexEscaped(text: string): string {
	return utf8Encode(text)
		.map((b) => '\\x' + b.toString(16).padStart(2, '0'))
		.join('');
}

function headerJson(h: Header): GoJsonValue {
	return { cluster_id: new GoRaw(hexToDecimal(h.clusterId)), member_id: new GoRaw(hexToDecimal(h.memberId)), revision: h.revision || undefined, raft_term: h.raftTerm || undefined };
}

function kvJson(kv: KeyValue, keysOnly = false): GoJsonValue {
	return {
		key: base64(kv.key),
		create_revision: kv.createRevision || undefined,
		mod_revision: kv.modRevision || undefined,
		version: kv.version || undefined,
		value: keysOnly || !kv.value ? undefined : base64(kv.value),
		lease: kv.lease || undefined,
	};
}

function simpleKv(kv: KeyValue, options: PrintOptions, keysOnly: boolean): string {
	const key = options.hex ? hexEscaped(kv.key) : kv.key;
	const value = keysOnly ? '' : options.hex ? hexEscaped(kv.value) : kv.value;
	return (options.valueOnly ? '' : key + '\n') + value + '\n';
}

function fieldsHeader(h: Header): string {
	let out = `"ClusterID" : ${hexToDecimal(h.clusterId)}\n"MemberID" : ${hexToDecimal(h.memberId)}\n`;
	// Revision only shows for responses that carry one (printer_fields.go hdr).
	if (h.revision > 0) out += `"Revision" : ${h.revision}\n`;
	return out + `"RaftTerm" : ${h.raftTerm}\n`;
}

function fieldsKv(prefix: string, kv: KeyValue, keysOnly: boolean): string {
	return [
		`"${prefix}Key" : ${goQuote(kv.key)}`,
		`"${prefix}CreateRevision" : ${kv.createRevision}`,
		`"${prefix}ModRevision" : ${kv.modRevision}`,
		`"${prefix}Version" : ${kv.version}`,
		`"${prefix}Value" : ${goQuote(keysOnly ? '' : kv.value)}`,
		`"${prefix}Lease" : ${kv.lease ?? 0}`,
	]
		.map((line) => line + '\n')
		.join('');
}

/** The answer to a Range (`etcdctl get`). */
interface GetResponse {
	header: Header;
	kvs: KeyValue[];
	more: boolean;
	count: number;
	keysOnly: boolean;
}

export function printGet(format: OutputFormat, r: GetResponse, options: PrintOptions): string {
	switch (format) {
		case 'simple':
			return r.kvs.map((kv) => simpleKv(kv, options, r.keysOnly)).join('');
		case 'json':
			return goMarshal({ header: headerJson(r.header), kvs: r.kvs.length ? r.kvs.map((kv) => kvJson(kv, r.keysOnly)) : undefined, more: r.more || undefined, count: r.count || undefined }) + '\n';
		case 'fields':
			return fieldsHeader(r.header) + r.kvs.map((kv) => fieldsKv('', kv, r.keysOnly)).join('') + `"More" : ${r.more}\n"Count" : ${r.count}\n`;
		default:
			throw new UnsupportedFormat(format);
	}
}

export function printPut(format: OutputFormat, header: Header, prevKv: KeyValue | undefined, options: PrintOptions): string {
	switch (format) {
		case 'simple':
			return 'OK\n' + (prevKv ? simpleKv(prevKv, options, false) : '');
		case 'json':
			return goMarshal({ header: headerJson(header), prev_kv: prevKv ? kvJson(prevKv) : undefined }) + '\n';
		case 'fields':
			return fieldsHeader(header) + (prevKv ? fieldsKv('Prev', prevKv, false) : '');
		default:
			throw new UnsupportedFormat(format);
	}
}

export function printDel(format: OutputFormat, header: Header, deleted: number, prevKvs: KeyValue[], options: PrintOptions): string {
	switch (format) {
		case 'simple':
			return `${deleted}\n` + prevKvs.map((kv) => simpleKv(kv, options, false)).join('');
		case 'json':
			return goMarshal({ header: headerJson(header), deleted: deleted || undefined, prev_kvs: prevKvs.length ? prevKvs.map((kv) => kvJson(kv)) : undefined }) + '\n';
		case 'fields':
			return fieldsHeader(header) + `"Deleted" : ${deleted}\n` + prevKvs.map((kv) => fieldsKv('Prev', kv, false)).join('');
		default:
			throw new UnsupportedFormat(format);
	}
}

/** One watch response: the events of one revision. */
export interface WatchResponse {
	header: Header;
	events: Array<{ type: 'PUT' | 'DELETE'; kv: KeyValue; prevKv?: KeyValue }>;
}

export function printWatch(format: OutputFormat, r: WatchResponse, options: PrintOptions): string {
	switch (format) {
		case 'simple':
			return r.events.map((e) => `${e.type}\n` + (e.prevKv ? simpleKv(e.prevKv, options, false) : '') + simpleKv(e.kv, options, false)).join('');
		case 'json':
			// clientv3.WatchResponse has no json tags: its exported fields print by their Go names.
			return (
				goMarshal({
					Header: headerJson(r.header),
					Events: r.events.map((e) => ({ type: e.type === 'DELETE' ? 1 : undefined, kv: kvJson(e.kv), prev_kv: e.prevKv ? kvJson(e.prevKv) : undefined })),
					CompactRevision: 0,
					Canceled: false,
					Created: false,
				}) + '\n'
			);
		case 'fields':
			return fieldsHeader(r.header) + r.events.map((e) => `"Type" : ${e.type}\n` + (e.prevKv ? fieldsKv('Prev', e.prevKv, false) : '') + fieldsKv('', e.kv, false)).join('');
		default:
			throw new UnsupportedFormat(format);
	}
}

/** member list rows (printer.go makeMemberListTable). */
function memberRows(members: EtcdMemberFacts[]): string[][] {
	return members.map((m) => [m.memberId, m.name ? 'started' : 'unstarted', m.name, m.peerUrls.join(','), m.clientUrls.join(','), String(!!m.isLearner)]);
}

export function printMemberList(format: OutputFormat, header: Header, members: EtcdMemberFacts[], options: PrintOptions): string {
	switch (format) {
		case 'simple':
			return memberRows(members)
				.map((row) => row.join(', ') + '\n')
				.join('');
		case 'table':
			return renderTable(['ID', 'Status', 'Name', 'Peer Addrs', 'Client Addrs', 'Is Learner'], memberRows(members));
		case 'json': {
			if (options.hex) {
				// printMemberListWithHexJSON writes IDs as hex strings, by hand.
				const hexMembers = members.map((m) => `{"ID":"${BigInt('0x' + m.memberId).toString(16)}","name":"${m.name}","peerURLs":${goMarshal(m.peerUrls)},"clientURLs":${goMarshal(m.clientUrls)}}`);
				return `{"header":{"cluster_id":"${BigInt('0x' + header.clusterId).toString(16)}","member_id":"${BigInt('0x' + header.memberId).toString(16)}","raft_term":${header.raftTerm}}${members.length ? `,"members":[${hexMembers.join(',')}]` : ''}}\n`;
			}
			return (
				goMarshal({
					header: headerJson(header),
					members: members.map((m) => ({ ID: new GoRaw(hexToDecimal(m.memberId)), name: m.name || undefined, peerURLs: m.peerUrls.length ? m.peerUrls : undefined, clientURLs: m.clientUrls.length ? m.clientUrls : undefined, isLearner: m.isLearner || undefined })),
				}) + '\n'
			);
		}
		case 'fields':
			return (
				fieldsHeader(header) +
				members
					.map(
						(m) =>
							`"ID" : ${options.hex ? BigInt('0x' + m.memberId).toString(16) : hexToDecimal(m.memberId)}\n"Name" : ${goQuote(m.name)}\n` +
							m.peerUrls.map((u) => `"PeerURL" : ${goQuote(u)}\n`).join('') +
							m.clientUrls.map((u) => `"ClientURL" : ${goQuote(u)}\n`).join('') +
							`"IsLearner" : ${!!m.isLearner}\n\n`,
					)
					.join('')
			);
		default:
			throw new UnsupportedFormat(format);
	}
}

/** One endpoint's health check (ep_command.go epHealth). */
export interface EndpointHealth {
	endpoint: string;
	health: boolean;
	took: string;
	error: string;
}

/** Endpoint health output: healthy lines go to stdout, unhealthy ones to stderr (printer_simple.go). */
export function printEndpointHealth(format: OutputFormat, list: EndpointHealth[]): { stdout: string; stderr: string } {
	switch (format) {
		case 'simple': {
			let stdout = '';
			let stderr = '';
			for (const h of list) {
				if (!h.error) stdout += `${h.endpoint} is healthy: successfully committed proposal: took = ${h.took}\n`;
				else stderr += `${h.endpoint} is unhealthy: failed to commit proposal: ${h.error}\n`;
			}
			return { stdout, stderr };
		}
		case 'table':
			return {
				stdout: renderTable(
					['endpoint', 'health', 'took', 'error'],
					list.map((h) => [h.endpoint, String(h.health), h.took, h.error]),
				),
				stderr: '',
			};
		case 'json':
			return { stdout: goMarshal(list.map((h) => ({ endpoint: h.endpoint, health: h.health, took: h.took, error: h.error || undefined }))) + '\n', stderr: '' };
		case 'fields':
			return { stdout: list.map((h) => `"Endpoint" : ${goQuote(h.endpoint)}\n"Health" : ${h.health}\n"Took" : ${h.took}\n"Error" : ${h.error}\n\n`).join(''), stderr: '' };
		default:
			throw new UnsupportedFormat(format);
	}
}

/** One endpoint's status (ep_command.go epStatus). */
export interface EndpointStatus {
	endpoint: string;
	header: Header;
	member: EtcdMemberFacts;
	status: MemberStatus;
	/** The member ID the responder believes leads. */
	leaderId: string;
}

/** printer.go makeEndpointStatusTable: the 16 columns of etcdctl 3.6. */
function statusRows(list: EndpointStatus[], storageVersion: string): string[][] {
	return list.map((s) => [
		s.endpoint,
		s.member.memberId,
		s.member.version,
		storageVersion,
		humanizeBytes(s.status.dbSizeBytes),
		humanizeBytes(s.status.dbSizeInUseBytes),
		`${100 - Math.floor((s.status.dbSizeInUseBytes * 100) / s.status.dbSizeBytes)}%`,
		humanizeBytes(s.status.dbSizeQuotaBytes),
		String(s.leaderId === s.member.memberId),
		String(!!s.member.isLearner),
		String(s.status.raftTerm),
		String(s.status.raftIndex),
		String(s.status.raftAppliedIndex),
		s.status.errors.join(', '),
		'',
		'false',
	]);
}

const ENDPOINT_STATUS_HEADERS = [
	'endpoint',
	'ID',
	'version',
	'storage version',
	'db size',
	'in use',
	'percentage not in use',
	'quota',
	'is leader',
	'is learner',
	'raft term',
	'raft index',
	'raft applied index',
	'errors',
	'downgrade target version',
	'downgrade enabled',
];

export function printEndpointStatus(format: OutputFormat, list: EndpointStatus[], storageVersion: string): string {
	switch (format) {
		case 'simple':
			return statusRows(list, storageVersion)
				.map((row) => row.join(', ') + '\n')
				.join('');
		case 'table':
			return renderTable(ENDPOINT_STATUS_HEADERS, statusRows(list, storageVersion));
		case 'json':
			// A nil slice (every endpoint failed) marshals as null.
			if (list.length === 0) return 'null\n';
			return (
				goMarshal(
					list.map((s) => ({
						Endpoint: s.endpoint,
						Status: {
							header: headerJson(s.header),
							version: s.member.version,
							dbSize: s.status.dbSizeBytes,
							leader: new GoRaw(hexToDecimal(s.leaderId)),
							raftIndex: s.status.raftIndex,
							raftTerm: s.status.raftTerm,
							raftAppliedIndex: s.status.raftAppliedIndex,
							errors: s.status.errors.length ? s.status.errors : undefined,
							dbSizeInUse: s.status.dbSizeInUseBytes,
							isLearner: s.member.isLearner || undefined,
							storageVersion,
							dbSizeQuota: s.status.dbSizeQuotaBytes,
							downgradeInfo: {},
						},
					})),
				) + '\n'
			);
		case 'fields':
			return list
				.map(
					(s) =>
						fieldsHeader(s.header) +
						`"Version" : ${goQuote(s.member.version)}\n"StorageVersion" : ${goQuote(storageVersion)}\n"DBSize" : ${s.status.dbSizeBytes}\n"DBSizeInUse" : ${s.status.dbSizeInUseBytes}\n"DBSizeQuota" : ${s.status.dbSizeQuotaBytes}\n` +
						`"Leader" : ${hexToDecimal(s.leaderId)}\n"IsLearner" : ${!!s.member.isLearner}\n"RaftIndex" : ${s.status.raftIndex}\n"RaftTerm" : ${s.status.raftTerm}\n"RaftAppliedIndex" : ${s.status.raftAppliedIndex}\n` +
						`"Errors" : [${s.status.errors.join(' ')}]\n"Endpoint" : ${goQuote(s.endpoint)}\n"DowngradeTargetVersion" : ""\n"DowngradeEnabled" : false\n\n`,
				)
				.join('');
		default:
			throw new UnsupportedFormat(format);
	}
}

/** AlarmType values (etcdserverpb.AlarmType). */
const ALARM_NUMBER: Record<string, number> = { NONE: 0, NOSPACE: 1, CORRUPT: 2 };

export function printAlarms(format: OutputFormat, header: Header, memberId: string, alarms: string[]): string {
	switch (format) {
		case 'simple':
			// `%+v` of *pb.AlarmMember uses its proto compact text form, which ends each field with a space.
			return alarms.map((a) => `memberID:${hexToDecimal(memberId)} alarm:${a} \n`).join('');
		case 'json':
			return goMarshal({ header: headerJson(header), alarms: alarms.length ? alarms.map((a) => ({ memberID: new GoRaw(hexToDecimal(memberId)), alarm: ALARM_NUMBER[a] || undefined })) : undefined }) + '\n';
		case 'fields':
			return fieldsHeader(header) + alarms.map((a) => `"MemberID" : ${hexToDecimal(memberId)}\n"AlarmType" : ${a}\n\n`).join('');
		default:
			throw new UnsupportedFormat(format);
	}
}
