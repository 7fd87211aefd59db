import fc from 'fast-check';
import { performance as perf } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import type { ShellSession } from './index.ts';
import { withFiles } from './testdata/harness.ts';

/** Whatever the input, exec returns a well-formed result, quickly, without an internal error, and the session stays usable. */
function check(s: ShellSession, input: string): void {
	const started = perf.now();
	const r = s.exec(input);
	expect(perf.now() - started).toBeLessThan(5000);
	expect(typeof r.stdout).toBe('string');
	expect(typeof r.stderr).toBe('string');
	expect(typeof r.output).toBe('string');
	expect(Number.isInteger(r.exitCode) && r.exitCode >= 0 && r.exitCode <= 255).toBe(true);
	expect(r.stderr).not.toContain('internal error');
	expect(typeof s.prompt()).toBe('string');
	expect(JSON.parse(JSON.stringify(s.toJSON())).v).toBe(1);
}

const CHARS = [...'abcxyz019 \t\n\r|&;()<>\'"`$\\#*?[]{}~=!-/.:,%^@+', '\u0000', '\u0007', '\u001b', 'é', '€', '𝄞', '\ud800'];
const WORDS = [
	'echo',
	'cat',
	'grep',
	'grep -E',
	'grep -o',
	'grep -A 2',
	'sed',
	'sed -n',
	'awk',
	'wc',
	'wc -l',
	'sort -n',
	'uniq -c',
	'cut -d: -f2',
	'tr',
	'head -n',
	'tail -n +2',
	'xargs',
	'xargs -n 1',
	'base64',
	'base64 -d',
	'seq',
	'column -t',
	'printf',
	'ls -l',
	'mkdir -p',
	'rm -rf',
	'touch',
	'cp -r',
	'mv',
	'tee',
	'cd',
	'export',
	'unset',
	'ssh node-1',
	'ssh',
	'exit',
	'history',
	'kubectl get pods',
	'bash -c',
	'source',
	'sudo',
	'env',
	'date',
	'sleep',
	'alias',
	'type',
	'which',
	'|',
	'||',
	'&&',
	';',
	'\n',
	'&',
	'>',
	'>>',
	'<',
	'2>&1',
	'&>',
	'<<EOF',
	"<<'EOF'",
	'EOF',
	'$(',
	')',
	'`',
	"'",
	'"',
	'\\',
	'$X',
	'${X:-y}',
	'$?',
	'~',
	'*',
	'*.txt',
	'pods.txt',
	'log.txt',
	'/',
	'..',
	'-',
	'--',
	'x',
	'5',
	'-1',
	"'{print $1}'",
	"'s/a/b/g'",
	"'(a*)*b'",
	'.*',
	'[a-z]+',
	'\\(',
	'{',
	'}',
	'%s\\n',
	'NR>1',
	'$NF',
	"'{s+=$1} END {print s}'",
	"'/a/ {print NF}'",
	"'s/\\(.\\)/\\1\\1/'",
	"'2,3d'",
	"'{print $1' ",
	"'BEGIN {x=1/0}'",
	'\'{$3=""; print}\'',
	'\'{gsub(/o/,"0")}1\'',
	"'[:upper:]'",
];

describe('exec never throws', () => {
	it('on random strings of shell-significant characters', () => {
		const s = withFiles();
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 300 }), (input) => check(s, input)),
			{ numRuns: 1500, seed: 42 },
		);
	});

	it('on token soup built from real commands, flags and operators', () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 25 }), (words) => check(withFiles(), words.join(' '))),
			{ numRuns: 4000, seed: 7 },
		);
	});

	it('on arbitrary Unicode, including lone surrogates', () => {
		const s = withFiles();
		fc.assert(
			fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => check(s, input)),
			{ numRuns: 500, seed: 3 },
		);
	});

	it('on very long lines', () => {
		const s = withFiles();
		fc.assert(
			fc.property(
				fc.constantFrom(...CHARS),
				fc.integer({ min: 10_000, max: 200_000 }),
				fc.constantFrom('', 'echo ', 'grep ', "'", '"', '$(', 'cat <<EOF\n', 'A='),
				(c, n, prefix) => check(s, prefix + c.repeat(n)),
			),
			{ numRuns: 40, seed: 11 },
		);
	});
});
