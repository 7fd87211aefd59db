/**
 * Powering a node off and rebooting it from its own shell, as a reader does
 * over ssh. Expected wording: OpenSSH's client (`Connection to %s closed by
 * remote host.` then `Connection to %s closed.` when the server ends an
 * interactive session; `ssh: connect to host %s port %d: %s` when connect()
 * fails; `client_loop: send disconnect: %s` when a dead connection is
 * written to), Linux's EHOSTUNREACH text `No route to host` for a machine
 * that answers no ARP request on the same network (three probes 1 s apart),
 * and systemd v255's systemctl and logind (`Too many arguments.`,
 * `Shutdown scheduled for <timestamp>, use 'shutdown -c' to cancel.`, one
 * minute by default, `-- Boot <id> --` between boots in journalctl).
 */
import { describe, expect, it } from 'vitest';
import { Cluster, REBOOT_MS } from './cluster.ts';

function onNode1(seed = 4): Cluster {
	const cluster = new Cluster({ seed });
	expect(cluster.exec('ssh node-1').exitCode).toBe(0);
	expect(cluster.prompt()).toBe('root@node-1:~# ');
	return cluster;
}

describe('shutting a node down from its shell', () => {
	it.each(['poweroff', 'shutdown -h now', 'shutdown now', 'shutdown -P now', 'systemctl poweroff', 'sudo poweroff'])('`%s` powers the machine off and ssh reports the closed connection', (line) => {
		const cluster = onNode1();
		expect(cluster.exec(line)).toEqual({
			stdout: '',
			stderr: 'Connection to node-1 closed by remote host.\nConnection to node-1 closed.\n',
			output: 'Connection to node-1 closed by remote host.\nConnection to node-1 closed.\n',
			exitCode: 255,
		});
		expect(cluster.isPoweredOff('node-1')).toBe(true);
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
		expect(cluster.exec('echo $?').stdout).toBe('255\n');
		// It stays off.
		cluster.advance('5m');
		expect(cluster.isPoweredOff('node-1')).toBe(true);
	});

	it.each(['reboot', 'systemctl reboot', 'shutdown -r now', 'reboot now'])('`%s` takes the machine down and boots it 30 s later', (line) => {
		const cluster = onNode1();
		const startedMs = cluster.now();
		expect(cluster.exec(line).stderr).toBe('Connection to node-1 closed by remote host.\nConnection to node-1 closed.\n');
		expect(cluster.isPoweredOff('node-1')).toBe(true);
		cluster.kernel.runUntil(startedMs + REBOOT_MS - 1);
		expect(cluster.isPoweredOff('node-1')).toBe(true);
		cluster.kernel.runUntil(startedMs + REBOOT_MS);
		expect(cluster.isPoweredOff('node-1')).toBe(false);
		expect(cluster.components().filter((c) => c.node === 'node-1' && c.component !== 'kube-proxy').every((c) => c.running)).toBe(true);
		// settle() waits for a machine that is still booting.
		const other = onNode1();
		other.exec(line);
		expect(other.settle({ maxMs: 60_000 }).elapsedMs).toBeGreaterThanOrEqual(REBOOT_MS);
		expect(other.isPoweredOff('node-1')).toBe(false);
	});

	it.each([
		['poweroff now', 'Too many arguments.\n'],
		['reboot a b', 'Too many arguments.\n'],
		['systemctl poweroff now', 'Too many arguments.\n'],
		['shutdown soon', 'Failed to parse time specification: soon\n'],
		['shutdown -x now', "shutdown: invalid option -- 'x'\n"],
		['poweroff --bogus', "poweroff: unrecognized option '--bogus'\n"],
	])('`%s` is refused and the machine stays on', (line, stderr) => {
		const cluster = onNode1();
		expect(cluster.exec(line)).toMatchObject({ stdout: '', stderr, exitCode: 1 });
		expect(cluster.isPoweredOff('node-1')).toBe(false);
		expect(cluster.prompt()).toBe('root@node-1:~# ');
	});

	it('a reboot that someone else finished by hand does not come back on its own later', () => {
		const cluster = onNode1();
		const startedMs = cluster.now();
		cluster.exec('reboot');
		cluster.advance('5s');
		cluster.powerOn('node-1');
		cluster.advance('5s');
		cluster.powerOff('node-1');
		cluster.kernel.runUntil(startedMs + REBOOT_MS + 1_000);
		expect(cluster.isPoweredOff('node-1')).toBe(true);
	});

	it('`poweroff -w` only writes the wtmp record: nothing happens', () => {
		const cluster = onNode1();
		expect(cluster.exec('poweroff -w')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(cluster.isPoweredOff('node-1')).toBe(false);
	});

	it('`shutdown` with no time waits one minute; `shutdown -c` cancels; `--show` tells what is pending', () => {
		const cluster = onNode1();
		// The cluster's clock starts at 2026-11-30T08:00:00Z; the boot took some seconds.
		const wall = (ms: number) => {
			const s = Math.floor(ms / 1000) % 86_400;
			return `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
		};
		const due = cluster.wallMs() + 60_000;
		const message = `Shutdown scheduled for Mon 2026-11-30 ${wall(due)} UTC, use 'shutdown -c' to cancel.\n`;
		expect(cluster.exec('shutdown')).toMatchObject({ stdout: '', stderr: message, exitCode: 0 });
		expect(cluster.exec('shutdown --show')).toMatchObject({ stderr: message, exitCode: 0 });
		expect(cluster.exec('cat /run/systemd/shutdown/scheduled').stdout).toBe(`USEC=${due * 1000}\nWARN_WALL=1\nMODE=poweroff\nUID=0\nTTY=pts/0\n`);
		expect(cluster.exec('shutdown -c')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(cluster.exec('shutdown --show')).toMatchObject({ stderr: 'No scheduled shutdown.\n', exitCode: 1 });
		cluster.advance('2m');
		expect(cluster.isPoweredOff('node-1')).toBe(false);

		// Scheduled again: it goes at the minute, and the reader's session goes with it.
		cluster.exec('shutdown -r +1');
		const at = cluster.now() + 60_000;
		cluster.kernel.runUntil(at - 1);
		expect(cluster.isPoweredOff('node-1')).toBe(false);
		cluster.kernel.runUntil(at);
		expect(cluster.isPoweredOff('node-1')).toBe(true);
		expect(cluster.exec('hostname')).toMatchObject({ stdout: '', stderr: 'client_loop: send disconnect: Broken pipe\n', exitCode: 255 });
		// A reboot: back after the boot time.
		cluster.kernel.runUntil(at + REBOOT_MS);
		expect(cluster.isPoweredOff('node-1')).toBe(false);
	});

	it('`shutdown HH:MM` picks the next such time, tomorrow if it has passed today', () => {
		const cluster = onNode1();
		expect(cluster.exec('shutdown 07:30').stderr).toBe("Shutdown scheduled for Tue 2026-12-01 07:30:00 UTC, use 'shutdown -c' to cancel.\n");
		expect(cluster.exec('shutdown -r 23:59').stderr).toBe("Reboot scheduled for Mon 2026-11-30 23:59:00 UTC, use 'shutdown -c' to cancel.\n");
	});
});

describe('ssh and a machine that is off', () => {
	it('ssh finds no route to it, after three seconds of unanswered ARP requests', () => {
		const cluster = new Cluster({ seed: 4 });
		cluster.powerOff('node-2');
		const before = cluster.now();
		for (const line of ['ssh node-2', 'ssh root@node-2 crictl ps', 'ssh -l root node-2']) {
			expect(cluster.exec(line), line).toEqual({ stdout: '', stderr: 'ssh: connect to host node-2 port 22: No route to host\n', output: 'ssh: connect to host node-2 port 22: No route to host\n', exitCode: 255 });
		}
		expect(cluster.now() - before).toBe(9_000);
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
		// From another node too: they share the network.
		cluster.exec('ssh node-1');
		expect(cluster.exec('ssh node-2').stderr).toBe('ssh: connect to host node-2 port 22: No route to host\n');
		cluster.powerOn('node-2');
		expect(cluster.exec('ssh node-2').exitCode).toBe(0);
		expect(cluster.prompt()).toBe('root@node-2:~# ');
	});

	it('curl to its API server port fails the same way after three seconds; a machine that is only cut off lets the SYNs time out instead', () => {
		const cluster = new Cluster({ seed: 4 });
		cluster.settle({ maxMs: 60_000 });
		cluster.powerOff('control-plane');
		let before = cluster.now();
		const off = cluster.exec('ssh node-1 curl -sS -k https://control-plane:6443/healthz');
		expect(off.exitCode).toBe(7);
		expect(off.stderr).toMatch(/^curl: \(7\) Failed to connect to control-plane port 6443 after 30\d\d ms: Couldn't connect to server\n$/);
		expect(cluster.now() - before).toBeGreaterThanOrEqual(3_000);
		expect(cluster.now() - before).toBeLessThan(3_200);
		cluster.powerOn('control-plane');
		cluster.settle({ maxMs: 120_000 });
		cluster.partition('control-plane');
		before = cluster.now();
		const cut = cluster.exec('ssh node-1 curl -sS -m 5 -k https://control-plane:6443/healthz');
		expect(cut.exitCode).toBe(28);
		expect(cut.stderr).toBe('curl: (28) Failed to connect to control-plane port 6443 after 5000 ms: Timeout was reached\n');
		expect(cluster.now() - before).toBe(5_000);
	});

	it("a power cut under the reader's session leaves it dead: the next line finds the broken pipe and is not run", () => {
		const cluster = onNode1();
		cluster.exec('ssh node-2');
		expect(cluster.prompt()).toBe('root@node-2:~# ');
		cluster.powerOff('node-1');
		// The prompt still shows: the session hangs until something is sent.
		expect(cluster.prompt()).toBe('root@node-2:~# ');
		expect(cluster.exec('touch /root/was-here')).toEqual({ stdout: '', stderr: 'client_loop: send disconnect: Broken pipe\n', output: 'client_loop: send disconnect: Broken pipe\n', exitCode: 255 });
		// Both sessions went: the one through node-1 too.
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
		expect(cluster.hosts.get('node-2')!.fs.exists('/root/was-here')).toBe(false);
		expect(cluster.exec('hostname').stdout).toBe('workstation\n');
	});

	it('a machine cycled while the session waited answers the old connection with a reset', () => {
		const cluster = onNode1();
		cluster.powerOff('node-1');
		cluster.powerOn('node-1');
		expect(cluster.exec('hostname')).toMatchObject({ stderr: 'client_loop: send disconnect: Connection reset by peer\n', exitCode: 255 });
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
	});

	it('a snapshot keeps the dead session dead', () => {
		const cluster = onNode1();
		cluster.powerOff('node-1');
		const copy = new Cluster(cluster.options, JSON.parse(JSON.stringify(cluster.snapshot())));
		expect(copy.exec('hostname').stderr).toBe('client_loop: send disconnect: Broken pipe\n');
	});
});

describe('the journal across boots', () => {
	it('after an orderly reboot, the previous boot ends with systemd stopping the kubelet; -- Boot -- marks the new one', () => {
		const cluster = onNode1();
		const bootId = (cluster.get('nodes', undefined, 'node-1')?.status as { nodeInfo: { bootID: string } }).nodeInfo.bootID;
		cluster.exec('reboot');
		cluster.advance(REBOOT_MS);
		cluster.exec('ssh node-1');
		cluster.advance('20s');
		const newBootId = (cluster.get('nodes', undefined, 'node-1')?.status as { nodeInfo: { bootID: string } }).nodeInfo.bootID;
		expect(newBootId).not.toBe(bootId);
		const previous = cluster.exec('journalctl -b -1 -u kubelet -o cat').stdout.trim().split('\n');
		expect(previous.slice(-3)).toEqual(['kubelet.service: Deactivated successfully.', 'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.', expect.stringMatching(/^kubelet\.service: Consumed .+ CPU time\.$/)]);
		const all = cluster.exec('journalctl -u kubelet -o cat').stdout.split('\n');
		expect(all.filter((l) => l.startsWith('-- Boot'))).toEqual([`-- Boot ${newBootId.replace(/-/g, '')} --`]);
		const current = cluster.exec('journalctl -b -u kubelet -o cat').stdout.split('\n');
		expect(current[0]).toBe('Started kubelet.service - kubelet: The Kubernetes Node Agent.');
		expect(cluster.exec('journalctl -b -2').stderr).toBe('Data from the specified boot (-2) is not available: No such boot ID in journal\n');
		// --list-boots: the table a reader matches against the kubelet's Rebooted event.
		const boots = cluster.exec('journalctl --list-boots').stdout.split('\n');
		expect(boots[0]).toBe('IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY');
		expect(boots[1]).toMatch(new RegExp(`^ -1 ${bootId.replace(/-/g, '')} Mon 2026-11-30 08:00:00 UTC Mon 2026-11-30 08:0\\d:\\d\\d UTC$`));
		expect(boots[2]).toMatch(new RegExp(`^  0 ${newBootId.replace(/-/g, '')} Mon 2026-11-30 08:0\\d:\\d\\d UTC Mon 2026-11-30 08:0\\d:\\d\\d UTC$`));
		expect(boots).toHaveLength(4);
		expect(cluster.exec('journalctl --list-boots -r -n 1').stdout.split('\n')[1]).toBe(boots[2]);
		const rebooted = cluster.list('events', 'default').filter((e) => (e as { reason?: string }).reason === 'Rebooted');
		expect(rebooted.map((e) => (e as { message?: string }).message)).toEqual([`Node node-1 has been rebooted, boot id: ${newBootId}`]);
	});

	it('after a power cut, the previous boot just stops: no unit was stopped', () => {
		const cluster = new Cluster({ seed: 4 });
		cluster.powerOff('node-1');
		cluster.advance('10s');
		cluster.powerOn('node-1');
		cluster.advance('20s');
		cluster.exec('ssh node-1');
		const previous = cluster.exec('journalctl -b -1 -o cat').stdout;
		expect(previous).not.toContain('Stopping kubelet.service');
		expect(previous).not.toContain('Stopped containerd.service');
		expect(previous).not.toContain('Kubelet stopping');
		expect(cluster.exec('systemctl is-active kubelet containerd').stdout).toBe('active\nactive\n');
	});
});

describe("the API server's dial to a kubelet", () => {
	const BOX = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: box\nspec:\n  nodeName: node-1\n  containers:\n  - name: box\n    image: nginx:1.29\n';
	const logs = 'Error from server: Get "https://192.168.56.11:10250/containerLogs/default/box/box": dial tcp 192.168.56.11:10250: ';
	const exec = 'Error from server: error dialing backend: dial tcp 192.168.56.11:10250: ';

	it.each([
		['the kubelet is stopped', (c: Cluster) => c.stop('kubelet', 'node-1'), 'connect: connection refused'],
		['the node is cut off', (c: Cluster) => c.partition('node-1'), 'i/o timeout'],
		['the machine is off', (c: Cluster) => c.powerOff('node-1'), 'connect: no route to host'],
	])('fails as Go words it when %s: kubectl logs and exec print the dial error', (_what, fault, why) => {
		const cluster = new Cluster({ seed: 4 });
		cluster.writeFile('box.yaml', BOX);
		cluster.exec('kubectl apply -f box.yaml');
		cluster.settle({ maxMs: 60_000 });
		expect(cluster.exec('kubectl logs box').exitCode).toBe(0);
		fault(cluster);
		expect(cluster.exec('kubectl logs box')).toMatchObject({ stdout: '', stderr: `${logs}${why}\n`, exitCode: 1 });
		expect(cluster.exec('kubectl exec box -- ls')).toMatchObject({ stdout: '', stderr: `${exec}${why}\n`, exitCode: 1 });
	});
});
