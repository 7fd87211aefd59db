/**
 * GNU getopt_long, as systemctl and journalctl parse their command lines:
 * options may come anywhere (operands are collected in order), `--` ends
 * the options, short options combine (`-xeu kubelet`), a short option's
 * argument may be attached (`-n20`) or follow, long options take `=value`
 * or the next word, and a unique prefix of a long option is accepted.
 * Errors are worded as glibc's getopt prints them.
 *
 * Mirrors gnu/glibc posix/getopt.c (getopt_long and its error wording).
 */

export interface OptSpec {
	key: string;
	short?: string;
	long?: string;
	arg: 'none' | 'required' | 'optional';
	/** For optional arguments given as the next word (journalctl -n 20, -b -1): whether that word is the argument. */
	takesNext?: (word: string) => boolean;
}

type GetoptResult = { ok: true; opts: Array<[string, string | undefined]>; operands: string[] } | { ok: false; error: string };

export function getopt(tool: string, args: readonly string[], specs: readonly OptSpec[]): GetoptResult {
	const opts: Array<[string, string | undefined]> = [];
	const operands: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a === '--') {
			operands.push(...args.slice(i + 1));
			break;
		}
		if (a.startsWith('--')) {
			const eq = a.indexOf('=');
			const name = a.slice(2, eq < 0 ? undefined : eq);
			const exact = specs.find((s) => s.long === name);
			const prefixed = specs.filter((s) => s.long?.startsWith(name));
			const spec = exact ?? (prefixed.length === 1 ? prefixed[0] : undefined);
			if (!spec) {
				if (prefixed.length > 1) return { ok: false, error: `${tool}: option '--${name}' is ambiguous; possibilities:${prefixed.map((s) => ` '--${s.long}'`).join('')}` };
				return { ok: false, error: `${tool}: unrecognized option '${a.slice(0, eq < 0 ? undefined : eq)}'` };
			}
			if (eq >= 0) {
				if (spec.arg === 'none') return { ok: false, error: `${tool}: option '--${spec.long}' doesn't allow an argument` };
				opts.push([spec.key, a.slice(eq + 1)]);
			} else if (spec.arg === 'required') {
				if (i + 1 >= args.length) return { ok: false, error: `${tool}: option '--${spec.long}' requires an argument` };
				opts.push([spec.key, args[++i]]);
			} else if (spec.arg === 'optional' && spec.takesNext && i + 1 < args.length && spec.takesNext(args[i + 1])) opts.push([spec.key, args[++i]]);
			else opts.push([spec.key, undefined]);
			continue;
		}
		if (a.startsWith('-') && a.length > 1) {
			for (let j = 1; j < a.length; j++) {
				const c = a[j];
				const spec = specs.find((s) => s.short === c);
				if (!spec) return { ok: false, error: `${tool}: invalid option -- '${c}'` };
				if (spec.arg === 'none') {
					opts.push([spec.key, undefined]);
					continue;
				}
				const rest = a.slice(j + 1);
				if (rest) opts.push([spec.key, rest]);
				else if (spec.arg === 'required') {
					if (i + 1 >= args.length) return { ok: false, error: `${tool}: option requires an argument -- '${c}'` };
					opts.push([spec.key, args[++i]]);
				} else if (spec.takesNext && i + 1 < args.length && spec.takesNext(args[i + 1])) opts.push([spec.key, args[++i]]);
				else opts.push([spec.key, undefined]);
				break;
			}
			continue;
		}
		operands.push(a);
	}
	return { ok: true, opts, operands };
}
