/**
 * The POSIX shell subset containers are started with (`sh -c "..."` in a
 * pod spec), as busybox ash and dash run it: simple commands with
 * `$VAR`, `${VAR}`, `$((arithmetic))` and `$(command)` expansion, single
 * and double quotes, `;` `&&` `||` `&` `|`, redirections (`>`, `>>`,
 * `2>&1`), `while`/`until`/`for`/`if`, variable assignments and `trap`.
 *
 * A script compiles to flat bytecode with jumps, so the interpreter
 * (./program.ts) can stop in the middle of a `sleep` and resume later
 * with nothing but plain JSON in hand. Functions, subshells, here-docs
 * and globbing are not supported; a script using them gets the error
 * busybox would print for the unexpected token.
 *
 * The grammar is that of IEEE Std 1003.1 "Shell Command Language" §2.9–2.10.
 *
 * Mirrors mirror/busybox shell/ash.c.
 */

/** One piece of a word: literal text or an expansion; `q` marks double-quoted parts (no field splitting). */
export type WordPart =
	| { t: 'lit'; v: string; q?: boolean }
	| { t: 'var'; name: string; q?: boolean }
	| { t: 'cmd'; script: string; q?: boolean }
	| { t: 'arith'; expr: string; q?: boolean };

export interface Word {
	parts: WordPart[];
}

export interface Redirect {
	/** 1 = stdout, 2 = stderr. */
	fd: 1 | 2;
	/** '>' truncate, '>>' append, '>&1' onto stdout (`2>&1`), '>&2' onto stderr (`>&2`). */
	op: '>' | '>>' | '>&1' | '>&2';
	target?: Word;
}

/** One bytecode instruction. Plain JSON. */
export type Instr =
	/** Run a simple command (or only assignments when `words` is empty). */
	| { op: 'cmd'; words: Word[]; assigns: Array<{ name: string; value: Word }>; redirects: Redirect[]; negate?: boolean; pipeFrom?: boolean; background?: boolean }
	| { op: 'jmp'; to: number }
	/** Jump when the last status is 0. */
	| { op: 'jz'; to: number }
	/** Jump when the last status is not 0. */
	| { op: 'jnz'; to: number }
	/** Start a `for` loop: expand the words into slot `slot`. */
	| { op: 'forinit'; slot: number; words: Word[] }
	/** Next `for` value into `name`, or jump to `to` when done. */
	| { op: 'fornext'; slot: number; name: string; to: number }
	/** Set the status (a loop that ran no body ends with 0). */
	| { op: 'status'; code: number };

interface CompiledScript {
	code: Instr[];
	/** Number of `for` slots used. */
	slots: number;
	/** True when the whole script is one simple command: shells exec it directly (it becomes PID 1). */
	single: boolean;
}

export class ShellSyntaxError extends Error {}

type Tok = { k: 'word'; w: Word; raw: string } | { k: 'op'; v: string } | { k: 'redir'; fd: 1 | 2; op: '>' | '>>' | '>&1' | '>&2' };

/** Upper bound on the script length and tokens, so a pasted novel cannot stall the simulation. */
const MAX_SCRIPT_CHARS = 20_000;
const MAX_TOKENS = 5_000;

/** Splits a script into words and operators, keeping quoting information. */
export function tokenize(script: string): Tok[] {
	if (script.length > MAX_SCRIPT_CHARS) throw new ShellSyntaxError('script too long');
	const toks: Tok[] = [];
	let i = 0;
	const n = script.length;
	const push = (t: Tok) => {
		if (toks.length >= MAX_TOKENS) throw new ShellSyntaxError('script too long');
		toks.push(t);
	};
	while (i < n) {
		const c = script[i];
		if (c === ' ' || c === '\t') {
			i++;
			continue;
		}
		if (c === '\\' && script[i + 1] === '\n') {
			i += 2;
			continue;
		}
		if (c === '#') {
			while (i < n && script[i] !== '\n') i++;
			continue;
		}
		if (c === '\n' || c === ';') {
			push({ k: 'op', v: ';' });
			i++;
			continue;
		}
		if (c === '&' || c === '|') {
			if (script[i + 1] === c) {
				push({ k: 'op', v: c + c });
				i += 2;
			} else if (c === '&' && script[i + 1] === '>') {
				// `&>file`: both streams to the file.
				i += 2;
				const target = readWord();
				push({ k: 'redir', fd: 1, op: '>' });
				toks.push({ k: 'word', w: target.w, raw: target.raw });
				push({ k: 'redir', fd: 2, op: '>&1' });
			} else {
				push({ k: 'op', v: c });
				i++;
			}
			continue;
		}
		if (c === '(' || c === ')') {
			push({ k: 'op', v: c });
			i++;
			continue;
		}
		if (c === '>' || ((c === '1' || c === '2') && script[i + 1] === '>')) {
			let fd: 1 | 2 = 1;
			if (c === '2') fd = 2;
			if (c !== '>') i++;
			i++;
			if (script[i] === '>') {
				i++;
				push({ k: 'redir', fd, op: '>>' });
			} else if (script[i] === '&' && script[i + 1] === '1') {
				i += 2;
				push({ k: 'redir', fd, op: '>&1' });
				continue;
			} else if (script[i] === '&' && script[i + 1] === '2') {
				i += 2;
				push({ k: 'redir', fd, op: '>&2' });
				continue;
			} else push({ k: 'redir', fd, op: '>' });
			continue;
		}
		if (c === '<') {
			// Input redirection: the file is read by nothing we model; skip its word.
			i++;
			readWord();
			continue;
		}
		const word = readWord();
		push({ k: 'word', w: word.w, raw: word.raw });
	}
	return toks;

	function readWord(): { w: Word; raw: string } {
		while (i < n && (script[i] === ' ' || script[i] === '\t')) i++;
		const parts: WordPart[] = [];
		const start = i;
		let lit = '';
		const flush = (q?: boolean) => {
			if (lit !== '') parts.push(q ? { t: 'lit', v: lit, q: true } : { t: 'lit', v: lit });
			lit = '';
		};
		while (i < n) {
			const c = script[i];
			if (' \t\n;&|()<>'.includes(c)) break;
			if (c === '\\') {
				if (i + 1 < n) lit += script[i + 1];
				i += 2;
				continue;
			}
			if (c === "'") {
				const end = script.indexOf("'", i + 1);
				if (end < 0) throw new ShellSyntaxError('unterminated quoted string');
				flush();
				parts.push({ t: 'lit', v: script.slice(i + 1, end), q: true });
				i = end + 1;
				continue;
			}
			if (c === '"') {
				flush();
				i++;
				let closed = false;
				while (i < n) {
					const d = script[i];
					if (d === '"') {
						closed = true;
						i++;
						break;
					}
					if (d === '\\' && i + 1 < n && '$`"\\\n'.includes(script[i + 1])) {
						lit += script[i + 1];
						i += 2;
						continue;
					}
					if (d === '$') {
						const before = i;
						const exp = readDollar();
						if (exp) {
							flush(true);
							parts.push({ ...exp, q: true });
							continue;
						}
						i = before + 1;
						lit += '$';
						continue;
					}
					if (d === '`') {
						const end = script.indexOf('`', i + 1);
						if (end < 0) throw new ShellSyntaxError('unterminated quoted string');
						flush(true);
						parts.push({ t: 'cmd', script: script.slice(i + 1, end), q: true });
						i = end + 1;
						continue;
					}
					lit += d;
					i++;
				}
				if (!closed) throw new ShellSyntaxError('unterminated quoted string');
				// Always keep the quoted part, so `""` is an empty word rather than no word.
				parts.push({ t: 'lit', v: lit, q: true });
				lit = '';
				continue;
			}
			if (c === '$') {
				const before = i;
				const exp = readDollar();
				if (exp) {
					flush();
					parts.push(exp);
					continue;
				}
				i = before + 1;
				lit += '$';
				continue;
			}
			if (c === '`') {
				const end = script.indexOf('`', i + 1);
				if (end < 0) throw new ShellSyntaxError('unterminated quoted string');
				flush();
				parts.push({ t: 'cmd', script: script.slice(i + 1, end) });
				i = end + 1;
				continue;
			}
			lit += c;
			i++;
		}
		flush();
		return { w: { parts }, raw: script.slice(start, i) };
	}

	/** Reads `$NAME`, `${NAME}`, `$?`, `$((...))` or `$(...)` at i; undefined if `$` is literal. */
	function readDollar(): WordPart | undefined {
		const next = script[i + 1];
		if (next === '(' && script[i + 2] === '(') {
			const end = script.indexOf('))', i + 3);
			if (end < 0) throw new ShellSyntaxError('missing ))');
			const expr = script.slice(i + 3, end);
			i = end + 2;
			return { t: 'arith', expr };
		}
		if (next === '(') {
			let depth = 1;
			let j = i + 2;
			while (j < n && depth > 0) {
				if (script[j] === '(') depth++;
				else if (script[j] === ')') depth--;
				j++;
			}
			if (depth > 0) throw new ShellSyntaxError('missing )');
			const inner = script.slice(i + 2, j - 1);
			i = j;
			return { t: 'cmd', script: inner };
		}
		if (next === '{') {
			const end = script.indexOf('}', i + 2);
			if (end < 0) throw new ShellSyntaxError('missing }');
			const name = script.slice(i + 2, end).replace(/[:-].*$/, '');
			i = end + 1;
			return { t: 'var', name };
		}
		if (next === '?' || next === '$' || next === '#' || (next !== undefined && /[0-9]/.test(next))) {
			i += 2;
			return { t: 'var', name: next };
		}
		const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(script.slice(i + 1));
		if (!m) return undefined;
		i += 1 + m[0].length;
		return { t: 'var', name: m[0] };
	}
}

/** A word that is plain, unquoted text (reserved words must be). */
function plainText(w: Word): string | undefined {
	if (w.parts.length !== 1) return undefined;
	const p = w.parts[0];
	return p.t === 'lit' && !p.q ? p.v : undefined;
}

const RESERVED = new Set(['while', 'until', 'do', 'done', 'for', 'in', 'if', 'then', 'elif', 'else', 'fi', '{', '}', '!', 'case', 'esac', 'function']);

/** Parses and compiles a script. Throws ShellSyntaxError with ash's wording (`syntax error: unexpected "done"`). */
export function compileScript(script: string): CompiledScript {
	const toks = tokenize(script);
	let pos = 0;
	const code: Instr[] = [];
	let slots = 0;
	let simpleCommands = 0;
	let compound = false;

	const peek = () => toks[pos];
	const peekWord = (): string | undefined => {
		const t = toks[pos];
		return t?.k === 'word' ? plainText(t.w) : undefined;
	};
	const unexpected = (): never => {
		const t = toks[pos];
		if (!t) throw new ShellSyntaxError('syntax error: unexpected end of file');
		const text = t.k === 'word' ? t.raw : t.k === 'op' ? t.v : '>';
		throw new ShellSyntaxError(`syntax error: unexpected "${text}"`);
	};
	const expectWord = (w: string) => {
		if (peekWord() !== w) unexpected();
		pos++;
	};
	const skipSeparators = () => {
		while (peek()?.k === 'op' && (peek() as { v: string }).v === ';') pos++;
	};
	const emit = (i: Instr) => {
		code.push(i);
		return code.length - 1;
	};
	const patch = (at: number, to: number) => {
		const i = code[at] as { to: number };
		i.to = to;
	};

	/** list := and_or ((';' | '&' | newline) and_or)*, up to one of `stops`. */
	function list(stops: string[]): void {
		skipSeparators();
		while (pos < toks.length) {
			const w = peekWord();
			if (w !== undefined && stops.includes(w)) return;
			const t = peek();
			if (t.k === 'op' && t.v === ')') return;
			andOr();
			const sep = peek();
			if (sep?.k === 'op' && (sep.v === ';' || sep.v === '&')) {
				if (sep.v === '&') {
					const last = code[code.length - 1];
					if (last?.op === 'cmd') last.background = true;
				}
				pos++;
				skipSeparators();
				continue;
			}
			if (!sep) return;
			const stop = peekWord();
			if (stop !== undefined && stops.includes(stop)) return;
			if (sep.k === 'op' && sep.v === ')') return;
			unexpected();
		}
	}

	/** and_or := pipeline (('&&' | '||') pipeline)*, left-associative: a skipped operand leaves $? for the next operator. */
	function andOr(): void {
		pipeline();
		for (;;) {
			const t = peek();
			if (t?.k !== 'op' || (t.v !== '&&' && t.v !== '||')) break;
			pos++;
			skipSeparators();
			const at = emit(t.v === '&&' ? { op: 'jnz', to: -1 } : { op: 'jz', to: -1 });
			pipeline();
			patch(at, code.length);
		}
	}

	function pipeline(): void {
		let negate = false;
		if (peekWord() === '!') {
			negate = true;
			pos++;
		}
		command();
		while (peek()?.k === 'op' && (peek() as { v: string }).v === '|') {
			pos++;
			skipSeparators();
			command();
			const last = code[code.length - 1];
			if (last?.op === 'cmd') last.pipeFrom = true;
		}
		if (negate) {
			const last = code[code.length - 1];
			if (last?.op === 'cmd') last.negate = true;
		}
	}

	function command(): void {
		const w = peekWord();
		if (w === 'while' || w === 'until') return loop(w);
		if (w === 'for') return forLoop();
		if (w === 'if') return ifClause();
		if (w === '{') {
			compound = true;
			pos++;
			list(['}']);
			expectWord('}');
			return;
		}
		const t = peek();
		if (t?.k === 'op' && t.v === '(') {
			compound = true;
			pos++;
			list([]);
			const close = peek();
			if (close?.k !== 'op' || close.v !== ')') unexpected();
			pos++;
			return;
		}
		simple();
	}

	function simple(): void {
		const words: Word[] = [];
		const assigns: Array<{ name: string; value: Word }> = [];
		const redirects: Redirect[] = [];
		for (;;) {
			const t = peek();
			if (!t) break;
			if (t.k === 'redir') {
				pos++;
				if (t.op === '>&1' || t.op === '>&2') redirects.push({ fd: t.fd, op: t.op });
				else {
					const target = peek();
					if (target?.k !== 'word') unexpected();
					pos++;
					redirects.push({ fd: t.fd, op: t.op, target: (target as { w: Word }).w });
				}
				continue;
			}
			if (t.k !== 'word') break;
			const text = plainText(t.w);
			if (words.length === 0 && text !== undefined && RESERVED.has(text) && text !== '{' && text !== '}') unexpected();
			if (words.length === 0 && t.w.parts[0]?.t === 'lit' && !t.w.parts[0].q) {
				const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t.w.parts[0].v);
				if (m) {
					const rest: WordPart[] = [{ t: 'lit', v: t.w.parts[0].v.slice(m[0].length) }, ...t.w.parts.slice(1)];
					assigns.push({ name: m[1], value: { parts: rest.filter((p) => !(p.t === 'lit' && p.v === '' && !p.q)) } });
					pos++;
					continue;
				}
			}
			words.push(t.w);
			pos++;
		}
		if (words.length === 0 && assigns.length === 0 && redirects.length === 0) unexpected();
		simpleCommands++;
		emit({ op: 'cmd', words, assigns, redirects });
	}

	function loop(kind: 'while' | 'until'): void {
		compound = true;
		pos++;
		const start = code.length;
		list(['do']);
		expectWord('do');
		const exit = emit(kind === 'while' ? { op: 'jnz', to: -1 } : { op: 'jz', to: -1 });
		list(['done']);
		expectWord('done');
		emit({ op: 'jmp', to: start });
		patch(exit, code.length);
		emit({ op: 'status', code: 0 });
	}

	function forLoop(): void {
		compound = true;
		pos++;
		const nameTok = peek();
		const name = nameTok?.k === 'word' ? plainText(nameTok.w) : undefined;
		if (!name || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) unexpected();
		pos++;
		const words: Word[] = [];
		if (peekWord() === 'in') {
			pos++;
			while (peek()?.k === 'word' && peekWord() !== 'do') {
				words.push((peek() as { w: Word }).w);
				pos++;
			}
		}
		skipSeparators();
		expectWord('do');
		const slot = slots++;
		emit({ op: 'forinit', slot, words });
		const next = emit({ op: 'fornext', slot, name: name as string, to: -1 });
		list(['done']);
		expectWord('done');
		emit({ op: 'jmp', to: next });
		patch(next, code.length);
		emit({ op: 'status', code: 0 });
	}

	function ifClause(): void {
		compound = true;
		pos++;
		const ends: number[] = [];
		list(['then']);
		expectWord('then');
		let skip = emit({ op: 'jnz', to: -1 });
		list(['elif', 'else', 'fi']);
		for (;;) {
			const w = peekWord();
			if (w === 'elif') {
				pos++;
				ends.push(emit({ op: 'jmp', to: -1 }));
				patch(skip, code.length);
				list(['then']);
				expectWord('then');
				skip = emit({ op: 'jnz', to: -1 });
				list(['elif', 'else', 'fi']);
				continue;
			}
			if (w === 'else') {
				pos++;
				ends.push(emit({ op: 'jmp', to: -1 }));
				patch(skip, code.length);
				skip = -1;
				list(['fi']);
			}
			expectWord('fi');
			break;
		}
		if (skip >= 0) {
			// No else: a false condition leaves status 0.
			ends.push(emit({ op: 'jmp', to: -1 }));
			patch(skip, code.length);
			emit({ op: 'status', code: 0 });
		}
		for (const at of ends) patch(at, code.length);
	}

	list([]);
	if (pos < toks.length) unexpected();
	return { code, slots, single: !compound && simpleCommands === 1 && code.length === 1 && (code[0] as { background?: boolean }).background !== true };
}

/**
 * Evaluates `$((...))` arithmetic: integers, + - * / %, parentheses,
 * comparisons, and variables by name. Returns NaN on a syntax error.
 */
export function evalArithmetic(expr: string, vars: Readonly<Record<string, string>>): number {
	const src = expr.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, '$1');
	let i = 0;
	const ws = () => {
		while (i < src.length && /\s/.test(src[i])) i++;
	};
	const primary = (): number => {
		ws();
		if (src[i] === '(') {
			i++;
			const v = cmp();
			ws();
			if (src[i] !== ')') return Number.NaN;
			i++;
			return v;
		}
		if (src[i] === '-') {
			i++;
			return -primary();
		}
		const num = /^\d+/.exec(src.slice(i));
		if (num) {
			i += num[0].length;
			return Number(num[0]);
		}
		const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
		if (name) {
			i += name[0].length;
			const v = Number.parseInt(vars[name[0]] ?? '0', 10);
			return Number.isNaN(v) ? 0 : v;
		}
		return Number.NaN;
	};
	const term = (): number => {
		let v = primary();
		for (;;) {
			ws();
			const op = src[i];
			if (op !== '*' && op !== '/' && op !== '%') return v;
			i++;
			const r = primary();
			v = op === '*' ? v * r : r === 0 ? Number.NaN : op === '/' ? Math.trunc(v / r) : v % r;
		}
	};
	const sum = (): number => {
		let v = term();
		for (;;) {
			ws();
			const op = src[i];
			if (op !== '+' && op !== '-') return v;
			i++;
			const r = term();
			v = op === '+' ? v + r : v - r;
		}
	};
	const cmp = (): number => {
		const v = sum();
		ws();
		const m = /^(<=|>=|==|!=|<|>)/.exec(src.slice(i));
		if (!m) return v;
		i += m[0].length;
		const r = sum();
		switch (m[0]) {
			case '<':
				return v < r ? 1 : 0;
			case '>':
				return v > r ? 1 : 0;
			case '<=':
				return v <= r ? 1 : 0;
			case '>=':
				return v >= r ? 1 : 0;
			case '==':
				return v === r ? 1 : 0;
			default:
				return v !== r ? 1 : 0;
		}
	};
	const value = cmp();
	ws();
	return i === src.length ? value : Number.NaN;
}
