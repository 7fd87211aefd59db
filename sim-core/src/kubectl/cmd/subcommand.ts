/**
 * Cobra's nested commands (`kubectl create deployment`, `kubectl rollout
 * status`, `kubectl set image`, `kubectl auth can-i`): the parent finds its
 * subcommand among the positional arguments and parses the command line
 * again against the subcommand's own flags, so unknown flags are reported
 * as pflag reports them for that subcommand.
 *
 * Mirrors spf13/cobra command.go (Find, Traverse).
 */
import type { CommandResult } from '../../shell/types.ts';
import { FlagError, GLOBAL_FLAGS, parseFlags, type FlagSpec } from '../flags.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { leafHelp } from './help.ts';

/** One subcommand. */
export interface Subcommand {
	name: string;
	aliases?: string[];
	/** One line for help. */
	summary: string;
	/** The longer description `--help` prints instead of the summary, where kubectl has one. */
	long?: string;
	usage: string;
	flags: FlagSpec[];
	/** A subcommand with subcommands of its own (`create secret`): it gets `--help` too, to pass down or answer. */
	handlesHelp?: boolean;
	run(inv: KubectlInvocation): CommandResult;
}

/** Whether a flag token consumes the next argument as its value. */
function takesValue(token: string, specs: readonly FlagSpec[]): boolean {
	if (token.startsWith('--')) {
		if (token.includes('=')) return false;
		const spec = specs.find((s) => s.name === token.slice(2));
		return !!spec && spec.kind !== 'bool' && spec.noOptDefault === undefined;
	}
	// A run of short flags: the first one taking a value eats the rest, or the next argument if nothing is left.
	for (let j = 1; j < token.length; j++) {
		const spec = specs.find((s) => s.short === token[j]);
		if (!spec) return false;
		if (spec.kind !== 'bool') return j === token.length - 1;
	}
	return false;
}

/** The index of the n-th positional argument in `args` (flags and their values skipped), or -1. */
function positionalIndex(args: readonly string[], specs: readonly FlagSpec[], n = 0): number {
	let seen = 0;
	for (let i = 0; i < args.length; i++) {
		const token = args[i];
		if (token === '--') return -1;
		if (token.startsWith('-') && token.length > 1 && !/^-\d/.test(token)) {
			if (takesValue(token, specs)) i++;
			continue;
		}
		if (seen++ === n) return i;
	}
	return -1;
}

/** The arguments after the command's own name (the dispatcher's `rest`), rebuilt from argv. */
export function argsAfterCommand(inv: KubectlInvocation, parentFlags: readonly FlagSpec[]): string[] {
	const specs = [...parentFlags, ...GLOBAL_FLAGS];
	const at = positionalIndex(inv.argv, specs, 0);
	return at < 0 ? [...inv.argv] : [...inv.argv.slice(0, at), ...inv.argv.slice(at + 1)];
}

/**
 * Runs the subcommand named by the first positional argument: `args` are
 * the parent's arguments (without the parent's own name). Returns undefined
 * when no subcommand matched, so the parent can run itself.
 */
export function runSubcommand(inv: KubectlInvocation, commandPath: string, args: readonly string[], parentFlags: readonly FlagSpec[], subcommands: readonly Subcommand[]): CommandResult | undefined {
	const at = positionalIndex(args, [...parentFlags, ...GLOBAL_FLAGS], 0);
	if (at < 0) return undefined;
	const name = args[at];
	const sub = subcommands.find((s) => s.name === name || s.aliases?.includes(name));
	if (!sub) return undefined;
	const rest = [...args.slice(0, at), ...args.slice(at + 1)];
	const specs = [...sub.flags, ...GLOBAL_FLAGS.filter((g) => !sub.flags.some((f) => f.name === g.name))];
	try {
		const parsed = parseFlags(rest, specs);
		if (parsed.flags.help === true && !sub.handlesHelp) return { stdout: leafHelp(sub), stderr: '', exitCode: 0 };
		return sub.run({ ...inv, args: parsed, argv: [...inv.argv] });
	} catch (error) {
		if (error instanceof FlagError) return { stdout: '', stderr: `error: ${error.message}\nSee '${commandPath} ${sub.name} --help' for usage.\n`, exitCode: 1 };
		throw error;
	}
}

/** The union of the subcommands' flags, for the parent's own flag list (so the first parse accepts them). */
export function unionFlags(...lists: ReadonlyArray<readonly FlagSpec[]>): FlagSpec[] {
	const out: FlagSpec[] = [];
	for (const list of lists) for (const spec of list) if (!out.some((f) => f.name === spec.name)) out.push(spec);
	return out;
}
