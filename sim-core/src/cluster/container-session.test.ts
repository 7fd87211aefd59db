import { describe, it, expect } from 'vitest';
import { createCluster, restoreCluster } from '../index.ts';

/**
 * `kubectl exec -it POD -- sh` typed at the reader's prompt: the
 * container's shell takes the terminal, its prompt shows, each line runs in
 * the container, and `exit` gives the terminal back (through the public
 * API, as the sandbox drives it).
 */
describe('an interactive shell in a container', () => {
	const cluster = createCluster({ seed: 7 });
	cluster.exec('kubectl run bb --image=busybox:1.36 -- sleep 3600');
	cluster.exec('kubectl run ng --image=nginx:1.27');
	cluster.settle({ maxMs: 60_000 });

	it('busybox: the `/ # ` prompt, commands in the pod, `exit` back to the workstation', () => {
		expect(cluster.exec('kubectl exec -it bb -- sh')).toMatchObject({ output: '', exitCode: 0 });
		expect(cluster.prompt()).toBe('/ # ');
		expect(cluster.exec('hostname')).toMatchObject({ output: 'bb\n', exitCode: 0 });
		expect(cluster.exec('cat /etc/resolv.conf').stdout).toContain('nameserver 10.96.0.10\n');
		// A command the image lacks: the shell's own message and status, and the session goes on.
		expect(cluster.exec('kubectl get pods')).toMatchObject({ stderr: 'sh: kubectl: not found\n', exitCode: 127 });
		expect(cluster.prompt()).toBe('/ # ');
		expect(cluster.exec('exit')).toMatchObject({ output: '', exitCode: 0 });
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
	});

	it('bash: `root@POD:/# `, `exit` echoed, a non-zero exit reported by kubectl', () => {
		cluster.exec('kubectl exec -it ng -- bash');
		expect(cluster.prompt()).toBe('root@ng:/# ');
		expect(cluster.exec('exit 3')).toMatchObject({ stdout: 'exit\n', stderr: 'command terminated with exit code 3\n', exitCode: 3 });
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
	});

	it('dash on Debian: `# `; the rest of a pasted input after `exit` runs on the workstation', () => {
		cluster.exec('kubectl exec -it ng -- sh');
		expect(cluster.prompt()).toBe('# ');
		expect(cluster.exec('exit\necho back on $HOSTNAME')).toMatchObject({ output: 'back on workstation\n', exitCode: 0 });
	});

	it('a shell the image lacks fails as kubectl exec does, and the terminal stays the reader’s', () => {
		const r = cluster.exec('kubectl exec -it bb -- bash');
		expect(r.stderr).toMatch(/exec: "bash": executable file not found in \$PATH: unknown\n$/);
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
	});

	it('survives a snapshot, and ends with kubectl’s error when the pod is gone', () => {
		cluster.exec('kubectl exec -it bb -- sh');
		const copy = restoreCluster(JSON.parse(JSON.stringify(cluster.snapshot())));
		expect(copy.prompt()).toBe('/ # ');
		expect(copy.exec('hostname').stdout).toBe('bb\n');
		copy.apply({ kind: 'stop', component: 'kube-apiserver' });
		const lost = copy.exec('hostname');
		expect(lost.exitCode).toBe(1);
		expect(copy.prompt()).toBe('reader@workstation:~$ ');
		cluster.exec('exit');
	});
});
