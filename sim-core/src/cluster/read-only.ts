/**
 * Which command lines only read: `kubectl get`, `describe` and `logs`,
 * `etcdctl get`, `crictl ps`, `iptables -L`, `cat`, `curl` without a body...
 * The sandbox asks this while the reader looks at an earlier moment: a line
 * that only reads runs on a copy of that moment and leaves the later history
 * alone, where anything else continues from there and sets the later
 * history aside.
 *
 * The answer errs towards "changes": a command this table does not know, a
 * redirection into a file, a variable assignment, an interactive session
 * (`kubectl exec -it ... sh`) or a `curl -X DELETE` count as changes. A
 * command that runs another (`sudo`, `kubectl exec ... --`, `sh -c`,
 * `ssh node ...`, `$(...)`) reads only when what it runs does.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go (the read verbs get, list and watch, here applied to the command lines of the tools a reader types).
 */
import { parse, type AndOr, type ForCommand, type SimpleCommand, type Word } from '../shell/parse.ts';

/** kubectl verbs that never write (`kubectl rollout status`, `auth can-i`: see SUBCOMMANDS). */
const KUBECTL_READS = new Set(['get', 'describe', 'logs', 'explain', 'api-resources', 'api-versions', 'version', 'cluster-info', 'top', 'events', 'wait', 'diff', 'completion', 'kustomize', 'help', 'options']);
/** kubectl verbs whose read-only subcommands are listed. */
const KUBECTL_SUBCOMMANDS: Record<string, Set<string>> = {
	rollout: new Set(['status', 'history']),
	auth: new Set(['can-i', 'whoami']),
	config: new Set(['view', 'get-contexts', 'get-clusters', 'get-users', 'current-context']),
	plugin: new Set(['list']),
	certificate: new Set([]),
};
/** kubectl's global flags that take a value as the next word (`-n kube-system`). */
export const KUBECTL_VALUE_FLAGS = new Set(['-n', '--namespace', '--context', '--kubeconfig', '-s', '--server', '--user', '--cluster', '--as', '--as-group', '--token', '--request-timeout', '-v']);

const ETCDCTL_READS = new Set(['get', 'version', 'watch']);
const ETCDCTL_SUBCOMMANDS: Record<string, Set<string>> = {
	member: new Set(['list']),
	endpoint: new Set(['status', 'health', 'hashkv']),
	alarm: new Set(['list']),
	snapshot: new Set(['status']),
	user: new Set(['list', 'get']),
	role: new Set(['list', 'get']),
	lease: new Set(['list', 'timetolive']),
};
/** etcdctl flags that take a value as the next word. */
const ETCDCTL_VALUE_FLAGS = new Set(['--endpoints', '--cacert', '--cert', '--key', '--command-timeout', '--dial-timeout', '-w', '--write-out', '--user']);

const CRICTL_READS = new Set(['ps', 'pods', 'images', 'img', 'inspect', 'inspectp', 'inspecti', 'logs', 'info', 'version', 'stats', 'statsp', 'imagefsinfo', 'help']);
const KUBEADM_SUBCOMMANDS: Record<string, Set<string>> = {
	version: new Set(['']),
	certs: new Set(['check-expiration']),
	token: new Set(['list']),
	upgrade: new Set(['plan']),
	config: new Set(['print', 'images']),
};
const SYSTEMCTL_READS = new Set(['status', 'is-active', 'is-enabled', 'is-failed', 'list-units', 'list-unit-files', 'show', 'cat']);

/** Programs that only print what they read (no option of theirs that a tutorial uses writes). */
const READERS = new Set([
	'cat', 'ls', 'echo', 'printf', 'grep', 'egrep', 'fgrep', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'tr', 'awk', 'jq', 'yq', 'base64',
	'column', 'nl', 'rev', 'date', 'pwd', 'whoami', 'id', 'hostname', 'uname', 'env', 'printenv', 'true', 'false', 'which', 'type',
	'ps', 'df', 'du', 'free', 'uptime', 'ss', 'netstat', 'nslookup', 'dig', 'host', 'ping', 'traceroute', 'nc', 'telnet', 'file', 'stat',
	'tree', 'less', 'more', 'man', 'history', 'sleep', 'journalctl', 'iptables-save', 'ip6tables-save', 'conntrack', 'lsof', 'mount', 'findmnt',
	'getent', 'openssl', 'test', '[', 'seq', 'expr', 'basename', 'dirname', 'readlink', 'realpath', 'md5sum', 'sha256sum', 'xxd', 'od', 'diff',
	'cmp', 'top', 'vmstat', 'lscpu', 'lsblk', 'arp', 'route', 'resolvectl', 'clear', 'exit', 'jobs',
]);
/** Programs that run the rest of their words as a command. */
const WRAPPERS = new Set(['sudo', 'time', 'nice', 'nohup', 'timeout', 'watch', 'command', 'exec']);
/** Shells: `sh -c SCRIPT` reads only when SCRIPT does; a shell without a script is an interactive session. */
const SHELLS = new Set(['sh', 'bash', 'ash', 'zsh', 'dash']);

/** Whether `line` (a shell line, as the reader types it) only reads. */
export function readsOnly(line: string): boolean {
	let lists;
	try {
		lists = parse(line);
	} catch {
		// A syntax error is printed and nothing runs.
		return true;
	}
	return lists.every((c) => c.list.every(andOrReads));
}

function andOrReads(andOr: AndOr): boolean {
	return andOr.every((part) => part.pipe.cmds.every((cmd) => ('k' in cmd ? forReads(cmd) : simpleReads(cmd))));
}

function forReads(loop: ForCommand): boolean {
	return (loop.words ?? []).every(wordReads) && loop.body.every(andOrReads);
}

/** A word reads only when the commands it substitutes (`$(...)`, `<(...)`) do. */
function wordReads(word: Word): boolean {
	return word.every((part) => (part.k !== 'sub' && part.k !== 'psub') || readsOnly(part.v));
}

function simpleReads(cmd: SimpleCommand): boolean {
	// `NAME=value` alone changes the shell; before a command it only sets that command's environment.
	if (cmd.words.length === 0) return cmd.assigns.length === 0;
	if (!cmd.words.every(wordReads) || !cmd.assigns.every((a) => wordReads(a.value))) return false;
	for (const redir of cmd.redirs) {
		if (redir.op === '<' || redir.op === '<<' || redir.op === '<<<' || redir.op === '<&' || redir.op === '>&') continue;
		if (quotedText(redir.target) !== '/dev/null') return false;
	}
	// The program's name must be literal; an argument may expand (`kubectl get pod $p`): what it expands to is data, not a verb.
	if (quotedText(cmd.words[0]) === undefined) return false;
	return commandReads(cmd.words.map(argumentText));
}

/** The text of a word with quotes but no expansion (`'app=web'`); undefined when it expands something. */
function quotedText(word: Word): string | undefined {
	return word.every((p) => p.k === 'lit') ? word.map((p) => p.v).join('') : undefined;
}

/** An argument's text, expansions kept as written (`$p`, `$(...)`): never a flag or a verb of their own. */
function argumentText(word: Word): string {
	return word.map((p) => (p.k === 'lit' ? p.v : p.k === 'var' ? `$${p.v}` : `$(${p.v})`)).join('');
}

/** Whether one command, as words, only reads. */
function commandReads(words: string[]): boolean {
	const [name, ...args] = words;
	const program = name.split('/').pop() ?? name;
	if (WRAPPERS.has(program)) return args.length > 0 && commandReads(withoutOptions(args));
	if (SHELLS.has(program)) {
		const c = args.indexOf('-c');
		return c >= 0 && c + 1 < args.length && readsOnly(args[c + 1]);
	}
	switch (program) {
		case 'kubectl':
			return kubectlReads(args);
		case 'etcdctl':
			return verbReads(args, ETCDCTL_VALUE_FLAGS, ETCDCTL_READS, ETCDCTL_SUBCOMMANDS);
		case 'crictl':
			return verbReads(args, new Set(['-r', '--runtime-endpoint', '-i', '--image-endpoint', '-t', '--timeout']), CRICTL_READS, {});
		case 'kubeadm':
			return verbReads(args, new Set(['--kubeconfig', '--config']), new Set(), KUBEADM_SUBCOMMANDS);
		case 'systemctl':
			return SYSTEMCTL_READS.has(args.find((a) => !a.startsWith('-')) ?? 'list-units');
		case 'ssh':
			// `ssh node-1` opens a session; `ssh node-1 CMD` reads when CMD does.
			return args.length > 1 && readsOnly(args.slice(1).join(' '));
		case 'iptables':
		case 'ip6tables':
			return args.every((a) => !/^(-[AIDRFNXPZE]|--(append|insert|delete|replace|flush|new-chain|delete-chain|policy|zero|rename-chain))$/.test(a));
		case 'ipvsadm':
			return args.some((a) => a === '-L' || a === '-l' || a === '--list' || a.startsWith('-Ln'));
		case 'nft':
			return args[0] === 'list' || (args[0] === '-a' && args[1] === 'list');
		case 'ip':
			return !args.some((a) => ['add', 'del', 'delete', 'set', 'flush', 'change', 'replace', 'append'].includes(a));
		case 'curl':
			return curlReads(args);
		case 'wget':
			// Without `-O -` (or `-qO-`), wget writes what it fetched to a file.
			return args.some((a, i) => (a === '-O' && args[i + 1] === '-') || /^-q?O-$/.test(a) || a === '--spider');
		case 'sed':
			return !args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
		case 'find':
			return !args.some((a) => a === '-delete' || a === '-exec' || a === '-execdir' || a === '-fprint');
		default:
			return READERS.has(program);
	}
}

/** A wrapper's own options (`timeout 5`, `sudo -E`) are not the command it runs. */
function withoutOptions(args: string[]): string[] {
	let i = 0;
	while (i < args.length - 1 && (args[i].startsWith('-') || /^\d+[smh]?$/.test(args[i]))) i++;
	return args.slice(i);
}

/** The first word that is not a flag (or a flag's value): the verb. */
function positionals(args: string[], valueFlags: Set<string>): string[] {
	const out: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (a === '--') break;
		if (a.startsWith('-')) {
			if (!a.includes('=') && valueFlags.has(a)) i++;
			continue;
		}
		out.push(a);
	}
	return out;
}

function verbReads(args: string[], valueFlags: Set<string>, reads: Set<string>, subcommands: Record<string, Set<string>>): boolean {
	const [verb, sub] = positionals(args, valueFlags);
	if (verb === undefined) return true;
	if (reads.has(verb)) return true;
	const allowed = subcommands[verb];
	return allowed !== undefined && allowed.has(sub ?? '');
}

function kubectlReads(args: string[]): boolean {
	const [verb, sub] = positionals(args, KUBECTL_VALUE_FLAGS);
	if (verb === undefined || args.includes('--help') || args.includes('-h')) return true;
	if (KUBECTL_READS.has(verb)) return true;
	if (KUBECTL_SUBCOMMANDS[verb]?.has(sub ?? '')) return true;
	// A dry run (`--dry-run=client`, `--dry-run=server`) is validated and printed, never stored.
	if (args.some((a) => a === '--dry-run=client' || a === '--dry-run=server')) return true;
	if (verb === 'exec') {
		// `kubectl exec POD -- CMD` reads when CMD does; `-it ... sh` is an interactive session.
		const dash = args.indexOf('--');
		return dash >= 0 && dash + 1 < args.length && commandReads(args.slice(dash + 1));
	}
	return false;
}

/** curl reads unless it sends a body, a write method, or saves to a file. */
function curlReads(args: string[]): boolean {
	for (let i = 0; i < args.length; i++) {
		const a = args[i];
		if (/^(-d|--data.*|-F|--form|-T|--upload-file|-o|--output|-O|--remote-name)$/.test(a)) return false;
		if (/^-[a-zA-Z]*[oOdFT]/.test(a) && !a.startsWith('--')) return false;
		const method = a === '-X' || a === '--request' ? args[i + 1] : /^-X(.+)$/.exec(a)?.[1] ?? /^--request=(.+)$/.exec(a)?.[1];
		if (method !== undefined && !/^(GET|HEAD|OPTIONS)$/i.test(method)) return false;
	}
	return true;
}
