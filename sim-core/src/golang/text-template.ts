/**
 * Go's text/template over JSON data, as kubectl's go-template printer uses
 * it: the lexer and parser (actions, `{{- -}}` trim markers, comments,
 * pipelines, parenthesized pipelines, variables, `if`/`else if`/`with`/
 * `else with`/`range`/`break`/`continue`, `define`/`template`/`block`,
 * string, raw-string, character, number, bool and nil literals) and the
 * executor (fields of maps, `missingkey=default` or `error`, the builtin
 * functions `and or not len index slice print printf println html js
 * urlquery eq ne lt le gt ge`, and the caller's own functions), with Go's
 * error messages: `template: output:1: unclosed action`, `template:
 * output:1:2: executing "output" at <.x.y>: map has no entry for key "y"`.
 *
 * Values are JSON values as Go's encoding/json gives them to a template
 * (map[string]interface{}, []interface{}, string, bool, nil; integers as
 * int64, as apimachinery's json does, other numbers as float64), plus
 * `undefined` for Go's invalid reflect.Value (a missing map key, printed
 * `<no value>`). Printing follows fmt's `%v` (`map[a:1 b:[x y]]`, `<nil>`,
 * `1e+06`).
 *
 * Not here: method calls, `call`, complex numbers, custom delimiters, and
 * range over channels or functions (JSON data has none of them).
 *
 * Mirrors golang/go src/text/template/parse/lex.go, golang/go
 * src/text/template/parse/parse.go, golang/go
 * src/text/template/parse/node.go, golang/go src/text/template/exec.go,
 * golang/go src/text/template/funcs.go, golang/go src/fmt/print.go (the
 * `%v` forms).
 */
import { compareGoStrings, goQuote } from './json.ts';
import { formatFloatG } from './strconv.ts';
import { utf8Decode, utf8Encode, utf8Length } from './utf8.ts';

// ---------------------------------------------------------------------------
// Values

/** A float64 whose value is integral (a `1.0` or `1e6` literal): still printed and compared as a float. */
export class GoFloat {
	constructor(readonly value: number) {}
}

/** A template value: JSON data, a GoFloat, or undefined (Go's invalid reflect.Value). */
export type TemplateValue = null | undefined | boolean | number | string | GoFloat | TemplateValue[] | { [key: string]: TemplateValue };

/** A function a template may call: it gets its evaluated arguments and returns a value or throws a TemplateFuncError. */
export type TemplateFunc = (...args: TemplateValue[]) => TemplateValue;

/** What a function reports as its error (`error calling base64decode: ...`). */
export class TemplateFuncError extends Error {}

/** A parse or execution error, worded as Go words it. */
export class TemplateError extends Error {}

type Kind = 'invalid' | 'nil' | 'bool' | 'int' | 'float' | 'string' | 'slice' | 'map';

function kindOf(v: TemplateValue): Kind {
	if (v === undefined) return 'invalid';
	if (v === null) return 'nil';
	if (typeof v === 'boolean') return 'bool';
	if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
	if (typeof v === 'string') return 'string';
	if (v instanceof GoFloat) return 'float';
	if (Array.isArray(v)) return 'slice';
	return 'map';
}

const numberOf = (v: TemplateValue): number => (v instanceof GoFloat ? v.value : (v as number));

/** The Go type of a value, as error messages name it. */
function typeName(v: TemplateValue): string {
	switch (kindOf(v)) {
		case 'invalid':
			return '<nil>';
		case 'nil':
			return 'interface {}';
		case 'bool':
			return 'bool';
		case 'int':
			return 'int64';
		case 'float':
			return 'float64';
		case 'string':
			return 'string';
		case 'slice':
			return '[]interface {}';
		case 'map':
			return 'map[string]interface {}';
	}
}

/** fmt's `%v` of a value (internal/fmtsort orders map keys). */
export function formatValue(v: TemplateValue, top = true): string {
	switch (kindOf(v)) {
		case 'invalid':
			return top ? '<no value>' : '<nil>';
		case 'nil':
			return '<nil>';
		case 'bool':
			return String(v);
		case 'int':
			return String(v);
		case 'float':
			return formatFloatG(numberOf(v));
		case 'string':
			return v as string;
		case 'slice':
			return `[${(v as TemplateValue[]).map((x) => formatValue(x, false)).join(' ')}]`;
		case 'map': {
			const m = v as Record<string, TemplateValue>;
			return `map[${Object.keys(m)
				.sort(compareGoStrings)
				.map((k) => `${k}:${formatValue(m[k], false)}`)
				.join(' ')}]`;
		}
	}
}

/** exec.go isTrue: the truth of a value for if, with, and, or, not. */
function isTrue(v: TemplateValue): boolean {
	switch (kindOf(v)) {
		case 'invalid':
		case 'nil':
			return false;
		case 'bool':
			return v as boolean;
		case 'int':
		case 'float':
			return numberOf(v) !== 0;
		case 'string':
			return (v as string).length > 0;
		case 'slice':
			return (v as TemplateValue[]).length > 0;
		case 'map':
			return Object.keys(v as object).length > 0;
	}
}

// ---------------------------------------------------------------------------
// Lexer

type ItemType =
	| 'error'
	| 'bool'
	| 'char'
	| 'charConstant'
	| 'comment'
	| 'assign'
	| 'declare'
	| 'EOF'
	| 'field'
	| 'identifier'
	| 'leftDelim'
	| 'leftParen'
	| 'number'
	| 'pipe'
	| 'rawString'
	| 'rightDelim'
	| 'rightParen'
	| 'space'
	| 'string'
	| 'text'
	| 'variable'
	| 'keyword'
	| 'dot'
	| 'nil';

interface Item {
	typ: ItemType;
	/** Byte offset in the template (UTF-16 index here; converted to bytes for messages). */
	pos: number;
	val: string;
	line: number;
}

const KEYWORDS = new Set(['block', 'break', 'continue', 'define', 'else', 'end', 'if', 'range', 'nil', 'template', 'with']);

/** item.String(): how an unexpected token is named. */
function itemString(i: Item): string {
	if (i.typ === 'EOF') return 'EOF';
	if (i.typ === 'error') return i.val;
	if (i.typ === 'keyword') return `<${i.val}>`;
	if ([...i.val].length > 10) return `${goQuote([...i.val].slice(0, 10).join(''))}...`;
	return goQuote(i.val);
}

/** %#U of a character: `U+0023 '#'`. */
function hashU(ch: string): string {
	const cp = ch.codePointAt(0) ?? 0;
	const hex = cp.toString(16).toUpperCase().padStart(4, '0');
	return /\p{L}|\p{N}|\p{P}|\p{S}/u.test(ch) || ch === ' ' ? `U+${hex} '${ch}'` : `U+${hex}`;
}

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlnum = (c: string) => c === '_' || /^[\p{L}\p{Nd}]$/u.test(c);

/** Whether a right trim marker and delimiter (` -}}`) start at `p`. */
const atRightTrim = (input: string, p: number) => isSpace(input[p] ?? '') && input.startsWith('-}}', p + 1);
/** Whether a left delimiter with a trim marker (`{{- `) starts at `p`. */
const atLeftTrim = (input: string, p: number) => input.startsWith('{{-', p) && isSpace(input[p + 3] ?? '');

/** Splits a template into items (lex.go), eagerly; an error item ends the list. */
function lex(input: string): Item[] {
	const items: Item[] = [];
	let pos = 0;
	let line = 1;
	const push = (typ: ItemType, from: number, to: number, atLine: number) => items.push({ typ, pos: from, val: input.slice(from, to), line: atLine });
	/** Moves to `p`, counting the newlines passed. */
	const moveTo = (p: number) => {
		line += countNewlines(input.slice(pos, p));
		pos = p;
	};
	const error = (message: string): Item[] => {
		items.push({ typ: 'error', pos, val: message, line });
		return items;
	};
	const skipSpaces = () => {
		let p = pos;
		while (p < input.length && isSpace(input[p])) p++;
		moveTo(p);
	};
	for (;;) {
		// lexText: up to the next left delimiter; a left trim marker drops the text's trailing spaces.
		const next = input.indexOf('{{', pos);
		const end = next < 0 ? input.length : next;
		let textEnd = end;
		if (next >= 0 && atLeftTrim(input, next)) while (textEnd > pos && isSpace(input[textEnd - 1])) textEnd--;
		if (textEnd > pos) push('text', pos, textEnd, line);
		moveTo(end);
		if (next < 0) {
			items.push({ typ: 'EOF', pos, val: '', line });
			return items;
		}
		// lexLeftDelim.
		const trimLeft = atLeftTrim(input, pos);
		const afterMarker = pos + 2 + (trimLeft ? 2 : 0);
		if (input.startsWith('/*', afterMarker)) {
			// lexComment: alone in its action.
			const close = input.indexOf('*/', afterMarker + 2);
			if (close < 0) return error('unclosed comment');
			let p = close + 2;
			const trimRight = atRightTrim(input, p);
			if (trimRight) p += 2;
			if (!input.startsWith('}}', p)) return error('comment ends before closing delimiter');
			moveTo(p + 2);
			if (trimRight) skipSpaces();
			continue;
		}
		push('leftDelim', pos, pos + 2, line);
		moveTo(afterMarker);
		let parenDepth = 0;
		// lexInsideAction.
		for (;;) {
			const trimRight = atRightTrim(input, pos);
			if (trimRight || input.startsWith('}}', pos)) {
				if (parenDepth > 0) return error('unclosed left paren');
				if (trimRight) moveTo(pos + 2);
				push('rightDelim', pos, pos + 2, line);
				moveTo(pos + 2);
				if (trimRight) skipSpaces();
				break;
			}
			if (pos >= input.length) return error('unclosed action');
			const c = input[pos];
			const from = pos;
			const fromLine = line;
			const token = (typ: ItemType, to: number) => {
				moveTo(to);
				push(typ, from, to, fromLine);
			};
			if (isSpace(c)) {
				let p = pos;
				while (p < input.length && isSpace(input[p]) && !atRightTrim(input, p)) p++;
				// The space of a ` -}}` marker belongs to the marker.
				if (p > pos) token('space', p);
				continue;
			}
			if (c === '=') {
				token('assign', pos + 1);
				continue;
			}
			if (c === ':') {
				if (input[pos + 1] !== '=') return error('expected :=');
				token('declare', pos + 2);
				continue;
			}
			if (c === '|') {
				token('pipe', pos + 1);
				continue;
			}
			if (c === '"' || c === "'") {
				let p = pos + 1;
				for (;;) {
					if (p >= input.length || input[p] === '\n') return error(c === '"' ? 'unterminated quoted string' : 'unterminated character constant');
					if (input[p] === '\\') {
						p += 2;
						continue;
					}
					if (input[p] === c) break;
					p++;
				}
				token(c === '"' ? 'string' : 'charConstant', p + 1);
				continue;
			}
			if (c === '`') {
				const close = input.indexOf('`', pos + 1);
				if (close < 0) return error('unterminated raw quoted string');
				token('rawString', close + 1);
				continue;
			}
			if (c === '$') {
				let p = pos + 1;
				while (p < input.length && isAlnum(input[p])) p++;
				token('variable', p);
				continue;
			}
			if (c === '.' && !(input[pos + 1] >= '0' && input[pos + 1] <= '9')) {
				let p = pos + 1;
				while (p < input.length && isAlnum(input[p])) p++;
				if (p > pos + 1 && !atTerminator(input, p)) return error(`bad character ${hashU(input[p])}`);
				token(p === pos + 1 ? 'dot' : 'field', p);
				continue;
			}
			if (c === '.' || c === '+' || c === '-' || (c >= '0' && c <= '9')) {
				const n = scanNumber(input, pos);
				if (!n.ok) return error(`bad number syntax: ${goQuote(input.slice(pos, n.end))}`);
				token('number', n.end);
				continue;
			}
			if (isAlnum(c)) {
				let p = pos;
				while (p < input.length && isAlnum(input[p])) p++;
				if (!atTerminator(input, p)) return error(`bad character ${hashU(input[p])}`);
				const word = input.slice(pos, p);
				token(word === 'nil' ? 'nil' : KEYWORDS.has(word) ? 'keyword' : word === 'true' || word === 'false' ? 'bool' : 'identifier', p);
				continue;
			}
			if (c === '(') {
				parenDepth++;
				token('leftParen', pos + 1);
				continue;
			}
			if (c === ')') {
				parenDepth--;
				if (parenDepth < 0) return error('unexpected right paren');
				token('rightParen', pos + 1);
				continue;
			}
			if (c === ',') {
				token('char', pos + 1);
				continue;
			}
			return error(`unrecognized character in action: ${hashU(String.fromCodePoint(input.codePointAt(pos) ?? 0))}`);
		}
	}
}

function countNewlines(s: string): number {
	let n = 0;
	for (const c of s) if (c === '\n') n++;
	return n;
}

/** lex.go atTerminator: what may follow an identifier. */
function atTerminator(input: string, pos: number): boolean {
	if (pos >= input.length) return true;
	const c = input[pos];
	return isSpace(c) || c === '.' || c === ',' || c === '|' || c === ':' || c === ')' || c === '(' || input.startsWith('}}', pos);
}

/** lex.go scanNumber: the extent of a number, and whether it is well-formed. */
function scanNumber(input: string, pos: number): { ok: boolean; end: number } {
	let p = pos;
	if (input[p] === '+' || input[p] === '-') p++;
	let digits = '0123456789_';
	if (input[p] === '0' && /[xXoObB]/.test(input[p + 1] ?? '')) {
		const b = input[p + 1].toLowerCase();
		p += 2;
		digits = b === 'x' ? '0123456789abcdefABCDEF_' : b === 'o' ? '01234567_' : '01_';
	}
	while (p < input.length && digits.includes(input[p])) p++;
	if (input[p] === '.') {
		p++;
		while (p < input.length && digits.includes(input[p])) p++;
	}
	if (digits.length <= 11 && /[eE]/.test(input[p] ?? '')) {
		p++;
		if (input[p] === '+' || input[p] === '-') p++;
		while (p < input.length && '0123456789_'.includes(input[p])) p++;
	}
	if (digits.length > 11 && /[pP]/.test(input[p] ?? '')) {
		p++;
		if (input[p] === '+' || input[p] === '-') p++;
		while (p < input.length && '0123456789_'.includes(input[p])) p++;
	}
	if (input[p] === 'i') p++;
	if (p < input.length && isAlnum(input[p])) {
		while (p < input.length && isAlnum(input[p])) p++;
		return { ok: false, end: p };
	}
	return { ok: true, end: p };
}

// ---------------------------------------------------------------------------
// Parse tree

type Node =
	| { type: 'text'; pos: number; text: string }
	| { type: 'action'; pos: number; line: number; pipe: PipeNode }
	| ControlNode
	| { type: 'template'; pos: number; line: number; name: string; pipe: PipeNode | null }
	| { type: 'break' | 'continue'; pos: number; line: number };

/** `{{if}}`, `{{with}}` and `{{range}}`: a pipeline, a body and an optional else. */
interface ControlNode {
	type: 'if' | 'with' | 'range';
	pos: number;
	line: number;
	pipe: PipeNode;
	list: Node[];
	elseList: Node[] | null;
}

interface PipeNode {
	pos: number;
	line: number;
	isAssign: boolean;
	decl: string[];
	cmds: CommandNode[];
}

interface CommandNode {
	pos: number;
	args: Arg[];
}

type Arg =
	| { type: 'field'; pos: number; ident: string[] }
	| { type: 'variable'; pos: number; ident: string[] }
	| { type: 'identifier'; pos: number; name: string }
	| { type: 'dot'; pos: number }
	| { type: 'nil'; pos: number }
	| { type: 'bool'; pos: number; value: boolean }
	| { type: 'number'; pos: number; text: string; value: number; isFloat: boolean }
	| { type: 'string'; pos: number; quoted: string; text: string }
	| { type: 'pipe'; pos: number; pipe: PipeNode }
	| { type: 'chain'; pos: number; node: Arg; field: string[] };

function argString(a: Arg): string {
	switch (a.type) {
		case 'field':
			return `.${a.ident.join('.')}`;
		case 'variable':
			return a.ident.join('.');
		case 'identifier':
			return a.name;
		case 'dot':
			return '.';
		case 'nil':
			return 'nil';
		case 'bool':
			return String(a.value);
		case 'number':
			return a.text;
		case 'string':
			return a.quoted;
		case 'pipe':
			return `(${pipeString(a.pipe)})`;
		case 'chain':
			return `${a.node.type === 'pipe' ? argString(a.node) : argString(a.node)}.${a.field.join('.')}`;
	}
}

function pipeString(p: PipeNode): string {
	let s = '';
	if (p.decl.length) s = `${p.decl.join(', ')} ${p.isAssign ? '=' : ':='} `;
	return s + p.cmds.map((c) => c.args.map(argString).join(' ')).join(' | ');
}

function listString(list: Node[]): string {
	return list.map(nodeString).join('');
}

function nodeString(n: Node): string {
	switch (n.type) {
		case 'text':
			return n.text;
		case 'action':
			return `{{${pipeString(n.pipe)}}}`;
		case 'if':
		case 'with':
		case 'range':
			return `{{${n.type} ${pipeString(n.pipe)}}}${listString(n.list)}${n.elseList ? `{{else}}${listString(n.elseList)}` : ''}{{end}}`;
		case 'template':
			return `{{template ${goQuote(n.name)}${n.pipe ? ` ${pipeString(n.pipe)}` : ''}}}`;
		case 'break':
		case 'continue':
			return `{{${n.type}}}`;
	}
}

/** Go's strconv.Unquote for a string, raw string or character literal (the subset templates need). */
function unquote(text: string): string | undefined {
	if (text.startsWith('`')) return text.slice(1, -1).replace(/\r/g, '');
	const body = text.slice(1, -1);
	let out = '';
	for (let i = 0; i < body.length; i++) {
		const c = body[i];
		if (c !== '\\') {
			out += c;
			continue;
		}
		const e = body[++i];
		const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"', "'": "'" };
		if (e in simple) {
			if ((e === '"' && text[0] === "'") || (e === "'" && text[0] === '"')) return undefined;
			out += simple[e];
			continue;
		}
		const hex = (n: number) => {
			const h = body.slice(i + 1, i + 1 + n);
			if (h.length !== n || !/^[0-9a-fA-F]+$/.test(h)) return undefined;
			i += n;
			return parseInt(h, 16);
		};
		if (e === 'x') {
			const b = hex(2);
			if (b === undefined) return undefined;
			out += String.fromCharCode(b);
		} else if (e === 'u' || e === 'U') {
			const cp = hex(e === 'u' ? 4 : 8);
			if (cp === undefined || cp > 0x10ffff) return undefined;
			out += String.fromCodePoint(cp);
		} else if (e >= '0' && e <= '7') {
			const o = body.slice(i, i + 3);
			if (!/^[0-7]{3}$/.test(o)) return undefined;
			i += 2;
			out += String.fromCharCode(parseInt(o, 8));
		} else return undefined;
	}
	return out;
}

/** Builtins the parser knows exist (funcs.go builtins, without `call`). */
const BUILTIN_NAMES = ['and', 'or', 'not', 'len', 'index', 'slice', 'print', 'printf', 'println', 'html', 'js', 'urlquery', 'eq', 'ne', 'lt', 'le', 'gt', 'ge'];

/** A parsed template set: the main template and the ones `define` or `block` named. */
export interface ParsedTemplate {
	name: string;
	text: string;
	root: Node[];
	defined: Map<string, Node[]>;
	funcs: Map<string, TemplateFunc>;
}

/** Parses a template (parse.go Parse), or throws a TemplateError worded as Go's. */
export function parseTemplate(name: string, text: string, funcs: Record<string, TemplateFunc> = {}): ParsedTemplate {
	const items = lex(text);
	let i = 0;
	const funcNames = new Set([...BUILTIN_NAMES, ...Object.keys(funcs)]);
	const defined = new Map<string, Node[]>();
	let vars: string[] = ['$'];
	let rangeDepth = 0;
	let actionLine = 0;
	let lastLine = 1;

	const next = (): Item => {
		const item = items[Math.min(i, items.length - 1)];
		i++;
		lastLine = item.line;
		return item;
	};
	const backup = () => {
		i--;
	};
	const peek = (): Item => items[Math.min(i, items.length - 1)];
	const nextNonSpace = (): Item => {
		let t = next();
		while (t.typ === 'space') t = next();
		return t;
	};
	const peekNonSpace = (): Item => {
		const t = nextNonSpace();
		backup();
		return t;
	};
	const fail = (message: string, line = lastLine): never => {
		throw new TemplateError(`template: ${name}:${line}: ${message}`);
	};
	const unexpected = (t: Item, context: string): never => {
		if (t.typ === 'error') {
			let extra = '';
			if (actionLine !== 0 && actionLine !== t.line) {
				extra = ` in ${context}`;
				if (t.val.endsWith(' action')) extra = extra.slice(' in '.length);
			}
			return fail(`${t.val}${extra}`, t.line);
		}
		return fail(`unexpected ${itemString(t)} in ${context}`, t.line);
	};
	const expect = (typ: ItemType, context: string): Item => {
		const t = nextNonSpace();
		if (t.typ !== typ) unexpected(t, context);
		return t;
	};

	function itemList(): { list: Node[]; end: 'end' | 'else' } {
		const list: Node[] = [];
		while (peekNonSpace().typ !== 'EOF') {
			const n = textOrAction();
			if (n === 'end' || n === 'else') return { list, end: n };
			if (n) list.push(n);
		}
		return fail('unexpected EOF');
	}

	function textOrAction(): Node | 'end' | 'else' | null {
		const t = nextNonSpace();
		switch (t.typ) {
			case 'text':
				return { type: 'text', pos: t.pos, text: t.val };
			case 'leftDelim':
				actionLine = t.line;
				try {
					return action();
				} finally {
					actionLine = 0;
				}
			case 'error':
				return unexpected(t, 'input');
			default:
				return unexpected(t, 'input');
		}
	}

	function action(): Node | 'end' | 'else' | null {
		const t = nextNonSpace();
		if (t.typ === 'keyword') {
			switch (t.val) {
				case 'block':
					return blockControl();
				case 'break':
				case 'continue': {
					const close = nextNonSpace();
					if (close.typ !== 'rightDelim') unexpected(close, `{{${t.val}}}`);
					if (rangeDepth === 0) fail(`{{${t.val}}} outside {{range}}`);
					return { type: t.val, pos: t.pos, line: t.line };
				}
				case 'else': {
					const p = peekNonSpace();
					if (p.typ === 'keyword' && (p.val === 'if' || p.val === 'with')) return 'else';
					expect('rightDelim', 'else');
					return 'else';
				}
				case 'end':
					expect('rightDelim', 'end');
					return 'end';
				case 'if':
				case 'range':
				case 'with':
					return control(t.val);
				case 'template':
					return templateControl();
				case 'define':
					return fail('unexpected <define> in command');
			}
		}
		backup();
		const start = peek();
		return { type: 'action', pos: start.pos, line: start.line, pipe: pipeline('command', 'rightDelim') };
	}

	function control(context: 'if' | 'range' | 'with'): Node {
		const savedVars = vars.length;
		const pipe = pipeline(context, 'rightDelim');
		if (context === 'range') rangeDepth++;
		const body = itemList();
		if (context === 'range') rangeDepth--;
		let elseList: Node[] | null = null;
		if (body.end === 'else') {
			// `else if` / `else with`: the rest is a nested control that shares this {{end}}.
			const q = peekNonSpace();
			if ((context === 'if' || context === 'with') && q.typ === 'keyword' && q.val === context) {
				nextNonSpace();
				elseList = [control(context)];
			} else {
				const rest = itemList();
				if (rest.end !== 'end') fail('expected end; found {{else}}');
				elseList = rest.list;
			}
		}
		vars = vars.slice(0, savedVars);
		return { type: context, pos: pipe.pos, line: pipe.line, pipe, list: body.list, elseList };
	}

	function parseTemplateName(t: Item, context: string): string {
		if (t.typ === 'string' || t.typ === 'rawString') {
			const s = unquote(t.val);
			if (s === undefined) fail(`invalid syntax`);
			return s as string;
		}
		return unexpected(t, context);
	}

	function templateControl(): Node {
		const token = nextNonSpace();
		const tname = parseTemplateName(token, 'template clause');
		let pipe: PipeNode | null = null;
		if (nextNonSpace().typ !== 'rightDelim') {
			backup();
			pipe = pipeline('template clause', 'rightDelim');
		}
		return { type: 'template', pos: token.pos, line: token.line, name: tname, pipe };
	}

	function blockControl(): Node {
		const token = nextNonSpace();
		const tname = parseTemplateName(token, 'block clause');
		const pipe = pipeline('block clause', 'rightDelim');
		const savedVars = vars;
		vars = ['$'];
		const body = itemList();
		vars = savedVars;
		if (body.end !== 'end') fail('unexpected {{else}} in block clause');
		defined.set(tname, body.list);
		return { type: 'template', pos: token.pos, line: token.line, name: tname, pipe };
	}

	function pipeline(context: string, end: ItemType): PipeNode {
		const token = peekNonSpace();
		const pipe: PipeNode = { pos: token.pos, line: token.line, isAssign: false, decl: [], cmds: [] };
		// Declarations: `$x :=`, `$x =`, and in range `$i, $e :=`.
		decls: if (token.typ === 'variable') {
			const save = i;
			const v = nextNonSpace();
			const after = next();
			const afterNonSpace = after.typ === 'space' ? nextNonSpace() : after;
			if (afterNonSpace.typ === 'declare' || afterNonSpace.typ === 'assign') {
				pipe.isAssign = afterNonSpace.typ === 'assign';
				pipe.decl.push(v.val);
				if (!pipe.isAssign) vars.push(v.val);
				else if (!vars.includes(v.val)) fail(`undefined variable ${goQuote(v.val)}`);
				break decls;
			}
			if (afterNonSpace.typ === 'char' && afterNonSpace.val === ',') {
				if (context === 'range' && pipe.decl.length < 2) {
					const second = nextNonSpace();
					if (second.typ === 'variable') {
						const op = nextNonSpace();
						if (op.typ === 'declare' || op.typ === 'assign') {
							pipe.isAssign = op.typ === 'assign';
							pipe.decl.push(v.val, second.val);
							if (!pipe.isAssign) vars.push(v.val, second.val);
							break decls;
						}
					}
					fail('range can only initialize variables');
				}
				fail(`too many declarations in ${context}`);
			}
			i = save;
		}
		for (;;) {
			const t = nextNonSpace();
			if (t.typ === end) {
				if (pipe.cmds.length === 0) fail(`missing value for ${context}`);
				// A pipeline's commands after the first must not be non-executable values... (checkPipeline).
				for (const [n, c] of pipe.cmds.entries()) {
					if (n === 0) continue;
					const first = c.args[0];
					if (first.type === 'bool' || first.type === 'dot' || first.type === 'nil' || first.type === 'number' || first.type === 'string') fail(`non executable command in pipeline stage ${n + 1}`);
				}
				return pipe;
			}
			switch (t.typ) {
				case 'bool':
				case 'charConstant':
				case 'dot':
				case 'field':
				case 'identifier':
				case 'number':
				case 'nil':
				case 'rawString':
				case 'string':
				case 'variable':
				case 'leftParen':
					backup();
					pipe.cmds.push(command());
					break;
				default:
					unexpected(t, context);
			}
		}
	}

	function command(): CommandNode {
		const cmd: CommandNode = { pos: peekNonSpace().pos, args: [] };
		for (;;) {
			peekNonSpace();
			const op = operand();
			if (op) cmd.args.push(op);
			const t = next();
			if (t.typ === 'space') continue;
			if (t.typ === 'rightDelim' || t.typ === 'rightParen') {
				backup();
			} else if (t.typ !== 'pipe') {
				unexpected(t, 'operand');
			}
			break;
		}
		if (cmd.args.length === 0) fail('empty command');
		return cmd;
	}

	function operand(): Arg | null {
		const node = term();
		if (!node) return null;
		if (peek().typ === 'field') {
			const fields: string[] = [];
			while (peek().typ === 'field') fields.push(next().val.slice(1));
			switch (node.type) {
				case 'field':
					return { type: 'field', pos: node.pos, ident: [...node.ident, ...fields] };
				case 'variable':
					return { type: 'variable', pos: node.pos, ident: [...node.ident, ...fields] };
				case 'bool':
				case 'string':
				case 'number':
				case 'nil':
				case 'dot':
					return fail(`unexpected . after term ${goQuote(argString(node))}`);
				default:
					return { type: 'chain', pos: node.pos, node, field: fields };
			}
		}
		return node;
	}

	function term(): Arg | null {
		const t = nextNonSpace();
		switch (t.typ) {
			case 'identifier':
				if (!funcNames.has(t.val)) fail(`function ${goQuote(t.val)} not defined`);
				return { type: 'identifier', pos: t.pos, name: t.val };
			case 'dot':
				return { type: 'dot', pos: t.pos };
			case 'nil':
				return { type: 'nil', pos: t.pos };
			case 'variable': {
				if (!vars.includes(t.val)) fail(`undefined variable ${goQuote(t.val)}`);
				return { type: 'variable', pos: t.pos, ident: [t.val] };
			}
			case 'field':
				return { type: 'field', pos: t.pos, ident: [t.val.slice(1)] };
			case 'bool':
				return { type: 'bool', pos: t.pos, value: t.val === 'true' };
			case 'charConstant': {
				const s = unquote(t.val);
				if (s === undefined || [...s].length !== 1) return fail(`malformed character constant: ${t.val}`);
				return { type: 'number', pos: t.pos, text: t.val, value: s.codePointAt(0) ?? 0, isFloat: false };
			}
			case 'number':
				return numberNode(t);
			case 'leftParen': {
				const pipe = pipeline('parenthesized pipeline', 'rightParen');
				return { type: 'pipe', pos: t.pos, pipe };
			}
			case 'string':
			case 'rawString': {
				const s = unquote(t.val);
				if (s === undefined) return fail('invalid syntax');
				return { type: 'string', pos: t.pos, quoted: t.val, text: s };
			}
		}
		backup();
		return null;
	}

	function numberNode(t: Item): Arg {
		const text = t.val.replace(/_/g, '');
		if (text.endsWith('i')) return fail(`complex numbers are not supported by this simulated template engine: ${t.val}`);
		let value: number;
		let isFloat = false;
		const sign = text.startsWith('-') ? -1 : 1;
		const body = text.replace(/^[+-]/, '');
		if (/^0[xX][0-9a-fA-F]+$/.test(body)) value = sign * parseInt(body.slice(2), 16);
		else if (/^0[oO][0-7]+$/.test(body)) value = sign * parseInt(body.slice(2), 8);
		else if (/^0[bB][01]+$/.test(body)) value = sign * parseInt(body.slice(2), 2);
		else if (/^0[0-7]+$/.test(body)) value = sign * parseInt(body, 8);
		else if (/^\d+$/.test(body)) value = sign * Number(body);
		else if (/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(body)) {
			value = sign * Number(body);
			isFloat = true;
		} else return fail(`illegal number syntax: ${goQuote(t.val)}`);
		return { type: 'number', pos: t.pos, text: t.val, value, isFloat };
	}

	// parse(): the top level, where `define` may appear.
	const root: Node[] = [];
	while (peek().typ !== 'EOF') {
		if (peek().typ === 'leftDelim') {
			const save = i;
			next();
			const d = nextNonSpace();
			if (d.typ === 'keyword' && d.val === 'define') {
				const nameToken = nextNonSpace();
				const tname = parseTemplateName(nameToken, 'define clause');
				expect('rightDelim', 'define clause');
				const savedVars = vars;
				vars = ['$'];
				const body = itemList();
				vars = savedVars;
				if (body.end !== 'end') fail('unexpected {{else}} in define clause');
				defined.set(tname, body.list);
				continue;
			}
			i = save;
		}
		const n = textOrAction();
		if (n === 'end' || n === 'else') fail(`unexpected {{${n}}}`);
		else if (n) root.push(n);
	}
	return { name, text, root, defined, funcs: new Map(Object.entries(funcs)) };
}

// ---------------------------------------------------------------------------
// Execution

/** Execution options: Go's `missingkey` option and the bounds. */
export interface ExecuteOptions {
	/** missingkey=default (`<no value>`) or missingkey=error. */
	missingKey?: 'default' | 'error';
	/** The most characters the output may reach (the rest is an error). */
	maxOutput?: number;
}

/** The result: the output so far and, on failure, Go's error. */
export interface ExecuteResult {
	output: string;
	error?: string;
}

const MAX_EXEC_DEPTH = 10_000;
const MAX_STEPS = 1_000_000;
const DEFAULT_MAX_OUTPUT = 4 << 20;

class Break {}
class Continue {}

/** Runs a parsed template on `data` (exec.go Execute). Never throws: a failure comes back with the output written before it. */
export function executeTemplate(tmpl: ParsedTemplate, data: TemplateValue, options: ExecuteOptions = {}): ExecuteResult {
	const missingKey = options.missingKey ?? 'default';
	const maxOutput = options.maxOutput ?? DEFAULT_MAX_OUTPUT;
	let out = '';
	let depth = 0;
	let steps = 0;
	let atNode: { pos: number; text: string } = { pos: 0, text: '' };
	let currentName = tmpl.name;
	let vars: Array<{ name: string; value: TemplateValue }> = [{ name: '$', value: data }];

	const at = (pos: number, text: string) => {
		atNode = { pos, text };
	};
	const errorf = (message: string): never => {
		const prefix = tmpl.text.slice(0, atNode.pos);
		const nl = prefix.lastIndexOf('\n');
		const lineNum = 1 + countNewlines(prefix);
		const byteNum = nl < 0 ? utf8Length(prefix) : utf8Length(prefix.slice(nl + 1));
		let context = atNode.text;
		if ([...context].length > 20) context = `${[...context].slice(0, 20).join('')}...`;
		throw new TemplateError(`template: ${currentName}:${lineNum}:${byteNum}: executing ${goQuote(currentName)} at <${context}>: ${message}`);
	};
	const write = (s: string) => {
		out += s;
		if (out.length > maxOutput) errorf(`output longer than ${maxOutput} characters in this simulated kubectl`);
	};
	const step = () => {
		if (++steps > MAX_STEPS) errorf(`more than ${MAX_STEPS} steps in this simulated kubectl`);
	};
	const varValue = (name: string): TemplateValue => {
		for (let k = vars.length - 1; k >= 0; k--) if (vars[k].name === name) return vars[k].value;
		return errorf(`undefined variable: ${name}`);
	};
	const setVar = (name: string, value: TemplateValue) => {
		for (let k = vars.length - 1; k >= 0; k--)
			if (vars[k].name === name) {
				vars[k].value = value;
				return;
			}
		errorf(`undefined variable: ${name}`);
	};

	function walk(dot: TemplateValue, list: Node[]): void {
		for (const n of list) walkNode(dot, n);
	}

	function walkNode(dot: TemplateValue, n: Node): void {
		step();
		switch (n.type) {
			case 'text':
				write(n.text);
				return;
			case 'action': {
				at(n.pos, nodeString(n));
				const v = evalPipeline(dot, n.pipe);
				if (n.pipe.decl.length === 0) write(printValue(v));
				return;
			}
			case 'if':
			case 'with': {
				const mark = vars.length;
				const v = evalPipeline(dot, n.pipe);
				if (isTrue(v)) walk(n.type === 'with' ? v : dot, n.list);
				else if (n.elseList) walk(dot, n.elseList);
				vars = vars.slice(0, mark);
				return;
			}
			case 'range':
				walkRange(dot, n);
				return;
			case 'break':
				throw new Break();
			case 'continue':
				throw new Continue();
			case 'template': {
				at(n.pos, nodeString(n));
				const body = tmpl.defined.get(n.name);
				if (!body) errorf(`template ${goQuote(n.name)} not defined`);
				if (++depth > MAX_EXEC_DEPTH) errorf(`exceeded maximum template depth (${MAX_EXEC_DEPTH})`);
				const newDot = n.pipe ? evalPipeline(dot, n.pipe) : undefined;
				const savedVars = vars;
				const savedName = currentName;
				vars = [{ name: '$', value: newDot }];
				currentName = n.name;
				try {
					walk(newDot, body as Node[]);
				} finally {
					vars = savedVars;
					currentName = savedName;
					depth--;
				}
				return;
			}
		}
	}

	function walkRange(dot: TemplateValue, r: ControlNode): void {
		at(r.pos, nodeString(r));
		const mark = vars.length;
		const val = evalPipeline(dot, r.pipe);
		const one = (index: TemplateValue, elem: TemplateValue): boolean => {
			if (r.pipe.decl.length > 0) {
				if (r.pipe.isAssign) {
					if (r.pipe.decl.length > 1) {
						setVar(r.pipe.decl[0], index);
						setVar(r.pipe.decl[1], elem);
					} else setVar(r.pipe.decl[0], elem);
				} else {
					vars[vars.length - 1].value = elem;
					if (r.pipe.decl.length > 1) vars[vars.length - 2].value = index;
				}
			}
			const inner = vars.length;
			try {
				walk(elem, r.list);
			} catch (e) {
				if (e instanceof Break) return false;
				if (!(e instanceof Continue)) throw e;
			} finally {
				vars = vars.slice(0, inner);
			}
			return true;
		};
		let ran = false;
		switch (kindOf(val)) {
			case 'slice': {
				const items = val as TemplateValue[];
				for (let k = 0; k < items.length; k++) {
					ran = true;
					if (!one(k, items[k])) break;
				}
				break;
			}
			case 'map': {
				const m = val as Record<string, TemplateValue>;
				for (const key of Object.keys(m).sort(compareGoStrings)) {
					ran = true;
					if (!one(key, m[key])) break;
				}
				break;
			}
			case 'int': {
				if (r.pipe.decl.length > 1) {
					at(r.pos, nodeString(r));
					errorf(`can't use ${formatValue(val)} to iterate over more than one variable`);
				}
				const count = val as number;
				if (count > MAX_STEPS) errorf(`more than ${MAX_STEPS} steps in this simulated kubectl`);
				for (let k = 0; k < count; k++) {
					ran = true;
					if (!one(k, k)) break;
				}
				break;
			}
			case 'invalid':
				break;
			default:
				at(r.pos, nodeString(r));
				errorf(`range can't iterate over ${formatValue(val)}`);
		}
		vars = vars.slice(0, mark);
		if (!ran && r.elseList) walk(dot, r.elseList);
	}

	function evalPipeline(dot: TemplateValue, pipe: PipeNode): TemplateValue {
		let value: TemplateValue = NO_FINAL;
		for (const cmd of pipe.cmds) {
			value = evalCommand(dot, cmd, value);
			// An interface{} holding nil becomes the invalid value (`reflect.ValueOf(value.Interface())`): it prints `<no value>`.
			if (value === null) value = undefined;
		}
		if (value === NO_FINAL) value = undefined;
		for (const name of pipe.decl) {
			if (pipe.isAssign) setVar(name, value);
			else vars.push({ name, value });
		}
		return value;
	}

	function evalCommand(dot: TemplateValue, cmd: CommandNode, final: TemplateValue): TemplateValue {
		const first = cmd.args[0];
		switch (first.type) {
			case 'field':
				return evalFieldChain(dot, dot, first, first.ident, cmd.args, final, false);
			case 'chain': {
				const base = evalArg(dot, first.node);
				return evalFieldChain(dot, base, first, first.field, cmd.args, final, true);
			}
			case 'identifier':
				return evalFunction(dot, first, cmd.args, final);
			case 'pipe':
				notAFunction(cmd.args, final);
				return evalPipeline(dot, first.pipe);
			case 'variable': {
				at(first.pos, argString(first));
				const value = varValue(first.ident[0]);
				if (first.ident.length === 1) {
					notAFunction(cmd.args, final);
					return value;
				}
				return evalFieldChain(dot, value, first, first.ident.slice(1), cmd.args, final, true);
			}
		}
		at(first.pos, argString(first));
		notAFunction(cmd.args, final);
		switch (first.type) {
			case 'bool':
				return first.value;
			case 'dot':
				return dot;
			case 'nil':
				return errorf('nil is not a command');
			case 'number':
				return first.isFloat ? (Number.isInteger(first.value) ? new GoFloat(first.value) : first.value) : first.value;
			case 'string':
				return first.text;
		}
		return errorf(`can't evaluate command ${goQuote(argString(first))}`);
	}

	function notAFunction(args: Arg[], final: TemplateValue): void {
		if (args.length > 1 || final !== NO_FINAL) errorf(`can't give argument to non-function ${argString(args[0])}`);
	}

	/**
	 * A field chain. `concrete` says whether the receiver has its own type
	 * (a variable or a pipeline's value) rather than interface{} (dot inside
	 * range, a map's element): error messages name that type.
	 */
	function evalFieldChain(dot: TemplateValue, receiver: TemplateValue, node: Arg, ident: string[], args: Arg[], final: TemplateValue, concrete: boolean): TemplateValue {
		at(node.pos, argString(node));
		let r = receiver;
		for (let k = 0; k < ident.length - 1; k++) r = evalField(r, ident[k], k === 0 && concrete);
		const last = ident[ident.length - 1];
		if (args.length > 1 || final !== NO_FINAL) {
			// A field of a map cannot take arguments (only methods can, and JSON data has none).
			const v = evalField(r, last, ident.length === 1 && concrete);
			if (kindOf(r) === 'map') errorf(`${last} is not a method but has arguments`);
			return v;
		}
		return evalField(r, last, ident.length === 1 && concrete);
	}

	function evalField(receiver: TemplateValue, fieldName: string, concrete: boolean): TemplateValue {
		if (receiver === undefined) {
			if (missingKey === 'error') errorf(`nil data; no entry for key ${goQuote(fieldName)}`);
			return undefined;
		}
		if (receiver === null) return errorf(`nil pointer evaluating interface {}.${fieldName}`);
		if (kindOf(receiver) === 'map') {
			const m = receiver as Record<string, TemplateValue>;
			if (Object.prototype.hasOwnProperty.call(m, fieldName)) return m[fieldName];
			if (missingKey === 'error') errorf(`map has no entry for key ${goQuote(fieldName)}`);
			return undefined;
		}
		return errorf(`can't evaluate field ${fieldName} in type ${concrete ? typeName(receiver) : 'interface {}'}`);
	}

	function evalArg(dot: TemplateValue, a: Arg): TemplateValue {
		at(a.pos, argString(a));
		switch (a.type) {
			case 'dot':
				return dot;
			case 'nil':
				return null;
			case 'field':
				return evalFieldChain(dot, dot, a, a.ident, [a], NO_FINAL, false);
			case 'variable': {
				const value = varValue(a.ident[0]);
				if (a.ident.length === 1) return value;
				return evalFieldChain(dot, value, a, a.ident.slice(1), [a], NO_FINAL, true);
			}
			case 'pipe':
				return evalPipeline(dot, a.pipe);
			case 'identifier':
				return evalFunction(dot, a, [a], NO_FINAL);
			case 'chain': {
				const base = evalArg(dot, a.node);
				return evalFieldChain(dot, base, a, a.field, [a], NO_FINAL, true);
			}
			case 'bool':
				return a.value;
			case 'number':
				return a.isFloat ? (Number.isInteger(a.value) ? new GoFloat(a.value) : a.value) : a.value;
			case 'string':
				return a.text;
		}
	}

	function evalFunction(dot: TemplateValue, node: Extract<Arg, { type: 'identifier' }>, args: Arg[], final: TemplateValue): TemplateValue {
		at(node.pos, node.name);
		const name = node.name;
		const rest = args.slice(1);
		const hasFinal = final !== NO_FINAL;
		const count = rest.length + (hasFinal ? 1 : 0);
		// and/or evaluate their arguments lazily.
		if (name === 'and' || name === 'or') {
			if (count < 1) errorf(`wrong number of args for ${name}: want at least 1 got 0`);
			let v: TemplateValue = undefined;
			for (let k = 0; k < count; k++) {
				v = k < rest.length ? evalArg(dot, rest[k]) : final;
				if (isTrue(v) === (name === 'or')) return v;
			}
			return v;
		}
		const argv: TemplateValue[] = rest.map((a) => evalArg(dot, a));
		if (hasFinal) argv.push(final);
		at(node.pos, node.name);
		const custom = tmpl.funcs.get(name);
		try {
			if (custom) return custom(...argv);
			return callBuiltin(name, argv);
		} catch (e) {
			if (e instanceof ArityError) errorf(e.message);
			if (e instanceof TypeError_) errorf(e.message);
			if (e instanceof TemplateFuncError) errorf(`error calling ${name}: ${e.message}`);
			throw e;
		}
	}

	function printValue(v: TemplateValue): string {
		return formatValue(v, true);
	}

	try {
		walk(data, tmpl.root);
		return { output: out };
	} catch (e) {
		if (e instanceof TemplateError) return { output: out, error: e.message };
		if (e instanceof Break || e instanceof Continue) return { output: out };
		throw e;
	}
}

/** The "no value piped in" marker (exec.go missingVal): compared by identity only, never printed. */
const NO_FINAL = Symbol('missing') as unknown as TemplateValue;

class ArityError extends Error {}
/** validateType's failures (`wrong type for value; expected string; got int64`). */
class TypeError_ extends Error {}

function arity(name: string, argv: TemplateValue[], want: number, variadic = false): void {
	if (variadic ? argv.length < want : argv.length !== want) throw new ArityError(`wrong number of args for ${name}: want ${variadic ? 'at least ' : ''}${want} got ${argv.length}`);
}

/** validateType for a string parameter. */
export function wantString(v: TemplateValue): string {
	if (typeof v === 'string') return v;
	if (v === undefined || v === null) throw new TypeError_('invalid value; expected string');
	throw new TypeError_(`wrong type for value; expected string; got ${typeName(v)}`);
}

type BasicKind = 'bool' | 'int' | 'float' | 'string' | 'other';
function basicKind(v: TemplateValue): BasicKind {
	const k = kindOf(v);
	return k === 'bool' || k === 'int' || k === 'float' || k === 'string' ? k : 'other';
}

function eq(arg1: TemplateValue, rest: TemplateValue[]): boolean {
	if (rest.length === 0) throw new TemplateFuncError('missing argument for comparison');
	const k1 = basicKind(arg1);
	for (const arg of rest) {
		const k2 = basicKind(arg);
		let truth = false;
		if (k1 !== k2) {
			if (arg1 !== undefined && arg !== undefined) throw new TemplateFuncError('incompatible types for comparison');
		} else if (k1 === 'other') {
			const nil1 = arg1 === null || arg1 === undefined;
			const nil2 = arg === null || arg === undefined;
			if (!nil1 && !nil2) throw new TemplateFuncError(`non-comparable type ${formatValue(arg)}: ${typeName(arg)}`);
			truth = nil1 === nil2;
		} else truth = k1 === 'float' || k1 === 'int' ? numberOf(arg1) === numberOf(arg) : arg1 === arg;
		if (truth) return true;
	}
	return false;
}

function lessThan(a: TemplateValue, b: TemplateValue): boolean {
	const k1 = basicKind(a);
	const k2 = basicKind(b);
	if (k1 === 'other' || k1 === 'bool' || k2 === 'other' || k2 === 'bool') throw new TemplateFuncError('invalid type for comparison');
	if (k1 !== k2) throw new TemplateFuncError('incompatible types for comparison');
	if (k1 === 'string') return compareGoStrings(a as string, b as string) < 0;
	return numberOf(a) < numberOf(b);
}

/** funcs.go evalArgs: one string as is, anything else as fmt.Sprint. */
function evalArgs(args: TemplateValue[]): string {
	if (args.length === 1 && typeof args[0] === 'string') return args[0];
	return sprint(args);
}

/** fmt.Sprint: a space between operands when neither is a string. */
export function sprint(args: TemplateValue[]): string {
	let s = '';
	args.forEach((a, k) => {
		if (k > 0 && typeof a !== 'string' && typeof args[k - 1] !== 'string') s += ' ';
		s += formatValue(a === undefined ? null : a, false);
	});
	return s;
}

function sprintln(args: TemplateValue[]): string {
	return `${args.map((a) => formatValue(a === undefined ? null : a, false)).join(' ')}\n`;
}

/** template.HTMLEscapeString. */
function htmlEscape(s: string): string {
	return s.replace(/[\0"'&<>]/g, (c) => ({ '\0': '\uFFFD', '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] as string);
}

/** template.JSEscapeString. */
function jsEscape(s: string): string {
	let out = '';
	for (const c of s) {
		switch (c) {
			case '\\':
				out += '\\\\';
				break;
			case "'":
				out += "\\'";
				break;
			case '"':
				out += '\\"';
				break;
			case '<':
				out += '\\u003C';
				break;
			case '>':
				out += '\\u003E';
				break;
			case '&':
				out += '\\u0026';
				break;
			case '=':
				out += '\\u003D';
				break;
			default: {
				const cp = c.codePointAt(0) ?? 0;
				if (cp < 0x80 && (cp < 0x20 || cp === 0x7f)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
				else if (cp >= 0x80 && !/[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]/u.test(c)) out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
				else out += c;
			}
		}
	}
	return out;
}

/** url.QueryEscape. */
function queryEscape(s: string): string {
	let out = '';
	for (const b of utf8Encode(s)) {
		const c = String.fromCharCode(b);
		if (/[A-Za-z0-9\-_.~]/.test(c)) out += c;
		else if (c === ' ') out += '+';
		else out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
	}
	return out;
}

function toIndex(v: TemplateValue): number {
	const k = kindOf(v);
	if (k === 'int') return v as number;
	if (k === 'invalid' || k === 'nil') throw new TemplateFuncError('cannot index slice/array with nil');
	throw new TemplateFuncError(`cannot index slice/array with type ${typeName(v)}`);
}

function callBuiltin(name: string, argv: TemplateValue[]): TemplateValue {
	switch (name) {
		case 'not':
			arity(name, argv, 1);
			return !isTrue(argv[0]);
		case 'len': {
			arity(name, argv, 1);
			const v = argv[0];
			switch (kindOf(v)) {
				case 'string':
					return utf8Length(v as string);
				case 'slice':
					return (v as TemplateValue[]).length;
				case 'map':
					return Object.keys(v as object).length;
				case 'invalid':
				case 'nil':
					throw new TemplateFuncError('len of nil pointer');
				default:
					throw new TemplateFuncError(`len of type ${typeName(v)}`);
			}
		}
		case 'index': {
			arity(name, argv, 1, true);
			let item = argv[0];
			if (item === undefined || item === null) throw new TemplateFuncError('index of untyped nil');
			for (const index of argv.slice(1)) {
				switch (kindOf(item)) {
					case 'slice': {
						const list = item as TemplateValue[];
						const x = toIndex(index);
						if (x < 0 || x >= list.length) throw new TemplateFuncError(`index out of range: ${x}`);
						item = list[x];
						break;
					}
					case 'string': {
						const bytes = utf8Encode(item as string);
						const x = toIndex(index);
						if (x < 0 || x >= bytes.length) throw new TemplateFuncError(`index out of range: ${x}`);
						item = bytes[x];
						break;
					}
					case 'map': {
						if (typeof index !== 'string') {
							if (index === undefined || index === null) throw new TemplateFuncError('value is nil; should be of type string');
							throw new TemplateFuncError(`value has type ${typeName(index)}; should be string`);
						}
						const m = item as Record<string, TemplateValue>;
						item = Object.prototype.hasOwnProperty.call(m, index) ? m[index] : null;
						break;
					}
					case 'invalid':
					case 'nil':
						throw new TemplateFuncError('index of nil pointer');
					default:
						throw new TemplateFuncError(`can't index item of type ${typeName(item)}`);
				}
			}
			return item;
		}
		case 'slice': {
			arity(name, argv, 1, true);
			const item = argv[0];
			const k = kindOf(item);
			if (k === 'invalid' || k === 'nil') throw new TemplateFuncError('slice of untyped nil');
			if (argv.length > 4) throw new TemplateFuncError(`too many slice indexes: ${argv.length - 1}`);
			if (k !== 'slice' && k !== 'string') throw new TemplateFuncError(`can't slice item of type ${typeName(item)}`);
			if (k === 'string' && argv.length > 3) throw new TemplateFuncError('cannot 3-index slice a string');
			const len = k === 'string' ? utf8Encode(item as string).length : (item as TemplateValue[]).length;
			const idx = [0, len, len];
			argv.slice(1).forEach((v, n) => {
				const x = toIndex(v);
				if (x < 0 || x > len) throw new TemplateFuncError(`index out of range: ${x}`);
				idx[n] = x;
			});
			if (idx[0] > idx[1]) throw new TemplateFuncError(`invalid slice index: ${idx[0]} > ${idx[1]}`);
			if (argv.length > 3 && idx[1] > idx[2]) throw new TemplateFuncError(`invalid slice index: ${idx[1]} > ${idx[2]}`);
			if (k === 'string') {
				const bytes = utf8Encode(item as string).slice(idx[0], idx[1]);
				return utf8Decode(bytes);
			}
			return (item as TemplateValue[]).slice(idx[0], idx[1]);
		}
		case 'print':
			return sprint(argv);
		case 'println':
			return sprintln(argv);
		case 'printf': {
			arity(name, argv, 1, true);
			return sprintf(wantString(argv[0]), argv.slice(1));
		}
		case 'html':
			return htmlEscape(evalArgs(argv));
		case 'js':
			return jsEscape(evalArgs(argv));
		case 'urlquery':
			return queryEscape(evalArgs(argv));
		case 'eq':
			arity(name, argv, 1, true);
			return eq(argv[0], argv.slice(1));
		case 'ne':
			arity(name, argv, 2);
			return !eq(argv[0], [argv[1]]);
		case 'lt':
			arity(name, argv, 2);
			return lessThan(argv[0], argv[1]);
		case 'le':
			arity(name, argv, 2);
			return lessThan(argv[0], argv[1]) || eq(argv[0], [argv[1]]);
		case 'gt':
			arity(name, argv, 2);
			return !(lessThan(argv[0], argv[1]) || eq(argv[0], [argv[1]]));
		case 'ge':
			arity(name, argv, 2);
			return !lessThan(argv[0], argv[1]);
	}
	throw new TemplateFuncError(`function ${goQuote(name)} not defined`);
}

// ---------------------------------------------------------------------------
// fmt.Sprintf, the verbs templates use

/** fmt.Sprintf with the common verbs (%v %s %d %q %t %x %X %o %b %c %e %f %g %%), flags `-+# 0`, width and precision. */
export function sprintf(format: string, args: TemplateValue[]): string {
	let out = '';
	let argIndex = 0;
	for (let k = 0; k < format.length; k++) {
		const c = format[k];
		if (c !== '%') {
			out += c;
			continue;
		}
		let flags = '';
		k++;
		while (k < format.length && '-+# 0'.includes(format[k])) flags += format[k++];
		let width = '';
		while (k < format.length && /\d/.test(format[k])) width += format[k++];
		let precision: number | undefined;
		if (format[k] === '.') {
			k++;
			let p = '';
			while (k < format.length && /\d/.test(format[k])) p += format[k++];
			precision = Number(p || '0');
		}
		const verb = format[k];
		if (verb === undefined) {
			out += '%!(NOVERB)';
			break;
		}
		if (verb === '%') {
			out += '%';
			continue;
		}
		if (argIndex >= args.length) {
			out += `%!${verb}(MISSING)`;
			continue;
		}
		const arg = args[argIndex++];
		out += pad(formatVerb(verb, arg, flags, precision), Number(width || '0'), flags);
	}
	if (argIndex < args.length) {
		out += `%!(EXTRA ${args
			.slice(argIndex)
			.map((a) => `${a === undefined || a === null ? '<nil>' : typeName(a)}=${formatValue(a === undefined ? null : a, false)}`)
			.join(', ')})`;
	}
	return out;
}

function pad(s: string, width: number, flags: string): string {
	const n = [...s].length;
	if (n >= width) return s;
	if (flags.includes('-')) return s + ' '.repeat(width - n);
	if (flags.includes('0') && /^[+-]?\d/.test(s)) {
		const sign = /^[+-]/.test(s) ? s[0] : '';
		return sign + '0'.repeat(width - n) + s.slice(sign.length);
	}
	return ' '.repeat(width - n) + s;
}

function badVerb(verb: string, arg: TemplateValue): string {
	if (arg === undefined || arg === null) return `%!${verb}(<nil>)`;
	return `%!${verb}(${typeName(arg)}=${formatValue(arg, false)})`;
}

function formatVerb(verb: string, arg: TemplateValue, flags: string, precision: number | undefined): string {
	const k = kindOf(arg);
	const plus = flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
	switch (verb) {
		case 'v':
			if (k === 'string' && flags.includes('#')) return goQuote(arg as string);
			return formatValue(arg === undefined ? null : arg, false);
		case 's':
			if (k === 'string') return precision === undefined ? (arg as string) : [...(arg as string)].slice(0, precision).join('');
			if (k === 'slice' || k === 'map') return formatValue(arg, false);
			return badVerb(verb, arg);
		case 'q':
			if (k === 'string') return goQuote(arg as string);
			if (k === 'int') return `'${String.fromCodePoint(arg as number)}'`;
			return badVerb(verb, arg);
		case 't':
			return k === 'bool' ? String(arg) : badVerb(verb, arg);
		case 'd':
			if (k === 'int') return ((arg as number) >= 0 ? plus : '') + String(arg);
			return badVerb(verb, arg);
		case 'b':
		case 'o':
		case 'x':
		case 'X': {
			const base = verb === 'b' ? 2 : verb === 'o' ? 8 : 16;
			if (k === 'int') {
				const n = arg as number;
				let s = Math.abs(n).toString(base);
				if (verb === 'X') s = s.toUpperCase();
				if (flags.includes('#')) s = (verb === 'x' ? '0x' : verb === 'X' ? '0X' : verb === 'o' ? '0' : '') + s;
				return (n < 0 ? '-' : plus) + s;
			}
			if (k === 'string' && (verb === 'x' || verb === 'X')) {
				const s = utf8Encode(arg as string)
					.map((b) => b.toString(16).padStart(2, '0'))
					.join('');
				return verb === 'X' ? s.toUpperCase() : s;
			}
			return badVerb(verb, arg);
		}
		case 'c':
			return k === 'int' ? String.fromCodePoint(arg as number) : badVerb(verb, arg);
		case 'e':
		case 'E':
		case 'f':
		case 'F':
		case 'g':
		case 'G': {
			if (k !== 'float' && k !== 'int') return badVerb(verb, arg);
			if (k === 'int') return badVerb(verb, arg);
			const f = numberOf(arg);
			let s: string;
			if (verb === 'f' || verb === 'F') s = f.toFixed(precision ?? 6);
			else if (verb === 'e' || verb === 'E') {
				s = f.toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
				if (verb === 'E') s = s.toUpperCase();
			} else s = precision === undefined ? formatFloatG(f) : String(Number(f.toPrecision(precision || 1)));
			return (f >= 0 ? plus : '') + s;
		}
	}
	return `%!${verb}(${arg === undefined || arg === null ? '<nil>' : `${typeName(arg)}=${formatValue(arg, false)}`})`;
}
