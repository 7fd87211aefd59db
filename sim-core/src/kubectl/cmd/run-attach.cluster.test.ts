import { describe, it, expect } from 'vitest';
import { createCluster } from '../../index.ts';

/**
 * `kubectl run --attach / -i / -it [--rm]` against a booted cluster, the
 * way kubernetes.io's debugging pages use it: the container's command is
 * its main process, its output is what kubectl shows, `--rm` deletes the
 * Pod afterwards and `--restart=Never` passes the exit code on.
 */
describe('kubectl run, attached', () => {
	const cluster = createCluster({ seed: 7 });

	it('prints a one-shot command’s output, then deletes the pod with --rm', () => {
		const r = cluster.exec('kubectl run tmp --rm -it --image=busybox:1.36 --restart=Never -- echo hi');
		expect(r).toMatchObject({ output: 'hi\npod "tmp" deleted from default namespace\n', exitCode: 0 });
		expect(cluster.exec('kubectl get pod tmp').stderr).toBe('Error from server (NotFound): pods "tmp" not found\n');
	});

	it('exits with the container’s exit code under --restart=Never', () => {
		const r = cluster.exec(`kubectl run fail --rm -it --image=busybox:1.36 --restart=Never -- sh -c 'echo hi; exit 3'`);
		expect(r.output).toBe('hi\npod "fail" deleted from default namespace\npod default/fail terminated (Error)\n');
		expect(r.exitCode).toBe(3);
	});

	it('shows the pod’s files and hostname, with -i alone or --attach', () => {
		expect(cluster.exec('kubectl run dns --rm -i --image=busybox:1.36 --restart=Never -- cat /etc/resolv.conf').stdout).toBe(
			'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\npod "dns" deleted from default namespace\n',
		);
		// --attach without --rm keeps the pod.
		expect(cluster.exec('kubectl run host --attach --image=busybox:1.36 --restart=Never -- hostname')).toMatchObject({ output: 'host\n', exitCode: 0 });
		expect(cluster.exec('kubectl get pod host -o jsonpath={.status.phase}').stdout).toBe('Succeeded');
		// --expose: generateService prints its line before the attach; --rm removes both.
		expect(cluster.exec('kubectl run exp --rm -i --expose --port=80 --image=busybox:1.36 --restart=Never -- echo up').stdout).toBe(
			'service/exp created\nup\npod "exp" deleted from default namespace\nservice "exp" deleted from default namespace\n',
		);
	});

	it('attaches to a pod that is still running: logs so far, the notices, the rest of the output', () => {
		const r = cluster.exec(`kubectl run slow --rm -it --image=busybox:1.36 --restart=Never -- sh -c 'echo a; sleep 3; echo b'`);
		expect(r.output).toBe(
			[
				'a',
				'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.',
				"If you don't see a command prompt, try pressing enter.",
				'b',
				"Session ended, resume using 'kubectl attach slow -c slow -n default -i -t' command",
				'pod "slow" deleted from default namespace',
				'',
			].join('\n'),
		);
		// -q drops the notices.
		expect(cluster.exec(`kubectl run quiet --rm -it -q --image=busybox:1.36 --restart=Never -- sh -c 'sleep 1; echo q'`).output).toBe('q\npod "quiet" deleted from default namespace\n');
	});

	it('times out after --pod-running-timeout when the pod never runs, and still removes it', () => {
		const before = cluster.now();
		const r = cluster.exec('kubectl run nope --rm -it --image=nosuchimage:1 --restart=Never --pod-running-timeout=20s -- echo hi');
		expect(r.output).toBe('pod "nope" deleted from default namespace\nerror: timed out waiting for the condition\n');
		expect(r.exitCode).toBe(1);
		expect(cluster.now() - before).toBe(20_000);
	});

	it('refuses what upstream refuses, before creating anything', () => {
		expect(cluster.exec('kubectl run x --rm --image=busybox:1.36 -- echo x').stderr).toBe("error: --rm should only be used for attached containers\nSee 'kubectl run -h' for help and examples\n");
		expect(cluster.exec('kubectl run x -t --image=busybox:1.36').stderr).toBe("error: -i/--stdin is required for containers with -t/--tty=true\nSee 'kubectl run -h' for help and examples\n");
		expect(cluster.exec('kubectl run x -i --dry-run=client --image=busybox:1.36').stderr).toBe(
			"error: --dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)\nSee 'kubectl run -h' for help and examples\n",
		);
		expect(cluster.exec('kubectl run x -i --pod-running-timeout=0s --image=busybox:1.36').stderr).toBe("error: --pod-running-timeout must be higher than zero\nSee 'kubectl run -h' for help and examples\n");
		expect(cluster.exec('kubectl get pod x').exitCode).toBe(1);
	});
});

describe('kubectl attach', () => {
	const cluster = createCluster({ seed: 7 });
	cluster.exec(`kubectl run ticker --image=busybox:1.36 -- sh -c 'i=0; while true; do echo tick $i; i=$((i+1)); sleep 10; done'`);
	cluster.exec('kubectl run done --restart=Never --image=busybox:1.36 -- echo x');
	cluster.settle({ maxMs: 30_000 });

	it('streams what the main process writes from now on, until the reader detaches', () => {
		const before = cluster.now();
		const r = cluster.exec('kubectl attach ticker');
		// 30 s of virtual time, then the simulation's Ctrl-C: without a TTY it ends kubectl (status 130), not the container.
		expect(r.stderr).toBe(
			"All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\nIf you don't see a command prompt, try pressing enter.\n[sim-core/shell] still running after 30 s of virtual time: interrupted, as Ctrl-C would\n",
		);
		expect(r.exitCode).toBe(130);
		expect(r.stdout).toMatch(/^(tick \d+\n){3}$/);
		expect(cluster.now() - before).toBe(30_000);
		// -t on a container without a TTY; -q says nothing.
		expect(cluster.exec('kubectl attach ticker -it').stderr).toMatch(/^error: Unable to use a TTY - container ticker did not allocate one\nAll commands/);
		expect(cluster.exec('kubectl attach ticker -it -q').stderr).toBe('[sim-core/shell] still running after 30 s of virtual time: interrupted, as Ctrl-C would\n');
		expect(cluster.exec('kubectl get pod ticker').stdout).toMatch(/\nticker\s+1\/1\s+Running\s+0\s+/);
	});

	it('refuses what upstream refuses', () => {
		expect(cluster.exec('kubectl attach done').stderr).toBe('error: cannot attach a container in a completed pod; current phase is Succeeded\n');
		expect(cluster.exec('kubectl attach').stderr).toBe('error: at least 1 argument is required for attach\n');
		expect(cluster.exec('kubectl attach a b c').stderr).toBe('error: expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw 3: [a b c]\n');
		expect(cluster.exec('kubectl attach pod ticker -c nope').stderr).toBe('error: cannot attach to the container: container nope is not valid for pod ticker out of: ticker\n');
		expect(cluster.exec('kubectl attach nope').stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
	});
});
