/**
 * Just enough DER to read the subject of a real PKCS #10 certificate
 * request, the kind `openssl req` writes on a reader's own machine and
 * kubernetes.io's pages paste as an example: the CertificationRequestInfo's
 * Name, its common name and organizations. This lets a request made
 * outside the sandbox be submitted, approved and issued here. The request's
 * signature is not checked (there is no key material to check it against
 * in this simulation); everything else in the request is ignored.
 *
 * Mirrors nothing upstream: a reader of the ASN.1 that crypto/x509
 * (ParseCertificateRequest) parses in full.
 */
import type { DistinguishedName } from './pem.ts';

interface Tlv {
	tag: number;
	/** Offset of the value and its length. */
	start: number;
	length: number;
}

/** The element at `at`, or undefined when the bytes are not well-formed DER. */
function readTlv(bytes: readonly number[], at: number, end: number): Tlv | undefined {
	if (at + 2 > end) return undefined;
	const tag = bytes[at];
	let length = bytes[at + 1];
	let start = at + 2;
	if (length & 0x80) {
		const count = length & 0x7f;
		if (count === 0 || count > 3 || start + count > end) return undefined;
		length = 0;
		for (let i = 0; i < count; i++) length = (length << 8) | bytes[start + i];
		start += count;
	}
	return start + length > end ? undefined : { tag, start, length };
}

/** The elements inside a constructed element. */
function children(bytes: readonly number[], parent: Tlv): Tlv[] | undefined {
	const out: Tlv[] = [];
	const end = parent.start + parent.length;
	for (let at = parent.start; at < end; ) {
		const tlv = readTlv(bytes, at, end);
		if (!tlv) return undefined;
		out.push(tlv);
		at = tlv.start + tlv.length;
	}
	return out;
}

const SEQUENCE = 0x30;
const SET = 0x31;
const OID = 0x06;
/** id-at-commonName 2.5.4.3 and id-at-organizationName 2.5.4.10, as encoded. */
const COMMON_NAME = [0x55, 0x04, 0x03];
const ORGANIZATION = [0x55, 0x04, 0x0a];

function text(bytes: readonly number[], tlv: Tlv): string {
	return new TextDecoder().decode(Uint8Array.from(bytes.slice(tlv.start, tlv.start + tlv.length)));
}

const sameBytes = (bytes: readonly number[], tlv: Tlv, want: readonly number[]) => tlv.length === want.length && want.every((b, i) => bytes[tlv.start + i] === b);

/** An RDNSequence's CN and O values, in order. */
function readName(bytes: readonly number[], name: Tlv): DistinguishedName | undefined {
	if (name.tag !== SEQUENCE) return undefined;
	let commonName: string | undefined;
	const organizations: string[] = [];
	for (const set of children(bytes, name) ?? []) {
		if (set.tag !== SET) return undefined;
		for (const pair of children(bytes, set) ?? []) {
			const [oid, value] = children(bytes, pair) ?? [];
			if (!oid || !value || oid.tag !== OID) return undefined;
			if (sameBytes(bytes, oid, COMMON_NAME)) commonName = text(bytes, value);
			else if (sameBytes(bytes, oid, ORGANIZATION)) organizations.push(text(bytes, value));
		}
	}
	return commonName === undefined ? undefined : { commonName, organizations };
}

/** The subject of a DER CertificationRequest, or undefined if it is not one (or names no CN). */
export function certificateRequestSubject(der: readonly number[]): DistinguishedName | undefined {
	const outer = readTlv(der, 0, der.length);
	if (!outer || outer.tag !== SEQUENCE) return undefined;
	const [info] = children(der, outer) ?? [];
	if (!info || info.tag !== SEQUENCE) return undefined;
	const [version, subject] = children(der, info) ?? [];
	if (!version || version.tag !== 0x02 || !subject) return undefined;
	return readName(der, subject);
}
