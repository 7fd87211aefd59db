import { describe, expect, it } from 'vitest';
import { decodeBase64, encodeBase64 } from './base64.ts';

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
