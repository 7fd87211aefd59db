/**
 * What the YAML editor needs besides sim-core's parser: a tiny tokenizer
 * for syntax colouring (line by line, linear, never throws: it colours,
 * it does not validate), and the line a kubectl error points at (a parse
 * error's `yaml: line N`, or the field a strict-decoding or validation
 * error names).
 */

export type YamlTokenKind = 'key' | 'punct' | 'string' | 'number' | 'keyword' | 'comment' | 'anchor' | 'tag' | 'text' | 'space' | 'doc';

export interface YamlToken {
	t: YamlTokenKind;
	v: string;
}

/** State carried from one line to the next. */
interface LineState {
	/** Inside a block scalar (`|`, `>`): the indentation of the line that opened it. */
	blockParentIndent: number | null;
	/** Inside a quoted scalar that continues on the next line. */
	quote: '"' | "'" | null;
}

const KEYWORDS = /^(?:true|false|True|False|TRUE|FALSE|null|Null|NULL|~|yes|no|on|off)$/;
const NUMBER = /^[-+]?(?:0x[0-9a-fA-F]+|0o[0-7]+|(?:\d[\d_]*)?\.?\d+(?:[eE][-+]?\d+)?|\.inf|\.nan)$/;

function scalarKind(text: string): YamlTokenKind {
	const s = text.trim();
	if (KEYWORDS.test(s)) return 'keyword';
	if (NUMBER.test(s)) return 'number';
	return 'text';
}

/** Reads a quoted scalar starting at `i` (the quote) or continuing one; returns where it ends and whether it closed. */
function readQuoted(line: string, i: number, quote: '"' | "'", continuing: boolean): { end: number; closed: boolean } {
	let j = continuing ? i : i + 1;
	while (j < line.length) {
		const c = line[j];
		if (quote === '"' && c === '\\') {
			j += 2;
			continue;
		}
		if (c === quote) {
			if (quote === "'" && line[j + 1] === "'") {
				j += 2;
				continue;
			}
			return { end: j + 1, closed: true };
		}
		j++;
	}
	return { end: line.length, closed: false };
}

/** Pushes a token, merging with the previous one of the same kind. */
function push(out: YamlToken[], t: YamlTokenKind, v: string): void {
	if (!v) return;
	const last = out[out.length - 1];
	if (last && last.t === t) last.v += v;
	else out.push({ t, v });
}

function indentOf(line: string): number {
	let i = 0;
	while (i < line.length && line[i] === ' ') i++;
	return i;
}

/** Tokenizes one line in a given state; returns the tokens and the state for the next line. */
function tokenizeLine(line: string, state: LineState): { tokens: YamlToken[]; next: LineState } {
	const out: YamlToken[] = [];
	const indent = indentOf(line);
	if (state.blockParentIndent !== null) {
		if (line.trim() === '' || indent > state.blockParentIndent) {
			push(out, 'string', line);
			return { tokens: out, next: state };
		}
		state = { ...state, blockParentIndent: null };
	}
	let i = 0;
	if (state.quote) {
		const { end, closed } = readQuoted(line, 0, state.quote, true);
		push(out, 'string', line.slice(0, end));
		if (!closed) return { tokens: out, next: state };
		i = end;
		state = { ...state, quote: null };
	}
	if (i === 0 && /^(---|\.\.\.)(\s|$)/.test(line)) {
		push(out, 'doc', line.slice(0, 3));
		i = 3;
	}
	let expectKey = true;
	let flowDepth = 0;
	while (i < line.length) {
		const c = line[i];
		if (c === ' ' || c === '\t') {
			let j = i;
			while (j < line.length && (line[j] === ' ' || line[j] === '\t')) j++;
			push(out, 'space', line.slice(i, j));
			i = j;
			continue;
		}
		if (c === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) {
			push(out, 'comment', line.slice(i));
			break;
		}
		if (c === '-' && (line[i + 1] === ' ' || i + 1 === line.length) && expectKey && flowDepth === 0) {
			push(out, 'punct', '-');
			i++;
			continue;
		}
		if ('[]{},'.includes(c)) {
			push(out, 'punct', c);
			flowDepth += c === '[' || c === '{' ? 1 : c === ']' || c === '}' ? -1 : 0;
			flowDepth = Math.max(0, flowDepth);
			expectKey = c === '{' || c === ',';
			i++;
			continue;
		}
		if (c === '&' || c === '*') {
			let j = i + 1;
			while (j < line.length && !/[\s,[\]{}]/.test(line[j])) j++;
			push(out, 'anchor', line.slice(i, j));
			i = j;
			continue;
		}
		if (c === '!') {
			let j = i + 1;
			while (j < line.length && !/\s/.test(line[j])) j++;
			push(out, 'tag', line.slice(i, j));
			i = j;
			continue;
		}
		if ((c === '|' || c === '>') && flowDepth === 0 && /^[|>][-+0-9]*\s*(#.*)?$/.test(line.slice(i))) {
			const m = /^[|>][-+0-9]*/.exec(line.slice(i))![0];
			push(out, 'punct', m);
			i += m.length;
			state = { ...state, blockParentIndent: indent };
			continue;
		}
		if (c === '"' || c === "'") {
			const { end, closed } = readQuoted(line, i, c, false);
			const text = line.slice(i, end);
			// A quoted key: `"a b": value`.
			if (closed && /^\s*:(\s|$)/.test(line.slice(end)) && expectKey) push(out, 'key', text);
			else push(out, 'string', text);
			i = end;
			if (!closed) state = { ...state, quote: c };
			continue;
		}
		if (c === ':' && (line[i + 1] === ' ' || line[i + 1] === undefined || (flowDepth > 0 && ',]}'.includes(line[i + 1])))) {
			push(out, 'punct', ':');
			expectKey = false;
			i++;
			continue;
		}
		// A plain scalar: up to `: `, ` #`, or (in flow) a flow indicator.
		let j = i;
		while (j < line.length) {
			const d = line[j];
			if (d === ':' && (line[j + 1] === ' ' || line[j + 1] === undefined || (flowDepth > 0 && ',]}'.includes(line[j + 1] ?? '')))) break;
			if (d === '#' && (line[j - 1] === ' ' || line[j - 1] === '\t')) break;
			if (flowDepth > 0 && ',[]{}'.includes(d)) break;
			j++;
		}
		let text = line.slice(i, j);
		// Trailing spaces before a comment belong to the space token.
		const trimmed = text.replace(/[ \t]+$/, '');
		const isKey = line[j] === ':' && expectKey;
		push(out, isKey ? 'key' : scalarKind(trimmed), trimmed);
		text = text.slice(trimmed.length);
		push(out, 'space', text);
		i = j;
	}
	return { tokens: out, next: state };
}

/** Tokens of each line of `text` (split on `\n`; a trailing `\r` stays in its line's last token). */
export function tokenizeYaml(text: string): YamlToken[][] {
	let state: LineState = { blockParentIndent: null, quote: null };
	return text.split('\n').map((line) => {
		const { tokens, next } = tokenizeLine(line, state);
		state = next;
		return tokens;
	});
}

/** The first line of each document (1-based), split as kubectl splits a stream: at lines starting with `---`. */
export function documentStartLines(text: string): number[] {
	const starts = [1];
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) if (lines[i].startsWith('---')) starts.push(i + 2);
	return starts;
}

/** A line (1-based, in the whole text) and what is wrong there. */
export interface LineProblem {
	line: number;
	message: string;
}

/**
 * Where a `kubectl apply` parse error points in the editor's text. kubectl
 * counts lines within the failing document; when only one document is
 * long enough to hold that line, the line is certain, otherwise unknown.
 */
export function lineOfParseError(output: string, text: string): LineProblem | undefined {
	const m = /yaml: line (\d+): (.+)/.exec(output);
	if (!m) return undefined;
	const local = Number(m[1]);
	const lines = text.split('\n');
	const starts = documentStartLines(text);
	const candidates: number[] = [];
	starts.forEach((start, k) => {
		const end = k + 1 < starts.length ? starts[k + 1] - 2 : lines.length;
		if (end - start + 1 >= local) candidates.push(start + local - 1);
	});
	return candidates.length === 1 ? { line: candidates[0], message: m[2].trim() } : undefined;
}

/** Field paths an API error names: `unknown field "spec.containerz"`, `spec.containers[0].image: Required value`. */
export function fieldPathsOf(output: string): string[] {
	const paths = new Set<string>();
	for (const m of output.matchAll(/unknown field "([^"]+)"/g)) paths.add(m[1]);
	for (const m of output.matchAll(/(?:^|[\s:,])((?:metadata|spec|data|stringData|status|rules|subjects|roleRef)(?:\.[\w-]+|\[\d+\])*): /g)) paths.add(m[1]);
	return [...paths];
}

/**
 * The line of a field path (`spec.containers[0].image`) in block-style
 * YAML, searched in every document; the deepest part of the path found
 * when the rest is missing (an unknown field is usually present, a
 * required one absent). Undefined if not even the first part is found.
 */
export function lineOfField(text: string, path: string): number | undefined {
	const parts: Array<string | number> = [];
	for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(m[2] !== undefined ? Number(m[2]) : m[1]);
	if (parts.length === 0) return undefined;
	const lines = text.split('\n');
	const starts = documentStartLines(text);
	let best: { line: number; depth: number } | undefined;
	for (let k = 0; k < starts.length; k++) {
		const from = starts[k] - 1;
		const to = k + 1 < starts.length ? starts[k + 1] - 2 : lines.length;
		const found = findPath(lines, from, to, -1, parts, 0);
		if (found && (!best || found.depth > best.depth)) best = found;
		if (best && best.depth === parts.length) break;
	}
	return best?.line;
}

/** Finds parts[depth..] among lines [from, to) whose block is indented deeper than `parentIndent`. */
function findPath(lines: string[], from: number, to: number, parentIndent: number, parts: Array<string | number>, depth: number): { line: number; depth: number } | undefined {
	const part = parts[depth];
	let itemIndex = -1;
	let seqIndent = -1;
	for (let i = from; i < to; i++) {
		const raw = lines[i];
		if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
		const indent = indentOf(raw);
		if (indent <= parentIndent) break;
		let body = raw.slice(indent);
		let bodyIndent = indent;
		const isItem = body.startsWith('- ') || body === '-';
		if (typeof part === 'number') {
			// Only items of this sequence: those at the first item's indentation.
			if (!isItem || (seqIndent >= 0 && indent !== seqIndent)) continue;
			seqIndent = indent;
			itemIndex++;
			if (itemIndex !== part) continue;
			const here = { line: i + 1, depth: depth + 1 };
			if (depth + 1 === parts.length) return here;
			// Inside the item: its first key sits on the same line, after `- `.
			const inner = body.slice(2);
			const innerIndent = indent + 2 + indentOf(inner);
			const sub = findInItem(lines, i, blockEnd(lines, i + 1, to, indent, false), innerIndent, inner.trimStart(), parts, depth + 1);
			return sub ?? here;
		}
		if (isItem) {
			body = body.slice(2).trimStart();
			bodyIndent = raw.length - body.length;
		}
		const name = keyOf(body);
		if (name !== part) continue;
		const here = { line: i + 1, depth: depth + 1 };
		if (depth + 1 === parts.length) return here;
		const sequenceNext = typeof parts[depth + 1] === 'number';
		const end = blockEnd(lines, i + 1, to, bodyIndent, sequenceNext);
		const sub = findPath(lines, i + 1, end, sequenceNext ? bodyIndent - 1 : bodyIndent, parts, depth + 1);
		return sub && sub.depth > here.depth ? sub : here;
	}
	return undefined;
}

/** The key a line's body starts with (`name: x` → `name`), unquoted. */
function keyOf(body: string): string | undefined {
	const m = /^("([^"]*)"|'([^']*)'|[^:#\s][^:#]*?)\s*:(\s|$)/.exec(body);
	return m ? (m[2] ?? m[3] ?? m[1]) : undefined;
}

/** Searches a sequence item whose first line (`- key: v`) is line `i`, its keys indented `innerIndent`. */
function findInItem(lines: string[], i: number, end: number, innerIndent: number, firstBody: string, parts: Array<string | number>, depth: number): { line: number; depth: number } | undefined {
	if (keyOf(firstBody) === parts[depth]) {
		const here = { line: i + 1, depth: depth + 1 };
		if (depth + 1 === parts.length) return here;
		const sequenceNext = typeof parts[depth + 1] === 'number';
		const sub = findPath(lines, i + 1, blockEnd(lines, i + 1, end, innerIndent, sequenceNext), sequenceNext ? innerIndent - 1 : innerIndent, parts, depth + 1);
		return sub && sub.depth > here.depth ? sub : here;
	}
	return findPath(lines, i + 1, end, innerIndent - 1, parts, depth);
}

/**
 * The first line at or after `from` that ends a block opened at
 * indentation `indent`: indented at most that much (a sequence's items may
 * sit at the key's own indentation when `sequence` is set).
 */
function blockEnd(lines: string[], from: number, to: number, indent: number, sequence: boolean): number {
	for (let i = from; i < to; i++) {
		const raw = lines[i];
		if (raw.trim() === '' || raw.trimStart().startsWith('#')) continue;
		const own = indentOf(raw);
		if (own < indent || (own === indent && !(sequence && raw.slice(own).startsWith('-')))) return i;
	}
	return to;
}

/**
 * The problem to mark in the editor after `kubectl apply` failed: a parse
 * error's line, or the line of the first field an API error names.
 */
export function problemOfApply(output: string, text: string): LineProblem | undefined {
	const parse = lineOfParseError(output, text);
	if (parse) return parse;
	if (/yaml: line \d+/.test(output)) return undefined;
	for (const path of fieldPathsOf(output)) {
		const line = lineOfField(text, path);
		if (line !== undefined) return { line, message: output.trim().split('\n')[0] };
	}
	return undefined;
}

/**
 * The indentation a new line gets after `line` when the reader presses
 * Enter: the same as `line`, two more after a key that opens a block
 * (`spec:`, `- name: web` keeps the item's key column).
 */
export function indentAfter(line: string): string {
	const indent = indentOf(line);
	const body = line.slice(indent);
	const item = /^- +/.exec(body);
	const column = item ? indent + item[0].length : indent;
	const rest = item ? body.slice(item[0].length) : body;
	const withoutComment = rest.replace(/\s+#.*$/, '');
	const opensBlock = /:\s*$/.test(withoutComment) || /:\s+[|>][-+0-9]*\s*$/.test(withoutComment);
	return ' '.repeat(opensBlock ? column + 2 : column);
}
