/**
 * Every kubectl v1.36 command a reader may type: those `kubectl --help`
 * lists answer `--help`, and none of upstream's is answered as an unknown
 * command, except the ones still listed as missing here (which must really
 * be missing, so the list shrinks as they land). Commands the sandbox does
 * not carry out yet say so plainly.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

/** The top-level commands of kubectl v1.36 (NewKubectlCommand's groups and the ungrouped ones). */
const UPSTREAM = [
	'create', 'expose', 'run', 'set', 'explain', 'get', 'edit', 'delete', 'rollout', 'scale', 'autoscale', 'certificate', 'cluster-info', 'top',
	'cordon', 'uncordon', 'drain', 'taint', 'describe', 'logs', 'attach', 'exec', 'port-forward', 'proxy', 'cp', 'auth', 'debug', 'events', 'diff',
	'apply', 'patch', 'replace', 'wait', 'kustomize', 'label', 'annotate', 'completion', 'api-resources', 'api-versions', 'config', 'plugin', 'version',
];
/** Not there yet. */
const MISSING: string[] = [];

describe('kubectl commands', () => {
	const cluster = createCluster({ seed: 4 });

	it("answers each of upstream's commands, and each command it lists answers --help", () => {
		for (const name of UPSTREAM) {
			const r = cluster.exec(`kubectl ${name} --help`);
			if (MISSING.includes(name)) expect(r.stderr, name).toMatch(/^error: unknown command/);
			else expect(r, name).toMatchObject({ exitCode: 0, stderr: '' });
		}
		// The rows of the command groups (the trailer's `kubectl options` pointer is not one).
		const listed = [...cluster.exec('kubectl --help').stdout.matchAll(/^ {2}([a-z-]+) +\S/gm)].map((m) => m[1]).filter((name) => name !== 'kubectl');
		expect(listed.length).toBeGreaterThan(35);
		for (const name of listed) expect(cluster.exec(`kubectl ${name} --help`).exitCode, name).toBe(0);
	});

	it('says plainly which commands the sandbox does not carry out yet, and what to use instead', () => {
		// kubectl cp is simulated (../kubectl/cmd/cp.cluster.test.ts): a Pod that is not there is the server's NotFound.
		expect(cluster.exec('kubectl cp web:/etc/hostname ./hostname -c nginx')).toMatchObject({ stderr: 'Error from server (NotFound): pods "web" not found\n', exitCode: 1 });
		// kubectl debug is simulated (./../kubectl/cmd/debug.cluster.test.ts): a node that is not there is the server's NotFound.
		expect(cluster.exec('kubectl debug node/nosuch -it --image=busybox')).toMatchObject({ stderr: 'Error from server (NotFound): nodes "nosuch" not found\n', exitCode: 1 });
	});
});
