/**
 * One run of crictl: what it has written so far on stdout and stderr, how
 * long it has been running (logrus prints whole seconds since start), and
 * the ways it ends. crictl ends in three ways (main.go, urfave/cli
 * HandleExitCoder): an error from a command is logged with
 * `logrus.Fatal` (exit 1), a `cli.Exit` prints its message and exits with
 * its code, and anything else exits 0.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/main.go, urfave/cli errors.go
 * (HandleExitCoder).
 */
import type { CommandContext, CommandResult } from '../../shell/types.ts';
import { civilTime } from '../../golang/time.ts';
import { klogErrorLine, logrusLine, type KlogValue, type LogrusLevel } from './format.ts';

/** Unwinds a run to the top with an exit status; never escapes the command handler. */
export class CrictlExit {
	constructor(readonly code: number) {}
}

export class Invocation {
	private stdoutText = '';
	private stderrText = '';
	readonly startWallMs: number;

	constructor(readonly ctx: CommandContext) {
		this.startWallMs = this.wallMs();
	}

	/** The virtual wall clock (epoch ms), from the shell. */
	wallMs(): number {
		return this.ctx.shell.clock?.(this.ctx.host.kind === 'node' ? this.ctx.host.name : undefined) ?? 0;
	}

	print(text: string): void {
		this.stdoutText += text;
	}

	printErr(text: string): void {
		this.stderrText += text;
	}

	log(level: LogrusLevel, message: string): void {
		this.stderrText += logrusLine(level, message, (this.wallMs() - this.startWallMs) / 1000);
	}

	/**
	 * crictl's own PID, for klog lines: a stand-in that changes with virtual
	 * time, as a fresh short-lived process gets a new PID on each run.
	 */
	get pid(): number {
		// PIDs of a node's interactive commands sit above the daemons' (hundreds) in the low thousands.
		return 3_000 + (Math.floor(this.startWallMs / 1000) % 20_000);
	}

	/** The klog error line cri-client writes when an RPC fails. */
	klogError(source: string, message: string, err: string, kv: ReadonlyArray<KlogValue> = []): void {
		this.stderrText += klogErrorLine(this.wallMs(), this.pid, source, message, err, kv);
	}

	/** logrus.Fatal: the message, then exit status 1. */
	fatal(message: string): never {
		this.log('fatal', message);
		throw new CrictlExit(1);
	}

	/** cli.Exit(message, code): the message on stderr as is, then the code. */
	exit(message: string, code: number): never {
		if (message) this.stderrText += message + '\n';
		throw new CrictlExit(code);
	}

	/** Go's log.Fatalf (crictl uses it for a bad --state): `2026/11/30 08:00:00 message`, exit 1. */
	logFatalf(message: string): never {
		this.stderrText += `${goLogTimestamp(this.wallMs())} ${message}\n`;
		throw new CrictlExit(1);
	}

	/** Runs virtual time forward (the shell's sleep hook); false when the shell cannot wait. */
	sleep(ms: number): boolean {
		if (!this.ctx.shell.onSleep) return false;
		this.ctx.shell.onSleep(ms);
		return true;
	}

	result(code: number): CommandResult {
		return { stdout: this.stdoutText, stderr: this.stderrText, exitCode: code };
	}
}

/** Go's standard logger prefix, LstdFlags in UTC: `2026/11/30 08:00:00`. */
function goLogTimestamp(epochMs: number): string {
	const t = civilTime(epochMs);
	const pad = (n: number) => String(n).padStart(2, '0');
	return `${t.year}/${pad(t.month)}/${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}
