/**
 * The contract between the shell and the tools plugged into it (kubectl,
 * etcdctl, systemctl…): a command is a pure function from what a process would
 * see (argv, stdin, environment, machine) to what it would leave behind.
 *
 * Mirrors nothing upstream: the simulator's contract between its shell and
 * the commands plugged into it.
 */
import type { MemoryFs } from '../host/fs.ts';
import type { ShellSession } from './session.ts';

/** What a finished process leaves: its two output streams and its exit status (0–255, like `$?`). */
export interface CommandResult {
	stdout: string;
	stderr: string;
	exitCode: number;
	/**
	 * The order in which the process wrote its two streams, when it matters
	 * on a terminal (kubectl prints server warnings and `-v` request logs
	 * before its table). The chunks' texts must add up to `stdout` and
	 * `stderr`. Without it, stdout is shown before stderr.
	 */
	chunks?: ReadonlyArray<{ fd: 1 | 2; text: string }>;
}

/** What a command sees when it runs, as a Unix process sees argv, stdin, environ and its machine. */
export interface CommandContext {
	/** Arguments after expansion and quote removal; argv[0] is the command name. */
	argv: string[];
	/** Everything on standard input: the previous pipeline stage, a `<` file, a here-document, or ''. */
	stdin: string;
	/** Exported variables plus `VAR=value` prefixes for this command only. */
	env: Readonly<Record<string, string>>;
	/** The machine the command runs on (the workstation, or the node reached with ssh). Its fs.cwd is the shell's working directory there. */
	host: Host;
	/** The session, for tools that run other commands (xargs, ssh, sudo) or read shell state. */
	shell: ShellSession;
	/** True when stdout goes straight to the reader's terminal (not a pipe, a file or `$(...)`), as isatty(1) would say; `ls` then prints columns. */
	tty?: boolean;
	/** The command's list ended with `&`: bash would run it as a background job. */
	background?: boolean;
}

/** A command implementation. It must not throw for user errors: it reports them on stderr with a non-zero exitCode, as real tools do. */
export type CommandHandler = (ctx: CommandContext) => CommandResult;

/** One simulated machine: a workstation the reader starts on, or a cluster node reached with `ssh`. */
export interface Host {
	/** Hostname, as `hostname` prints and `ssh` resolves it. */
	name: string;
	/** This machine's files. */
	fs: MemoryFs;
	/** Commands installed only on this machine (systemctl, crictl… on nodes); they shadow global commands of the same name. */
	commands: Map<string, CommandHandler>;
	/** Login user: `root` gives a `#` prompt. */
	user: string;
	/** Home directory, where `~` and `cd` lead. */
	home: string;
	kind: 'workstation' | 'node';
}
