import { describe, expect, it } from 'vitest';
import { compileScript, evalArithmetic, ShellSyntaxError, tokenize } from './sh.ts';

describe('the shell tokenizer keeps quoting', () => {
	it('splits words, operators and redirections', () => {
		const toks = tokenize(`echo 'a b' "c $X" d>>/tmp/f 2>&1 && true || false; sleep 1 &`);
		expect(toks.map((t) => (t.k === 'word' ? `w:${t.raw}` : t.k === 'op' ? `o:${t.v}` : `r:${t.fd}${t.op}`))).toEqual(['w:echo', "w:'a b'", 'w:"c $X"', 'w:d', 'r:1>>', 'w:/tmp/f', 'r:2>&1', 'o:&&', 'w:true', 'o:||', 'w:false', 'o:;', 'w:sleep', 'w:1', 'o:&']);
	});

	it('reads $VAR, ${VAR}, $? , $(cmd) and $((expr)) as expansions', () => {
		const [word] = tokenize('x$A${B}$?$(date)$((1+2))').map((t) => (t.k === 'word' ? t.w.parts : []));
		expect(word).toEqual([
			{ t: 'lit', v: 'x' },
			{ t: 'var', name: 'A' },
			{ t: 'var', name: 'B' },
			{ t: 'var', name: '?' },
			{ t: 'cmd', script: 'date' },
			{ t: 'arith', expr: '1+2' },
		]);
	});

	it('refuses an unterminated quote', () => {
		expect(() => tokenize(`echo "oops`)).toThrow(ShellSyntaxError);
	});
});

describe('scripts compile to bytecode with jumps', () => {
	it('compiles a while loop as test, exit jump, body, back jump', () => {
		const { code, single } = compileScript('while true; do echo hi; sleep 1; done');
		expect(code.map((i) => i.op)).toEqual(['cmd', 'jnz', 'cmd', 'cmd', 'jmp', 'status']);
		expect(code[1]).toEqual({ op: 'jnz', to: 5 });
		expect(code[4]).toEqual({ op: 'jmp', to: 0 });
		expect(single).toBe(false);
	});

	it('compiles && and || as conditional jumps', () => {
		const { code } = compileScript('a && b || c');
		expect(code.map((i) => (i.op === 'cmd' ? 'cmd' : `${i.op}->${(i as { to: number }).to}`))).toEqual(['cmd', 'jnz->3', 'cmd', 'jz->5', 'cmd']);
	});

	it('compiles if/elif/else and for loops', () => {
		expect(compileScript('if test -f /x; then echo yes; elif false; then echo maybe; else echo no; fi').code.map((i) => i.op)).toEqual(['cmd', 'jnz', 'cmd', 'jmp', 'cmd', 'jnz', 'cmd', 'jmp', 'cmd']);
		expect(compileScript('for i in 1 2 3; do echo $i; done').code.map((i) => i.op)).toEqual(['forinit', 'fornext', 'cmd', 'jmp', 'status']);
	});

	it('marks a lone simple command as single (the shell execs it as PID 1)', () => {
		expect(compileScript("nginx -g 'daemon off;'").single).toBe(true);
		expect(compileScript('echo a; echo b').single).toBe(false);
	});

	it.each([
		['done', 'syntax error: unexpected "done"'],
		['while true; do echo', 'syntax error: unexpected end of file'],
		['if true; then echo x', 'syntax error: unexpected end of file'],
	])('reports `%s` as %s', (script, message) => {
		expect(() => compileScript(script)).toThrow(message);
	});
});

describe('$(( )) arithmetic', () => {
	it.each([
		['1+2*3', {}, 7],
		['(1+2)*3', {}, 9],
		['i+1', { i: '41' }, 42],
		['$i*2', { i: '5' }, 10],
		['7/2', {}, 3],
		['7%3', {}, 1],
		['i<3', { i: '2' }, 1],
		['-4+1', {}, -3],
		['unset+1', {}, 1],
	])('%s with %j is %d', (expr, vars, expected) => {
		expect(evalArithmetic(expr, vars)).toBe(expected);
	});

	it('is NaN on a syntax error', () => {
		expect(evalArithmetic('1+', {})).toBeNaN();
	});
});
