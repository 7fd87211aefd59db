/**
 * `etcdutl`, etcd's offline utility (etcd-io/etcd etcdutl, v3.6), for the
 * one job readers need after `etcdctl snapshot save`: `etcdutl snapshot
 * status FILE [-w table|json|fields|simple]`, plus `etcdutl version`. In 3.6
 * `snapshot status` exists only here: etcdctl 3.5 printed "Deprecated: Use
 * `etcdutl snapshot status` instead." and 3.6 removed the etcdctl command
 * (`etcdctl snapshot status` now just prints the snapshot command's help).
 *
 * It reads files written by etcdctl's simulated snapshot save
 * (snapshot-file.ts); it needs no cluster.
 *
 * Mirrors etcd-io/etcd etcdutl/etcdutl/snapshot_command.go, etcd-io/etcd
 * etcdutl/etcdutl/printer.go (makeDBStatusTable: HASH, REVISION, TOTAL KEYS,
 * TOTAL SIZE, VERSION), etcd-io/etcd etcdutl/snapshot/v3_snapshot.go
 * (Status: live keys, last revision, the database size, CRC-32C hash,
 * storage version).
 */
import type { CommandHandler, CommandResult } from '../../shell/types.ts';
import { goQuote } from '../../golang/json.ts';
import { humanizeBytes } from '../common/humanize.ts';
import { goMarshal } from '../../golang/json.ts';
import { renderTable } from '../common/tablewriter.ts';
import { FlagError, parseFlags, type FlagSpec } from './flags.ts';
import { crc32c, decodeSnapshot } from './snapshot-file.ts';
import { ETCD_API_VERSION, ETCD_VERSION } from './types.ts';

const FLAGS: FlagSpec[] = [
	{ name: 'write-out', shorthand: 'w', kind: 'string', def: 'simple', usage: 'set the output format (fields, json, protobuf, simple, table)' },
	{ name: 'help', shorthand: 'h', kind: 'bool', def: 'false', usage: 'help for etcdutl' },
];

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
export function createEtcdutl(): CommandHandler {
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
		if (group === undefined) return { stdout: '', stderr: `etcdutl: ${goQuote('snapshot status <file>')} and ${goQuote('version')} are the commands simulated here\n`, exitCode: 1 };
		return fail(`etcdutl ${[group, sub].filter(Boolean).join(' ')} is not available in this simulation`, 1);
	}
}
