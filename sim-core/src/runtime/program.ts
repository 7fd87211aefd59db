/**
 * Runs a container's main process over virtual time. The process is a
 * small program (a compiled `sh -c` script, or one command) executed by a
 * resumable interpreter whose whole state is plain JSON: the runtime
 * advances it lazily to "now" whenever someone looks (logs, exec, probes)
 * and at the instants it predicts the process will exit. Nothing is
 * scheduled for a `while true; do echo; sleep 1; done` loop: its output is
 * produced when read, so a looping container costs no events.
 *
 * Signals follow Linux semantics for PID 1: a signal without a handler is
 * dropped, so only servers with a handler (and shells with `trap`) react
 * to the stop signal; SIGKILL at the end of the grace period always ends
 * the process with exit code 137. A trap set by a shell runs only when the
 * foreground command finishes, except while the shell is in `wait`.
 *
 * Loosely, it is what runc and the shim observe of a process: start, output,
 * exit status.
 *
 * Mirrors nothing upstream: a resumable interpreter standing in for a
 * container's real process, which runs under runc and
 * containerd-shim-runc-v2.
 */
import type { FsStats } from '../host/filesystem-stats.ts';
import type { CatalogImage } from './images.ts';
import { compileScript, evalArithmetic, ShellSyntaxError, type Instr, type Redirect, type Word } from './sh.ts';
import { binaryExists, isShell, listDirectory, normalizePath, readFile, runCommand, unwrapEntrypoint, type ContainerContext, type FileOverrides, type OutputLine, type ServerSpec } from './behaviour.ts';
import { isReadOnlyPath } from './mounts.ts';
import { deepCopy } from '../golang/json.ts';

/** Why the process ended, as the runtime reports it. */
type ExitReason = 'Completed' | 'Error' | 'OOMKilled';

/** The interpreter's state. Plain JSON, kept in the container record. */
export interface ProgramState {
	code: Instr[];
	pc: number;
	vars: Record<string, string>;
	/** $? */
	status: number;
	/** Values of running `for` loops. */
	slots: string[][];
	/** Who is PID 1: the shell running the script, or the command itself (exec'd). */
	pid1: 'shell' | 'command';
	/** Whether the command went through the image's entrypoint script. */
	viaEntrypoint: boolean;
	/** Virtual time (ms) the program has been run up to. */
	atMs: number;
	/** In a foreground `sleep` until this time (null: forever). */
	sleepUntilMs?: number | null;
	/** What a command that takes time (a large dd) writes when its sleep ends. */
	pendingFiles?: Record<string, string>;
	/** Sleeping inside `wait` (interruptible by a trapped signal). */
	inWait?: boolean;
	/** Latest end of background `sleep`s, for `wait`. */
	backgroundUntilMs?: number | null;
	/** Serving requests (the main process became a server). */
	serving?: { server: ServerSpec; sinceMs: number; asPid1: boolean };
	/** Shell traps: signal name → script. */
	traps: Record<string, string>;
	/** A stop in progress: when the stop signal and SIGKILL land. */
	stop?: { signalAtMs: number; killAtMs: number | null; trapDone?: boolean };
	exited?: { code: number; atMs: number; reason: ExitReason };
	/** A prediction stopped here: a network command at this instant must run with the network as it is then. */
	blockedAtMs?: number;
}

/** What the interpreter needs from its container. */
export interface ProgramHost {
	image: CatalogImage;
	ctx: ContainerContext;
	/** The writable layer (mutated in place). */
	files: FileOverrides;
	/** Wall-clock epoch of virtual time 0. */
	epochMs: number;
	/** Appends one output line at virtual time `atMs`. */
	write(atMs: number, line: OutputLine): void;
	/** Whether some process of the container listens on `port` at `atMs`. */
	listening(port: number, atMs: number): boolean;
	/** The node's root file system now (the disk tools stop when it is full; df shows it). */
	rootFs?(): FsStats;
	/** The main process became a server (the runtime fires system-component hooks here). */
	onServe?(server: ServerSpec, atMs: number): void;
	/** Commands run to completion outside the main process (exec, `$(...)`, traps). */
	sync?: boolean;
	/** How deep in nested `$(...)` the commands run. */
	substDepth?: number;
	/**
	 * Network clients (curl) run against the cluster's network, given the
	 * argv and a reader of the container's files; undefined leaves the
	 * command to the image's behaviour. Set only for exec'd commands, which
	 * run at one known instant: a main process is evaluated lazily, and its
	 * connections must not depend on when someone looked.
	 */
	network?(argv: string[], readFile: (path: string) => string | undefined): NetworkOutcome | undefined;
	/**
	 * The network for the main process, usable only at the instant the
	 * runtime looks (`atMs`): the runtime schedules a look at the instant a
	 * network command comes up (predictExit stops there), so the command
	 * sees the cluster as it is then, not as it is when someone reads the
	 * log later.
	 */
	liveNetwork?: { atMs: number; run(argv: string[], readFile: (path: string) => string | undefined): NetworkOutcome | undefined };
	/** A look-ahead (predictExit): a network command ends the look-ahead at its instant. */
	predicting?: boolean;
	/** An exec's standard input (`kubectl exec -i`, `kubectl cp`'s tar stream), whole; the commands that read it see it. */
	stdin?: string;
}

/** What a network client answered, and the files it wrote (wget's download). */
export interface NetworkOutcome {
	exitCode: number;
	stdout: string;
	stderr: string;
	files?: Record<string, string>;
	/** How long it took on the virtual clock (the server's answer time). */
	elapsedMs?: number;
}

/** The clients that go out on the network: their answer depends on the cluster at the instant they run. */
const NETWORK_CLIENTS = new Set(['curl', 'wget', 'nc', 'netcat', 'ping', 'nslookup', 'dig', 'host']);

/** Bounds: instructions per advance, and per instant (a loop with no sleep spins). */
const MAX_STEPS_PER_ADVANCE = 200_000;
const MAX_STEPS_PER_INSTANT = 50_000;
/** Nested `$(...)` depth. */
const MAX_SUBST_DEPTH = 4;

/** Compiles the main process of a container from its resolved argv. */
export function createProgram(image: CatalogImage, argv: string[], startMs: number): { ok: true; program: ProgramState } | { ok: false; notFound: string } {
	const unwrapped = unwrapEntrypoint(image, argv);
	const args = unwrapped.argv;
	const base: ProgramState = { code: [], pc: 0, vars: {}, status: 0, slots: [], pid1: 'command', viaEntrypoint: unwrapped.viaEntrypoint, atMs: startMs, traps: {} };
	if (args.length === 0) return { ok: false, notFound: '' };
	if (isShell(args[0])) {
		if (!hasBinary(image, args[0])) return { ok: false, notFound: args[0] };
		const c = args.indexOf('-c');
		if (c < 0 || c + 1 >= args.length) {
			// A shell with no script reads stdin; a container has none, so it exits 0 at once.
			return { ok: true, program: { ...base, pid1: 'shell', code: [] } };
		}
		const script = args[c + 1];
		// `sh -c script name arg1 ...`: $0 and positional parameters.
		const vars: Record<string, string> = {};
		args.slice(c + 2).forEach((v, i) => (vars[String(i)] = v));
		try {
			const compiled = compileScript(script);
			return { ok: true, program: { ...base, vars, code: compiled.code, slots: compiled.slots ? Array.from({ length: compiled.slots }, () => []) : [], pid1: compiled.single ? 'command' : 'shell' } };
		} catch (error) {
			const message = error instanceof ShellSyntaxError ? error.message : String(error);
			// The shell prints the syntax error and exits 2.
			return { ok: true, program: { ...base, pid1: 'shell', code: [{ op: 'cmd', words: [lit('echo'), lit(`sh: ${message}`)], assigns: [], redirects: [{ fd: 1, op: '>&2' }] }, { op: 'cmd', words: [lit('exit'), lit('2')], assigns: [], redirects: [] }] } };
		}
	}
	if (!hasBinary(image, args[0])) return { ok: false, notFound: args[0] };
	return { ok: true, program: { ...base, code: [{ op: 'cmd', words: args.map(lit), assigns: [], redirects: [] }] } };
}

function hasBinary(image: CatalogImage, binary: string): boolean {
	return binaryExists(image, binary);
}

function lit(v: string): Word {
	return { parts: [{ t: 'lit', v, q: true }] };
}

/** Records the stop request (CRI StopContainer): the stop signal now, SIGKILL after `timeoutMs` (null: no kill). */
export function requestStop(program: ProgramState, atMs: number, timeoutMs: number | null): void {
	if (program.exited) return;
	const killAtMs = timeoutMs === null ? null : atMs + timeoutMs;
	if (program.stop) {
		// A second stop may only shorten the deadline.
		if (killAtMs !== null && (program.stop.killAtMs === null || killAtMs < program.stop.killAtMs)) program.stop.killAtMs = killAtMs;
		return;
	}
	program.stop = { signalAtMs: atMs, killAtMs };
}

/**
 * Whether advancing the program to `untilMs` may run commands (and so read
 * or write files): a server, or a sleep that lasts past `untilMs`, runs none.
 */
export function programMayRun(program: ProgramState, untilMs: number): boolean {
	if (program.exited || program.serving) return false;
	if (program.stop || program.sleepUntilMs === undefined) return true;
	return program.sleepUntilMs !== null && program.sleepUntilMs <= untilMs;
}

/** Ends the process now with SIGKILL (StopPodSandbox, or an OOM). */
export function killNow(program: ProgramState, atMs: number): void {
	if (program.exited) return;
	program.exited = { code: 137, atMs, reason: 'Error' };
}

/**
 * Runs the program up to `untilMs` (virtual). Idempotent for times already
 * reached. Returns false when the step budget ran out first: then, unless
 * `skipAhead` is false, the program jumps to `untilMs` keeping its place in
 * the loop (the skipped output would have left the log ring anyway).
 */
export function advanceProgram(program: ProgramState, host: ProgramHost, untilMs: number, options: { maxSteps?: number; skipAhead?: boolean } = {}): boolean {
	const maxSteps = options.maxSteps ?? MAX_STEPS_PER_ADVANCE;
	let steps = 0;
	let instantSteps = 0;
	let instantAt = program.atMs;
	while (!program.exited) {
		if (++steps > maxSteps) {
			if (options.skipAhead === false) return false;
			if (program.sleepUntilMs !== undefined && program.sleepUntilMs !== null && program.sleepUntilMs < untilMs) program.sleepUntilMs = untilMs;
			program.atMs = Math.max(program.atMs, untilMs);
			return false;
		}
		const killAt = program.stop?.killAtMs ?? Number.POSITIVE_INFINITY;
		if (program.serving) {
			const s = program.serving;
			const crashAt = s.server.exitsAfter ? s.sinceMs + s.server.exitsAfter.afterMs : Number.POSITIVE_INFINITY;
			const reacts = program.stop && s.asPid1 && s.server.onStop.kind === 'graceful';
			const stopAt = reacts && program.stop && s.server.onStop.kind === 'graceful' ? program.stop.signalAtMs + s.server.onStop.afterMs : Number.POSITIVE_INFINITY;
			const t = Math.min(crashAt, stopAt, killAt);
			if (t > untilMs) {
				program.atMs = Math.max(program.atMs, untilMs);
				return true;
			}
			if (t === killAt && killAt < Math.min(crashAt, stopAt)) {
				finish(program, killAt, 137, 'Error');
				return true;
			}
			if (t === stopAt && program.stop && s.server.onStop.kind === 'graceful') {
				for (const text of s.server.shutdown) host.write(program.stop.signalAtMs, { stream: 'stderr', text });
				finish(program, stopAt, s.server.onStop.exitCode, s.server.onStop.exitCode === 0 ? 'Completed' : 'Error');
				return true;
			}
			const crash = s.server.exitsAfter!;
			for (const line of crash.lines) host.write(crashAt, line);
			finish(program, crashAt, crash.exitCode, crash.reason ?? (crash.exitCode === 0 ? 'Completed' : 'Error'));
			return true;
		}
		if (program.sleepUntilMs !== undefined) {
			const wake = program.sleepUntilMs ?? Number.POSITIVE_INFINITY;
			// A trapped signal interrupts `wait` at once; otherwise the trap waits for the sleep.
			const trap = program.stop && !program.stop.trapDone ? trapFor(program) : undefined;
			const trapAt = trap !== undefined && program.stop ? (program.inWait ? Math.max(program.stop.signalAtMs, program.atMs) : Math.max(wake, program.stop.signalAtMs)) : Number.POSITIVE_INFINITY;
			const next = Math.min(wake, trapAt);
			if (killAt <= Math.min(next, untilMs)) {
				finish(program, killAt, 137, 'Error');
				return true;
			}
			if (next > untilMs) {
				program.atMs = Math.max(program.atMs, untilMs);
				return true;
			}
			program.atMs = next;
			program.sleepUntilMs = undefined;
			program.inWait = undefined;
			if (program.pendingFiles && wake <= next) {
				Object.assign(host.files, program.pendingFiles);
				program.pendingFiles = undefined;
			}
			program.pc++;
			if (trapAt <= next && trap !== undefined) {
				runTrap(program, host, trap);
				if (program.exited) return true;
			}
			continue;
		}
		if (program.atMs !== instantAt) {
			instantAt = program.atMs;
			instantSteps = 0;
		}
		if (++instantSteps > MAX_STEPS_PER_INSTANT) {
			// A loop that never sleeps: it spins on the CPU forever, printing nothing more.
			program.sleepUntilMs = null;
			program.pc--;
			continue;
		}
		if (program.stop && !program.stop.trapDone && program.stop.signalAtMs <= program.atMs) {
			const trap = trapFor(program);
			if (trap !== undefined) {
				runTrap(program, host, trap);
				if (program.exited) return true;
			}
		}
		if (program.pc >= program.code.length) {
			finish(program, program.atMs, program.status, program.status === 0 ? 'Completed' : 'Error');
			return true;
		}
		step(program, host);
		if (program.blockedAtMs !== undefined) return false;
	}
	return true;
}

function trapFor(program: ProgramState): string | undefined {
	if (program.pid1 !== 'shell' || (program.serving && program.serving.asPid1)) return undefined;
	return program.traps.TERM ?? program.traps.SIGTERM ?? program.traps['15'] ?? program.traps.QUIT ?? program.traps.INT;
}

function runTrap(program: ProgramState, host: ProgramHost, script: string): void {
	if (program.stop) program.stop.trapDone = true;
	const result = runSync(script, host, program.vars, program.atMs, 0);
	for (const line of result.out) host.write(program.atMs, line);
	if (result.exit !== undefined) finish(program, program.atMs, result.exit, result.exit === 0 ? 'Completed' : 'Error');
}

function finish(program: ProgramState, atMs: number, code: number, reason: ExitReason): void {
	program.atMs = atMs;
	program.sleepUntilMs = undefined;
	program.exited = { code, atMs, reason };
}

/** Step budget of one prediction: a longer program is looked at again later. */
const PREDICT_STEPS = 20_000;

/**
 * Predicts when the process will exit by itself or by the pending stop,
 * looking no further than `horizonMs`: `{ exit }` if it will, `{ recheckAtMs }`
 * when the look-ahead ran out of budget before the horizon (look again then),
 * or `{}` when it runs on past the horizon.
 */
export function predictExit(program: ProgramState, host: ProgramHost, horizonMs: number): { exit?: { atMs: number; code: number; reason: ExitReason }; recheckAtMs?: number } {
	if (program.exited) return { exit: program.exited };
	const copy: ProgramState = deepCopy(program);
	const scratch: ProgramHost = { ...host, ctx: { ...host.ctx, fileModes: { ...host.ctx.fileModes } }, files: deepCopy(host.files), write: () => {}, onServe: undefined, liveNetwork: undefined, predicting: true };
	const finished = advanceProgram(copy, scratch, horizonMs, { maxSteps: PREDICT_STEPS, skipAhead: false });
	if (copy.exited) return { exit: copy.exited };
	if (copy.blockedAtMs !== undefined) return { recheckAtMs: Math.max(copy.blockedAtMs, program.atMs + 1) };
	if (!finished) return { recheckAtMs: Math.max(copy.atMs, program.atMs + 1) };
	return {};
}

// ---- one instruction -------------------------------------------------------------------

function step(program: ProgramState, host: ProgramHost): void {
	const instr = program.code[program.pc];
	switch (instr.op) {
		case 'jmp':
			program.pc = instr.to;
			return;
		case 'jz':
			program.pc = program.status === 0 ? instr.to : program.pc + 1;
			return;
		case 'jnz':
			program.pc = program.status !== 0 ? instr.to : program.pc + 1;
			return;
		case 'status':
			program.status = instr.code;
			program.pc++;
			return;
		case 'forinit': {
			const values: string[] = [];
			for (const w of instr.words) values.push(...expandWord(w, program.vars, host, program.atMs, program.status, 0).fields);
			program.slots[instr.slot] = values;
			program.pc++;
			return;
		}
		case 'fornext': {
			const values = program.slots[instr.slot] ?? [];
			if (values.length === 0) {
				program.pc = instr.to;
				return;
			}
			program.vars[instr.name] = values.shift() as string;
			program.pc++;
			return;
		}
		case 'cmd':
			runCmd(program, host, instr);
			return;
	}
}

interface Expanded {
	/** Words after field splitting. */
	fields: string[];
	/** Status of the last command substitution, if any. */
	substStatus?: number;
}

function lookup(name: string, vars: Readonly<Record<string, string>>, host: ProgramHost, status: number): string {
	if (name === '?') return String(status);
	if (name === '$') return '1';
	if (name === '#') return '0';
	if (Object.hasOwn(vars, name)) return vars[name];
	for (let i = host.ctx.env.length - 1; i >= 0; i--) if (host.ctx.env[i].name === name) return host.ctx.env[i].value;
	return '';
}

function expandWord(word: Word, vars: Record<string, string>, host: ProgramHost, atMs: number, status: number, depth: number): Expanded {
	let text = '';
	let splittable = false;
	let substStatus: number | undefined;
	for (const part of word.parts) {
		switch (part.t) {
			case 'lit':
				text += part.v;
				break;
			case 'var':
				text += lookup(part.name, vars, host, status);
				if (!part.q) splittable = true;
				break;
			case 'arith': {
				const v = evalArithmetic(part.expr, { ...Object.fromEntries(host.ctx.env.map((e) => [e.name, e.value])), ...vars });
				text += Number.isNaN(v) ? '0' : String(v);
				break;
			}
			case 'cmd': {
				const level = Math.max(depth, host.substDepth ?? 0);
				if (level >= MAX_SUBST_DEPTH) break;
				const result = runSync(part.script, host, vars, atMs, level + 1);
				substStatus = result.status;
				text += result.out
					.filter((l) => l.stream === 'stdout')
					.map((l) => l.text)
					.join('\n');
				if (!part.q) splittable = true;
				break;
			}
		}
	}
	if (!splittable) return { fields: [text], substStatus };
	const fields = text.split(/[ \t\n]+/).filter((f) => f !== '');
	// A quoted empty part keeps an empty word.
	return { fields: fields.length || word.parts.some((p) => p.q) ? (fields.length ? fields : ['']) : [], substStatus };
}

/** Runs a script to completion without time passing (`$(...)`, traps, `kubectl exec`, exec probes). */
export function runSync(script: string, host: ProgramHost, vars: Record<string, string>, atMs: number, depth: number): { status: number; out: OutputLine[]; exit?: number } {
	let code: Instr[];
	let slots = 0;
	try {
		const compiled = compileScript(script);
		code = compiled.code;
		slots = compiled.slots;
	} catch (error) {
		return { status: 2, out: [{ stream: 'stderr', text: `sh: ${error instanceof Error ? error.message : String(error)}` }], exit: 2 };
	}
	const out: OutputLine[] = [];
	const sub: ProgramState = { code, pc: 0, vars: { ...vars }, status: 0, slots: Array.from({ length: slots }, () => []), pid1: 'shell', viaEntrypoint: false, atMs, traps: {} };
	const subHost: ProgramHost = { ...host, write: (_t, line) => out.push(line), onServe: undefined, sync: true, substDepth: depth };
	let steps = 0;
	while (!sub.exited && sub.pc < sub.code.length && steps++ < 10_000) {
		step(sub, { ...subHost, ctx: host.ctx });
		if (sub.serving) {
			// A server started here runs detached; the script goes on.
			sub.serving = undefined;
			sub.status = 0;
		}
		if (sub.sleepUntilMs !== undefined) {
			sub.sleepUntilMs = undefined;
			sub.inWait = undefined;
			sub.pc++;
		}
	}
	if (sub.exited) return { status: sub.exited.code, out, exit: sub.exited.code };
	return { status: sub.status, out };
}

/** The shell builtins handled by the interpreter itself. */
const SPECIAL = new Set(['exit', 'export', 'unset', 'trap', 'wait', 'cd', ':', 'set', 'exec', 'read', 'test', '[', 'touch', 'rm', 'mkdir', 'tee', 'source', '.', 'shift', 'return']);

function runCmd(program: ProgramState, host: ProgramHost, instr: Extract<Instr, { op: 'cmd' }>): void {
	const at = program.atMs;
	const wallMs = host.epochMs + at;
	let substStatus: number | undefined;
	const argv: string[] = [];
	for (const w of instr.words) {
		const e = expandWord(w, program.vars, host, at, program.status, 0);
		if (e.substStatus !== undefined) substStatus = e.substStatus;
		argv.push(...e.fields);
	}
	const assigned: Array<[string, string]> = instr.assigns.map((a) => {
		const e = expandWord(a.value, program.vars, host, at, program.status, 0);
		if (e.substStatus !== undefined) substStatus = e.substStatus;
		return [a.name, e.fields.join(' ')];
	});
	if (argv.length === 0) {
		for (const [k, v] of assigned) program.vars[k] = v;
		program.status = substStatus ?? 0;
		program.pc++;
		return;
	}
	const out: OutputLine[] = [];
	let status = 0;
	const name = argv[0];
	const isPipeSource = program.code[program.pc + 1]?.op === 'cmd' && (program.code[program.pc + 1] as { pipeFrom?: boolean }).pipeFrom === true;
	const background = instr.background === true;

	if (SPECIAL.has(name)) {
		const r = builtin(program, host, argv, out, at);
		if (r === 'suspended' || r === 'exited') {
			emit(program, host, out, instr.redirects, at);
			if (r === 'exited') return;
			return;
		}
		status = r;
	} else {
		const main = !host.sync && !background && !isPipeSource && !instr.pipeFrom;
		const reader = (path: string) => readFile(host.image, host.ctx, host.files, path);
		const client = NETWORK_CLIENTS.has(name.slice(name.lastIndexOf('/') + 1)) && binaryExists(host.image, name);
		let networked = host.network && binaryExists(host.image, name) ? host.network(argv, reader) : undefined;
		if (!host.network && client) {
			if (host.predicting) {
				if (!host.sync) {
					// Look again at this instant, with the network as it is then.
					program.blockedAtMs = at;
					return;
				}
				// Inside `$(...)` of a look-ahead: assume the client fails; the real run decides.
				networked = { exitCode: 1, stdout: '', stderr: '' };
			} else if (host.liveNetwork) networked = host.liveNetwork.run(argv, reader);
		}
		if (networked?.files) for (const [path, content] of Object.entries(networked.files)) host.files[path.startsWith('/') ? path : `${(host.ctx.workingDir || '').replace(/\/$/, '')}/${path}`] = content;
		const outcome: ReturnType<typeof runCommand> = networked ? { kind: 'done', status: networked.exitCode, out: [...outputLines(networked.stdout, 'stdout'), ...outputLines(networked.stderr, 'stderr')] } : runCommand(host.image, host.ctx, host.files, argv, wallMs, { main, viaEntrypoint: program.viaEntrypoint, listening: (port) => host.listening(port, at), rootFs: host.rootFs?.(), ...(host.stdin !== undefined && !instr.pipeFrom ? { stdin: host.stdin } : {}) });
		switch (outcome.kind) {
			case 'not-found':
				out.push({ stream: 'stderr', text: host.image.family === 'busybox' || host.image.family === 'alpine' ? `sh: ${name}: not found` : `sh: 1: ${name}: not found` });
				status = 127;
				break;
			case 'done':
				out.push(...outcome.out);
				status = outcome.status;
				// What the program wrote: into the writable layer, or through a writable mount onto the node; a read-only mount refuses it.
				// A main process's long write (dd of gigabytes) lands when the copy is over, as the disk fills over that time.
				const deferred = main && outcome.elapsedMs ? {} as Record<string, string> : undefined;
				for (const [path, content] of Object.entries(outcome.files ?? {})) {
					if (isReadOnlyPath(host.ctx.mounts, path)) {
						out.push({ stream: 'stderr', text: `${name.slice(name.lastIndexOf('/') + 1)}: can't create '${path}': Read-only file system` });
						status = 1;
						continue;
					}
					if (deferred) deferred[path] = content;
					else host.files[path] = content;
				}
				for (const [path, mode] of Object.entries(outcome.modes ?? {})) {
					if (isReadOnlyPath(host.ctx.mounts, path)) {
						out.push({ stream: 'stderr', text: `${name.slice(name.lastIndexOf('/') + 1)}: ${path}: Read-only file system` });
						status = 1;
						continue;
					}
					setFileMode(host.ctx, path, mode);
				}
				if (deferred && outcome.elapsedMs) {
					emit(program, host, out, instr.redirects, at);
					program.status = status;
					program.pendingFiles = deferred;
					program.sleepUntilMs = at + outcome.elapsedMs;
					return;
				}
				// A client that waited for its server (php-apache's CPU-bound answer): the main process waits that long too.
				if (networked?.elapsedMs && main) {
					emit(program, host, out, instr.redirects, at);
					program.status = status;
					program.sleepUntilMs = at + networked.elapsedMs;
					return;
				}
				break;
			case 'sleep':
				out.push(...outcome.out);
				if (background) {
					const end = outcome.ms === Number.POSITIVE_INFINITY ? null : at + outcome.ms;
					const prev = program.backgroundUntilMs;
					program.backgroundUntilMs = prev === null || end === null ? null : Math.max(prev ?? 0, end);
					status = 0;
					break;
				}
				emit(program, host, out, instr.redirects, at);
				// sleep exits 0 when it wakes: a `while sleep 1; do ...; done` loop goes on whatever its body's last status was.
				program.status = 0;
				program.sleepUntilMs = outcome.ms === Number.POSITIVE_INFINITY ? null : at + outcome.ms;
				return;
			case 'exit':
				out.push(...outcome.out);
				emit(program, host, out, instr.redirects, at);
				finish(program, at, outcome.status, outcome.status === 0 ? 'Completed' : 'Error');
				return;
			case 'serve': {
				out.push(...outcome.out);
				emit(program, host, out, instr.redirects, at);
				for (const text of outcome.server.startup) host.write(at, { stream: outcome.server.name === 'nginx' || outcome.server.name === 'redis' ? 'stdout' : 'stderr', text });
				program.serving = { server: outcome.server, sinceMs: at, asPid1: program.pid1 === 'command' };
				host.onServe?.(outcome.server, at);
				return;
			}
		}
	}
	if (instr.negate) status = status === 0 ? 1 : 0;
	program.status = status;
	if (isPipeSource) {
		// The next command reads this one's output.
		program.vars['\u0000pipe'] = out
			.filter((l) => l.stream === 'stdout')
			.map((l) => l.text)
			.join('\n');
		for (const line of out) if (line.stream === 'stderr') host.write(at, line);
	} else if (instr.pipeFrom) {
		const input = program.vars['\u0000pipe'] ?? '';
		delete program.vars['\u0000pipe'];
		emit(program, host, [...filterPipe(argv, input), ...out.filter((l) => l.stream === 'stderr')], instr.redirects, at);
	} else emit(program, host, out, instr.redirects, at);
	program.pc++;
}

/** What the reading end of a pipe makes of its input (tee, grep, wc -l, head, tail; others drop it). */
function filterPipe(argv: string[], input: string): OutputLine[] {
	const lines = input === '' ? [] : input.split('\n');
	const base = argv[0].slice(argv[0].lastIndexOf('/') + 1);
	const n = Number(argv[argv.indexOf('-n') + 1] ?? 10) || 10;
	const toOut = (l: string[]) => l.map((text): OutputLine => ({ stream: 'stdout', text }));
	switch (base) {
		case 'tee':
		case 'cat':
			return toOut(lines);
		case 'grep': {
			const pattern = argv.filter((a) => !a.startsWith('-'))[1] ?? '';
			return toOut(lines.filter((l) => l.includes(pattern)));
		}
		case 'wc':
			return toOut([String(lines.length)]);
		case 'head':
			return toOut(lines.slice(0, n));
		case 'tail': {
			// -c+N: from byte N on (kubectl cp --retries resumes a tar stream with it).
			const bytes = argv.slice(1).map((a, i, all) => (a === '-c' ? all[i + 1] : a.startsWith('-c') ? a.slice(2) : undefined)).find((v) => v !== undefined);
			if (bytes !== undefined && /^\+\d+$/.test(bytes)) {
				const rest = input.slice(Math.max(0, Number(bytes.slice(1)) - 1));
				return rest === '' ? [] : toOut(rest.split('\n'));
			}
			return toOut(lines.slice(-n));
		}
		default:
			return [];
	}
}

/** Where one output stream goes after redirections. */
type Destination = { kind: 'stream'; stream: 'stdout' | 'stderr' } | { kind: 'file'; path: string | null; append: boolean; shown?: string };

/** Writes command output through its redirections, applied left to right as POSIX says (`>f 2>&1` sends both to f). */
function emit(program: ProgramState, host: ProgramHost, out: OutputLine[], redirects: Redirect[], at: number): void {
	let stdoutTo: Destination = { kind: 'stream', stream: 'stdout' };
	let stderrTo: Destination = { kind: 'stream', stream: 'stderr' };
	for (const r of redirects) {
		if (r.op === '>&1') {
			if (r.fd === 2) stderrTo = stdoutTo;
			continue;
		}
		if (r.op === '>&2') {
			if (r.fd === 1) stdoutTo = stderrTo;
			continue;
		}
		const target = r.target ? expandWord(r.target, program.vars, host, at, program.status, 0).fields.join(' ') : '';
		const dest: Destination = { kind: 'file', path: target === '/dev/null' ? null : normalizePath(target, host.ctx), append: r.op === '>>', shown: target };
		if (r.fd === 1) stdoutTo = dest;
		else stderrTo = dest;
	}
	const writes = new Map<string, { append: boolean; lines: OutputLine[]; shown: string }>();
	for (const d of [stdoutTo, stderrTo]) {
		// A truncating redirection creates the file even when nothing is written.
		if (d.kind === 'file' && d.path !== null && !writes.has(d.path)) writes.set(d.path, { append: d.append, lines: [], shown: d.shown ?? d.path });
	}
	for (const line of out) {
		const dest = line.stream === 'stdout' ? stdoutTo : stderrTo;
		if (dest.kind === 'stream') host.write(at, { stream: dest.stream, text: line.text, ...(line.partial ? { partial: true } : {}) });
		else if (dest.path !== null) writes.get(dest.path)?.lines.push(line);
	}
	for (const [path, w] of writes) {
		if (isReadOnlyPath(host.ctx.mounts, path)) {
			// A volume mounted read-only (every ConfigMap and Secret volume): open(2) fails with EROFS.
			const busybox = host.image.family === 'busybox' || host.image.family === 'alpine';
			host.write(at, { stream: 'stderr', text: busybox ? `sh: can't create ${w.shown}: Read-only file system` : `sh: 1: cannot create ${w.shown}: Read-only file system` });
			program.status = busybox ? 1 : 2;
			continue;
		}
		const before = w.append ? (readFile(host.image, host.ctx, host.files, path) ?? '') : '';
		host.files[path] = before + w.lines.map((l) => (l.partial ? l.text : `${l.text}\n`)).join('');
	}
}

/** Shell builtins; returns the status, or 'suspended' (now sleeping) / 'exited'. */
function builtin(program: ProgramState, host: ProgramHost, argv: string[], out: OutputLine[], at: number): number | 'suspended' | 'exited' {
	const [name, ...args] = argv;
	const busybox = host.image.family === 'busybox' || host.image.family === 'alpine';
	switch (name) {
		case 'exit': {
			const code = args.length ? Number.parseInt(args[0], 10) & 0xff : program.status;
			finish(program, at, Number.isNaN(code) ? 2 : code, code === 0 ? 'Completed' : 'Error');
			return 'exited';
		}
		case 'export':
			for (const a of args) {
				const eq = a.indexOf('=');
				if (eq > 0) program.vars[a.slice(0, eq)] = a.slice(eq + 1);
			}
			return 0;
		case 'unset':
			for (const a of args) delete program.vars[a];
			return 0;
		case 'trap': {
			if (args.length >= 2) for (const sig of args.slice(1)) program.traps[sig.replace(/^SIG/, '')] = args[0];
			return 0;
		}
		case 'wait': {
			const until = program.backgroundUntilMs;
			if (until === undefined || (until !== null && until <= at)) return 0;
			program.sleepUntilMs = until;
			program.inWait = true;
			return 'suspended';
		}
		case 'cd':
			return 0;
		case ':':
		case 'set':
		case 'shift':
		case 'return':
			return 0;
		case 'read':
			// No stdin in a container.
			return 1;
		case 'source':
		case '.':
			out.push({ stream: 'stderr', text: `sh: ${args[0] ?? ''}: not found` });
			return 127;
		case 'exec': {
			if (args.length === 0) return 0;
			// exec replaces the shell: the command becomes PID 1.
			program.pid1 = 'command';
			const outcome = runCommand(host.image, host.ctx, host.files, args, host.epochMs + at, { main: true, viaEntrypoint: program.viaEntrypoint, listening: (port) => host.listening(port, at), rootFs: host.rootFs?.() });
			switch (outcome.kind) {
				case 'not-found':
					out.push({ stream: 'stderr', text: busybox ? `sh: exec: line 1: ${args[0]}: not found` : `sh: 1: exec: ${args[0]}: not found` });
					finish(program, at, 127, 'Error');
					return 'exited';
				case 'serve':
					out.push(...outcome.out);
					for (const text of outcome.server.startup) host.write(at, { stream: outcome.server.name === 'nginx' || outcome.server.name === 'redis' ? 'stdout' : 'stderr', text });
					program.serving = { server: outcome.server, sinceMs: at, asPid1: true };
					host.onServe?.(outcome.server, at);
					return 'suspended';
				case 'sleep':
					out.push(...outcome.out);
					program.sleepUntilMs = outcome.ms === Number.POSITIVE_INFINITY ? null : at + outcome.ms;
					// After the sleep the exec'd command ends the container.
					program.code = [...program.code.slice(0, program.pc + 1), { op: 'cmd', words: [lit('exit'), lit('0')], assigns: [], redirects: [] }];
					return 'suspended';
				default:
					out.push(...outcome.out);
					finish(program, at, outcome.status, outcome.status === 0 ? 'Completed' : 'Error');
					return 'exited';
			}
		}
		case 'touch': {
			let status = 0;
			for (const p of args.filter((a) => !a.startsWith('-'))) {
				const path = normalizePath(p, host.ctx);
				if (isReadOnlyPath(host.ctx.mounts, path)) {
					out.push({ stream: 'stderr', text: busybox ? `touch: ${p}: Read-only file system` : `touch: cannot touch '${p}': Read-only file system` });
					status = 1;
					continue;
				}
				if (readFile(host.image, host.ctx, host.files, path) === undefined) host.files[path] = '';
			}
			return status;
		}
		case 'mkdir': {
			let status = 0;
			for (const p of args.filter((a) => !a.startsWith('-'))) {
				const path = normalizePath(p, host.ctx);
				if (isReadOnlyPath(host.ctx.mounts, path)) {
					out.push({ stream: 'stderr', text: busybox ? `mkdir: can't create directory '${p}': Read-only file system` : `mkdir: cannot create directory '${p}': Read-only file system` });
					status = 1;
					continue;
				}
				host.files[`${path}/`] = '';
			}
			return status;
		}
		case 'rm': {
			const force = args.some((a) => a.startsWith('-') && a.includes('f'));
			let status = 0;
			for (const p of args.filter((a) => !a.startsWith('-'))) {
				const path = normalizePath(p, host.ctx);
				const exists = readFile(host.image, host.ctx, host.files, path) !== undefined;
				if (isReadOnlyPath(host.ctx.mounts, path) && (exists || Object.keys(host.files).some((k) => k.startsWith(`${path}/`) && host.files[k] !== null))) {
					out.push({ stream: 'stderr', text: busybox ? `rm: can't remove '${p}': Read-only file system` : `rm: cannot remove '${p}': Read-only file system` });
					status = 1;
					continue;
				}
				for (const key of Object.keys(host.files)) if (key.startsWith(`${path}/`)) host.files[key] = null;
				// A file made again later starts from the default mode.
				for (const key of Object.keys(host.ctx.fileModes ?? {})) if (key === path || key.startsWith(`${path}/`)) delete host.ctx.fileModes![key];
				if (!exists && !force) {
					out.push({ stream: 'stderr', text: busybox ? `rm: can't remove '${p}': No such file or directory` : `rm: cannot remove '${p}': No such file or directory` });
					status = 1;
					continue;
				}
				host.files[path] = null;
			}
			return status;
		}
		case 'tee': {
			let status = 0;
			for (const p of args.filter((a) => !a.startsWith('-'))) {
				const path = normalizePath(p, host.ctx);
				if (isReadOnlyPath(host.ctx.mounts, path)) {
					out.push({ stream: 'stderr', text: `tee: ${p}: Read-only file system` });
					status = 1;
					continue;
				}
				host.files[path] = '';
			}
			return status;
		}
		case 'test':
		case '[':
			return evalTest(name === '[' ? args.slice(0, args[args.length - 1] === ']' ? -1 : undefined) : args, host) ? 0 : 1;
		case 'echo':
			out.push({ stream: 'stdout', text: args.join(' ') });
			return 0;
	}
	return 0;
}

/** `test` / `[`: -f -e -d -z -n, = != and the integer comparisons, with `!`. */
function evalTest(args: string[], host: ProgramHost): boolean {
	if (args[0] === '!') return !evalTest(args.slice(1), host);
	if (args.length === 1) return args[0] !== '';
	if (args.length === 2) {
		const [op, v] = args;
		const path = normalizePath(v, host.ctx);
		switch (op) {
			case '-z':
				return v === '';
			case '-n':
				return v !== '';
			case '-e':
				return readFile(host.image, host.ctx, host.files, path) !== undefined || listDirectory(host.image, host.ctx, host.files, path) !== undefined;
			case '-f':
			case '-s':
			case '-r':
				return readFile(host.image, host.ctx, host.files, path) !== undefined && (op !== '-s' || (readFile(host.image, host.ctx, host.files, path) ?? '') !== '');
			case '-d':
				// The image's directories (/tmp, /etc...) and the ones written in the container.
				return listDirectory(host.image, host.ctx, host.files, path) !== undefined;
		}
		return false;
	}
	const [a, op, b] = args;
	const x = Number(a);
	const y = Number(b);
	switch (op) {
		case '=':
		case '==':
			return a === b;
		case '!=':
			return a !== b;
		case '-eq':
			return x === y;
		case '-ne':
			return x !== y;
		case '-lt':
			return x < y;
		case '-gt':
			return x > y;
		case '-le':
			return x <= y;
		case '-ge':
			return x >= y;
	}
	return false;
}

/** `kubectl exec` / ExecSync: runs argv in the container, without time passing. */
/** A tool's output as the interpreter's lines (a last line without its newline still counts). */
function outputLines(text: string, stream: 'stdout' | 'stderr'): OutputLine[] {
	if (!text) return [];
	return text.replace(/\n$/, '').split('\n').map((line) => ({ stream, text: line }));
}

export function execSync(host: ProgramHost, argv: string[], atMs: number, stdin?: string): { ok: true; exitCode: number; stdout: string; stderr: string } | { ok: false; notFound: string } {
	if (argv.length === 0) return { ok: false, notFound: '' };
	const join = (lines: OutputLine[], stream: 'stdout' | 'stderr') =>
		lines
			.filter((l) => l.stream === stream)
			.map((l) => `${l.text}\n`)
			.join('');
	if (isShell(argv[0])) {
		if (!hasBinary(host.image, argv[0])) return { ok: false, notFound: argv[0] };
		const c = argv.indexOf('-c');
		if (c < 0 || c + 1 >= argv.length) {
			// A shell without -c reads its script from standard input (`kubectl exec -i POD -- sh < script.sh`); with none it exits at once.
			if (!stdin) return { ok: true, exitCode: 0, stdout: '', stderr: '' };
			const script = runSync(stdin, host, {}, atMs, 0);
			return { ok: true, exitCode: script.status, stdout: join(script.out, 'stdout'), stderr: join(script.out, 'stderr') };
		}
		const r = runSync(argv[c + 1], { ...host, ...(stdin !== undefined ? { stdin } : {}) }, {}, atMs, 0);
		return { ok: true, exitCode: r.status, stdout: join(r.out, 'stdout'), stderr: join(r.out, 'stderr') };
	}
	const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
	if (!hasBinary(host.image, argv[0])) return { ok: false, notFound: argv[0] };
	const r = runSync(quoted, { ...host, ...(stdin !== undefined ? { stdin } : {}) }, {}, atMs, 0);
	return { ok: true, exitCode: r.status, stdout: join(r.out, 'stdout'), stderr: join(r.out, 'stderr') };
}

/** Records a file's permission bits in the container's context. */
function setFileMode(ctx: ContainerContext, path: string, mode: number): void {
	(ctx.fileModes ??= {})[path] = mode & 0o7777;
}
