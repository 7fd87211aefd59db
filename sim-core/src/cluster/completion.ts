/**
 * Tab completion of the reader's shell, as bash's completion with kubectl's
 * `kubectl completion bash` script (which asks `kubectl __complete`) would
 * offer: command names the current host runs, kubectl's verbs, their
 * subcommands and flags (from the commands themselves, see kubectl/cmd),
 * resource kinds and short names (from discovery), object names from the
 * cluster, node names for `ssh`, units for `systemctl` and `journalctl`.
 *
 * `complete` is a pure function over a `CompletionContext`, which
 * `Cluster.complete` fills from the cluster; it never runs a command. It
 * completes the word under the cursor and says where that word starts, so a
 * terminal can replace it.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/util/completion/completion.go (which arguments complete to kinds, object names, pods, nodes and namespaces).
 */
import { GLOBAL_FLAGS, type FlagSpec } from '../kubectl/flags.ts';
import type { KubectlCommand } from '../kubectl/kubectl.ts';

/** One resource kind as `kubectl api-resources` lists it. */
export interface ResourceKind {
	/** Plural name, e.g. 'deployments'. */
	name: string;
	shortNames: string[];
	/** The Kind, e.g. 'Deployment' (its lowercase form is the singular kubectl accepts). */
	kind: string;
	namespaced: boolean;
}

/** One kubectl verb as completion needs it: its flags (global ones included) and subcommands. */
export interface KubectlVerb {
	name: string;
	flags: readonly FlagSpec[];
	subcommands: readonly string[];
}

/** What completion may know about the session. */
export interface CompletionContext {
	/** Command names that run on the terminal's current host. */
	commands: readonly string[];
	/** kubectl's verbs (`get`, `apply`...). */
	kubectl: readonly KubectlVerb[];
	resources: readonly ResourceKind[];
	/** Names of the objects of a resource (plural, singular or short name) in a namespace, or in all namespaces. */
	names: (resource: string, namespace: string | undefined) => string[];
	namespaces: () => string[];
	nodes: () => string[];
}

export interface Completion {
	/** Sorted, unique replacements for the word being completed. */
	candidates: string[];
	/** Where in the line the word being completed starts (the terminal replaces line[replaceFrom, cursor)). */
	replaceFrom: number;
}

/** The verbs of kubectl's commands, with the global flags each accepts. */
export function kubectlVerbs(commands: readonly KubectlCommand[]): KubectlVerb[] {
	return commands.map((c) => ({ name: c.name, flags: [...c.flags, ...GLOBAL_FLAGS.filter((g) => !c.flags.some((f) => f.name === g.name))], subcommands: c.subcommands ?? [] }));
}

/** How a flag is typed: `--name`, and `-x` where it has a short form. */
function flagWords(spec: FlagSpec): string[] {
	return spec.short ? [`--${spec.name}`, `-${spec.short}`] : [`--${spec.name}`];
}

/** Whether a flag as typed takes the next word as its value (pflag: not a bool, no value of its own when bare). */
function takesValue(word: string, flags: readonly FlagSpec[]): boolean {
	const spec = word.startsWith('--') ? flags.find((f) => f.name === word.slice(2)) : word.length === 2 ? flags.find((f) => f.short === word.slice(1)) : undefined;
	return !!spec && spec.kind !== 'bool' && spec.noOptDefault === undefined;
}

/** Values of flags that take one. */
const OUTPUT_FORMATS = ['wide', 'yaml', 'json', 'name', 'jsonpath=', 'custom-columns=', 'go-template='];
const DRY_RUN_VALUES = ['none', 'client', 'server'];

/** Verbs whose first positional argument is a resource kind (then names of that kind). */
const VERBS_WITH_KIND = new Set(['get', 'describe', 'delete', 'edit', 'label', 'annotate', 'patch', 'scale', 'explain', 'expose', 'wait', 'autoscale']);
/** Verbs whose positional arguments are pods. */
const VERBS_WITH_POD = new Set(['logs', 'exec', 'attach', 'port-forward']);
/** Verbs whose positional arguments are nodes. */
const VERBS_WITH_NODE = new Set(['cordon', 'uncordon', 'drain']);
/** Kinds `kubectl rollout` works on. */
const ROLLOUT_KINDS = ['daemonset', 'deployment', 'statefulset'];

/** Sub-commands of the node tools (upstream names). */
const TOOL_SUBCOMMANDS: Record<string, string[]> = {
	systemctl: ['daemon-reload', 'is-active', 'restart', 'start', 'status', 'stop'],
	crictl: ['exec', 'images', 'info', 'inspect', 'inspecti', 'inspectp', 'logs', 'pods', 'ps', 'stats', 'version'],
	etcdctl: ['compaction', 'defrag', 'del', 'endpoint', 'get', 'member', 'put', 'snapshot', 'txn', 'version', 'watch'],
	ip: ['addr', 'link', 'neigh', 'route'],
	ipvsadm: ['-L', '-Ln', '--list'],
	nft: ['list'],
	iptables: ['-L', '-S', '-t', '-n', '-v'],
};
/** systemd units on a node. */
const UNITS = ['containerd', 'kubelet'];

/** Characters that end a simple command, so a command name follows. */
const COMMAND_SEPARATORS = /(?:\|\||&&|[|;&(])/;

function uniqueSorted(values: Iterable<string>): string[] {
	return [...new Set(values)].sort();
}

function matching(prefix: string, values: Iterable<string>): string[] {
	return uniqueSorted([...values].filter((v) => v.startsWith(prefix)));
}

/** The words of the simple command the cursor is in (text before the cursor only), and where the current word starts. */
export function currentCommand(line: string, cursor: number): { words: string[]; wordStart: number } {
	const before = line.slice(0, cursor);
	// The simple command starts after the last separator outside quotes.
	let start = 0;
	let quote: string | undefined;
	for (let i = 0; i < before.length; i++) {
		const ch = before[i];
		if (quote) {
			if (ch === quote) quote = undefined;
			continue;
		}
		if (ch === '"' || ch === "'") quote = ch;
		else if (COMMAND_SEPARATORS.test(ch)) start = i + 1;
	}
	const segment = before.slice(start);
	const words: string[] = [];
	let wordStart = cursor;
	const re = /\S+/g;
	let match: RegExpExecArray | null;
	while ((match = re.exec(segment))) words.push(match[0]);
	if (/\s$/.test(segment) || segment.length === 0) {
		words.push('');
		wordStart = cursor;
	} else {
		wordStart = start + segment.length - words[words.length - 1].length;
	}
	return { words, wordStart };
}

/** The resource named by `name` (plural, lowercase kind or short name), if known. */
function resolveKind(resources: readonly ResourceKind[], name: string): ResourceKind | undefined {
	const bare = name.toLowerCase().split('.')[0];
	return resources.find((r) => r.name === bare || r.kind.toLowerCase() === bare || r.shortNames.includes(bare));
}

/** kubectl's namespace from the words typed (-n x, --namespace x, --namespace=x); undefined with -A. */
function namespaceOf(words: string[]): { namespace: string | undefined; all: boolean } {
	let namespace: string | undefined;
	let all = false;
	for (let i = 0; i < words.length - 1; i++) {
		const w = words[i];
		if (w === '-n' || w === '--namespace') namespace = words[i + 1];
		else if (w.startsWith('--namespace=')) namespace = w.slice('--namespace='.length);
		else if (w.startsWith('-n') && w.length > 2 && !w.startsWith('--')) namespace = w.slice(2);
		else if (w === '-A' || w === '--all-namespaces') all = true;
	}
	return { namespace: all ? undefined : (namespace ?? 'default'), all };
}

/** Positional arguments of a kubectl line (flags and their values removed), the verb first. */
function kubectlPositionals(words: string[], ctx: CompletionContext): string[] {
	const out: string[] = [];
	for (let i = 1; i < words.length - 1; i++) {
		const w = words[i];
		if (w.startsWith('-')) {
			// Before the verb only the global flags apply; after it, the verb's.
			if (takesValue(w, flagsOf(out[0], ctx))) i++;
			continue;
		}
		out.push(w);
	}
	return out;
}

/** The flags a verb accepts (the global ones alone before a verb is typed). */
function flagsOf(verb: string | undefined, ctx: CompletionContext): readonly FlagSpec[] {
	return ctx.kubectl.find((v) => v.name === verb)?.flags ?? GLOBAL_FLAGS;
}

function completeKubectl(words: string[], wordStart: number, ctx: CompletionContext): Completion {
	const word = words[words.length - 1];
	const previous = words[words.length - 2] ?? '';
	const positionals = kubectlPositionals(words, ctx);
	const verb = positionals[0];
	const flags = flagsOf(verb, ctx);
	const subcommands = ctx.kubectl.find((v) => v.name === verb)?.subcommands ?? [];
	const { namespace } = namespaceOf(words);
	const kindNames = () => ctx.resources.flatMap((r) => [r.name, r.kind.toLowerCase(), ...r.shortNames]);

	// Values of flags.
	const flagValue = (flag: string, value: string, from: number): Completion | undefined => {
		if (flag === '-n' || flag === '--namespace') return { candidates: matching(value, ctx.namespaces()), replaceFrom: from };
		if (flag === '-o' || flag === '--output') return { candidates: matching(value, OUTPUT_FORMATS), replaceFrom: from };
		if (flag === '--dry-run') return { candidates: matching(value, DRY_RUN_VALUES), replaceFrom: from };
		return undefined;
	};
	if (previous.startsWith('-') && takesValue(previous, flags)) return flagValue(previous, word, wordStart) ?? { candidates: [], replaceFrom: wordStart };
	const eq = word.indexOf('=');
	if (word.startsWith('--') && eq > 0) return flagValue(word.slice(0, eq), word.slice(eq + 1), wordStart + eq + 1) ?? { candidates: [], replaceFrom: wordStart };
	if (word.startsWith('-')) return { candidates: matching(word, flags.flatMap(flagWords)), replaceFrom: wordStart };

	if (!verb) return { candidates: matching(word, ctx.kubectl.map((v) => v.name)), replaceFrom: wordStart };
	const args = positionals.slice(1);
	const names = (resource: string) => ctx.names(resource, namespace);
	// kind/name
	if (word.includes('/')) {
		const slash = word.indexOf('/');
		const kind = resolveKind(ctx.resources, word.slice(0, slash));
		if (!kind) return { candidates: [], replaceFrom: wordStart };
		return { candidates: matching(word.slice(slash + 1), names(kind.name)), replaceFrom: wordStart + slash + 1 };
	}
	if (subcommands.length && args.length === 0) return { candidates: matching(word, subcommands), replaceFrom: wordStart };
	if (verb === 'rollout') {
		if (args.length === 1) return { candidates: matching(word, ROLLOUT_KINDS), replaceFrom: wordStart };
		const kind = resolveKind(ctx.resources, args[1] ?? '');
		return { candidates: kind ? matching(word, names(kind.name)) : [], replaceFrom: wordStart };
	}
	if (VERBS_WITH_POD.has(verb)) return { candidates: args.length === 0 ? matching(word, names('pods')) : [], replaceFrom: wordStart };
	if (VERBS_WITH_NODE.has(verb)) return { candidates: matching(word, ctx.nodes()), replaceFrom: wordStart };
	if (verb === 'taint') {
		if (args.length === 0) return { candidates: matching(word, ['node', 'nodes']), replaceFrom: wordStart };
		return { candidates: args.length === 1 ? matching(word, ctx.nodes()) : [], replaceFrom: wordStart };
	}
	if (verb === 'top') {
		if (args.length === 0) return { candidates: matching(word, ['node', 'pod']), replaceFrom: wordStart };
		return { candidates: matching(word, args[0].startsWith('node') ? ctx.nodes() : names('pods')), replaceFrom: wordStart };
	}
	if (verb === 'create' && args[0] === 'namespace') return { candidates: [], replaceFrom: wordStart };
	if (VERBS_WITH_KIND.has(verb)) {
		if (args.length === 0) return { candidates: matching(word, kindNames()), replaceFrom: wordStart };
		// `get pods,services` lists several kinds: complete the last one.
		const kinds = args[0].split(',').map((k) => resolveKind(ctx.resources, k));
		if (kinds.length === 1 && kinds[0]) return { candidates: matching(word, names(kinds[0].name)), replaceFrom: wordStart };
		return { candidates: [], replaceFrom: wordStart };
	}
	return { candidates: [], replaceFrom: wordStart };
}

/** Completes the word before `cursor` in `line`. */
export function complete(line: string, cursor: number, ctx: CompletionContext): Completion {
	const at = Math.max(0, Math.min(cursor, line.length));
	const { words, wordStart } = currentCommand(line, at);
	const word = words[words.length - 1];
	if (words.length === 1) return { candidates: matching(word, ctx.commands), replaceFrom: wordStart };
	const command = words[0] === 'sudo' && words.length > 2 ? words[1] : words[0];
	const argCount = words.length - (command === words[0] ? 2 : 3);
	switch (command) {
		case 'kubectl':
			return completeKubectl(command === words[0] ? words : words.slice(1), wordStart, ctx);
		case 'sudo':
			return { candidates: matching(word, ctx.commands), replaceFrom: wordStart };
		case 'ssh':
			return { candidates: argCount === 0 ? matching(word, ctx.nodes()) : [], replaceFrom: wordStart };
		case 'systemctl':
			return { candidates: matching(word, argCount === 0 ? TOOL_SUBCOMMANDS.systemctl : UNITS), replaceFrom: wordStart };
		case 'journalctl': {
			const previous = words[words.length - 2];
			if (previous === '-u' || previous === '--unit') return { candidates: matching(word, UNITS), replaceFrom: wordStart };
			return { candidates: matching(word, ['-u', '--unit', '-f', '--no-pager', '-n', '--since']), replaceFrom: wordStart };
		}
		default: {
			const subcommands = TOOL_SUBCOMMANDS[command];
			return { candidates: subcommands && argCount === 0 ? matching(word, subcommands) : [], replaceFrom: wordStart };
		}
	}
}
