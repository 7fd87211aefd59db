/**
 * Programs every simulated host has besides the text utilities: ssh, sudo,
 * env, bash/sh, hostname, whoami, date, sleep, clear, which. They are found
 * after host-specific and registered commands, so the cluster wiring can
 * replace any of them.
 *
 * Mirrors openssh/openssh-portable ssh.c, coreutils/coreutils src/env.c,
 * coreutils/coreutils src/hostname.c, coreutils/coreutils src/whoami.c,
 * coreutils/coreutils src/date.c, coreutils/coreutils src/sleep.c.
 */
import { ALSO_PROGRAMS } from './builtins.ts';
import { DATE_DEFAULT, parseDateString, strftime } from './date.ts';
import { FsError } from '../host/fs.ts';
import type { CommandHandler } from './types.ts';
import { res, usage } from './utils/common.ts';
import { UTILS } from './utils/index.ts';

/** What `clear` writes: cursor home + erase display. The terminal UI can look for it (or just pass it to xterm). */
export const CLEAR_SCREEN = '\x1b[H\x1b[2J';

const SSH_USAGE =
	'usage: ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-i identity_file] [-l login_name]\n           [-o option] [-p port] destination [command [argument ...]]\n';

/** ssh [options] [user@]host [command...]: without a command, the session moves to that host until `exit`; with one, runs it there and returns. */
const ssh: CommandHandler = ({ argv, shell, stdin }) => {
	let i = 1;
	for (; i < argv.length && argv[i].startsWith('-'); i++) if (/^-[bcDEeFIiJLlmOoPpQRSWw]$/.test(argv[i])) i++;
	const dest = argv[i];
	if (dest === undefined) return res('', SSH_USAGE, 255);
	const name = dest.slice(dest.lastIndexOf('@') + 1),
		rest = argv.slice(i + 1);
	if (!shell.getHost(name)) return res('', `ssh: Could not resolve hostname ${name}: Name or service not known\n`, 255);
	if (rest.length) return shell.runOn(name, rest.join(' '), stdin);
	return shell.pushHost(name) ? res() : res('', `ssh: too many nested sessions (limit in this simulated shell)\n`, 255);
};

/** sudo [-E -H -n -S -i -s] [-u user] command...: the simulated hosts have no permissions, so it just runs the command. */
const sudo: CommandHandler = ({ argv, shell, stdin, env }) => {
	let i = 1;
	for (; i < argv.length && argv[i].startsWith('-'); i++) if (argv[i] === '-u' || argv[i] === '-g') i++;
	if (i >= argv.length)
		return /^-[is]$/.test(argv[i - 1] ?? '') ? res() : res('', 'usage: sudo -h | -K | -k | -V\nusage: sudo [-AbEHknPS] [-u user] command [arg ...]\n', 1);
	return shell.run(argv.slice(i), stdin, env);
};

/** env [NAME=VALUE]... [command...]: prints the environment, or runs a command with additions to it. */
const env: CommandHandler = ({ argv, shell, stdin, env }) => {
	const extra: Record<string, string> = { ...env };
	let i = 1;
	for (; i < argv.length && /^[A-Za-z_]\w*=/.test(argv[i]); i++) {
		const eq = argv[i].indexOf('=');
		Object.defineProperty(extra, argv[i].slice(0, eq), { value: argv[i].slice(eq + 1), enumerable: true, writable: true, configurable: true });
	}
	if (i < argv.length) return shell.run(argv.slice(i), stdin, extra);
	return res(
		Object.entries(extra)
			.map(([k, v]) => `${k}=${v}\n`)
			.join(''),
	);
};

/** bash/sh [-c STRING | FILE]: a child shell; with neither, runs stdin as a script (`curl … | bash`). */
const bash: CommandHandler = ({ argv, shell, stdin, host, env }) => {
	let i = 1;
	for (; i < argv.length && /^[-+][a-z]+$/i.test(argv[i]) && argv[i] !== '-c'; i++) if (argv[i] === '-o' || argv[i] === '+o') i++;
	if (argv[i] === '-c') {
		if (argv[i + 1] === undefined) return res('', `${argv[0]}: -c: option requires an argument\n`, 2);
		return shell.runScript(argv[i + 1], { stdin, isolate: true, env });
	}
	if (argv[i] !== undefined) {
		try {
			return shell.runScript(host.fs.readFile(argv[i]), { isolate: true, env });
		} catch (e) {
			if (e instanceof FsError) return res('', `${argv[0]}: ${argv[i]}: ${e.message}\n`, 127);
			throw e;
		}
	}
	return stdin ? shell.runScript(stdin, { isolate: true, env }) : res();
};

/** sleep NUMBER[smhd]...: advances the virtual clock through the session's onSleep hook. */
const sleep: CommandHandler = ({ argv, shell }) => {
	if (argv.length < 2) return usage('sleep', 'missing operand');
	let ms = 0;
	for (const a of argv.slice(1)) {
		const m = /^(\d+\.?\d*|\.\d+)([smhd]?)$/.exec(a);
		if (!m) return usage('sleep', `invalid time interval '${a}'`);
		ms += +m[1] * { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
	}
	shell.onSleep?.(Math.round(ms));
	return res();
};

/**
 * date [-u] [-d STRING] [-s STRING] [+FORMAT]: UTC on the machine's clock.
 * `-s` (root only) sets that clock, as on a real machine; the session's
 * setClock hook decides what a set clock means there.
 */
const date: CommandHandler = ({ argv, shell, host }) => {
	const machine = host.kind === 'node' ? host.name : undefined;
	let ms = shell.clock?.(machine) ?? 0,
		fmt = DATE_DEFAULT,
		set: string | undefined;
	for (let i = 1; i < argv.length; i++) {
		const a = argv[i];
		if (a[0] === '+') fmt = a.slice(1);
		else if (a === '-d' || a === '--date' || a.startsWith('--date=')) {
			const v = a.startsWith('--date=') ? a.slice(7) : (argv[++i] ?? '');
			const parsed = parseDateString(v, ms);
			if (parsed === undefined) return res('', `date: invalid date '${v}'\n`, 1);
			ms = parsed;
		} else if (a === '-s' || a === '--set' || a.startsWith('--set=')) {
			set = a.startsWith('--set=') ? a.slice(6) : argv[++i];
			if (set === undefined) return usage('date', "option requires an argument -- 's'");
		} else if (a !== '-u' && a !== '--utc') return a[0] === '-' ? usage('date', `invalid option -- '${a[1]}'`) : res('', `date: invalid date '${a}'\n`, 1);
	}
	if (set !== undefined) {
		const target = parseDateString(set, ms);
		if (target === undefined) return res('', `date: invalid date '${set}'\n`, 1);
		if (host.user !== 'root' || !machine || !shell.setClock) return res(strftime(fmt, target) + '\n', 'date: cannot set date: Operation not permitted\n', 1);
		shell.setClock(machine, target);
		ms = target;
	}
	return res(strftime(fmt, ms) + '\n');
};

const which: CommandHandler = ({ argv, shell }) => {
	let out = '',
		status = 0;
	for (const n of argv.slice(1).filter((a) => !a.startsWith('-'))) {
		const f = shell.lookup(n);
		if (f && (!f.builtin || ALSO_PROGRAMS.has(n))) out += `/usr/bin/${n}\n`;
		else status = 1;
	}
	return res(out, '', status);
};

/** Programs on every host, by name (the utilities included). */
export const COMMANDS = new Map<string, CommandHandler>([
	...UTILS,
	['ssh', ssh],
	['sudo', sudo],
	['env', env],
	['bash', bash],
	['sh', bash],
	['sleep', sleep],
	['date', date],
	['which', which],
	['hostname', ({ host }) => res(host.name + '\n')],
	['whoami', ({ host }) => res(host.user + '\n')],
	['clear', () => res(CLEAR_SCREEN)],
]);
