/**
 * journalctl on a node with a real kubelet and containerd. Expected texts
 * follow systemd v255: the short format `Mon DD HH:MM:SS host ident[pid]:
 * message` (logs-show.c), `-- No entries --`, `-n` with an optional
 * argument, `-e` as `-n1000`, `-f` starting from the last 10 entries,
 * `-o cat`, `-x` catalog entries prefixed with `░░ ` (catalog/
 * systemd.catalog.in, Ubuntu's support URL), PID 1's unit messages
 * (`Started <unit> - <description>.`), and the error texts of
 * journalctl.c. The kubelet's and containerd's lines are their own records.
 */
import { describe, expect, it } from 'vitest';
import { FOLLOW_MS } from './journalctl.ts';
import { systemdRig } from '../../testing/systemd-rig.ts';

describe('journalctl -u', () => {
	it('prints the unit in the short format: systemd starting it, then its own lines', () => {
		const r = systemdRig();
		const pid = r.kubeletHost.service.mainPid;
		const lines = r.shell.exec('journalctl -u kubelet --no-pager').stdout.split('\n').slice(0, -1);
		expect(lines[0]).toBe('Nov 30 08:00:00 node-1 systemd[1]: Started kubelet.service - kubelet: The Kubernetes Node Agent.');
		expect(lines.slice(1)).toEqual(r.kubeletHost.journal.map((e) => `Nov 30 08:0${Math.floor((e.wallMs - r.h.kernel.epochMs) / 60_000)}:${String(Math.floor(((e.wallMs - r.h.kernel.epochMs) % 60_000) / 1000)).padStart(2, '0')} node-1 kubelet[${pid}]: ${e.line}`));
	});

	it('shows containerd between systemd Starting and Started (Type=notify), with its logrus lines', () => {
		const r = systemdRig();
		const pid = r.runtimeHost.service.mainPid;
		const lines = r.shell.exec('journalctl -u containerd.service -n 4 --since "2026-11-30 07:00"').stdout;
		const all = r.shell.exec('journalctl -u containerd').stdout.split('\n');
		expect(all.slice(0, 4)).toEqual([
			'Nov 30 08:00:00 node-1 systemd[1]: Starting containerd.service - containerd container runtime...',
			`Nov 30 08:00:00 node-1 containerd[${pid}]: ${r.runtimeHost.journal[0]}`,
			`Nov 30 08:00:00 node-1 containerd[${pid}]: ${r.runtimeHost.journal[1]}`,
			'Nov 30 08:00:00 node-1 systemd[1]: Started containerd.service - containerd container runtime.',
		]);
		expect(lines.split('\n').slice(0, -1)).toEqual(all.slice(-5, -1));
	});

	it('counts with -n (optional argument), prints messages alone with -o cat, and reverses with -r', () => {
		const r = systemdRig();
		const journal = r.kubeletHost.journal;
		expect(r.shell.exec('journalctl -u kubelet -n 2 -o cat').stdout).toBe(journal.slice(-2).map((e) => e.line + '\n').join(''));
		expect(r.shell.exec('journalctl -u kubelet -n2 -r -o cat').stdout).toBe([...journal.slice(-2)].reverse().map((e) => e.line + '\n').join(''));
		// -n without a number means 10; here there are fewer.
		expect(r.shell.exec('journalctl -u kubelet -n -o cat').stdout.split('\n').length - 1).toBe(Math.min(10, journal.length + 1));
	});

	it('says -- No entries -- when nothing matches', () => {
		const r = systemdRig();
		expect(r.shell.exec('journalctl -u docker')).toMatchObject({ stdout: '-- No entries --\n', exitCode: 0 });
		expect(r.shell.exec('journalctl -u kubelet --since "2027-01-01"').stdout).toBe('-- No entries --\n');
		// The kubelet's stderr reaches the journal at priority 6 (info), so an error filter finds nothing.
		expect(r.shell.exec('journalctl -u kubelet -p err').stdout).toBe('-- No entries --\n');
	});

	it('follows a restart: -xe explains systemd messages from the catalog', () => {
		const r = systemdRig();
		r.shell.exec('systemctl restart kubelet');
		const text = r.shell.exec('journalctl -xeu kubelet --grep "kubelet.service"').stdout;
		expect(text).toContain(
			[
				'Nov 30 08:05:00 node-1 systemd[1]: Stopped kubelet.service - kubelet: The Kubernetes Node Agent.',
				'░░ Subject: A stop job for unit kubelet.service has finished',
				'░░ Defined-By: systemd',
				'░░ Support: http://www.ubuntu.com/support',
				'░░ ',
				'░░ A stop job for unit kubelet.service has finished.',
				'░░ ',
			].join('\n'),
		);
		expect(text).toMatch(/░░ The job identifier is \d+ and the job result is done\.\n/);
		expect(text).toContain('░░ Subject: A start job for unit kubelet.service has finished successfully\n');
	});

	it('-f prints the last 10 entries, then what arrives while it follows, and returns after its bounded follow', () => {
		const r = systemdRig();
		const last10 = r.shell.exec('journalctl -u kubelet -o cat -n 10').stdout;
		// Something to see while following: a new pod makes the kubelet log.
		r.createPod('late', { containers: [{ name: 'c', image: 'nginx:1.14.2' }] });
		const before = r.h.kernel.nowMs;
		const followed = r.shell.exec('journalctl -f -u kubelet -o cat');
		expect(r.h.kernel.nowMs - before).toBe(FOLLOW_MS);
		expect(followed.stdout.startsWith(last10)).toBe(true);
		const fresh = r.kubeletHost.journal.filter((e) => e.wallMs >= r.h.kernel.epochMs + before).map((e) => e.line + '\n');
		expect(fresh.length).toBeGreaterThan(0);
		expect(followed.stdout.slice(last10.length)).toBe(fresh.join(''));
	});

	it.each([
		['journalctl --since garbage', 'Failed to parse timestamp: garbage\n'],
		['journalctl -o fancy', "Unknown output format 'fancy'.\n"],
		['journalctl --since now --until yesterday', '--since= must be before --until=.\n'],
		['journalctl -b -1', 'Data from the specified boot (-1) is not available: No such boot ID in journal\n'],
		['journalctl -z', "journalctl: invalid option -- 'z'\n"],
		['journalctl -u', "journalctl: option requires an argument -- 'u'\n"],
	])('%s fails', (line, stderr) => {
		const r = systemdRig();
		expect(r.shell.exec(line)).toMatchObject({ stdout: '', stderr, exitCode: 1 });
	});
});
