import { describe, it, expect } from 'vitest';
import { R } from '../../client/client.ts';
import { world, type World } from './testdata/env.ts';

function withPod(): World {
	const w = world();
	w.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', labels: { app: 'nginx' }, annotations: { owner: 'team-a' } }, spec: { containers: [{ name: 'main', image: 'nginx' }] } });
	return w;
}

describe('kubectl label', () => {
	it.each([
		['label pod web tier=frontend', 'pod/web labeled\n', { app: 'nginx', tier: 'frontend' }],
		['label pod web app-', 'pod/web unlabeled\n', undefined],
		['label pod web app=web --overwrite', 'pod/web labeled\n', { app: 'web' }],
		['label pod web app=web --overwrite tier=fe', 'pod/web labeled\n', { app: 'web', tier: 'fe' }],
		['label pod web app- tier=fe', 'pod/web modified\n', { tier: 'fe' }],
		['label pod web app=nginx', 'pod/web not labeled\n', { app: 'nginx' }],
		['label pods --all x=y', 'pod/web labeled\n', { app: 'nginx', x: 'y' }],
	])('kubectl %s', (line, stdout, labels) => {
		const w = withPod();
		expect(w.kubectl(line)).toEqual({ stdout, stderr: '', exitCode: 0 });
		const live = w.get(R.pods, 'default', 'web')!.metadata.labels;
		if (labels === undefined) expect(live ?? {}).toEqual({});
		else expect(live).toEqual(labels);
	});

	it('refuses to change a value without --overwrite', () => {
		const w = withPod();
		const before = w.revision();
		expect(w.kubectl('label pod web app=web')).toEqual({ stdout: '', stderr: "error: 'app' already has a value (nginx), and --overwrite is false\n", exitCode: 1 });
		expect(w.revision()).toBe(before);
	});

	it('says when a label to remove is not there', () => {
		const w = withPod();
		expect(w.kubectl('label pod web nope-')).toEqual({ stdout: 'label "nope" not found.\npod/web not labeled\n', stderr: '', exitCode: 0 });
	});

	it('lists labels with --list', () => {
		const w = withPod();
		expect(w.kubectl('label pod web --list').stdout).toBe('app=nginx\n');
	});

	it('changes nothing with --dry-run=client', () => {
		const w = withPod();
		const before = w.revision();
		expect(w.kubectl('label pod web tier=fe --dry-run=client').stdout).toBe('pod/web labeled (dry run)\n');
		expect(w.revision()).toBe(before);
	});

	it.each([
		['label pod web', 'error: at least one label update is required\n'],
		['label tier=fe', 'error: one or more resources must be specified as <resource> <name> or <resource>/<name>\n'],
		['label pod web a=b c', 'error: all resources must be specified before label changes: c\n'],
		['label pod web a=b=c', 'error: invalid label spec: a=b=c\n'],
		['label pod web a=b a-', 'error: can not both modify and remove a label in the same command\n'],
		['label pod web a=-bad', 'error: invalid label value: "a=-bad": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')\n'],
		['label pod ghost a=b', 'Error from server (NotFound): pods "ghost" not found\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = withPod();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl annotate', () => {
	it('adds, overwrites and removes annotations, always printing annotated', () => {
		const w = withPod();
		expect(w.kubectl('annotate pod web note=hello')).toEqual({ stdout: 'pod/web annotated\n', stderr: '', exitCode: 0 });
		expect(w.kubectl('annotate pod web owner=team-b --overwrite').stdout).toBe('pod/web annotated\n');
		expect(w.kubectl('annotate pod web note-').stdout).toBe('pod/web annotated\n');
		expect(w.get(R.pods, 'default', 'web')!.metadata.annotations).toEqual({ owner: 'team-b' });
	});

	it('lets kubernetes.io/change-cause be overwritten without --overwrite', () => {
		const w = withPod();
		w.kubectl('annotate pod web kubernetes.io/change-cause=first');
		expect(w.kubectl('annotate pod web kubernetes.io/change-cause=second').exitCode).toBe(0);
		expect(w.get(R.pods, 'default', 'web')!.metadata.annotations?.['kubernetes.io/change-cause']).toBe('second');
	});

	it.each([
		['annotate pod web owner=team-b', "error: --overwrite is false but found the following declared annotation(s): 'owner' already has a value (team-a)\n"],
		['annotate pod web a=1 a-', 'error: can not both modify and remove the following annotation(s) in the same command: a\n'],
		['annotate pod web', 'error: at least one annotation update is required\n'],
		// `=x` is not a pair (GetResourcesAndPairs), so it counts as a resource and no update is left.
		['annotate pod web =x', 'error: at least one annotation update is required\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = withPod();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl set image and set env', () => {
	function withDeployment(): World {
		const w = world();
		w.kubectl('create deployment web --image=nginx:1.27');
		return w;
	}
	const containers = (w: World) => (w.get(R.deployments, 'default', 'web')!.spec as { template: { spec: { containers: Array<{ image: string; env?: unknown }> } } }).template.spec.containers;

	it('updates a container image by name or with *', () => {
		const w = withDeployment();
		expect(w.kubectl('set image deploy/web nginx=nginx:1.28')).toEqual({ stdout: 'deployment.apps/web image updated\n', stderr: '', exitCode: 0 });
		expect(containers(w)[0].image).toBe('nginx:1.28');
		expect(w.kubectl('set image deploy/web *=nginx:1.29').stdout).toBe('deployment.apps/web image updated\n');
		expect(containers(w)[0].image).toBe('nginx:1.29');
	});

	it('prints nothing when the image is already set', () => {
		const w = withDeployment();
		const before = w.revision();
		expect(w.kubectl('set image deploy/web nginx=nginx:1.27')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
		expect(w.revision()).toBe(before);
	});

	it.each([
		['set image deploy/web redis=redis:7', 'error: unable to find container named "redis"\n'],
		['set image deploy/web', 'error: at least one image update is required\n'],
		['set image deploy/web *=a nginx=b', 'error: all containers are already specified by *, but saw more than one container_name=container_image pairs\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = withDeployment();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('sets, lists and removes environment variables', () => {
		const w = withDeployment();
		expect(w.kubectl('set env deploy/web MODE=fast LEVEL=3')).toEqual({ stdout: 'deployment.apps/web env updated\n', stderr: '', exitCode: 0 });
		expect(containers(w)[0].env).toEqual([
			{ name: 'MODE', value: 'fast' },
			{ name: 'LEVEL', value: '3' },
		]);
		expect(w.kubectl('set env deploy/web --list').stdout).toBe('# Deployment web, container nginx\nMODE=fast\nLEVEL=3\n');
		expect(w.kubectl('set env deploy/web MODE-').stdout).toBe('deployment.apps/web env updated\n');
		expect(containers(w)[0].env).toEqual([{ name: 'LEVEL', value: '3' }]);
	});

	it('warns when -c matches no container', () => {
		const w = withDeployment();
		expect(w.kubectl('set env deploy/web A=1 -c sidecar')).toEqual({ stdout: '', stderr: 'Warning: Deployment/web does not have any containers matching "sidecar"\n', exitCode: 0 });
	});
});
