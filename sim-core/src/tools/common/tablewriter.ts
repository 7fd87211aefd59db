/**
 * The table etcdctl and etcdutl print with `-w table`: olekukonko/tablewriter
 * v0.0.5 (table.go, util.go, wrap.go) with the defaults etcd uses (borders,
 * a rule under the header, headers upper-cased by `Title` and centred, cells
 * wrapped at 30 columns with reflow) and `SetAlignment(ALIGN_RIGHT)`.
 *
 *     +------------------+---------+
 *     |        ID        | STATUS  |
 *     +------------------+---------+
 *     | 8e9e05c52164694d | started |
 *     +------------------+---------+
 *
 * Mirrors olekukonko/tablewriter table.go, olekukonko/tablewriter util.go,
 * olekukonko/tablewriter wrap.go.
 */

/** tablewriter's MAX_ROW_WIDTH: cells wider than this wrap on spaces. */
const MAX_CELL_WIDTH = 30;
/** wrap.go defaultPenalty: the cost of a line longer than the limit. */
const TOO_LONG_PENALTY = 1e5;

/** Display width; etcdctl's cells are ASCII (µ counts one column, as go-runewidth says). */
const width = (text: string) => [...text].length;

/** tablewriter's Title: `_` and most `.` become spaces, trimmed, upper-cased. */
function title(name: string): string {
	const runes = [...name];
	const numOrSpace = (r: string | undefined) => r !== undefined && /[0-9 ]/.test(r);
	for (let i = 0; i < runes.length; i++) {
		if (runes[i] === '_') runes[i] = ' ';
		else if (runes[i] === '.' && ((i !== 0 && !numOrSpace(runes[i - 1])) || (i !== runes.length - 1 && !numOrSpace(runes[i + 1])))) runes[i] = ' ';
	}
	const out = runes.join('').trim();
	return (out.length === 0 && name.length > 0 ? ' ' : out).toUpperCase();
}

/** wrap.go WrapWords: minimum-raggedness line breaking (dynamic programming over break points). */
function wrapWords(words: string[], limit: number): string[][] {
	const n = words.length;
	const length: number[][] = words.map(() => new Array<number>(n).fill(0));
	for (let i = 0; i < n; i++) {
		length[i][i] = width(words[i]);
		for (let j = i + 1; j < n; j++) length[i][j] = length[i][j - 1] + 1 + width(words[j]);
	}
	const nextBreak = new Array<number>(n).fill(0);
	const cost = new Array<number>(n).fill(Number.MAX_SAFE_INTEGER);
	for (let i = n - 1; i >= 0; i--) {
		if (length[i][n - 1] <= limit) {
			cost[i] = 0;
			nextBreak[i] = n;
			continue;
		}
		for (let j = i + 1; j < n; j++) {
			const d = limit - length[i][j - 1];
			let c = d * d + cost[j];
			if (length[i][j - 1] > limit) c += TOO_LONG_PENALTY;
			if (c < cost[i]) {
				cost[i] = c;
				nextBreak[i] = j;
			}
		}
	}
	const lines: string[][] = [];
	for (let i = 0; i < n; i = nextBreak[i]) lines.push(words.slice(i, nextBreak[i]));
	return lines;
}

/** table.go parseDimension with autoWrap and reflow on: the cell's lines. */
function cellLines(text: string): string[] {
	const raw = text.split('\n');
	let maxWidth = Math.min(Math.max(...raw.map(width)), MAX_CELL_WIDTH);
	const words = raw.join(' ').split(' ');
	for (const word of words) maxWidth = Math.max(maxWidth, width(word));
	return wrapWords(words, maxWidth).map((line) => line.join(' '));
}

/** Renders a table: headers centred, cells right-aligned (etcdctl calls SetAlignment(ALIGN_RIGHT)). */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
	const headerCells = headers.map(cellLines);
	const bodyCells = rows.map((row) => row.map(cellLines));
	const widths = headers.map((_, column) => Math.max(...headerCells[column].map(width), ...bodyCells.map((row) => Math.max(0, ...(row[column] ?? ['']).map(width)))));
	const rule = '+' + widths.map((w) => '-'.repeat(w + 2) + '+').join('') + '\n';
	let out = rule;
	const headerHeight = Math.max(...headerCells.map((lines) => lines.length));
	for (let line = 0; line < headerHeight; line++) {
		out += '|';
		headerCells.forEach((lines, column) => {
			const text = title(lines[line] ?? '');
			const gap = widths[column] - width(text);
			const left = Math.max(0, Math.floor(gap / 2));
			out += ' ' + ' '.repeat(left) + text + ' '.repeat(Math.max(0, gap - left)) + ' |';
		});
		out += '\n';
	}
	out += rule;
	for (const row of bodyCells) {
		const height = Math.max(...row.map((lines) => lines.length));
		for (let line = 0; line < height; line++) {
			out += '|';
			row.forEach((lines, column) => {
				// Missing lines of a shorter cell are two spaces, as printRow pads them.
				const text = lines[line] ?? '  ';
				out += ' ' + text.padStart(widths[column], ' ') + ' |';
			});
			out += '\n';
		}
	}
	return out + rule;
}
