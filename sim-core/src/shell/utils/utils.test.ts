import { describe, expect, it } from 'vitest';
import { CASES } from '../testdata/cases.ts';
import { withFiles } from '../testdata/harness.ts';

// Table-driven: every row runs in a fresh session with the sample files in the home directory.
for (const [name, rows] of Object.entries(CASES)) {
	describe(name, () => {
		it.each(rows)('$cmd', ({ cmd, stdin, out, err, code }) => {
			const r = withFiles().exec(cmd, { stdin });
			expect(r.stdout).toBe(out);
			if (err !== undefined) expect(r.stderr).toBe(err);
			else if (code === undefined || code < 2) expect(r.stderr).toBe('');
			if (code !== undefined) expect(r.exitCode).toBe(code);
			else expect(r.exitCode).toBe(0);
		});
	});
}
