/**
 * etcdctl's flags, parsed the way spf13/pflag does for cobra commands:
 * `--name=value`, `--name value`, `-w json`, `-wjson`, booleans without a
 * value, flags anywhere among the arguments, `--` ending them. Error texts
 * are pflag's (flag.go: "unknown flag: --%s", "flag needs an argument: %s",
 * "invalid argument %q for %q flag: %v").
 *
 * The global flags are etcdctl/ctlv3/ctl.go's persistent flags, with their
 * defaults and help strings (shown by `etcdctl --help`).
 *
 * Mirrors spf13/pflag flag.go (the error texts), etcd-io/etcd
 * etcdctl/ctlv3/ctl.go (the global flags).
 */
import { tryParseGoDurationMs } from '../../golang/duration.ts';

export type FlagKind = 'bool' | 'string' | 'stringSlice' | 'duration' | 'int' | 'int64';

export interface FlagSpec {
	name: string;
	shorthand?: string;
	kind: FlagKind;
	/** The default as pflag prints it (DefValue): `5s`, `[127.0.0.1:2379]`, `false`, `simple`. */
	def: string;
	usage: string;
}

/** Parsed flag values (as strings, the last one wins) and which were set on the command line. */
export interface ParsedFlags {
	values: Map<string, string>;
	changed: Set<string>;
	args: string[];
}

export class FlagError extends Error {}

/** etcdctl/ctlv3/ctl.go init(): the persistent flags every command inherits. */
export const GLOBAL_FLAGS: FlagSpec[] = [
	{ name: 'endpoints', kind: 'stringSlice', def: '[127.0.0.1:2379]', usage: 'gRPC endpoints' },
	{ name: 'debug', kind: 'bool', def: 'false', usage: 'enable client-side debug logging' },
	{ name: 'write-out', shorthand: 'w', kind: 'string', def: 'simple', usage: 'set the output format (fields, json, protobuf, simple, table)' },
	{ name: 'hex', kind: 'bool', def: 'false', usage: 'print byte strings as hex encoded strings' },
	{ name: 'dial-timeout', kind: 'duration', def: '2s', usage: 'dial timeout for client connections' },
	{ name: 'command-timeout', kind: 'duration', def: '5s', usage: 'timeout for short running command (excluding dial timeout)' },
	{ name: 'keepalive-time', kind: 'duration', def: '2s', usage: 'keepalive time for client connections' },
	{ name: 'keepalive-timeout', kind: 'duration', def: '6s', usage: 'keepalive timeout for client connections' },
	{ name: 'max-request-bytes', kind: 'int', def: '0', usage: 'client-side request send limit in bytes (if 0, it defaults to 2.0 MiB (2 * 1024 * 1024).)' },
	{ name: 'max-recv-bytes', kind: 'int', def: '0', usage: 'client-side response receive limit in bytes (if 0, it defaults to "math.MaxInt32")' },
	{ name: 'insecure-transport', kind: 'bool', def: 'true', usage: 'disable transport security for client connections' },
	{ name: 'insecure-discovery', kind: 'bool', def: 'true', usage: 'accept insecure SRV records describing cluster endpoints' },
	{ name: 'insecure-skip-tls-verify', kind: 'bool', def: 'false', usage: 'skip server certificate verification (CAUTION: this option should be enabled only for testing purposes)' },
	{ name: 'cert', kind: 'string', def: '', usage: 'identify secure client using this TLS certificate file' },
	{ name: 'key', kind: 'string', def: '', usage: 'identify secure client using this TLS key file' },
	{ name: 'cacert', kind: 'string', def: '', usage: 'verify certificates of TLS-enabled secure servers using this CA bundle' },
	{ name: 'user', kind: 'string', def: '', usage: 'username[:password] for authentication (prompt if password is not supplied)' },
	{ name: 'password', kind: 'string', def: '', usage: 'password for authentication (if this option is used, --user option shouldn\'t include password)' },
	{ name: 'discovery-srv', shorthand: 'd', kind: 'string', def: '', usage: 'domain name to query for SRV records describing cluster endpoints' },
	{ name: 'discovery-srv-name', kind: 'string', def: '', usage: 'service name to query when using DNS discovery' },
];

function checkValue(spec: FlagSpec, value: string): void {
	const bad = (why: string) => new FlagError(`invalid argument "${value}" for "${spec.shorthand ? `-${spec.shorthand}, ` : ''}--${spec.name}" flag: ${why}`);
	if (spec.kind === 'bool' && !/^(1|0|t|f|T|F|true|false|TRUE|FALSE|True|False)$/.test(value)) throw bad(`strconv.ParseBool: parsing "${value}": invalid syntax`);
	if ((spec.kind === 'int' || spec.kind === 'int64') && !/^[+-]?\d+$/.test(value)) throw bad(`strconv.Parse${spec.kind === 'int' ? 'Int' : 'Int'}: parsing "${value}": invalid syntax`);
	if (spec.kind === 'duration' && tryParseGoDurationMs(value) === undefined) throw bad(`time: invalid duration "${value}"`);
}

/** Parses argv (after the command path) against `specs`. Throws FlagError with pflag's wording. */
export function parseFlags(argv: readonly string[], specs: readonly FlagSpec[]): ParsedFlags {
	const values = new Map<string, string>();
	const changed = new Set<string>();
	const args: string[] = [];
	const set = (spec: FlagSpec, value: string) => {
		checkValue(spec, value);
		if (spec.kind === 'stringSlice') {
			const previous = changed.has(spec.name) ? values.get(spec.name) : undefined;
			values.set(spec.name, previous ? `${previous},${value}` : value);
		} else values.set(spec.name, value);
		changed.add(spec.name);
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--') {
			args.push(...argv.slice(i + 1));
			break;
		}
		if (arg.startsWith('--') && arg.length > 2) {
			const eq = arg.indexOf('=');
			const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
			const spec = specs.find((s) => s.name === name);
			if (!spec) throw new FlagError(`unknown flag: --${name}`);
			if (eq >= 0) set(spec, arg.slice(eq + 1));
			else if (spec.kind === 'bool') set(spec, 'true');
			else if (i + 1 < argv.length) set(spec, argv[++i]);
			else throw new FlagError(`flag needs an argument: --${name}`);
			continue;
		}
		if (arg.startsWith('-') && arg.length > 1) {
			// A run of shorthands: -w json, -wjson, -w=json, -h.
			for (let j = 1; j < arg.length; j++) {
				const letter = arg[j];
				const spec = specs.find((s) => s.shorthand === letter);
				if (!spec) throw new FlagError(`unknown shorthand flag: '${letter}' in ${arg}`);
				if (spec.kind === 'bool') {
					if (arg[j + 1] === '=') {
						set(spec, arg.slice(j + 2));
						break;
					}
					set(spec, 'true');
					continue;
				}
				const rest = arg.slice(j + 1);
				if (rest.length) set(spec, rest.startsWith('=') ? rest.slice(1) : rest);
				else if (i + 1 < argv.length) set(spec, argv[++i]);
				else throw new FlagError(`flag needs an argument: '${letter}' in -${letter}`);
				break;
			}
			continue;
		}
		args.push(arg);
	}
	for (const spec of specs) if (!values.has(spec.name)) values.set(spec.name, spec.kind === 'stringSlice' ? spec.def.replace(/^\[|\]$/g, '') : spec.def);
	return { values, changed, args };
}

/** ETCDCTL_DIAL_TIMEOUT for dial-timeout (pkg/flags FlagToEnv). */
export function flagToEnv(name: string): string {
	return 'ETCDCTL_' + name.toUpperCase().replaceAll('-', '_');
}

/**
 * pflag's FlagUsages as cobrautl prints them for etcd's help
 * (pkg/cobrautl/help.go etcdFlagUsages): one `  -w, --name=value\tusage`
 * line per flag, strings quoted, booleans as `[=false]`, sorted by name.
 */
export function flagUsages(specs: readonly FlagSpec[]): string {
	return [...specs]
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
		.map((spec) => {
			const head = spec.shorthand ? `  -${spec.shorthand}, --${spec.name}` : `      --${spec.name}`;
			const value = spec.kind === 'string' ? JSON.stringify(spec.def) : spec.def;
			return spec.kind === 'bool' ? `${head}[=${value}]\t${spec.usage}\n` : `${head}=${value}\t${spec.usage}\n`;
		})
		.join('');
}
