/**
 * Help for kubectl's nested commands as its help template lays it out: the
 * long description (or the short one), the subcommands under "Available
 * Commands:", the usage line with `[options]`, and the two tips. A parent
 * run without a subcommand prints the same help: on stderr with exit 1
 * where cobra's parent is DefaultSubCommandRun (rollout, set, auth), on
 * stdout with exit 0 where it calls cmd.Help() (certificate).
 *
 * The longer descriptions, examples and option meanings come from
 * ../help-texts (written for this project); a flag without a written
 * meaning is left out of Options rather than listed bare.
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
import { HELP_TEXTS } from '../help-texts/index.ts';

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

/** The command's path in its usage line: the lower-case words after `kubectl` (`rollout status`). */
function commandPath(usage: string): string {
	const words: string[] = [];
	for (const word of usage.split(' ').slice(1)) {
		if (!/^[a-z][a-z-]*$/.test(word)) break;
		words.push(word);
	}
	return words.join(' ');
}

/** pflag's DefValue as help_flags_printer writes it: strings quoted, lists as [], durations and numbers as they are. */
function defaultText(spec: FlagSpec): string {
	const value = spec.default;
	if (spec.kind === 'bool') return value === true ? 'true' : 'false';
	if (spec.kind === 'stringArray') return `[${Array.isArray(value) ? value.join(',') : ''}]`;
	if (spec.kind === 'string') return `'${value === undefined ? '' : String(value)}'`;
	if (spec.kind === 'duration') return String(value ?? '0s');
	return String(value ?? 0);
}

/** wordwrap.WrapString at 70 columns (an 80-column terminal less the printer's offset). */
function wrapWords(text: string, limit = 70): string[] {
	const lines: string[] = [];
	let line = '';
	for (const word of text.split(' ')) {
		if (line && line.length + 1 + word.length > limit) {
			lines.push(line);
			line = word;
		} else line = line ? `${line} ${word}` : word;
	}
	return [...lines, line];
}

/** help_flags_printer.go's entry for one flag: `    -n, --name=DEFAULT:`, then the meaning, each line after a tab. */
export function flagUsage(flag: { name: string; short?: string }, defaultValue: string, meaning: string): string {
	return `    ${flag.short ? `-${flag.short}, ` : ''}--${flag.name}=${defaultValue}:\n${wrapWords(meaning).map((l) => `\t${l}`).join('\n')}`;
}

/** The Options section: the command's own flags with a written meaning, sorted by name as pflag lists them. */
function optionsSection(flags: readonly FlagSpec[] | undefined, meanings: Readonly<Record<string, string>> | undefined): string | undefined {
	if (!flags || !meanings) return undefined;
	const shown = [...flags].filter((f) => meanings[f.name] && f.name !== 'help').sort((a, b) => (a.name < b.name ? -1 : 1));
	if (!shown.length) return undefined;
	const rows = shown.map((f) => flagUsage(f, defaultText(f), meanings[f.name]));
	return `Options:\n${rows.join('\n\n')}`;
}

/**
 * A leaf command's help (`kubectl rollout status --help`): the written
 * description, examples and options of ../help-texts where the command has
 * them, else its summary; then usage and the options tip.
 */
export function leafHelp(help: { summary: string; long?: string; examples?: string; usage: string; flags?: readonly FlagSpec[] }): string {
	const text = HELP_TEXTS[commandPath(help.usage)] ?? {};
	const sections = [(text.long ?? help.long ?? help.summary).trim()];
	const examples = text.examples ?? help.examples;
	if (examples) sections.push(`Examples:\n${examples.trimEnd()}`);
	const options = optionsSection(help.flags, text.flags);
	if (options) sections.push(options);
	sections.push(`Usage:\n  ${usageLine(help.usage)}`);
	return `${sections.join('\n\n')}\n\n${OPTIONS_TIP}\n`;
}

/** A parent's help (`kubectl rollout --help`): its description, its subcommands, usage and both tips. */
export function parentHelp(path: string, parent: { long: string; usage: string; examples?: string }, subs: ReadonlyArray<{ name: string; summary: string }>): string {
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
