/**
 * Help for kubectl's nested commands as its help template lays it out: the
 * long description (or the short one), the subcommands under "Available
 * Commands:", the usage line with `[options]`, and the two tips. A parent
 * run without a subcommand prints the same help: on stderr with exit 1
 * where cobra's parent is DefaultSubCommandRun (rollout, set, auth), on
 * stdout with exit 0 where it calls cmd.Help() (certificate).
 *
 * Option descriptions are not printed: the simulated flags carry their
 * names and defaults only, and a list of names without their meaning would
 * mislead more than it helps.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/util/templates/templates.go (MainHelpTemplate,
 * MainUsageTemplate), staging/src/k8s.io/kubectl/pkg/util/templates/templater.go
 * (cmdGroupsString, usageLine), staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go
 * (DefaultSubCommandRun).
 */
import type { CommandResult } from '../../shell/types.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { checkErr, usageError } from './check-err.ts';
import { argsAfterCommand, runSubcommand, type Subcommand } from './subcommand.ts';

/** cobra's minNamePadding: subcommand names are padded to at least this, or to the longest sibling. */
const MIN_NAME_PADDING = 11;

const OPTIONS_TIP = 'Use "kubectl options" for a list of global command-line options (applies to all commands).';

/** templater.usageLine: every kubectl command has flags, so `[options]` ends the line unless it is already there. */
function usageLine(usage: string): string {
	return usage.includes('[options]') ? usage : `${usage} [options]`;
}

/** cmdGroupsString for a command that is not the root: one group, its subcommands sorted by name. */
export function availableCommands(subs: ReadonlyArray<{ name: string; summary: string }>): string {
	const sorted = [...subs].sort((a, b) => (a.name < b.name ? -1 : 1));
	const pad = Math.max(MIN_NAME_PADDING, ...sorted.map((s) => s.name.length));
	return ['Available Commands:', ...sorted.map((s) => `  ${s.name.padEnd(pad)} ${s.summary}`)].join('\n');
}

/** A leaf command's help (`kubectl rollout status --help`). */
export function leafHelp(help: { summary: string; long?: string; examples?: string; usage: string }): string {
	const sections = [(help.long ?? help.summary).trim()];
	if (help.examples) sections.push(`Examples:\n${help.examples.trimEnd()}`);
	sections.push(`Usage:\n  ${usageLine(help.usage)}`);
	return `${sections.join('\n\n')}\n\n${OPTIONS_TIP}\n`;
}

/** A parent's help (`kubectl rollout --help`): its description, its subcommands, usage and both tips. */
export function parentHelp(path: string, parent: { long: string; usage: string; examples?: string }, subs: readonly Subcommand[]): string {
	const sections = [parent.long.trim()];
	if (parent.examples) sections.push(`Examples:\n${parent.examples.trimEnd()}`);
	sections.push(availableCommands(subs), `Usage:\n  ${usageLine(parent.usage)}`);
	return `${sections.join('\n\n')}\n\nUse "${path} <command> --help" for more information about a given command.\n${OPTIONS_TIP}\n`;
}

/**
 * The run of a parent command: the subcommand named by the first
 * positional argument, else an unknown one reported as RequireNoArguments
 * does, else the parent's help (on stdout for `--help`).
 */
export function runParent(
	inv: KubectlInvocation,
	parent: { name: string; long: string; usage: string; examples?: string; flags: readonly FlagSpec[]; bare: 'help-on-stderr' | 'help' },
	subs: readonly Subcommand[],
): CommandResult {
	const path = `kubectl ${parent.name}`;
	const result = runSubcommand(inv, path, argsAfterCommand(inv, parent.flags), parent.flags, subs);
	if (result) return result;
	if (inv.args.positionals.length) return checkErr(usageError(path, `unknown command "${inv.args.positionals.join(' ')}"`));
	const text = parentHelp(path, parent, subs);
	if (inv.args.flags.help === true || parent.bare === 'help') return { stdout: text, stderr: '', exitCode: 0 };
	// DefaultSubCommandRun: the help goes to stderr and CheckErr(ErrExit) exits 1 without a message.
	return { stdout: '', stderr: text, exitCode: 1 };
}
