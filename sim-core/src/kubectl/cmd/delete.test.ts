import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { world, type World } from './testdata/env.ts';

/** A pod bound to a node: only those get a graceful deletion (unscheduled pods go at once, as upstream). */
const pod = (name: string, labels: Record<string, string> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { nodeName: 'node-1', containers: [{ name: 'main', image: 'nginx' }] } });

function withPods(...names: string[]): World {
	const w = world({ files: { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n' } });
	for (const name of names) w.create(pod(name, { app: name.startsWith('web') ? 'web' : 'db' }));
	return w;
}

describe('kubectl delete', () => {
	it('prints v1.36 wording naming the namespace, and waits until a terminating pod is gone', () => {
		const w = withPods('web');
		w.finishPodDeletions();
		const start = w.harness.kernel.nowMs;
		expect(w.kubectl('delete pod web')).toEqual({ stdout: 'pod "web" deleted from default namespace\n', stderr: '', exitCode: 0 });
		expect(w.get(R.pods, 'default', 'web')).toBeUndefined();
		// The wait ran the virtual clock until the kubelet's part (every second here) removed the pod.
		expect(w.harness.kernel.nowMs - start).toBeGreaterThan(0);
		expect(w.harness.kernel.nowMs - start).toBeLessThanOrEqual(1100);
	});

	it('returns at once with --wait=false, leaving the pod terminating', () => {
		const w = withPods('web');
		expect(w.kubectl('delete pod web --wait=false').stdout).toBe('pod "web" deleted from default namespace\n');
		expect(w.get(R.pods, 'default', 'web')?.metadata.deletionTimestamp).toBeDefined();
	});

	it('gives up a wait that never ends at --timeout with kubectl\'s timeout error', () => {
		const w = withPods('web');
		const start = w.harness.kernel.nowMs;
		expect(w.kubectl('delete pod web --timeout=5s')).toEqual({ stdout: 'pod "web" deleted from default namespace\n', stderr: 'error: timed out waiting for the condition on pods/web\n', exitCode: 1 });
		expect(w.harness.kernel.nowMs - start).toBe(5000);
	});

	it('force-deletes at once with --grace-period=0 --force, after the upstream warning', () => {
		const w = withPods('web');
		expect(w.kubectl('delete pod web --grace-period=0 --force')).toEqual({
			stdout: 'pod "web" force deleted from default namespace\n',
			stderr: 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n',
			exitCode: 0,
		});
		expect(w.get(R.pods, 'default', 'web')).toBeUndefined();
	});

	it('deletes by label selector and --all, printing one line per object in name order', () => {
		const w = withPods('web-1', 'web-2', 'db-1');
		expect(w.kubectl('delete pods -l app=web --wait=false').stdout).toBe('pod "web-1" deleted from default namespace\npod "web-2" deleted from default namespace\n');
		expect(w.kubectl('delete pods --all --force --grace-period=0').stdout).toBe(
			'pod "db-1" force deleted from default namespace\npod "web-1" force deleted from default namespace\npod "web-2" force deleted from default namespace\n',
		);
		expect(w.kubectl('delete pods --all')).toEqual({ stdout: 'No resources found\n', stderr: '', exitCode: 0 });
	});

	it('deletes the objects of a manifest', () => {
		const w = withPods();
		w.kubectl('apply -f cm.yaml');
		expect(w.kubectl('delete -f cm.yaml')).toEqual({ stdout: 'configmap "settings" deleted from default namespace\n', stderr: '', exitCode: 0 });
	});

	it('warns once when -n is given for cluster-scoped objects', () => {
		const w = withPods();
		w.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' } });
		expect(w.kubectl('delete node node-1 -n default')).toEqual({ stdout: 'node "node-1" deleted\n', stderr: 'Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n', exitCode: 0 });
	});

	it.each([
		['delete pod web --dry-run=client', 'pod "web" deleted from default namespace (dry run)\n'],
		['delete pod web --dry-run=server', 'pod "web" deleted from default namespace (server dry run)\n'],
		['delete pod web -o name --dry-run=client', 'pod/web\n'],
	])('changes nothing with `kubectl %s`', (line, stdout) => {
		const w = withPods('web');
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout, stderr: '', exitCode: 0 });
		expect(w.revision()).toBe(before);
	});

	it('reports a missing object, unless --ignore-not-found', () => {
		const w = withPods();
		expect(w.kubectl('delete pod ghost')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "ghost" not found\n', exitCode: 1 });
		expect(w.kubectl('delete pod ghost --ignore-not-found')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
	});

	it.each([
		['delete pod web --now --grace-period=5', 'error: --now and --grace-period cannot be specified together\n'],
		['delete pod web --force --grace-period=5', 'error: --force and --grace-period greater than 0 cannot be specified together\n'],
		['delete pod web -o yaml', "error: unexpected -o output mode: yaml. We only support '-o name'\n"],
		['delete pods --all -l app=web', "error: setting 'all' parameter but found a non empty selector. \n"],
		['delete pod web --cascade=sideways', 'error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"\n'],
		['delete pod', 'error: resource(s) were provided, but no name was specified\n'],
		['delete podz web', 'error: the server doesn\'t have a resource type "podz"\n'],
	])('rejects `kubectl %s` and deletes nothing', (line, stderr) => {
		const w = withPods('web');
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});

	it('warns that a boolean --cascade is deprecated', () => {
		const w = withPods('web');
		expect(w.kubectl('delete pod web --cascade=false --wait=false')).toEqual({
			stdout: 'pod "web" deleted from default namespace\n',
			stderr: 'warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n',
			exitCode: 0,
		});
	});
});

describe('kubectl run', () => {
	it('creates a pod and prints pod/NAME created', () => {
		const w = world();
		expect(w.kubectl('run web --image=nginx:1.27 --port=80 --env=MODE=fast --labels=app=web,tier=fe')).toEqual({ stdout: 'pod/web created\n', stderr: '', exitCode: 0 });
		const live = w.get(R.pods, 'default', 'web')!;
		expect(live.metadata.labels).toEqual({ app: 'web', tier: 'fe' });
		const c = (live.spec as { containers: Array<{ ports: unknown; env: unknown }> }).containers[0];
		expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
		expect(c.env).toEqual([{ name: 'MODE', value: 'fast' }]);
	});

	it('puts the words after -- into args, or into command with --command', () => {
		const w = world();
		const out = w.kubectl('run bb --image=busybox --restart=Never --dry-run=client -o yaml -- sleep 3600');
		expect(out.stdout).toBe(
			['apiVersion: v1', 'kind: Pod', 'metadata:', '  labels:', '    run: bb', '  name: bb', 'spec:', '  containers:', '  - args:', '    - sleep', '    - "3600"', '    image: busybox', '    name: bb', '    resources: {}', '  dnsPolicy: ClusterFirst', '  restartPolicy: Never', 'status: {}', ''].join('\n'),
		);
		const cmd = w.kubectl('run bb --image=busybox --command --dry-run=client -o yaml -- sleep 1').stdout;
		expect(cmd).toContain('  - command:\n    - sleep\n    - "1"\n');
	});

	it('prints the classic pod manifest with --dry-run=client -o yaml', () => {
		const w = world();
		expect(w.kubectl('run nginx --image=nginx --dry-run=client -o yaml').stdout).toBe(
			['apiVersion: v1', 'kind: Pod', 'metadata:', '  labels:', '    run: nginx', '  name: nginx', 'spec:', '  containers:', '  - image: nginx', '    name: nginx', '    resources: {}', '  dnsPolicy: ClusterFirst', '  restartPolicy: Always', 'status: {}', ''].join('\n'),
		);
	});

	it('creates a service first with --expose', () => {
		const w = world();
		expect(w.kubectl('run web --image=nginx --port=80 --expose')).toEqual({ stdout: 'service/web created\npod/web created\n', stderr: '', exitCode: 0 });
		expect((w.get(R.services, 'default', 'web')!.spec as { selector: unknown }).selector).toEqual({ run: 'web' });
	});

	it.each([
		['run', 'error: required flag(s) "image" not set\n'],
		['run --image=nginx', "error: NAME is required for run\nSee 'kubectl run -h' for help and examples\n"],
		['run web --image=NGINX', 'error: Invalid image name "NGINX": invalid reference format\n'],
		['run web --image=nginx --restart=Sometimes', "error: invalid restart policy: Sometimes\nSee 'kubectl run -h' for help and examples\n"],
		['run web --image=nginx -t', "error: -i/--stdin is required for containers with -t/--tty=true\nSee 'kubectl run -h' for help and examples\n"],
		['run web --image=nginx --expose', "error: --port must be set when exposing a service\nSee 'kubectl run -h' for help and examples\n"],
		['run web --image=nginx --env=NOEQUALS', 'error: invalid env: NOEQUALS\n'],
	])('rejects `kubectl %s` and creates nothing', (line, stderr) => {
		const w = world();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});

	it('reports an existing pod as the server does', () => {
		const w = world();
		w.kubectl('run web --image=nginx');
		expect(w.kubectl('run web --image=nginx').stderr).toBe('Error from server (AlreadyExists): pods "web" already exists\n');
	});
});
