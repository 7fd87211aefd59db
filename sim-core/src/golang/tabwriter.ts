/**
 * Go's `text/tabwriter` (elastic tabstops), as forked by kubectl in
 * github.com/liggitt/tabwriter@89fcab3 to add RememberWidths, and used by
 * kubernetes/cli-runtime pkg/printers/tabwriter.go (`kubectl get`) and by
 * kubectl pkg/describe/describe.go tabbedString (`kubectl describe`, plain
 * text/tabwriter, identical apart from that flag).
 *
 * Input is cells terminated by `\t` (or the soft `\v`); `\n` ends a line
 * and `\f` ends a line and flushes. A column is a block of consecutive lines
 * that all have a tab-terminated cell at that index; its width is the widest
 * cell plus padding (at least minwidth). A line's last cell is not
 * tab-terminated, belongs to no column and is never padded.
 *
 * Widths count Unicode code points, as Go's `utf8.RuneCount` does: a CJK
 * character or an emoji counts 1, so such tables misalign on a terminal
 * exactly as real kubectl's do.
 *
 * Not modelled: FilterHTML and the 0xff Escape byte (StripEscape), which
 * kubectl never uses and which cannot occur in a JS string's UTF-8 anyway.
 *
 * Mirrors golang/go src/text/tabwriter/tabwriter.go, liggitt/tabwriter
 * tabwriter.go (RememberWidths).
 */

/** Flag: right-align cell contents (tabwriter.AlignRight). */
export const ALIGN_RIGHT = 1 << 2;
/** Flag: drop columns made only of empty soft-tab (`\v`) cells (tabwriter.DiscardEmptyColumns). */
export const DISCARD_EMPTY_COLUMNS = 1 << 3;
/** Flag: pad leading empty cells with tabs whatever the padchar (tabwriter.TabIndent). */
export const TAB_INDENT = 1 << 4;
/** Flag: print `|` between columns (tabwriter.Debug). */
export const DEBUG = 1 << 5;
/** Flag: keep each column's widest width across flushes (liggitt/tabwriter RememberWidths). */
export const REMEMBER_WIDTHS = 1 << 6;

/** The parameters of tabwriter.NewWriter. */
export interface TabWriterConfig {
	/** Minimal cell width including padding. */
	minwidth: number;
	/** Width of a tab when padding with tabs. */
	tabwidth: number;
	/** Added to the widest cell of a column. */
	padding: number;
	/** One character; `\t` means pad with tabs. */
	padchar: string;
	/** A bitwise OR of the flag constants above. */
	flags: number;
}

interface Cell {
	text: string;
	/** Width in code points. */
	width: number;
	/** Terminated by a hard tab `\t` (not `\v`). */
	htab: boolean;
}

const runeCount = (text: string) => {
	let n = 0;
	for (const _ of text) n++;
	return n;
};

/**
 * A tabwriter.Writer that collects its output in memory: `write()` text,
 * then `flush()` to get everything formatted since the previous flush.
 * Like Go's, it formats early on its own whenever a line without tabs (or a
 * `\f`) ends, since such a line cannot affect later alignment.
 */
export class TabWriter {
	private readonly config: TabWriterConfig;
	private out: string[] = [];
	private lines: Cell[][] = [[]];
	/** The current, unterminated cell's text. */
	private pending = '';
	/** Widths of the enclosing columns while formatting. */
	private widths: number[] = [];
	/** RememberWidths: widest width seen per column, kept across flushes. */
	private maxWidths: number[] = [];

	constructor(config: Readonly<TabWriterConfig>) {
		if (config.minwidth < 0 || config.tabwidth < 0 || config.padding < 0) throw new RangeError('negative minwidth, tabwidth, or padding');
		// Tab padding forces left alignment, as in Go's Init.
		this.config = { ...config, flags: config.padchar === '\t' ? config.flags & ~ALIGN_RIGHT : config.flags };
	}

	/** Writer.Write: splits text into cells and lines. */
	write(text: string): this {
		let start = 0;
		for (let i = 0; i < text.length; i++) {
			const ch = text[i];
			if (ch !== '\t' && ch !== '\v' && ch !== '\n' && ch !== '\f') continue;
			const cellText = this.pending + text.slice(start, i);
			this.pending = '';
			start = i + 1;
			const line = this.lines[this.lines.length - 1];
			line.push({ text: cellText, width: runeCount(cellText), htab: ch === '\t' });
			if (ch === '\n' || ch === '\f') {
				this.lines.push([]);
				// A one-cell line cannot widen any column below it, so the buffer can be formatted now.
				if (ch === '\f' || line.length === 1) {
					this.flushBuffer();
					if (ch === '\f' && this.config.flags & DEBUG) this.out.push('---\n');
				}
			}
		}
		this.pending += text.slice(start);
		return this;
	}

	/** Writer.Flush: formats whatever is buffered and returns all output produced since the last flush(). */
	flush(): string {
		this.flushBuffer();
		const text = this.out.join('');
		this.out = [];
		return text;
	}

	/** Writer.RememberedWidths (liggitt/tabwriter): a copy of the remembered column widths. */
	rememberedWidths(): number[] {
		return [...this.maxWidths];
	}

	/** Writer.SetRememberedWidths (liggitt/tabwriter): start from these widths, e.g. to continue another writer's table. */
	setRememberedWidths(widths: readonly number[]): this {
		this.maxWidths = [...widths];
		return this;
	}

	private flushBuffer(): void {
		if (this.pending.length > 0) {
			this.lines[this.lines.length - 1].push({ text: this.pending, width: runeCount(this.pending), htab: false });
			this.pending = '';
		}
		this.format(0, this.lines.length);
		this.lines = [[]];
		this.widths = [];
	}

	/** Formats lines [line0, line1): finds the blocks of the next column, recursing for the columns to their right. */
	private format(line0: number, line1: number): void {
		const column = this.widths.length;
		const { minwidth, padding, flags } = this.config;
		for (let i = line0; i < line1; i++) {
			if (column >= this.lines[i].length - 1) continue;
			// Line i starts a block of lines that all have a cell in this column.
			this.writeLines(line0, i);
			line0 = i;
			let width = minwidth;
			let discardable = true;
			for (; i < line1 && column < this.lines[i].length - 1; i++) {
				const cell = this.lines[i][column];
				width = Math.max(width, cell.width + padding);
				if (cell.width > 0 || cell.htab) discardable = false;
			}
			if (discardable && flags & DISCARD_EMPTY_COLUMNS) width = 0;
			if (flags & REMEMBER_WIDTHS) {
				const remembered = this.maxWidths;
				if (remembered.length < column) remembered.push(...this.widths.slice(remembered.length));
				if (remembered.length === column) remembered.push(width);
				else if (remembered[column] > width) width = remembered[column];
				else remembered[column] = width;
			}
			this.widths.push(width);
			this.format(line0, i);
			this.widths.pop();
			line0 = i;
		}
		this.writeLines(line0, line1);
	}

	private writeLines(line0: number, line1: number): void {
		const { flags } = this.config;
		for (let i = line0; i < line1; i++) {
			let useTabs = (flags & TAB_INDENT) !== 0;
			this.lines[i].forEach((cell, j) => {
				if (j > 0 && flags & DEBUG) this.out.push('|');
				const padded = j < this.widths.length;
				if (cell.text.length === 0) {
					if (padded) this.pad(cell.width, this.widths[j], useTabs);
					return;
				}
				useTabs = false;
				if (flags & ALIGN_RIGHT) {
					if (padded) this.pad(cell.width, this.widths[j], false);
					this.out.push(cell.text);
				} else {
					this.out.push(cell.text);
					if (padded) this.pad(cell.width, this.widths[j], false);
				}
			});
			// The buffer's last line is the unterminated one: no newline after it.
			if (i + 1 < this.lines.length) this.out.push('\n');
		}
	}

	private pad(textWidth: number, cellWidth: number, useTabs: boolean): void {
		const { tabwidth, padchar } = this.config;
		if (padchar === '\t' || useTabs) {
			if (tabwidth === 0) return;
			const cellw = Math.ceil(cellWidth / tabwidth) * tabwidth;
			this.out.push('\t'.repeat(Math.ceil((cellw - textWidth) / tabwidth)));
			return;
		}
		this.out.push(padchar.repeat(cellWidth - textWidth));
	}
}
