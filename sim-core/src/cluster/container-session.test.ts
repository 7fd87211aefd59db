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

/**
 * `kubectl run -it NAME --image=busybox --rm` with no command: the image's
 * shell reads the attached terminal, so it waits for the reader's lines;
 * `exit` ends the container's main process, and --rm deletes the Pod.
 */
describe('kubectl run -it into the container’s own shell', () => {
	it('lands at the busybox prompt, runs lines in the Pod (DNS included), and `exit` deletes it with --rm', () => {
		const cluster = createCluster({ seed: 9 });
		cluster.exec('kubectl create deployment web --image=nginx:1.29');
		cluster.exec('kubectl expose deployment web --port=80');
		cluster.settle({ maxMs: 60_000 });
		const r = cluster.exec('kubectl run -it bb --image=busybox:1.36 --rm --restart=Never');
		expect(r.stderr).toContain("If you don't see a command prompt, try pressing enter.\n");
		expect(r.exitCode).toBe(0);
		expect(cluster.prompt()).toBe('/ # ');
		expect(cluster.exec('hostname').stdout).toBe('bb\n');
		expect(cluster.exec('wget -qO- http://web').stdout).toContain('<title>Welcome to nginx!</title>');
		expect(cluster.exec('exit').stdout).toBe('pod "bb" deleted from default namespace\n');
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
		cluster.settle({ maxMs: 60_000 });
		expect(cluster.exec('kubectl get pod bb').stderr).toBe('Error from server (NotFound): pods "bb" not found\n');
	});

	it('without --rm and with restartPolicy Always, `exit` ends the shell, kubectl names the reattach command, and the kubelet restarts it', () => {
		const cluster = createCluster({ seed: 9 });
		cluster.exec('kubectl run -it keep --image=busybox:1.36');
		expect(cluster.prompt()).toBe('/ # ');
		expect(cluster.exec('exit').stdout).toBe("Session ended, resume using 'kubectl attach keep -c keep -n default -i -t' command\n");
		cluster.advance('15s');
		expect(cluster.exec('kubectl get pod keep').stdout).toMatch(/keep\s+1\/1\s+Running\s+1 \(\d+s ago\)/);
	});
});

/**
 * A command that never ends, attached (kubernetes.io's HPA load generator):
 * a real kubectl streams it until the reader presses Ctrl-C; the simulation
 * streams 30 s of virtual time, says so, and presses it for the reader.
 */
describe('kubectl run attached to a command that never ends', () => {
	const LOOP = `/bin/sh -c "while sleep 1; do echo tick; done"`;

	it('with -it: the Ctrl-C reaches the container as SIGINT, the Pod ends with 130, and --rm deletes it', () => {
		const cluster = createCluster({ seed: 9 });
		cluster.settle();
		const r = cluster.exec(`kubectl run -i --tty lg --rm --image=busybox:1.28 --restart=Never -- ${LOOP}`);
		expect(r.exitCode).toBe(130);
		const ticks = r.stdout.split('\n').filter((l) => l === 'tick').length;
		expect(ticks).toBeGreaterThanOrEqual(28);
		expect(ticks).toBeLessThanOrEqual(31);
		expect(r.stdout).toMatch(/tick\n\^C\nSession ended, resume using 'kubectl attach lg -c lg -n default -i -t' command\npod "lg" deleted from default namespace\n$/);
		expect(r.stderr).toContain('[sim-core/shell] still running after 30 s of virtual time: interrupted, as Ctrl-C would\n');
		expect(r.stderr).toMatch(/pod default\/lg terminated \(Error\)\n$/);
		expect(cluster.exec('kubectl get pod lg').stderr).toBe('Error from server (NotFound): pods "lg" not found\n');
	});

	it('with -i only: the Ctrl-C ends kubectl itself, so the Pod goes on running and --rm never runs', () => {
		const cluster = createCluster({ seed: 9 });
		cluster.settle();
		const r = cluster.exec(`kubectl run -i lg --rm --image=busybox:1.28 --restart=Never -- ${LOOP}`);
		expect(r.exitCode).toBe(130);
		expect(r.stdout).not.toContain('deleted');
		expect(cluster.exec('kubectl get pod lg').stdout).toMatch(/\nlg\s+1\/1\s+Running\s+0\s+/);
	});
});
