/**
 * bash builtins: commands that act on the shell itself (cd, export, exit…)
 * or that bash runs without a process (echo, printf, true). `type` reports
 * these as "a shell builtin"; they take precedence over every other command.
 *
 * Mirrors gnu/bash builtins/cd.def, gnu/bash builtins/echo.def, gnu/bash
 * builtins/printf.def, gnu/bash builtins/setattr.def (export), gnu/bash
 * builtins/set.def (unset), gnu/bash builtins/exit.def, gnu/bash
 * builtins/history.def, gnu/bash builtins/type.def, gnu/bash
 * builtins/source.def, gnu/bash builtins/alias.def, gnu/bash
 * builtins/colon.def (true, false, :).
 */
import { format, unescape } from './format.ts';
import { FsError } from '../host/fs.ts';
import type { CommandHandler } from './types.ts';
import { res } from './utils/common.ts';

const NAME = /^[A-Za-z_]\w*$/;
const quote = (v: string) => '"' + v.replace(/["\\$`]/g, '\\$&') + '"';

const cd: CommandHandler = ({ argv, shell }) => {
	if (argv.length > 2) return res('', 'bash: cd: too many arguments\n', 1);
	let t = argv[1] ?? shell.getVar('HOME') ?? shell.host.home;
	const back = t === '-';
	if (back) {
		t = shell.getVar('OLDPWD') ?? '';
		if (!t) return res('', 'bash: cd: OLDPWD not set\n', 1);
	}
	if (!t) return res();
	try {
		shell.chdir(t);
	} catch (e) {
		if (e instanceof FsError) return res('', `bash: cd: ${t}: ${e.message}\n`, 1);
		throw e;
	}
	return res(back ? shell.cwd + '\n' : '');
};

const echo: CommandHandler = ({ argv }) => {
	let i = 1,
		nl = true,
		esc = false;
	for (; i < argv.length && /^-[neE]+$/.test(argv[i]); i++)
		for (const c of argv[i].slice(1))
			if (c === 'n') nl = false;
			else esc = c === 'e';
	const u = esc ? unescape(argv.slice(i).join(' '), 'echo') : { s: argv.slice(i).join(' '), stop: false };
	return res(u.s + (nl && !u.stop ? '\n' : ''));
};

const printf: CommandHandler = ({ argv }) => {
	let a = argv.slice(1);
	if (a[0] === '--') a = a.slice(1);
	if (!a.length) return res('', 'bash: printf: usage: printf [-v var] format [arguments]\n', 2);
	let err = '';
	const num = (x: string | number) => {
		const s = String(x).trim();
		const n = /^'./.test(s) || /^"./.test(s) ? s.charCodeAt(1) : /^[-+]?0x[\da-f]+$/i.test(s) ? parseInt(s, 16) : Number(s);
		if (isNaN(n) || s === '') {
			if (s !== '') err += `bash: printf: ${s}: invalid number\n`;
			return parseFloat(s) || 0;
		}
		return n;
	};
	return res(format(unescape(a[0], 'printf').s, a.slice(1), num, true), err, err ? 1 : 0);
};

const exportB: CommandHandler = ({ argv, shell }) => {
	const args = argv.slice(1).filter((a) => a !== '-p');
	if (!args.length) {
		const env = shell.environment();
		return res(
			Object.keys(env)
				.sort()
				.map((k) => `declare -x ${k}=${quote(env[k])}\n`)
				.join(''),
		);
	}
	let err = '';
	for (const a of args) {
		const eq = a.indexOf('='),
			name = eq < 0 ? a : a.slice(0, eq);
		if (!NAME.test(name)) err += `bash: export: '${a}': not a valid identifier\n`;
		else if (eq >= 0) shell.setVar(name, a.slice(eq + 1), true);
		else shell.exportVar(name);
	}
	return res('', err, err ? 1 : 0);
};

const unset: CommandHandler = ({ argv, shell }) => {
	let err = '';
	for (const a of argv.slice(1)) {
		if (NAME.test(a)) shell.unsetVar(a);
		else err += `bash: unset: '${a}': not a valid identifier\n`;
	}
	return res('', err, err ? 1 : 0);
};

const exit: CommandHandler = ({ argv, shell }) => {
	const a = argv[1];
	if (a !== undefined && !/^[-+]?\d+$/.test(a)) return shell.exitShell(2, `bash: exit: ${a}: numeric argument required\n`);
	return shell.exitShell(a === undefined ? shell.status : Number(a) & 255);
};

const history: CommandHandler = ({ argv, shell }) => {
	if (argv[1] === '-c') return (shell.clearHistory(), res());
	const h = shell.history(),
		base = shell.historyStart();
	const n = argv[1] === undefined ? h.length : Number(argv[1]);
	if (!Number.isInteger(n) || n < 0) return res('', `bash: history: ${argv[1]}: numeric argument required\n`, 1);
	return res(
		h
			.map((l, i) => `${String(base + i).padStart(5)}  ${l}\n`)
			.slice(h.length - Math.min(n, h.length))
			.join(''),
	);
};

const type: CommandHandler = ({ argv, shell }) => {
	let out = '',
		err = '';
	for (const n of argv.slice(1)) {
		const al = shell.aliases().get(n),
			f = shell.lookup(n);
		if (al !== undefined) out += `${n} is aliased to '${al}'\n`;
		else if (f) out += f.builtin ? `${n} is a shell builtin\n` : `${n} is /usr/bin/${n}\n`;
		else err += `bash: type: ${n}: not found\n`;
	}
	return res(out, err, err ? 1 : 0);
};

const source: CommandHandler = ({ argv, shell, host, stdin }) => {
	const f = argv[1];
	if (f === undefined) return res('', `bash: ${argv[0]}: filename argument required\n${argv[0]}: usage: ${argv[0]} filename [arguments]\n`, 2);
	let text: string;
	try {
		text = host.fs.readFile(f);
	} catch (e) {
		if (e instanceof FsError) return res('', `bash: ${f}: ${e.message}\n`, 1);
		throw e;
	}
	// A completion script (`source <(kubectl completion bash)`) only defines functions and registers them with
	// `complete`: silent in bash. This shell has no functions, and its Tab completion is built in, so sourcing one
	// succeeds quietly instead of failing on the function syntax.
	if (/^# bash completion\b/.test(text)) return res();
	return shell.runScript(text, { stdin });
};

const alias: CommandHandler = ({ argv, shell }) => {
	const al = shell.aliases();
	let out = '',
		err = '';
	const show = (n: string) => `alias ${n}='${(al.get(n) ?? '').replace(/'/g, "'\\''")}'\n`;
	if (argv.length < 2) out = [...al.keys()].sort().map(show).join('');
	for (const a of argv.slice(1)) {
		const eq = a.indexOf('=');
		if (eq > 0) al.set(a.slice(0, eq), a.slice(eq + 1));
		else if (al.has(a)) out += show(a);
		else err += `bash: alias: ${a}: not found\n`;
	}
	return res(out, err, err ? 1 : 0);
};

const ok: CommandHandler = () => res();

/** bash builtins by name. */
export const BUILTINS = new Map<string, CommandHandler>([
	['cd', cd],
	['pwd', ({ shell }) => res(shell.cwd + '\n')],
	['echo', echo],
	['printf', printf],
	['export', exportB],
	['unset', unset],
	['exit', exit],
	['logout', exit],
	['history', history],
	['type', type],
	['source', source],
	['.', source],
	['alias', alias],
	['true', ok],
	[':', ok],
	['false', () => res('', '', 1)],
	// Tab completion has no meaning here; accepting it lets the usual `complete -F __start_kubectl k` line pass.
	['complete', ok],
]);

/** Builtins that also exist as programs in /usr/bin (so `which` finds them). */
export const ALSO_PROGRAMS = new Set(['echo', 'printf', 'pwd', 'true', 'false']);
