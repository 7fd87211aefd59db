/**
 * The hunks of `diff -u`: two texts compared line by line, each change
 * shown with three lines of context, changes closer than twice that
 * merged into one hunk, deletions before insertions, under `@@ -l,s +l,s @@`
 * headers. `kubectl diff` runs `diff -u -N` on the live and merged objects;
 * this is that program's output, without its file headers (the caller
 * writes those, since it knows the names and times).
 *
 * The longest common subsequence is computed exactly for texts up to a few
 * thousand lines (an object's YAML is a few hundred); past that the middle
 * is shown as one change, which is still a correct diff.
 *
 * Mirrors gnu/diffutils src/context.c (print_context_script for the unified format: pr_unidiff_hunk's ranges and line prefixes).
 */

/** Lines of context around each change (`-u` means `-U 3`). */
export const UNIFIED_CONTEXT = 3;
/** Above this many cells (lines × lines), no exact LCS table is built. */
const LCS_CELLS_MAX = 4_000_000;

type Op = { k: ' ' | '-' | '+'; line: string };

/** Splits text into lines, each without its newline (a final newline ends the last line, it does not start another). */
function linesOf(text: string): string[] {
	if (text === '') return [];
	const lines = text.split('\n');
	if (lines[lines.length - 1] === '') lines.pop();
	return lines;
}

/** The edit script from `a` to `b`: common lines kept, each change's deletions before its insertions. */
function editScript(a: string[], b: string[]): Op[] {
	// Common head and tail first: most object diffs change a few lines in the middle.
	let head = 0;
	while (head < a.length && head < b.length && a[head] === b[head]) head++;
	let tail = 0;
	while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
	const midA = a.slice(head, a.length - tail);
	const midB = b.slice(head, b.length - tail);
	const ops: Op[] = a.slice(0, head).map((line) => ({ k: ' ', line }));
	const n = midA.length;
	const m = midB.length;
	if ((n + 1) * (m + 1) > LCS_CELLS_MAX) {
		for (const line of midA) ops.push({ k: '-', line });
		for (const line of midB) ops.push({ k: '+', line });
	} else {
		// lcs[i * (m + 1) + j]: length of the longest common subsequence of midA[i..] and midB[j..].
		const lcs = new Int32Array((n + 1) * (m + 1));
		for (let i = n - 1; i >= 0; i--)
			for (let j = m - 1; j >= 0; j--) lcs[i * (m + 1) + j] = midA[i] === midB[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
		let i = 0;
		let j = 0;
		while (i < n || j < m) {
			if (i < n && j < m && midA[i] === midB[j]) {
				ops.push({ k: ' ', line: midA[i++] });
				j++;
			} else if (j >= m || (i < n && lcs[(i + 1) * (m + 1) + j] >= lcs[i * (m + 1) + j + 1])) ops.push({ k: '-', line: midA[i++] });
			else ops.push({ k: '+', line: midB[j++] });
		}
	}
	for (const line of a.slice(a.length - tail)) ops.push({ k: ' ', line });
	return ops;
}

/** A hunk's range as diff prints it: `start,count`, `start` alone for one line, the line before for none. */
function range(start: number, count: number): string {
	if (count === 1) return String(start);
	return `${count === 0 ? start - 1 : start},${count}`;
}

/** The unified diff's hunks from `before` to `after` ('' when they are equal). */
export function unifiedDiff(before: string, after: string, context = UNIFIED_CONTEXT): string {
	const ops = editScript(linesOf(before), linesOf(after));
	const changed = ops.map((op, i) => (op.k === ' ' ? -1 : i)).filter((i) => i >= 0);
	if (!changed.length) return '';
	let out = '';
	let first = 0;
	while (first < changed.length) {
		// Grow the hunk while the next change is within two contexts of the last.
		let last = first;
		while (last + 1 < changed.length && changed[last + 1] - changed[last] - 1 <= 2 * context) last++;
		const from = Math.max(0, changed[first] - context);
		const to = Math.min(ops.length - 1, changed[last] + context);
		// Line numbers (1-based) of the hunk's first line in each text.
		let aLine = 1;
		let bLine = 1;
		for (let i = 0; i < from; i++) {
			if (ops[i].k !== '+') aLine++;
			if (ops[i].k !== '-') bLine++;
		}
		let aCount = 0;
		let bCount = 0;
		let body = '';
		for (let i = from; i <= to; i++) {
			const op = ops[i];
			if (op.k !== '+') aCount++;
			if (op.k !== '-') bCount++;
			body += `${op.k}${op.line}\n`;
		}
		out += `@@ -${range(aLine, aCount)} +${range(bLine, bCount)} @@\n${body}`;
		first = last + 1;
	}
	return out;
}
