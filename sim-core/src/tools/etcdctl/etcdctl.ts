/**
 * `etcdctl`, the etcd v3.6 command-line client (etcd-io/etcd
 * etcdctl/ctlv3), as a shell command over the simulated member.
 *
 * Command lookup follows cobra (v1.10) with etcdctl's settings: flags may
 * come before or after the command words, command names match by unique
 * prefix (ctl.go sets cobra.EnablePrefixMatching), a group command or
 * `--help` prints cobrautl's usage text, an unknown command prints
 * `Error: unknown command "x" for "etcdctl"` and exits 1, a flag error
 * prints the error then the usage and exits 1. ETCDCTL_API is accepted and
 * ignored with 3.6's warning (v3 has been the default since 3.4 and is the
 * only API in 3.6). Each command's simplifications are noted in run.ts.
 *
 * Mirrors etcd-io/etcd etcdctl/ctlv3/ctl.go, spf13/cobra command.go (prefix
 * matching).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { ROOT, flagsOf, nameOf, pathName, usageText, type CommandNode, type CommandPath } from './commands.ts';
import { FlagError, parseFlags, type FlagSpec } from './flags.ts';
import { runAlarm, runCompaction, runDefrag, runDel, runEndpointHashKV, runEndpointHealth, runEndpointStatus, runGet, runMemberAdd, runMemberList, runMemberRemove, runMoveLeader, runPut, runSnapshotSave, runVersion, runWatch } from './run.ts';
import { EXIT, Exit, Invocation } from './session.ts';
import type { EtcdctlDeps } from './types.ts';

/** cobra's findNext with prefix matching: an exact name, else the only command the word is a prefix of. */
function findChild(node: CommandNode, word: string): CommandNode | undefined {
	const children = node.children ?? [];
	const exact = children.find((c) => nameOf(c) === word);
	if (exact) return exact;
	const matches = children.filter((c) => nameOf(c).startsWith(word));
	return matches.length === 1 ? matches[0] : undefined;
}

/** Whether a flag takes no value (pflag NoOptDefVal: booleans). */
function isBoolFlag(specs: readonly FlagSpec[], name: string, short: boolean): boolean {
	const spec = specs.find((s) => (short ? s.shorthand === name : s.name === name));
	return spec?.kind === 'bool';
}

/** cobra stripFlags: the non-flag words, skipping the values of flags that take one. */
function commandWords(args: readonly string[], specs: readonly FlagSpec[]): string[] {
	const words: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const s = args[i];
		if (s === '--') break;
		if (s.startsWith('--') && !s.includes('=') && !isBoolFlag(specs, s.slice(2), false)) {
			i++;
			continue;
		}
		if (s.startsWith('-') && !s.includes('=') && s.length === 2 && !isBoolFlag(specs, s.slice(1), true)) {
			i++;
			continue;
		}
		if (s !== '' && !s.startsWith('-')) words.push(s);
	}
	return words;
}

/** Damerau-free Levenshtein distance, for cobra's "Did you mean this?" (SuggestionsMinimumDistance 2). */
function distance(a: string, b: string): number {
	const row = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		let prev = row[0];
		row[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
			prev = row[j];
			row[j] = next;
		}
	}
	return row[b.length];
}

/** cobra's Find: walks command words down the tree, removing each word used from the arguments. */
function find(args: string[]): { path: CommandPath; rest: string[]; unknown?: string } {
	let path: CommandPath = { node: ROOT, ancestors: [] };
	let rest = [...args];
	for (let depth = 0; depth < 4; depth++) {
		const { local, inherited } = flagsOf(path);
		const words = commandWords(rest, [...local, ...inherited]);
		if (!words.length || !path.node.children?.length) break;
		const child = findChild(path.node, words[0]);
		if (!child) {
			// Only the root rejects unknown words (cobra legacyArgs); a group prints its help.
			if (path.ancestors.length === 0) return { path, rest, unknown: words[0] };
			break;
		}
		const at = rest.indexOf(words[0]);
		rest = [...rest.slice(0, at), ...rest.slice(at + 1)];
		path = { node: child, ancestors: [...path.ancestors, path.node] };
	}
	return { path, rest };
}

/** Finds a command for `etcdctl help <words>`. */
function findForHelp(words: string[]): CommandPath | undefined {
	let path: CommandPath = { node: ROOT, ancestors: [] };
	for (const word of words) {
		const child = findChild(path.node, word);
		if (!child) return undefined;
		path = { node: child, ancestors: [...path.ancestors, path.node] };
	}
	return path;
}

function dispatch(argv: string[], ctx: CommandContext, deps: EtcdctlDeps): CommandResult {
	const found = find(argv);
	if (found.unknown !== undefined) {
		const suggestions = (ROOT.children ?? []).map(nameOf).filter((name) => name !== 'help' && (distance(name, found.unknown!) <= 2 || name.startsWith(found.unknown!.toLowerCase())));
		const hint = suggestions.length ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}\n`).join('')}` : '';
		return { stdout: '', stderr: `Error: unknown command ${JSON.stringify(found.unknown)} for "etcdctl"${hint}\nRun 'etcdctl --help' for usage.\n`, exitCode: EXIT.error };
	}
	const { path, rest } = found;
	const { local, inherited } = flagsOf(path);
	let flags;
	try {
		flags = parseFlags(rest, [...local, ...inherited]);
	} catch (error) {
		if (!(error instanceof FlagError)) throw error;
		// cobra prints the error, then the usage (cobrautl writes it to stdout), then an empty line.
		return { stdout: usageText(path), stderr: `Error: ${error.message}\n\n`, exitCode: EXIT.error };
	}
	if (flags.values.get('help') === 'true' || !path.node.run) return { stdout: usageText(path), stderr: '', exitCode: 0 };
	const run = path.node.run;
	if (run === 'help') {
		const target = findForHelp(flags.args);
		if (!target) return { stdout: `Unknown help topic ${flags.args.map((a) => '`' + a + '`').join(' ')}\n` + usageText({ node: ROOT, ancestors: [] }), stderr: '', exitCode: 0 };
		return { stdout: usageText(target), stderr: '', exitCode: 0 };
	}
	if (run === 'unsimulated') return { stdout: '', stderr: `Error: etcdctl ${pathName(path)} is not available in this simulation\n`, exitCode: EXIT.error };

	const inv = new Invocation(ctx, deps, path, flags);
	try {
		switch (run) {
			case 'get':
				runGet(inv);
				break;
			case 'put':
				runPut(inv);
				break;
			case 'del':
				runDel(inv);
				break;
			case 'watch':
				runWatch(inv);
				break;
			case 'compaction':
				runCompaction(inv);
				break;
			case 'defrag':
				runDefrag(inv);
				break;
			case 'endpoint health':
				runEndpointHealth(inv);
				break;
			case 'endpoint status':
				runEndpointStatus(inv);
				break;
			case 'endpoint hashkv':
				runEndpointHashKV(inv);
				break;
			case 'member list':
				runMemberList(inv);
				break;
			case 'move-leader':
				runMoveLeader(inv);
				break;
			case 'member remove':
				runMemberRemove(inv);
				break;
			case 'member add':
				runMemberAdd(inv);
				break;
			case 'alarm list':
				runAlarm(inv, false);
				break;
			case 'alarm disarm':
				runAlarm(inv, true);
				break;
			case 'snapshot save':
				runSnapshotSave(inv);
				break;
			case 'version':
				runVersion(inv);
				break;
		}
	} catch (error) {
		if (!(error instanceof Exit)) throw error;
		return { stdout: inv.stdout, stderr: inv.stderr + (error.text !== undefined ? `Error: ${error.text}\n` : ''), exitCode: error.code };
	}
	return { stdout: inv.stdout, stderr: inv.stderr, exitCode: 0 };
}

/** The etcdctl command, wired to one etcd member. */
export function createEtcdctl(deps: EtcdctlDeps): CommandHandler {
	return (ctx) => {
		try {
			return dispatch(ctx.argv.slice(1), ctx, deps);
		} catch (error) {
			// A bug in the simulation must not look like etcdctl's own output, nor crash the terminal.
			return { stdout: '', stderr: `[sim-core/etcdctl] internal error: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
		}
	};
}
