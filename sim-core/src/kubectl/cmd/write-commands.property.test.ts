import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import type { KubeObject } from '../../api/types.ts';
import { world } from './testdata/env.ts';

/** Words a reader might type (or mistype) after a command. */
const WORDS = [
	'pod', 'pods', 'po', 'deploy', 'deployment/web', 'deploy/web', 'svc', 'nodes', 'node', 'cm', 'configmap', 'secret', 'generic', 'podz', 'ns', 'job', 'role', 'rolebinding',
	'web', 'db', 'ghost', 'node-1', 'settings', 'status', 'history', 'undo', 'restart', 'pause', 'resume', 'image', 'env', 'can-i', 'whoami', 'get', 'list', 'delete',
	'app=web', 'app-', 'tier=fe', 'web=nginx:1.28', '*=busybox', 'a=b=c', '=x', 'dedicated=gpu:NoSchedule', 'dedicated:NoSchedule-', 'bad:Effect', 'x-',
	'-f', 'x.yaml', 'bad.yaml', 'missing.yaml', '-', '-l', '-n', 'kube-system', '-c', 'sidecar', '-p', '{"spec":{"replicas":2}}', '[{"op":"remove","path":"/nope"}]', 'not: [json',
	'--all', '-A', '--force', '--grace-period=0', '--grace-period=-3', '--now', '--wait=false', '--overwrite', '--list', '--dry-run=client', '--dry-run=server', '--dry-run=bogus', '--dry-run',
	'-o', 'yaml', 'name', 'json', 'wide', '--replicas=3', '--replicas=-1', '--image=nginx', '--image=BAD', '--port=80', '--type=merge', '--type=json', '--type=NodePort',
	'--to-revision=1', '--revision=2', '--for=delete', '--for=condition=Ready', '--for=jsonpath={.spec.replicas}=1', '--timeout=1s', '--timeout=bogus', '--ignore-daemonsets',
	'--delete-emptydir-data', '--verb=get', '--resource=pods', '--role=r', '--user=jane', '--from-literal=k=v', '--tcp=80:8080', '--validate=false', '--cascade=orphan',
	'--', 'sh', 'ls', '-it', '--previous', '--tail=2', '--as=jane', '--selector', '--unknown-flag', '-Z',
];
const COMMANDS = ['apply', 'create', 'run', 'delete', 'replace', 'patch', 'expose', 'scale', 'rollout', 'set', 'label', 'annotate', 'taint', 'cordon', 'uncordon', 'drain', 'logs', 'exec', 'auth', 'wait'];

const line = fc.tuple(fc.constantFrom(...COMMANDS), fc.array(fc.constantFrom(...WORDS), { maxLength: 6 })).map(([cmd, args]) => [cmd, ...args]);

/** A small cluster: a node, a deployment's pod, a config map and a manifest file with a typo. */
function seeded() {
	const w = world({
		files: {
			'x.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n',
			'bad.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndat:\n  a: "1"\n',
		},
	});
	const objects: KubeObject[] = [
		{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} },
		{ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'web' } }, spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] }, status: { phase: 'Running' } },
		{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } },
	];
	w.create(...objects);
	w.kubectl('create deployment web --image=nginx');
	w.nodeProxy.handler = (_node, request) => (request.subresource === 'log' ? { code: 200, body: 'log line\n' } : { code: 200, body: { kind: 'ExecResult', stdout: 'ok\n', stderr: '', exitCode: 0 } });
	return w;
}

describe('kubectl changing commands under random input', () => {
	it('never throw, and a command that fails before reporting anything done changes nothing', () => {
		fc.assert(
			fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
				const w = seeded();
				for (const argv of lines) {
					const before = w.revision();
					const result = w.kubectl(argv.map((a) => (/\s|[{}[\]"*]/.test(a) ? `'${a}'` : a)).join(' '));
					// runKubectl turns an exception into this message: it must never appear.
					expect(result.stderr).not.toContain('internal error in the simulated kubectl');
					expect(typeof result.exitCode).toBe('number');
					if (result.exitCode !== 0 && result.stdout === '') expect(w.revision(), `kubectl ${argv.join(' ')}`).toBe(before);
				}
			}),
			{ numRuns: 150, seed: 20261130 },
		);
	});
});
