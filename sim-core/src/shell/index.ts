/**
 * The simulated shell: parser, session, in-memory file system and the
 * standard tools. Cluster tools plug in through ShellSession.register() (on
 * every host) and Host.commands (one host only).
 *
 *     const ws: Host = { name: 'workstation', kind: 'workstation', user: 'user', home: '/home/user', fs: new MemoryFs(), commands: new Map() };
 *     const cp: Host = { name: 'control-plane', kind: 'node', user: 'root', home: '/root', fs: new MemoryFs(), commands: new Map([['systemctl', systemctl]]) };
 *     const shell = new ShellSession([ws, cp]);
 *     shell.register('kubectl', kubectl);
 *     shell.clock = () => kernel.now();            // for date and file times
 *     shell.onSleep = (ms) => kernel.advance(ms);  // for sleep
 *     const r = shell.exec('kubectl get pods | grep -v Running');  // { stdout, stderr, exitCode, output }
 *     term.write(r.output); term.write(shell.prompt());
 *
 * Snapshots: JSON.stringify(shell.toJSON()); later rebuild the hosts and call
 * ShellSession.fromJSON(json, (name) => hostsByName.get(name)) and register
 * the global commands again (or call restore(json) on a freshly wired session).
 *
 * Mirrors nothing upstream: the entry point of the simulator's shell.
 */
export type { CommandContext, CommandHandler, CommandResult, Host } from './types.ts';
export {
	MAX_HEREDOC,
	Parser,
	ShellSyntaxError,
	parse,
	type AndOr,
	type Assign,
	type Complete,
	type Pipeline,
	type Redir,
	type RedirOp,
	type SimpleCommand,
	type Word,
	type WordPart,
} from './parse.ts';
export { INTERNAL, LIMITS, ShellSession, formatPrompt, type ExecResult, type SessionJSON } from './session.ts';
export { CLEAR_SCREEN } from './commands.ts';
export { DATE_DEFAULT, gmtime, strftime, type Tm } from './date.ts';
export { OUT_MAX, res } from './utils/common.ts';
export { RegexError, compileRegex, type Regex, type RegexOptions } from './utils/regex.ts';
