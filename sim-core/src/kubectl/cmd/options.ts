/**
 * `kubectl options`: the flags every command accepts, as the options
 * command's usage template prints them (each flag with its default, then
 * its meaning on a tab-indented line).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/options/options.go,
 * staging/src/k8s.io/kubectl/pkg/util/templates/templates.go (OptionsUsageTemplate),
 * staging/src/k8s.io/kubectl/pkg/util/templates/help_flags_printer.go.
 */
import { GLOBAL_OPTIONS, type GlobalOption } from '../global-options.ts';
import { ok, type KubectlCommand } from '../kubectl.ts';

/** The width descriptions wrap at: an 80-column terminal less the printer's offset of 10. */
const WRAP = 70;

/** wordwrap.WrapString: words kept whole, lines broken at the last space before the limit. */
function wrapWords(text: string, limit: number): string[] {
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

/** help_flags_printer.go: `    -n, --namespace='':` then the description, each line after a tab, a blank line after each flag. */
function flagUsage(option: GlobalOption): string {
	const name = option.short ? `-${option.short}, ` : '';
	const value = option.type === 'string' ? `'${option.defaultText}'` : option.defaultText;
	return `    ${name}--${option.name}=${value}:\n${wrapWords(option.description, WRAP).map((l) => `\t${l}\n`).join('')}\n`;
}

export const optionsCommand: KubectlCommand = {
	name: 'options',
	summary: 'Print the list of flags inherited by all commands',
	usage: 'kubectl options [flags]',
	flags: [],
	run: () => ok(`The following options can be passed to any command:\n\n${GLOBAL_OPTIONS.map(flagUsage).join('')}`),
};
