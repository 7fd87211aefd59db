import { describe, expect, it } from 'vitest';
import { decodeBase64, decodeRawUrlBase64, encodeBase64, encodeRawUrlBase64 } from './base64.ts';

describe('base64 over UTF-8', () => {
	it.each([
		['', ''],
		['f', 'Zg=='],
		['fo', 'Zm8='],
		['foo', 'Zm9v'],
		['admin', 'YWRtaW4='],
		['1f2d1e2e67df', 'MWYyZDFlMmU2N2Rm'],
		['集群', '6ZuG576k'],
	])('encodes %j as %s and back', (text, encoded) => {
		expect(encodeBase64(text)).toBe(encoded);
		expect(decodeBase64(encoded)).toBe(text);
	});

	it('rejects text that is not base64', () => {
		expect(decodeBase64('a$b=')).toBeUndefined();
		expect(decodeBase64('abcde')).toBeUndefined();
		expect(decodeBase64('ab=c')).toBeUndefined();
	});

	it('replaces invalid UTF-8 with U+FFFD instead of failing', () => {
		expect(decodeBase64('/w==')).toBe('\ufffd');
	});
});

describe('RawURLEncoding (continue tokens)', () => {
	it('uses the URL alphabet without padding, and decodes its own output', () => {
		// 0xfb 0xff encodes to +/8= in the standard alphabet.
		expect(encodeRawUrlBase64('\u00fb')).toBe('w7s');
		expect(encodeRawUrlBase64('?>?')).toBe('Pz4_');
		expect(decodeRawUrlBase64('Pz4_')).toEqual({ ok: true, text: '?>?' });
	});

	it('names the first bad byte as Go does', () => {
		expect(decodeRawUrlBase64('Pz4=')).toEqual({ ok: false, error: 'illegal base64 data at input byte 3' });
		expect(decodeRawUrlBase64('Pz4_P')).toEqual({ ok: false, error: 'illegal base64 data at input byte 4' });
	});
});
