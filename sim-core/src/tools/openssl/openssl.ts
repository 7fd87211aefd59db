/**
 * `openssl` on the simulated machines, for what readers do with it around
 * Kubernetes: make a key and a certificate signing request for a new user
 * (kubernetes.io's "Issue a Certificate for a Kubernetes API Client Using A
 * CertificateSigningRequest"), read the certificate the cluster issues, and
 * sign certificates with a CA by hand. The cluster holds no real key
 * material: keys, requests and certificates are the placeholder PEM files of
 * ../../host/pem.ts, whose comment lines carry the subject, issuer and
 * validity that openssl prints. Output and complaints are worded as
 * OpenSSL 3.0 (Debian 12's, Ubuntu 24.04's) words them.
 *
 * `nowMs` is the cluster's wall clock: a certificate signed here is valid
 * from then. Nothing is random: serials derive from what a certificate says.
 *
 * Each command mirrors its apps/*.c file (./req.ts, ./x509.ts, ./genkey.ts).
 *
 * Mirrors openssl/openssl apps/openssl.c (command dispatch, `version`,
 * `help`).
 */
import type { CommandContext, CommandResult } from '../../shell/types.ts';
import { genpkey, genrsa } from './genkey.ts';
import { parseOptions, has, type CommandSpec } from './options.ts';
import { req } from './req.ts';
import { x509 } from './x509.ts';

/** OpenSSL 3.0.15 (3 Sep 2024), the release Debian 12 ships as 3.0.15-1~deb12u1. */
const VERSION = 'OpenSSL 3.0.15 3 Sep 2024 (Library: OpenSSL 3.0.15 3 Sep 2024)';

/** What `openssl version -d/-e/-m/-p` print on Debian 12 (amd64). */
const VERSION_FIELDS: ReadonlyArray<readonly [string, string]> = [
	['p', 'platform: debian-amd64'],
	['d', 'OPENSSLDIR: "/usr/lib/ssl"'],
	['e', 'ENGINESDIR: "/usr/lib/x86_64-linux-gnu/engines-3"'],
	['m', 'MODULESDIR: "/usr/lib/x86_64-linux-gnu/ossl-modules"'],
];

const VERSION_SPEC: CommandSpec = { prog: 'version', options: { help: 'flag', a: 'flag', v: 'flag', p: 'flag', d: 'flag', e: 'flag', m: 'flag' }, unknown: 'none' };

/** Commands a real openssl has that this one does not simulate: they get a plain note instead of "Invalid command". */
const NOT_SIMULATED = new Set(['asn1parse', 'ca', 'ciphers', 'cms', 'crl', 'crl2pkcs7', 'dgst', 'dhparam', 'dsa', 'dsaparam', 'ec', 'ecparam', 'enc', 'errstr', 'gendsa', 'kdf', 'list', 'mac', 'ocsp', 'passwd', 'pkcs12', 'pkcs7', 'pkcs8', 'pkey', 'pkeyparam', 'pkeyutl', 'prime', 'rand', 'rehash', 'rsa', 'rsautl', 's_client', 's_server', 's_time', 'sess_id', 'smime', 'speed', 'spkac', 'srp', 'storeutl', 'ts', 'verify']);

/** The commands this openssl runs, each given argv after its name. */
const COMMANDS: Readonly<Record<string, (ctx: CommandContext, args: readonly string[], nowMs: number) => CommandResult>> = {
	genpkey,
	genrsa,
	req,
	x509,
	version: (_ctx, args) => version(args),
	help: () => help(),
};

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const fail = (stderr: string): CommandResult => ({ stdout: '', stderr, exitCode: 1 });

/** `openssl version [-a|-v|-d|-e|-m|-p]`. */
function version(args: readonly string[]): CommandResult {
	const p = parseOptions(VERSION_SPEC, args);
	if (typeof p === 'string') return fail(p);
	if (p.rest.length) return fail('version: Use -help for summary.\n');
	const all = has(p, 'a');
	const fields = VERSION_FIELDS.filter(([flag]) => all || has(p, flag)).map(([, line]) => `${line}\n`);
	// With only field flags, openssl prints those fields and not the version line.
	const versionLine = all || has(p, 'v') || !fields.length ? `${VERSION}\n` : '';
	return ok(versionLine + fields.join(''));
}

/** `openssl help`: the "Standard commands" table (four 18-wide columns) of the commands simulated here. */
function help(): CommandResult {
	const names = Object.keys(COMMANDS).sort();
	const rows: string[] = [];
	for (let i = 0; i < names.length; i += 4) rows.push(names.slice(i, i + 4).map((n) => n.padEnd(18)).join('') + '\n');
	return ok(`help:\n\nStandard commands\n${rows.join('')}\n(this simulated openssl has only these commands)\n`);
}

/**
 * `openssl COMMAND ...`: runs one of the commands above; a name openssl
 * does not know gets its `Invalid command` answer.
 */
export function openssl(ctx: CommandContext, nowMs: number): CommandResult {
	const [, name = 'help', ...args] = ctx.argv;
	const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
	if (command) return command(ctx, args, nowMs);
	if (NOT_SIMULATED.has(name)) return fail(`openssl: '${name}' is a real openssl command that this simulated machine does not have: here there are ${Object.keys(COMMANDS).sort().join(', ')}\n`);
	return fail(`Invalid command '${name}'; type "help" for a list.\n`);
}
