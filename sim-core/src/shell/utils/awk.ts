/**
 * awk, deliberately small: the one-liners tutorials use. Rules with regex or
 * expression patterns and BEGIN/END; print, printf, assignments (= += -= *=
 * /= ++ --), if/else, next, exit; fields ($1, $NF, $(NF-1); assigning one
 * rebuilds $0 with OFS); NR NF FNR FS OFS ORS; -F and -v; concatenation,
 * arithmetic, comparisons, ~ !~ && || !; length substr index tolower toupper
 * int sprintf sub gsub. No loops, arrays, getline or user functions: they are
 * refused with a message, and without loops every program ends.
 *
 * Mirrors ThomasDickey/mawk-snapshots parse.y, ThomasDickey/mawk-snapshots
 * execute.c, ThomasDickey/mawk-snapshots bi_funct.c (Ubuntu's awk is mawk).
 */
import { format, unescape } from '../format.ts';
import type { CommandHandler } from '../types.ts';
import { Out, lines, readAll, res } from './common.ts';
import { RegexError, compileRegex, substitute, type Regex } from './regex.ts';

type V = string | number;
type E = () => V;
/** An expression: its value, and a setter when it is a variable or a field. */
interface X {
	g: E;
	s?: (v: V) => void;
	re?: Regex;
	list?: E[];
}

class AwkError extends Error {}

/** Tokens: [kind, text] with kind n(umber) s(tring) r(egex) i(dentifier) p(unctuation) or '\n'. */
const TOKEN =
	/[ \t\r]*(?:\\\n|#[^\n]*|(\n)|(\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)|"((?:[^"\\\n]|\\.)*)"|([A-Za-z_]\w*)|(&&|\|\||[!=<>+\-*/%]=|\+\+|--|!~|[{}()[\];,$!<>=~+\-*/%?:^]))/y;
const NUM = /^[ \t\n]*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/;
const BIN: Record<string, number> = {
	'||': 1,
	'&&': 2,
	'~': 3,
	'!~': 3,
	'<': 4,
	'<=': 4,
	'>': 4,
	'>=': 4,
	'==': 4,
	'!=': 4,
	' ': 5,
	'+': 6,
	'-': 6,
	'*': 7,
	'/': 7,
	'%': 7,
};

function lex(src: string): string[][] {
	const out: string[][] = [];
	for (let i = 0; i < src.length;) {
		const prev = out[out.length - 1];
		if (/^[ \t\r]*\//.test(src.slice(i, i + 64)) && !(prev && ('nsi'.includes(prev[0]) || prev[1] === ')' || prev[1] === '$'))) {
			// A slash where an operand is expected starts a regular expression.
			const m = /[ \t\r]*\/((?:[^/\\\n]|\\.)*)\//y;
			m.lastIndex = i;
			const r = m.exec(src);
			if (!r) throw new AwkError('runaway regular expression');
			out.push(['r', r[1].replace(/\\\//g, '/')]);
			i = m.lastIndex;
			continue;
		}
		TOKEN.lastIndex = i;
		const m = TOKEN.exec(src);
		if (!m || m[0] === '') {
			if (/^[ \t\r]*$/.test(src.slice(i))) break;
			throw new AwkError(`syntax error at or near ${src.slice(i).trim()[0]}`);
		}
		i = TOKEN.lastIndex;
		if (m[1]) out.push(['\n', '\n']);
		else if (m[2]) out.push(['n', m[2]]);
		else if (m[3] !== undefined) out.push(['s', unescape(m[3].replace(/\\(["/])/g, '$1'), 'printf').s]);
		else if (m[4]) out.push(['i', m[4]]);
		else if (m[5]) out.push(['p', m[5]]);
	}
	out.push(['e', 'end of file']);
	return out;
}

/** awk [-F FS] [-v VAR=VALUE]... 'program' [FILE]... */
export const awk: CommandHandler = (ctx) => {
	const argv = ctx.argv,
		vars = new Map<string, V>([
			['FS', ' '],
			['OFS', ' '],
			['ORS', '\n'],
			['NR', 0],
			['FNR', 0],
		]);
	let k = 1;
	const assigns: string[] = [];
	for (; k < argv.length && /^-[Fv]/.test(argv[k]); k++) {
		const v = argv[k].length > 2 ? argv[k].slice(2) : argv[++k];
		if (v === undefined) return res('', `awk: option requires an argument -- '${argv[k - 1][1]}'\n`, 2);
		if (argv[k][1] === 'F' || argv[k - 1] === '-F') vars.set('FS', v === 't' ? '\t' : unescape(v, 'printf').s);
		else assigns.push(v);
	}
	if (argv[k] === '--') k++;
	const prog = argv[k],
		files = argv.slice(k + 1);
	if (prog === undefined) return res('', "usage: awk [-F value] [-v var=value] 'program text' [file ...]\n", 2);

	const out = new Out(),
		cache = new Map<string, Regex>();
	let fields: string[] = [''],
		next = false,
		quit = false,
		status = 0;
	const regex = (s: string) => cache.get(s) ?? (cache.set(s, compileRegex(s, { ere: true })).get(s) as Regex);
	const num = (v: V) => (typeof v === 'number' ? v : +(NUM.exec(v)?.[0] ?? 0) || 0);
	const str = (v: V): string => (typeof v === 'string' ? v : Number.isInteger(v) ? String(v) : String(+v.toPrecision(6)));
	const isNum = (v: V) => typeof v === 'number' || (NUM.test(v) && NUM.exec(v)?.[0].length === v.trimEnd().length);
	const truth = (v: V) => (isNum(v) ? num(v) !== 0 : v !== '');
	const get = (n: string): V => (n === 'NF' ? fields.length - 1 : (vars.get(n) ?? ''));
	const split = (rec: string) => {
		const fs = str(get('FS'));
		if (fs === ' ') return rec.split(/[ \t\n]+/).filter(Boolean);
		if (!rec) return [];
		if (fs.length === 1 && fs !== '\\') return rec.split(fs);
		const parts: string[] = [];
		const rest = substitute(regex(fs), rec, () => '\0', true).out;
		for (const p of rest.split('\0')) parts.push(p);
		return parts;
	};
	const setField = (i: number, v: V) => {
		if (i > 10_000) throw new AwkError('field index too large');
		if (i === 0) fields = [str(v), ...split(str(v))];
		else {
			for (let j = fields.length; j < i; j++) fields[j] = '';
			fields[i] = str(v);
			fields[0] = fields.slice(1).join(str(get('OFS')));
		}
	};

	// ---- parser: precedence climbing, compiling to closures ----
	let t: string[][],
		p = 0;
	try {
		t = lex(prog);
	} catch (e) {
		return res('', `awk: line 1: ${(e as Error).message}\n`, 2);
	}
	const is = (v: string) => t[p][1] === v && t[p][0] !== 's';
	const fail = (): never => {
		throw new AwkError(`syntax error at or near ${t[p][1] === '\n' ? 'end of line' : t[p][1]}`);
	};
	const eat = (v: string) => (is(v) ? p++ : fail());
	const nls = () => {
		while (t[p][0] === '\n') p++;
	};
	const startsOperand = () => 'nsi'.includes(t[p][0]) || ['$', '(', '!', '++', '--', '-'].includes(t[p][1]);

	const primary = (): X => {
		const [kind, v] = t[p];
		if (kind === 'e') fail();
		p++;
		if (kind === 'n') return { g: () => +v };
		if (kind === 's') return { g: () => v };
		if (kind === 'r') {
			const re = regex(v);
			return { re, g: () => +!!re.exec(fields[0]) };
		}
		if (v === '$') {
			const e = primary();
			const i = () => Math.max(0, Math.trunc(num(e.g())));
			return { g: () => fields[i()] ?? '', s: (x) => setField(i(), x) };
		}
		if (v === '(') {
			const list = [expr()];
			while (is(',')) {
				p++;
				list.push(expr());
			}
			eat(')');
			return list.length > 1 ? { g: list[0].g, list: list.map((x) => x.g) } : list[0];
		}
		if (v === '!' || v === '-' || v === '+') {
			const e = primary();
			return { g: () => (v === '!' ? +!truth(e.g()) : v === '-' ? -num(e.g()) : num(e.g())) };
		}
		if (v === '++' || v === '--') {
			const l = primary();
			if (!l.s) fail();
			const set = l.s as (v: V) => void;
			return { g: () => (set(num(l.g()) + (v === '++' ? 1 : -1)), l.g()) };
		}
		if (kind !== 'i') return (p--, fail());
		if (['for', 'while', 'do', 'getline', 'function', 'delete', 'split', 'in', 'system', 'printf'].includes(v) || is('['))
			throw new AwkError(`${is('[') ? 'arrays' : `'${v}'`} not supported in this simulated awk`);
		if (is('(') || v === 'length') return call(v);
		const x: X = { g: () => get(v), s: (val) => (v === 'NF' ? setField(Math.trunc(num(val)), fields[Math.trunc(num(val))] ?? '') : vars.set(v, val)) };
		if (is('++') || is('--')) {
			const d = t[p++][1] === '++' ? 1 : -1;
			return {
				g: () => {
					const old = num(x.g());
					x.s?.(old + d);
					return old;
				},
			};
		}
		return x;
	};

	const call = (name: string): X => {
		const args: X[] = [];
		if (is('(')) {
			p++;
			while (!is(')')) {
				args.push(expr());
				if (!is(')')) eat(',');
			}
			p++;
		}
		const a = (i: number) => str(args[i] ? args[i].g() : i ? '' : fields[0]);
		switch (name) {
			case 'length':
				return { g: () => a(0).length };
			case 'substr':
				return {
					g: () => {
						const s = a(0),
							m = Math.round(num(a(1))),
							n = args[2] ? Math.round(num(a(2))) : Infinity;
						return s.slice(Math.max(m, 1) - 1, Math.max(0, Math.min(m + n, s.length + 1) - 1));
					},
				};
			case 'index':
				return { g: () => a(0).indexOf(a(1)) + 1 };
			case 'tolower':
				return { g: () => a(0).toLowerCase() };
			case 'toupper':
				return { g: () => a(0).toUpperCase() };
			case 'int':
				return { g: () => Math.trunc(num(a(0))) };
			case 'sprintf':
				return {
					g: () =>
						format(
							a(0),
							args.slice(1).map((x) => x.g()),
							num,
						),
				};
			case 'sub':
			case 'gsub': {
				// sub/gsub(regex, replacement [, target]): `&` is the match, `\&` a literal &.
				const target = args[2] ?? { g: () => fields[0], s: (v: V) => setField(0, v) };
				if (!target.s) throw new AwkError(`${name}: third argument is not a variable or field`);
				const set = target.s;
				return {
					g: () => {
						const s = str(target.g()),
							rep = a(1);
						const r = substitute(
							args[0]?.re ?? regex(a(0)),
							s,
							(m) => rep.replace(/\\\\|\\&|&/g, (x) => (x === '&' ? s.slice(m[0], m[1]) : x[1])),
							name === 'gsub',
						);
						if (r.n) set(r.out);
						return r.n;
					},
				};
			}
		}
		throw new AwkError(`function ${name} never defined`);
	};

	const binary = (op: string, x: X, y: X): E => {
		if (op === '~' || op === '!~') return () => +(!!(y.re ?? regex(str(y.g()))).exec(str(x.g())) === (op === '~'));
		if (op === '&&') return () => +(truth(x.g()) && truth(y.g()));
		if (op === '||') return () => +(truth(x.g()) || truth(y.g()));
		if (op === ' ') return () => str(x.g()) + str(y.g());
		if (BIN[op] === 4)
			return () => {
				const a = x.g(),
					b = y.g();
				const c = isNum(a) && isNum(b) ? num(a) - num(b) : str(a) < str(b) ? -1 : +(str(a) > str(b));
				return +(op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '==' ? !c : !!c);
			};
		return () => arith(op, x.g(), y.g());
	};
	const arith = (op: string, a: V, b: V) => {
		const x = num(a),
			y = num(b);
		if ((op === '/' || op === '%') && !y) throw new AwkError('division by zero');
		return op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
	};
	/** Binary operators by precedence; juxtaposition is concatenation. `>` is output redirection inside print, so it is not taken there. */
	const climb = (min: number, inPrint: boolean): X => {
		let x = primary();
		for (;;) {
			let op = t[p][0] === 'p' ? t[p][1] : '';
			if (!(op in BIN) || (inPrint && op === '>')) op = startsOperand() && op !== '-' ? ' ' : '';
			const prec = BIN[op];
			if (!op || prec < min) return x;
			if (op !== ' ') p++;
			if (op === '&&' || op === '||') nls();
			const y = climb(prec + 1, inPrint);
			x = { g: binary(op, x, y) };
		}
	};
	const expr = (inPrint = false): X => {
		const x = climb(1, inPrint),
			op = t[p][1];
		if (x.s && t[p][0] === 'p' && /^[-+*/%]?=$/.test(op)) {
			p++;
			const y = expr(inPrint),
				set = x.s;
			return {
				g: () => {
					const v = op === '=' ? y.g() : arith(op[0], x.g(), y.g());
					set(v);
					return v;
				},
			};
		}
		return x;
	};

	const end = () => (is(';') || t[p][0] === '\n' ? p++ : is('}') || t[p][0] === 'e' ? 0 : fail());
	const stmt = (): (() => void) => {
		nls();
		const v = t[p][0] === 'i' ? t[p][1] : '';
		if (is('{')) return block();
		if (is(';')) return (p++, () => {});
		if (v === 'print' || v === 'printf') {
			p++;
			let args: E[] = [];
			if (!is(';') && !is('}') && !'\ne'.includes(t[p][0])) {
				const first = expr(true);
				args = first.list ?? [first.g];
				while (is(',')) {
					p++;
					nls();
					args.push(expr(true).g);
				}
			}
			if (is('>') || is('|')) throw new AwkError('output redirection not supported in this simulated awk');
			end();
			return v === 'print'
				? () => out.add((args.length ? args.map((f) => str(f())).join(str(get('OFS'))) : fields[0]) + str(get('ORS')))
				: () =>
						out.add(
							args.length
								? format(
										str(args[0]()),
										args.slice(1).map((f) => f()),
										num,
									)
								: fail(),
						);
		}
		if (v === 'if') {
			p++;
			eat('(');
			const c = expr();
			eat(')');
			const a = stmt(),
				save = p;
			nls();
			if (is(';')) {
				p++;
				nls();
			}
			const b = t[p][1] === 'else' ? (p++, stmt()) : ((p = save), undefined);
			return () => (truth(c.g()) ? a() : b?.());
		}
		if (v === 'next' || v === 'exit') {
			p++;
			const code = v === 'exit' && startsOperand() ? expr() : undefined;
			end();
			return () => {
				if (v === 'next') next = true;
				else {
					quit = true;
					if (code) status = num(code.g()) & 255;
				}
			};
		}
		const e = expr();
		end();
		return () => void e.g();
	};
	const block = (): (() => void) => {
		eat('{');
		const body: Array<() => void> = [];
		for (nls(); !is('}'); nls()) {
			if (t[p][0] === 'e') fail();
			body.push(stmt());
		}
		p++;
		return () => {
			for (const s of body) if (!next && !quit) s();
		};
	};

	try {
		const begin: Array<() => void> = [],
			ends: Array<() => void> = [],
			rules: Array<{ pat?: X; act?: () => void }> = [];
		for (nls(); t[p][0] !== 'e'; nls()) {
			if (is(';')) p++;
			else if (t[p][1] === 'BEGIN' || t[p][1] === 'END') {
				(t[p++][1] === 'BEGIN' ? begin : ends).push((nls(), block()));
			} else {
				const pat = is('{') ? undefined : expr();
				rules.push({ pat, act: is('{') ? block() : undefined });
			}
		}
		for (const v of assigns) {
			const eq = v.indexOf('=');
			if (!/^[A-Za-z_]\w*$/.test(v.slice(0, eq))) throw new AwkError(`improper assignment: -v ${v}`);
			vars.set(v.slice(0, eq), unescape(v.slice(eq + 1), 'printf').s);
		}
		for (const s of begin) if (!quit) s();
		let err = '';
		if (!quit && (rules.length || ends.length)) {
			const r = readAll(ctx, files, 'awk');
			err = r.err.replace(/^awk: (.*): (.*)$/gm, 'awk: cannot open $1 ($2)');
			let nr = 0;
			for (const { text } of r.ins) {
				let fnr = 0;
				for (const l of lines(text)) {
					vars.set('NR', ++nr);
					vars.set('FNR', ++fnr);
					setField(0, l);
					next = false;
					for (const { pat, act } of rules) {
						if (next || quit) break;
						if (pat && !truth(pat.g())) continue;
						if (act) act();
						else out.add(fields[0] + str(get('ORS')));
					}
					if (quit) break;
				}
				if (quit) break;
			}
		}
		quit = false;
		for (const s of ends) if (!quit) s();
		return res(out.toString(), err, err ? 2 : status);
	} catch (e) {
		if (e instanceof AwkError || e instanceof RegexError) return res(out.toString(), `awk: line 1: ${e.message}\n`, 2);
		throw e;
	}
};
