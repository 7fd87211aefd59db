import { describe, expect, it } from 'vitest';
import { readTar, writeTar, type TarEntry } from './archive-tar.ts';

const entries: TarEntry[] = [
	{ name: 'dir/', type: 'dir', mode: 0o755, mtimeSec: 1_700_000_000, content: '' },
	{ name: 'dir/a.txt', type: 'file', mode: 0o644, mtimeSec: 1_700_000_000, content: 'héllo\nworld\n' },
	{ name: 'dir/empty', type: 'file', mode: 0o644, mtimeSec: 1_700_000_000, content: '' },
];

describe('archive/tar', () => {
	it('writes 512-byte blocks that read back as the same members', () => {
		const written = writeTar(entries);
		expect(written.ok).toBe(true);
		if (!written.ok) return;
		// Three headers, one data block, two end blocks.
		expect(written.archive.length).toBe(6 * 512);
		expect(written.archive.slice(257, 265)).toBe('ustar\u000000');
		expect(readTar(written.archive)).toEqual({ ok: true, entries, ended: true });
	});

	it("pads to GNU tar's record and writes its magic", () => {
		const written = writeTar(entries, 'gnu', 20);
		expect(written.ok && written.archive.length).toBe(10_240);
		expect(written.ok && written.archive.slice(257, 265)).toBe('ustar  \u0000');
		expect(written.ok && readTar(written.archive)).toMatchObject({ ok: true, entries });
	});

	it('splits a long name into the USTAR prefix, and refuses one that cannot be split', () => {
		const long = `${'d'.repeat(120)}/${'f'.repeat(90)}`;
		const written = writeTar([{ ...entries[1], name: long }]);
		expect(written.ok && readTar(written.archive)).toMatchObject({ ok: true, entries: [{ name: long }] });
		expect(writeTar([{ ...entries[1], name: 'x'.repeat(300) }])).toEqual({ ok: false, name: 'x'.repeat(300) });
	});

	it("answers a stream that is cut short or is no archive with Go's errors", () => {
		const written = writeTar(entries);
		if (!written.ok) throw new Error('not written');
		expect(readTar(written.archive.slice(0, 700))).toMatchObject({ ok: false, error: 'unexpected EOF' });
		// Stopping at a member boundary is the quiet io.EOF.
		expect(readTar(written.archive.slice(0, 512))).toMatchObject({ ok: true, ended: false, entries: [entries[0]] });
		expect(readTar('')).toEqual({ ok: true, entries: [], ended: false });
		expect(readTar('x'.repeat(512))).toMatchObject({ ok: false, error: 'archive/tar: invalid tar header' });
		// What follows the end blocks (GNU's padding, a newline) is not read.
		expect(readTar(`${written.archive}\n`)).toMatchObject({ ok: true, ended: true });
	});
});
