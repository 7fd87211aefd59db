/**
 * `pgrep` and `pidof` from procps-ng 4.0.4, over the same process table as
 * ps: `pgrep PATTERN` (an extended regular expression matched against the
 * process name, or the whole command line with `-f`; `-x` for an exact
 * match), `-a` (PID and command line), `-l` (PID and name); pgrep never
 * lists itself. `pidof NAME...` prints the PIDs of the programs so named on
 * one line, highest first. Both exit 1 when nothing matches.
 *
 * Mirrors procps-ng/procps src/pgrep.c (select_procs, the -a/-l output,
 * the usage errors), procps-ng/procps src/pidof.c (select_procs, the
 * output loop).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import type { PsDeps } from './ps.ts';

const PGREP_USAGE_HINT = "\nTry `pgrep --help' for more information.\n";

export function createPgrep(deps: Pick<PsDeps, 'processes'>): CommandHandler {
	return (ctx: CommandContext): CommandResult => {
		let full = false;
		let listFull = false;
		let listName = false;
		let exact = false;
		const patterns: string[] = [];
		for (const arg of ctx.argv.slice(1)) {
			if (arg === '--full') full = true;
			else if (arg === '--list-full') listFull = true;
			else if (arg === '--list-name') listName = true;
			else if (arg === '--exact') exact = true;
			else if (arg.startsWith('--')) return { stdout: '', stderr: `pgrep: unrecognized option '${arg}'${PGREP_USAGE_HINT}`, exitCode: 2 };
			else if (arg.startsWith('-') && arg.length > 1) {
				for (const ch of arg.slice(1)) {
					if (ch === 'f') full = true;
					else if (ch === 'a') listFull = true;
					else if (ch === 'l') listName = true;
					else if (ch === 'x') exact = true;
					else return { stdout: '', stderr: `pgrep: invalid option -- '${ch}'${PGREP_USAGE_HINT}`, exitCode: 2 };
				}
			} else patterns.push(arg);
		}
		if (patterns.length === 0) return { stdout: '', stderr: `pgrep: no matching criteria specified${PGREP_USAGE_HINT}`, exitCode: 2 };
		if (patterns.length > 1) return { stdout: '', stderr: `pgrep: only one pattern can be provided${PGREP_USAGE_HINT}`, exitCode: 2 };
		let re: RegExp;
		try {
			re = new RegExp(exact ? `^(?:${patterns[0]})$` : patterns[0]);
		} catch {
			return { stdout: '', stderr: 'pgrep: invalid regular expression\n', exitCode: 2 };
		}
		const procs = deps.processes(ctx).sort((a, b) => a.pid - b.pid);
		const matched = procs.filter((p) => p.comm !== 'pgrep' && re.test(full && p.argv.length ? p.argv.join(' ') : p.comm));
		const lines = matched.map((p) => {
			if (listFull) return `${p.pid} ${p.argv.length ? p.argv.join(' ') : p.comm}`;
			if (listName) return `${p.pid} ${p.comm}`;
			return String(p.pid);
		});
		return { stdout: lines.map((l) => l + '\n').join(''), stderr: '', exitCode: matched.length ? 0 : 1 };
	};
}

export function createPidof(deps: Pick<PsDeps, 'processes'>): CommandHandler {
	return (ctx: CommandContext): CommandResult => {
		const names = ctx.argv.slice(1).filter((a) => !a.startsWith('-'));
		const procs = deps.processes(ctx).sort((a, b) => a.pid - b.pid);
		// A program is named by its argv[0]'s base name, or by its comm when it has no command line.
		const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);
		const found = procs.filter((p) => p.comm !== 'pidof' && names.some((n) => base(n) === (p.argv.length ? base(p.argv[0]) : p.comm)));
		if (!found.length) return { stdout: '', stderr: '', exitCode: 1 };
		return { stdout: found.map((p) => p.pid).reverse().join(' ') + '\n', stderr: '', exitCode: 0 };
	};
}
