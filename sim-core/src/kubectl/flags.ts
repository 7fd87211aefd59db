/**
 * kubectl's command-line parsing (cobra + pflag): flags may come before or
 * after positional arguments, long flags as `--name=value` or `--name value`,
 * short flags as `-n value`, `-nvalue` or `-n=value`, boolean short flags
 * combined (`-it`), and `--` ends the flags (what follows is passed through,
 * e.g. the command of `kubectl exec`). Errors use pflag's wording.
 *
 * Mirrors spf13/pflag flag.go (the parsing and its error wording),
 * spf13/cobra command.go.
 */
import { parseGoDurationMs } from '../golang/duration.ts';
import { extraGlobalFlags } from './global-options.ts';

export type FlagKind = 'bool' | 'string' | 'int' | 'stringArray' | 'duration';

/** One flag a command accepts. */
export interface FlagSpec {
	name: string;
	short?: string;
	kind: FlagKind;
	/** Default value, as kubectl's help shows it. */
	default?: string | number | boolean | string[];
	/** pflag's NoOptDefVal: the value of a non-boolean flag given without `=value` (`--dry-run` means `unchanged`). */
	noOptDefault?: string;
	/** For stringArray flags that pflag declares as StringArray (each occurrence one value, commas kept), not StringSlice. */
	noSplit?: boolean;
}

type FlagValue = string | number | boolean | string[];

export interface ParsedArgs {
	/** Flag values by long name (defaults filled in). */
	flags: Record<string, FlagValue>;
	/** Which flags the user set explicitly. */
	set: Set<string>;
	positionals: string[];
	/** Arguments after `--`. */
	passthrough: string[];
	/** Whether `--` appeared. */
	dashDash: boolean;
}

export class FlagError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'FlagError';
	}
}

function defaultFor(spec: FlagSpec): FlagValue {
	if (spec.default !== undefined) return spec.default;
	switch (spec.kind) {
		case 'bool':
			return false;
		case 'int':
			return 0;
		case 'stringArray':
			return [];
		default:
			return '';
	}
}

function convert(spec: FlagSpec, raw: string, display: string): FlagValue {
	switch (spec.kind) {
		case 'bool': {
			if (/^(1|t|T|true|TRUE|True)$/.test(raw)) return true;
			if (/^(0|f|F|false|FALSE|False)$/.test(raw)) return false;
			throw new FlagError(`invalid argument "${raw}" for "${display}" flag: strconv.ParseBool: parsing "${raw}": invalid syntax`);
		}
		case 'int': {
			if (!/^[-+]?\d+$/.test(raw)) throw new FlagError(`invalid argument "${raw}" for "${display}" flag: strconv.ParseInt: parsing "${raw}": invalid syntax`);
			return Number(raw);
		}
		case 'duration': {
			// pflag parses durations as it reads them (time.ParseDuration).
			try {
				parseGoDurationMs(raw);
			} catch (error) {
				throw new FlagError(`invalid argument "${raw}" for "${display}" flag: ${error instanceof Error ? error.message : String(error)}`);
			}
			return raw;
		}
		default:
			return raw;
	}
}

/** Parses `args` against the union of the command's and the global flags. */
export function parseFlags(args: string[], specs: FlagSpec[]): ParsedArgs {
	const byName = new Map(specs.map((s) => [s.name, s]));
	const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
	const flags: Record<string, FlagValue> = {};
	for (const spec of specs) flags[spec.name] = Array.isArray(spec.default) ? [...spec.default] : defaultFor(spec);
	const set = new Set<string>();
	const positionals: string[] = [];
	const assign = (spec: FlagSpec, raw: string, display: string) => {
		const value = convert(spec, raw, display);
		if (spec.kind === 'stringArray') {
			const list = set.has(spec.name) ? (flags[spec.name] as string[]) : [];
			list.push(...(spec.name === 'filename' || spec.name === 'selector' || spec.noSplit ? [raw] : raw.split(',')));
			flags[spec.name] = list;
		} else flags[spec.name] = value;
		set.add(spec.name);
	};
	let i = 0;
	for (; i < args.length; i++) {
		const arg = args[i];
		if (arg === '--') {
			return { flags, set, positionals, passthrough: args.slice(i + 1), dashDash: true };
		}
		if (arg.startsWith('--') && arg.length > 2) {
			const eq = arg.indexOf('=');
			const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
			const spec = byName.get(name);
			if (!spec) throw new FlagError(`unknown flag: --${name}`);
			if (eq !== -1) assign(spec, arg.slice(eq + 1), `--${name}`);
			else if (spec.kind === 'bool') assign(spec, 'true', `--${name}`);
			else if (spec.noOptDefault !== undefined) assign(spec, spec.noOptDefault, `--${name}`);
			else {
				if (i + 1 >= args.length) throw new FlagError(`flag needs an argument: --${name}`);
				assign(spec, args[++i], `--${name}`);
			}
			continue;
		}
		if (arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg)) {
			// A run of short flags: booleans combine; the first one taking a value eats the rest.
			for (let j = 1; j < arg.length; j++) {
				const short = arg[j];
				const spec = byShort.get(short);
				if (!spec) throw new FlagError(`unknown shorthand flag: '${short}' in ${arg}`);
				if (spec.kind === 'bool') {
					if (arg[j + 1] === '=') {
						assign(spec, arg.slice(j + 2), `-${short}, --${spec.name}`);
						break;
					}
					assign(spec, 'true', `-${short}, --${spec.name}`);
					continue;
				}
				let rest = arg.slice(j + 1);
				if (rest.startsWith('=')) rest = rest.slice(1);
				if (rest) assign(spec, rest, `-${short}, --${spec.name}`);
				else {
					if (i + 1 >= args.length) throw new FlagError(`flag needs an argument: '${short}' in -${short}`);
					assign(spec, args[++i], `-${short}, --${spec.name}`);
				}
				break;
			}
			continue;
		}
		positionals.push(arg);
	}
	return { flags, set, positionals, passthrough: [], dashDash: false };
}

/** The global flags the simulation reads itself; the rest of `kubectl options`' list is appended below. */
const READ_GLOBAL_FLAGS: FlagSpec[] = [
	{ name: 'namespace', short: 'n', kind: 'string' },
	{ name: 'v', short: 'v', kind: 'int', default: 0 },
	{ name: 'as', kind: 'string' },
	{ name: 'as-group', kind: 'stringArray' },
	{ name: 'request-timeout', kind: 'string', default: '0' },
	{ name: 'kubeconfig', kind: 'string' },
	{ name: 'context', kind: 'string' },
	{ name: 'cluster', kind: 'string' },
	{ name: 'user', kind: 'string' },
	{ name: 'server', short: 's', kind: 'string' },
	{ name: 'insecure-skip-tls-verify', kind: 'bool' },
	{ name: 'help', short: 'h', kind: 'bool' },
];

/** Flags every kubectl command accepts (kubectl options): those read above and the others, which global-options.ts says what becomes of. */
export const GLOBAL_FLAGS: FlagSpec[] = [...READ_GLOBAL_FLAGS, ...extraGlobalFlags(READ_GLOBAL_FLAGS)];
