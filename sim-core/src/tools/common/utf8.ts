/**
 * UTF-8 as Go and the file system count it: byte lengths and bytes of
 * JavaScript strings (lone surrogates count as U+FFFD, as Go would hold
 * them). The simulation has no TextEncoder (plain ECMAScript only).
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

/** The UTF-8 bytes of a string. */
export function utf8Bytes(text: string): number[] {
	const out: number[] = [];
	forEachUtf8Byte(text, (byte) => out.push(byte));
	return out;
}

/** Go's len(s): the UTF-8 byte length. */
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
