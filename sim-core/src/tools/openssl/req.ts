/**
 * `openssl req`: `-new -key KEY -subj SUBJ` writes a certificate request
 * placeholder carrying the subject as typed (every attribute, in order);
 * `-x509` a self-signed certificate instead (the "hard way" CA); `-newkey`
 * also writes a key. `-in CSR` reads a request back for `-text`,
 * `-subject`, `-verify`. Without -subj a real openssl asks for the name on
 * the terminal, which this sandbox cannot do, so it says so.
 *
 * A subject without CN is accepted, as openssl accepts it; the request then
 * names no user, and this cluster's API server refuses it as unreadable
 * (parseCertificateRequest finds no CN), where a real one would issue a
 * certificate that authenticates no one.
 *
 * Mirrors openssl/openssl apps/req.c (OpenSSL 3.0: options, print order,
 * messages).
 */
import { certificatePem, certificateRequestPem, nameFromAttributes, pemBlock, pemFields, privateKeyPem, type NameAttribute } from '../../host/pem.ts';
import type { CommandContext, CommandResult } from '../../shell/types.ts';
import { emit, isPrivateKey, isRequest, loadRequest, Output, storeLoad } from './io.ts';
import { derivedSerial, onelineName, parseSubject } from './names.ts';
import { has, parseInteger, parseOptions, usage, value, type CommandSpec, type ParsedOptions } from './options.ts';
import { certificateText, requestText } from './print.ts';

const REQ: CommandSpec = {
	prog: 'req',
	options: {
		help: 'flag', in: 'value', inform: 'value', out: 'value', outform: 'value', key: 'value', keyform: 'value', new: 'flag', newkey: 'value', keyout: 'value', nodes: 'flag', noenc: 'flag',
		subj: 'value', x509: 'flag', days: 'value', set_serial: 'value', text: 'flag', noout: 'flag', subject: 'flag', verify: 'flag', batch: 'flag', utf8: 'flag', nameopt: 'value', reqopt: 'value',
		config: 'value', addext: 'value', extensions: 'value', reqexts: 'value', passin: 'value', passout: 'value', sigopt: 'value', 'multivalue-rdn': 'flag', copy_extensions: 'value', verbose: 'flag', quiet: 'flag',
	},
	unknown: 'digest',
};

const HELP: ReadonlyArray<readonly [string, string]> = [
	['-help', 'Display this summary'],
	['-in infile', 'X.509 request input file (default stdin)'],
	['-out outfile', 'Output file'],
	['-new', 'New request'],
	['-key val', 'Key for signing, and to include unless -in given'],
	['-newkey val', 'Generate new key with [<alg>:]<nbits> or <alg>[:<file>] or param:<file>'],
	['-keyout outfile', 'File to write private key to'],
	['-noenc', "Don't encrypt private keys"],
	['-subj val', "Set or modify subject of request or cert"],
	['-x509', 'Output an X.509 certificate structure instead of a cert request'],
	['-days +int', 'Number of days cert is valid for'],
	['-text', 'Text form of request'],
	['-noout', 'Do not output REQ'],
	['-subject', 'Print the subject of the output request or cert'],
	['-verify', 'Verify self-signature on the request'],
];

/** Debian's /usr/lib/ssl/openssl.cnf: the name `-batch` takes from the [req_distinguished_name] defaults. */
const CONFIG_DEFAULT_SUBJECT: NameAttribute[] = [
	['C', 'AU'],
	['ST', 'Some-State'],
	['O', 'Internet Widgits Pty Ltd'],
];

/** Debian's openssl.cnf default_keyfile, where -new without -key or -keyout writes the key it generates. */
const DEFAULT_KEYFILE = 'privkey.pem';

/**
 * The progress a generating req prints (`.` per candidate, `+` per passed
 * test, `*` per prime found), then the `-----` that closes it. Fixed, where
 * a real run's depends on its random numbers.
 */
const KEYGEN_PROGRESS = '..+.....+...+++++++++++++++++++++++++++++++++++++++*...+.+......+++++++++++++++++++++++++++++++++++++++*....\n-----\n';

const NO_PROMPT =
	'req: this simulated shell cannot prompt for the Distinguished Name: give it with -subj, for example -subj "/CN=myuser/O=dev" (or -batch for the config file\'s defaults)\n';

/** -set_serial: decimal or 0x-hex, as upper-case hex; undefined when it is neither. */
export function serialOption(text: string): string | undefined {
	if (!/^(0[xX][0-9A-Fa-f]+|\d+)$/.test(text)) return undefined;
	const hex = BigInt(text).toString(16).toUpperCase();
	return hex.length % 2 ? `0${hex}` : hex;
}

/** The subject of a new request: -subj, or -batch's defaults; a string is the refusal. */
function newSubject(p: ParsedOptions): { attributes: NameAttribute[]; warnings: string } | string {
	const subj = value(p, 'subj');
	if (subj !== undefined) return parseSubject('req', subj);
	return has(p, 'batch') ? { attributes: CONFIG_DEFAULT_SUBJECT, warnings: '' } : NO_PROMPT;
}

/** -key, or a key generated into -keyout (a stand-in: nothing is generated); a string is the refusal. */
function signingKey(ctx: CommandContext, o: Output, p: ParsedOptions): true | string {
	const keyFile = value(p, 'key');
	if (keyFile !== undefined) {
		const loaded = storeLoad(ctx.host.fs, ctx.stdin, keyFile, 'private key', isPrivateKey, false);
		return loaded.ok ? true : loaded.stderr;
	}
	if (!has(p, 'nodes') && !has(p, 'noenc') && value(p, 'passout') === undefined) {
		return 'req: this simulated shell cannot prompt for a PEM pass phrase: add -noenc (or -nodes) to leave the new key unencrypted, or give -passout pass:...\n';
	}
	if (!(value(p, 'newkey') ?? 'rsa').toLowerCase().startsWith('ec') && !has(p, 'quiet')) o.err(KEYGEN_PROGRESS);
	// emit has already said why the key file could not be written.
	return emit(ctx.host.fs, o, value(p, 'keyout') ?? DEFAULT_KEYFILE, privateKeyPem()) ? true : '';
}

/** A new request, or with -x509 a self-signed certificate, from -subj and the key. */
function create(ctx: CommandContext, o: Output, p: ParsedOptions, nowMs: number, subjectFrom?: NameAttribute[]): { pem: string; subject: NameAttribute[]; text: string } | string {
	const subject = subjectFrom ? { attributes: subjectFrom, warnings: '' } : newSubject(p);
	if (typeof subject === 'string') return subject;
	const days = parseInteger('req', value(p, 'days') ?? '30');
	if (typeof days === 'string') return days;
	const serialText = value(p, 'set_serial');
	const serial = serialText === undefined ? derivedSerial(`${onelineName(subject.attributes)}@${nowMs}`) : serialOption(serialText);
	if (serial === undefined) return `req: Error parsing serial number ${serialText}\n`;
	const key = signingKey(ctx, o, p);
	if (key !== true) return key;
	o.err(subject.warnings);
	const name = nameFromAttributes(subject.attributes);
	if (!has(p, 'x509')) return { pem: certificateRequestPem(name), subject: subject.attributes, text: requestText(subject.attributes) };
	const notBefore = Math.floor(nowMs / 1000) * 1000;
	const notAfter = notBefore + days * 86_400_000;
	const pem = certificatePem({ subject: name, issuer: name, notBefore, notAfter, serial });
	return { pem, subject: subject.attributes, text: certificateText({ subject: subject.attributes, issuer: subject.attributes, notBefore, notAfter, serial }) };
}

/** The PEM block alone, as openssl writes back what it read (text around the block is dropped). */
export function reencoded(text: string): string {
	const block = pemBlock(text)!;
	return `-----BEGIN ${block.type}-----\n${block.body}-----END ${block.type}-----\n`;
}

/** `openssl req`. */
export function req(ctx: CommandContext, args: readonly string[], nowMs: number): CommandResult {
	const o = new Output();
	const p = parseOptions(REQ, args);
	if (typeof p === 'string') return o.fail(p);
	if (has(p, 'help')) {
		o.err(usage('req', HELP));
		return o.done(0);
	}
	if (p.rest.length) return o.fail('req: Use -help for summary.\n');
	const infile = value(p, 'in');
	const creating = has(p, 'new') || has(p, 'newkey') || has(p, 'x509');
	let made: { pem: string; subject: NameAttribute[]; text: string } | string;
	if (creating && (infile === undefined || !has(p, 'x509'))) {
		made = create(ctx, o, p, nowMs);
	} else {
		const loaded = loadRequest(ctx.host.fs, ctx.stdin, infile, 'X509 request', isRequest);
		if (!loaded.ok) return o.fail(loaded.stderr);
		const subject = pemFields(loaded.text)?.subject ?? [];
		if (has(p, 'verify')) o.err('Certificate request self-signature verify OK\n');
		// `-in CSR -x509` signs the request's subject with -key.
		made = has(p, 'x509') ? create(ctx, o, p, nowMs, subject) : { pem: reencoded(loaded.text), subject, text: requestText(subject) };
	}
	if (typeof made === 'string') return o.fail(made);
	let out = '';
	if (has(p, 'text')) out += made.text;
	if (has(p, 'subject')) out += `subject=${onelineName(made.subject)}\n`;
	if (!has(p, 'noout')) out += made.pem;
	return o.done(emit(ctx.host.fs, o, value(p, 'out'), out) ? 0 : 1);
}
