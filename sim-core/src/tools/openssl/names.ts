/**
 * The small formats openssl reads and prints around a certificate: the
 * `-subj "/CN=myuser/O=dev"` argument, names in OpenSSL 3.0's default
 * `-nameopt oneline` form (`CN = myuser, O = dev`: short names, spaces
 * around `=`, a value that needs escaping put in double quotes), times as
 * ASN1_TIME_print writes them (`Dec  4 08:00:00 2026 GMT`) and serial
 * numbers. Serials a real openssl draws at random are derived here from a
 * hash of what the certificate says, so every run prints the same ones.
 *
 * Times come from ../common/calendar.ts.
 *
 * Mirrors openssl/openssl apps/lib/apps.c (parse_name),
 * crypto/x509/x_name.c, crypto/asn1/a_strex.c (do_name_ex,
 * XN_FLAG_ONELINE).
 */
import { stableHash } from '../../host/proc.ts';
import { opensslDate } from '../common/calendar.ts';
import type { NameAttribute } from '../../host/pem.ts';

/** Attribute types OBJ_txt2nid knows by short name, and the long names that mean the same (printed by short name, as XN_FLAG_FN_SN does). */
const SHORT_NAMES = new Set(['C', 'ST', 'L', 'O', 'OU', 'CN', 'emailAddress', 'serialNumber', 'SN', 'GN', 'title', 'DC', 'UID', 'street', 'postalCode', 'businessCategory', 'initials', 'pseudonym', 'dnQualifier', 'name', 'description']);
const LONG_NAMES: Readonly<Record<string, string>> = {
	commonName: 'CN',
	countryName: 'C',
	stateOrProvinceName: 'ST',
	localityName: 'L',
	organizationName: 'O',
	organizationalUnitName: 'OU',
	surname: 'SN',
	givenName: 'GN',
	domainComponent: 'DC',
	userId: 'UID',
	streetAddress: 'street',
};

/** Splits on unescaped `/`, undoing backslash escapes, as parse_name walks the string. */
function splitSubject(text: string): string[] {
	const parts: string[] = [];
	let cur = '';
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '\\' && i + 1 < text.length) cur += text[++i];
		else if (text[i] !== '/') cur += text[i];
		else {
			parts.push(cur);
			cur = '';
		}
	}
	if (cur) parts.push(cur);
	return parts;
}

/**
 * parse_name for `-subj`: the attributes, and the warnings openssl prints
 * for the ones it skips; a string is the refusal (no leading `/`, a part
 * without `=`).
 */
export function parseSubject(prog: string, text: string): { attributes: NameAttribute[]; warnings: string } | string {
	if (!text.startsWith('/')) {
		return `${prog}: subject name is expected to be in the format /type0=value0/type1=value1/type2=... where characters may be escaped by \\. This name is not in that format: '${text}'\n`;
	}
	const attributes: NameAttribute[] = [];
	let warnings = '';
	for (const part of splitSubject(text.slice(1))) {
		const eq = part.indexOf('=');
		if (eq < 0) return `${prog}: Hit end of string before finding the equals.\n`;
		const typed = part.slice(0, eq);
		const type = SHORT_NAMES.has(typed) ? typed : LONG_NAMES[typed];
		if (type === undefined) warnings += `${prog}: Skipping unknown subject name attribute "${typed}"\n`;
		else if (eq === part.length - 1) warnings += `${prog}: No value provided for subject name attribute "${typed}", skipped\n`;
		else attributes.push([type, part.slice(eq + 1)]);
	}
	return { attributes, warnings };
}

/** A value as ASN1_STRFLGS_ESC_2253 with ESC_QUOTE shows it: in double quotes when it holds a character RFC 2253 escapes. */
function onelineValue(value: string): string {
	if (!/[,+"\\<>;]|^[# ]| $/.test(value)) return value;
	return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** `CN = myuser, O = dev`: OpenSSL 3.0's default name output (3.2 and later drop the spaces around `=`). */
export function onelineName(attributes: readonly NameAttribute[]): string {
	return attributes.map(([type, value]) => `${type} = ${onelineValue(value)}`).join(', ');
}

/** ASN1_TIME_print: `Dec  4 08:00:00 2026 GMT`, the day padded with a space. */
export const asn1Time = opensslDate;

/** A 20-byte serial with the top bit clear, as openssl's rand_serial draws one, derived from `seed` instead of the random generator. Upper-case hex. */
export function derivedSerial(seed: string): string {
	const bytes = Array.from({ length: 20 }, (_, i) => stableHash(`${seed}#${i}`) & 0xff);
	// Never 0 in the top byte (it would be dropped) nor its top bit set (the number would be negative).
	bytes[0] = (bytes[0] % 0x7f) + 1;
	return bytes.map((b) => b.toString(16).padStart(2, '0')).join('').toUpperCase();
}

/** The .srl file's next serial: its hex number plus one, in whole bytes as BN_bn2hex writes it; undefined when the file holds no hex number. */
export function nextSerial(srl: string): string | undefined {
	const hex = srl.trim();
	if (!/^[0-9A-Fa-f]+$/.test(hex)) return undefined;
	const next = (BigInt(`0x${hex}`) + 1n).toString(16).toUpperCase();
	return next.length % 2 ? `0${next}` : next;
}

/** X509_print's serial lines: a number that fits in a long on one line (`4660 (0x1234)`), a longer one as colon-separated bytes on the next. */
export function serialLines(hex: string): string {
	const n = BigInt(`0x${hex}`);
	if (n < 2n ** 63n) return `        Serial Number: ${n} (0x${n.toString(16)})\n`;
	const even = hex.length % 2 ? `0${hex}` : hex;
	return `        Serial Number:\n            ${even.toLowerCase().match(/../g)!.join(':')}\n`;
}
