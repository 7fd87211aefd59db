/**
 * poweroff, reboot and shutdown on their own, against a recording stand-in
 * for the machine's power. Expected behaviour is systemd v255's:
 * systemctl-compat-halt.c (halt_parse_argv: `-p` powers off unless
 * `--reboot` was given, `-f` forces, `-w` only writes wtmp, `reboot` takes
 * one argument and `poweroff` none; halt_help's text), systemctl-compat-
 * shutdown.c (shutdown_parse_argv: `-h` is power-off unless `-H`, `-r`
 * reboots, `-k` only warns, no time means one minute; shutdown_help's
 * text), parse_shutdown_time_spec (`now`, minutes, `hh:mm` next such time)
 * and logind's schedule file fields (logind-dbus.c update_schedule_file).
 */
import { describe, expect, it } from 'vitest';
import { ShellSession, type Host } from '../../shell/index.ts';
import { MemoryFs } from '../../host/fs.ts';
import { haltCommand, parseShutdownTime, readShutdownSchedule, shutdownCommand, SHUTDOWN_SCHEDULE_FILE, type PowerAction, type SystemPower } from './power.ts';

/** 2026-11-30T08:00:00Z, a Monday. */
const NOW = 1_796_025_600_000;

function rig(options: { power?: boolean } = {}) {
	const calls: Array<{ now?: PowerAction; force?: boolean; at?: number }> = [];
	const power: SystemPower = {
		now: (action, { force }) => calls.push({ now: action, force }),
		at: (atWallMs) => calls.push({ at: atWallMs }),
	};
	const get = () => (options.power === false ? undefined : power);
	const host: Host = { name: 'node-1', kind: 'node', user: 'root', home: '/root', fs: new MemoryFs(), commands: new Map() };
	host.commands.set('poweroff', haltCommand('poweroff', get));
	host.commands.set('reboot', haltCommand('reboot', get));
	host.commands.set('shutdown', shutdownCommand(get));
	const shell = new ShellSession([host]);
	shell.clock = () => NOW;
	return { shell, calls, fs: host.fs };
}

describe('poweroff and reboot', () => {
	it.each([
		['poweroff', { now: 'poweroff', force: false }],
		['poweroff -f', { now: 'poweroff', force: true }],
		['poweroff --reboot', { now: 'reboot', force: false }],
		['poweroff --reboot -p', { now: 'reboot', force: false }],
		['reboot', { now: 'reboot', force: false }],
		['reboot --force', { now: 'reboot', force: true }],
		['reboot -p', { now: 'reboot', force: false }],
		['reboot now', { now: 'reboot', force: false }],
		['/usr/sbin/poweroff -i -h --no-wall -d -n', { now: 'poweroff', force: false }],
	])('`%s` asks the machine for %o', (line, call) => {
		const r = rig();
		expect(r.shell.exec(line)).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(r.calls).toEqual([call]);
	});

	it('prints systemd’s help for each name', () => {
		const r = rig();
		const help = r.shell.exec('reboot --help').stdout.split('\n');
		expect(help.slice(0, 3)).toEqual(['reboot [OPTIONS...] [ARG]', '', 'Reboot the system.']);
		expect(help).toContain('  -f --force     Force immediate halt/power-off/reboot');
		expect(r.shell.exec('poweroff --help').stdout.split('\n').slice(0, 3)).toEqual(['poweroff [OPTIONS...]', '', 'Power off the system.']);
		expect(r.calls).toEqual([]);
	});

	it('says so when the node has no power to control', () => {
		const r = rig({ power: false });
		expect(r.shell.exec('poweroff')).toMatchObject({ stderr: 'poweroff: not available on this simulated node\n', exitCode: 1 });
	});
});

describe('shutdown', () => {
	it.each([
		['shutdown now', { now: 'poweroff', force: false }],
		['shutdown -h now', { now: 'poweroff', force: false }],
		['shutdown -P now', { now: 'poweroff', force: false }],
		['shutdown -r now', { now: 'reboot', force: false }],
		['shutdown -rh now', { now: 'poweroff', force: false }],
		['shutdown -t 5 -f -r now', { now: 'reboot', force: false }],
	])('`%s` goes at once: %o', (line, call) => {
		const r = rig();
		expect(r.shell.exec(line)).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(r.calls).toEqual([call]);
	});

	it('schedules a later shutdown in logind’s file and asks to be woken then', () => {
		const r = rig();
		expect(r.shell.exec('shutdown -r +10 "kernel update"')).toMatchObject({ stderr: "Reboot scheduled for Mon 2026-11-30 08:10:00 UTC, use 'shutdown -c' to cancel.\n", exitCode: 0 });
		expect(r.calls).toEqual([{ at: NOW + 600_000 }]);
		expect(r.fs.readFile(SHUTDOWN_SCHEDULE_FILE)).toBe(`USEC=${(NOW + 600_000) * 1000}\nWARN_WALL=1\nMODE=reboot\nUID=0\nTTY=pts/0\n`);
		expect(readShutdownSchedule(r.fs)).toEqual({ action: 'reboot', atWallMs: NOW + 600_000, dryRun: false });
	});

	it('`-k` only warns: at once nothing happens; later, the schedule says it is a dry run', () => {
		const r = rig();
		expect(r.shell.exec('shutdown -k now')).toMatchObject({ stderr: '', exitCode: 0 });
		expect(r.calls).toEqual([]);
		r.shell.exec('shutdown -k +5');
		expect(readShutdownSchedule(r.fs)).toEqual({ action: 'poweroff', atWallMs: NOW + 300_000, dryRun: true });
	});

	it('`-H` (halt) is not offered on these nodes', () => {
		const r = rig();
		expect(r.shell.exec('shutdown -H now')).toMatchObject({ stderr: 'shutdown: --halt is not available on this simulated node (power-off and reboot are)\n', exitCode: 1 });
		expect(r.calls).toEqual([]);
	});

	it('prints systemd’s help', () => {
		expect(rig().shell.exec('shutdown --help').stdout.split('\n').slice(0, 6)).toEqual(['shutdown [OPTIONS...] [TIME] [WALL...]', '', 'Shut down the system.', '', 'Options:', '     --help      Show this help']);
	});
});

describe('parseShutdownTime', () => {
	it.each([
		['now', 0],
		['0', NOW],
		['+0', NOW],
		['5', NOW + 300_000],
		['+90', NOW + 5_400_000],
		['08:30', NOW + 1_800_000],
		['8:00', NOW + 86_400_000],
		['07:59', NOW + 86_340_000],
		['23:59', NOW + 57_540_000],
		['24:00', undefined],
		['12:60', undefined],
		['soon', undefined],
		['-5', undefined],
		['', undefined],
	])('%s', (text, expected) => {
		expect(parseShutdownTime(text, NOW)).toBe(expected);
	});
});
