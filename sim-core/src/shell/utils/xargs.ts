/**
 * xargs: build command lines from stdin and run them through the session, as GNU xargs runs them as child processes.
 *
 * Mirrors gnu/findutils xargs/xargs.c.
 */
import type { CommandHandler } from '../types.ts';
import { count, lines, opt, res, tool } from './common.ts';

/** Most commands one xargs may start. */
const XARGS_MAX = 1000;

/** xargs [-n N] [-I R] [-r] [COMMAND [ARG]...] (default command: echo). Items are separated by blanks and newlines; -I takes whole lines. */
export const xargs: CommandHandler = tool(
	'xargs',
	'n:I:rP:',
	1,
	(c, o) => {
		const rep = opt(o, 'I'),
			cmd = o.a.length ? o.a : ['echo'];
		const n = count(opt(o, 'n') ?? '0', 'invalid number for -n option');
		const items =
			rep !== undefined
				? lines(c.stdin)
						.map((l) => l.trim())
						.filter(Boolean)
				: c.stdin.split(/\s+/).filter(Boolean);
		const batches: string[][] = [];
		for (let i = 0; i < items.length; i += rep !== undefined ? 1 : n || items.length)
			batches.push(items.slice(i, i + (rep !== undefined ? 1 : n || items.length)));
		// Like GNU xargs, run once even without input, unless -r (or -I, which needs an item).
		if (!batches.length && rep === undefined && !o.f.has('r')) batches.push([]);
		if (!c.shell.lookup(cmd[0])) return res('', `xargs: ${cmd[0]}: No such file or directory\n`, 127);
		let out = '',
			err = '',
			status = 0;
		for (const [k, b] of batches.entries()) {
			if (k >= XARGS_MAX) return res(out, err + `xargs: too many commands (limit ${XARGS_MAX} in this simulated shell)\n`, 1);
			const r = c.shell.run(rep !== undefined ? cmd.map((a) => a.split(rep).join(b[0])) : [...cmd, ...b]);
			out += r.stdout;
			err += r.stderr;
			if (r.exitCode === 255) return res(out, err + `xargs: ${cmd[0]}: exited with status 255; aborting\n`, 124);
			if (r.exitCode) status = 123;
		}
		return res(out, err, status);
	},
	{},
	true,
);
