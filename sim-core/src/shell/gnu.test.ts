/**
 * Opt-in check of the expected outputs in testdata/cases.ts against the real
 * bash, GNU coreutils/grep/sed and awk of the machine (GNU_CROSSCHECK=1; the
 * simulation itself is not involved). It is how those expectations were
 * verified; rows marked `sim` describe simulated-only behaviour and are skipped.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CASES } from './testdata/cases.ts';
import { FILES } from './testdata/harness.ts';

describe.skipIf(!process.env.GNU_CROSSCHECK)('expected outputs match GNU tools', () => {
	for (const [name, rows] of Object.entries(CASES))
		it.each(rows.filter((r) => !r.sim))(`${name}: $cmd`, (row) => {
			const dir = mkdtempSync(join(tmpdir(), 'shell-gnu-'));
			for (const [k, v] of Object.entries(FILES)) writeFileSync(join(dir, k), v);
			const r = spawnSync('bash', ['-c', row.cmd], { cwd: dir, env: { LC_ALL: 'C.UTF-8', PATH: process.env.PATH, HOME: dir }, input: row.stdin ?? '' });
			expect(r.stdout.toString()).toBe(row.out);
			// bash -c prefixes its own messages with "line N:"; GNU tools may use typographic quotes.
			expect(
				r.stderr
					.toString()
					.replace(/^bash: line \d+: /gm, 'bash: ')
					.replace(/[‘’]/g, "'"),
			).toBe(row.err ?? '');
			expect(r.status).toBe(row.code ?? 0);
		});
});
