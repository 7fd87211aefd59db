/**
 * UTF-8 as Go and the file system see a JavaScript string: its bytes, its
 * byte length (Go's `len(s)`, what `wc -c` and `ls -l` count) and decoding
 * bytes back. sim-core is plain ECMAScript, with no TextEncoder.
 *
 * A lone surrogate, which no UTF-8 text can hold, becomes U+FFFD on the way
 * out (as TextEncoder and Go's conversions do); on the way in, each byte of
 * a malformed sequence becomes one U+FFFD (Go's utf8.DecodeRune), so binary
 * data stays visible instead of failing.
 *
 * Mirrors golang/go src/unicode/utf8/utf8.go (EncodeRune, RuneLen,
 * DecodeRune).
 */

/** Calls `emit` with each UTF-8 byte of `text`, without building an array. */
export function forEachUtf8Byte(text: string, emit: (byte: number) => void): void {
	for (const ch of text) {
		let cp = ch.codePointAt(0) ?? 0;
		if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
		if (cp < 0x80) emit(cp);
		else if (cp < 0x800) {
			emit(0xc0 | (cp >> 6));
			emit(0x80 | (cp & 63));
		} else if (cp < 0x10000) {
			emit(0xe0 | (cp >> 12));
			emit(0x80 | ((cp >> 6) & 63));
			emit(0x80 | (cp & 63));
		} else {
			emit(0xf0 | (cp >> 18));
			emit(0x80 | ((cp >> 12) & 63));
			emit(0x80 | ((cp >> 6) & 63));
			emit(0x80 | (cp & 63));
		}
	}
}

/** The UTF-8 bytes of a string (what indexing a Go string yields). */
export function utf8Encode(text: string): number[] {
	const out: number[] = [];
	forEachUtf8Byte(text, (byte) => out.push(byte));
	return out;
}

/** Go's `len(s)`: the UTF-8 byte length, counted without building the bytes. */
export function utf8Length(text: string): number {
	let n = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) n += 1;
		else if (c < 0x800) n += 2;
		else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			n += 4;
			i++;
		} else n += 3;
	}
	return n;
}

/** Decodes UTF-8 bytes; each byte of a malformed, overlong or surrogate sequence becomes one U+FFFD. */
export function utf8Decode(bytes: ArrayLike<number>): string {
	let out = '';
	for (let i = 0; i < bytes.length; ) {
		const x = bytes[i];
		const n = x < 0x80 ? 0 : x >= 0xc2 && x < 0xe0 ? 1 : x >= 0xe0 && x < 0xf0 ? 2 : x >= 0xf0 && x < 0xf5 ? 3 : -1;
		let c = n > 0 ? x & (0x3f >> n) : x;
		let ok = n >= 0 && i + n < bytes.length;
		for (let k = 1; ok && k <= n; k++) ok = (bytes[i + k] & 0xc0) === 0x80;
		if (ok) for (let k = 1; k <= n; k++) c = (c << 6) | (bytes[i + k] & 63);
		if (!ok || (n === 2 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) || (n === 3 && (c < 0x10000 || c > 0x10ffff))) {
			out += '\ufffd';
			i++;
		} else {
			out += String.fromCodePoint(c);
			i += n + 1;
		}
	}
	return out;
}
