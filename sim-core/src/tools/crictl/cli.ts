/**
 * crictl's command line as github.com/urfave/cli/v2 (v2.27) parses it on
 * top of Go's flag package: flags come before the arguments (parsing stops
 * at the first word that is not a flag, or after `--`), `-name`, `--name`,
 * `-name=value` and `-name value` all work, boolean flags take no value,
 * and with UseShortOptionHandling `-aq` means `-a -q`. A parse error prints
 * `Incorrect Usage: ...` and the command's help on stdout and then fails;
 * `-h`/`--help` prints the help.
 *
 * Mirrors golang/go src/flag/flag.go (parseOne), urfave/cli parse.go
 * (parseIter, splitShortOptions), urfave/cli flag.go (stringifyFlag),
 * urfave/cli template.go (CommandHelpTemplate).
 */
import { tryParseGoDurationMs } from '../../golang/duration.ts';

export type FlagKind = 'bool' | 'string' | 'int' | 'stringSlice' | 'duration';

/** One flag of a command, as the cli.Flag literal in cri-tools declares it. */
export interface FlagSpec {
	name: string;
	aliases?: readonly string[];
	kind: FlagKind;
	usage: string;
	/** The default (cli.Flag Value). */
	value?: string | number | boolean;
	envVars?: readonly string[];
}

/** One (sub)command. */
export interface CommandSpec {
	name: string;
	aliases?: readonly string[];
	usage: string;
	argsUsage?: string;
	description?: string;
	flags: readonly FlagSpec[];
	/** urfave UseShortOptionHandling. */
	shortOptions?: boolean;
}

/** Parsed flags: values by canonical name, which were set explicitly, and the remaining arguments. */
export interface ParsedFlags {
	values: Map<string, string | boolean | string[]>;
	set: Set<string>;
	args: string[];
	/** `-h`/`--help` was given. */
	help: boolean;
}

/** The help flag urfave adds to every command (cli.HelpFlag). */
export const HELP_FLAG: FlagSpec = { name: 'help', aliases: ['h'], kind: 'bool', usage: 'show help' };

/** A command-line error as Go's flag package words it. */
export class FlagError extends Error {}

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function lookup(specs: readonly FlagSpec[], name: string): FlagSpec | undefined {
	return specs.find((s) => s.name === name || (s.aliases ?? []).includes(name));
}

/** One pass of Go's FlagSet.Parse over `args`; throws FlagError. */
function parseOnce(args: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
	const out: ParsedFlags = { values: new Map(), set: new Set(), args: [], help: false };
	let i = 0;
	for (; i < args.length; i++) {
		const s = args[i];
		if (s.length < 2 || s[0] !== '-') break;
		let minuses = 1;
		if (s[1] === '-') {
			minuses = 2;
			if (s.length === 2) {
				i++;
				break;
			}
		}
		let name = s.slice(minuses);
		if (name.length === 0 || name[0] === '-' || name[0] === '=') throw new FlagError(`bad flag syntax: ${s}`);
		let value: string | undefined;
		const eq = name.indexOf('=');
		if (eq > 0) {
			value = name.slice(eq + 1);
			name = name.slice(0, eq);
		}
		const spec = lookup(specs, name);
		if (!spec) throw new FlagError(`flag provided but not defined: -${name}`);
		if (spec.kind === 'bool') {
			let on = true;
			if (value !== undefined) {
				if (BOOL_TRUE.has(value)) on = true;
				else if (BOOL_FALSE.has(value)) on = false;
				else throw new FlagError(`invalid boolean value "${value}" for -${name}: parse error`);
			}
			if (spec === HELP_FLAG) out.help = on;
			out.values.set(spec.name, on);
			out.set.add(spec.name);
			continue;
		}
		if (value === undefined) {
			if (i + 1 >= args.length) throw new FlagError(`flag needs an argument: -${name}`);
			value = args[++i];
		}
		if (spec.kind === 'int' && !/^[-+]?\d+$/.test(value)) throw new FlagError(`invalid value "${value}" for flag -${name}: parse error`);
		if (spec.kind === 'duration' && tryParseGoDurationMs(value) === undefined) throw new FlagError(`invalid value "${value}" for flag -${name}: parse error`);
		if (spec.kind === 'stringSlice') {
			const previous = out.values.get(spec.name);
			// urfave's StringSlice splits each value at commas.
			out.values.set(spec.name, [...(Array.isArray(previous) ? previous : []), ...value.split(',')]);
		} else out.values.set(spec.name, value);
		out.set.add(spec.name);
	}
	out.args = args.slice(i);
	return out;
}

/** urfave parseIter: Go's parse, retried with `-abc` split into `-a -b -c` when short option handling is on. */
export function parseFlags(args: readonly string[], specs: readonly FlagSpec[], shortOptions: boolean): ParsedFlags {
	let current = [...args];
	// Each retry splits one more argument; there are at most as many retries as arguments.
	for (let attempt = 0; attempt <= args.length; attempt++) {
		try {
			return parseOnce(current, specs);
		} catch (error) {
			if (!(error instanceof FlagError) || !shortOptions) throw error;
			const prefix = 'flag provided but not defined: -';
			if (!error.message.startsWith(prefix)) throw error;
			const bad = '-' + error.message.slice(prefix.length);
			const at = current.findIndex((a) => a === bad || a.startsWith(bad + '='));
			const arg = current[at];
			if (at < 0 || arg.startsWith('--') || arg.length <= 2 || arg.includes('=')) throw error;
			current = [...current.slice(0, at), ...[...arg.slice(1)].map((c) => '-' + c), ...current.slice(at + 1)];
		}
	}
	throw new FlagError('bad flag syntax');
}


export function flagBool(parsed: ParsedFlags, name: string): boolean {
	return parsed.values.get(name) === true;
}

/** The text after the flag's names in help: ` (default: x)` and ` [$ENV]`. */
function defaultText(spec: FlagSpec): string {
	if (spec.kind === 'bool') return ` (default: ${spec.value === true})`;
	if (spec.kind === 'int') return ` (default: ${spec.value ?? 0})`;
	if (spec.kind === 'duration') return ` (default: ${spec.value ?? '0s'})`;
	if (spec.kind === 'string' && spec.value !== undefined && spec.value !== '') return ` (default: "${spec.value}")`;
	return '';
}

/** urfave's stringifyFlag: `--name value, -n value` then a tab and the usage. */
function flagLine(spec: FlagSpec): string {
	const names = [spec.name, ...(spec.aliases ?? [])].map((n) => (n.length === 1 ? '-' : '--') + n + (spec.kind === 'bool' ? '' : ' value'));
	const env = spec.envVars?.length ? ` [${spec.envVars.map((e) => '$' + e).join(', ')}]` : '';
	return `${names.join(', ')}\t${spec.usage}${defaultText(spec)}${env}`;
}

/** text/tabwriter as urfave's HelpPrinter sets it up (minwidth 1, tabwidth 8, padding 2, ' '). */
function tabulate(lines: readonly string[], indent: string): string {
	const cells = lines.map((l) => l.split('\t'));
	const width = Math.max(1, ...cells.filter((c) => c.length > 1).map((c) => [...c[0]].length + 2));
	return cells.map((c) => indent + (c.length > 1 ? c[0].padEnd(width) + c.slice(1).join('\t') : c[0])).join('\n');
}

/** `crictl <command> --help` (CommandHelpTemplate). */
export function commandHelp(command: CommandSpec): string {
	const helpName = `crictl ${command.name}`;
	let out = `NAME:\n   ${helpName} - ${command.usage}\n\nUSAGE:\n   ${helpName} [command options]${command.argsUsage ? ' ' + command.argsUsage : ''}`;
	if (command.description) out += `\n\nDESCRIPTION:\n   ${command.description.split('\n').join('\n   ')}`;
	// main.go sorts every command's flags by name; urfave appends the help flag afterwards.
	const flags = [...command.flags].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	out += `\n\nOPTIONS:\n${tabulate([...flags, HELP_FLAG].map(flagLine), '   ')}\n`;
	return out;
}

/** `crictl --help` (AppHelpTemplate), listing the commands and the global flags. */
export function appHelp(commands: ReadonlyArray<{ names: string; usage: string }>, globalFlags: readonly FlagSpec[], version: string): string {
	const list = tabulate([...commands.map((c) => `${c.names}\t${c.usage}`), 'help, h\tShows a list of commands or help for one command'], '   ');
	const flags = tabulate([...globalFlags, HELP_FLAG, { name: 'version', aliases: ['v'], kind: 'bool', usage: 'print the version' } as FlagSpec].map(flagLine), '   ');
	return `NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options]\n\nVERSION:\n   ${version}\n\nCOMMANDS:\n${list}\n\nGLOBAL OPTIONS:\n${flags}\n`;
}
