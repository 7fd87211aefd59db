/**
 * Tokenizer and parser for bash command lines, enough for what tutorials print
 * and readers paste: quoting, expansions, pipelines, `&&`/`||`/`;` lists,
 * redirections, here-documents and continuation lines, and the one compound
 * command tutorials lean on: `for NAME in WORDS; do LIST; done` (kubernetes.io
 * loops over `$(kubectl get pods -o name)` this way). The other compound
 * commands (if/while/case, subshells, functions) are refused with a clear
 * message.
 *
 * The AST is plain data:
 *
 *     Script        = Complete[]                  the whole input
 *     Complete      = { list: AndOr[]; text }     one line as bash reads it: up to an unquoted
 *                                                 newline, plus here-document bodies; `text` is
 *                                                 its source, for history
 *     AndOr         = { op: '' | '&&' | '||'; pipe: Pipeline }[]   first op is ''
 *     Pipeline      = { bang: boolean; cmds: (SimpleCommand | ForCommand)[] }   `! a | b | c`
 *     ForCommand    = { k: 'for'; name; words: Word[] | null; body: AndOr[] }
 *                                                 `for NAME [in WORDS]; do LIST; done`;
 *                                                 words null: no `in` (the positional parameters)
 *     SimpleCommand = { assigns: Assign[]; words: Word[]; redirs: Redir[] }
 *     Assign        = { name; value: Word }       `NAME=value` before the command name
 *     Redir         = { fd; op; target: Word }    op: < > >> >& <& &> &>> << <<<;
 *                                                 for `<<` the target is the body
 *     Word          = WordPart[]                  concatenated after expansion
 *     WordPart      = { k: 'lit'; v; q }          text; q = quoted (no splitting or globbing)
 *                   | { k: 'var'; v: name; q; op?; arg? }   $NAME ${NAME} ${NAME:-arg} ${NAME-arg} ${#NAME};
 *                                                 name '~' is tilde expansion
 *                   | { k: 'sub'; v: source; q }  $(...) or `...`, parsed when expanded
 *                   | { k: 'psub'; v: source; q } <(...): the path of a file holding its output
 *
 * Parsing is incremental (`Parser.next()` yields one Complete at a time) so a
 * pasted script runs line by line as bash would, and a syntax error on one line
 * does not stop the lines after it.
 *
 * Mirrors gnu/bash parse.y (the part tutorials use).
 */
import { unescape } from './format.ts';

/** A piece of a word before expansion. */
export type WordPart =
	| { k: 'lit'; v: string; q: boolean }
	| { k: 'var'; v: string; q: boolean; op?: string; arg?: string }
	| { k: 'sub'; v: string; q: boolean }
	| { k: 'psub'; v: string; q: boolean };
/** A shell word: parts concatenated after expansion. */
export type Word = WordPart[];
/** `NAME=value` before a command (or alone). */
export interface Assign {
	name: string;
	value: Word;
}
/** Redirection operators, normalised (`>|` is `>`, `<<-` is `<<` with tabs stripped at parse time). */
export type RedirOp = '<' | '>' | '>>' | '>&' | '<&' | '&>' | '&>>' | '<<' | '<<<';
/** One redirection of a simple command. */
export interface Redir {
	fd: number;
	op: RedirOp;
	target: Word;
}
/** A command with its arguments, prefix assignments and redirections. */
export interface SimpleCommand {
	assigns: Assign[];
	words: Word[];
	redirs: Redir[];
}
/** `for NAME in WORDS; do LIST; done`: LIST runs once per field of WORDS, with NAME set to it. */
export interface ForCommand {
	k: 'for';
	name: string;
	/** The words after `in`; null when there is no `in` (bash then loops over "$@"). */
	words: Word[] | null;
	body: AndOr[];
}
/** Commands joined by `|`; `bang` inverts the status (`! cmd`). */
export interface Pipeline {
	bang: boolean;
	cmds: Array<SimpleCommand | ForCommand>;
}
/**
 * Pipelines joined by `&&`/`||`, evaluated left to right with short-circuit.
 * `background`: the list ended with `&` (bash runs it as a job; here only
 * commands that keep running, such as `kubectl port-forward`, use it).
 */
export type AndOr = Array<{ op: '' | '&&' | '||'; pipe: Pipeline }> & { background?: boolean };
/** One line's worth of commands (`a; b && c`), with its source text. */
export interface Complete {
	list: AndOr[];
	text: string;
}

/** A syntax error, worded as bash words it; `status` is what `$?` becomes (2, like bash). */
export class ShellSyntaxError extends Error {
	constructor(
		message: string,
		readonly status = 2,
		readonly atEnd = false,
	) {
		super(message);
	}
}

/** Largest here-document body accepted (characters). */
export const MAX_HEREDOC = 256 * 1024;

const eofErr = (c: string) => new ShellSyntaxError(`bash: unexpected EOF while looking for matching '${c}'`, 2, true);
const near = (t: string) => new ShellSyntaxError(`bash: syntax error near unexpected token '${t}'`);
const unsupported = (what: string) => new ShellSyntaxError(`bash: ${what}: not supported in this simulated shell`);

type Heredoc = { delim: string; strip: boolean; quoted: boolean; body: Word; line: number };
type Tok = { t: 'w'; w: Word } | { t: 'op'; v: string } | { t: 'r'; v: RedirOp; fd: number; hd?: Heredoc } | { t: 'nl' } | { t: 'eof' };

const OPS = ['&&', '||', ';;', '&>>', '&>', '>>', '>&', '>|', '<<<', '<<-', '<<', '<&', '<>', '|', '&', ';', '(', ')', '<', '>'];
const META = ' \t\n|&;()<>';
const PLAIN = /[^ \t\n|&;()<>\\'"$`]+/y;
const FD = /\d+(?=[<>])/y;
/** Words that open compound commands this shell does not run: bash would parse a loop or a group here. */
const COMPOUND = new Set(['if', 'while', 'until', 'case', 'select', 'function', '{', '[[', 'coproc']);
/** Words that only make sense inside a compound command. */
const CLOSERS = new Set(['then', 'else', 'elif', 'fi', 'do', 'done', 'esac', '}', ']]']);

const tokText = (t: Tok) => (t.t === 'w' ? t.w.map((p) => (p.k === 'lit' ? p.v : '$' + p.v)).join('') : t.t === 'op' || t.t === 'r' ? t.v : 'newline');

/** Appends literal text, merging with the previous part when quoting matches (keeps words compact). */
function addLit(w: Word, v: string, q: boolean): void {
	const last = w[w.length - 1];
	if (last?.k === 'lit' && last.q === q) last.v += v;
	else w.push({ k: 'lit', v, q });
}

/** The unquoted literal text of a word, or undefined if any part is quoted or expanded. */
export function plainText(w: Word): string | undefined {
	return w.length === 1 && w[0].k === 'lit' && !w[0].q ? w[0].v : undefined;
}

/** Splits `NAME=value` (unquoted name) into an assignment, with tilde expansion after `=` as bash does; null otherwise. */
export function assignOf(w: Word): Assign | null {
	const p = w[0];
	const m = p?.k === 'lit' && !p.q ? /^([A-Za-z_]\w*)=/.exec(p.v) : null;
	if (!m) return null;
	const rest = (p as { v: string }).v.slice(m[0].length),
		value: Word = [];
	if (rest[0] === '~' && (rest.length === 1 || rest[1] === '/')) {
		value.push({ k: 'var', v: '~', q: true });
		if (rest.length > 1) value.push({ k: 'lit', v: rest.slice(1), q: false });
	} else if (rest) value.push({ k: 'lit', v: rest, q: false });
	value.push(...w.slice(1));
	return { name: m[1], value };
}

/** Incremental parser over one input; `next()` returns each complete command in turn. */
export class Parser {
	#i = 0;
	#peeked: Tok | null = null;
	#start = 0;
	#last: Tok['t'] = 'nl';
	#pend: Heredoc[] = [];
	/** Non-fatal diagnostics (here-document cut short by end of input), drained by the caller. */
	warnings: string[] = [];

	constructor(private readonly src: string) {}

	/** The next complete command, or null at the end of input. Throws ShellSyntaxError; call recover() to go on with the next line. */
	next(): Complete | null {
		let t = this.#peek();
		while (t.t === 'nl') {
			this.#take();
			t = this.#peek();
		}
		if (t.t === 'eof') return null;
		const start = this.#start,
			list: AndOr[] = [];
		for (;;) {
			const ao = this.#andOr();
			list.push(ao);
			t = this.#take();
			if (t.t === 'op' && t.v === '&') ao.background = true;
			if (t.t === 'op' && (t.v === ';' || t.v === '&')) {
				const u = this.#peek();
				if (u.t !== 'nl' && u.t !== 'eof') continue;
				this.#take();
			} else if (t.t !== 'nl' && t.t !== 'eof') throw near(tokText(t));
			return { list, text: this.src.slice(start, this.#i).replace(/\n$/, '') };
		}
	}

	/** After a syntax error: skip the rest of the offending line (and its here-document bodies), as interactive bash does. */
	recover(e: ShellSyntaxError): void {
		this.#peeked = null;
		if (e.atEnd) this.#i = this.src.length;
		else if (this.#last !== 'nl' && this.#last !== 'eof') {
			const j = this.src.indexOf('\n', this.#i);
			this.#i = j < 0 ? this.src.length : j + 1;
			try {
				this.#bodies();
			} catch {
				// A broken body of a line already rejected: nothing more to report.
			}
		}
		this.#pend = [];
		this.#last = 'nl';
	}

	#peek(): Tok {
		return (this.#peeked ??= this.#lex());
	}

	#take(): Tok {
		const t = this.#peek();
		this.#peeked = null;
		return t;
	}

	#nls(): void {
		while (this.#peek().t === 'nl') this.#take();
	}

	#andOr(): AndOr {
		const r: AndOr = [{ op: '', pipe: this.#pipeline() }];
		for (let t = this.#peek(); t.t === 'op' && (t.v === '&&' || t.v === '||'); t = this.#peek()) {
			this.#take();
			this.#nls();
			r.push({ op: t.v, pipe: this.#pipeline() });
		}
		return r;
	}

	#pipeline(): Pipeline {
		const t = this.#peek();
		const bang = t.t === 'w' && plainText(t.w) === '!';
		if (bang) this.#take();
		const cmds = [this.#command()];
		for (let t = this.#peek(); t.t === 'op' && t.v === '|'; t = this.#peek()) {
			this.#take();
			this.#nls();
			cmds.push(this.#command());
		}
		return { bang, cmds };
	}

	#command(): SimpleCommand | ForCommand {
		const first = this.#peek();
		if (first.t === 'w' && plainText(first.w) === 'for') {
			this.#take();
			return this.#for();
		}
		const c: SimpleCommand = { assigns: [], words: [], redirs: [] };
		for (;;) {
			const t = this.#peek();
			if (t.t === 'w') {
				this.#take();
				const a = c.words.length ? null : assignOf(t.w);
				if (a) c.assigns.push(a);
				else {
					const s = c.words.length || c.assigns.length || c.redirs.length ? undefined : plainText(t.w);
					if (s !== undefined && COMPOUND.has(s)) throw unsupported(`'${s}' (compound commands)`);
					if (s !== undefined && CLOSERS.has(s)) throw near(s);
					c.words.push(t.w);
				}
			} else if (t.t === 'r') {
				this.#take();
				if (t.hd) c.redirs.push({ fd: t.fd, op: '<<', target: t.hd.body });
				else {
					const u = this.#take();
					if (u.t !== 'w') throw near(tokText(u));
					c.redirs.push({ fd: t.fd, op: t.v, target: u.w });
				}
			} else break;
		}
		if (!c.assigns.length && !c.words.length && !c.redirs.length) {
			const t = this.#peek();
			if (t.t === 'eof') throw new ShellSyntaxError('bash: syntax error: unexpected end of file');
			if (t.t === 'op' && t.v === '(') throw unsupported("'( ... )' (subshells)");
			throw near(tokText(t));
		}
		return c;
	}

	/** After `for`: NAME, an optional `in WORDS`, then `do LIST done` (bash's for_command). */
	#for(): ForCommand {
		const nameTok = this.#take();
		if (nameTok.t === 'eof') throw new ShellSyntaxError('bash: syntax error: unexpected end of file', 2, true);
		if (nameTok.t !== 'w') throw near(tokText(nameTok));
		const name = plainText(nameTok.w) ?? tokText(nameTok);
		if (!/^[A-Za-z_]\w*$/.test(name)) throw new ShellSyntaxError(`bash: \`${name}': not a valid identifier`, 1);
		this.#nls();
		let words: Word[] | null = null;
		let t = this.#peek();
		if (t.t === 'w' && plainText(t.w) === 'in') {
			this.#take();
			words = [];
			for (t = this.#peek(); t.t === 'w'; t = this.#peek()) words.push((this.#take() as { w: Word }).w);
			if (t.t === 'op' && t.v === ';') this.#take();
			else if (t.t === 'eof') throw new ShellSyntaxError('bash: syntax error: unexpected end of file', 2, true);
			else if (t.t !== 'nl') throw near(tokText(t));
		} else if (t.t === 'op' && t.v === ';') this.#take();
		this.#nls();
		t = this.#take();
		if (t.t === 'eof') throw new ShellSyntaxError('bash: syntax error: unexpected end of file', 2, true);
		if (t.t !== 'w' || plainText(t.w) !== 'do') throw near(tokText(t));
		const body: AndOr[] = [];
		for (;;) {
			this.#nls();
			t = this.#peek();
			if (t.t === 'eof') throw new ShellSyntaxError('bash: syntax error: unexpected end of file', 2, true);
			if (t.t === 'w' && plainText(t.w) === 'done') {
				if (!body.length) throw near('done');
				this.#take();
				break;
			}
			body.push(this.#andOr());
			const sep = this.#peek();
			if (sep.t === 'op' && (sep.v === ';' || sep.v === '&')) this.#take();
			else if (sep.t !== 'nl' && !(sep.t === 'w' && plainText(sep.w) === 'done') && sep.t !== 'eof') throw near(tokText(this.#take()));
		}
		const after = this.#peek();
		if (after.t === 'r') throw unsupported('redirections of a whole loop (`done > file`)');
		return { k: 'for', name, words, body };
	}

	// ---- tokenizer ----

	#lex(): Tok {
		try {
			const t = this.#scan();
			this.#last = t.t;
			return t;
		} catch (e) {
			// A lexical error leaves us mid-line: recovery must skip to the next newline.
			this.#last = 'w';
			throw e;
		}
	}

	#scan(): Tok {
		const s = this.src;
		for (;;) {
			const c = s[this.#i];
			if (c === ' ' || c === '\t') this.#i++;
			else if (c === '\\' && s[this.#i + 1] === '\n') this.#i += 2;
			else if (c === '#') while (this.#i < s.length && s[this.#i] !== '\n') this.#i++;
			else break;
		}
		this.#start = this.#i;
		if (this.#i >= s.length) {
			this.#bodies();
			return { t: 'eof' };
		}
		if (s[this.#i] === '\n') {
			this.#i++;
			this.#bodies();
			return { t: 'nl' };
		}
		FD.lastIndex = this.#i;
		const fd = FD.exec(s)?.[0];
		if (fd) this.#i += fd.length;
		for (const op of OPS) {
			if (!s.startsWith(op, this.#i)) continue;
			if (op === '<' && s[this.#i + 1] === '(' && !fd) {
				// `<(LIST)` is a word: the name of a file that reads LIST's output (`source <(kubectl completion bash)`, `diff <(a) <(b)`).
				const j = this.#closeParen(this.#i + 2);
				const body = s.slice(this.#i + 2, j);
				this.#i = j + 1;
				return { t: 'w', w: [{ k: 'psub', v: body, q: true }] };
			}
			if ((op === '<' || op === '>') && s[this.#i + 1] === '(') throw unsupported(`process substitution '${op}(...)'`);
			this.#i += op.length;
			if ('<>&'.includes(op[0]) && op !== '&&' && op !== '&') {
				const v = (op === '>|' ? '>' : op === '<>' ? '<' : op === '<<-' ? '<<' : op) as RedirOp;
				const r: Tok = { t: 'r', v, fd: fd ? Math.min(+fd, 99) : v[0] === '<' ? 0 : 1 };
				if (v === '<<') r.hd = this.#delimiter(op === '<<-');
				return r;
			}
			return { t: 'op', v: op };
		}
		return { t: 'w', w: this.#word() };
	}

	/** Reads the word after `<<` now, so the body can be collected at the end of the line. */
	#delimiter(strip: boolean): Heredoc {
		const s = this.src;
		while (s[this.#i] === ' ' || s[this.#i] === '\t') this.#i++;
		if (this.#i >= s.length || META.includes(s[this.#i])) throw near(s[this.#i] === undefined || s[this.#i] === '\n' ? 'newline' : s[this.#i]);
		const from = this.#i,
			w = this.#word();
		const hd: Heredoc = {
			delim: w.map((p) => (p.k === 'lit' ? p.v : p.k === 'var' ? '$' + p.v : `$(${p.v})`)).join(''),
			strip,
			quoted: /['"\\]/.test(s.slice(from, this.#i)),
			body: [],
			line: s.slice(0, from).split('\n').length,
		};
		this.#pend.push(hd);
		return hd;
	}

	/** Collects pending here-document bodies from the lines after the current one. */
	#bodies(): void {
		const s = this.src,
			pend = this.#pend;
		this.#pend = [];
		for (const hd of pend) {
			let body = '',
				done = false;
			while (this.#i < s.length) {
				let j = s.indexOf('\n', this.#i);
				if (j < 0) j = s.length;
				let line = s.slice(this.#i, j);
				this.#i = Math.min(j + 1, s.length);
				if (hd.strip) line = line.replace(/^\t+/, '');
				if (line === hd.delim) {
					done = true;
					break;
				}
				body += line + '\n';
				if (body.length > MAX_HEREDOC) throw new ShellSyntaxError(`bash: here-document too large (limit ${MAX_HEREDOC} characters)`, 1, true);
			}
			if (!done) this.warnings.push(`bash: warning: here-document at line ${hd.line} delimited by end-of-file (wanted '${hd.delim}')`);
			if (hd.quoted) hd.body.push({ k: 'lit', v: body, q: true });
			else hd.body.push(...new Parser(body).heredocWord());
		}
	}

	/** A here-document body with expansions: `$`, backquotes and `\` before `$`, `` ` ``, `\` or newline are special; quotes are not. */
	heredocWord(): Word {
		const s = this.src,
			w: Word = [{ k: 'lit', v: '', q: true }];
		while (this.#i < s.length) {
			const c = s[this.#i],
				d = s[this.#i + 1];
			if (c === '\\' && (d === '$' || d === '`' || d === '\\' || d === '\n')) {
				if (d !== '\n') addLit(w, d, true);
				this.#i += 2;
			} else if (c === '$') this.#dollar(w, true);
			else if (c === '`') this.#backquote(w, true);
			else {
				addLit(w, c, true);
				this.#i++;
			}
		}
		return w;
	}

	#word(): Word {
		const s = this.src,
			w: Word = [];
		if (s[this.#i] === '~' && (this.#i + 1 >= s.length || '/ \t\n|&;()<>'.includes(s[this.#i + 1]))) {
			w.push({ k: 'var', v: '~', q: true });
			this.#i++;
		}
		while (this.#i < s.length) {
			const c = s[this.#i];
			if (META.includes(c)) break;
			PLAIN.lastIndex = this.#i;
			const run = PLAIN.exec(s)?.[0];
			if (run) {
				addLit(w, run, false);
				this.#i += run.length;
			} else if (c === '\\') {
				const d = s[this.#i + 1];
				if (d === undefined) addLit(w, '\\', false);
				else if (d !== '\n') addLit(w, d, true);
				this.#i += 2;
			} else if (c === "'") {
				const j = s.indexOf("'", this.#i + 1);
				if (j < 0) throw eofErr("'");
				addLit(w, s.slice(this.#i + 1, j), true);
				this.#i = j + 1;
			} else if (c === '"') this.#dquote(w);
			else if (c === '$') this.#dollar(w, false);
			else this.#backquote(w, false);
		}
		return w;
	}

	#dquote(w: Word): void {
		const s = this.src;
		this.#i++;
		addLit(w, '', true);
		for (;;) {
			if (this.#i >= s.length) throw eofErr('"');
			const c = s[this.#i],
				d = s[this.#i + 1];
			if (c === '"') return void this.#i++;
			if (c === '\\' && (d === '$' || d === '`' || d === '"' || d === '\\' || d === '\n')) {
				if (d !== '\n') addLit(w, d, true);
				this.#i += 2;
			} else if (c === '$') this.#dollar(w, true);
			else if (c === '`') this.#backquote(w, true);
			else {
				addLit(w, c, true);
				this.#i++;
			}
		}
	}

	#dollar(w: Word, q: boolean): void {
		const s = this.src,
			d = s[this.#i + 1];
		if (d === '(') {
			if (s[this.#i + 2] === '(') throw unsupported('arithmetic expansion $((...))');
			const j = this.#closeParen(this.#i + 2);
			w.push({ k: 'sub', v: s.slice(this.#i + 2, j), q });
			this.#i = j + 1;
			return;
		}
		if (d === '{') {
			const j = s.indexOf('}', this.#i + 2);
			if (j < 0) throw eofErr('}');
			const body = s.slice(this.#i + 2, j);
			const m = /^(#?)([A-Za-z_]\w*|[\d?$#!@*-])(?:(:?-)([^]*))?$/.exec(body);
			if (!m || (m[1] && m[3])) throw new ShellSyntaxError(`bash: \${${body}}: bad substitution`, 1);
			this.#i = j + 1;
			w.push({ k: 'var', v: m[2], q, op: m[1] || m[3], arg: m[4] });
			return;
		}
		const m = /^(?:[A-Za-z_]\w*|[\d?$#!@*-])/.exec(s.slice(this.#i + 1, this.#i + 257));
		if (m) {
			w.push({ k: 'var', v: m[0], q });
			this.#i += 1 + m[0].length;
		} else if (d === "'" && !q) {
			// $'...': ANSI-C quoting, e.g. $'\t' for a tab delimiter.
			let j = this.#i + 2;
			while (j < s.length && s[j] !== "'") j += s[j] === '\\' ? 2 : 1;
			if (j >= s.length) throw eofErr("'");
			addLit(w, unescape(s.slice(this.#i + 2, j), 'ansi').s, true);
			this.#i = j + 1;
		} else {
			addLit(w, '$', q);
			this.#i++;
		}
	}

	#backquote(w: Word, q: boolean): void {
		const s = this.src;
		let i = this.#i + 1,
			body = '';
		for (;;) {
			if (i >= s.length) throw eofErr('`');
			const c = s[i],
				d = s[i + 1];
			if (c === '`') break;
			if (c === '\\' && (d === '$' || d === '`' || d === '\\')) {
				body += d;
				i += 2;
			} else {
				body += c;
				i++;
			}
		}
		w.push({ k: 'sub', v: body, q });
		this.#i = i + 1;
	}

	/** Index of the `)` closing a `$(` whose body starts at i, skipping quoted text and nested parentheses. */
	#closeParen(i: number): number {
		const s = this.src;
		for (let depth = 1; i < s.length;) {
			const c = s[i];
			if (c === '\\') i += 2;
			else if (c === "'" || c === '`') {
				const j = s.indexOf(c, i + 1);
				if (j < 0) break;
				i = j + 1;
			} else if (c === '"') {
				for (i++; i < s.length && s[i] !== '"';) i += s[i] === '\\' ? 2 : 1;
				i++;
			} else {
				if (c === '(') depth++;
				else if (c === ')' && !--depth) return i;
				i++;
			}
		}
		throw eofErr(')');
	}
}

/** Parses a whole input at once (throws on the first syntax error); the session itself uses Parser incrementally. */
export function parse(src: string): Complete[] {
	const p = new Parser(src),
		out: Complete[] = [];
	for (let c = p.next(); c; c = p.next()) out.push(c);
	return out;
}
