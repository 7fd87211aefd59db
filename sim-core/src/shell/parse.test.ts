import { describe, expect, it } from 'vitest';
import { Parser, ShellSyntaxError, parse, type AndOr, type ForCommand, type SimpleCommand, type Word } from './parse.ts';

/** A word as text, with expansions shown as ${name} / $(src) and quoted literal parts in «». */
const w = (word: Word) =>
	word.map((p) => (p.k === 'lit' ? (p.q ? `«${p.v}»` : p.v) : p.k === 'var' ? `\${${p.v}${p.op ?? ''}${p.arg ?? ''}}` : `$(${p.v})`)).join('');
/** A simple command as [assigns..., words..., redirs...]; a loop as `for NAME in WORDS { LIST }`. */
const cmdText = (cmd: SimpleCommand | ForCommand): string =>
	'k' in cmd
		? `for ${cmd.name}${cmd.words ? ` in ${cmd.words.map(w).join(' ')}` : ''} { ${cmd.body.map(listText).join('; ')} }`
		: [...cmd.assigns.map((a) => `${a.name}=${w(a.value)}`), ...cmd.words.map(w), ...cmd.redirs.map((r) => `${r.fd}${r.op}${w(r.target)}`)].join(' ');
const listText = (ao: AndOr): string =>
	ao.map(({ op, pipe }) => (op ? op + ' ' : '') + (pipe.bang ? '! ' : '') + pipe.cmds.map(cmdText).join(' | ')).join(' ');
/** Each complete command's lists, as text. */
const show = (src: string) => parse(src).map((c) => c.list.map(listText));

describe('tokenizer and parser', () => {
	it.each<[string, unknown]>([
		['echo hello world', [['echo hello world']]],
		['  echo   a\tb  ', [['echo a b']]],
		['echo \'a b\' "c $X"', [['echo «a b» «c »${X}']]],
		['echo "a\\"b\\\\c\\$d\\e"', [['echo «a"b\\c$d\\e»']]],
		['echo a\\ b \\$x', [['echo a« »b «$»x']]],
		["echo ''", [['echo «»']]],
		['echo $HOME ${X} ${X:-d} ${#X} $? $1', [['echo ${HOME} ${X} ${X:-d} ${X#} ${?} ${1}']]],
		['echo $(ls -l | wc) `date`', [['echo $(ls -l | wc) $(date)']]],
		['echo "$(echo ")")"', [['echo «»$(echo ")")']]],
		['echo $(echo $(echo a))', [['echo $(echo $(echo a))']]],
		["echo $'a\\tb'", [['echo «a\tb»']]],
		['echo ~ ~/x a~', [['echo ${~} ${~}/x a~']]],
		['echo a # comment', [['echo a']]],
		['for p in $(kubectl get pods -o name); do kubectl logs $p; done', [['for p in $(kubectl get pods -o name) { kubectl logs ${p} }']]],
		['for i in 1 2\ndo\n  echo $i\n  echo done\ndone | sort; echo after', [['for i in 1 2 { echo ${i}; echo done } | sort', 'echo after']]],
		['for x; do echo $x; done', [['for x { echo ${x} }']]],
		['echo a#b', [['echo a#b']]],
		['a | b | c', [['a | b | c']]],
		['a && b || c', [['a && b || c']]],
		['a; b & c', [['a', 'b', 'c']]],
		['a\nb\n\nc', [['a'], ['b'], ['c']]],
		['a \\\n  b', [['a b']]],
		['a |\n b &&\n c', [['a | b && c']]],
		['! a | b', [['! a | b']]],
		['X=1 Y="a b" cmd arg', [['X=1 Y=«a b» cmd arg']]],
		['X=1', [['X=1']]],
		['KUBECONFIG=~/.kube/config kubectl', [['KUBECONFIG=${~}/.kube/config kubectl']]],
		['echo X=1', [['echo X=1']]],
		['"X"=1 cmd', [['«X»=1 cmd']]],
		['cmd > out 2> err >> app < in', [['cmd 1>out 2>err 1>>app 0<in']]],
		['cmd 2>&1 >/dev/null &> all &>> all2', [['cmd 2>&1 1>/dev/null 1&>all 1&>>all2']]],
		['cmd >| f <<< "s"', [['cmd 1>f 0<<<«s»']]],
		['cat <<EOF\nhello $X\nEOF', [['cat 0<<«hello »${X}«\n»']]],
		["cat <<'EOF'\nhello $X\nEOF", [['cat 0<<«hello $X\n»']]],
		['cat <<"EOF"\n$X\nEOF', [['cat 0<<«$X\n»']]],
		['cat <<\\EOF\n$X\nEOF', [['cat 0<<«$X\n»']]],
		['cat <<-EOF\n\ta\n\t\tb\n\tEOF', [['cat 0<<«a\nb\n»']]],
		['cat <<A | cat <<B\n1\nA\n2\nB\necho', [['cat 0<<«1\n» | cat 0<<«2\n»'], ['echo']]],
		['cat <<EOF\n\\$X \\\\ \\" `echo a`\nEOF', [['cat 0<<«$X \\ \\" »$(echo a)«\n»']]],
	])('%j', (src, expected) => {
		expect(show(src)).toEqual(expected);
	});

	it('keeps the source of each line for history, here-document included', () => {
		expect(parse('echo a; echo b\ncat <<EOF\nx\nEOF\n\nls').map((c) => c.text)).toEqual(['echo a; echo b', 'cat <<EOF\nx\nEOF', 'ls']);
	});

	it('produces plain data', () => {
		const ast = parse('A=1 kubectl get pods -o wide | grep -v Running > out.txt');
		expect(JSON.parse(JSON.stringify(ast))).toEqual(ast);
		expect(ast[0].list[0][0].pipe.cmds[0]).toEqual({
			assigns: [{ name: 'A', value: [{ k: 'lit', v: '1', q: false }] }],
			words: ['kubectl', 'get', 'pods', '-o', 'wide'].map((v) => [{ k: 'lit', v, q: false }]),
			redirs: [],
		});
	});

	it.each<[string, string]>([
		['| foo', "bash: syntax error near unexpected token '|'"],
		['echo a | | b', "bash: syntax error near unexpected token '|'"],
		['&& b', "bash: syntax error near unexpected token '&&'"],
		['a && && b', "bash: syntax error near unexpected token '&&'"],
		['; a', "bash: syntax error near unexpected token ';'"],
		['a ;; b', "bash: syntax error near unexpected token ';;'"],
		['a )', "bash: syntax error near unexpected token ')'"],
		["echo 'abc", "bash: unexpected EOF while looking for matching '''"],
		['echo "abc', "bash: unexpected EOF while looking for matching '\"'"],
		['echo $(ls', "bash: unexpected EOF while looking for matching ')'"],
		['echo `ls', "bash: unexpected EOF while looking for matching '`'"],
		['echo ${X', "bash: unexpected EOF while looking for matching '}'"],
		['ls &&', 'bash: syntax error: unexpected end of file'],
		['ls |', 'bash: syntax error: unexpected end of file'],
		['echo >', "bash: syntax error near unexpected token 'newline'"],
		['echo > | x', "bash: syntax error near unexpected token '|'"],
		['cat <<', "bash: syntax error near unexpected token 'newline'"],
		['done', "bash: syntax error near unexpected token 'done'"],
		['for i in 1 2; do echo $i; don', 'bash: syntax error: unexpected end of file'],
		['for i in 1 2; echo $i; done', "bash: syntax error near unexpected token 'echo'"],
		['for 1x in a; do echo; done', "bash: `1x': not a valid identifier"],
		['for i in a; do done', "bash: syntax error near unexpected token 'done'"],
		['for i in a; do echo $i; done > out', 'bash: redirections of a whole loop (`done > file`): not supported in this simulated shell'],
		['while true; do echo; done', "bash: 'while' (compound commands): not supported in this simulated shell"],
		['if true; then echo; fi', "bash: 'if' (compound commands): not supported in this simulated shell"],
		['( ls )', "bash: '( ... )' (subshells): not supported in this simulated shell"],
		['echo $((1+2))', 'bash: arithmetic expansion $((...)): not supported in this simulated shell'],
		['ls | tee >(wc -l)', "bash: process substitution '>(...)': not supported in this simulated shell"],
		['echo ${a b}', 'bash: ${a b}: bad substitution'],
	])('rejects %j', (src, message) => {
		let err: unknown;
		try {
			parse(src);
		} catch (e) {
			err = e;
		}
		expect(err).toBeInstanceOf(ShellSyntaxError);
		expect((err as Error).message).toBe(message);
	});

	it('recovers at the next line after an error, like interactive bash', () => {
		const p = new Parser('echo 1\necho | | x\necho 2\necho "open\nstill open');
		const seen: string[] = [];
		for (let i = 0; i < 10; i++) {
			try {
				const c = p.next();
				if (!c) break;
				seen.push(c.text);
			} catch (e) {
				seen.push('ERR');
				p.recover(e as ShellSyntaxError);
			}
		}
		expect(seen).toEqual(['echo 1', 'ERR', 'echo 2', 'ERR']);
	});

	it('warns when a here-document runs to the end of input', () => {
		const p = new Parser('cat <<EOF\nno end');
		const c = p.next();
		expect((c?.list[0][0].pipe.cmds[0] as SimpleCommand).redirs[0].target).toEqual([{ k: 'lit', v: 'no end\n', q: true }]);
		expect(p.warnings).toEqual(["bash: warning: here-document at line 1 delimited by end-of-file (wanted 'EOF')"]);
	});
});
