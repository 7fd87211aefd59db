/**
 * `openssl x509`: reads a certificate (-in, or stdin) and prints the fields
 * asked for in command-line order (`-subject`, `-issuer`, `-dates`,
 * `-text`...), then the certificate itself unless -noout, all to -out or
 * stdout. With -req it signs a request instead: the subject is the
 * request's, the issuer the subject of -CA (or the request's own with
 * -signkey/-key), valid from now for -days (30 by default), and the serial
 * comes from the CA's .srl file, as OpenSSL 3.0 keeps it: read and
 * incremented when the file exists, created by -CAcreateserial, otherwise a
 * fresh number and no file.
 *
 * Mirrors openssl/openssl apps/x509.c (OpenSSL 3.0: options, print order,
 * x509_certify's serial handling and messages).
 */
import { certificatePem, nameFromAttributes, pemFields, type NameAttribute } from '../../host/pem.ts';
import type { CommandContext, CommandResult } from '../../shell/types.ts';
import { emit, isCertificate, isPrivateKey, isRequest, loadRequest, Output, readIfPresent, storeLoad } from './io.ts';
import { derivedSerial, nextSerial, onelineName } from './names.ts';
import { has, parseInteger, parseOptions, usage, value, type CommandSpec, type ParsedOptions } from './options.ts';
import { certificateField, type CertificateView } from './print.ts';
import { reencoded, serialOption } from './req.ts';

const X509: CommandSpec = {
	prog: 'x509',
	options: {
		help: 'flag', in: 'value', inform: 'value', out: 'value', outform: 'value', req: 'flag', CA: 'value', CAform: 'value', CAkey: 'value', CAkeyform: 'value', CAserial: 'value', CAcreateserial: 'flag',
		set_serial: 'value', days: 'value', signkey: 'value', key: 'value', keyform: 'value', passin: 'value', noout: 'flag', text: 'flag', subject: 'flag', issuer: 'flag', dates: 'flag', startdate: 'flag',
		enddate: 'flag', serial: 'flag', checkend: 'value', nameopt: 'value', certopt: 'value', extfile: 'value', extensions: 'value', copy_extensions: 'value', clrext: 'flag', sigopt: 'value', vfyopt: 'value',
	},
	unknown: 'digest',
};

const HELP: ReadonlyArray<readonly [string, string]> = [
	['-help', 'Display this summary'],
	['-in infile', 'Certificate input, or CSR input file with -req (default stdin)'],
	['-out outfile', 'Output file - default stdout'],
	['-req', 'Input is a CSR file (rather than a certificate)'],
	['-CA infile', 'Use the given CA certificate, conflicts with -key'],
	['-CAkey val', 'The corresponding CA key (default is -CA arg)'],
	['-CAserial val', 'File that keeps track of CA-generated serial number'],
	['-CAcreateserial', 'Create CA serial number file if it does not exist'],
	['-days int', 'Number of days until newly generated certificate expires - default 30'],
	['-signkey val', 'Same as -key'],
	['-noout', 'No output (except for printing options)'],
	['-text', 'Print the certificate in text form'],
	['-subject', 'Print subject DN'],
	['-issuer', 'Print issuer DN'],
	['-dates', 'Print both notBefore and notAfter fields'],
	['-startdate', 'Print the notBefore field'],
	['-enddate', 'Print the notAfter field'],
	['-serial', 'Print serial number value'],
	['-checkend intmax', 'Check whether cert expires in the next arg seconds'],
];

/** The options that print a field, each printed where it stands on the command line. */
const PRINTS = new Set(['text', 'subject', 'issuer', 'dates', 'startdate', 'enddate', 'serial']);

/** A placeholder's fields as openssl shows them; the serial of one without (kubeadm's) is derived from its text, so it stays the same. */
export function certificateView(pem: string): CertificateView {
	const fields = pemFields(pem);
	return {
		subject: fields?.subject ?? [],
		issuer: fields?.issuer,
		notBefore: fields?.notBefore,
		notAfter: fields?.notAfter,
		serial: fields?.serial ?? derivedSerial(pem),
	};
}

/** `ca.crt` → `ca.srl`: the CA file's name with its extension replaced, as x509.c builds the default -CAserial. */
function serialFileFor(caFile: string): string {
	const slash = caFile.lastIndexOf('/');
	const dot = caFile.lastIndexOf('.');
	return `${dot > slash ? caFile.slice(0, dot) : caFile}.srl`;
}

/** The serial of a certificate being issued, writing the .srl file back when openssl would; a string is the refusal. */
function issueSerial(ctx: CommandContext, o: Output, p: ParsedOptions, seed: string): { serial: string } | string {
	const given = value(p, 'set_serial');
	if (given !== undefined) {
		const serial = serialOption(given);
		return serial === undefined ? `x509: Error parsing serial number ${given}\n` : { serial };
	}
	const caFile = value(p, 'CA');
	if (caFile === undefined) return { serial: derivedSerial(seed) };
	const srlFile = value(p, 'CAserial') ?? serialFileFor(caFile);
	const existing = readIfPresent(ctx.host.fs, srlFile);
	if (existing === undefined && !has(p, 'CAcreateserial')) return { serial: derivedSerial(seed) };
	const serial = existing === undefined ? derivedSerial(seed) : nextSerial(existing);
	if (serial === undefined) return `unable to load number from ${srlFile}\nerror while loading serial number\n`;
	return emit(ctx.host.fs, o, srlFile, `${serial}\n`) ? { serial } : '';
}

/** The issuer of a certificate signed from a request: -CA's subject (its key loaded too), or the request's own for -signkey/-key. */
function issuerOf(ctx: CommandContext, p: ParsedOptions, subject: readonly NameAttribute[]): { issuer: readonly NameAttribute[] } | string {
	const caFile = value(p, 'CA');
	const fs = ctx.host.fs;
	if (caFile !== undefined) {
		const ca = storeLoad(fs, ctx.stdin, caFile, 'CA certificate', isCertificate, true);
		if (!ca.ok) return ca.stderr;
		// Without -CAkey, openssl looks for the key in the -CA file itself.
		const caKey = storeLoad(fs, ctx.stdin, value(p, 'CAkey') ?? caFile, 'CA private key', isPrivateKey, false);
		if (!caKey.ok) return caKey.stderr;
		return { issuer: certificateView(ca.text).subject };
	}
	const keyFile = value(p, 'signkey') ?? value(p, 'key');
	if (keyFile === undefined) return 'We need a private key to sign with, use -key or -signkey or -CA with private key\n';
	const key = storeLoad(fs, ctx.stdin, keyFile, 'private key', isPrivateKey, false);
	return key.ok ? { issuer: subject } : key.stderr;
}

/** `x509 -req`: the certificate a CA issues for the request; stderr carries openssl's report on the request. */
function sign(ctx: CommandContext, o: Output, p: ParsedOptions, nowMs: number): { pem: string } | string {
	const days = parseInteger('x509', value(p, 'days') ?? '30');
	if (typeof days === 'string') return days;
	const request = loadRequest(ctx.host.fs, ctx.stdin, value(p, 'in'), 'certificate request input', isRequest);
	if (!request.ok) return request.stderr;
	const subject = pemFields(request.text)?.subject ?? [];
	o.err(`Certificate request self-signature ok\nsubject=${onelineName(subject)}\n`);
	const issuer = issuerOf(ctx, p, subject);
	if (typeof issuer === 'string') return issuer;
	const serial = issueSerial(ctx, o, p, `${onelineName(subject)}|${onelineName(issuer.issuer)}@${nowMs}`);
	if (typeof serial === 'string') return serial;
	// X.509 times have whole seconds.
	const notBefore = Math.floor(nowMs / 1000) * 1000;
	const pem = certificatePem({ subject: nameFromAttributes(subject), issuer: nameFromAttributes(issuer.issuer), notBefore, notAfter: notBefore + days * 86_400_000, serial: serial.serial });
	return { pem };
}

/** -checkend N: whether the certificate is still valid N seconds from now (exit 0) or not (exit 1). */
function checkEnd(view: CertificateView, seconds: number, nowMs: number): { text: string; expires: boolean } {
	const expires = view.notAfter !== undefined && view.notAfter < nowMs + seconds * 1000;
	return { text: expires ? 'Certificate will expire\n' : 'Certificate will not expire\n', expires };
}

/** `openssl x509`. */
export function x509(ctx: CommandContext, args: readonly string[], nowMs: number): CommandResult {
	const o = new Output();
	const p = parseOptions(X509, args);
	if (typeof p === 'string') return o.fail(p);
	if (has(p, 'help')) {
		o.err(usage('x509', HELP));
		return o.done(0);
	}
	if (p.rest.length) return o.fail('x509: Use -help for summary.\n');
	const checkend = value(p, 'checkend');
	const seconds = checkend === undefined ? undefined : parseInteger('x509', checkend);
	if (typeof seconds === 'string') return o.fail(seconds);
	let pem: string;
	if (has(p, 'req')) {
		const signed = sign(ctx, o, p, nowMs);
		if (typeof signed === 'string') return o.fail(signed);
		pem = signed.pem;
	} else {
		const loaded = storeLoad(ctx.host.fs, ctx.stdin, value(p, 'in'), 'certificate', isCertificate, true);
		if (!loaded.ok) return o.fail(loaded.stderr);
		pem = reencoded(loaded.text);
	}
	const view = certificateView(pem);
	let out = p.seen.filter((opt) => PRINTS.has(opt.name)).map((opt) => certificateField(opt.name, view)).join('');
	const check = seconds === undefined ? undefined : checkEnd(view, seconds, nowMs);
	if (check) out += check.text;
	// -checkend alone implies -noout, as x509.c returns before writing the certificate.
	if (!has(p, 'noout') && !check) out += pem;
	const written = emit(ctx.host.fs, o, value(p, 'out'), out);
	return o.done(!written || check?.expires ? 1 : 0);
}
