/**
 * kubectl: finds the command, parses its flags, runs it against the API
 * server as the kubeconfig's user, and turns every failure into kubectl's
 * own message and exit code. It never throws.
 *
 * Each command lives in ./cmd/<verb>.ts and is registered in ./cmd/index.ts.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cmd.go (NewKubectlCommand),
 * staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (CheckErr).
 */
import type { CommandResult } from '../shell/types.ts';
import type { ApiClient } from '../client/client.ts';
import type { CallResult, ResourceRef } from '../client/client.ts';
import type { ApiRequest, WatchEvent } from '../api/request.ts';
import { FlagError, GLOBAL_FLAGS, parseFlags, type FlagSpec, type ParsedArgs } from './flags.ts';
import { JSON_ACCEPT, RequestLogger, type HttpProfile } from './round-trippers.ts';
import { BUILD_INFO } from '../api/version.ts';
import { kustomizeDir } from './cmd/kustomize.ts';
import { leafHelp } from './cmd/help.ts';
import { refusedGlobalFlag } from './global-options.ts';
import { changeCause, RECORD_DEPRECATION, recordingClient, takeRecordFlag } from './record.ts';

/** What kubectl can reach, provided by the cluster wiring. */
export interface KubectlEnvironment {
	/** A client acting as the kubeconfig's user, or as `impersonate` (--as). */
	client(impersonate?: { user: string; groups: string[] }): ApiClient;
	/** The kubeconfig's current namespace ('default'). */
	defaultNamespace: string;
	/** `https://192.168.56.10:6443`. */
	serverUrl: string;
	/** Reads a file given to -f from the shell's current host; undefined if missing. */
	readFile(path: string): string | undefined;
	/** Lists a directory given to -f (file names, for `-f dir/`); undefined if not a directory. */
	listDir?(path: string): string[] | undefined;
	/**
	 * The reader's editor (`kubectl edit`): opened on the file `path` holding
	 * `text`, it returns what the reader saved when closing it (the same text
	 * when they closed it without saving). Without one, the editor closes as
	 * it opened.
	 */
	editor?(path: string, text: string): string;
	/**
	 * The text the reader's editor opened with when they began this edit, if
	 * it was recorded (the sandbox opens the editor, lets time run while the
	 * reader types, and sends the saves later): kubectl edit diffs the saves
	 * against it, as the real one diffs against the object it fetched when
	 * it opened the editor.
	 */
	editOpened?(): string | undefined;
	/** Writes a file on the shell's current host (kubectl edit's copy of the edits in /tmp). */
	writeFile?(path: string, text: string): void;
	/** The file system of the machine kubectl runs on, which `kubectl cp` copies from and into; absent where there is none. */
	localFiles?: LocalFiles;
	/** A number for this run's temporary file name (os.CreateTemp's random part). */
	editSequence?(): number;
	/** Virtual time now, ms since the cluster started; and the matching wall-clock ms. */
	nowMs(): number;
	wallMs(): number;
	/**
	 * Runs the cluster forward until `done()` is true or `timeoutMs` passes,
	 * as a command that waits (rollout status, delete --wait, get -w) does.
	 * Returns whether `done()` became true.
	 */
	waitFor(done: () => boolean, timeoutMs: number): boolean;
	/**
	 * Watches a resource while the cluster runs (for `get -w`), calling
	 * `onEvent` for every event until `stop()` returns true or `timeoutMs`
	 * passes.
	 */
	watch(ref: ResourceRef, request: Pick<ApiRequest, 'namespace' | 'query'>, onEvent: (event: WatchEvent) => void, stop: () => boolean, timeoutMs: number): void;
	/** kubectl's and the server's versions. */
	clientVersion: string;
	/**
	 * GET /version on the API server (for `kubectl version`): its gitVersion,
	 * or why it did not answer. Optional: without it kubectl takes the
	 * server to run `clientVersion` and checks that it answers at all.
	 */
	serverVersion?(): CallResult<{ gitVersion: string }>;
	/**
	 * `kubectl get --raw PATH`: a GET of any path on the API server with the
	 * kubeconfig's credentials, answered with the body as the server sent it.
	 */
	rawGet?(path: string): CallResult<string>;
	/** `kubectl create|replace|delete --raw PATH`: a POST, PUT or DELETE of a file's bytes to any path, answered with the body as sent. */
	rawWrite?(method: 'POST' | 'PUT' | 'DELETE', path: string, body: string): CallResult<string>;
	/** Whether stdout is the reader's terminal (isatty): `kubectl create token` then ends the token with a newline. */
	tty?: boolean;
	/**
	 * The reader's terminal, when kubectl runs at its prompt: `kubectl exec
	 * -it POD -- sh` hands it to a shell in the container, and the lines the
	 * reader types next go there until `exit`. Absent in scripts, pipes and
	 * observers.
	 */
	openContainerSession?(session: ContainerSession): void;
	/**
	 * The reader's Ctrl-C on a raw terminal attached to a container (`kubectl
	 * run -it`): the container's TTY turns it into SIGINT for its foreground
	 * process, which ends with status 130. False when no such container runs.
	 * Absent where kubectl has no terminal.
	 */
	interruptAttached?(namespace: string, pod: string, container: string): boolean;
	/** The kubeconfig file kubectl read ($KUBECONFIG or ~/.kube/config), for `-v=6`'s loader line. */
	kubeconfigPath?: string;
	/** Whether the kubeconfig's user authenticates with a bearer token (`token:`), for `-v=7`'s Authorization header. */
	bearerToken?: boolean;
	/** This kubectl process's id, which klog prints in every `-v` line. */
	pid?: number;
	/** The shell's working directory on the machine kubectl runs on (`kubectl kustomize ./`). */
	workingDir?: string;
	/** What the shell's completion offers for the word at the end of `line` (for `kubectl __complete`). */
	complete?(line: string): string[];
	/**
	 * The local ports of the machine kubectl runs on, for the commands that
	 * listen (`port-forward`, `proxy`); absent where kubectl cannot listen.
	 */
	listener?: LocalListener;
}

/**
 * The calls `kubectl cp` makes on the local file system (os.Stat, os.ReadDir,
 * os.MkdirAll, os.Create), with paths as typed (relative to the shell's
 * working directory). Failures are errno names (`EISDIR`), which kubectl
 * words as Go does (`open /tmp/bar: is a directory`).
 */
export interface LocalFiles {
	/** What is at `path`: a file, a directory, or nothing. */
	stat(path: string): 'file' | 'dir' | undefined;
	read(path: string): string | undefined;
	/** The names in a directory, sorted (os.ReadDir); undefined if it is not one. */
	list(path: string): string[] | undefined;
	/** Creates the directory and its parents (nothing if it is there); the errno name of a failure. */
	mkdirAll(path: string): string | undefined;
	/** Creates or truncates the file with `text`; the errno name of a failure. */
	write(path: string, text: string): string | undefined;
}

/** A port a listening command binds, and where it leads (0 for kubectl proxy, which serves the API itself). */
export interface ListenedPort {
	local: number;
	remote: number;
}

/** What `port-forward` and `proxy` need of the machine's network: free ports, and a job that keeps listening after the command line. */
export interface LocalListener {
	/** The machine's own IPv4 address (besides loopback), which `--address` may name. */
	hostIp: string;
	/** Whether something already listens on `address:port` (bind: address already in use). */
	inUse(address: string, port: number): boolean;
	/** A free port from Linux's ephemeral range, for a local port of 0. */
	freePort(): number;
	/** Keeps listening after the command returns: the forward (to `pod`) or the proxy (under `apiPrefix`) runs as a job. */
	listen(job: { kind: 'port-forward' | 'proxy'; addresses: string[]; ports: ListenedPort[]; pod?: { namespace: string; name: string; uid: string }; apiPrefix?: string }): void;
}

/** An interactive shell in a container that owns the reader's terminal (see KubectlEnvironment.openContainerSession). */
export interface ContainerSession {
	namespace: string;
	pod: string;
	container: string;
	/** The shell as the reader named it (`sh`, `/bin/bash`). */
	shell: string;
	/** The shell's prompt: busybox ash's `/ # `, dash's `# `, bash's `root@web-1:/# `. */
	prompt: string;
	/** Whether `exit` echoes `exit` (bash does). */
	echoesExit: boolean;
	/**
	 * Attached to the container's own shell (`kubectl run -it`), not an exec:
	 * `exit` ends the container's main process, then kubectl prints its
	 * reattach hint (restartPolicy Always) and, with --rm, deletes what it
	 * created.
	 */
	attach?: {
		restartPolicy: string;
		remove: Array<{ resource: 'pods' | 'services'; name: string }>;
		/** What kubectl prints when the session ends (attach's reattachMessage), when it says so itself (`kubectl debug`). */
		reattach?: string;
	};
	/**
	 * The node's root file system is mounted in the container (a hostPath
	 * volume of `/`, as `kubectl debug node/NAME` mounts it at /host): `chroot
	 * PATH` at this path moves the session to the node's own shell.
	 */
	hostRoot?: { node: string; path: string };
}

/** The pid a kubectl reports when the wiring gives none (the reader's shell is 4242, `$$`). */
const DEFAULT_KUBECTL_PID = 4243;

/** What each command receives. */
export interface KubectlInvocation {
	args: ParsedArgs;
	env: KubectlEnvironment;
	stdin: string;
	/** The namespace to use: -n, else the kubeconfig default. */
	namespace: string;
	/** The API client for this invocation (honours --as). */
	client: ApiClient;
	/** The full argv, for messages. */
	argv: string[];
	/**
	 * What the invocation's requests accept and send (the Accept header of
	 * get's server-side tables, protobuf for typed clients): commands set it
	 * before they call the API; `-v=7` logs it.
	 */
	http?: HttpProfile;
}

export interface KubectlCommand {
	/** Name as typed: 'get', 'rollout', 'auth'... */
	name: string;
	aliases?: string[];
	/** One line for `kubectl --help`, in our words. */
	summary: string;
	/** The usage line for errors and `--help`. */
	usage: string;
	flags: FlagSpec[];
	/** The subcommands' names (`rollout status`, `create deployment`), for completion. */
	subcommands?: readonly string[];
	/** The subcommands of a subcommand (`create secret generic`), so a bad flag's usage hint names the one that failed. */
	nestedSubcommands?: Readonly<Record<string, readonly string[]>>;
	/** The longer description `--help` prints instead of the summary, where kubectl has one. */
	long?: string;
	/** Whether the command prints its own `--help` (e.g. to list its subcommands) rather than the summary and usage. */
	handlesHelp?: boolean;
	run(invocation: KubectlInvocation): CommandResult;
}

/** The User-Agent kubectl sends: `kubectl/v1.36.3 (linux/amd64) kubernetes/73fdc7a`. */
export function kubectlUserAgent(clientVersion: string): string {
	return `kubectl/${clientVersion} (${BUILD_INFO.platform}) kubernetes/${BUILD_INFO.gitCommit.slice(0, 7)}`;
}

/** A result with output. */
export function ok(stdout: string, stderr = ''): CommandResult {
	return { stdout, stderr, exitCode: 0 };
}

/** `error: <message>` on stderr, exit 1, as cmdutil.CheckErr prints. */
export function fail(message: string, exitCode = 1): CommandResult {
	return { stdout: '', stderr: message.endsWith('\n') ? message : `${message}\n`, exitCode };
}

/** Levenshtein distance, for cobra's "Did you mean this?" (suggestions within distance 2). */
function distance(a: string, b: string): number {
	const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
	for (let j = 1; j <= b.length; j++) d[0][j] = j;
	for (let i = 1; i <= a.length; i++)
		for (let j = 1; j <= b.length; j++) d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
	return d[a.length][b.length];
}

/** Runs `kubectl <argv...>` (argv without the leading 'kubectl'). */
export function runKubectl(argv: string[], stdin: string, env: KubectlEnvironment, commands: readonly KubectlCommand[]): CommandResult {
	try {
		return dispatch(argv, stdin, env, commands);
	} catch (error) {
		// A bug in the simulation must not look like kubectl's own output, nor crash the terminal.
		return fail(`error: internal error in the simulated kubectl: ${error instanceof Error ? error.message : String(error)}`);
	}
}

/**
 * kubectl's command groups, in the order `kubectl --help` prints them
 * (NewKubectlCommand's templates.CommandGroups). A command this simulation
 * lacks is left out of its group; one in no group is listed under Other
 * Commands, which cobra fills with what the groups do not name.
 */
const COMMAND_GROUPS: ReadonlyArray<{ title: string; names: readonly string[] }> = [
	{ title: 'Basic Commands (Beginner):', names: ['create', 'expose', 'run', 'set'] },
	{ title: 'Basic Commands (Intermediate):', names: ['explain', 'get', 'edit', 'delete'] },
	{ title: 'Deploy Commands:', names: ['rollout', 'scale', 'autoscale'] },
	{ title: 'Cluster Management Commands:', names: ['certificate', 'cluster-info', 'top', 'cordon', 'uncordon', 'drain', 'taint'] },
	{ title: 'Troubleshooting and Debugging Commands:', names: ['describe', 'logs', 'attach', 'exec', 'port-forward', 'proxy', 'cp', 'auth', 'debug', 'events'] },
	{ title: 'Advanced Commands:', names: ['diff', 'apply', 'patch', 'replace', 'wait', 'kustomize'] },
	{ title: 'Settings Commands:', names: ['label', 'annotate', 'completion'] },
];
/** cobra's name column: kubectl's names padded to 15 (its hidden completion commands are the longest), then a space. */
const HELP_NAME_PADDING = 15;

function topLevelHelp(commands: readonly KubectlCommand[]): string {
	const byName = new Map(commands.map((c) => [c.name, c]));
	const row = (c: KubectlCommand) => `  ${c.name.padEnd(HELP_NAME_PADDING)} ${c.summary}`;
	const sections: string[] = [];
	for (const group of COMMAND_GROUPS) {
		const rows = group.names.flatMap((name) => (byName.has(name) ? [row(byName.get(name)!)] : []));
		if (rows.length) sections.push([group.title, ...rows].join('\n'));
	}
	// No plugins are installed on the reader's workstation: the section is there, empty, as kubectl prints it.
	sections.push('Subcommands provided by plugins:');
	const grouped = new Set(COMMAND_GROUPS.flatMap((g) => g.names));
	// `options` is left out of the list: the last line of the help points to it instead.
	const other = commands.filter((c) => !grouped.has(c.name) && c.name !== 'options').sort((a, b) => (a.name < b.name ? -1 : 1));
	if (other.length) sections.push(['Other Commands:', ...other.map(row)].join('\n'));
	const head = 'kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\n';
	return `${head}${sections.join('\n\n')}\n\nUsage:\n  kubectl [flags] [options]\n\nUse "kubectl <command> --help" for more information about a given command.\nUse "kubectl options" for a list of global command-line options (applies to all commands).\n`;
}

function dispatch(argv: string[], stdin: string, env: KubectlEnvironment, commands: readonly KubectlCommand[]): CommandResult {
	// The command is the first argument that is not a global flag (or its value).
	let index = 0;
	while (index < argv.length && argv[index].startsWith('-')) {
		const flag = argv[index].replace(/^-+/, '').split('=')[0];
		const spec = GLOBAL_FLAGS.find((f) => f.name === flag || f.short === flag);
		const takesNext = spec && spec.kind !== 'bool' && !argv[index].includes('=') && argv[index].length <= 2 + flag.length;
		// pflag: a flag that wants a value and is the last word (`kubectl -n`).
		if (takesNext && index + 1 >= argv.length) return fail(argv[index].startsWith('--') ? `error: flag needs an argument: --${spec.name}` : `error: flag needs an argument: '${flag}' in -${flag}`);
		index += takesNext ? 2 : 1;
	}
	const name = argv[index];
	if (name === undefined) return ok(topLevelHelp(commands));
	// `kubectl help get` is cobra's help command: the named command's --help, or the top level's for an unknown one.
	if (name === 'help') {
		const topic = argv.slice(index + 1).filter((word) => !word.startsWith('-'));
		const known = topic.length > 0 && commands.some((c) => c.name === topic[0] || c.aliases?.includes(topic[0]));
		if (!known) return ok(topLevelHelp(commands));
		return dispatch([...topic, '--help'], stdin, env, commands);
	}
	// cobra's hidden completion command: its words are what the reader typed, not flags to parse.
	if (name === '__complete' || name === '__completeNoDesc') return completeWords(argv.slice(index + 1), env);
	const command = commands.find((c) => c.name === name || c.aliases?.includes(name));
	if (!command) {
		const suggestions = commands.filter((c) => distance(c.name, name) <= 2 || c.name.startsWith(name)).map((c) => c.name);
		const hint = suggestions.length ? `\n\nDid you mean this?\n${suggestions.map((s) => `\t${s}`).join('\n')}` : '';
		// component-base silences cobra's own error printing (and its "Run 'kubectl --help' for usage." trailer): only CheckErr's line shows.
		return fail(`error: unknown command "${name}" for "kubectl"${hint}`);
	}
	const typed = [...argv.slice(0, index), ...argv.slice(index + 1)];
	// --record is taken out before parsing: deprecated, registered on the writing commands only (./record.ts).
	const recording = takeRecordFlag(command.name, typed);
	if ('error' in recording) return fail(recording.error);
	const rest = recording.argv;
	// Subcommands parse the command line again: they get it without --record too.
	const tail = takeRecordFlag(command.name, argv.slice(index + 1));
	const commandArgv = recording.given && !('error' in tail) ? [...argv.slice(0, index + 1), ...tail.argv] : argv;
	const specs = [...command.flags, ...GLOBAL_FLAGS.filter((g) => !command.flags.some((f) => f.name === g.name))];
	let args: ParsedArgs;
	try {
		args = parseFlags(rest, specs);
	} catch (error) {
		if (error instanceof FlagError) {
			// cobra finds the subcommand before parsing flags, so the usage hint names it (`kubectl rollout status`).
			const [sub, subsub] = rest.filter((word) => !word.startsWith('-'));
			let path = sub !== undefined && command.subcommands?.includes(sub) ? `${command.name} ${sub}` : command.name;
			if (subsub !== undefined && command.nestedSubcommands?.[sub]?.includes(subsub)) path += ` ${subsub}`;
			return fail(`error: ${error.message}\nSee 'kubectl ${path} --help' for usage.`);
		}
		throw error;
	}
	const refused = refusedGlobalFlag(args.set, args.flags, command.flags);
	if (refused) return fail(refused);
	if (args.flags.help === true && !command.handlesHelp) return ok(leafHelp(command));
	let cause: string | undefined;
	if (recording.record) {
		// The command's path reaches down to the subcommand that runs (`kubectl set image`); the rest are its arguments.
		const path = [command.name];
		const positionals = [...args.positionals];
		if (positionals.length && command.subcommands?.includes(positionals[0])) path.push(positionals.shift()!);
		if (positionals.length && command.nestedSubcommands?.[path[1]]?.includes(positionals[0])) path.push(positionals.shift()!);
		cause = changeCause(`kubectl ${path.join(' ')}`, [...positionals, ...args.passthrough], argv, [...specs, { name: 'record', kind: 'bool' }]);
	}
	// -k DIR: the kustomization's build stands for the manifests, as if given with `-f -` (FilenameOptions).
	let notices = recording.given ? RECORD_DEPRECATION : '';
	if (typeof args.flags.kustomize === 'string' && args.flags.kustomize && command.flags.some((f) => f.name === 'filename')) {
		if (((args.flags.filename as string[] | undefined) ?? []).length) return fail('error: only one of -f or -k can be specified');
		const built = kustomizeDir(env, args.flags.kustomize);
		if ('error' in built) return { stdout: '', stderr: `${built.warnings}error: ${built.error}\n`, exitCode: 1 };
		notices += built.warnings;
		args = { ...args, flags: { ...args.flags, filename: ['-'], kustomize: '' } };
		stdin = built.yaml;
	}
	if (notices) {
		const result = dispatchParsed(command, args, commandArgv, stdin, env, cause);
		const chunks = result.chunks ?? [{ fd: 1 as const, text: result.stdout }, { fd: 2 as const, text: result.stderr }];
		return { ...result, stderr: notices + result.stderr, chunks: [{ fd: 2, text: notices }, ...chunks.filter((c) => c.text)] };
	}
	return dispatchParsed(command, args, commandArgv, stdin, env, cause);
}

/** Runs a command whose flags are parsed: with `-v`, through the request logger. */
function dispatchParsed(command: KubectlCommand, args: ParsedArgs, argv: string[], stdin: string, env: KubectlEnvironment, cause?: string): CommandResult {
	const impersonate = args.set.has('as') ? { user: String(args.flags.as), groups: args.flags['as-group'] as string[] } : undefined;
	if (cause !== undefined) {
		const own = env.client;
		env = { ...env, client: (as) => recordingClient(own(as), cause) };
	}
	const namespace = String(args.flags.namespace || env.defaultNamespace);
	const verbosity = Number(args.flags.v) || 0;
	if (verbosity <= 0) return inWriteOrder(command.run({ args, env, stdin, namespace, client: env.client(impersonate), argv, http: { accept: JSON_ACCEPT, contentType: 'application/json' } }));
	// -v: client-go's debugging round tripper logs every request on stderr (./round-trippers.ts).
	const logger = new RequestLogger({
		verbosity,
		serverUrl: env.serverUrl,
		kubeconfigPath: env.kubeconfigPath,
		pid: env.pid ?? DEFAULT_KUBECTL_PID,
		wallMs: () => env.wallMs(),
		nowMs: () => env.nowMs(),
		// rest.DefaultKubernetesUserAgent: command/version (os/arch) kubernetes/<first 7 of the commit>.
		userAgent: kubectlUserAgent(env.clientVersion),
		impersonate,
		bearerToken: env.bearerToken,
	});
	const watch: KubectlEnvironment['watch'] = (ref, request, onEvent, stop, timeoutMs) => {
		// The watch's request line: its answer is a stream, so only the status is logged.
		logger.roundTrip({ verb: 'watch', ...ref, namespace: request.namespace, query: request.query }, () => ({ code: 200, body: {} }));
		env.watch(ref, request, onEvent, stop, timeoutMs);
	};
	const result = command.run({ args, env: { ...env, watch }, stdin, namespace, client: logger.wrap(env.client(impersonate)), argv, http: logger.profile });
	return inWriteOrder(result, logger.text());
}

/**
 * Orders kubectl's output as a terminal shows it: request logs (`-v`) and
 * `Warning:` lines are written while the requests happen, so before what
 * the command prints at the end; errors come last.
 */
function inWriteOrder(result: CommandResult, requestLog = ''): CommandResult {
	// A command that kept its own write order (drain, edit) knows better: only the request log goes first.
	if (result.chunks) return requestLog ? { ...result, stderr: requestLog + result.stderr, chunks: [{ fd: 2, text: requestLog }, ...result.chunks] } : result;
	const lines = result.stderr.match(/[^\n]*\n|[^\n]+$/g) ?? [];
	// Server warnings, and pflag's deprecation notices (printed while the flags are parsed), come before any output.
	const early = (l: string) => l.startsWith('Warning: ') || /^Flag --\S+ has been deprecated, /.test(l);
	const warnings = lines.filter(early).join('');
	const rest = lines.filter((l) => !early(l)).join('');
	if (!requestLog && !warnings) return result;
	return {
		...result,
		stderr: requestLog + warnings + rest,
		chunks: (
			[
				{ fd: 2, text: requestLog + warnings },
				{ fd: 1, text: result.stdout },
				{ fd: 2, text: rest },
			] as const
		).filter((c) => c.text !== ''),
	};
}

/**
 * `kubectl __complete WORDS...`, cobra's hidden command behind the
 * completion scripts: the candidates for the last word (possibly empty),
 * one per line, then the directive line (`:4`: no file completion) and its
 * name on stderr, as spf13/cobra completions.go writes them.
 */
function completeWords(words: string[], env: KubectlEnvironment): CommandResult {
	const candidates = env.complete?.(['kubectl', ...words].join(' ')) ?? [];
	return { stdout: candidates.map((c) => `${c}\n`).join('') + ':4\n', stderr: 'Completion ended with directive: ShellCompDirectiveNoFileComp\n', exitCode: 0 };
}
