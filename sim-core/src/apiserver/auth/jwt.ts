/**
 * The JSON Web Token compact form (RFC 7519 over RFC 7515's JWS compact
 * serialization): `base64url(header).base64url(payload).base64url(signature)`,
 * unpadded base64url (RFC 4648 §5). What go-jose does for the API server's
 * service account tokens (gopkg.in/go-jose/go-jose.v2 jwt and jws), written
 * for plain ECMAScript: bytes are number arrays, text is UTF-8.
 *
 * Mirrors go-jose/go-jose jws.go (the compact serialization),
 * go-jose/go-jose jwt/builder.go.
 */
import { utf8Encode } from '../../golang/utf8.ts';
import { utf8Decode } from '../../golang/utf8.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Unpadded base64url of bytes. */
export function base64UrlEncode(bytes: readonly number[]): string {
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
		out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
		if (i + 1 < bytes.length) out += ALPHABET[(n >> 6) & 63];
		if (i + 2 < bytes.length) out += ALPHABET[n & 63];
	}
	return out;
}

/** The bytes of unpadded base64url text, or undefined if it is not that (go-jose refuses padding and the standard alphabet). */
export function base64UrlDecode(text: string): number[] | undefined {
	if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
	const bytes: number[] = [];
	let buffer = 0;
	let bits = 0;
	for (const ch of text) {
		buffer = ((buffer << 6) | ALPHABET.indexOf(ch)) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			bytes.push((buffer >> bits) & 0xff);
		}
	}
	return bytes;
}

/** Unpadded base64url of the UTF-8 bytes of `text`. */
export function base64UrlEncodeText(text: string): string {
	return base64UrlEncode(utf8Encode(text));
}

/** A JWS in compact form, split and decoded (nothing verified yet). */
interface CompactJws {
	/** The decoded protected header. */
	header: Record<string, unknown>;
	/** The decoded payload (the claims). */
	payload: Record<string, unknown>;
	/** `base64url(header).base64url(payload)`: what the signature covers. */
	signingInput: string;
	/** The signature's base64url text. */
	signature: string;
}

function parseJsonObject(part: string): Record<string, unknown> | undefined {
	const bytes = base64UrlDecode(part);
	if (!bytes) return undefined;
	try {
		const value: unknown = JSON.parse(utf8Decode(bytes));
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Splits a compact JWS into its three parts and decodes the header and
 * payload, or undefined when the text is not one (jws.ParseSigned's
 * "compact JWS format must have three parts"). Tokens are bounded: a
 * bearer token over 16 KiB is refused before any decoding.
 */
export function parseCompactJws(token: string): CompactJws | undefined {
	// Far above any token the API server issues (~1 KiB), so a hostile header cannot make decoding expensive.
	if (token.length > 16_384) return undefined;
	const parts = token.split('.');
	if (parts.length !== 3) return undefined;
	const header = parseJsonObject(parts[0]);
	const payload = parseJsonObject(parts[1]);
	if (!header || !payload || base64UrlDecode(parts[2]) === undefined) return undefined;
	return { header, payload, signingInput: `${parts[0]}.${parts[1]}`, signature: parts[2] };
}
