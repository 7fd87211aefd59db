/**
 * The payload checks and the rewrite of a volume directory, after
 * pkg/volume/util/atomic_writer.go and the cases of atomic_writer_test.go
 * (TestValidatePath).
 */
import { describe, expect, it } from 'vitest';
import { MemoryFs } from '../../host/fs.ts';
import { nodeDiskFromFs } from '../../host/disk.ts';
import { validatePath, writePayload } from './atomic-writer.ts';

describe('validatePath', () => {
	it.each([
		['a', undefined],
		['a/b/c', undefined],
		['..a', "invalid path: must not start with '..': ..a"],
		['a..', undefined],
		['', 'invalid path: must not be empty: ""'],
		['/abs', 'invalid path: must be relative path: /abs'],
		['..', "invalid path: must not contain '..': .."],
		['a/../b', "invalid path: must not contain '..': a/../b"],
		['..x/y', "invalid path: must not start with '..': ..x/y"],
		[`${'x'.repeat(256)}`, 'invalid path: filenames must be less than or equal to 255 characters'],
		[`${'a/'.repeat(2100)}a`, 'invalid path: must be less than or equal to 4096 characters'],
	])('%j → %s', (path, error) => {
		expect(validatePath(path)).toBe(error);
	});
});

describe('writePayload', () => {
	it('writes the payload, then makes the directory hold exactly the new one', () => {
		const fs = new MemoryFs();
		const disk = nodeDiskFromFs(fs);
		expect(writePayload(disk, '/v', { 'a.txt': { data: 'A', mode: 0o644 }, 'conf/b.txt': { data: 'B', mode: 0o644 } })).toEqual({ ok: true, changed: true });
		expect(fs.readFile('/v/conf/b.txt')).toBe('B');
		expect(writePayload(disk, '/v', { 'a.txt': { data: 'A2', mode: 0o644 } })).toEqual({ ok: true, changed: true });
		expect(fs.list('/v')).toEqual(['a.txt']);
		expect(fs.readFile('/v/a.txt')).toBe('A2');
	});

	it('refuses an invalid payload and leaves the directory alone', () => {
		const fs = new MemoryFs();
		const disk = nodeDiskFromFs(fs);
		writePayload(disk, '/v', { keep: { data: 'k', mode: 0o644 } });
		expect(writePayload(disk, '/v', { '../escape': { data: 'x', mode: 0o644 } })).toEqual({ ok: false, error: "invalid path: must not contain '..': ../escape" });
		expect(fs.list('/v')).toEqual(['keep']);
	});
});
