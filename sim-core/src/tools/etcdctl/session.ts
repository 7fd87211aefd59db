/**
 * One etcdctl invocation's running state: its output streams, the virtual
 * time it has waited, and the exits that end it (cobrautl.ExitWithError:
 * `Error: <message>` on stderr and an exit code).
 *
 * Mirrors etcd-io/etcd pkg/cobrautl/error.go (ExitWithError and its exit
 * codes).
 */
import type { CommandContext } from '../../shell/types.ts';
import { zapTimestamp } from '../common/calendar.ts';
import type { CommandPath } from './commands.ts';
import type { ParsedFlags } from './flags.ts';
import type { EtcdctlDeps } from './types.ts';

/** pkg/cobrautl/error.go. */
export const EXIT = {
	success: 0,
	error: 1,
	badConnection: 2,
	invalidInput: 3,
	badFeature: 4,
	interrupted: 5,
	io: 6,
	badArgs: 128,
} as const;

/** Ends the invocation with an exit code (and `Error: <message>` when there is one). */
export class Exit extends Error {
	constructor(
		readonly code: number,
		readonly text?: string,
	) {
		super(text ?? `exit ${code}`);
	}
}

export class Invocation {
	stdout = '';
	stderr = '';
	/** Virtual milliseconds etcdctl has spent waiting so far. */
	private waitedMs = 0;
	private readonly startWallMs: number;

	constructor(
		readonly ctx: CommandContext,
		readonly deps: EtcdctlDeps,
		readonly path: CommandPath,
		readonly flags: ParsedFlags,
	) {
		this.startWallMs = deps.wallMs();
	}

	get args(): string[] {
		return this.flags.args;
	}

	/** A flag's value (after environment variables were applied). */
	value(name: string): string {
		return this.flags.values.get(name) ?? '';
	}

	bool(name: string): boolean {
		return /^(1|t|T|true|TRUE|True)$/.test(this.value(name));
	}

	int(name: string): number {
		return Number(this.value(name)) || 0;
	}

	/** The wall clock now, as etcdctl sees it (start + time waited). */
	nowWallMs(): number {
		return this.startWallMs + this.waitedMs;
	}

	/** etcdctl blocks for `ms` (a command timeout): virtual time passes for the whole cluster. */
	wait(ms: number): void {
		this.waitedMs += ms;
		this.deps.elapse?.(ms);
	}

	/** A zap timestamp for now, with a sub-millisecond part from the seeded stream. */
	timestamp(): string {
		return zapTimestamp(this.nowWallMs(), Math.floor(this.deps.random() * 1000));
	}

	/** An ephemeral client port from Linux's default range (net.ipv4.ip_local_port_range 32768–60999). */
	localPort(): number {
		return 32768 + Math.floor(this.deps.random() * (60999 - 32768 + 1));
	}
}
