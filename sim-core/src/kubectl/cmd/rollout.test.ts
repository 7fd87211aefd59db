import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { world, type World } from './testdata/env.ts';

/** A deployment `web` made by kubectl, then its two ReplicaSets as the deployment controller would have left them. */
function deploymentWithHistory(): { w: World; deployment: KubeObject } {
	const w = world();
	expect(w.kubectl('create deployment web --image=nginx:1.28 --replicas=3').exitCode).toBe(0);
	const deployment = w.get(R.deployments, 'default', 'web')!;
	const owner = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: deployment.metadata.uid!, controller: true, blockOwnerDeletion: true }];
	const rs = (name: string, hash: string, image: string, revision: string, annotations: Record<string, string> = {}): KubeObject => ({
		apiVersion: 'apps/v1',
		kind: 'ReplicaSet',
		metadata: { name, labels: { app: 'web', 'pod-template-hash': hash }, annotations: { 'deployment.kubernetes.io/revision': revision, ...annotations }, ownerReferences: owner },
		spec: {
			replicas: revision === '2' ? 3 : 0,
			selector: { matchLabels: { app: 'web', 'pod-template-hash': hash } },
			template: { metadata: { labels: { app: 'web', 'pod-template-hash': hash } }, spec: { containers: [{ name: 'nginx', image }] } },
		},
	});
	w.create(rs('web-aaa', 'aaa', 'nginx:1.27', '1'), rs('web-bbb', 'bbb', 'nginx:1.28', '2', { 'kubernetes.io/change-cause': 'image bumped to 1.28' }));
	// The controller records the current revision on the deployment too.
	w.admin.patch(R.deployments, 'default', 'web', { metadata: { annotations: { 'deployment.kubernetes.io/revision': '2' } } }, 'application/merge-patch+json');
	return { w, deployment: w.get(R.deployments, 'default', 'web')! };
}

const setStatus = (w: World, status: Record<string, unknown>) => {
	const live = w.get(R.deployments, 'default', 'web')!;
	expect(w.admin.updateStatus(R.deployments, { ...live, status: { observedGeneration: live.metadata.generation, ...status } }).ok).toBe(true);
};

describe('kubectl rollout status', () => {
	it('prints the status viewer line for every change until the rollout is done', () => {
		const { w } = deploymentWithHistory();
		setStatus(w, { replicas: 3, updatedReplicas: 1, availableReplicas: 0 });
		w.at(1000, () => setStatus(w, { replicas: 4, updatedReplicas: 3, availableReplicas: 1 }));
		w.at(2000, () => setStatus(w, { replicas: 3, updatedReplicas: 3, availableReplicas: 2 }));
		w.at(3000, () => setStatus(w, { replicas: 3, updatedReplicas: 3, availableReplicas: 3 }));
		expect(w.kubectl('rollout status deployment/web')).toEqual({
			stdout:
				'Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated...\n' +
				'Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...\n' +
				'Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...\n' +
				'deployment "web" successfully rolled out\n',
			stderr: '',
			exitCode: 0,
		});
	});

	it('prints one line and returns with --watch=false', () => {
		const { w } = deploymentWithHistory();
		setStatus(w, { replicas: 3, updatedReplicas: 3, availableReplicas: 1 });
		expect(w.kubectl('rollout status deploy/web --watch=false').stdout).toBe('Waiting for deployment "web" rollout to finish: 1 of 3 updated replicas are available...\n');
	});

	it('waits for the controller to observe the spec first', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('rollout status deploy/web --timeout=3s')).toEqual({ stdout: 'Waiting for deployment spec update to be observed...\n', stderr: 'error: timed out waiting for the condition\n', exitCode: 1 });
	});

	it('fails when the deployment exceeded its progress deadline', () => {
		const { w } = deploymentWithHistory();
		setStatus(w, { replicas: 3, updatedReplicas: 3, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] });
		expect(w.kubectl('rollout status deploy/web')).toEqual({ stdout: '', stderr: 'error: deployment "web" exceeded its progress deadline\n', exitCode: 1 });
	});

	it.each([
		['rollout status', 'error: required resource not specified\n'],
		['rollout status deploy/web --revision=-1', 'error: revision must be a positive integer: -1\n'],
		['rollout status deploy/web --revision=3', 'error: desired revision (3) is different from the running revision (2)\n'],
		['rollout status pod/x', 'Error from server (NotFound): pods "x" not found\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const { w } = deploymentWithHistory();
		setStatus(w, { replicas: 3, updatedReplicas: 3, availableReplicas: 3 });
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});
});

describe('kubectl rollout history', () => {
	it('lists the revisions and their change causes', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('rollout history deployment/web')).toEqual({ stdout: 'deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         image bumped to 1.28\n\n', stderr: '', exitCode: 0 });
	});

	it('describes one revision with --revision', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('rollout history deploy/web --revision=1').stdout).toBe(
			[
				'deployment.apps/web with revision #1',
				'Pod Template:',
				'  Labels:\tapp=web',
				'\tpod-template-hash=aaa',
				'  Containers:',
				'   nginx:',
				'    Image:\tnginx:1.27',
				'    Port:\t<none>',
				'    Host Port:\t<none>',
				'    Environment:\t<none>',
				'    Mounts:\t<none>',
				'  Volumes:\t<none>',
				'  Node-Selectors:\t<none>',
				'  Tolerations:\t<none>',
				'',
				'',
			].join('\n'),
		);
		expect(w.kubectl('rollout history deploy/web --revision=7')).toEqual({ stdout: '', stderr: 'error: unable to find the specified revision\n', exitCode: 1 });
	});
});

describe('kubectl rollout undo', () => {
	it('copies the previous revision\'s template back into the deployment', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('rollout undo deployment/web')).toEqual({ stdout: 'deployment.apps/web rolled back\n', stderr: '', exitCode: 0 });
		const live = w.get(R.deployments, 'default', 'web')!;
		const template = (live.spec as { template: { metadata: { labels: Record<string, string> }; spec: { containers: Array<{ image: string }> } } }).template;
		expect(template.spec.containers[0].image).toBe('nginx:1.27');
		// The ReplicaSet's pod-template-hash label is not copied back.
		expect(template.metadata.labels).toEqual({ app: 'web' });
		// The deployment keeps its own revision annotation.
		expect(live.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
	});

	it('copies the chosen revision\'s change cause with --to-revision', () => {
		const { w } = deploymentWithHistory();
		w.kubectl('rollout undo deploy/web --to-revision=1');
		expect(w.kubectl('rollout undo deploy/web --to-revision=2').stdout).toBe('deployment.apps/web rolled back\n');
		expect(w.get(R.deployments, 'default', 'web')!.metadata.annotations?.['kubernetes.io/change-cause']).toBe('image bumped to 1.28');
	});

	it('skips a revision that is already current', () => {
		const { w } = deploymentWithHistory();
		const before = w.revision();
		expect(w.kubectl('rollout undo deploy/web --to-revision=2').stdout).toBe('deployment.apps/web skipped rollback (current template already matches revision 2)\n');
		expect(w.revision()).toBe(before);
	});

	it.each([
		['rollout undo deploy/web --to-revision=9', 'error: unable to find specified revision 9 in history\n'],
		['rollout undo', 'error: required resource not specified\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const { w } = deploymentWithHistory();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});

	it('refuses to roll back a paused deployment', () => {
		const { w } = deploymentWithHistory();
		w.kubectl('rollout pause deploy/web');
		expect(w.kubectl('rollout undo deploy/web').stderr).toBe("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again\n");
	});
});

describe('kubectl rollout pause, resume and restart', () => {
	it('pauses and resumes, refusing to do either twice', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('rollout pause deploy/web')).toEqual({ stdout: 'deployment.apps/web paused\n', stderr: '', exitCode: 0 });
		expect((w.get(R.deployments, 'default', 'web')!.spec as { paused?: boolean }).paused).toBe(true);
		expect(w.kubectl('rollout pause deploy/web')).toEqual({ stdout: '', stderr: 'error: deployments.apps "web" is already paused\n', exitCode: 1 });
		expect(w.kubectl('rollout restart deploy/web')).toEqual({ stdout: '', stderr: 'error: deployments.apps "web" can\'t restart paused deployment (run rollout resume first)\n', exitCode: 1 });
		expect(w.kubectl('rollout resume deploy/web')).toEqual({ stdout: 'deployment.apps/web resumed\n', stderr: '', exitCode: 0 });
		expect((w.get(R.deployments, 'default', 'web')!.spec as { paused?: boolean }).paused).toBeUndefined();
		expect(w.kubectl('rollout resume deploy/web')).toEqual({ stdout: '', stderr: 'error: deployments.apps "web" is not paused\n', exitCode: 1 });
	});

	it('restarts by stamping the pod template with the time, once per second', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('rollout restart deploy/web')).toEqual({ stdout: 'deployment.apps/web restarted\n', stderr: '', exitCode: 0 });
		const annotations = (w.get(R.deployments, 'default', 'web')!.spec as { template: { metadata: { annotations: Record<string, string> } } }).template.metadata.annotations;
		expect(annotations['kubectl.kubernetes.io/restartedAt']).toBe('2026-11-30T08:00:00Z');
		expect(w.kubectl('rollout restart deploy/web').stderr).toBe('error: failed to create patch for web: if restart has already been triggered within the past second, please wait before attempting to trigger another\n');
		w.harness.advance(1000);
		expect(w.kubectl('rollout restart deploy/web').stdout).toBe('deployment.apps/web restarted\n');
	});

	it('does not pause what cannot be paused', () => {
		const w = world();
		w.kubectl('create configmap c');
		expect(w.kubectl('rollout pause configmap/c').stderr).toBe('error: configmaps "c" pausing is not supported\n');
	});
});

describe('kubectl scale', () => {
	it('patches the scale subresource and prints scaled', () => {
		const { w } = deploymentWithHistory();
		expect(w.kubectl('scale deployment web --replicas=5')).toEqual({ stdout: 'deployment.apps/web scaled\n', stderr: '', exitCode: 0 });
		expect((w.get(R.deployments, 'default', 'web')!.spec as { replicas: number }).replicas).toBe(5);
	});

	it('checks --current-replicas before scaling', () => {
		const { w } = deploymentWithHistory();
		const before = w.revision();
		expect(w.kubectl('scale deploy/web --replicas=5 --current-replicas=2')).toEqual({ stdout: '', stderr: 'error: Expected replicas to be 2, was 3\n', exitCode: 1 });
		expect(w.revision()).toBe(before);
		expect(w.kubectl('scale deploy/web --replicas=5 --current-replicas=3').stdout).toBe('deployment.apps/web scaled\n');
	});

	it('waits for the new size with --timeout', () => {
		const { w } = deploymentWithHistory();
		w.at(2000, () => setStatus(w, { replicas: 1 }));
		expect(w.kubectl('scale deploy/web --replicas=1 --timeout=5s')).toEqual({ stdout: 'deployment.apps/web scaled\n', stderr: '', exitCode: 0 });
		expect(w.kubectl('scale deploy/web --replicas=4 --timeout=2s')).toEqual({ stdout: '', stderr: 'error: timed out waiting for "web" to be synced\n', exitCode: 1 });
	});

	it.each([
		['scale deploy/web', 'error: required flag(s) "replicas" not set\n'],
		['scale deploy/web --replicas=-2', 'error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n'],
		['scale pod/web --replicas=2', 'Error from server (NotFound): pods "web" not found\n'],
		['scale configmap/c --replicas=2', 'Error from server (NotFound): the server could not find the requested resource\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const { w } = deploymentWithHistory();
		w.kubectl('create configmap c');
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});
