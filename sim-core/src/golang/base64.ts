/**
 * Base64 (RFC 4648, standard alphabet, padded): Secret `data`, kubeconfig
 * `*-data` fields, JWT segments and the `base64` tool. sim-core is plain
 * ECMAScript, with no atob/btoa.
 *
 * Two decoders, because the two users disagree on purpose: Kubernetes
 * (Go's base64.StdEncoding, line breaks ignored) takes all or nothing,
 * while coreutils' `base64 -d` prints the good prefix before it complains.
 *
 * Mirrors golang/go src/encoding/base64/base64.go (StdEncoding),
 * coreutils/coreutils src/basenc.c (base64 -d).
 */
import { utf8Decode, utf8Encode } from './utf8.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 of raw bytes, with `=` padding, unwrapped (as `base64 -w 0`). */
export function base64Encode(bytes: ArrayLike<number>): string {
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + (i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=') + (i + 2 < bytes.length ? ALPHABET[n & 63] : '=');
	}
	return out;
}

/** Base64 of the UTF-8 bytes of `text`. */
export function encodeBase64(text: string): string {
	return base64Encode(utf8Encode(text));
}

/**
 * coreutils' decoder (whitespace already removed): the bytes decoded so far
 * and whether the whole input was valid.
 */
export function base64Decode(text: string): { bytes: number[]; ok: boolean } {
	const bytes: number[] = [];
	let acc = 0;
	let bits = 0;
	let i = 0;
	for (; i < text.length && text[i] !== '='; i++) {
		const v = ALPHABET.indexOf(text[i]);
		if (v < 0) return { bytes, ok: false };
		acc = ((acc << 6) | v) & 0xffffff;
		bits += 6;
		if (bits >= 8) bytes.push((acc >> (bits -= 8)) & 255);
	}
	// Only padding may follow, and only as much as makes a whole quantum.
	const pad = text.length - i;
	const ok = /^=*$/.test(text.slice(i)) && text.length % 4 === 0 && pad < 3;
	return { bytes, ok };
}

/** Go's StdEncoding.DecodeString (line breaks ignored): the bytes, or undefined if it is not valid base64. */
function decodeBase64Bytes(text: string): number[] | undefined {
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

/** The text a base64 value encodes (UTF-8), or undefined if it is not valid base64. */
export function decodeBase64(text: string): string | undefined {
	const bytes = decodeBase64Bytes(text);
	return bytes === undefined ? undefined : utf8Decode(bytes);
}

/** Go's base64.RawURLEncoding.EncodeToString of the UTF-8 bytes of `text`: the URL alphabet, no padding (continue tokens). */
export function encodeRawUrlBase64(text: string): string {
	return encodeBase64(text).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * Go's base64.RawURLEncoding.DecodeString: the text, or Go's
 * CorruptInputError wording (`illegal base64 data at input byte N`).
 */
export function decodeRawUrlBase64(text: string): { ok: true; text: string } | { ok: false; error: string } {
	const bad = text.search(/[^A-Za-z0-9_-]/);
	if (bad >= 0) return { ok: false, error: `illegal base64 data at input byte ${bad}` };
	// A lone trailing character cannot make a byte: Go reports its position.
	if (text.length % 4 === 1) return { ok: false, error: `illegal base64 data at input byte ${text.length - 1}` };
	const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
	const bytes = decodeBase64Bytes(padded);
	return bytes === undefined ? { ok: false, error: 'illegal base64 data at input byte 0' } : { ok: true, text: utf8Decode(bytes) };
}
