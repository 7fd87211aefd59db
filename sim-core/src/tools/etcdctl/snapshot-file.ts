/**
 * The file `etcdctl snapshot save` writes, and what `etcdutl snapshot
 * status` reads back.
 *
 * A real snapshot is the member's bbolt database streamed as-is plus a
 * 32-byte SHA-256 trailer, so its size is the DB size + 32 bytes (size % 512
 * == 32). The simulated file keeps that size, but its content is readable: a
 * header line, the revision, then one line per live key
 * (`key<TAB>create<TAB>mod <TAB>version<TAB>lease<TAB>value`), padded with
 * NUL bytes (a terminal shows nothing for them, as for bbolt's empty pages).
 * Values are the JSON the simulated API server stores; a real cluster stores
 * protobuf.
 *
 * Mirrors etcd-io/etcd client/v3/snapshot/v3_snapshot.go (SaveWithVersion),
 * etcd-io/etcd etcdutl/snapshot/v3_snapshot.go (hasChecksum).
 */
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import type { KeyValue } from '../../etcd-api/etcd.ts';
import { forEachUtf8Byte, utf8Length } from '../../golang/utf8.ts';
import { ETCD_STORAGE_VERSION } from './types.ts';

/** The first line of a simulated snapshot file. */
const SNAPSHOT_MAGIC = '# etcd snapshot (sim-core): a bbolt database in a real cluster; here its live keys';
/** SHA-256 trailer length etcd appends to a snapshot (crypto/sha256.Size). */
const SNAPSHOT_CHECKSUM_BYTES = 32;

/** What a snapshot holds. */
interface SnapshotContent {
	revision: number;
	storageVersion: string;
	kvs: KeyValue[];
	/** The DB size the file stands for (file size minus the checksum). */
	dbSizeBytes: number;
}

/** The file text for the store's current state, `dbSizeBytes` + 32 bytes long (or longer if the keys need more room). */
export function encodeSnapshot(store: EtcdClient, dbSizeBytes: number): string {
	const kvs = store.range('', { prefix: true }).kvs;
	const lines = [SNAPSHOT_MAGIC, `revision ${store.revision} storage-version ${ETCD_STORAGE_VERSION}`];
	for (const kv of kvs) lines.push([kv.key, kv.createRevision, kv.modRevision, kv.version, kv.lease ?? 0, kv.value].join('\t'));
	const text = lines.join('\n') + '\n';
	const target = dbSizeBytes + SNAPSHOT_CHECKSUM_BYTES;
	// Sizes here are UTF-8 bytes, as the file system counts them.
	const length = utf8Length(text);
	return length >= target ? text : text + '\0'.repeat(target - length);
}

/** Reads a simulated snapshot; undefined when the file is not one (etcdutl: "invalid database"). */
export function decodeSnapshot(text: string): SnapshotContent | undefined {
	if (!text.startsWith(SNAPSHOT_MAGIC + '\n')) return undefined;
	const body = text.replace(/\0+$/, '');
	const lines = body.split('\n');
	const header = /^revision (\d+) storage-version (\S+)$/.exec(lines[1] ?? '');
	if (!header) return undefined;
	const kvs: KeyValue[] = [];
	for (const line of lines.slice(2)) {
		if (!line) continue;
		const fields = line.split('\t');
		if (fields.length < 6) return undefined;
		const [key, create, mod, version, lease] = fields;
		const kv: KeyValue = { key, value: fields.slice(5).join('\t'), createRevision: Number(create), modRevision: Number(mod), version: Number(version) };
		if (Number(lease)) kv.lease = Number(lease);
		kvs.push(kv);
	}
	const fileBytes = utf8Length(text);
	return { revision: Number(header[1]), storageVersion: header[2], kvs, dbSizeBytes: Math.max(0, fileBytes - SNAPSHOT_CHECKSUM_BYTES) };
}

/** CRC-32C (Castagnoli) of the text's UTF-8 bytes: etcdutl's snapshot HASH is a CRC-32C over the bolt buckets. */
export function crc32c(text: string): number {
	let crc = 0xffffffff;
	forEachUtf8Byte(text, (byte) => {
		crc ^= byte;
		for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
	});
	return (crc ^ 0xffffffff) >>> 0;
}
