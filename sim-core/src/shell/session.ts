/**
 * ShellSession: the reader's terminal session across the simulated machines.
 * It holds the hosts (a workstation plus nodes), the stack of ssh sessions,
 * variables, aliases and working directory per host, and history, and it
 * runs input line by line like an interactive bash: expansions, pipelines,
 * redirections, here-documents.
 *
 * Command lookup, as bash would find them: builtins (cd, export, echo…), then
 * commands of the current host (systemctl on nodes), then commands registered
 * for every host (kubectl…), then the standard programs (ssh, grep, awk…).
 *
 * Snapshots: toJSON() gives plain JSON (files, variables, cwd, ssh stack,
 * history). To restore, build hosts and register commands as usual, then call
 * restore(json), or use ShellSession.fromJSON(json, name => host). Handlers
 * and hooks are code, not state: the wiring provides them again.
 *
 * Simplified on purpose: each host keeps its own variables and cwd across ssh
 * visits (a real login would start afresh); pipeline stages run one after the
 * other in the current shell; `cmd &` runs in the foreground; an alias replaces
 * only the command word; `exit` on the outermost host does nothing and the
 * rest of a pasted input goes on; compound commands, subshells, arithmetic and
 * brace expansion are refused or left alone (see parse.ts).
 *
 * Mirrors gnu/bash eval.c (reader_loop), gnu/bash execute_cmd.c
 * (execute_simple_command and the command lookup), gnu/bash subst.c
 * (expansions).
 */
import { BUILTINS } from './builtins.ts';
import { COMMANDS } from './commands.ts';
import { FsError, type FsJSON } from '../host/fs.ts';
import { Parser, ShellSyntaxError, assignOf, plainText, type AndOr, type ForCommand, type Pipeline, type SimpleCommand, type Word, type WordPart } from './parse.ts';
import type { CommandHandler, CommandResult, Host } from './types.ts';
import { OUT_MAX, OutputLimit, res } from './utils/common.ts';

/** Bounds that keep any input from hanging or exhausting the page. */
export const LIMITS = {
	/** Characters accepted by one exec() call. */
	input: 1 << 20,
	/** Characters in one line of input. */
	line: 1 << 17,
	/** Simple commands run by one exec() call (xargs and ssh included). */
	commands: 10_000,
	/** Nesting of $(...), `...`, bash -c, ssh host cmd, source. */
	depth: 8,
	/** ssh sessions open at once. */
	stack: 16,
	history: 1000,
	/** Characters kept of one history entry. */
	historyEntry: 16_384,
	/** Characters in the expanded arguments of one command. */
	args: 1 << 20,
	/** Characters one command may write to stdout. */
	output: OUT_MAX,
	/** Characters one exec() call may show on the terminal. */
	terminal: 4 << 20,
};

/** Prefix of messages about faults in the simulation itself (a handler threw), so developers can grep for them. */
export const INTERNAL = '[sim-core/shell]';

/**
 * The prompt as Debian/Ubuntu's default PS1 (`\u@\h:\w\$ `) renders it: the
 * home directory shown as `~`, `#` for root and `$` for anyone else.
 */
export function formatPrompt(user: string, host: string, cwd: string, home: string): string {
	const w = cwd === home ? '~' : home !== '/' && cwd.startsWith(home + '/') ? '~' + cwd.slice(home.length) : cwd;
	return `${user}@${host}:${w}${user === 'root' ? '#' : '$'} `;
}

/** What exec() returns: a CommandResult plus `output`, stdout and stderr interleaved in the order commands wrote them (what a terminal would show). */
export interface ExecResult extends CommandResult {
	output: string;
}

/** Plain-JSON snapshot of a session (see restore()). */
export interface SessionJSON {
	v: 1;
	stack: string[];
	history: string[];
	histBase: number;
	status: number;
	hosts: Array<{ name: string; cwd: string; vars: Array<[string, string]>; exported: string[]; aliases: Array<[string, string]>; fs: FsJSON }>;
}

interface HostState {
	cwd: string;
	vars: Map<string, string>;
	exp: Set<string>;
	al: Map<string, string>;
}

/** Ends the whole exec() with a message (limits). */
class Abort extends Error {}
/** `exit` inside a child shell: unwinds to it. */
class ExitSignal extends Error {
	constructor(readonly code: number) {
		super('exit');
	}
}
/** A failure of one command before it runs (bad redirect); the message is printed, status 1. */
class CommandError extends Error {}

/** The terminal of one (possibly nested) script run: what it wrote, in order. */
class Term {
	o = '';
	e = '';
	a = '';
	full = false;
	w(s: string, err: boolean): void {
		if (!s || this.full) return;
		if (this.a.length + s.length > LIMITS.terminal) {
			this.full = true;
			s = `\n${INTERNAL} terminal output limit reached; further output dropped\n`;
			err = true;
		}
		if (err) this.e += s;
		else this.o += s;
		this.a += s;
	}
}

const DECL = new Set(['export', 'declare', 'local', 'readonly', 'typeset', 'alias']);
const BIN_DIRS = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin', '/usr/local/sbin']);
const errText = (e: unknown) => {
	try {
		return (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ');
	} catch {
		return 'unknown error';
	}
};

/** One reader's shell session over the simulated machines. */
export class ShellSession {
	/** Called by `sleep` with the duration in ms, so the cluster can advance virtual time. */
	onSleep?: (ms: number) => void;
	/** What a machine's clock reads (epoch ms; the workstation's without a name), for `date` and file times; epoch 0 without it. */
	clock?: (machine?: string) => number;
	/** Sets a node's clock to `wallMs` (`date -s`, `timedatectl set-time`). */
	setClock?: (machine: string, wallMs: number) => void;
	/** `$?`: status of the last pipeline. */
	status = 0;
	#hosts = new Map<string, Host>();
	#st = new Map<string, HostState>();
	#stack: string[] = [];
	#hist: string[] = [];
	#histBase = 1;
	#globals = new Map<string, CommandHandler>();
	#term = new Term();
	#depth = 0;
	#count = 0;
	#active = false;
	/** Inside a list that ended with `&` (see AndOr.background). */
	#background = false;
	/** The files standing for `<(...)` during the current input (see #psub). */
	#fifos: Array<{ host: Host; path: string }> = [];
	/** The pipelines being run, innermost last, with the host each runs on (see pipelineCommands). */
	#pipes: Array<{ host: string; cmds: string[][] }> = [];

	constructor(hosts: Host[] = []) {
		for (const h of hosts) this.addHost(h);
	}

	/** Adds (or replaces) a machine. The first workstation added is where the reader starts; its home directory is created if missing. */
	addHost(h: Host): void {
		this.#hosts.set(h.name, h);
		h.fs.home = h.home;
		h.fs.now = () => this.clock?.(h.kind === 'node' ? h.name : undefined) ?? 0;
		try {
			h.fs.mkdir(h.home, true);
		} catch {
			// Something in the way of the home directory: `cd` will say so.
		}
		if (!this.#st.has(h.name)) {
			const vars: Array<[string, string]> = [
				['HOME', h.home],
				['USER', h.user],
				['LOGNAME', h.user],
				['SHELL', '/bin/bash'],
				['PWD', h.home],
				['TERM', 'xterm-256color'],
				['LANG', 'C.UTF-8'],
				['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
			];
			this.#st.set(h.name, { cwd: h.home, vars: new Map([...vars, ['HOSTNAME', h.name]]), exp: new Set(vars.map((v) => v[0])), al: new Map() });
		}
		h.fs.cwd = (this.#st.get(h.name) as HostState).cwd;
		const bottom = this.#hosts.get(this.#stack[0] ?? '');
		if (!bottom || (h.kind === 'workstation' && bottom.kind !== 'workstation' && this.#stack.length === 1)) this.#stack = [h.name];
	}

	/** The machine with this hostname, if any. */
	getHost(name: string): Host | undefined {
		return this.#hosts.get(name);
	}

	/** All hostnames, in the order added. */
	hostNames(): string[] {
		return [...this.#hosts.keys()];
	}

	/** Makes `name` a command on every host (host-specific commands of the same name win). */
	register(name: string, handler: CommandHandler): void {
		this.#globals.set(name, handler);
	}

	/** Removes a command registered with register(). */
	unregister(name: string): void {
		this.#globals.delete(name);
	}

	/** The machine the reader is on now (the innermost ssh session). */
	get host(): Host {
		const h = this.#hosts.get(this.#stack[this.#stack.length - 1] ?? '');
		if (!h) throw new Error('ShellSession has no host: call addHost() first');
		return h;
	}

	/** Names of the machines on the ssh stack, outermost first. */
	hostStack(): string[] {
		return [...this.#stack];
	}

	get #cur(): HostState {
		return this.#st.get(this.host.name) as HostState;
	}

	/** Working directory on the current host. */
	get cwd(): string {
		return this.#cur.cwd;
	}

	/** `cd`: changes the working directory on the current host (FsError if it is missing or not a directory), keeping PWD and OLDPWD. */
	chdir(path: string): void {
		const fs = this.host.fs,
			s = this.#cur;
		fs.cwd = s.cwd;
		const p = fs.resolve(path);
		fs.list(p);
		this.setVar('OLDPWD', s.cwd);
		s.cwd = fs.cwd = p;
		this.setVar('PWD', p);
	}

	/** A shell variable on the current host. */
	getVar(name: string): string | undefined {
		return this.#cur.vars.get(name);
	}

	/** Sets a variable on the current host; `exported` true/false changes whether commands see it, undefined keeps its state. */
	setVar(name: string, value: string, exported?: boolean): void {
		const s = this.#cur;
		s.vars.set(name, value);
		if (exported !== undefined) this.exportVar(name, exported);
	}

	/** `unset NAME`. */
	unsetVar(name: string): void {
		this.#cur.vars.delete(name);
		this.#cur.exp.delete(name);
	}

	/** `export NAME` (or `export -n NAME` with on = false). */
	exportVar(name: string, on = true): void {
		if (on) this.#cur.exp.add(name);
		else this.#cur.exp.delete(name);
	}

	/** Exported variables of the current host: what commands get as their environment. */
	environment(): Record<string, string> {
		const s = this.#cur;
		return Object.fromEntries([...s.exp].filter((k) => s.vars.has(k)).map((k) => [k, s.vars.get(k) as string]));
	}

	/** Aliases of the current host (live map: `alias` edits it). */
	aliases(): Map<string, string> {
		return this.#cur.al;
	}

	/** History entries, oldest first (one per command line; a here-document stays with its command). */
	history(): string[] {
		return [...this.#hist];
	}

	/** Number `history` prints before the oldest entry kept. */
	historyStart(): number {
		return this.#histBase;
	}

	/** `history -c`. */
	clearHistory(): void {
		this.#histBase += this.#hist.length;
		this.#hist = [];
	}

	/** The prompt for the current host, user and directory (see formatPrompt). */
	prompt(): string {
		const h = this.#hosts.get(this.#stack[this.#stack.length - 1] ?? '');
		return h ? formatPrompt(h.user, h.name, this.#cur.cwd, h.home) : '$ ';
	}

	/** Opens an interactive ssh session on `name` (it becomes the current host). False if unknown or too deep. */
	pushHost(name: string): boolean {
		if (!this.#hosts.has(name) || this.#stack.length >= LIMITS.stack) return false;
		this.#stack.push(name);
		return true;
	}

	/** Closes the innermost ssh session; the outermost host is never popped. Returns the host left, if any. */
	popHost(): Host | undefined {
		return this.#stack.length > 1 ? this.#hosts.get(this.#stack.pop() as string) : undefined;
	}

	/**
	 * `exit`: ends a child shell (`ssh host cmd`, `$(...)`, `bash -c`), or at the
	 * reader's prompt closes the innermost ssh session with ssh's messages. On the
	 * outermost host it does nothing: there is nowhere to go back to.
	 */
	exitShell(code: number, message = ''): CommandResult {
		if (this.#depth > 0) {
			this.#term.w(message, true);
			throw new ExitSignal(code);
		}
		const left = this.popHost();
		return left ? res('logout\n', message + `Connection to ${left.name} closed.\n`, code) : res('', message, 0);
	}

	/** What a command name runs here, in bash's lookup order; `builtin` marks shell builtins. */
	/** Every command name `lookup` finds on the current host (builtins, the host's tools, the shell's own), sorted: what bash completes a command word from. */
	commandNames(): string[] {
		const host = this.#hosts.get(this.#stack[this.#stack.length - 1] ?? '');
		return [...new Set([...BUILTINS.keys(), ...(host?.commands.keys() ?? []), ...this.#globals.keys(), ...COMMANDS.keys()])].sort();
	}

	lookup(name: string): { handler: CommandHandler; builtin: boolean } | undefined {
		const b = BUILTINS.get(name);
		if (b) return { handler: b, builtin: true };
		const h = this.#hosts.get(this.#stack[this.#stack.length - 1] ?? '')?.commands.get(name) ?? this.#globals.get(name) ?? COMMANDS.get(name);
		return h && { handler: h, builtin: false };
	}

	/**
	 * Runs what the reader typed or pasted, line by line as interactive bash
	 * would (a syntax error skips only its line). Never throws: a fault in a
	 * command becomes a one-line message prefixed with INTERNAL and status 1.
	 * `stdin` feeds commands that read the terminal.
	 */
	exec(line: string, options: { stdin?: string } = {}): ExecResult {
		if (this.#active) {
			const r = this.runScript(String(line), { stdin: options.stdin });
			return { ...r, output: r.stdout + r.stderr };
		}
		const term = (this.#term = new Term());
		this.#active = true;
		this.#count = 0;
		this.#depth = 0;
		try {
			const src = String(line ?? '').replace(/\r\n?/g, '\n');
			if (src.length > LIMITS.input) throw new Abort(`bash: input too long (limit ${LIMITS.input} characters in this simulated shell)`);
			if (src.split('\n').some((l) => l.length > LIMITS.line)) throw new Abort(`bash: line too long (limit ${LIMITS.line} characters in this simulated shell)`);
			this.#text(src, String(options.stdin ?? ''), true);
		} catch (e) {
			if (e instanceof Abort) term.w(e.message + '\n', true);
			else term.w(`${INTERNAL} internal error: ${errText(e)}\n`, true);
			this.status = 1;
		} finally {
			this.#active = false;
			this.#depth = 0;
			// The pipes of `<(...)` close with the line.
			for (const { host, path } of this.#fifos) if (host.fs.exists(path)) host.fs.remove(path);
			this.#fifos = [];
		}
		return { stdout: term.o, stderr: term.e, exitCode: this.status, output: term.a };
	}

	/** Runs one command from an argument vector (no parsing or expansion) on the current host, as xargs or sudo start a program. `env` replaces the environment. */
	run(argv: string[], stdin = '', env?: Record<string, string>): CommandResult {
		if (!argv.length) return res();
		const r = this.#invoke(argv, stdin, null, env, false);
		this.status = r.exitCode;
		return r;
	}

	/**
	 * Runs a script in a child shell: `exit` ends only it and its output is
	 * returned rather than shown. With `isolate` (bash -c, $(...)) changes to
	 * directory, variables and ssh sessions are undone afterwards, as in a subshell;
	 * without it (source) they stay. `env` (with isolate) makes the child start
	 * from that environment, as `bash -c` does.
	 */
	runScript(src: string, opts: { stdin?: string; isolate?: boolean; env?: Readonly<Record<string, string>> } = {}): CommandResult {
		if (this.#depth >= LIMITS.depth) throw new Abort(`bash: nesting too deep (limit ${LIMITS.depth} levels of $(...), ssh, bash -c and source)`);
		const name = this.host.name,
			s = this.#cur;
		const saved = opts.isolate ? { stack: [...this.#stack], st: { cwd: s.cwd, vars: new Map(s.vars), exp: new Set(s.exp), al: new Map(s.al) } } : null;
		if (saved && opts.env) {
			// A child process shell starts from its environment, not from the parent's unexported variables.
			s.vars = new Map(Object.entries(opts.env));
			s.exp = new Set(s.vars.keys());
		}
		const outer = this.#term,
			inner = (this.#term = new Term());
		this.#depth++;
		try {
			this.#text(src, opts.stdin ?? '', false);
		} catch (e) {
			if (!(e instanceof ExitSignal)) throw e;
			this.status = e.code;
		} finally {
			this.#term = outer;
			this.#depth--;
			if (saved) {
				this.#stack = saved.stack;
				this.#st.set(name, saved.st);
			}
		}
		return { stdout: inner.o, stderr: inner.e, exitCode: this.status };
	}

	/** `ssh host command`: runs a script on another host, starting in its home directory, and comes back. */
	runOn(hostName: string, src: string, stdin = ''): CommandResult {
		const s = this.#st.get(hostName),
			h = this.#hosts.get(hostName);
		if (!s || !h) return res('', `ssh: Could not resolve hostname ${hostName}: Name or service not known\n`, 255);
		const stack = [...this.#stack],
			cwd = s.cwd;
		this.#stack.push(hostName);
		s.cwd = h.home;
		try {
			return this.runScript(src, { stdin });
		} finally {
			this.#stack = stack;
			s.cwd = cwd;
		}
	}

	/** Plain-JSON snapshot: per-host files, variables, aliases, cwd; the ssh stack; history; `$?`. */
	toJSON(): SessionJSON {
		return {
			v: 1,
			stack: [...this.#stack],
			history: [...this.#hist],
			histBase: this.#histBase,
			status: this.status,
			hosts: [...this.#hosts.values()].map((h) => {
				const s = this.#st.get(h.name) as HostState;
				return { name: h.name, cwd: s.cwd, vars: [...s.vars], exported: [...s.exp], aliases: [...s.al], fs: h.fs.toJSON() };
			}),
		};
	}

	/**
	 * Loads a snapshot from toJSON() into this session, whose hosts the wiring
	 * has already added: hosts are matched by name (file systems are loaded in
	 * place); snapshot hosts this session lacks are ignored.
	 */
	restore(json: SessionJSON): void {
		if (json?.v !== 1 || !Array.isArray(json.hosts)) throw new Error('ShellSession.restore: not a shell session snapshot (v1)');
		for (const x of json.hosts) {
			const h = this.#hosts.get(x.name);
			if (!h) continue;
			h.fs.load(x.fs);
			this.#st.set(x.name, { cwd: String(x.cwd), vars: new Map(x.vars), exp: new Set(x.exported), al: new Map(x.aliases ?? []) });
		}
		const stack = json.stack.filter((n) => this.#hosts.has(n));
		if (stack.length) this.#stack = stack.slice(0, LIMITS.stack);
		this.#hist = json.history.map(String).slice(-LIMITS.history);
		this.#histBase = Number(json.histBase) || 1;
		this.status = Number(json.status) & 255;
	}

	/** A new session from a snapshot: `resolveHost` supplies each saved host by name (with its commands); globals must be registered again. */
	static fromJSON(json: SessionJSON, resolveHost: (name: string) => Host | undefined): ShellSession {
		const s = new ShellSession();
		for (const x of json?.hosts ?? []) {
			const h = resolveHost(x.name);
			if (h) s.addHost(h);
		}
		s.restore(json);
		return s;
	}

	// ---- execution ----

	#text(src: string, stdin: string, top: boolean): void {
		const p = new Parser(src);
		for (;;) {
			let c;
			try {
				c = p.next();
			} catch (e) {
				if (!(e instanceof ShellSyntaxError)) throw e;
				this.#term.w(e.message + '\n', true);
				this.status = e.status;
				p.recover(e);
				continue;
			} finally {
				for (const w of p.warnings) this.#term.w(w + '\n', true);
				p.warnings = [];
			}
			if (!c) return;
			if (top && c.text.trim()) {
				this.#hist.push(c.text.slice(0, LIMITS.historyEntry));
				if (this.#hist.length > LIMITS.history) {
					this.#hist.shift();
					this.#histBase++;
				}
			}
			for (const ao of c.list) this.#andOr(ao, stdin);
		}
	}

	#andOr(list: AndOr, stdin: string): void {
		const outer = this.#background;
		this.#background = outer || list.background === true;
		try {
			for (const { op, pipe } of list) if (!((op === '&&' && this.status) || (op === '||' && !this.status))) this.#pipeline(pipe, stdin);
		} finally {
			this.#background = outer;
		}
	}

	#pipeline(p: Pipeline, stdin: string): void {
		let data = stdin;
		// What `ps` sees of the pipeline while it runs: every stage's words as typed (variables read, nothing run), aliases applied; a loop shows as `for`.
		const cmds = p.cmds.map((c) => {
			if ('k' in c) return ['for'];
			const argv = c.words.map((w) => w.map((part) => (part.k === 'lit' ? part.v : part.k === 'var' ? (this.#cur.vars.get(part.v) ?? '') : `$(${part.v})`)).join(''));
			const alias = argv.length ? this.#cur.al.get(argv[0]) : undefined;
			return alias ? [...alias.split(/\s+/).filter(Boolean), ...argv.slice(1)] : argv;
		});
		this.#pipes.push({ host: this.host.name, cmds });
		try {
			p.cmds.forEach((c, i) => (data = 'k' in c ? this.#for(c, data, i < p.cmds.length - 1) : this.#simple(c, data, i < p.cmds.length - 1)));
		} finally {
			this.#pipes.pop();
		}
		if (p.bang) this.status = this.status ? 0 : 1;
	}

	/** The commands of the innermost pipeline running on the current host, as typed (for `ps`, which sees its pipeline's other processes); undefined when it runs on another host. */
	pipelineCommands(): string[][] | undefined {
		const top = this.#pipes[this.#pipes.length - 1];
		return top && top.host === this.host.name ? top.cmds.map((c) => [...c]) : undefined;
	}

	/**
	 * A for loop: WORDS expanded once (command substitutions run, fields
	 * split), then LIST once per field with NAME set. Its status is the last
	 * command's, 0 when it never ran. In a pipeline its output is collected
	 * for the next command, as bash's subshell for the loop would pass it on.
	 */
	#for(c: ForCommand, stdin: string, piped: boolean): string {
		const fields = c.words === null ? [] : this.#fields(c.words);
		const outer = this.#term;
		const inner = piped ? (this.#term = new Term()) : outer;
		try {
			this.status = 0;
			for (const field of fields) {
				this.setVar(c.name, field);
				for (const ao of c.body) this.#andOr(ao, stdin);
			}
		} finally {
			this.#term = outer;
		}
		if (!piped) return '';
		outer.w(inner.e, true);
		return inner.o;
	}

	/** Runs one simple command; returns its stdout when that goes down the pipe (otherwise it is on the terminal already). */
	#simple(c: SimpleCommand, stdin: string, piped: boolean): string {
		type Sink = 'P' | 'E' | null | { p: string };
		const fs = this.host.fs;
		fs.cwd = this.#cur.cwd;
		const fd: Sink[] = ['P', 'P', 'E'];
		let input = stdin,
			target = '',
			argv: string[];
		const prefix = new Map<string, string>();
		try {
			argv = this.#fields(c.words);
			for (const a of c.assigns) prefix.set(a.name, this.#str(a.value));
			for (const r of c.redirs) {
				if (r.op === '<<' || r.op === '<<<') {
					input = this.#str(r.target) + (r.op === '<<<' ? '\n' : '');
					continue;
				}
				const f: string[] = [];
				this.#expand(r.target, f);
				if (f.length !== 1) throw new CommandError('bash: ambiguous redirect');
				target = f[0];
				if (r.op === '<') input = target === '/dev/null' ? '' : fs.readFile(target);
				else if (r.op === '>&' && /^[012-]$/.test(target)) fd[r.fd] = target === '-' ? null : fd[+target];
				else if (r.op !== '<&') {
					const both = r.op[0] === '&' || (r.op === '>&' && r.fd === 1),
						append = r.op.endsWith('>>');
					let sink: Sink;
					if (target === '/dev/null') sink = null;
					else if (target === '/dev/stdout' || target === '/dev/stderr') sink = fd[target === '/dev/stdout' ? 1 : 2];
					else {
						const path = fs.resolve(target);
						fs.writeFile(path, '', { append });
						sink = { p: path };
					}
					if (both) fd[1] = fd[2] = sink;
					else fd[r.fd] = sink;
				}
			}
		} catch (e) {
			if (!(e instanceof FsError || e instanceof CommandError)) throw e;
			this.#term.w(e instanceof FsError ? `bash: ${target}: ${e.message}\n` : e.message + '\n', true);
			this.status = 1;
			return '';
		}
		if (!argv.length) {
			for (const [k, v] of prefix) this.setVar(k, v);
			this.status = this.#subStatus;
			return '';
		}
		const r = this.#invoke(argv, input, prefix, undefined, this.#depth === 0 && !piped && fd[1] === 'P');
		this.status = r.exitCode;
		let out = '';
		const send = (s: Sink, d: string) => {
			if (!d || s === null) return;
			if (s === 'P' && piped) out += d;
			else if (s === 'P') this.#term.w(d, false);
			else if (s === 'E') this.#term.w(d, true);
			else
				try {
					fs.writeFile(s.p, d, { append: true });
				} catch (e) {
					if (!(e instanceof FsError)) throw e;
					this.#term.w(`bash: ${s.p}: write error: ${e.message}\n`, true);
				}
		};
		if (r.chunks) for (const c of r.chunks) send(fd[c.fd], c.text);
		else {
			send(fd[1], r.stdout);
			send(fd[2], r.stderr);
		}
		return out;
	}

	#invoke(argv: string[], stdin: string, prefix: Map<string, string> | null, env: Record<string, string> | undefined, tty: boolean): CommandResult {
		if (++this.#count > LIMITS.commands) throw new Abort(`bash: too many commands in one input (limit ${LIMITS.commands} in this simulated shell)`);
		const al = this.#cur.al.get(argv[0]);
		if (al !== undefined && prefix) {
			// Alias expansion, simplified: the alias text is split into words and replaces the command name.
			const words = al.split(/\s+/).filter(Boolean);
			if (words.length) argv = [...words, ...argv.slice(1)];
		}
		let name = argv[0],
			f = this.lookup(name);
		if (!f && name.includes('/')) {
			const slash = name.lastIndexOf('/'),
				base = name.slice(slash + 1);
			const g = BIN_DIRS.has(name.slice(0, slash)) ? this.lookup(base) : undefined;
			if (!g || g.builtin)
				return this.host.fs.exists(name) ? res('', `bash: ${name}: Permission denied\n`, 126) : res('', `bash: ${name}: No such file or directory\n`, 127);
			f = g;
			name = base;
		}
		if (!f) return res('', `bash: ${name}: command not found\n`, 127);
		const host = this.host;
		host.fs.cwd = this.#cur.cwd;
		const entries = Object.entries(env ?? this.environment());
		if (prefix) entries.push(...prefix);
		let r: CommandResult;
		try {
			r = f.handler({ argv: [name, ...argv.slice(1)], stdin, env: Object.fromEntries(entries), host, shell: this, tty, ...(this.#background ? { background: true } : {}) });
		} catch (e) {
			if (e instanceof Abort || e instanceof ExitSignal) throw e;
			r = e instanceof OutputLimit ? res(e.partial, '', 1) : res('', `${INTERNAL} ${name}: internal error: ${errText(e)}\n`, 1);
		}
		// Handlers are other people's code: accept only well-formed results.
		const ok = r !== null && typeof r === 'object';
		let stdout = ok && typeof r.stdout === 'string' ? r.stdout : '',
			stderr = ok && typeof r.stderr === 'string' ? r.stderr : '';
		const code = ok && Number.isInteger(r.exitCode) ? r.exitCode & 255 : 1;
		if (stdout.length > LIMITS.output) {
			stdout = stdout.slice(0, LIMITS.output);
			stderr += `\n${INTERNAL} ${name}: output cut at ${LIMITS.output} characters\n`;
			return { stdout, stderr, exitCode: code };
		}
		// Keep the write order only when it accounts for exactly what the command printed.
		const chunks = ok && Array.isArray(r.chunks) ? r.chunks : undefined;
		const consistent =
			chunks !== undefined &&
			chunks.every((c) => (c.fd === 1 || c.fd === 2) && typeof c.text === 'string') &&
			chunks.filter((c) => c.fd === 1).map((c) => c.text).join('') === stdout &&
			chunks.filter((c) => c.fd === 2).map((c) => c.text).join('') === stderr;
		return consistent ? { stdout, stderr, exitCode: code, chunks } : { stdout, stderr, exitCode: code };
	}

	// ---- expansion ----

	#subStatus = 0;

	/** Expands the words of a command into arguments: parameters, command substitution, field splitting, pathname expansion. */
	#fields(words: Word[]): string[] {
		this.#subStatus = 0;
		const out: string[] = [];
		const decl = words.length > 0 && DECL.has(plainText(words[0]) ?? '');
		for (const [i, w] of words.entries()) {
			const a = decl && i ? assignOf(w) : null;
			if (a) out.push(`${a.name}=${this.#str(a.value)}`);
			else this.#expand(w, out);
		}
		if (out.reduce((n, x) => n + x.length, 0) > LIMITS.args) throw new Abort(`bash: ${out[0]}: Argument list too long`);
		return out;
	}

	/** One word without splitting or globbing (assignments, here-documents). */
	#str(w: Word): string {
		let s = '';
		for (const p of w) if ((s += this.#part(p)).length > LIMITS.args) throw new Abort('bash: expansion too long');
		return s;
	}

	#part(p: WordPart): string {
		return p.k === 'lit' ? p.v : p.k === 'var' ? this.#param(p) : p.k === 'psub' ? this.#psub(p.v) : this.#subst(p.v);
	}

	/**
	 * `<(...)`: bash runs the list with its output on a pipe and passes
	 * `/dev/fd/63` (62, 61... for the next ones); here the output is
	 * collected first and the path names a file holding it until the
	 * input line ends. `$?` is left alone, as bash leaves it.
	 */
	#psub(src: string): string {
		const status = this.status;
		const r = this.runScript(src, { isolate: true });
		this.#term.w(r.stderr, true);
		this.status = status;
		const fs = this.host.fs;
		const path = `/dev/fd/${63 - this.#fifos.filter((f) => f.host === this.host).length}`;
		fs.mkdir('/dev/fd', true);
		fs.writeFile(path, r.stdout);
		this.#fifos.push({ host: this.host, path });
		return path;
	}

	/** Expands a word into zero or more fields: unquoted expansions split on blanks; unquoted `* ? [` glob against the host's files. */
	#expand(w: Word, out: string[]): void {
		let cur = '',
			pat = '',
			has = false,
			magic = false;
		const end = () => {
			if (has) {
				const g = magic ? this.host.fs.glob(pat) : [];
				out.push(...(g.length ? g : [cur]));
			}
			cur = pat = '';
			has = magic = false;
		};
		const add = (s: string, quoted: boolean) => {
			cur += s;
			pat += quoted ? s.replace(/[*?[\\]/g, '\\$&') : s;
			magic ||= !quoted && /[*?[]/.test(s);
			has = true;
			if (cur.length > LIMITS.args) throw new Abort('bash: expansion too long');
		};
		for (const p of w) {
			const v = this.#part(p);
			if (p.q || p.k === 'lit') add(v, p.q);
			else
				v.split(/[ \t\n]+/).forEach((s, i) => {
					if (i) end();
					if (s) add(s, false);
				});
		}
		end();
	}

	#param(p: { v: string; op?: string; arg?: string }): string {
		const n = p.v,
			arg = p.arg ?? '';
		const v =
			n === '?'
				? String(this.status)
				: n === '$'
					? '4242'
					: n === '#'
						? '0'
						: n === '0'
							? 'bash'
							: n === '~'
								? (this.getVar('HOME') ?? this.host.home)
								: /^[-\d@*!]$/.test(n)
									? undefined
									: this.getVar(n);
		if (p.op === '#') return String((v ?? '').length);
		if (p.op === ':-' ? !v : p.op === '-' && v === undefined) return arg;
		return v ?? '';
	}

	/** `$(...)`: runs in a child shell; its stderr shows, trailing newlines go, and `$?` becomes its status. */
	#subst(src: string): string {
		const r = this.runScript(src, { isolate: true });
		this.#term.w(r.stderr, true);
		this.#subStatus = this.status = r.exitCode;
		return r.stdout.replace(/\n+$/, '');
	}
}
