/**
 * crictl's command line: Go's flag package under urfave/cli v2 (flags
 * before arguments, `-x value`, `--x=value`, bool flags without a value,
 * `-aq` split when a command enables short option handling), with the
 * error texts of flag/flag.go.
 */
import { describe, expect, it } from 'vitest';
import { commandHelp, FlagError, parseFlags, type FlagSpec } from './cli.ts';
import { tryParseGoDurationMs } from '../../golang/duration.ts';

const specs: FlagSpec[] = [
	{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Show all containers' },
	{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Only display container IDs' },
	{ name: 'output', aliases: ['o'], kind: 'string', usage: 'Output format', value: 'table' },
	{ name: 'last', aliases: ['n'], kind: 'int', usage: 'Show last n' },
	{ name: 'label', kind: 'stringSlice', usage: 'Filter by key=value label' },
];

describe('flag parsing', () => {
	it.each([
		[['-a'], { all: true }, []],
		[['--all', '-o', 'json'], { all: true, output: 'json' }, []],
		[['--output=yaml', 'x'], { output: 'yaml' }, ['x']],
		[['-aq'], { all: true, quiet: true }, []],
		[['-a=false'], { all: false }, []],
		[['-n', '3', 'id', '-q'], { last: '3' }, ['id', '-q']],
		[['--', '-a'], {}, ['-a']],
		[['--label', 'a=b', '--label', 'c=d,e=f'], { label: ['a=b', 'c=d', 'e=f'] }, []],
	])('%j', (args, values, rest) => {
		const parsed = parseFlags(args, specs, true);
		expect(Object.fromEntries(parsed.values)).toEqual(values);
		expect(parsed.args).toEqual(rest);
	});

	it.each([
		[['-x'], 'flag provided but not defined: -x'],
		[['--nope'], 'flag provided but not defined: -nope'],
		[['-o'], 'flag needs an argument: -o'],
		[['-n', 'many'], 'invalid value "many" for flag -n: parse error'],
		[['-a=maybe'], 'invalid boolean value "maybe" for -a: parse error'],
		[['---a'], 'bad flag syntax: ---a'],
	])('%j fails with %s', (args, message) => {
		expect(() => parseFlags(args, specs, true)).toThrow(new FlagError(message));
	});

	it('does not split combined short options for commands without short option handling', () => {
		expect(() => parseFlags(['-aq'], specs, false)).toThrow('flag provided but not defined: -aq');
	});

	it('reads Go durations', () => {
		expect(tryParseGoDurationMs('2s')).toBe(2000);
		expect(tryParseGoDurationMs('1m30s')).toBe(90_000);
		expect(tryParseGoDurationMs('500ms')).toBe(500);
		expect(tryParseGoDurationMs('soon')).toBeUndefined();
	});
});

describe('help', () => {
	it("lists a command's flags sorted by name, help last, with defaults as urfave prints them", () => {
		const text = commandHelp({ name: 'ps', usage: 'List containers', flags: specs });
		expect(text.split('\n').slice(0, 6)).toEqual(['NAME:', '   crictl ps - List containers', '', 'USAGE:', '   crictl ps [command options]', '']);
		expect(text).toContain('   --all, -a                 Show all containers (default: false)\n');
		expect(text).toContain('   --output value, -o value  Output format (default: "table")\n');
		expect(text.trimEnd().endsWith('--help, -h                show help (default: false)')).toBe(true);
	});
});
