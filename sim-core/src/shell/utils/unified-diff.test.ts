import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff.ts';

const lines = (...xs: Array<string | number>) => xs.map((x) => `${x}\n`).join('');
const oneToTwenty = Array.from({ length: 20 }, (_, i) => i + 1);
const replaced = (map: Record<number, string>) => lines(...oneToTwenty.map((n) => map[n] ?? n));

// Expected outputs are GNU diffutils 3.x's `diff -u` on the same inputs, file headers left out.
describe('unifiedDiff, as diff -u prints it', () => {
	it('prints nothing for equal texts', () => {
		expect(unifiedDiff(lines(1, 2, 3), lines(1, 2, 3))).toBe('');
	});

	it('shows a change with three lines of context, deletion before insertion', () => {
		expect(unifiedDiff(lines('replicas: 2', 'image: nginx:1.25'), lines('replicas: 3', 'image: nginx:1.25'))).toBe('@@ -1,2 +1,2 @@\n-replicas: 2\n+replicas: 3\n image: nginx:1.25\n');
	});

	it('merges changes six unchanged lines apart into one hunk, and keeps seven apart in two', () => {
		expect(unifiedDiff(lines(...oneToTwenty), replaced({ 3: 'X', 10: 'Y' })).match(/^@@.*@@$/gm)).toEqual(['@@ -1,13 +1,13 @@']);
		expect(unifiedDiff(lines(...oneToTwenty), replaced({ 3: 'X', 11: 'Y' })).match(/^@@.*@@$/gm)).toEqual(['@@ -1,6 +1,6 @@', '@@ -8,7 +8,7 @@']);
	});

	it('numbers a new file from -0,0 (diff -N) and a line added at the end after the last line', () => {
		expect(unifiedDiff('', lines('a', 'b'))).toBe('@@ -0,0 +1,2 @@\n+a\n+b\n');
		const letters = 'abcdefghijklm'.split('');
		expect(unifiedDiff(lines(...letters), lines(...letters, 'n'))).toBe('@@ -11,3 +11,4 @@\n k\n l\n m\n+n\n');
		expect(unifiedDiff(lines('a', 'b'), lines('a'))).toBe('@@ -1,2 +1 @@\n a\n-b\n');
	});
});
