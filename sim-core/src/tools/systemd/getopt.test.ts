/**
 * GNU getopt_long as systemctl and journalctl use it: permuted operands,
 * combined short options, attached and detached arguments, unique long
 * prefixes, and glibc's error wording.
 */
import { describe, expect, it } from 'vitest';
import { getopt, type OptSpec } from './getopt.ts';

const specs: OptSpec[] = [
	{ key: 'unit', short: 'u', long: 'unit', arg: 'required' },
	{ key: 'pager-end', short: 'e', long: 'pager-end', arg: 'none' },
	{ key: 'catalog', short: 'x', long: 'catalog', arg: 'none' },
	{ key: 'lines', short: 'n', long: 'lines', arg: 'optional', takesNext: (w) => /^\d+$/.test(w) },
	{ key: 'no-pager', long: 'no-pager', arg: 'none' },
	{ key: 'no-hostname', long: 'no-hostname', arg: 'none' },
];

describe('getopt_long', () => {
	it.each([
		[['-xeu', 'kubelet'], [['catalog'], ['pager-end'], ['unit', 'kubelet']], []],
		[['-n20', 'a', '--unit=kubelet'], [['lines', '20'], ['unit', 'kubelet']], ['a']],
		[['-n', '5', '-n', '-e'], [['lines', '5'], ['lines'], ['pager-end']], []],
		[['--no-p', 'x', '--', '-e'], [['no-pager']], ['x', '-e']],
	])('%j', (args, opts, operands) => {
		const r = getopt('journalctl', args, specs);
		expect(r.ok && r.opts.map(([k, v]) => (v === undefined ? [k] : [k, v]))).toEqual(opts);
		expect(r.ok && r.operands).toEqual(operands);
	});

	it.each([
		[['-z'], "journalctl: invalid option -- 'z'"],
		[['--nope'], "journalctl: unrecognized option '--nope'"],
		[['-u'], "journalctl: option requires an argument -- 'u'"],
		[['--unit'], "journalctl: option '--unit' requires an argument"],
		[['--no'], "journalctl: option '--no' is ambiguous; possibilities: '--no-pager' '--no-hostname'"],
		[['--catalog=yes'], "journalctl: option '--catalog' doesn't allow an argument"],
	])('%j fails: %s', (args, error) => {
		expect(getopt('journalctl', args, specs)).toEqual({ ok: false, error });
	});
});
