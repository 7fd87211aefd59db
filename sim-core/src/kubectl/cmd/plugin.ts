/**
 * `kubectl plugin list`: the executables named `kubectl-*` on the PATH.
 * The reader's workstation has none installed (no krew), so kubectl says so,
 * as it does on a fresh machine; `kubectl plugin` alone lists its one
 * subcommand.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/plugin/plugin.go (PluginListOptions.Run).
 */
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { checkErr, plain } from './check-err.ts';

function run(inv: KubectlInvocation): ReturnType<KubectlCommand['run']> {
	const [sub] = inv.args.positionals;
	if (sub === undefined || inv.args.flags.help === true) {
		return { stdout: 'Provides utilities for interacting with plugins.\n\nAvailable Commands:\n  list          List all visible plugin executables on a user\'s PATH\n\nUsage:\n  kubectl plugin [flags] [options]\n', stderr: '', exitCode: 0 };
	}
	if (sub !== 'list') return checkErr(plain(`unknown command "${sub}" for "kubectl plugin"`));
	return checkErr(plain('unable to find any kubectl plugins in your PATH'));
}

export const pluginCommand: KubectlCommand = {
	name: 'plugin',
	summary: 'Provides utilities for interacting with plugins',
	usage: 'kubectl plugin [flags] [options]',
	subcommands: ['list'],
	handlesHelp: true,
	flags: [{ name: 'name-only', kind: 'bool' }],
	run,
};
