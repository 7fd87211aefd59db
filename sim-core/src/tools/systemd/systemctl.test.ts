/**
 * systemctl on a node with a real kubelet and containerd. The expected
 * layout is systemd v255's `systemctl status` as Ubuntu 24.04 prints it
 * (src/systemctl/systemctl-show.c print_status_info: the bullet, labels
 * right-aligned to 11 columns, `Drop-In:` with its `└─` tree, `Active:
 * active (running) since <timestamp>; <relative>`, `Main PID: <pid>
 * (<comm>)`, the CGroup tree, a blank line and the last 10 journal lines),
 * with the LSB exit codes of `status` (0 running, 3 not running, 4 no such
 * unit) and `is-active` (0 or 3). PIDs and times come from the processes'
 * own records.
 */
import { describe, expect, it } from 'vitest';
import { systemdRig } from '../../testing/systemd-rig.ts';

const KUBELET_CMDLINE =
	'/usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10.2';

describe('systemctl status', () => {
	it('shows a running kubelet as systemd 255 lays it out, its command line assembled from the drop-in and kubeadm-flags.env', () => {
		const r = systemdRig();
		const pid = r.kubeletHost.service.mainPid;
		const result = r.shell.exec('systemctl status kubelet');
		expect(result.exitCode).toBe(0);
		const lines = result.stdout.split('\n');
		expect(lines.slice(0, 6)).toEqual([
			'● kubelet.service - kubelet: The Kubernetes Node Agent',
			'     Loaded: loaded (/usr/lib/systemd/system/kubelet.service; enabled; preset: enabled)',
			'    Drop-In: /usr/lib/systemd/system/kubelet.service.d',
			'             └─10-kubeadm.conf',
			// Started at boot (08:00:00), shown at 08:05:00.
			'     Active: active (running) since Mon 2026-11-30 08:00:00 UTC; 5min ago',
			'       Docs: https://kubernetes.io/docs/',
		]);
		expect(lines[6]).toBe(`   Main PID: ${pid} (kubelet)`);
		expect(lines).toContain('     CGroup: /system.slice/kubelet.service');
		expect(lines).toContain(`             └─${pid} ${KUBELET_CMDLINE}`);
		// A blank line, then the unit's last 10 journal entries (here all of them: systemd's "Started" and the kubelet's lines).
		const blank = lines.indexOf('');
		expect(lines.slice(blank + 1, -1)).toHaveLength(Math.min(10, r.kubeletHost.journal.length + 1));
		expect(r.shell.exec('systemctl status kubelet -n 2').stdout.split('\n').slice(blank + 1, -1)).toHaveLength(2);
		expect(lines.at(-2)).toMatch(new RegExp(`^Nov 30 \\d\\d:\\d\\d:\\d\\d node-1 kubelet\\[${pid}\\]: [IWE]1130 `));
	});

	it('shows a stopped kubelet as inactive (dead), with its run time and exit, and exits 3', () => {
		const r = systemdRig();
		const pid = r.kubeletHost.service.mainPid;
		expect(r.shell.exec('systemctl stop kubelet')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		// systemctl stop takes effect at once: the kubelet process is gone.
		expect(r.h.kernel.isRunning(r.kubelet.id)).toBe(false);
		r.h.advance(12_000);
		const result = r.shell.exec('systemctl status kubelet');
		expect(result.exitCode).toBe(3);
		const lines = result.stdout.split('\n');
		expect(lines[0]).toBe('○ kubelet.service - kubelet: The Kubernetes Node Agent');
		expect(lines[4]).toBe('     Active: inactive (dead) since Mon 2026-11-30 08:05:00 UTC; 12s ago');
		expect(lines[5]).toBe('   Duration: 5min');
		expect(lines).toContain(`    Process: ${pid} ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS (code=exited, status=0/SUCCESS)`);
		expect(lines).toContain(`   Main PID: ${pid} (code=exited, status=0/SUCCESS)`);
		expect(lines.some((l) => l.startsWith('     CGroup:'))).toBe(false);
		const tail = lines.slice(-6, -1).map((l) => l.replace(/^Nov 30 08:05:00 node-1 /, ''));
		expect(tail[0]).toBe('systemd[1]: Stopping kubelet.service - kubelet: The Kubernetes Node Agent...');
		expect(tail[1]).toMatch(new RegExp(`^kubelet\\[${pid}\\]: I1130 08:05:00`));
		expect(tail.slice(2, 4)).toEqual(['systemd[1]: kubelet.service: Deactivated successfully.', 'systemd[1]: Stopped kubelet.service - kubelet: The Kubernetes Node Agent.']);
		expect(lines.at(-2)).toMatch(/^Nov 30 08:05:00 node-1 systemd\[1\]: kubelet\.service: Consumed \d+\.\d{3}s CPU time\.$/);
	});

	it('lists containerd with the overlay module loaded first and a shim per pod in its cgroup, also after containerd stops', () => {
		const r = systemdRig();
		const pid = r.runtimeHost.service.mainPid;
		const [sandbox] = Object.values(r.runtimeHost.sandboxes);
		const shim = `/usr/bin/containerd-shim-runc-v2 -namespace k8s.io -id ${sandbox.id} -address /run/containerd/containerd.sock`;
		const active = r.shell.exec('systemctl status containerd').stdout.split('\n');
		expect(active.slice(0, 4)).toEqual([
			'● containerd.service - containerd container runtime',
			'     Loaded: loaded (/usr/lib/systemd/system/containerd.service; enabled; preset: enabled)',
			'     Active: active (running) since Mon 2026-11-30 08:00:00 UTC; 5min ago',
			'       Docs: https://containerd.io',
		]);
		expect(active[4]).toMatch(/^ {4}Process: \d+ ExecStartPre=\/sbin\/modprobe overlay \(code=exited, status=0\/SUCCESS\)$/);
		expect(active[5]).toBe(`   Main PID: ${pid} (containerd)`);
		const cgroup = active.indexOf('     CGroup: /system.slice/containerd.service');
		expect(active[cgroup + 1]).toMatch(new RegExp(`^ {13}├─ *${pid} /usr/bin/containerd$`));
		expect(active[cgroup + 2]).toMatch(new RegExp(`^ {13}└─\\d+ ${shim.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`));
		r.shell.exec('systemctl stop containerd');
		const stopped = r.shell.exec('systemctl status containerd').stdout.split('\n');
		expect(stopped[0]).toBe('○ containerd.service - containerd container runtime');
		// KillMode=process: the shims outlive containerd and stay in its cgroup.
		expect(stopped.some((l) => l.endsWith(shim))).toBe(true);
	});

	it.each([
		['systemctl status foo', '', 'Unit foo.service could not be found.\n', 4],
		['systemctl start foo', '', 'Failed to start foo.service: Unit foo.service not found.\n', 5],
		['systemctl stop foo', '', 'Failed to stop foo.service: Unit foo.service not loaded.\n', 5],
		['systemctl stop', '', 'Too few arguments.\n', 1],
		['systemctl frob kubelet', '', "Unknown command verb 'frob'.\n", 1],
		['systemctl is-active kubelet containerd', 'active\nactive\n', '', 0],
		['systemctl is-enabled kubelet', 'enabled\n', '', 0],
		['systemctl --frob', '', "systemctl: unrecognized option '--frob'\n", 1],
		['systemctl daemon-reload', '', '', 0],
	])('%s', (line, stdout, stderr, code) => {
		const r = systemdRig();
		expect(r.shell.exec(line)).toMatchObject({ stdout, stderr, exitCode: code });
	});
});

describe('systemctl changes the node', () => {
	it('stop, start and restart stop and start the processes; a restarted kubelet has a new PID', () => {
		const r = systemdRig();
		const first = r.kubeletHost.service.mainPid;
		r.shell.exec('systemctl stop kubelet containerd');
		expect(r.shell.exec('systemctl is-active kubelet containerd')).toMatchObject({ stdout: 'inactive\ninactive\n', exitCode: 3 });
		expect([r.h.kernel.isRunning(r.kubelet.id), r.h.kernel.isRunning(r.runtime.id)]).toEqual([false, false]);
		r.shell.exec('systemctl start containerd kubelet');
		expect([r.h.kernel.isRunning(r.kubelet.id), r.h.kernel.isRunning(r.runtime.id)]).toEqual([true, true]);
		const second = r.kubeletHost.service.mainPid;
		expect(second).toBeGreaterThan(first);
		r.shell.exec('systemctl restart kubelet');
		expect(r.kubeletHost.service.mainPid).toBeGreaterThan(second);
		expect(r.kubeletHost.service.starts).toBe(3);
	});

	it('disable removes the wants link, enable --now puts it back and starts the unit', () => {
		const r = systemdRig();
		const link = '/etc/systemd/system/multi-user.target.wants/kubelet.service';
		expect(r.shell.exec('systemctl disable --now kubelet')).toMatchObject({ stderr: `Removed "${link}".\n`, exitCode: 0 });
		expect(r.h.kernel.isRunning(r.kubelet.id)).toBe(false);
		expect(r.shell.exec('systemctl is-enabled kubelet')).toMatchObject({ stdout: 'disabled\n', exitCode: 1 });
		expect(r.shell.exec('systemctl enable --now kubelet')).toMatchObject({ stderr: `Created symlink ${link} → /usr/lib/systemd/system/kubelet.service.\n`, exitCode: 0 });
		expect(r.h.kernel.isRunning(r.kubelet.id)).toBe(true);
	});

	it('cat prints the unit file and its drop-in as the node has them', () => {
		const r = systemdRig();
		const text = r.shell.exec('systemctl cat kubelet').stdout;
		expect(text.startsWith('# /usr/lib/systemd/system/kubelet.service\n[Unit]\nDescription=kubelet: The Kubernetes Node Agent\n')).toBe(true);
		expect(text).toContain('\n# /usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf\n# Note: This dropin only works with kubeadm and kubelet v1.11+\n');
		// An extra argument in /etc/default/kubelet shows up in the command line.
		r.host.fs.mkdir('/etc/default', true);
		r.host.fs.writeFile('/etc/default/kubelet', 'KUBELET_EXTRA_ARGS=--v=4\n');
		expect(r.shell.exec('systemctl status kubelet').stdout).toContain(`${KUBELET_CMDLINE} --v=4\n`);
	});
});
