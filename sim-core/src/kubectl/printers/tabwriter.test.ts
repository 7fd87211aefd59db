import { describe, expect, it } from 'vitest';
import { ALIGN_RIGHT, DEBUG, DISCARD_EMPTY_COLUMNS, REMEMBER_WIDTHS, TAB_INDENT, TabWriter, type TabWriterConfig } from '../../golang/tabwriter.ts';
import { KUBECTL_DESCRIBE_TABWRITER, KUBECTL_GET_TABWRITER, formatTable } from './tabwriter.ts';

const config = (minwidth: number, tabwidth: number, padding: number, padchar: string, flags = 0): TabWriterConfig => ({ minwidth, tabwidth, padding, padchar, flags });
const run = (c: TabWriterConfig, text: string) => new TabWriter(c).write(text).flush();

describe('kubectl get tables', () => {
	it('lays out the FACTS.md example: every column max(6, widest + 3), the last one unpadded', () => {
		const out = formatTable([
			['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
			['web-1', '1/1', 'Running', '0', '5m'],
		]);
		expect(out).toBe('NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5m\n');
	});

	it('widens a column to its widest cell plus three', () => {
		const out = formatTable([
			['NAME', 'STATUS', 'AGE'],
			['a-rather-long-pod-name-7d9f8', 'CrashLoopBackOff', '3d'],
			['x', 'Running', '1s'],
		]);
		// NAME: 28 + 3 = 31 wide; STATUS: 16 + 3 = 19 wide.
		expect(out.split('\n')).toEqual([
			'NAME'.padEnd(31) + 'STATUS'.padEnd(19) + 'AGE',
			'a-rather-long-pod-name-7d9f8'.padEnd(31) + 'CrashLoopBackOff'.padEnd(19) + '3d',
			'x'.padEnd(31) + 'Running'.padEnd(19) + '1s',
			'',
		]);
	});

	it('pads short columns up to minwidth 6', () => {
		expect(formatTable([['A', 'B'], ['1', '2']])).toBe('A     B\n1     2\n');
	});

	it('uses the cli-runtime and describe constants', () => {
		expect(KUBECTL_GET_TABWRITER).toEqual({ minwidth: 6, tabwidth: 4, padding: 3, padchar: ' ', flags: REMEMBER_WIDTHS });
		expect(KUBECTL_DESCRIBE_TABWRITER).toEqual({ minwidth: 0, tabwidth: 8, padding: 2, padchar: ' ', flags: 0 });
	});
});

describe('column blocks', () => {
	it('aligns only consecutive lines that share a column (Go doc: the b and c cells are different columns)', () => {
		const out = run(config(0, 8, 1, '.'), 'aaaa\tbbb\td\naa\tb\tdd\na\t\naa\tcccc\teee\n');
		expect(out).toBe('aaaa.bbb.d\naa...b...dd\na....\naa...cccc.eee\n');
	});

	it('reproduces text/tabwriter Example_elastic (right-aligned, debug bars)', () => {
		const out = run(config(0, 0, 1, '.', ALIGN_RIGHT | DEBUG), 'a\tb\tc\naa\tbb\tcc\naaa\t\naaaa\tdddd\teeee\n');
		expect(out).toBe('....a|..b|c\n...aa|.bb|cc\n..aaa|\n.aaaa|.dddd|eeee\n');
	});

	it('reproduces Example_trailingTab: a line without a trailing tab leaves its last cell unaligned', () => {
		const out = run(config(0, 0, 3, '-', ALIGN_RIGHT | DEBUG), 'a\tb\taligned\t\naa\tbb\taligned\t\naaa\tbbb\tunaligned\naaaa\tbbbb\taligned\t\n');
		expect(out).toBe('------a|------b|---aligned|\n-----aa|-----bb|---aligned|\n----aaa|----bbb|unaligned\n---aaaa|---bbbb|---aligned|\n');
	});

	it('reproduces ExampleWriter_Init with tab padding and with right alignment', () => {
		const input = 'a\tb\tc\td\t.\n123\t12345\t1234567\t123456789\t.\n\n';
		expect(run(config(0, 8, 0, '\t'), input)).toBe('a\tb\tc\td\t\t.\n123\t12345\t1234567\t123456789\t.\n\n');
		expect(run(config(5, 0, 1, ' ', ALIGN_RIGHT), input)).toBe('    a     b       c         d.\n  123 12345 1234567 123456789.\n\n');
	});

	it('lets a blank line end every column block, so the next rows align on their own', () => {
		const out = run(KUBECTL_DESCRIBE_TABWRITER, 'a-long-label:\tx\nb:\ty\n\nc:\tz\n');
		expect(out).toBe(`a-long-label:  x\n${'b:'.padEnd(15)}y\n\nc:  z\n`);
	});

	it('ends a block at a line with fewer cells without flushing the columns to its left', () => {
		const out = run(config(0, 8, 1, ' '), 'a\tbbbbb\tc\nlonger\td\ne\tf\tg\n');
		// Column 0 spans all three lines; column 1 is two blocks (line 1 has no column 1).
		expect(out).toBe('a      bbbbb c\nlonger d\ne      f g\n');
	});

	it('pads a cell followed by a trailing tab but not the final cell of a line', () => {
		expect(run(KUBECTL_DESCRIBE_TABWRITER, 'a\tb\t\n')).toBe('a  b  \n');
		expect(run(KUBECTL_DESCRIBE_TABWRITER, 'a\tb\n')).toBe('a  b\n');
	});

	it('formats text left without a final newline on flush', () => {
		expect(run(KUBECTL_DESCRIBE_TABWRITER, 'a\tb\nccc\td')).toBe('a    b\nccc  d');
	});

	it('accumulates several writes, even when a cell is split between them', () => {
		const w = new TabWriter(KUBECTL_DESCRIBE_TABWRITER);
		w.write('Na').write('me:\tweb').write('\nNamespace:').write('\tdefault\n');
		expect(w.flush()).toBe('Name:       web\nNamespace:  default\n');
		expect(w.flush()).toBe('');
	});

	it('treats a formfeed as a newline that also flushes', () => {
		expect(run(KUBECTL_DESCRIBE_TABWRITER, 'long-cell\tx\fa\ty\n')).toBe('long-cell  x\na  y\n');
		expect(run(config(0, 8, 1, ' ', DEBUG), 'a\tb\fc\td\n')).toBe('a |b\n---\nc |d\n');
	});
});

describe('kubectl describe sections', () => {
	it('aligns label/value pairs with padding 2 and no minimum width', () => {
		const out = run(KUBECTL_DESCRIBE_TABWRITER, 'Name:\tnginx\nNamespace:\tdefault\nPriority:\t0\n');
		expect(out).toBe('Name:       nginx\nNamespace:  default\nPriority:   0\n');
	});

	it('keeps space-indented sub-sections separate, as describe prefixes levels with two spaces', () => {
		const out = run(KUBECTL_DESCRIBE_TABWRITER, 'Name:\tnginx\nContainers:\n  nginx:\n    Image:\tnginx:1.25\n    Port:\t80/TCP\n');
		expect(out).toBe('Name:  nginx\nContainers:\n  nginx:\n    Image:  nginx:1.25\n    Port:   80/TCP\n');
	});

	it('pads a leading empty cell (a line starting with a tab) to the column width', () => {
		const out = run(KUBECTL_DESCRIBE_TABWRITER, 'Conditions:\n  Type\tStatus\n\tReady\tTrue\n\tInitialized\tTrue\n');
		// Column 0 holds "  Type" (6 + 2) and the empty cells; column 1 the condition names.
		expect(out).toBe('Conditions:\n  Type  Status\n        Ready        True\n        Initialized  True\n');
	});

	it('uses tabs for leading empty cells with TabIndent', () => {
		expect(run(config(0, 8, 1, ' ', TAB_INDENT), '\ta\tb\n\tcc\td\n')).toBe('\ta  b\n\tcc d\n');
	});

	it('lays out the Events table', () => {
		const out = formatTable(
			[
				['  Type', 'Reason', 'Age', 'From', 'Message'],
				['  ----', '------', '----', '----', '-------'],
				['  Normal', 'Scheduled', '5m', 'default-scheduler', 'Successfully assigned default/web-1 to node-1'],
			],
			KUBECTL_DESCRIBE_TABWRITER,
		);
		// Widths: 8 + 2, 9 + 2, 4 + 2 ("----" is wider than "Age"), 17 + 2; the message is the last cell.
		const widths = [10, 11, 6, 19];
		const line = (...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');
		expect(out).toBe(
			line('  Type', 'Reason', 'Age', 'From', 'Message') +
				'\n' +
				line('  ----', '------', '----', '----', '-------') +
				'\n' +
				line('  Normal', 'Scheduled', '5m', 'default-scheduler', 'Successfully assigned default/web-1 to node-1') +
				'\n',
		);
		expect(out.split('\n')[0]).toBe('  Type    Reason     Age   From               Message');
	});
});

describe('unicode widths', () => {
	it('counts a CJK character as one column, like utf8.RuneCount', () => {
		expect(run(KUBECTL_DESCRIBE_TABWRITER, '名前\tx\nab\ty\n')).toBe('名前  x\nab  y\n');
	});

	it('counts an astral emoji as one column although it is two UTF-16 units', () => {
		expect(run(KUBECTL_DESCRIBE_TABWRITER, '🚀\tx\nab\ty\n')).toBe('🚀   x\nab  y\n');
	});

	it('counts each code point of a combining sequence', () => {
		expect(run(KUBECTL_DESCRIBE_TABWRITER, 'e\u0301\tx\nabc\ty\n')).toBe('e\u0301   x\nabc  y\n');
	});
});

describe('RememberWidths', () => {
	it('keeps columns aligned across flushes as long as they are not wider (Example_rememberWidth)', () => {
		const w = new TabWriter(config(4, 6, 3, ' ', REMEMBER_WIDTHS | DEBUG));
		const first = w.write('a\tb\tc\nddd\teeeee\tfff\n').flush();
		const second = w.write('g\thh\tii\njjj\tk\tl\n').flush();
		const third = w.write('mmmmm\tn\to\np\tqqq\trrr\n').flush();
		expect(first + second + third).toBe('a     |b       |c\nddd   |eeeee   |fff\ng     |hh      |ii\njjj   |k       |l\nmmmmm   |n       |o\np       |qqq     |rrr\n');
	});

	it('remembers widths across the flush a blank line triggers', () => {
		expect(run(KUBECTL_GET_TABWRITER, 'longer-cell\tx\n\na\tb\n')).toBe(`longer-cell   x\n\n${'a'.padEnd(14)}b\n`);
		expect(run(KUBECTL_DESCRIBE_TABWRITER, 'longer-cell\tx\n\na\tb\n')).toBe('longer-cell  x\n\na  b\n');
	});

	it('exposes and restores the remembered widths (liggitt/tabwriter TestMultiWrite)', () => {
		const w = new TabWriter(KUBECTL_GET_TABWRITER);
		w.write('First\tMiddle\tLast\na\tbb\tccc\nddd\teeeeeeeeeeeeee\tf\n').flush();
		expect(w.rememberedWidths()).toEqual([8, 17]);
		expect(w.write('j\t\t\n').flush()).toBe('j                        \n');
		expect(w.write('mmmmmmmmmmmmmmm\tnnn\tooo\n').flush()).toBe('mmmmmmmmmmmmmmm   nnn              ooo\n');
		const next = new TabWriter(KUBECTL_GET_TABWRITER).setRememberedWidths(w.rememberedWidths());
		expect(next.write('p\tq\tr\n').flush()).toBe('p                 q                r\n');
		expect(next.rememberedWidths()).toEqual([18, 17]);
		next.setRememberedWidths([10, 5, 5]);
		expect(next.write('v\tw\tx\n').flush()).toBe('v         w     x\n');
	});
});

describe('other flags and settings', () => {
	it('discards columns made only of empty soft-tab cells', () => {
		expect(run(config(0, 8, 1, '.', DISCARD_EMPTY_COLUMNS), 'a\v\vb\nc\v\vd\n')).toBe('a.b\nc.d\n');
		expect(run(config(0, 8, 1, '.'), 'a\v\vb\nc\v\vd\n')).toBe('a..b\nc..d\n');
	});

	it('keeps left alignment when padding with tabs', () => {
		expect(run(config(0, 4, 0, '\t', ALIGN_RIGHT), 'a\tb\nccccc\td\n')).toBe('a\t\tb\nccccc\td\n');
	});

	it('rejects negative sizes like tabwriter.Init', () => {
		expect(() => new TabWriter(config(-1, 0, 0, ' '))).toThrow('negative minwidth, tabwidth, or padding');
	});
});
