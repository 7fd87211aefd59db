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
import { flagUsage } from './help.ts';

/** options.go's usage template: each global flag as the help printer lays it out, a blank line after each. */
function optionUsage(option: GlobalOption): string {
	return `${flagUsage(option, option.type === 'string' ? `'${option.defaultText}'` : option.defaultText, option.description)}\n\n`;
}

export const optionsCommand: KubectlCommand = {
	name: 'options',
	summary: 'Print the list of flags inherited by all commands',
	usage: 'kubectl options [flags]',
	flags: [],
	run: () => ok(`The following options can be passed to any command:\n\n${GLOBAL_OPTIONS.map(optionUsage).join('')}`),
};
