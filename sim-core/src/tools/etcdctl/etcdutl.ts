/**
 * `etcdutl`, etcd's offline utility (etcd-io/etcd etcdutl, v3.6), for the
 * jobs readers need after `etcdctl snapshot save`: `etcdutl snapshot
 * status FILE [-w table|json|fields|simple]`, `etcdutl snapshot restore FILE
 * --data-dir DIR` (a new data directory holding the snapshot's keys, which
 * an etcd pointed at it starts from), plus `etcdutl version`. In 3.6
 * `snapshot status` exists only here: etcdctl 3.5 printed "Deprecated: Use
 * `etcdutl snapshot status` instead." and 3.6 removed the etcdctl command
 * (`etcdctl snapshot status` now just prints the snapshot command's help).
 *
 * It reads files written by etcdctl's simulated snapshot save
 * (snapshot-file.ts); it needs no cluster.
 *
 * restore writes DIR/member/snap/db (the simulated database: the snapshot's
 * keys) and a WAL under DIR/member/wal, refuses a data directory that is not
 * empty, and logs the two lines etcdutl's console logger prints around the
 * work ("restoring snapshot", "restored snapshot").
 *
 * Mirrors etcd-io/etcd etcdutl/etcdutl/snapshot_command.go, etcd-io/etcd
 * etcdutl/etcdutl/printer.go (makeDBStatusTable: HASH, REVISION, TOTAL KEYS,
 * TOTAL SIZE, VERSION), etcd-io/etcd etcdutl/snapshot/v3_snapshot.go
 * (Status: live keys, last revision, the database size, CRC-32C hash,
 * storage version; Restore: the data-dir checks, the WAL and snap paths),
 * etcd-io/etcd etcdutl/etcdutl/common.go (GetLogger: console encoding,
 * RFC 3339 times).
 */
import type { CommandHandler, CommandResult } from '../../shell/types.ts';
import { goQuote } from '../../golang/json.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { humanizeBytes } from '../common/humanize.ts';
import { goMarshal } from '../../golang/json.ts';
import { renderTable } from '../common/tablewriter.ts';
import { FlagError, parseFlags, type FlagSpec } from './flags.ts';
import { crc32c, decodeSnapshot } from './snapshot-file.ts';
import { ETCD_API_VERSION, ETCD_VERSION } from './types.ts';

const FLAGS: FlagSpec[] = [
	{ name: 'write-out', shorthand: 'w', kind: 'string', def: 'simple', usage: 'set the output format (fields, json, protobuf, simple, table)' },
	{ name: 'help', shorthand: 'h', kind: 'bool', def: 'false', usage: 'help for etcdutl' },
	// snapshot restore (snapshot_command.go NewSnapshotRestoreCommand).
	{ name: 'data-dir', kind: 'string', def: '', usage: 'Path to the output data directory' },
	{ name: 'wal-dir', kind: 'string', def: '', usage: 'Path to the WAL directory (use --data-dir if none given)' },
	{ name: 'initial-cluster', kind: 'string', def: 'default=http://localhost:2380', usage: 'Initial cluster configuration for restore bootstrap' },
	{ name: 'initial-cluster-token', kind: 'string', def: 'etcd-cluster', usage: 'Initial cluster token for the etcd cluster during restore bootstrap' },
	{ name: 'initial-advertise-peer-urls', kind: 'string', def: 'http://localhost:2380', usage: "List of this member's peer URLs to advertise to the rest of the cluster" },
	{ name: 'name', kind: 'string', def: 'default', usage: 'Human-readable name for this member' },
	{ name: 'skip-hash-check', kind: 'bool', def: 'false', usage: 'Ignore snapshot integrity hash value (required if copied from data directory)' },
	{ name: 'bump-revision', kind: 'string', def: '0', usage: 'How much to increase the latest revision after restore' },
	{ name: 'mark-compacted', kind: 'bool', def: 'false', usage: 'Mark the latest revision after restore as the point of scheduled compaction (required if --bump-revision > 0, disallowed otherwise)' },
];

/** etcdutl's default memory map size, logged by restore (10 GiB). */
const INITIAL_MMAP_SIZE = 10 * 1024 * 1024 * 1024;
/** Where a member keeps its database and its WAL under --data-dir (server/storage/datadir). */
export const DATA_DIR_DB = 'member/snap/db';
const DATA_DIR_WAL = 'member/wal';

/** What etcdutl needs from outside: the clock its log lines carry. */
export interface EtcdutlDeps {
	wallMs(): number;
}

/** One line of etcdutl's console logger: RFC 3339 time, level, caller, message, the fields as spaced JSON. */
function consoleLine(wallMs: number, caller: string, msg: string, fields: Array<[string, string | number]>): string {
	const time = formatRfc3339(wallMs);
	const json = fields.map(([k, v]) => `${JSON.stringify(k)}: ${typeof v === 'number' ? v : JSON.stringify(v)}`).join(', ');
	return `${time}\tinfo\t${caller}\t${msg}\t{${json}}\n`;
}

function snapshotRestore(args: string[], values: Map<string, string>, host: Parameters<CommandHandler>[0]['host'], deps: EtcdutlDeps | undefined): CommandResult {
	if (args.length !== 1) return fail('snapshot restore requires exactly one argument', 128);
	const bump = Number(values.get('bump-revision') ?? '0');
	const markCompacted = values.get('mark-compacted') === 'true';
	if (!Number.isInteger(bump) || bump < 0) return fail(`invalid argument ${JSON.stringify(values.get('bump-revision'))} for "--bump-revision" flag: strconv.ParseUint: parsing ${JSON.stringify(values.get('bump-revision'))}: invalid syntax`, 1);
	if ((bump === 0 && markCompacted) || (bump > 0 && !markCompacted)) return fail('--mark-compacted required if --revision-bump > 0', 128);
	const fs = host.fs;
	const name = values.get('name') || 'default';
	const dataDir = values.get('data-dir') || `${name}.etcd`;
	const walDir = values.get('wal-dir') || `${dataDir.replace(/\/+$/, '')}/${DATA_DIR_WAL}`;
	const snapDir = `${dataDir.replace(/\/+$/, '')}/member/snap`;
	const path = args[0];
	let text: string;
	try {
		text = fs.readFile(path);
	} catch {
		return fail(`stat ${path}: no such file or directory`, 1);
	}
	const snapshot = decodeSnapshot(text);
	if (!snapshot) return fail('snapshot file integrity check failed. 1 errors found.\ninvalid database', 1);
	if (fs.exists(dataDir) && (!fs.isDir(dataDir) || fs.list(dataDir).length > 0)) return fail(`data-dir ${JSON.stringify(dataDir)} not empty or could not be read`, 1);
	if (values.get('wal-dir') && fs.exists(walDir)) return fail(`wal-dir ${JSON.stringify(walDir)} exists`, 1);
	const now = deps?.wallMs() ?? 0;
	const fields: Array<[string, string | number]> = [
		['path', path],
		['wal-dir', walDir],
		['data-dir', dataDir],
		['snap-dir', snapDir],
		['initial-memory-map-size', INITIAL_MMAP_SIZE],
	];
	let stderr = consoleLine(now, 'snapshot/v3_snapshot.go:305', 'restoring snapshot', fields);
	// The new database: the snapshot's keys, the revision bumped when asked (and then marked compacted).
	const restored = bump > 0 ? text.replace(/^(.*\n)revision (\d+)/, (_m, first: string, rev: string) => `${first}revision ${Number(rev) + bump}`) : text;
	fs.mkdir(snapDir, true);
	fs.writeFile(`${snapDir}/db`, restored);
	fs.mkdir(walDir, true);
	fs.writeFile(`${walDir}/0000000000000000-0000000000000000.wal`, '');
	if (bump > 0) stderr += consoleLine(now, 'snapshot/v3_snapshot.go:396', 'modifying latest revision', [['latest-revision', snapshot.revision], ['bump-amount', bump], ['new-latest-revision', snapshot.revision + bump]]);
	stderr += consoleLine(now, 'snapshot/v3_snapshot.go:333', 'restored snapshot', fields);
	return { stdout: '', stderr, exitCode: 0 };
}

const fail = (message: string, code: number): CommandResult => ({ stdout: '', stderr: `Error: ${message}\n`, exitCode: code });

function snapshotStatus(args: string[], format: string, read: (path: string) => string | undefined): CommandResult {
	// snapshot_command.go: exactly one argument, else ExitBadArgs (128).
	if (args.length !== 1) return fail('snapshot status requires exactly one argument', 128);
	if (!['simple', 'json', 'fields', 'table', 'protobuf'].includes(format)) return fail('unsupported output format', 4);
	const text = read(args[0]);
	if (text === undefined) return fail(`stat ${args[0]}: no such file or directory`, 1);
	const snapshot = decodeSnapshot(text);
	if (!snapshot) return fail('invalid database', 1);
	const hash = crc32c(text.replace(/\0+$/, ''));
	const row = [hash.toString(16), String(snapshot.revision), String(snapshot.kvs.length), humanizeBytes(snapshot.dbSizeBytes), snapshot.storageVersion];
	switch (format) {
		case 'table':
			return { stdout: renderTable(['hash', 'revision', 'total keys', 'total size', 'version'], [row]), stderr: '', exitCode: 0 };
		case 'json':
			return { stdout: goMarshal({ hash, revision: snapshot.revision, totalKey: snapshot.kvs.length, totalSize: snapshot.dbSizeBytes, version: snapshot.storageVersion }) + '\n', stderr: '', exitCode: 0 };
		case 'fields':
			return { stdout: `"Hash" : ${hash}\n"Revision" : ${snapshot.revision}\n"Keys" : ${snapshot.kvs.length}\n"Size" : ${snapshot.dbSizeBytes}\n"Version" : ${snapshot.storageVersion}\n`, stderr: '', exitCode: 0 };
		case 'protobuf':
			return fail('protobuf not supported as output format', 4);
		default:
			return { stdout: row.join(', ') + '\n', stderr: '', exitCode: 0 };
	}
}

/** The etcdutl command. It reads files from the host it runs on. */
export function createEtcdutl(deps?: EtcdutlDeps): CommandHandler {
	return ({ argv, host }) => {
		let parsed;
		try {
			parsed = parseFlags(argv.slice(1), FLAGS);
		} catch (error) {
			if (error instanceof FlagError) return fail(error.message, 1);
			throw error;
		}
		const [group, sub, ...rest] = parsed.args;
		const read = (path: string) => {
			try {
				return host.fs.readFile(path);
			} catch {
				return undefined;
			}
		};
		if (group === 'version') return { stdout: `etcdutl version: ${ETCD_VERSION}\nAPI version: ${ETCD_API_VERSION}\n`, stderr: '', exitCode: 0 };
		if (group === 'snapshot' && sub === 'status') return snapshotStatus(rest, parsed.values.get('write-out') ?? 'simple', read);
		if (group === 'snapshot' && sub === 'restore') return snapshotRestore(rest, parsed.values, host, deps);
		if (group === undefined) return { stdout: '', stderr: `etcdutl: ${goQuote('snapshot status <file>')}, ${goQuote('snapshot restore <file> --data-dir <dir>')} and ${goQuote('version')} are the commands simulated here\n`, exitCode: 1 };
		return fail(`etcdutl ${[group, sub].filter(Boolean).join(' ')} is not available in this simulation`, 1);
	}
}
