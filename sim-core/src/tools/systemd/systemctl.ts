/**
 * `systemctl` on a node, for the units the simulation runs (kubelet and
 * containerd): status, is-active, is-enabled, is-failed, start, stop,
 * restart, enable, disable, cat and daemon-reload. start, stop and restart
 * change the simulation: they stop or start the service's process.
 *
 * It follows systemd v255 (Ubuntu 24.04), with the LSB exit codes of
 * `status` (3: not running, 4: no such unit).
 *
 * Mirrors systemd/systemd src/systemctl/systemctl-show.c (print_status_info:
 * the layout of status), systemd/systemd
 * src/systemctl/systemctl-is-active.c, systemd/systemd
 * src/systemctl/systemctl-start-unit.c, systemd/systemd
 * src/systemctl/systemctl-enable.c, systemd/systemd
 * src/systemctl/systemctl-cat.c.
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { getopt, type OptSpec } from './getopt.ts';
import { cpuMs, serviceHistory, unitRecords, type ServiceHistory } from '../../host/systemd/journal.ts';
import { formatRecord } from './journal-output.ts';
import { formatRelative, formatTimespan, formatTimestamp } from '../../host/systemd/time.ts';
import type { SystemdDeps } from './types.ts';
import { dropInNames, execStart, mangle, unitByName, unitFiles, wantsLink, type UnitFacts } from '../../host/systemd/units.ts';

/** systemd's version on Ubuntu 24.04.3 (`systemctl --version`). */
export const SYSTEMD_VERSION = '255 (255.4-1ubuntu8.11)';

const OPTIONS: OptSpec[] = [
	{ key: 'help', short: 'h', long: 'help', arg: 'none' },
	{ key: 'version', long: 'version', arg: 'none' },
	{ key: 'no-pager', long: 'no-pager', arg: 'none' },
	{ key: 'full', short: 'l', long: 'full', arg: 'none' },
	{ key: 'lines', short: 'n', long: 'lines', arg: 'required' },
	{ key: 'quiet', short: 'q', long: 'quiet', arg: 'none' },
	{ key: 'now', long: 'now', arg: 'none' },
	{ key: 'all', short: 'a', long: 'all', arg: 'none' },
	{ key: 'type', short: 't', long: 'type', arg: 'required' },
	{ key: 'no-block', long: 'no-block', arg: 'none' },
	{ key: 'output', short: 'o', long: 'output', arg: 'required' },
	{ key: 'plain', long: 'plain', arg: 'none' },
	{ key: 'force', short: 'f', long: 'force', arg: 'none' },
];

/** Verbs systemctl has that this node does not simulate. */
const OTHER_VERBS = new Set(['list-units', 'list-unit-files', 'list-timers', 'list-dependencies', 'show', 'reload', 'try-restart', 'reload-or-restart', 'kill', 'mask', 'unmask', 'edit', 'halt', 'isolate', 'set-property', 'reset-failed', 'preset', 'reenable', 'list-jobs', 'get-default', 'set-default']);

interface Out {
	stdout: string;
	stderr: string;
}

/** Memory a run uses (format_bytes, base 1024, one decimal), modelled: a Go daemon's heap grows with what it manages. */
export function memoryBytes(unitService: 'kubelet' | 'containerd', items: number): number {
	// An idle kubelet sits near 32 MiB and adds about 1.5 MiB per pod; containerd near 24 MiB and about 1 MiB per container.
	return unitService === 'kubelet' ? (32 + 1.5 * items) * 1024 * 1024 : (24 + items) * 1024 * 1024;
}

/** systemd's format_bytes: `34.5M`, `1.2G` (IEC factors, one truncated decimal). */
function formatBytes(bytes: number): string {
	const units: Array<[number, string]> = [
		[1024 ** 4, 'T'],
		[1024 ** 3, 'G'],
		[1024 ** 2, 'M'],
		[1024, 'K'],
	];
	for (const [factor, suffix] of units) if (bytes >= factor) return `${Math.floor(bytes / factor)}.${Math.floor(((bytes % factor) * 10) / factor)}${suffix}`;
	return `${bytes}B`;
}

/** A stand-in PID for a sandbox's containerd-shim, stable for its ID (the runtime does not number shim processes). */
function shimPid(sandboxId: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < sandboxId.length; i++) h = Math.imul(h ^ sandboxId.charCodeAt(i), 0x01000193) >>> 0;
	// Shims start after the daemons, when pods start: PIDs in the low thousands.
	return 1_000 + (h % 9_000);
}

function isEnabled(ctx: CommandContext, unit: UnitFacts): boolean {
	return ctx.host.fs.exists(wantsLink(unit));
}

/** The label column of `systemctl status`: right-aligned in 11 columns, then `: `. */
const label = (name: string, value: string) => `${name.padStart(11)}: ${value}`;

function statusText(ctx: CommandContext, deps: SystemdDeps, unit: UnitFacts, history: ServiceHistory, lines: number, nowMs: number): string {
	const fs = ctx.host.fs;
	const active = history.active;
	const runs = history.runs;
	const last = runs[runs.length - 1];
	const out: string[] = [];
	out.push(`${active ? '●' : '○'} ${unit.name} - ${unit.description}`);
	out.push(label('Loaded', `loaded (${unit.path}; ${isEnabled(ctx, unit) ? 'enabled' : 'disabled'}; preset: enabled)`));
	const dropIns = dropInNames(fs, unit);
	if (unit.dropInDir && dropIns.length) out.push(label('Drop-In', unit.dropInDir), `             └─${dropIns.join(', ')}`);
	const since = history.sinceWallMs;
	if (active) out.push(label('Active', `active (running) since ${formatTimestamp(since)}; ${formatRelative(nowMs - since)}`));
	else if (since > 0) out.push(label('Active', `inactive (dead) since ${formatTimestamp(since)}; ${formatRelative(nowMs - since)}`));
	else out.push(label('Active', 'inactive (dead)'));
	if (!active && last?.stopMs !== undefined) out.push(label('Duration', formatTimespan(last.stopMs - last.startMs)));
	out.push(label('Docs', unit.docs));
	const exec = execStart(fs, unit);
	if (last) {
		// The ExecStartPre= process ran just before the main process.
		if (unit.execStartPre) out.push(label('Process', `${last.pid - 1} ExecStartPre=${unit.execStartPre} (code=exited, status=0/SUCCESS)`));
		if (!active) out.push(label('Process', `${last.pid} ExecStart=${exec.raw} (code=exited, status=0/SUCCESS)`));
		out.push(label('Main PID', active ? `${last.pid} (${unit.comm})` : `${last.pid} (code=exited, status=0/SUCCESS)`));
	}
	// With KillMode=process, containerd's shims stay in its cgroup after it stops, and keep running the pods.
	const cgroup = deps.containerdCgroup();
	const shims = unit.service === 'containerd' ? cgroup.shimSandboxIds : [];
	const containers = cgroup.runningContainers;
	const runMs = last ? (active ? nowMs : (last.stopMs ?? nowMs)) - last.startMs : 0;
	if (active || shims.length) {
		// Go daemons run a dozen threads; each shim about ten (runc's shim v2 with its ttrpc server).
		const tasks = (active ? (unit.service === 'kubelet' ? 13 : 9) : 0) + 10 * shims.length;
		out.push(label('Tasks', `${tasks}${unit.tasksLimit && active ? ` (limit: ${unit.tasksLimit})` : ''}`));
		const pods = cgroup.sandboxes;
		// Each shim holds about 6 MiB.
		const bytes = (active ? memoryBytes(unit.service, unit.service === 'kubelet' ? pods : containers) : 0) + shims.length * 6 * 1024 * 1024;
		// The peak sits a little above the current use (start-up allocations since released).
		out.push(label('Memory', `${formatBytes(bytes)} (peak: ${formatBytes(Math.round(bytes * 1.06))})`));
	}
	if (last) out.push(label('CPU', formatTimespan(cpuMs(unit.service, runMs))));
	const procs: Array<[number, string]> = [];
	if (active && last) procs.push([last.pid, exec.argv.join(' ')]);
	for (const id of shims) procs.push([deps.shimPid?.(id) ?? shimPid(id), `/usr/bin/containerd-shim-runc-v2 -namespace k8s.io -id ${id} -address /run/containerd/containerd.sock`]);
	if (procs.length) {
		out.push(label('CGroup', `/system.slice/${unit.name}`));
		const width = Math.max(...procs.map(([pid]) => String(pid).length));
		procs.forEach(([pid, cmd], i) => out.push(`             ${i === procs.length - 1 ? '└─' : '├─'}${String(pid).padStart(procs.length > 1 ? width : 0)} ${cmd}`));
	}
	const records = unitRecords(history).slice(-Math.max(0, lines));
	let text = out.join('\n') + '\n';
	if (lines > 0 && records.length) text += '\n' + records.map((r) => formatRecord(r, 'short', ctx.host.name)).join('\n') + '\n';
	return text;
}

function help(): string {
	return `systemctl [OPTIONS...] COMMAND ...

Query or send control commands to the system manager.

Unit Commands:
  status [PATTERN...|PID...]          Show runtime status of one or more units
  start UNIT...                       Start (activate) one or more units
  stop UNIT...                        Stop (deactivate) one or more units
  restart UNIT...                     Start or restart one or more units
  is-active PATTERN...                Check whether units are active
  is-failed [PATTERN...]              Check if units are failed
  cat PATTERN...                      Show files and drop-ins of specified units

Unit File Commands:
  enable [UNIT...|PATH...]            Enable one or more unit files
  disable UNIT...                     Disable one or more unit files
  is-enabled UNIT...                  Check whether unit files are enabled

Manager State Commands:
  daemon-reload                       Reload systemd manager configuration

System Commands:
  poweroff                            Shut down and power-off the system
  reboot                              Shut down and reboot the system

(This simulated node offers the commands above for kubelet and containerd.)
`;
}

export function runSystemctl(ctx: CommandContext, deps: SystemdDeps): CommandResult {
	const out: Out = { stdout: '', stderr: '' };
	const parsed = getopt('systemctl', ctx.argv.slice(1), OPTIONS);
	if (!parsed.ok) return { stdout: '', stderr: parsed.error + '\n', exitCode: 1 };
	const flags = new Map(parsed.opts);
	if (flags.has('help')) return { stdout: help(), stderr: '', exitCode: 0 };
	if (flags.has('version')) return { stdout: `systemd ${SYSTEMD_VERSION}\n`, stderr: '', exitCode: 0 };
	const [verb = 'list-units', ...names] = parsed.operands;
	const quiet = flags.has('quiet');
	const nowMs = ctx.shell.clock?.(ctx.host.kind === 'node' ? ctx.host.name : undefined) ?? 0;
	const lines = flags.has('lines') ? Number(flags.get('lines')) : 10;
	if (flags.has('lines') && !/^\d+$/.test(flags.get('lines') ?? '')) return { stdout: '', stderr: `Failed to parse lines '${flags.get('lines')}'\n`, exitCode: 1 };
	const sources = { kubelet: deps.kubelet, containerd: deps.containerd, boots: deps.boots?.() };
	const needUnits = () => {
		if (!names.length) {
			out.stderr += 'Too few arguments.\n';
			return false;
		}
		return true;
	};
	switch (verb) {
		case 'status': {
			if (!names.length) return { stdout: overview(ctx, deps), stderr: '', exitCode: 0 };
			let code = 0;
			const texts: string[] = [];
			for (const name of names) {
				const unit = unitByName(name);
				if (!unit) {
					out.stderr += `Unit ${mangle(name)} could not be found.\n`;
					code = Math.max(code, 4);
					continue;
				}
				const history = serviceHistory(unit.service, sources);
				texts.push(statusText(ctx, deps, unit, history, lines, nowMs));
				if (!history.active) code = Math.max(code, 3);
			}
			out.stdout += texts.join('\n');
			return { ...out, exitCode: code };
		}
		case 'is-active':
		case 'is-failed': {
			if (!needUnits()) return { ...out, exitCode: 1 };
			let allActive = true;
			for (const name of names) {
				const unit = unitByName(name);
				const active = unit ? serviceHistory(unit.service, sources).active : false;
				allActive &&= active;
				// A stopped unit is inactive, not failed: the simulation's services stop cleanly.
				if (!quiet) out.stdout += (active ? 'active' : 'inactive') + '\n';
			}
			if (verb === 'is-active') return { ...out, exitCode: allActive ? 0 : 3 };
			// No unit is ever failed here, so is-failed answers 1 (none failed).
			return { ...out, exitCode: 1 };
		}
		case 'is-enabled': {
			if (!needUnits()) return { ...out, exitCode: 1 };
			let code = 0;
			for (const name of names) {
				const unit = unitByName(name);
				if (!unit) {
					out.stderr += `Failed to get unit file state for ${mangle(name)}: No such file or directory\n`;
					code = 1;
					continue;
				}
				const enabled = isEnabled(ctx, unit);
				if (!quiet) out.stdout += (enabled ? 'enabled' : 'disabled') + '\n';
				if (!enabled) code = 1;
			}
			return { ...out, exitCode: code };
		}
		case 'start':
		case 'stop':
		case 'restart': {
			if (!needUnits()) return { ...out, exitCode: 1 };
			const units: UnitFacts[] = [];
			for (const name of names) {
				const unit = unitByName(name);
				if (!unit) {
					// systemctl-start-unit.c: a unit that does not exist cannot be loaded or found.
					const why = verb === 'stop' ? 'not loaded' : 'not found';
					return { stdout: '', stderr: `Failed to ${verb} ${mangle(name)}: Unit ${mangle(name)} ${why}.\n`, exitCode: 5 };
				}
				units.push(unit);
			}
			for (const unit of units) {
				const active = serviceHistory(unit.service, sources).active;
				if ((verb === 'stop' || verb === 'restart') && active) deps.stopService(unit.service);
				if (verb === 'start' || verb === 'restart') {
					if (!serviceHistory(unit.service, sources).active) deps.startService(unit.service);
				}
			}
			return { ...out, exitCode: 0 };
		}
		case 'enable':
		case 'disable': {
			if (!needUnits()) return { ...out, exitCode: 1 };
			for (const name of names) {
				const unit = unitByName(name);
				if (!unit) return { stdout: '', stderr: `Failed to ${verb} unit: Unit file ${mangle(name)} does not exist.\n`, exitCode: 1 };
				const link = wantsLink(unit);
				const fs = ctx.host.fs;
				if (verb === 'enable' && !fs.exists(link)) {
					fs.mkdir(link.slice(0, link.lastIndexOf('/')), true);
					fs.writeFile(link, unitFiles(fs, unit)[0].text);
					out.stderr += `Created symlink ${link} → ${unit.path}.\n`;
				}
				if (verb === 'disable' && fs.exists(link)) {
					fs.remove(link);
					out.stderr += `Removed "${link}".\n`;
				}
				// --now also starts (enable) or stops (disable) the unit.
				if (flags.has('now')) {
					const active = serviceHistory(unit.service, sources).active;
					if (verb === 'enable' && !active) deps.startService(unit.service);
					if (verb === 'disable' && active) deps.stopService(unit.service);
				}
			}
			return { ...out, exitCode: 0 };
		}
		case 'cat': {
			if (!needUnits()) return { ...out, exitCode: 1 };
			const texts: string[] = [];
			for (const name of names) {
				const unit = unitByName(name);
				if (!unit) {
					out.stderr += `No files found for ${mangle(name)}.\n`;
					continue;
				}
				texts.push(
					unitFiles(ctx.host.fs, unit)
						.map((f) => `# ${f.path}\n${f.text.endsWith('\n') ? f.text : f.text + '\n'}`)
						.join('\n'),
				);
			}
			out.stdout += texts.join('\n');
			return { ...out, exitCode: out.stderr ? 1 : 0 };
		}
		case 'daemon-reload':
			return { ...out, exitCode: 0 };
		case 'poweroff':
		case 'reboot': {
			// The verb table allows `reboot [ARG]` (the reboot parameter) and a bare `poweroff`.
			if (names.length > (verb === 'reboot' ? 1 : 0)) return { stdout: '', stderr: 'Too many arguments.\n', exitCode: 1 };
			const power = deps.power?.();
			if (!power) return { stdout: '', stderr: `systemctl ${verb}: not available on this simulated node\n`, exitCode: 1 };
			// --force skips the orderly stop of the units (every process is killed), as `poweroff -f` does.
			power.now(verb, { force: flags.has('force') });
			return { ...out, exitCode: 0 };
		}
		default:
			if (OTHER_VERBS.has(verb)) return { stdout: '', stderr: `systemctl ${verb}: not available on this simulated node (status, start, stop, restart, is-active, is-enabled, enable, disable, cat, daemon-reload, poweroff and reboot are)\n`, exitCode: 1 };
			return { stdout: '', stderr: `Unknown command verb '${verb}'.\n`, exitCode: 1 };
	}
}

/** `systemctl status` with no unit: the machine's summary and the cgroup of the two services. */
function overview(ctx: CommandContext, deps: SystemdDeps): string {
	const sources = { kubelet: deps.kubelet, containerd: deps.containerd, boots: deps.boots?.() };
	const histories = [serviceHistory('containerd', sources), serviceHistory('kubelet', sources)];
	const running = histories.every((h) => h.active);
	const lines = [`${running ? '●' : '×'} ${ctx.host.name}`, `    State: ${running ? 'running' : 'degraded'}`, '     Jobs: 0 queued', `   Failed: 0 units`, '   CGroup: /', '           └─system.slice'];
	const services = histories.filter((h) => h.active);
	services.forEach((h, i) => {
		const lastRun = h.runs[h.runs.length - 1];
		const isLast = i === services.length - 1;
		lines.push(`             ${isLast ? '└─' : '├─'}${h.unit.name}`, `             ${isLast ? ' ' : '│'} └─${lastRun?.pid ?? 0} ${execStart(ctx.host.fs, h.unit).argv.join(' ')}`);
	});
	return lines.join('\n') + '\n';
}

/** The `systemctl` shell command. */
export function systemctlCommand(deps: SystemdDeps): CommandHandler {
	return (ctx) => {
		try {
			return runSystemctl(ctx, deps);
		} catch (error) {
			return { stdout: '', stderr: `systemctl: internal error: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
		}
	};
}
