/**
 * Powering a node off and rebooting it from its own shell: `poweroff`,
 * `reboot`, `shutdown [TIME]` (with `-c` to cancel and `--show`) and
 * `systemctl poweroff` / `systemctl reboot`. The machine goes down at once
 * (systemd stops its units, then the power goes); a reboot comes back after
 * booting. A shutdown at a later time is kept where logind keeps it, in
 * /run/systemd/shutdown/scheduled, and happens then unless `shutdown -c`
 * removed the file; the file is on /run, so a power cut forgets it too.
 *
 * Nothing is printed on the reader's terminal when the machine goes down:
 * logind's wall message skips the terminal the request came from
 * (logind_wall_tty_filter), and the reader has no other. What the reader
 * sees next is ssh losing the connection, which the cluster's shell prints.
 *
 * Mirrors systemd/systemd src/systemctl/systemctl-compat-halt.c (halt_help,
 * halt_parse_argv: -f skips the orderly shutdown, -w only writes wtmp),
 * systemd/systemd src/systemctl/systemctl-compat-shutdown.c (shutdown_help,
 * shutdown_parse_argv: one minute by default, -k only warns),
 * systemd/systemd src/systemctl/systemctl-logind.c
 * (logind_schedule_shutdown, logind_show_shutdown), systemd/systemd
 * src/shared/parse-argument.c (parse_shutdown_time_spec), systemd/systemd
 * src/login/logind-dbus.c (update_schedule_file, for the file's fields).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import type { MemoryFs } from '../../host/fs.ts';
import { getopt, type OptSpec } from './getopt.ts';
import { formatTimestamp } from '../../host/systemd/time.ts';

/** What the machine does: power off or reboot (`halt` is not offered). */
export type PowerAction = 'poweroff' | 'reboot';

/** The node's power, as the cluster wiring gives it to these tools. */
export interface SystemPower {
	/**
	 * The machine goes down now. `force` (`poweroff -f`) skips systemd's
	 * orderly stop of the units: the processes die as in a power cut.
	 */
	now(action: PowerAction, options: { force: boolean }): void;
	/** logind's timer: at `atWallMs` the node acts on its schedule file, if it is still there. */
	at(atWallMs: number): void;
}

/** Where logind keeps a scheduled shutdown (logind-dbus.c SHUTDOWN_SCHEDULE_FILE). */
export const SHUTDOWN_SCHEDULE_FILE = '/run/systemd/shutdown/scheduled';

/** A scheduled shutdown as the file holds it. */
export interface ShutdownSchedule {
	action: PowerAction;
	atWallMs: number;
	/** `shutdown -k`: the warnings only, no shutdown. */
	dryRun: boolean;
}

/** Reads logind's schedule file; undefined when nothing is scheduled (or the file is not logind's). */
export function readShutdownSchedule(fs: MemoryFs): ShutdownSchedule | undefined {
	if (!fs.exists(SHUTDOWN_SCHEDULE_FILE) || fs.isDir(SHUTDOWN_SCHEDULE_FILE)) return undefined;
	const fields = new Map<string, string>();
	for (const line of fs.readFile(SHUTDOWN_SCHEDULE_FILE).split('\n')) {
		const eq = line.indexOf('=');
		if (eq > 0) fields.set(line.slice(0, eq), line.slice(eq + 1));
	}
	const usec = fields.get('USEC') ?? '';
	let mode = fields.get('MODE') ?? '';
	const dryRun = mode.startsWith('dry-');
	if (dryRun) mode = mode.slice(4);
	if (!/^\d+$/.test(usec) || (mode !== 'poweroff' && mode !== 'reboot')) return undefined;
	return { action: mode, atWallMs: Math.floor(Number(usec) / 1000), dryRun };
}

function writeSchedule(fs: MemoryFs, schedule: ShutdownSchedule): void {
	fs.mkdir('/run/systemd/shutdown', true);
	// update_schedule_file: USEC, WARN_WALL, MODE, UID and the requester's TTY (the reader's ssh terminal, pts/0).
	fs.writeFile(SHUTDOWN_SCHEDULE_FILE, `USEC=${schedule.atWallMs * 1000}\nWARN_WALL=1\nMODE=${schedule.dryRun ? 'dry-' : ''}${schedule.action}\nUID=0\nTTY=pts/0\n`);
}

/** The verb logind_schedule_shutdown and logind_show_shutdown print for an action. */
function prettyAction(action: PowerAction): string {
	return action === 'reboot' ? 'Reboot' : 'Shutdown';
}

/** `Shutdown scheduled for Mon 2026-11-30 08:11:00 UTC, use 'shutdown -c' to cancel.` (systemctl logs it to stderr). */
function scheduledMessage(schedule: ShutdownSchedule): string {
	return `${prettyAction(schedule.action)} scheduled for ${formatTimestamp(schedule.atWallMs)}, use 'shutdown -c' to cancel.\n`;
}

const out = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });

const HALT_OPTIONS: OptSpec[] = [
	{ key: 'help', long: 'help', arg: 'none' },
	{ key: 'halt', long: 'halt', arg: 'none' },
	{ key: 'poweroff', short: 'p', long: 'poweroff', arg: 'none' },
	{ key: 'reboot', long: 'reboot', arg: 'none' },
	{ key: 'force', short: 'f', long: 'force', arg: 'none' },
	{ key: 'wtmp-only', short: 'w', long: 'wtmp-only', arg: 'none' },
	{ key: 'no-wtmp', short: 'd', long: 'no-wtmp', arg: 'none' },
	{ key: 'no-sync', short: 'n', long: 'no-sync', arg: 'none' },
	{ key: 'no-wall', long: 'no-wall', arg: 'none' },
	// Compatibility no-ops.
	{ key: 'nop', short: 'i', arg: 'none' },
	{ key: 'nop', short: 'h', arg: 'none' },
];

function haltHelp(name: string, action: PowerAction): string {
	return `${name} [OPTIONS...]${action === 'reboot' ? ' [ARG]' : ''}

${action === 'reboot' ? 'Reboot' : 'Power off'} the system.

Options:
     --help      Show this help
     --halt      Halt the machine
  -p --poweroff  Switch off the machine
     --reboot    Reboot the machine
  -f --force     Force immediate halt/power-off/reboot
  -w --wtmp-only Don't halt/power-off/reboot, just write wtmp record
  -d --no-wtmp   Don't write wtmp record
     --no-wall   Don't send wall message before halt/power-off/reboot

See the halt(8) man page for details.
`;
}

/** `poweroff` and `reboot` (systemd's halt compatibility front end). */
export function haltCommand(action: PowerAction, power: () => SystemPower | undefined): CommandHandler {
	return (ctx: CommandContext) => {
		const name = ctx.argv[0].slice(ctx.argv[0].lastIndexOf('/') + 1);
		const parsed = getopt(name, ctx.argv.slice(1), HALT_OPTIONS);
		if (!parsed.ok) return out('', parsed.error + '\n', 1);
		let chosen = action;
		for (const [key] of parsed.opts) {
			if (key === 'help') return out(haltHelp(name, action));
			// --halt stops the machine without powering it off: not offered on these nodes.
			if (key === 'halt') return out('', `${name}: --halt is not available on this simulated node (poweroff and reboot are)\n`, 1);
			if (key === 'reboot') chosen = 'reboot';
			if (key === 'poweroff' && chosen !== 'reboot') chosen = 'poweroff';
		}
		// `reboot` takes one optional argument (the reboot parameter); `poweroff` none.
		if (parsed.operands.length > (chosen === 'reboot' ? 1 : 0)) return out('', 'Too many arguments.\n', 1);
		if (parsed.opts.some(([key]) => key === 'wtmp-only')) return out('');
		const target = power();
		if (!target) return out('', `${name}: not available on this simulated node\n`, 1);
		target.now(chosen, { force: parsed.opts.some(([key]) => key === 'force') });
		return out('');
	};
}

const SHUTDOWN_OPTIONS: OptSpec[] = [
	{ key: 'help', long: 'help', arg: 'none' },
	{ key: 'halt', short: 'H', long: 'halt', arg: 'none' },
	{ key: 'poweroff', short: 'P', long: 'poweroff', arg: 'none' },
	{ key: 'reboot', short: 'r', long: 'reboot', arg: 'none' },
	{ key: 'kexec', short: 'K', long: 'kexec', arg: 'none' },
	{ key: 'h', short: 'h', arg: 'none' },
	{ key: 'dry-run', short: 'k', arg: 'none' },
	{ key: 'no-wall', long: 'no-wall', arg: 'none' },
	{ key: 'cancel', short: 'c', arg: 'none' },
	{ key: 'show', long: 'show', arg: 'none' },
	// Compatibility no-ops (`-t` swallows its argument).
	{ key: 'nop', short: 'a', arg: 'none' },
	{ key: 'nop', short: 't', arg: 'required' },
	{ key: 'nop', short: 'f', arg: 'none' },
	{ key: 'nop', short: 'F', arg: 'none' },
];

const SHUTDOWN_HELP = `shutdown [OPTIONS...] [TIME] [WALL...]

Shut down the system.

Options:
     --help      Show this help
  -H --halt      Halt the machine
  -P --poweroff  Power-off the machine
  -r --reboot    Reboot the machine
  -h             Equivalent to --poweroff, overridden by --halt
  -k             Don't halt/power-off/reboot, just send warnings
     --no-wall   Don't send wall message before halt/power-off/reboot
  -c             Cancel a pending shutdown
     --show      Show pending shutdown

See the shutdown(8) man page for details.
`;

const DAY_MS = 86_400_000;
/** One minute: what `shutdown` waits when given no time (shutdown_parse_argv). */
const DEFAULT_SHUTDOWN_DELAY_MS = 60_000;

/**
 * parse_shutdown_time_spec: `now` (0: at once), `+M` or `M` minutes from
 * now, or `hh:mm` (the next such time, today or tomorrow; the nodes run in
 * UTC). Undefined for anything else.
 */
export function parseShutdownTime(text: string, nowWallMs: number): number | undefined {
	if (text === 'now') return 0;
	if (!text.includes(':')) {
		if (!/^\+?\d{1,9}$/.test(text)) return undefined;
		return nowWallMs + Number(text.replace('+', '')) * 60_000;
	}
	const m = /^(\d{1,2}):(\d{1,2})$/.exec(text);
	if (!m || Number(m[1]) > 23 || Number(m[2]) > 59) return undefined;
	const midnight = Math.floor(nowWallMs / DAY_MS) * DAY_MS;
	let at = midnight + (Number(m[1]) * 60 + Number(m[2])) * 60_000;
	// The time must be in the future: a time already past today means tomorrow.
	while (Math.floor(at / 1000) <= Math.floor(nowWallMs / 1000)) at += DAY_MS;
	return at;
}

/** `shutdown`: now, at a time, or `-c` / `--show` for the pending one. */
export function shutdownCommand(power: () => SystemPower | undefined): CommandHandler {
	return (ctx: CommandContext) => {
		const parsed = getopt('shutdown', ctx.argv.slice(1), SHUTDOWN_OPTIONS);
		if (!parsed.ok) return out('', parsed.error + '\n', 1);
		let action: PowerAction | 'halt' = 'poweroff';
		let mode: 'shutdown' | 'cancel' | 'show' = 'shutdown';
		let dryRun = false;
		for (const [key] of parsed.opts) {
			if (key === 'help') return out(SHUTDOWN_HELP);
			if (key === 'halt') action = 'halt';
			else if (key === 'poweroff') action = 'poweroff';
			else if (key === 'reboot' || key === 'kexec') action = 'reboot';
			else if (key === 'h' && action !== 'halt') action = 'poweroff';
			else if (key === 'dry-run') dryRun = true;
			else if (key === 'cancel') mode = 'cancel';
			else if (key === 'show') mode = 'show';
		}
		const fs = ctx.host.fs;
		const nowWallMs = ctx.shell.clock?.(ctx.host.kind === 'node' ? ctx.host.name : undefined) ?? 0;
		if (mode === 'cancel') {
			// logind cancels quietly; its wall message skips the requester's own terminal.
			if (fs.exists(SHUTDOWN_SCHEDULE_FILE)) fs.remove(SHUTDOWN_SCHEDULE_FILE);
			return out('');
		}
		if (mode === 'show') {
			const pending = readShutdownSchedule(fs);
			return pending ? out('', scheduledMessage(pending)) : out('', 'No scheduled shutdown.\n', 1);
		}
		if (action === 'halt') return out('', 'shutdown: --halt is not available on this simulated node (power-off and reboot are)\n', 1);
		const [time] = parsed.operands;
		const when = time === undefined ? nowWallMs + DEFAULT_SHUTDOWN_DELAY_MS : parseShutdownTime(time, nowWallMs);
		if (when === undefined) return out('', `Failed to parse time specification: ${time}\n`, 1);
		const target = power();
		if (!target) return out('', 'shutdown: not available on this simulated node\n', 1);
		if (when === 0) {
			// `-k now` only warns, and the warning skips the requester's terminal.
			if (!dryRun) target.now(action, { force: false });
			return out('');
		}
		const schedule: ShutdownSchedule = { action, atWallMs: when, dryRun };
		writeSchedule(fs, schedule);
		target.at(when);
		return out('', scheduledMessage(schedule));
	};
}
