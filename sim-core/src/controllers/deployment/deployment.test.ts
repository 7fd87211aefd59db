import { describe, it, expect } from 'vitest';
import type { Deployment, Pod, ReplicaSet } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { createControllerHarness, type ControllerHarness } from '../../testing/controllers/harness.ts';
import { deployment, eventsFor, get, isReady, waitFor } from '../../testing/controllers/builders.ts';

const rsOf = (c: ControllerHarness, app: string) => c.list<ReplicaSet>(R.replicasets, 'default').filter((rs) => rs.metadata.labels?.app === app);
const podsOf = (c: ControllerHarness, app: string) => c.list<Pod>(R.pods, 'default').filter((p) => p.metadata.labels?.app === app);
const dep = (c: ControllerHarness, name: string) => get<Deployment>(c, R.deployments, 'default', name)!;

function rolledOut(c: ControllerHarness, name: string, replicas: number): boolean {
	const d = dep(c, name);
	const s = d.status ?? {};
	return s.observedGeneration === d.metadata.generation && s.updatedReplicas === replicas && s.availableReplicas === replicas && s.replicas === replicas && (s.terminatingReplicas ?? 0) === 0;
}

function create(c: ControllerHarness, d: Deployment): void {
	const created = c.kubectl.create(R.deployments, 'default', d);
	expect(created.ok).toBe(true);
}

/** What `kubectl set image` sends: a strategic merge patch of the container image. */
function setImage(c: ControllerHarness, name: string, image: string): void {
	expect(c.kubectl.patch(R.deployments, 'default', name, { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } }).ok).toBe(true);
}

describe('the Deployment controller', () => {
	it('brings a 3-replica Deployment to 3 ready pods through one ReplicaSet named after the template hash', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 3, 'nginx:1.27'));
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 3));

		const [rs] = rsOf(c, 'web');
		const hash = rs.metadata.labels?.['pod-template-hash'] ?? '';
		expect(hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
		expect(rs.metadata.name).toBe(`web-${hash}`);
		expect(rs.spec.selector.matchLabels).toEqual({ app: 'web', 'pod-template-hash': hash });
		expect(rs.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: dep(c, 'web').metadata.uid, controller: true, blockOwnerDeletion: true }]);
		// maxSurge 25% of 3 rounds up to 1: max-replicas is 4.
		expect(rs.metadata.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1', 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4' });

		const pods = podsOf(c, 'web');
		expect(pods).toHaveLength(3);
		for (const pod of pods) {
			expect(pod.metadata.name).toMatch(new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
			expect(pod.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ReplicaSet', name: rs.metadata.name, controller: true, blockOwnerDeletion: true });
			expect(isReady(pod)).toBe(true);
		}

		const d = dep(c, 'web');
		expect(d.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
		expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3, terminatingReplicas: 0 });
		expect(d.status?.unavailableReplicas).toBeUndefined();
		expect(d.status?.conditions?.map((x) => [x.type, x.status, x.reason, x.message])).toEqual([
			['Available', 'True', 'MinimumReplicasAvailable', 'Deployment has minimum availability.'],
			['Progressing', 'True', 'NewReplicaSetAvailable', `ReplicaSet "${rs.metadata.name}" has successfully progressed.`],
		]);
		expect(eventsFor(c, 'default', 'web')).toEqual([`ScalingReplicaSet: Scaled up replica set ${rs.metadata.name} from 0 to 3`]);
		expect(eventsFor(c, 'default', rs.metadata.name ?? '').sort()).toEqual(pods.map((p) => `SuccessfulCreate: Created pod: ${p.metadata.name}`).sort());
	});

	it('creates the pods of a new ReplicaSet in slow-start batches of 1, then 2', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 3, 'nginx:1.27'));
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 3));
		const batches = c.kernel.trace.events().filter((e) => e.sub === 'replicaset' && e.action === 'slow-start').map((e) => e.msg);
		expect(batches).toEqual(['creating a batch of 1 pod (need 3, have 0)', 'creating a batch of 2 pods (need 3, have 0)']);
	});

	it('rolls out a new image within maxSurge and maxUnavailable at every step', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 4, 'nginx:1.27', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } }));
		waitFor(c, 'the first rollout', () => rolledOut(c, 'web', 4));
		const [oldRS] = rsOf(c, 'web');
		setImage(c, 'web', 'nginx:1.28');

		let maxPods = 0;
		let minAvailable = Infinity;
		for (let i = 0; i < 200_000 && !(rolledOut(c, 'web', 4) && dep(c, 'web').metadata.generation === 2); i++) {
			if (!c.kernel.step()) c.advance(100);
			const live = c.stored<Pod>('pods', 'default').filter((p) => p.metadata.labels?.app === 'web' && !p.metadata.deletionTimestamp);
			maxPods = Math.max(maxPods, live.length);
			minAvailable = Math.min(minAvailable, live.filter(isReady).length);
		}
		// replicas + maxSurge and replicas - maxUnavailable.
		expect(maxPods).toBe(5);
		expect(minAvailable).toBe(3);

		const pods = podsOf(c, 'web').filter((p) => !p.metadata.deletionTimestamp);
		expect(pods.map((p) => p.spec.containers[0].image)).toEqual(Array(4).fill('nginx:1.28'));
		const rss = rsOf(c, 'web');
		const newRS = rss.find((rs) => rs.metadata.uid !== oldRS.metadata.uid)!;
		expect(rss.find((rs) => rs.metadata.uid === oldRS.metadata.uid)?.spec.replicas).toBe(0);
		expect(newRS.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
		expect(dep(c, 'web').metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
		const events = eventsFor(c, 'default', 'web');
		expect(events[1]).toBe(`ScalingReplicaSet: Scaled up replica set ${newRS.metadata.name} from 0 to 1`);
		expect(events).toContain(`ScalingReplicaSet: Scaled down replica set ${oldRS.metadata.name} from 4 to 3`);
		expect(events.at(-1)).toMatch(new RegExp(`^ScalingReplicaSet: Scaled down replica set ${oldRS.metadata.name} from [12] to 0$`));
	});

	it('replaces every old pod before starting new ones with the Recreate strategy', () => {
		const c = createControllerHarness();
		create(c, deployment('batch', 3, 'worker:1', { strategy: { type: 'Recreate' } }));
		waitFor(c, 'the first rollout', () => rolledOut(c, 'batch', 3));
		setImage(c, 'batch', 'worker:2');
		let overlap = false;
		for (let i = 0; i < 100_000 && !(rolledOut(c, 'batch', 3) && dep(c, 'batch').metadata.generation === 2); i++) {
			if (!c.kernel.step()) c.advance(100);
			const images = new Set(c.stored<Pod>('pods', 'default').filter((p) => p.metadata.labels?.app === 'batch').map((p) => p.spec.containers[0].image));
			if (images.size > 1) overlap = true;
		}
		expect(overlap).toBe(false);
		const newRS = rsOf(c, 'batch').find((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'] === '2')!;
		// Recreate sizes the new ReplicaSet at once.
		expect(eventsFor(c, 'default', 'batch')).toContain(`ScalingReplicaSet: Scaled up replica set ${newRS.metadata.name} from 0 to 3`);
	});

	it('reuses the old ReplicaSet when the template goes back to it (kubectl rollout undo) and bumps its revision', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 2, 'nginx:1.27'));
		waitFor(c, 'revision 1', () => rolledOut(c, 'web', 2));
		const [first] = rsOf(c, 'web');
		setImage(c, 'web', 'nginx:1.28');
		waitFor(c, 'revision 2', () => rolledOut(c, 'web', 2) && dep(c, 'web').metadata.annotations?.['deployment.kubernetes.io/revision'] === '2');

		// kubectl rollout undo: the previous ReplicaSet's template, without its pod-template-hash label, becomes the Deployment's.
		const d = dep(c, 'web');
		const template = JSON.parse(JSON.stringify(first.spec.template));
		delete template.metadata.labels['pod-template-hash'];
		expect(c.kubectl.update(R.deployments, { ...d, spec: { ...d.spec, template } }).ok).toBe(true);
		waitFor(c, 'the rollback', () => rolledOut(c, 'web', 2) && dep(c, 'web').metadata.annotations?.['deployment.kubernetes.io/revision'] === '3');

		const rss = rsOf(c, 'web');
		expect(rss).toHaveLength(2);
		const reused = rss.find((rs) => rs.metadata.uid === first.metadata.uid)!;
		expect(reused.spec.replicas).toBe(2);
		expect(reused.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
		expect(reused.metadata.annotations?.['deployment.kubernetes.io/revision-history']).toBe('1');
		expect(podsOf(c, 'web').filter((p) => !p.metadata.deletionTimestamp).every((p) => p.spec.containers[0].image === 'nginx:1.27')).toBe(true);
	});

	it('does not roll out while paused, still scales, and rolls out on resume', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 2, 'nginx:1.27'));
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 2));
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { paused: true } }).ok).toBe(true);
		setImage(c, 'web', 'nginx:1.28');
		c.advance(10_000);
		expect(rsOf(c, 'web')).toHaveLength(1);
		const progressing = () => dep(c, 'web').status?.conditions?.find((x) => x.type === 'Progressing');
		expect([progressing()?.status, progressing()?.reason, progressing()?.message]).toEqual(['Unknown', 'DeploymentPaused', 'Deployment is paused']);

		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { replicas: 4 } }).ok).toBe(true);
		waitFor(c, 'the paused scale-up', () => podsOf(c, 'web').filter(isReady).length === 4);
		expect(rsOf(c, 'web')).toHaveLength(1);
		expect(podsOf(c, 'web').every((p) => p.spec.containers[0].image === 'nginx:1.27')).toBe(true);

		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { paused: false } }).ok).toBe(true);
		waitFor(c, 'the resumed rollout', () => rolledOut(c, 'web', 4) && podsOf(c, 'web').filter((p) => !p.metadata.deletionTimestamp).every((p) => p.spec.containers[0].image === 'nginx:1.28'));
		expect(rsOf(c, 'web')).toHaveLength(2);
		expect(progressing()?.reason).toBe('NewReplicaSetAvailable');
	});

	it('reports DeploymentResumed when a paused Deployment is resumed, then progress', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 1, 'nginx:1.27', { paused: true }));
		c.advance(2000);
		expect(rsOf(c, 'web')).toHaveLength(0);
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { paused: false } }).ok).toBe(true);
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 1));
		// Every version etcd kept of the Deployment, in order: the Progressing reasons it went through.
		const seen: string[] = [];
		for (const kv of c.h.etcd.state.keys['/registry/deployments/default/web']) {
			if (!kv.value) continue;
			const stored = JSON.parse(kv.value) as Deployment;
			const reason = stored.status?.conditions?.find((x) => x.type === 'Progressing')?.reason;
			if (reason && seen.at(-1) !== reason) seen.push(reason);
		}
		expect(seen).toEqual(['DeploymentPaused', 'DeploymentResumed', 'NewReplicaSetCreated', 'ReplicaSetUpdated', 'NewReplicaSetAvailable']);
	});

	it('scales the ReplicaSet up and down with the Deployment, wording the events as v1.36 does', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 3, 'nginx:1.27'));
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 3));
		const [rs] = rsOf(c, 'web');
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { replicas: 5 } }).ok).toBe(true);
		waitFor(c, 'the scale-up', () => rolledOut(c, 'web', 5));
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { replicas: 2 } }).ok).toBe(true);
		waitFor(c, 'the scale-down', () => rolledOut(c, 'web', 2) && podsOf(c, 'web').length === 2);
		expect(eventsFor(c, 'default', 'web')).toEqual([
			`ScalingReplicaSet: Scaled up replica set ${rs.metadata.name} from 0 to 3`,
			`ScalingReplicaSet: Scaled up replica set ${rs.metadata.name} from 3 to 5`,
			`ScalingReplicaSet: Scaled down replica set ${rs.metadata.name} from 5 to 2`,
		]);
		expect(rsOf(c, 'web')[0].metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('2');
	});

	it('scales both ReplicaSets in proportion when a paused rollout is resized', () => {
		const c = createControllerHarness({ fakeNodes: { readyAfterMs: 3_600_000 } });
		create(c, deployment('web', 10, 'nginx:1.27', { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } }));
		c.advance(5000);
		// Nothing becomes ready: the new ReplicaSet stops at maxSurge + maxUnavailable's worth.
		setImage(c, 'web', 'nginx:1.28');
		c.advance(5000);
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { paused: true } }).ok).toBe(true);
		c.advance(2000);
		const before = rsOf(c, 'web').map((rs) => rs.spec.replicas ?? 0);
		expect(before.reduce((a, b) => a + b, 0)).toBe(13);
		expect(before.every((n) => n > 0)).toBe(true);
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { replicas: 20 } }).ok).toBe(true);
		c.advance(2000);
		const after = rsOf(c, 'web');
		// 20 + maxSurge 3 = 23, shared in proportion to the sizes they had under max-replicas 13.
		expect(after.map((rs) => rs.spec.replicas ?? 0).reduce((a, b) => a + b, 0)).toBe(23);
		for (const rs of after) {
			expect(rs.metadata.annotations?.['deployment.kubernetes.io/desired-replicas']).toBe('20');
			expect(rs.metadata.annotations?.['deployment.kubernetes.io/max-replicas']).toBe('23');
		}
	});

	it('counts pods as available only minReadySeconds after they are ready', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 2, 'nginx:1.27', { minReadySeconds: 10 }));
		waitFor(c, 'ready pods', () => (dep(c, 'web').status?.readyReplicas ?? 0) === 2);
		expect(dep(c, 'web').status?.availableReplicas ?? 0).toBe(0);
		const readyAt = c.kernel.nowMs;
		waitFor(c, 'available pods', () => (dep(c, 'web').status?.availableReplicas ?? 0) === 2, 30_000);
		const waited = c.kernel.nowMs - readyAt;
		expect(waited).toBeGreaterThanOrEqual(9_000);
		expect(waited).toBeLessThanOrEqual(13_000);
	});

	it('keeps only revisionHistoryLimit old ReplicaSets', () => {
		const c = createControllerHarness();
		create(c, deployment('web', 1, 'app:1', { revisionHistoryLimit: 1 }));
		for (const version of ['app:2', 'app:3', 'app:4']) {
			waitFor(c, 'a rollout', () => rolledOut(c, 'web', 1) && dep(c, 'web').status?.observedGeneration === dep(c, 'web').metadata.generation);
			setImage(c, 'web', version);
		}
		waitFor(c, 'the last rollout', () => rolledOut(c, 'web', 1) && podsOf(c, 'web').every((p) => p.spec.containers[0].image === 'app:4'));
		c.advance(2000);
		const revisions = rsOf(c, 'web').map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision']).sort();
		expect(revisions).toEqual(['3', '4']);
	});

	it('reports ProgressDeadlineExceeded when pods never become available in time', () => {
		const c = createControllerHarness({ fakeNodes: { readyAfterMs: 3_600_000 } });
		create(c, deployment('stuck', 2, 'nginx:1.27', { progressDeadlineSeconds: 30 }));
		c.advance(20_000);
		// Creating the pods was progress; then nothing moves.
		expect(dep(c, 'stuck').status?.conditions?.find((x) => x.type === 'Progressing')?.reason).toBe('ReplicaSetUpdated');
		c.advance(15_000);
		const d = dep(c, 'stuck');
		const rsName = rsOf(c, 'stuck')[0].metadata.name;
		expect(d.status?.conditions?.map((x) => [x.type, x.status, x.reason, x.message])).toEqual([
			['Available', 'False', 'MinimumReplicasUnavailable', 'Deployment does not have minimum availability.'],
			['Progressing', 'False', 'ProgressDeadlineExceeded', `ReplicaSet "${rsName}" has timed out progressing.`],
		]);
		expect(d.status?.unavailableReplicas).toBe(2);
	});

	it('ties the controllers\' work to the command that caused it in the trace', () => {
		const c = createControllerHarness();
		c.advance(1000);
		c.kernel.origin = c.kernel.newOrigin('input');
		const origin = c.kernel.origin;
		create(c, deployment('web', 1, 'nginx:1.27'));
		c.kernel.origin = 'test';
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 1));
		const story = c.kernel.trace.events({ origin }).filter((e) => e.component === 'kube-controller-manager' && e.action === 'reconcile');
		expect(story.map((e) => e.sub)).toContain('deployment');
		expect(story.map((e) => e.sub)).toContain('replicaset');
		// Each reconcile costs virtual time: the first comes a millisecond after the watch event that queued it.
		const firstReconcile = story[0];
		const watch = c.kernel.trace.events({ origin }).find((e) => e.action === 'watch-event' && e.peer === 'kube-controller-manager');
		expect(firstReconcile.atMs).toBeGreaterThan(watch!.atMs);
	});
});

describe('deleting a Deployment', () => {
	function ready(c: ControllerHarness) {
		create(c, deployment('web', 2, 'nginx:1.27'));
		waitFor(c, 'the rollout', () => rolledOut(c, 'web', 2));
	}

	it('in the background removes it at once, then its ReplicaSet and pods through the garbage collector', () => {
		const c = createControllerHarness();
		ready(c);
		expect(c.kubectl.delete(R.deployments, 'default', 'web', { propagationPolicy: 'Background' }).ok).toBe(true);
		expect(get(c, R.deployments, 'default', 'web')).toBeUndefined();
		waitFor(c, 'the clean-up', () => rsOf(c, 'web').length === 0 && podsOf(c, 'web').length === 0);
		const gc = c.kernel.trace.events().filter((e) => e.sub === 'garbagecollector' && e.action === 'delete').map((e) => e.msg);
		expect(gc[0]).toMatch(/^deleting replicasets\/default\/web-\w+ with propagation policy Background: no owner is alive$/);
	});

	it('in the foreground keeps it until its pods and ReplicaSet are gone', () => {
		const c = createControllerHarness();
		ready(c);
		expect(c.kubectl.delete(R.deployments, 'default', 'web', { propagationPolicy: 'Foreground' }).ok).toBe(true);
		const d = dep(c, 'web');
		expect(d.metadata.deletionTimestamp).toBeDefined();
		expect(d.metadata.finalizers).toEqual(['foregroundDeletion']);
		let deploymentGoneWhilePodsLeft = false;
		let rsGoneWhilePodsLeft = false;
		for (let i = 0; i < 100_000 && get(c, R.deployments, 'default', 'web'); i++) {
			if (!c.kernel.step()) c.advance(100);
			const pods = c.stored<Pod>('pods', 'default').filter((p) => p.metadata.labels?.app === 'web').length;
			const rss = c.stored<ReplicaSet>('replicasets', 'default').length;
			const deployments = c.stored<Deployment>('deployments', 'default').length;
			if (pods > 0 && deployments === 0) deploymentGoneWhilePodsLeft = true;
			if (pods > 0 && rss === 0) rsGoneWhilePodsLeft = true;
		}
		expect(get(c, R.deployments, 'default', 'web')).toBeUndefined();
		expect([deploymentGoneWhilePodsLeft, rsGoneWhilePodsLeft]).toEqual([false, false]);
		expect(rsOf(c, 'web')).toHaveLength(0);
		expect(podsOf(c, 'web')).toHaveLength(0);
	});

	it('with Orphan leaves the ReplicaSet (without its owner reference) and its pods running', () => {
		const c = createControllerHarness();
		ready(c);
		expect(c.kubectl.delete(R.deployments, 'default', 'web', { propagationPolicy: 'Orphan' }).ok).toBe(true);
		waitFor(c, 'the Deployment to go', () => !get(c, R.deployments, 'default', 'web'));
		c.advance(5000);
		const rss = rsOf(c, 'web');
		expect(rss).toHaveLength(1);
		expect(rss[0].metadata.ownerReferences ?? []).toEqual([]);
		expect(podsOf(c, 'web').filter((p) => !p.metadata.deletionTimestamp)).toHaveLength(2);
	});
});
