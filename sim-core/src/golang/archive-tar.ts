/**
 * Tar archives, the stream `kubectl cp` sends through `kubectl exec`: the
 * container's `tar cf -` writes one, kubectl's archive/tar reads it (and
 * writes one for `tar -xmf -` to read). The format is the real one: 512-byte
 * headers with octal fields and a checksum, contents padded to 512 bytes, two
 * zero blocks at the end. An archive is a byte string (one character per
 * byte, 0 to 255), since exec's streams here are strings; file contents are
 * the UTF-8 bytes of the file's text.
 *
 * Only what the simulated file systems hold is written: regular files and
 * directories (typeflag '0' and '5'), names up to 100 bytes, or up to 256
 * with the USTAR prefix field. The reader takes any archive of those
 * (skipping other entry types' data) and stops at the end-of-archive marker,
 * ignoring what follows, as Go's Reader.Next does.
 *
 * Mirrors golang/go src/archive/tar/writer.go (Writer.WriteHeader),
 * golang/go src/archive/tar/reader.go (Reader.Next),
 * golang/go src/archive/tar/format.go (the USTAR and GNU header layouts).
 */
import { utf8Decode, utf8Encode } from './utf8.ts';

/** One member of an archive, as archive/tar's Header and the data after it. */
export interface TarEntry {
	/** The member name, as stored (`tmp/foo`, `tmp/dir/` for a directory). */
	name: string;
	type: 'file' | 'dir' | 'other';
	/** Permission bits (0o644). */
	mode: number;
	/** Modification time, seconds since the Unix epoch. */
	mtimeSec: number;
	/** The file's text (its bytes decoded as UTF-8); '' for a directory. */
	content: string;
}

const BLOCK = 512;

/** `ustar\0` + `00` (POSIX, Go's USTAR, busybox) or `ustar  \0` (GNU tar's own format). */
export type TarFormat = 'ustar' | 'gnu';

/** The UTF-8 bytes of `text` as a byte string (in chunks: a spread of a large array would overflow the stack). */
function bytesOf(text: string): string {
	const bytes = utf8Encode(text);
	let out = '';
	for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode(...bytes.slice(i, i + 8192));
	return out;
}

function octal(value: number, width: number): string {
	// width-1 octal digits, then a NUL, as both GNU tar and Go write numeric fields.
	return `${Math.max(0, Math.floor(value)).toString(8).padStart(width - 1, '0')}\0`;
}

function field(text: string, width: number): string {
	return text.slice(0, width).padEnd(width, '\0');
}

/** Splits a long name into the USTAR prefix and name fields, or undefined when it cannot be split. */
function splitName(name: string): { prefix: string; name: string } | undefined {
	if (name.length <= 100) return { prefix: '', name };
	for (let i = Math.min(name.length - 1, 155); i > 0; i--) {
		if (name[i] === '/' && name.length - i - 1 <= 100 && name.length - i - 1 > 0) return { prefix: name.slice(0, i), name: name.slice(i + 1) };
	}
	return undefined;
}

/** One header block. */
function header(entry: TarEntry, size: number, format: TarFormat): string | undefined {
	const split = splitName(bytesOf(entry.name));
	if (!split) return undefined;
	const typeflag = entry.type === 'dir' ? '5' : '0';
	// GNU's header has no prefix field (it writes a ././@LongLink member instead): a split name takes the USTAR layout.
	const magic = format === 'gnu' && !split.prefix ? 'ustar  \0' : 'ustar\u000000';
	const before = field(split.name, 100) + octal(entry.mode, 8) + octal(0, 8) + octal(0, 8) + octal(size, 12) + octal(entry.mtimeSec, 12);
	const after = typeflag + field('', 100) + magic + field('root', 32) + field('root', 32) + (format === 'gnu' && !split.prefix ? field('', 16) : octal(0, 8) + octal(0, 8)) + field(split.prefix, 155) + field('', 12);
	let sum = 0;
	for (const part of [before, ' '.repeat(8), after]) for (let i = 0; i < part.length; i++) sum += part.charCodeAt(i);
	// The checksum field: six octal digits, a NUL and a space.
	return before + `${sum.toString(8).padStart(6, '0')}\0 ` + after;
}

const padTo = (length: number) => '\0'.repeat((BLOCK - (length % BLOCK)) % BLOCK);

/**
 * Writes `entries` as an archive. `recordBlocks` pads the whole to a multiple
 * of that many blocks (GNU tar's blocking factor 20; busybox and Go write
 * none). Undefined when a name does not fit a header (the caller says so).
 */
export function writeTar(entries: readonly TarEntry[], format: TarFormat = 'ustar', recordBlocks = 0): { ok: true; archive: string } | { ok: false; name: string } {
	const parts: string[] = [];
	let length = 0;
	for (const entry of entries) {
		const data = entry.type === 'file' ? bytesOf(entry.content) : '';
		const head = header(entry, data.length, format);
		if (head === undefined) return { ok: false, name: entry.name };
		parts.push(head, data, padTo(data.length));
		length += BLOCK + data.length + padTo(data.length).length;
	}
	parts.push('\0'.repeat(2 * BLOCK));
	length += 2 * BLOCK;
	const record = recordBlocks * BLOCK;
	if (record > 0) parts.push('\0'.repeat((record - (length % record)) % record));
	return { ok: true, archive: parts.join('') };
}

function readField(block: string, offset: number, width: number): string {
	const raw = block.slice(offset, offset + width);
	const nul = raw.indexOf('\0');
	return nul < 0 ? raw : raw.slice(0, nul);
}

function readOctal(block: string, offset: number, width: number): number | undefined {
	const text = readField(block, offset, width).trim();
	if (text === '') return 0;
	return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : undefined;
}

/**
 * Reads an archive. `ok: false` with Go's error text when it is not one
 * (`archive/tar: invalid tar header`) or ends inside a member
 * (`unexpected EOF`). A stream that stops at a member boundary (an empty
 * one too) reads as the members so far, as Go's io.EOF there does;
 * `ended` tells whether the end-of-archive blocks came.
 */
export function readTar(archive: string, maxEntries = 10_000): { ok: true; entries: TarEntry[]; ended: boolean } | { ok: false; error: string; entries: TarEntry[] } {
	const entries: TarEntry[] = [];
	let at = 0;
	while (at < archive.length) {
		if (entries.length >= maxEntries) return { ok: false, error: 'archive/tar: too many entries', entries };
		const block = archive.slice(at, at + BLOCK);
		if (block.length < BLOCK) return { ok: false, error: 'unexpected EOF', entries };
		if (/^\0*$/.test(block)) {
			// One zero block, then a second: the end of the archive.
			const next = archive.slice(at + BLOCK, at + 2 * BLOCK);
			if (next.length < BLOCK) return next.length === 0 ? { ok: true, entries, ended: false } : { ok: false, error: 'unexpected EOF', entries };
			if (/^\0*$/.test(next)) return { ok: true, entries, ended: true };
			return { ok: false, error: 'archive/tar: invalid tar header', entries };
		}
		const size = readOctal(block, 124, 12);
		const mode = readOctal(block, 100, 8);
		const mtime = readOctal(block, 136, 12);
		const sum = readOctal(block, 148, 8);
		let computed = 0;
		for (let i = 0; i < BLOCK; i++) computed += i >= 148 && i < 156 ? 32 : block.charCodeAt(i);
		if (size === undefined || mode === undefined || mtime === undefined || sum !== computed) return { ok: false, error: 'archive/tar: invalid tar header', entries };
		const magic = block.slice(257, 263);
		const prefix = magic === 'ustar\0' ? readField(block, 345, 155) : '';
		const rawName = (prefix ? `${prefix}/` : '') + readField(block, 0, 100);
		const typeflag = block[156];
		const dataStart = at + BLOCK;
		const data = archive.slice(dataStart, dataStart + size);
		if (data.length < size) return { ok: false, error: 'unexpected EOF', entries };
		const name = utf8Decode(Array.from(rawName, (c) => c.charCodeAt(0)));
		const type = typeflag === '5' ? 'dir' : typeflag === '0' || typeflag === '\0' || typeflag === '7' ? 'file' : 'other';
		entries.push({ name, type, mode, mtimeSec: mtime, content: type === 'file' ? utf8Decode(Array.from(data, (c) => c.charCodeAt(0))) : '' });
		at = dataStart + size + padTo(size).length;
	}
	return { ok: true, entries, ended: false };
}
