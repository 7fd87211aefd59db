import { describe, expect, it } from 'vitest';
import { Rng, deriveRngState } from '../sim/rng.ts';
import { SortedKeys, searchStrings } from './sort.ts';

describe('sorted keys', () => {
	it('finds where a key goes, as sort.SearchStrings does', () => {
		const sorted = ['a', 'b/1', 'b/2', 'c'];
		expect(searchStrings(sorted, '')).toBe(0);
		expect(searchStrings(sorted, 'b/')).toBe(1);
		expect(searchStrings(sorted, 'b/2')).toBe(2);
		expect(searchStrings(sorted, 'z')).toBe(4);
		expect(searchStrings([], 'x')).toBe(0);
	});

	it('stays in the order a sort gives, through random adds and deletes', () => {
		const rng = new Rng(deriveRngState(7, 'sorted-keys'));
		const keys = new SortedKeys();
		const model = new Set<string>();
		for (let i = 0; i < 2000; i++) {
			const key = `/registry/pods/ns-${rng.int(5)}/p-${rng.int(60)}`;
			if (rng.float() < 0.6) {
				expect(keys.add(key)).toBe(!model.has(key));
				model.add(key);
			} else {
				expect(keys.delete(key)).toBe(model.has(key));
				model.delete(key);
			}
		}
		expect(keys.all()).toEqual([...model].sort());
		expect(keys.size).toBe(model.size);
		expect(keys.withPrefix('/registry/pods/ns-3/')).toEqual([...model].filter((k) => k.startsWith('/registry/pods/ns-3/')).sort());
		for (const k of model) expect(keys.has(k)).toBe(true);
		expect(keys.has('/registry/pods/ns-9/x')).toBe(false);
	});
});
