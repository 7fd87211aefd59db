/**
 * openssl's option parsing, as apps/lib/opt.c does it in OpenSSL 3.0: one
 * or two leading dashes, `-name value` or `-name=value`, parsing stops at
 * the first word that is not an option (genrsa's numbits). An option the
 * command's table lacks is tried as a digest (req, x509: `-sha256`) or a
 * cipher (genrsa, genpkey: `-aes256`) before it is refused, which is why
 * openssl's refusal names both.
 *
 * Mirrors openssl/openssl apps/lib/opt.c (opt_next, opt_md, opt_cipher_any).
 */

export type OptionKind = 'flag' | 'value';

/** One command's option table. */
export interface CommandSpec {
	/** The command's name, which opt.c prefixes to every complaint (`req: ...`). */
	prog: string;
	options: Readonly<Record<string, OptionKind>>;
	/** What a word missing from the table may be: a digest name, a cipher name, or nothing. */
	unknown: 'digest' | 'cipher' | 'none';
}

/** The options given, in command-line order (x509 prints its fields in that order), and the words after them. */
export interface ParsedOptions {
	seen: Array<{ name: string; value?: string }>;
	rest: string[];
	digest?: string;
	cipher?: string;
}

/** The digests OpenSSL 3.0's default provider fetches by name. */
const DIGESTS = new Set(['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha512-224', 'sha512-256', 'sha3-224', 'sha3-256', 'sha3-384', 'sha3-512', 'shake128', 'shake256', 'sm3', 'blake2b512', 'blake2s256', 'md5-sha1', 'ripemd160', 'rmd160']);

/** The ciphers readers put on genrsa/genpkey (`-aes256`, `-des3`...). */
const CIPHERS = new Set(['aes128', 'aes192', 'aes256', 'aes-128-cbc', 'aes-192-cbc', 'aes-256-cbc', 'aria128', 'aria192', 'aria256', 'camellia128', 'camellia192', 'camellia256', 'des', 'des3', 'des-ede3-cbc', 'idea', 'seed']);

const helpHint = (prog: string) => `${prog}: Use -help for summary.\n`;

/** What opt.c says about a word that is neither an option of the table nor a digest/cipher. */
function unknownOption(spec: CommandSpec, name: string): string {
	if (spec.unknown === 'digest') return `${spec.prog}: Unknown option or message digest: ${name}\n${helpHint(spec.prog)}`;
	// genrsa and genpkey hand the word to opt_cipher and end without the hint.
	if (spec.unknown === 'cipher') return `${spec.prog}: Unknown cipher: ${name}\n`;
	return `${spec.prog}: Unknown option: -${name}\n${helpHint(spec.prog)}`;
}

/** Parses `args` (argv after the command name); a string is the stderr of a refusal (exit 1). */
export function parseOptions(spec: CommandSpec, args: readonly string[]): ParsedOptions | string {
	const parsed: ParsedOptions = { seen: [], rest: [] };
	let i = 0;
	for (; i < args.length; i++) {
		const word = args[i];
		if (word === '--') {
			i++;
			break;
		}
		if (!word.startsWith('-') || word === '-') break;
		const body = word.slice(word.startsWith('--') ? 2 : 1);
		const eq = body.indexOf('=');
		const name = eq < 0 ? body : body.slice(0, eq);
		const kind = spec.options[name];
		if (kind === undefined) {
			const lower = name.toLowerCase();
			if (spec.unknown === 'digest' && DIGESTS.has(lower)) parsed.digest = lower;
			else if (spec.unknown === 'cipher' && CIPHERS.has(lower)) parsed.cipher = lower;
			else return unknownOption(spec, name);
			continue;
		}
		if (kind === 'flag') {
			parsed.seen.push({ name });
			continue;
		}
		const value = eq >= 0 ? body.slice(eq + 1) : args[++i];
		if (value === undefined) return `${spec.prog}: Option -${name} needs a value\n${helpHint(spec.prog)}`;
		parsed.seen.push({ name, value });
	}
	parsed.rest = args.slice(i);
	return parsed;
}

/** Whether `-name` was given. */
export function has(p: ParsedOptions, name: string): boolean {
	return p.seen.some((o) => o.name === name);
}

/** The value of the last `-name` given, as opt.c keeps only the last. */
export function value(p: ParsedOptions, name: string): string | undefined {
	return p.seen.findLast((o) => o.name === name)?.value;
}

/** Every value of a repeatable option (`-pkeyopt`), in order. */
export function values(p: ParsedOptions, name: string): string[] {
	return p.seen.filter((o) => o.name === name && o.value !== undefined).map((o) => o.value!);
}

/** opt_int: a whole number, or opt.c's complaint. */
export function parseInteger(prog: string, text: string): number | string {
	return /^[+-]?\d+$/.test(text) ? Number(text) : `${prog}: Can't parse "${text}" as a number\n${helpHint(prog)}`;
}

/** `-help`'s usage text: the options this simulated command knows, in opt.c's layout. */
export function usage(prog: string, rows: ReadonlyArray<readonly [string, string]>): string {
	const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
	return `Usage: ${prog} [options]\n${rows.map(([flag, text]) => ` ${flag.padEnd(width)}${text}\n`).join('')}`;
}
