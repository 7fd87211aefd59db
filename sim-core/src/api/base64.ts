/**
 * Base64 (RFC 4648, standard alphabet, padded) over UTF-8, as Secret `data`,
 * kubeconfig `*-data` fields and `base64 -d` use it. Written here because
 * sim-core has no TextEncoder or atob: it is plain ECMAScript.
 */
import { utf8Encode } from './json.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of the UTF-8 bytes of `text`. */
export function encodeBase64(text: string): string {
	const bytes = utf8Encode(text);
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
		out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
		out += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
	}
	return out;
}

/** The bytes a base64 text encodes, or undefined if it is not valid base64. */
export function decodeBase64Bytes(text: string): number[] | undefined {
	const clean = text.replace(/[\r\n]/g, '');
	if (clean.length % 4 === 1 || /[^A-Za-z0-9+/=]/.test(clean) || /=[^=]/.test(clean)) return undefined;
	const bytes: number[] = [];
	let buffer = 0;
	let bits = 0;
	for (const ch of clean) {
		if (ch === '=') break;
		buffer = (buffer << 6) | ALPHABET.indexOf(ch);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			bytes.push((buffer >> bits) & 0xff);
		}
	}
	return bytes;
}

/** Decodes UTF-8 bytes to text (invalid sequences become U+FFFD). */
export function utf8Decode(bytes: number[]): string {
	let out = '';
	for (let i = 0; i < bytes.length; ) {
		const b = bytes[i];
		const need = b < 0x80 ? 0 : b >= 0xf0 ? 3 : b >= 0xe0 ? 2 : b >= 0xc0 ? 1 : -1;
		if (need < 0 || i + need > bytes.length - 1) {
			out += need === 0 ? String.fromCharCode(b) : '\ufffd';
			i++;
			continue;
		}
		let cp = need === 0 ? b : b & (0x3f >> need);
		let valid = true;
		for (let k = 1; k <= need; k++) {
			const c = bytes[i + k];
			if ((c & 0xc0) !== 0x80) valid = false;
			cp = (cp << 6) | (c & 0x3f);
		}
		out += valid ? String.fromCodePoint(cp) : '\ufffd';
		i += valid ? need + 1 : 1;
	}
	return out;
}

/** The text a base64 value encodes (UTF-8), or undefined if it is not valid base64. */
export function decodeBase64(text: string): string | undefined {
	const bytes = decodeBase64Bytes(text);
	return bytes === undefined ? undefined : utf8Decode(bytes);
}
