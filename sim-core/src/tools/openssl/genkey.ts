/**
 * `openssl genrsa` and `openssl genpkey`: both write a private key
 * placeholder (PKCS #8, `BEGIN PRIVATE KEY`, as OpenSSL 3.0 writes by
 * default) to -out or stdout. No key is generated, so nothing random
 * happens; OpenSSL 3.0's genrsa prints its progress only with -verbose and
 * this one prints none. A pass phrase cannot be typed in this sandbox, so
 * encrypting the key needs -passout/-pass; the placeholder written is the
 * same.
 *
 * Mirrors openssl/openssl apps/genrsa.c (options and complaints),
 * apps/genpkey.c (options and complaints).
 */
import { privateKeyPem } from '../../host/pem.ts';
import type { CommandContext, CommandResult } from '../../shell/types.ts';
import { emit, Output } from './io.ts';
import { has, parseInteger, parseOptions, usage, value, values, type CommandSpec, type ParsedOptions } from './options.ts';

const GENRSA: CommandSpec = {
	prog: 'genrsa',
	options: { help: 'flag', out: 'value', passout: 'value', traditional: 'flag', f4: 'flag', '3': 'flag', primes: 'value', verbose: 'flag', quiet: 'flag' },
	unknown: 'cipher',
};

const GENPKEY: CommandSpec = {
	prog: 'genpkey',
	options: { help: 'flag', out: 'value', outform: 'value', pass: 'value', algorithm: 'value', pkeyopt: 'value', paramfile: 'value', genparam: 'flag' },
	unknown: 'cipher',
};

/** The key types OpenSSL 3.0's default provider generates, and the -pkeyopt names each takes. */
const ALGORITHMS: Readonly<Record<string, readonly string[]>> = {
	RSA: ['rsa_keygen_bits', 'rsa_keygen_primes', 'rsa_keygen_pubexp', 'bits', 'primes', 'e'],
	'RSA-PSS': ['rsa_keygen_bits', 'rsa_keygen_primes', 'rsa_keygen_pubexp', 'rsa_pss_keygen_md', 'rsa_pss_keygen_mgf1_md', 'rsa_pss_keygen_saltlen'],
	EC: ['ec_paramgen_curve', 'ec_param_enc', 'group', 'point-format'],
	ED25519: [],
	ED448: [],
	X25519: [],
	X448: [],
};

/** A cipher asks for a pass phrase on the terminal, which this sandbox cannot show. */
function passPhraseProblem(prog: string, p: ParsedOptions, passOption: string): string | undefined {
	if (p.cipher === undefined || value(p, passOption) !== undefined) return undefined;
	return `${prog}: this simulated shell cannot prompt for a pass phrase: give it with -${passOption} pass:..., or leave out -${p.cipher}\n`;
}

/** `openssl genrsa [-out FILE] [BITS]`. */
export function genrsa(ctx: CommandContext, args: readonly string[]): CommandResult {
	const o = new Output();
	const p = parseOptions(GENRSA, args);
	if (typeof p === 'string') return o.fail(p);
	if (has(p, 'help')) {
		o.err(usage('genrsa', [['-help', 'Display this summary'], ['-out outfile', 'Output the key to specified file'], ['-passout val', 'Output file pass phrase source'], ['-*', 'Encrypt the output with any supported cipher'], ['numbits', 'Size of key in bits']]));
		return o.done(0);
	}
	if (p.rest.length > 1) return o.fail('genrsa: Use -help for summary.\n');
	if (p.rest.length === 1) {
		const bits = parseInteger('genrsa', p.rest[0]);
		if (typeof bits === 'string') return o.fail(bits);
		if (bits <= 0) return o.fail(`genrsa: Can't parse "${p.rest[0]}" as a number\ngenrsa: Use -help for summary.\n`);
	}
	const problem = passPhraseProblem('genrsa', p, 'passout');
	if (problem) return o.fail(problem);
	return o.done(emit(ctx.host.fs, o, value(p, 'out'), privateKeyPem()) ? 0 : 1);
}

/** genpkey's -pkeyopt check: `name:value` with a name the algorithm takes. */
function pkeyoptProblem(algorithm: string, opts: readonly string[]): string | undefined {
	const known = ALGORITHMS[algorithm] ?? [];
	const bad = opts.find((opt) => {
		const colon = opt.indexOf(':');
		return colon <= 0 || !known.includes(opt.slice(0, colon));
	});
	return bad === undefined ? undefined : `Error setting ${bad} parameter\n`;
}

/** `openssl genpkey -algorithm RSA|EC|ED25519... [-pkeyopt name:value] [-out FILE]`. */
export function genpkey(ctx: CommandContext, args: readonly string[]): CommandResult {
	const o = new Output();
	const p = parseOptions(GENPKEY, args);
	if (typeof p === 'string') return o.fail(p);
	if (has(p, 'help')) {
		o.err(usage('genpkey', [['-help', 'Display this summary'], ['-out outfile', 'Output file'], ['-pass val', 'Output file pass phrase source'], ['-algorithm val', 'The public key algorithm'], ['-pkeyopt val', 'Set the public key algorithm option as opt:value'], ['-*', 'Cipher to use to encrypt the key']]));
		return o.done(0);
	}
	const requested = value(p, 'algorithm');
	if (p.rest.length || requested === undefined) return o.fail('genpkey: Use -help for summary.\n');
	const algorithm = Object.keys(ALGORITHMS).find((a) => a === requested.toUpperCase());
	if (algorithm === undefined) return o.fail(`Error initializing ${requested} context\n`);
	const problem = pkeyoptProblem(algorithm, values(p, 'pkeyopt')) ?? passPhraseProblem('genpkey', p, 'pass');
	if (problem) return o.fail(problem);
	return o.done(emit(ctx.host.fs, o, value(p, 'out'), privateKeyPem()) ? 0 : 1);
}
