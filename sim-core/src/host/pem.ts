/**
 * The simulated PEM files of this cluster: certificates, certificate
 * signing requests and private keys that hold no key material but say, in
 * readable comment lines, what a real one encodes: the subject (CN = user,
 * O = groups), the issuer and the validity period. The API server learns a
 * client's identity from a certificate's subject and refuses one outside its
 * validity, as a real one does from the DER inside; `openssl` prints these
 * fields; the CSR signer copies a request's subject into the certificate it
 * issues.
 *
 * A block without the optional lines (kubeadm's files written before the
 * clock started) has no issuer or validity: it is taken as valid.
 *
 * Names that come from openssl keep every attribute in the order typed
 * (`C=US, O=dev, CN=myuser`), so that openssl prints them back as given;
 * Kubernetes reads only CN and O from them. A certificate openssl signs
 * also records its serial, the one openssl keeps in the CA's .srl file.
 *
 * Mirrors nothing upstream: the simulator's stand-in for X.509 and PKCS #10
 * (crypto/x509 and encoding/pem are what a real cluster uses).
 */
import { formatRfc3339, parseRfc3339 } from '../golang/time.ts';
import { base64Decode } from '../golang/base64.ts';
import { certificateRequestSubject } from './der.ts';

/** One attribute of a name, as openssl writes it: `['C', 'US']`, `['CN', 'myuser']`. */
export type NameAttribute = readonly [type: string, value: string];

/** An X.509 distinguished name as Kubernetes reads one: CN is the user, each O a group. */
export interface DistinguishedName {
	commonName: string;
	organizations: string[];
	/**
	 * Every attribute in the order it was given, when the name came from
	 * openssl (`-subj "/C=US/O=dev/CN=myuser"`): formatName then writes these,
	 * so openssl prints the name back as it was typed. Without it a name is its
	 * CN and O alone.
	 */
	attributes?: readonly NameAttribute[];
}

export interface CertificateFields {
	subject: DistinguishedName;
	issuer?: DistinguishedName;
	/** Unix ms. */
	notBefore?: number;
	/** Unix ms. */
	notAfter?: number;
	/** Upper-case hex, as `openssl x509 -CAcreateserial` keeps it in the .srl file; absent on kubeadm's placeholders. */
	serial?: string;
}

const MARK = '# simulated certificate (Cluster Anatomy): no real key material';
const REQUEST_MARK = '# simulated certificate request (Cluster Anatomy): no real key material';

/** `CN=myuser, O=dev, O=ops`: the comma form `openssl -nameopt oneline`-like output and our files use. */
export function formatName(name: DistinguishedName): string {
	if (name.attributes) return formatAttributes(name.attributes);
	return [`CN=${name.commonName}`, ...name.organizations.map((o) => `O=${o}`)].join(', ');
}

/** `C=US, O=dev, CN=myuser`; a comma or backslash inside a value is escaped with a backslash so that the text splits back. */
export function formatAttributes(attributes: readonly NameAttribute[]): string {
	return attributes.map(([type, value]) => `${type}=${value.replace(/[\\,]/g, '\\$&')}`).join(', ');
}

/** The attributes of the comma form, in order (any types, CN or not), undoing formatAttributes' escapes. */
export function parseAttributes(text: string): NameAttribute[] {
	const parts: string[] = [];
	let cur = '';
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '\\' && i + 1 < text.length) cur += text[++i];
		else if (text[i] !== ',') cur += text[i];
		else {
			parts.push(cur);
			cur = '';
		}
	}
	parts.push(cur);
	return parts
		.map((p) => p.trim())
		.filter(Boolean)
		.map((p) => {
			const eq = p.indexOf('=');
			return eq < 0 ? (['', p] as const) : ([p.slice(0, eq).trim(), p.slice(eq + 1).trim()] as const);
		});
}

/** The name Kubernetes reads from attributes (CN the user, each O a group), keeping them all for formatName; commonName is '' without a CN. */
export function nameFromAttributes(attributes: readonly NameAttribute[]): DistinguishedName {
	return {
		commonName: attributes.find(([type]) => type === 'CN')?.[1] ?? '',
		organizations: attributes.filter(([type]) => type === 'O').map(([, value]) => value),
		attributes,
	};
}

/** Parses `CN=a, O=b` (the comma form) or `/CN=a/O=b` (openssl's -subj form); undefined without a CN. */
export function parseName(text: string): DistinguishedName | undefined {
	const parts = text.trim().startsWith('/')
		? text.trim().slice(1).split('/')
		: text.split(',').map((p) => p.trim());
	const pairs = parts.filter(Boolean).map((p) => {
		const eq = p.indexOf('=');
		return eq < 0 ? ['', p] : [p.slice(0, eq).trim(), p.slice(eq + 1).trim()];
	});
	const commonName = pairs.find(([k]) => k === 'CN')?.[1];
	if (commonName === undefined) return undefined;
	return { commonName, organizations: pairs.filter(([k]) => k === 'O').map(([, v]) => v) };
}

const iso = formatRfc3339;

/** A certificate placeholder. */
export function certificatePem(fields: CertificateFields): string {
	const lines = [MARK, `# Subject: ${formatName(fields.subject)}`];
	if (fields.issuer) lines.push(`# Issuer: ${formatName(fields.issuer)}`);
	if (fields.notBefore !== undefined) lines.push(`# Not Before: ${iso(fields.notBefore)}`);
	if (fields.notAfter !== undefined) lines.push(`# Not After: ${iso(fields.notAfter)}`);
	if (fields.serial !== undefined) lines.push(`# Serial: ${fields.serial}`);
	return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** A PKCS #10 request placeholder, as `openssl req -new -subj` writes one. */
export function certificateRequestPem(subject: DistinguishedName): string {
	return `-----BEGIN CERTIFICATE REQUEST-----\n${REQUEST_MARK}\n# Subject: ${formatName(subject)}\n-----END CERTIFICATE REQUEST-----\n`;
}

/** A private key placeholder. */
export function privateKeyPem(): string {
	return '-----BEGIN PRIVATE KEY-----\n# simulated key (Cluster Anatomy): no real key material\n-----END PRIVATE KEY-----\n';
}

/** The first PEM block of `text`: its type (`CERTIFICATE`, `CERTIFICATE REQUEST`, ...) and body. */
export function pemBlock(text: string): { type: string; body: string } | undefined {
	const m = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)-----END \1-----/.exec(text);
	return m ? { type: m[1], body: m[2] } : undefined;
}

function commentField(body: string, name: string): string | undefined {
	return new RegExp(`^# ${name}: ([^\\n]+)$`, 'm').exec(body)?.[1];
}

function timeField(body: string, name: string): number | undefined {
	const text = commentField(body, name);
	const ms = text === undefined ? Number.NaN : parseRfc3339(text);
	return Number.isNaN(ms) ? undefined : ms;
}

/** A certificate's fields, or undefined when `pem` holds no certificate with a subject. */
export function parseCertificate(pem: string): CertificateFields | undefined {
	const block = pemBlock(pem);
	if (!block || block.type !== 'CERTIFICATE') return undefined;
	const subject = parseName(commentField(block.body, 'Subject') ?? '');
	if (!subject) return undefined;
	const issuerText = commentField(block.body, 'Issuer');
	const issuer = issuerText === undefined ? undefined : parseName(issuerText);
	const fields: CertificateFields = { subject, issuer, notBefore: timeField(block.body, 'Not Before'), notAfter: timeField(block.body, 'Not After') };
	const serial = commentField(block.body, 'Serial');
	// Only when present, so that kubeadm's placeholders read back as they always have.
	if (serial !== undefined) fields.serial = serial;
	return fields;
}

/**
 * Everything a PEM placeholder says, as openssl shows it rather than as
 * Kubernetes reads it: the block's type and its names as written (a name
 * without a CN included), for `openssl x509 -text` and `openssl req -text`.
 * Undefined when `pem` holds no PEM block.
 */
export function pemFields(pem: string): { type: string; subject?: NameAttribute[]; issuer?: NameAttribute[]; notBefore?: number; notAfter?: number; serial?: string } | undefined {
	const block = pemBlock(pem);
	if (!block) return undefined;
	const names = (field: string) => {
		const text = commentField(block.body, field);
		return text === undefined ? undefined : parseAttributes(text);
	};
	return {
		type: block.type,
		subject: names('Subject'),
		issuer: names('Issuer'),
		notBefore: timeField(block.body, 'Not Before'),
		notAfter: timeField(block.body, 'Not After'),
		serial: commentField(block.body, 'Serial'),
	};
}

/** A certificate request's subject, or undefined when `pem` is not a request this cluster can read. */
export function parseCertificateRequest(pem: string): DistinguishedName | undefined {
	const block = pemBlock(pem);
	if (!block || block.type !== 'CERTIFICATE REQUEST') return undefined;
	const written = commentField(block.body, 'Subject');
	if (written !== undefined) return parseName(written);
	// A real request (made with a real openssl): its subject is in the DER (./der.ts).
	const der = base64Decode(block.body.replace(/\s+/g, ''));
	return der.ok ? certificateRequestSubject(der.bytes) : undefined;
}

/**
 * Go's crypto/x509 verdict on a certificate outside its validity at
 * `nowMs` (the verifier's own clock): `x509: certificate has expired or is
 * not yet valid: current time T is after|before B`; undefined when valid.
 * (crypto/x509/verify.go, CertificateInvalidError with reason Expired.)
 */
export function x509ValidityError(fields: Pick<CertificateFields, 'notBefore' | 'notAfter'>, nowMs: number): string | undefined {
	const now = Math.floor(nowMs / 1000) * 1000;
	if (fields.notBefore !== undefined && nowMs < fields.notBefore) return `x509: certificate has expired or is not yet valid: current time ${formatRfc3339(now)} is before ${formatRfc3339(fields.notBefore)}`;
	if (fields.notAfter !== undefined && nowMs > fields.notAfter) return `x509: certificate has expired or is not yet valid: current time ${formatRfc3339(now)} is after ${formatRfc3339(fields.notAfter)}`;
	return undefined;
}
