/**
 * The scanner: characters in, tokens out (scalars, `-`, `:`, `[`, block
 * starts and ends, ...).
 *
 * Block structure comes from an indentation stack: a token further left than
 * the current block closes it (BLOCK-END), and a key or `-` further right
 * opens a new one. A mapping key is only recognised once its `:` is seen, so
 * the scanner remembers where a "simple key" could have started (one
 * candidate per flow level, at most one line and 1024 characters back) and
 * slips KEY and BLOCK-MAPPING-START tokens in front of it afterwards. Tokens
 * are produced on demand; only the few that might still become keys are held
 * back. Everything here is written to be linear in the input.
 *
 * Mirrors yaml/go-yaml scannerc.go (libyaml's scanner ported to Go, with its
 * plain, quoted and block scalar scanners).
 */
import type { YamlLimits } from './limits.ts';
import {
	ALIAS,
	ANCHOR,
	BLOCK_END,
	BLOCK_MAP,
	BLOCK_SEQ,
	DIRECTIVE,
	DOC_END,
	DOC_START,
	ENTRY,
	FLOW_ENTRY,
	FLOW_MAP,
	FLOW_MAP_END,
	FLOW_SEQ,
	FLOW_SEQ_END,
	KEY,
	SCALAR,
	STREAM_END,
	TAG,
	VALUE,
	YamlError,
	type Kind,
	type Token,
} from './tokens.ts';

/** A place where a simple key (`key:`) may have started. */
interface KeySpot {
	ok: boolean;
	/** A key at the block's own indentation must be completed by `:`. */
	req: boolean;
	/** Number of the token in front of which KEY is inserted. */
	n: number;
	pos: number;
	line: number;
	col: number;
}

const blankz = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '';

// One-letter escapes of double-quoted scalars and what they stand for, position by position.
const SIMPLE_ESCAPES = '0abt\tnvfre "\'/\\N_LP';
const SIMPLE_DECODED = '\0\x07\b\t\t\n\v\f\r\x1b "\'/\\\x85\xa0\u2028\u2029';
// The body of a quoted scalar up to its closing quote (or the end of input).
const SINGLE_BODY = /(?:[^']|'')*/y;
const DOUBLE_BODY = /(?:[^"\\]|\\[\s\S])*/y;
// Escape sequences, for String.split: an escaped line break with the blank
// lines after it, a hex escape, a run of one-letter escapes, or anything
// else after a backslash (an error, reported when decoded).
const DOUBLE_ESCAPE = /(\\(?:\n[ \t\n]*|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0abt\tnvfre "'/\\N_LP](?:\\[0abt\tnvfre "'/\\N_LP])*|[\s\S]?))/;
const DOC_MARKER_INSIDE = /\n(?:---|\.\.\.)/g;

/**
 * Folds the line breaks of a quoted scalar: blanks around a break go, one
 * break reads as a space, n breaks in a row as n-1 newlines. The blanks
 * before a break are matched from the first blank of their run only (the
 * look-behind) and taken whole (the captured look-ahead), so a long run of
 * spaces costs linear time, not quadratic.
 */
const fold = (s: string) =>
	!s.includes('\n')
		? s
		: s
				.replace(/\n[ \t]+/g, '\n')
				.replace(/(?<![ \t])(?=([ \t]+))\1\n/g, '\n')
				.replace(/(?<!\n)\n(?!\n)/g, ' ')
				.replace(/(?<!\n)\n/g, '');
// Sticky scans (used with lastIndex) for runs of ordinary characters: a
// regex walks a long run far faster than a loop in JS, which matters for
// megabyte-sized hostile input.
// Plain text up to the end of its line: blanks inside count only when more text
// follows them (not `#` or `: `), and a colon only when no blank follows it.
const BLOCK_RUN = /(?:[^ \t\n:]|:(?=[^ \t\n])|[ \t]+(?=[^ \t\n#:]|:[^ \t\n]))*/y;
const FLOW_RUN = /(?:[^ \t\n:,[\]{}]|:(?=[^ \t\n])|[ \t]+(?=[^ \t\n#:,[\]{}]|:[^ \t\n]))*/y;
const VERBATIM_TAG_RUN = /[^ \t\n>]*/y;
const TAG_RUN = /[^ \t\n]*/y;
const FLOW_TAG_RUN = /[^ \t\n,[\]{}]*/y;
const NAME_RUN = /[\w-]*/y; // anchor names: go-yaml v2 allows only letters, digits, `_` and `-`
const BLANKS = /[ \t\n]*/y;

/** Scans `src` (already normalised by the reader) into tokens, on demand. */
export function scanner(src: string, lim: YamlLimits) {
	const len = src.length;
	let pos = 0;
	let line = 0;
	let col = 0;
	let flow = 0; // flow nesting level: inside [] or {} indentation means nothing
	let indent = -1; // column of the innermost open block collection
	const indents: number[] = [];
	let keyAllowed = true; // may a simple key start at the next token?
	const spots: KeySpot[] = [{ ok: false, req: false, n: 0, pos: 0, line: 0, col: 0 }];
	const queue: Token[] = [];
	let head = 0; // queue index of the next token to hand out
	let taken = 0; // tokens handed out so far
	let ended = false;

	function fail(reason: string, l = line, c = col): never {
		throw new YamlError(reason, l + 1, c + 1);
	}
	const at = (o = 0) => src.charAt(pos + o);
	const skip = (n = 1) => {
		pos += n;
		col += n;
	};
	const skipBreak = () => {
		pos++;
		line++;
		col = 0;
	};
	const eol = () => {
		const i = src.indexOf('\n', pos);
		return i < 0 ? len : i;
	};
	const skipLine = () => skip(eol() - pos);
	const push = (t: Kind, l = line, c = col, v = '', plain?: boolean) => queue.push({ t, line: l, col: c, v, plain });
	const insert = (tok: Token, n: number) => queue.splice(head + n - taken, 0, tok);
	// Gathers a scalar's pieces and joins them once: predictable linear cost,
	// and the length limit trips before anything large is built.
	const text = (l: number, c: number) => {
		const parts: string[] = [];
		let size = 0;
		const room = (n: number) => {
			if (size + n > lim.maxScalarLength) fail(`scalar exceeds the maximum length of ${lim.maxScalarLength} characters`, l, c);
		};
		const add = (piece: string) => {
			room(piece.length);
			size += piece.length;
			parts.push(piece);
		};
		return { add, room, done: () => parts.join('') };
	};
	// Moves past what `re` matches at the current position (never a line break).
	const scan = (re: RegExp) => {
		re.lastIndex = pos;
		re.test(src);
		skip(re.lastIndex - pos);
	};
	// Skips blanks and line breaks in one pass and returns how many breaks it
	// crossed (the first one is left in `firstBreak`). A tab in the first `min`
	// columns after a break is refused: it would be ambiguous indentation.
	let firstBreak = -1;
	const blanks = (min: number) => {
		BLANKS.lastIndex = pos;
		BLANKS.test(src);
		const end = BLANKS.lastIndex;
		let n = 0;
		for (let i = pos, c = col; i < end; i++, c++) {
			if (src[i] === '\n') {
				if (!n++) firstBreak = i;
				line++;
				c = -1;
			} else if (n && c < min && src[i] === '\t') fail('found a tab character that violates indentation', line, c);
			col = c + 1;
		}
		pos = end;
		return n;
	};
	const docMarker = () => col === 0 && (src.startsWith('---', pos) || src.startsWith('...', pos)) && blankz(at(3));

	function saveKey() {
		if (!keyAllowed) return;
		removeKey();
		spots[flow] = { ok: true, req: !flow && indent === col, n: taken + queue.length - head, pos, line, col };
	}
	function removeKey() {
		const k = spots[flow];
		if (k.ok && k.req) fail("could not find expected ':'", k.line, k.col);
		k.ok = false;
	}
	// A key candidate dies at the end of its line or 1024 characters on (libyaml's rule).
	function staleKeys() {
		for (const k of spots) {
			if (k.ok && (k.line < line || k.pos + 1024 < pos)) {
				if (k.req) fail("could not find expected ':'", k.line, k.col);
				k.ok = false;
			}
		}
	}
	function roll(column: number, t: Kind, n = -1, l = line) {
		if (flow || indent >= column) return;
		indents.push(indent);
		indent = column;
		const tok = { t, line: l, col: column, v: '' };
		if (n < 0) queue.push(tok);
		else insert(tok, n);
	}
	function unroll(column: number) {
		if (flow) return;
		while (indent > column) {
			push(BLOCK_END);
			indent = indents.pop() ?? -1;
		}
	}

	function fetch(): void {
		// Skip blanks, comments and line breaks. In block context a tab may
		// not start a line (it would be ambiguous indentation), as in go-yaml.
		for (;;) {
			while (at() === ' ' || (at() === '\t' && (flow > 0 || !keyAllowed))) skip();
			if (at() === '#') skipLine();
			if (at() !== '\n') break;
			skipBreak();
			if (!flow) keyAllowed = true;
		}
		staleKeys();
		unroll(col);
		const c = at();
		const blankNext = blankz(at(1));
		if (pos >= len) {
			unroll(-1);
			removeKey();
			keyAllowed = false;
			ended = true;
			push(STREAM_END);
		} else if (col === 0 && (c === '%' || docMarker())) {
			unroll(-1);
			removeKey();
			keyAllowed = false;
			push(c === '%' ? DIRECTIVE : c === '-' ? DOC_START : DOC_END);
			if (c === '%') skipLine(); // %YAML and %TAG change nothing we support
			else skip(3);
		} else if (c === '[' || c === '{') {
			saveKey();
			if (++flow > lim.maxDepth) fail(`exceeded max depth of ${lim.maxDepth}`);
			spots.push({ ok: false, req: false, n: 0, pos: 0, line: 0, col: 0 });
			keyAllowed = true;
			push(c === '[' ? FLOW_SEQ : FLOW_MAP);
			skip();
		} else if (c === ']' || c === '}') {
			removeKey();
			if (flow) {
				flow--;
				spots.pop();
			}
			keyAllowed = false;
			push(c === ']' ? FLOW_SEQ_END : FLOW_MAP_END);
			skip();
		} else if (c === ',') {
			removeKey();
			keyAllowed = true;
			push(FLOW_ENTRY);
			skip();
		} else if (c === '-' && blankNext) {
			if (!flow) {
				if (!keyAllowed) fail('block sequence entries are not allowed in this context');
				roll(col, BLOCK_SEQ);
			}
			removeKey();
			keyAllowed = true;
			push(ENTRY);
			skip();
		} else if (c === '?' && (flow || blankNext)) {
			fail('explicit mapping keys ("? ") are not supported');
		} else if (c === ':' && (flow || blankNext)) {
			const k = spots[flow];
			if (k.ok) {
				// The candidate really was a key: put KEY (and maybe a new block mapping) in front of it.
				insert({ t: KEY, line: k.line, col: k.col, v: '' }, k.n);
				roll(k.col, BLOCK_MAP, k.n, k.line);
				k.ok = false;
				keyAllowed = false;
			} else {
				if (!flow) {
					if (!keyAllowed) fail('mapping values are not allowed in this context');
					roll(col, BLOCK_MAP);
				}
				keyAllowed = !flow;
			}
			push(VALUE);
			skip();
		} else if (c === '*' || c === '&') {
			saveKey();
			keyAllowed = false;
			const l = line;
			const c0 = col;
			skip();
			const s = pos;
			scan(NAME_RUN);
			if (pos === s || !(blankz(at()) || '?:,]}%@`'.includes(at()))) fail('did not find expected alphabetic or numeric character');
			push(c === '*' ? ALIAS : ANCHOR, l, c0, src.slice(s, pos));
		} else if (c === '!') {
			saveKey();
			keyAllowed = false;
			tag();
		} else if ((c === '|' || c === '>') && !flow) {
			removeKey();
			keyAllowed = true;
			block(c === '|');
		} else if (c === "'" || c === '"') {
			saveKey();
			keyAllowed = false;
			quoted(c === '"');
		} else if (!(blankz(c) || '-?:,[]{}#&*!|>\'"%@`'.includes(c)) || ('-?:'.includes(c) && !blankNext)) {
			saveKey();
			keyAllowed = false;
			plain();
		} else {
			fail('found character that cannot start any token');
		}
	}

	function tag() {
		const l = line;
		const c0 = col;
		let v: string;
		if (at(1) === '<') {
			skip(2);
			const s = pos;
			scan(VERBATIM_TAG_RUN);
			if (at() !== '>') fail("did not find the expected '>'");
			v = src.slice(s, pos).replace(/^tag:yaml\.org,2002:/, '!!');
			skip();
		} else {
			const s = pos;
			scan(flow ? FLOW_TAG_RUN : TAG_RUN);
			v = src.slice(s, pos);
		}
		if (!blankz(at()) && !(flow && at() === ',')) fail('did not find expected whitespace or line break');
		push(TAG, l, c0, v);
	}

	function plain() {
		const l = line;
		const c0 = col;
		const min = indent + 1; // continuation lines must be right of the enclosing block
		const v = text(l, c0);
		let spaces = '';
		let breaks = 0;
		for (;;) {
			if (docMarker() || at() === '#') break;
			const s = pos;
			scan(flow ? FLOW_RUN : BLOCK_RUN);
			if (pos === s) break;
			// Fold what lay between the words: one line break reads as a space, n breaks as n-1 newlines.
			v.add((breaks ? (breaks === 1 ? ' ' : '\n'.repeat(breaks - 1)) : spaces) + src.slice(s, pos));
			const w = pos;
			breaks = blanks(min);
			spaces = src.slice(w, breaks ? firstBreak : pos);
			if (!flow && breaks && col < min) break;
		}
		if (breaks) keyAllowed = true;
		push(SCALAR, l, c0, v.done(), true);
	}

	// Quoted scalars are cut out with one regex and decoded with a few more:
	// no per-character or per-line JS, so even a megabyte of one-character
	// lines costs a few milliseconds.
	function quoted(dbl: boolean) {
		const l = line;
		const c0 = col;
		const start = pos + 1;
		const body = dbl ? DOUBLE_BODY : SINGLE_BODY;
		body.lastIndex = start;
		body.test(src);
		const end = body.lastIndex;
		const raw = src.slice(start, end);
		// Line and column of an offset inside the scalar, for error messages.
		const where = (off: number): [number, number] => {
			const lines = raw.slice(0, off).split('\n');
			return lines.length > 1 ? [l + lines.length - 1, lines[lines.length - 1].length] : [l, c0 + 1 + off];
		};
		for (const m of raw.matchAll(DOC_MARKER_INSIDE)) {
			if (blankz(src.charAt(start + m.index + 4))) fail('found unexpected document indicator', ...where(m.index + 1));
		}
		if (src.charAt(end) !== (dbl ? '"' : "'")) fail('found unexpected end of stream', l, c0);
		let breaks = 0;
		let lastBreak = -1;
		for (let i = raw.indexOf('\n'); i >= 0; i = raw.indexOf('\n', i + 1)) {
			breaks++;
			lastBreak = i;
		}
		pos = end + 1;
		line += breaks;
		col = breaks ? end - start - lastBreak : col + raw.length + 2;

		const v = text(l, c0);
		if (!dbl) {
			v.add(fold(raw).replaceAll("''", "'"));
		} else {
			// Odd entries are escape sequences (runs of one-letter ones grouped), even ones plain text.
			let off = 0;
			raw.split(DOUBLE_ESCAPE).forEach((piece, i) => {
				if (i % 2 === 0) v.add(fold(piece));
				else v.add(unescape(piece, v.room, () => where(off)));
				off += piece.length;
			});
		}
		push(SCALAR, l, c0, v.done(), false);
	}

	// Decodes one token from DOUBLE_ESCAPE; `at` locates it for errors.
	function unescape(tok: string, room: (n: number) => void, at: () => [number, number]): string {
		const e = tok[1];
		if (e === '\n') return '\n'.repeat(tok.split('\n').length - 2); // an escaped break joins the lines
		if (e === 'x' || e === 'u' || e === 'U') {
			if (tok.length === 2) fail('did not find expected hexdecimal number', ...at());
			const cp = parseInt(tok.slice(2), 16);
			if (cp > 0x10ffff) fail('found invalid Unicode character escape code', ...at());
			return String.fromCodePoint(cp);
		}
		if (!e || !SIMPLE_ESCAPES.includes(e)) fail('found unknown escape character', ...at());
		room(tok.length / 2); // a megabyte of `\n` is refused before it is decoded
		let out = '';
		for (let i = 1; i < tok.length; i += 2) out += SIMPLE_DECODED[SIMPLE_ESCAPES.indexOf(tok[i])];
		return out;
	}

	function block(literal: boolean) {
		const l = line;
		const c0 = col;
		skip();
		let chomp = 0; // -1 strip, 0 clip, +1 keep
		let ind = 0;
		for (let i = 0; i < 2; i++) {
			const c = at();
			if (!chomp && (c === '+' || c === '-')) {
				chomp = c === '+' ? 1 : -1;
				skip();
			} else if (!ind && c >= '0' && c <= '9') {
				if (c === '0') fail('found an indentation indicator equal to 0');
				ind = Math.max(indent, 0) + Number(c);
				skip();
			}
		}
		while (at() === ' ' || at() === '\t') skip();
		if (at() === '#') skipLine();
		if (at() === '\n') skipBreak();
		else if (pos < len) fail('did not find expected comment or line break');

		// Skips indentation and empty lines, fixing the indentation from the
		// first content line when no indicator gave it. Returns the breaks seen.
		const emptyLines = () => {
			let n = 0;
			let max = 0;
			for (;;) {
				while ((!ind || col < ind) && at() === ' ') skip();
				max = Math.max(max, col);
				if ((!ind || col < ind) && at() === '\t') fail('found a tab character where an indentation space is expected');
				if (at() !== '\n') break;
				skipBreak();
				n++;
			}
			if (!ind) ind = Math.max(max, indent + 1, 1);
			return n;
		};
		const v = text(l, c0);
		let lead = false; // a line break ends the previous content line
		let leadBlank = false; // the previous content line started with a blank
		let trail = emptyLines();
		while (col === ind && pos < len) {
			const blank = at() === ' ' || at() === '\t';
			// Folding joins two ordinary lines with a space; more-indented lines keep their breaks.
			if (!literal && lead && !leadBlank && !blank) {
				if (!trail) v.add(' ');
			} else if (lead) v.add('\n');
			v.add('\n'.repeat(trail));
			leadBlank = blank;
			const s = pos;
			skipLine();
			v.add(src.slice(s, pos));
			lead = pos < len;
			if (lead) skipBreak();
			trail = emptyLines();
		}
		if (chomp >= 0 && lead) v.add('\n');
		if (chomp > 0) v.add('\n'.repeat(trail));
		push(SCALAR, l, c0, v.done(), false);
	}

	// More tokens are needed while the next one might still get a KEY in front of it.
	const needMore = () => {
		if (head === queue.length) return true;
		staleKeys();
		for (const k of spots) if (k.ok && k.n === taken) return true;
		return false;
	};
	const peek = (): Token => {
		while (!ended && needMore()) fetch();
		return queue[head];
	};
	const next = (): Token => {
		const t = peek();
		head++;
		taken++;
		if (head === queue.length) queue.length = head = 0;
		return t;
	};
	return { peek, next };
}

/** The token stream the parser reads: look at the next token, or take it. */
export type Scanner = ReturnType<typeof scanner>;
