/**
 * `timedatectl` on a node (systemd v255): the status of the machine's clock.
 * The lab's machines run systemd-timesyncd, as Ubuntu's do, but the lab is
 * offline, so the clock is never synchronized: a clock set with `date -s`
 * stays where it was set. `set-time` is refused while timesyncd is enabled,
 * as on a real machine; `set-ntp` changes nothing here, since there is no
 * server to reach.
 *
 * Mirrors systemd/systemd src/timedate/timedatectl.c (print_status,
 * set_time: "Automatic time synchronization is enabled").
 */
import type { CommandHandler, CommandResult } from '../../shell/types.ts';
import { strftime } from '../../shell/date.ts';

const res = (stdout: string, stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });

export const timedatectlCommand: CommandHandler = (ctx) => {
	const [verb = 'status', ...rest] = ctx.argv.slice(1).filter((a) => a !== '--no-pager' && a !== '--no-ask-password');
	const nowMs = ctx.shell.clock?.(ctx.host.kind === 'node' ? ctx.host.name : undefined) ?? 0;
	switch (verb) {
		case 'status': {
			const stamp = strftime('%a %Y-%m-%d %H:%M:%S', nowMs);
			const rows: Array<[string, string]> = [
				['Local time', `${stamp} UTC`],
				['Universal time', `${stamp} UTC`],
				['RTC time', stamp],
				['Time zone', 'Etc/UTC (UTC, +0000)'],
				['System clock synchronized', 'no'],
				['NTP service', 'active'],
				['RTC in local TZ', 'no'],
			];
			return res(rows.map(([k, v]) => `${k.padStart(25)}: ${v}`).join('\n') + '\n');
		}
		case 'show':
			return res(`Timezone=Etc/UTC\nLocalRTC=no\nCanNTP=yes\nNTP=yes\nNTPSynchronized=no\nTimeUSec=${strftime('%a %Y-%m-%d %H:%M:%S', nowMs)} UTC\nRTCTimeUSec=${strftime('%a %Y-%m-%d %H:%M:%S', nowMs)} UTC\n`);
		case 'set-time':
			if (!rest.length) return res('', 'Too few arguments.\n', 1);
			return res('', 'Failed to set time: Automatic time synchronization is enabled\n', 1);
		case 'set-ntp':
			if (!rest.length) return res('', 'Too few arguments.\n', 1);
			return res('');
		default:
			return res('', `Unknown command verb '${verb}'.\n`, 1);
	}
};
