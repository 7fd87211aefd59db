/**
 * The node tools as the cluster wires them (cluster/tools.ts): a reader
 * breaks and fixes a node from its terminal. `systemctl stop kubelet` is
 * the same fault as the Faults panel's, recorded once (as the shell line),
 * and the node goes NotReady after the node monitor grace period (50 s,
 * FACTS.md A); containerd stopped makes crictl fail to connect and the
 * kubelet report `container runtime is down` (FACTS.md, kubelet runtime
 * check); crictl pull on a node waits for containerd in virtual time.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const readyOf = (c: ReturnType<typeof createCluster>, node: string) =>
	((c.get('nodes', undefined, node)?.status as { conditions?: Array<{ type: string; status: string; message?: string }> } | undefined)?.conditions ?? []).find((x) => x.type === 'Ready');

describe('node tools in a cluster', () => {
	it('systemctl stop and start the kubelet through the faults, without a second input', () => {
		const c = createCluster();
		expect(c.exec('ssh node-1 systemctl stop kubelet')).toMatchObject({ output: '', exitCode: 0 });
		expect(c.components().find((x) => x.component === 'kubelet' && x.node === 'node-1')).toMatchObject({ running: false, failing: true });
		expect(c.inputs()).toEqual([{ kind: 'exec', line: 'ssh node-1 systemctl stop kubelet' }]);
		c.advance('60s');
		expect(readyOf(c, 'node-1')?.status).toBe('Unknown');
		expect(c.exec('ssh node-1 systemctl is-active kubelet')).toMatchObject({ output: 'inactive\n', exitCode: 3 });
		c.exec('ssh node-1 systemctl start kubelet');
		c.advance('20s');
		expect(readyOf(c, 'node-1')?.status).toBe('True');
		expect(c.components().find((x) => x.component === 'kubelet' && x.node === 'node-1')).toMatchObject({ running: true, failing: false });
	});

	it('systemctl stop containerd: crictl cannot connect and the kubelet reports the runtime down', () => {
		const c = createCluster();
		c.exec('ssh node-2 systemctl stop containerd');
		const crictl = c.exec('ssh node-2 crictl ps');
		expect(crictl.exitCode).toBe(1);
		expect(crictl.stderr).toContain('dial unix /run/containerd/containerd.sock: connect: connection refused');
		c.advance('40s');
		expect(readyOf(c, 'node-2')).toMatchObject({ status: 'False', message: 'container runtime is down' });
		c.exec('ssh node-2 systemctl start containerd');
		expect(c.exec('ssh node-2 crictl pull nginx:1.27').stdout).toMatch(/^Image is up to date for sha256:[0-9a-f]{64}\n$/);
		expect(c.exec('ssh node-2 crictl images -q').stdout.split('\n')).toContain(c.exec('ssh node-2 crictl inspecti -q nginx:1.27 | grep \'"id"\'').stdout.match(/sha256:[0-9a-f]{64}/)?.[0]);
	});

	it('nodes carry /etc/crictl.yaml and the unit files, so crictl needs no flags and systemctl cat works', () => {
		const c = createCluster();
		expect(c.exec('ssh node-1 cat /etc/crictl.yaml').stdout).toContain('runtime-endpoint: unix:///run/containerd/containerd.sock\n');
		expect(c.exec('ssh node-1 crictl ps').stderr).toBe('');
		expect(c.exec('ssh control-plane systemctl cat containerd').stdout).toContain('KillMode=process\n');
	});
});
