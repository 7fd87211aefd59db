/**
 * Go's text/tabwriter configured as etcd's help printer configures it
 * (pkg/cobrautl/help.go: minwidth 0, tabwidth 8, padding 1, padchar '\t'):
 * tab-terminated cells of consecutive lines form columns, and each cell is
 * padded with tab characters up to the column's width rounded to a multiple
 * of 8. A line without tabs ends the column block (the writer flushes).
 * Mirrors text/tabwriter/tabwriter.go (format, writeLines, writePadding).
 */

const TAB_WIDTH = 8;
const PADDING = 1;

/** Pads `text` the way tabwriter.NewWriter(w, 0, 8, 1, '\t', 0) would. */
export function tabwriteWithTabs(text: string): string {
	let out = '';
	let block: string[][] = [];

	const writeLines = (lines: string[][], widths: number[]) => {
		for (const cells of lines) {
			cells.forEach((cell, j) => {
				out += cell;
				// The last cell of a line is not part of a column.
				if (j < cells.length - 1 && j < widths.length) {
					const cellWidth = Math.ceil(widths[j] / TAB_WIDTH) * TAB_WIDTH;
					out += '\t'.repeat(Math.ceil((cellWidth - [...cell].length) / TAB_WIDTH));
				}
			});
			out += '\n';
		}
	};

	// format(): find column blocks recursively, left to right.
	const format = (lines: string[][], widths: number[]) => {
		const column = widths.length;
		let start = 0;
		let i = 0;
		while (i < lines.length) {
			if (column >= lines[i].length - 1) {
				i++;
				continue;
			}
			writeLines(lines.slice(start, i), widths);
			const blockStart = i;
			let columnWidth = 0;
			for (; i < lines.length && column < lines[i].length - 1; i++) columnWidth = Math.max(columnWidth, [...lines[i][column]].length + PADDING);
			format(lines.slice(blockStart, i), [...widths, columnWidth]);
			start = i;
		}
		writeLines(lines.slice(start), widths);
	};

	const parts = text.split('\n');
	const trailing = parts.pop() ?? '';
	for (const line of parts) {
		const cells = line.split('\t');
		block.push(cells);
		if (cells.length === 1) {
			format(block, []);
			block = [];
		}
	}
	format(block, []);
	return out + trailing;
}
