import { describe, it, expect } from 'vitest';
import { canonicalJson, computeHash, fnv32a, safeEncodeString } from './hash.ts';
import { utf8Encode } from '../golang/utf8.ts';

describe('fnv32a', () => {
	// The FNV-1a 32-bit test vectors published with the algorithm (isthe.com/chongo/tech/comp/fnv).
	it.each([
		['', 0x811c9dc5],
		['a', 0xe40c292c],
		['foobar', 0xbf9cf968],
	])('hashes %j to the published FNV-1a value', (text, expected) => {
		expect(fnv32a(utf8Encode(text))).toBe(expected);
	});

	it('continues from a previous sum, as writing twice to one hasher does', () => {
		expect(fnv32a(utf8Encode('bar'), fnv32a(utf8Encode('foo')))).toBe(fnv32a(utf8Encode('foobar')));
	});
});

describe('safeEncodeString', () => {
	it('maps each decimal digit onto the consonant-and-digit alphabet, as rand.SafeEncodeString does', () => {
		// '0' is code point 48 and 48 % 27 = 21, the '4' of "bcdfghjklmnpqrstvwxz2456789"; '6' is 54 % 27 = 0, 'b'.
		expect(safeEncodeString('0123456789')).toBe('456789bcdf');
	});
});

describe('computeHash', () => {
	const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } };

	it('gives up to 10 characters of the safe alphabet, like real pod-template-hash values', () => {
		expect(computeHash(template)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
	});

	it('does not depend on the order of keys or on empty lists', () => {
		const reordered = { spec: { containers: [{ image: 'nginx:1.27', name: 'nginx', ports: [] }] }, metadata: { labels: { app: 'web' } } };
		expect(computeHash(reordered)).toBe(computeHash(template));
	});

	it('changes with the template and with the collision count (0 is not the same as none)', () => {
		const other = { ...template, spec: { containers: [{ name: 'nginx', image: 'nginx:1.28' }] } };
		expect(computeHash(other)).not.toBe(computeHash(template));
		expect(computeHash(template, 0)).not.toBe(computeHash(template));
		expect(computeHash(template, 1)).not.toBe(computeHash(template, 0));
	});

	it('feeds the collision count as 8 little-endian bytes after the template', () => {
		const base = fnv32a(utf8Encode(canonicalJson(template)));
		expect(computeHash(template, 258)).toBe(safeEncodeString(String(fnv32a([2, 1, 0, 0, 0, 0, 0, 0], base))));
	});
});
