/**
 * kubectl's JSONPath templates: client-go's jsonpath package, the `-o
 * jsonpath` printer and `-o custom-columns`.
 *
 * The data model is kubectl's unstructured JSON: integers behave as Go
 * int64 and other numbers as float64 (a JSON `1.0`, which Go would decode
 * as a float, is an integer here). Go walks maps in random order for `*`
 * and `..`; we walk keys sorted, one of the orders Go may produce.
 *
 * Mirrors staging/src/k8s.io/client-go/util/jsonpath/parser.go,
 * staging/src/k8s.io/client-go/util/jsonpath/jsonpath.go,
 * staging/src/k8s.io/client-go/third_party/forked/golang/template/funcs.go
 * (the comparison helpers),
 * staging/src/k8s.io/cli-runtime/pkg/printers/jsonpath.go,
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/jsonpath_flags.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn.go.
 */
import { compactJson, compareGoStrings, goQuote, goSortedKeys, isJsonObject, stringifyJsonLikeKubectl, type JsonObject, type JsonValue } from '../../golang/json.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import { TabWriter } from '../../golang/tabwriter.ts';
import { KUBECTL_GET_TABWRITER } from './tabwriter.ts';
import { formatFloatG } from '../../golang/strconv.ts';

/** A template float literal such as `1.5` (Go float64), kept apart from integers for Go's comparison rules. */
class GoFloat {
	constructor(readonly value: number) {}
}
type Value = JsonValue | GoFloat;

interface Param {
	known: boolean;
	value: number;
	derived: boolean;
}
type ListNode = { t: 'list'; nodes: Node[] };
type Node =
	| ListNode
	| { t: 'text'; text: string }
	| { t: 'field'; name: string }
	| { t: 'array'; params: readonly [Param, Param, Param] }
	| { t: 'filter'; left: ListNode; right: ListNode; op: string }
	| { t: 'int'; value: number }
	| { t: 'float'; value: number }
	| { t: 'bool'; value: boolean }
	| { t: 'wildcard' }
	| { t: 'recursive' }
	| { t: 'union'; lists: ListNode[] }
	| { t: 'ident'; name: string };

/** A parsed template (jsonpath.JSONPath after Parse). */
export interface JsonPathTemplate {
	readonly template: string;
	readonly root: ListNode;
}

/**
 * A JSONPath failure. `reason` is client-go's bare error (`unclosed action`,
 * `array index out of bounds: index 3, length 2`); `message` is what kubectl
 * prints after `error: ` for `-o jsonpath`.
 */
export class JsonPathError extends Error {
	override name = 'JsonPathError';
	constructor(
		message: string,
		readonly reason: string = message,
	) {
		super(message);
	}
}

// ---------------------------------------------------------------------------
// Parser (client-go util/jsonpath/parser.go)

const EOF = '';
const isDigit = (r: string) => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string) => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);
const isTerminator = (r: string) => r === EOF || ' \t\r\n.,[]$@{}'.includes(r);
const list = (): ListNode => ({ t: 'list', nodes: [] });

/** Go's `%#U`: `U+0023 '#'`, without the quoted character when it isn't printable. */
function goRuneU(r: string): string {
	const cp = r.codePointAt(0) ?? 0;
	const code = 'U+' + cp.toString(16).toUpperCase().padStart(4, '0');
	return /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(r) ? `${code} '${r}'` : code;
}

/** strconv.UnquoteChar-based unquoting of a '...' or "..." literal (parser.go UnquoteExtend). */
function unquoteExtend(s: string): string {
	const fail = (): never => {
		throw new JsonPathError(`unquote string ${s} error invalid syntax`);
	};
	const quote = s[0];
	if (s.length < 2 || quote !== s[s.length - 1] || (quote !== '"' && quote !== "'")) fail();
	const body = s.slice(1, -1);
	if (!body.includes('\\') && !body.includes(quote)) return body;
	let out = '';
	for (let i = 0; i < body.length; ) {
		const c = body[i];
		if (c === quote) fail();
		if (c !== '\\') {
			const ch = String.fromCodePoint(body.codePointAt(i) ?? 0);
			out += ch;
			i += ch.length;
			continue;
		}
		const e = body[i + 1];
		i += 2;
		const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };
		if (e !== undefined && Object.hasOwn(simple, e)) out += simple[e];
		else if (e === 'x' || e === 'u' || e === 'U') {
			const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
			const digits = body.slice(i, i + n);
			if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(digits)) fail();
			const v = parseInt(digits, 16);
			if (e !== 'x' && (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))) fail();
			out += String.fromCodePoint(v);
			i += n;
		} else if (e !== undefined && e >= '0' && e <= '7') {
			const digits = e + body.slice(i, i + 2);
			if (!/^[0-7]{3}$/.test(digits) || parseInt(digits, 8) > 255) fail();
			out += String.fromCharCode(parseInt(digits, 8));
			i += 2;
		} else if ((e === "'" || e === '"') && e === quote) out += e;
		else fail();
	}
	return out;
}

class Parser {
	private pos = 0;
	private start = 0;
	private width = 0;

	constructor(private readonly input: string) {}

	parse(): ListNode {
		const root = list();
		const { input } = this;
		for (;;) {
			const open = input.indexOf('{', this.pos);
			const end = open < 0 ? input.length : open;
			if (end > this.pos) root.nodes.push({ t: 'text', text: input.slice(this.pos, end) });
			if (open < 0) return root;
			this.pos = this.start = open + 1;
			const action = list();
			root.nodes.push(action);
			this.parseAction(action);
		}
	}

	private next(): string {
		if (this.pos >= this.input.length) {
			this.width = 0;
			return EOF;
		}
		const r = String.fromCodePoint(this.input.codePointAt(this.pos) ?? 0);
		this.width = r.length;
		this.pos += r.length;
		return r;
	}

	private backup(): void {
		this.pos -= this.width;
	}

	private peek(): string {
		const r = this.next();
		this.backup();
		return r;
	}

	private consume(): string {
		const text = this.input.slice(this.start, this.pos);
		this.start = this.pos;
		return text;
	}

	/** parseInsideAction: tokens up to and including the closing `}`. */
	private parseAction(cur: ListNode): void {
		for (;;) {
			if (this.input.startsWith('}', this.pos)) {
				this.pos++;
				this.consume();
				return;
			}
			if (this.input.startsWith('[?(', this.pos)) {
				this.parseFilter(cur);
				continue;
			}
			if (this.input.startsWith('..', this.pos)) {
				this.parseRecursive(cur);
				continue;
			}
			const r = this.next();
			if (r === EOF || r === '\r' || r === '\n') throw new JsonPathError('unclosed action');
			if (r === ' ' || r === '@' || r === '$') this.consume();
			else if (r === '[') this.parseArray(cur);
			else if (r === '"' || r === "'") this.parseQuote(cur, r);
			else if (r === '.') this.parseField(cur);
			else if (r === '+' || r === '-' || isDigit(r)) {
				this.backup();
				this.parseNumber(cur);
			} else if (isAlphaNumeric(r)) {
				this.backup();
				this.parseIdentifier(cur);
			} else throw new JsonPathError(`unrecognized character in action: ${goRuneU(r)}`);
		}
	}

	/** `range`, `end`, `true`, `false` or an unknown word (an error only when evaluated). */
	private parseIdentifier(cur: ListNode): void {
		while (!isTerminator(this.next()));
		this.backup();
		const value = this.consume();
		cur.nodes.push(value === 'true' || value === 'false' ? { t: 'bool', value: value === 'true' } : { t: 'ident', name: value });
	}

	private parseRecursive(cur: ListNode): void {
		if (cur.nodes.at(-1)?.t === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
		this.pos += 2;
		this.consume();
		cur.nodes.push({ t: 'recursive' });
		if (isAlphaNumeric(this.peek())) this.parseField(cur);
	}

	private parseNumber(cur: ListNode): void {
		const sign = this.peek();
		if (sign === '+' || sign === '-') this.next();
		for (;;) {
			const r = this.next();
			if (r !== '.' && !isDigit(r)) break;
		}
		this.backup();
		const value = this.consume();
		// strconv.Atoi first (int64 range), then strconv.ParseFloat.
		if (/^[+-]?\d+$/.test(value) && BigInt(value) >= -(1n << 63n) && BigInt(value) < 1n << 63n) cur.nodes.push({ t: 'int', value: Number(value) });
		else if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(value)) cur.nodes.push({ t: 'float', value: Number(value) });
		else throw new JsonPathError(`cannot parse number ${value}`);
	}

	/** `[...]`: an index or slice, `*`, a `'key'`, or a comma-separated union of those. */
	private parseArray(cur: ListNode): void {
		for (;;) {
			const r = this.next();
			if (r === EOF || r === '\n') throw new JsonPathError('unterminated array');
			if (r === ']') break;
		}
		let text = this.consume().slice(1, -1);
		if (text === '*') text = ':';
		const parts = text.split(',');
		if (parts.length > 1) {
			cur.nodes.push({ t: 'union', lists: parts.map((p) => parseSubAction(`[${p.replace(/^ +| +$/g, '')}]`)) });
			return;
		}
		const key = /^'([^']*)'$/.exec(text);
		if (key) {
			// A quoted key is re-read as a field path: ['a.b'] means .a.b.
			cur.nodes.push(...parseSubAction(`.${key[1]}`).nodes);
			return;
		}
		const m = /^(-?\d*)(:-?\d*)?(:-?\d*)?$/.exec(text);
		if (!m) throw new JsonPathError(`invalid array index ${text}`);
		const params: Param[] = [];
		for (let i = 0; i < 3; i++) {
			const raw = m[i + 1] ?? '';
			if (raw === '') {
				// `[n]` is the slice [n:n+1], marked derived so that [-1] reaches the end.
				params.push(i === 1 ? { known: true, value: params[0].value + 1, derived: true } : { known: false, value: 0, derived: false });
				continue;
			}
			const digits = i > 0 ? raw.slice(1) : raw;
			if (i > 0 && digits === '') {
				params.push({ known: false, value: 0, derived: false });
				continue;
			}
			if (!/^-?\d+$/.test(digits) || BigInt(digits) < -(1n << 63n) || BigInt(digits) >= 1n << 63n) throw new JsonPathError(`array index ${digits} is not a number`);
			params.push({ known: true, value: Number(digits), derived: false });
		}
		cur.nodes.push({ t: 'array', params: [params[0], params[1], params[2]] });
	}

	/** `[?(left op right)]` or `[?(path)]` (existence). */
	private parseFilter(cur: ListNode): void {
		this.pos += 3;
		this.consume();
		let begin = false;
		let end = false;
		let pair = '';
		for (;;) {
			const r = this.next();
			if (r === EOF || r === '\n') throw new JsonPathError('unterminated filter');
			if (r === '"' || r === "'") {
				if (!begin) {
					begin = true;
					pair = r;
				} else if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
			} else if (r === ')' && begin === end) break;
		}
		if (this.next() !== ']') throw new JsonPathError('unclosed array expect ]');
		const text = this.consume().slice(0, -2);
		const m = /^([^!<>=]+)([!<>=]+)([^\n]+?)$/.exec(text);
		if (!m) cur.nodes.push({ t: 'filter', left: parseSubAction(text), right: list(), op: 'exists' });
		else cur.nodes.push({ t: 'filter', left: parseSubAction(m[1]), right: parseSubAction(m[3]), op: m[2] });
	}

	private parseQuote(cur: ListNode, quote: string): void {
		for (;;) {
			const r = this.next();
			if (r === EOF || r === '\n') throw new JsonPathError('unterminated quoted string');
			if (r === quote && this.input[this.pos - 2] !== '\\') break;
		}
		cur.nodes.push({ t: 'text', text: unquoteExtend(this.consume()) });
	}

	/** A field name up to the next unescaped terminator; backslashes are then dropped (`app\.kubernetes\.io/name`). */
	private parseField(cur: ListNode): void {
		this.consume();
		for (;;) {
			const r = this.next();
			if (r === '\\') this.next();
			else if (isTerminator(r)) {
				this.backup();
				break;
			}
		}
		const value = this.consume();
		cur.nodes.push(value === '*' ? { t: 'wildcard' } : { t: 'field', name: value.replaceAll('\\', '') });
	}
}

/** parser.go parseAction: parses `{text}` and returns that action's node list. */
function parseSubAction(text: string): ListNode {
	return new Parser(`{${text}}`).parse().nodes[0] as ListNode;
}

/**
 * jsonpath.Parse: parses a template such as `{range .items[*]}{.metadata.name}{"\n"}{end}`.
 * Throws JsonPathError whose message is kubectl's
 * `error parsing jsonpath <template>, <reason>` (cli-runtime jsonpath_flags.go).
 */
export function parseJsonPath(template: string): JsonPathTemplate {
	try {
		return { template, root: new Parser(template).parse() };
	} catch (e) {
		if (e instanceof JsonPathError) throw new JsonPathError(`error parsing jsonpath ${template}, ${e.reason}`, e.reason);
		throw e;
	}
}

// ---------------------------------------------------------------------------
// Go formatting of values

const goInt = (n: number) => (Number.isSafeInteger(n) ? String(n) : BigInt(n).toString());

/** fmt's `%v` (fmt.Sprint) of unstructured data: maps as `map[k:v]` with sorted keys, slices as `[a b]`, nil as `<nil>`. */
function goFmtV(v: Value): string {
	if (v === null) return '<nil>';
	if (v instanceof GoFloat) return formatFloatG(v.value);
	if (typeof v === 'number') return Number.isInteger(v) ? goInt(v) : formatFloatG(v);
	if (typeof v !== 'object') return String(v);
	if (Array.isArray(v)) return `[${v.map(goFmtV).join(' ')}]`;
	return `map[${goSortedKeys(v)
		.map((k) => `${k}:${goFmtV(v[k])}`)
		.join(' ')}]`;
}

/** fmt's `%#v` of unstructured data, as in kubectl's "object given to jsonpath engine was" dump. */
function goSharpV(v: JsonValue, nested = false): string {
	if (v === null) return nested ? 'interface {}(nil)' : '<nil>';
	if (typeof v === 'string') return goQuote(v);
	if (typeof v === 'number') return Number.isInteger(v) ? goInt(v) : formatFloatG(v);
	if (typeof v === 'boolean') return String(v);
	if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
	return `map[string]interface {}{${goSortedKeys(v)
		.map((k) => `${goQuote(k)}:${goSharpV(v[k], true)}`)
		.join(', ')}}`;
}

/** reflect Type.String() of a value, for "... is not array or slice". */
function goTypeName(v: Value): string {
	if (v instanceof GoFloat) return 'float64';
	if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
	if (typeof v === 'string') return 'string';
	if (typeof v === 'boolean') return 'bool';
	return isJsonObject(v) ? 'map[string]interface {}' : '[]interface {}';
}

const toJson = (v: Value): JsonValue => (v instanceof GoFloat ? v.value : v);

// ---------------------------------------------------------------------------
// Evaluation (client-go util/jsonpath/jsonpath.go)

/** An evaluation error; `partial` is what upstream's walk returns alongside it (which `[?(…)]` existence tests still use). */
class EvalError extends Error {
	constructor(
		message: string,
		readonly partial: Value[],
	) {
		super(message);
	}
}

/** The template funcs' operand kinds (forked text/template funcs.go basicKind). */
function basicKind(v: Value): 'bool' | 'int' | 'float' | 'string' {
	if (typeof v === 'boolean') return 'bool';
	if (typeof v === 'string') return 'string';
	if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
	if (v instanceof GoFloat) return 'float';
	throw new Error('invalid type for comparison');
}

const scalar = (v: Value) => (v instanceof GoFloat ? v.value : (v as number | string | boolean));

function goEqual(a: Value, b: Value): boolean {
	const k1 = basicKind(a);
	if (k1 !== basicKind(b)) throw new Error('incompatible types for comparison');
	return scalar(a) === scalar(b);
}

function goLess(a: Value, b: Value): boolean {
	const k1 = basicKind(a);
	const k2 = basicKind(b);
	if (k1 !== k2) throw new Error('incompatible types for comparison');
	if (k1 === 'bool') throw new Error('invalid type for comparison');
	if (k1 === 'string') return compareGoStrings(a as string, b as string) < 0;
	return (scalar(a) as number) < (scalar(b) as number);
}

const COMPARATORS: Record<string, (a: Value, b: Value) => boolean> = {
	'==': goEqual,
	'!=': (a, b) => !goEqual(a, b),
	'<': goLess,
	'<=': (a, b) => goLess(a, b) || goEqual(a, b),
	'>': (a, b) => !(goLess(a, b) || goEqual(a, b)),
	'>=': (a, b) => !goLess(a, b),
};

/** What a map, slice or string holds, in the order `*` and `..` visit it (a string yields its UTF-8 bytes, as in Go). */
function children(v: Value): Value[] {
	if (v === null || v instanceof GoFloat) return [];
	if (Array.isArray(v)) return v;
	if (isJsonObject(v)) return goSortedKeys(v).map((k) => v[k]);
	return typeof v === 'string' ? utf8Encode(v) : [];
}

class Evaluator {
	private beginRange = 0;
	private inRange = 0;
	private endRange = 0;
	private lastEnd = -1;

	constructor(
		private readonly nodes: readonly Node[],
		private readonly allowMissingKeys: boolean,
	) {}

	/** JSONPath.FindResults: one result list per top-level node, with `{range}…{end}` loops unrolled. */
	findResults(data: Value, from = 0): Value[][] {
		const all: Value[][] = [];
		for (let i = from; i < this.nodes.length; i++) {
			const results = this.walk([data], this.nodes[i]);
			if (this.endRange > 0 && this.endRange <= this.inRange) {
				this.endRange--;
				this.lastEnd = i;
				break;
			}
			if (this.beginRange > 0) {
				this.beginRange--;
				this.inRange++;
				// With nothing to iterate the body still runs once on nil, so the matching {end} is found.
				if (results.length > 0) for (const value of results) all.push(...this.findResults(value, i + 1));
				else this.findResults(null, i + 1);
				this.inRange--;
				if (this.lastEnd > i) i = this.lastEnd;
				continue;
			}
			all.push(results);
		}
		return all;
	}

	private walk(input: Value[], node: Node): Value[] {
		switch (node.t) {
			case 'list':
				return node.nodes.reduce((cur, n) => this.walk(cur, n), input);
			case 'text':
				return [node.text];
			case 'int':
			case 'bool':
				return input.map(() => node.value);
			case 'float':
				return input.map(() => new GoFloat(node.value));
			case 'field':
				return this.field(input, node.name);
			case 'array':
				return this.array(input, node.params);
			case 'filter':
				return this.filter(input, node);
			case 'wildcard':
				return input.flatMap(children);
			case 'recursive':
				return this.recursive(input);
			case 'union':
				return node.lists.flatMap((l) => this.walkOr(input, l, input));
			case 'ident':
				if (node.name === 'range') {
					this.beginRange++;
					return input;
				}
				if (node.name === 'end') {
					if (this.inRange === 0) throw new EvalError('not in range, nothing to end', []);
					this.endRange++;
					return [];
				}
				throw new EvalError(`unrecognized identifier ${node.name}`, input);
		}
	}

	/** walk, but an error carries `partial` instead of what the failing step returned (evalUnion returns its input). */
	private walkOr(input: Value[], node: Node, partial: Value[]): Value[] {
		try {
			return this.walk(input, node);
		} catch (e) {
			if (e instanceof EvalError) throw new EvalError(e.message, partial);
			throw e;
		}
	}

	private field(input: Value[], name: string): Value[] {
		if (input.length === 0) return [];
		const results = input.filter((v): v is JsonObject => isJsonObject(v) && !(v instanceof GoFloat) && Object.hasOwn(v, name)).map((v) => v[name]);
		if (results.length === 0 && !this.allowMissingKeys) throw new EvalError(`${name} is not found`, []);
		return results;
	}

	private array(input: Value[], params: readonly [Param, Param, Param]): Value[] {
		const result: Value[] = [];
		for (const value of input) {
			if (value === null) continue;
			if (!Array.isArray(value)) throw new EvalError(`${goTypeName(value)} is not array or slice`, input);
			const length = value.length;
			let start = params[0].known ? params[0].value : 0;
			if (start < 0) start += length;
			let end = params[1].known ? params[1].value : length;
			if (end < 0 || (end === 0 && params[1].derived)) end += length;
			// Asking for zero elements is allowed, and (upstream quirk) ends the whole step.
			if (end === start) return result;
			if (start >= length || start < 0) throw new EvalError(`array index out of bounds: index ${start}, length ${length}`, input);
			if (end > length || end < 0) throw new EvalError(`array index out of bounds: index ${end - 1}, length ${length}`, input);
			if (start > end) throw new EvalError(`starting index ${start} is greater than ending index ${end}`, input);
			const step = params[2].known ? params[2].value : 1;
			if (step <= 0) throw new EvalError('step must be > 0', input);
			for (let i = start; i < end; i += step) result.push(value[i]);
		}
		return result;
	}

	private recursive(input: Value[]): Value[] {
		const result: Value[] = [];
		for (const value of input) {
			const inner = children(value);
			if (inner.length === 0) continue;
			result.push(value, ...this.recursive(inner));
		}
		return result;
	}

	private filter(input: Value[], node: { left: ListNode; right: ListNode; op: string }): Value[] {
		const results: Value[] = [];
		for (const value of input) {
			if (!Array.isArray(value)) throw new EvalError(`${goFmtV(value)} is not array or slice and cannot be filtered`, input);
			for (const item of value) {
				if (node.op === 'exists') {
					let lefts: Value[];
					try {
						lefts = this.walk([item], node.left);
					} catch (e) {
						if (!(e instanceof EvalError)) throw e;
						lefts = e.partial;
					}
					if (lefts.length > 0) results.push(item);
					continue;
				}
				const operand = (side: ListNode): Value | undefined => {
					const values = this.walkOr([item], side, input);
					if (values.length > 1) throw new EvalError('can only compare one element at a time', input);
					return values[0];
				};
				const left = operand(node.left);
				if (left === undefined) continue;
				const right = operand(node.right);
				if (right === undefined) continue;
				const compare = Object.hasOwn(COMPARATORS, node.op) ? COMPARATORS[node.op] : undefined;
				if (!compare) throw new EvalError(`unrecognized filter operator ${node.op}`, results);
				let pass: boolean;
				try {
					pass = compare(left, right);
				} catch (e) {
					if (e instanceof EvalError || !(e instanceof Error)) throw e;
					throw new EvalError(e.message, results);
				}
				if (pass) results.push(item);
			}
		}
		return results;
	}
}

/** Options of a JSONPath run. */
interface JsonPathOptions {
	/** JSONPath.AllowMissingKeys: a missing field yields nothing instead of an error. kubectl's default is true. */
	allowMissingKeys?: boolean;
	/** JSONPath.EnableJSONOutput (`-o jsonpath-as-json`): each result list printed as an indented JSON array. */
	outputJson?: boolean;
}

function evaluate(parsed: JsonPathTemplate, data: JsonValue, allowMissingKeys: boolean): Value[][] {
	return new Evaluator(parsed.root.nodes, allowMissingKeys).findResults(data);
}

/**
 * JSONPath.FindResults: the raw result lists (one per top-level node) for
 * callers that format values themselves. Throws JsonPathError with the bare
 * upstream reason. Template float literals come back as plain numbers.
 */
export function findJsonPathResults(parsed: JsonPathTemplate, data: JsonValue, options: JsonPathOptions = {}): JsonValue[][] {
	try {
		return evaluate(parsed, data, options.allowMissingKeys ?? true).map((r) => r.map(toJson));
	} catch (e) {
		if (e instanceof EvalError) throw new JsonPathError(e.message);
		throw e;
	}
}

/** JSONPath.PrintResults for one result list: maps and slices as compact JSON, strings raw, nil as `null`, all joined by a space. */
function printResults(results: Value[], outputJson: boolean): string {
	// json.MarshalIndent(results, "", "    ") plus a newline.
	if (outputJson) return stringifyJsonLikeKubectl(results.map(toJson));
	return results
		.map((r) => {
			if (r !== null && typeof r === 'object' && !(r instanceof GoFloat)) return compactJson(r);
			return r === null ? 'null' : goFmtV(r);
		})
		.join(' ');
}


/**
 * What `kubectl get -o jsonpath=<template>` prints for `data`: each top-level
 * result list printed with its values joined by single spaces; literal text
 * and `{"\n"}` printed as is. Missing keys print nothing unless
 * `allowMissingKeys: false` (`--allow-missing-template-keys=false`).
 * Throws JsonPathError: for a parse error with kubectl's
 * `error parsing jsonpath …` message, for an evaluation error with the
 * `error executing jsonpath "…": Error executing template: …` text the
 * cli-runtime printer builds (including its `%#v` dump of the object).
 */
export function executeJsonPath(template: string | JsonPathTemplate, data: JsonValue, options: JsonPathOptions = {}): string {
	const parsed = typeof template === 'string' ? parseJsonPath(template) : template;
	let results: Value[][];
	try {
		results = evaluate(parsed, data, options.allowMissingKeys ?? true);
	} catch (e) {
		if (!(e instanceof EvalError)) throw e;
		const debug =
			`Error executing template: ${e.message}. Printing more information for debugging the template:\n` +
			`\ttemplate was:\n\t\t${parsed.template}\n` +
			`\tobject given to jsonpath engine was:\n\t\t${goSharpV(data)}\n\n`;
		throw new JsonPathError(`error executing jsonpath ${goQuote(parsed.template)}: ${debug}\n`, e.message);
	}
	return results.map((r) => printResults(r, options.outputJson ?? false)).join('');
}

// ---------------------------------------------------------------------------
// -o custom-columns (kubectl pkg/cmd/get/customcolumn.go)

/**
 * RelaxedJSONPathExpression: accepts `metadata.name`, `.metadata.name`,
 * `{metadata.name}` or `{.metadata.name}` and returns `{.metadata.name}`.
 */
export function relaxedJsonPathExpression(expression: string): string {
	if (expression.length === 0) return expression;
	const m = /^\{\.?([^{}]+)\}$|^\.?([^{}]+)$/.exec(expression);
	if (!m) throw new JsonPathError("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'");
	return `{.${m[1] ?? m[2]}}`;
}

/** printers.EscapeTerminal: ESC and CR made harmless. */
const escapeTerminal = (text: string) => text.replaceAll('\x1b', '^[').replaceAll('\r', '\\r');

/**
 * `kubectl get -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName`:
 * a header row (as given, not upper-cased) unless `noHeaders`, then one row
 * per object (per item of a list, i.e. any object with an `items` array).
 * Several matches join with `,`; no match prints `<none>`; values print
 * with Go's `%v` (a null prints `<nil>`, a map `map[k:v]`). Laid out with the
 * `kubectl get` tabwriter settings. Throws JsonPathError with kubectl's
 * bare messages.
 */
export function customColumns(spec: string, data: JsonValue, options: { noHeaders?: boolean } = {}): string {
	if (spec.length === 0) throw new JsonPathError('custom-columns format specified but no custom columns given');
	const columns = spec.split(',').map((part) => {
		const colon = part.indexOf(':');
		if (colon < 0) throw new JsonPathError(`unexpected custom-columns spec: ${part}, expected <header>:<json-path-expr>`);
		return { header: part.slice(0, colon), fieldSpec: relaxedJsonPathExpression(part.slice(colon + 1)) };
	});
	const writer = new TabWriter(KUBECTL_GET_TABWRITER);
	if (!options.noHeaders) writer.write(columns.map((c) => c.header).join('\t') + '\n');
	// The printer returns Parse's error bare (no "error parsing jsonpath" prefix).
	const parsed = columns.map((c) => ({ template: c.fieldSpec, root: new Parser(c.fieldSpec).parse() }));
	const items = isJsonObject(data) && Array.isArray(data.items) ? data.items : [data];
	for (const item of items) {
		const cells = parsed.map((p) => {
			let groups: Value[][];
			try {
				groups = evaluate(p, item, true);
			} catch (e) {
				throw e instanceof EvalError ? new JsonPathError(e.message) : e;
			}
			const values = groups.flat().map((v) => escapeTerminal(goFmtV(v)));
			if (groups.length === 0 || groups[0].length === 0) values.unshift('<none>');
			return values.join(',');
		});
		writer.write(cells.join('\t') + '\n');
	}
	return writer.flush();
}
