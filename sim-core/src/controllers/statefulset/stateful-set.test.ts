import { describe, it, expect } from 'vitest';
import type { ControllerRevision, Pod, StatefulSet } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { createControllerHarness, type ControllerHarness } from '../../testing/controllers/harness.ts';
import { eventsFor, get, isReady, statefulSet, waitFor } from '../../testing/controllers/builders.ts';
import { hashControllerRevision } from '../history.ts';
import { getPatch, newRevision, parentNameAndOrdinal } from './stateful-set-utils.ts';

const pods = (c: ControllerHarness) => c.stored<Pod>('pods', 'default').filter((p) => p.metadata.labels?.app === 'web');
const names = (c: ControllerHarness) => pods(c).map((p) => p.metadata.name).sort();
const sts = (c: ControllerHarness) => get<StatefulSet>(c, R.statefulsets, 'default', 'web')!;
const revisions = (c: ControllerHarness) => c.stored<ControllerRevision>('controllerrevisions', 'default').sort((a, b) => a.revision - b.revision);
const image = (p: Pod) => p.spec.containers[0].image;
const readyNames = (c: ControllerHarness) => pods(c).filter((p) => isReady(p) && !p.metadata.deletionTimestamp).map((p) => p.metadata.name).sort();

/**
 * Steps the cluster one event at a time until `done`, calling `observe`
 * after every step with the Pods as etcd holds them (so no intermediate
 * state is missed).
 */
function stepUntil(c: ControllerHarness, what: string, done: () => boolean, observe: (pods: Pod[]) => void, maxSteps = 200_000): void {
	for (let i = 0; i < maxSteps; i++) {
		if (done()) return;
		if (!c.kernel.step()) c.advance(100);
		observe(pods(c));
	}
	throw new Error(`gave up waiting for ${what}`);
}

function patchImage(c: ControllerHarness, to: string): void {
	expect(c.kubectl.patch(R.statefulsets, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'main', image: to }] } } } }).ok).toBe(true);
}

function created(c: ControllerHarness, replicas: number, spec: Partial<StatefulSet['spec']> = {}): ControllerHarness {
	expect(c.kubectl.create(R.statefulsets, 'default', statefulSet('web', replicas, 'nginx:1.27', spec)).ok).toBe(true);
	return c;
}

describe('stateful set utilities', () => {
	it.each([
		['web-0', ['web', 0]],
		['my-db-12', ['my-db', 12]],
		['web', ['', -1]],
		['web-x', ['', -1]],
		['web-2147483648', ['web', -1]],
	] as const)('reads the parent and ordinal of %s', (name, expected) => {
		expect(parentNameAndOrdinal({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [] } })).toEqual(expected);
	});

	it('names a revision <set>-<FNV-1 hash of the template patch and collision count>, and a collision count changes it', () => {
		const set: StatefulSet = { ...statefulSet('web', 1, 'nginx:1.27'), metadata: { name: 'web', namespace: 'default', uid: 'u1', annotations: { note: 'x' } } };
		const rev = newRevision(set, 1, 0);
		expect(rev.data).toEqual({ spec: { template: { ...set.spec.template, $patch: 'replace' } } });
		expect(rev.metadata.name).toBe(`web-${hashControllerRevision(getPatch(set), 0)}`);
		expect(rev.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
		expect(rev.metadata.labels).toEqual({ app: 'web', 'controller.kubernetes.io/hash': rev.metadata.name?.slice(4) });
		expect(rev.metadata.annotations).toEqual({ note: 'x' });
		expect(rev.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 'u1', controller: true, blockOwnerDeletion: true }]);
		expect(newRevision(set, 1, 1).metadata.name).not.toBe(rev.metadata.name);
		const other = statefulSet('web', 1, 'nginx:1.28');
		expect(newRevision(other, 1, 0).metadata.name).not.toBe(rev.metadata.name);
	});
});

describe('the StatefulSet controller: OrderedReady', () => {
	it('creates web-0, web-1, web-2 in order, each only once the one before is Running and Ready', () => {
		const c = created(createControllerHarness(), 3);
		const order: string[] = [];
		const seen = new Set<string>();
		stepUntil(
			c,
			'three ready pods',
			() => readyNames(c).length === 3,
			(now) => {
				for (const pod of now) {
					if (seen.has(pod.metadata.uid ?? '')) continue;
					seen.add(pod.metadata.uid ?? '');
					const ordinal = Number(pod.metadata.name?.split('-')[1]);
					const before = now.filter((p) => Number(p.metadata.name?.split('-')[1]) < ordinal);
					// Every predecessor exists and is ready at the moment this one appears.
					expect(before.map((p) => [p.metadata.name, isReady(p)])).toEqual(Array.from({ length: ordinal }, (_, i) => [`web-${i}`, true]));
					order.push(pod.metadata.name ?? '');
				}
			},
		);
		expect(order).toEqual(['web-0', 'web-1', 'web-2']);
		c.advance(500);
		const web1 = pods(c).find((p) => p.metadata.name === 'web-1')!;
		expect(web1.metadata.labels).toMatchObject({ app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-1', 'apps.kubernetes.io/pod-index': '1', 'controller-revision-hash': revisions(c)[0].metadata.name });
		expect(web1.metadata.generateName).toBe('web-');
		expect(web1.spec.hostname).toBe('web-1');
		expect(web1.spec.subdomain).toBe('web');
		expect(web1.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'StatefulSet', name: 'web', controller: true });
		const rev = revisions(c)[0].metadata.name;
		expect(sts(c).status).toEqual({ observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, currentRevision: rev, updateRevision: rev, collisionCount: 0 });
		expect(eventsFor(c, 'default', 'web')).toEqual(['web-0', 'web-1', 'web-2'].map((n) => `SuccessfulCreate: create Pod ${n} in StatefulSet web successful`));
	});

	it('scales down from the highest ordinal, deleting the next only once the previous has terminated', () => {
		const c = created(createControllerHarness(), 3);
		waitFor(c, 'three ready pods', () => readyNames(c).length === 3);
		expect(c.kubectl.patch(R.statefulsets, 'default', 'web', { spec: { replicas: 1 } }).ok).toBe(true);
		const deletions: string[] = [];
		stepUntil(
			c,
			'one pod left',
			() => names(c).length === 1,
			(now) => {
				const terminating = now.filter((p) => p.metadata.deletionTimestamp).map((p) => p.metadata.name ?? '');
				// Never two at once: web-1 starts terminating only after web-2 is gone.
				expect(terminating.length).toBeLessThanOrEqual(1);
				for (const n of terminating) if (!deletions.includes(n)) deletions.push(n);
			},
		);
		expect(deletions).toEqual(['web-2', 'web-1']);
		expect(names(c)).toEqual(['web-0']);
		expect(eventsFor(c, 'default', 'web').filter((e) => e.startsWith('SuccessfulDelete'))).toEqual(['SuccessfulDelete: delete Pod web-2 in StatefulSet web successful', 'SuccessfulDelete: delete Pod web-1 in StatefulSet web successful']);
	});

	it('recreates a deleted Pod, and a Failed one, under the same name', () => {
		const c = created(createControllerHarness(), 2);
		waitFor(c, 'two ready pods', () => readyNames(c).length === 2);
		const firstUid = pods(c).find((p) => p.metadata.name === 'web-1')!.metadata.uid;
		expect(c.kubectl.delete(R.pods, 'default', 'web-1').ok).toBe(true);
		waitFor(c, 'a new web-1', () => pods(c).some((p) => p.metadata.name === 'web-1' && p.metadata.uid !== firstUid && isReady(p)));
		const web0 = pods(c).find((p) => p.metadata.name === 'web-0')!;
		const failed = structuredClone(web0);
		failed.status = { ...failed.status, phase: 'Failed' };
		expect(c.kubectl.updateStatus(R.pods, failed).ok).toBe(true);
		waitFor(c, 'a new web-0', () => pods(c).some((p) => p.metadata.name === 'web-0' && p.metadata.uid !== web0.metadata.uid && isReady(p)));
		expect(names(c)).toEqual(['web-0', 'web-1']);
	});

	it('waits minReadySeconds after a Pod is ready before creating the next', () => {
		const c = created(createControllerHarness(), 2, { minReadySeconds: 10 });
		waitFor(c, 'web-0 ready', () => readyNames(c).includes('web-0'));
		const readyAt = c.kernel.nowMs;
		waitFor(c, 'web-1', () => names(c).includes('web-1'), 30_000);
		expect(c.kernel.nowMs - readyAt).toBeGreaterThanOrEqual(10_000);
		waitFor(c, 'two available', () => sts(c).status?.availableReplicas === 2, 30_000);
	});

	it('names Pods from spec.ordinals.start', () => {
		const c = created(createControllerHarness(), 2, { ordinals: { start: 5 } });
		waitFor(c, 'two ready pods', () => readyNames(c).length === 2);
		expect(names(c)).toEqual(['web-5', 'web-6']);
		expect(pods(c).map((p) => p.metadata.labels?.['apps.kubernetes.io/pod-index']).sort()).toEqual(['5', '6']);
	});

	it('adopts an orphan that has its name and labels (then rolls it, as it has no revision label), and ignores one whose name does not fit', () => {
		const c = createControllerHarness();
		for (const name of ['web-0', 'web-blue']) {
			expect(c.kubectl.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } }).ok).toBe(true);
		}
		waitFor(c, 'the orphans ready', () => readyNames(c).length === 2);
		const orphanUid = pods(c).find((p) => p.metadata.name === 'web-0')?.metadata.uid;
		created(c, 1);
		waitFor(c, 'web-0 adopted', () => pods(c).some((p) => p.metadata.uid === orphanUid && p.metadata.ownerReferences?.[0]?.kind === 'StatefulSet'));
		waitFor(c, 'web-0 replaced at the revision', () => pods(c).some((p) => p.metadata.name === 'web-0' && p.metadata.uid !== orphanUid && isReady(p) && p.metadata.labels?.['controller-revision-hash'] === sts(c).status?.updateRevision));
		expect(pods(c).find((p) => p.metadata.name === 'web-blue')?.metadata.ownerReferences).toBeUndefined();
		expect(eventsFor(c, 'default', 'web')).toEqual([
			'SuccessfulUpdate: update Pod web-0 in StatefulSet web successful',
			'SuccessfulDelete: delete Pod web-0 in StatefulSet web successful',
			'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
		]);
	});
});

describe('the StatefulSet controller: Parallel', () => {
	it('creates every Pod at once and deletes every surplus Pod at once', () => {
		const c = created(createControllerHarness(), 3, { podManagementPolicy: 'Parallel' });
		let maxNotReady = 0;
		stepUntil(
			c,
			'three ready pods',
			() => readyNames(c).length === 3,
			(now) => (maxNotReady = Math.max(maxNotReady, now.filter((p) => !isReady(p)).length)),
		);
		// All three existed before any was ready.
		expect(maxNotReady).toBe(3);
		expect(c.kubectl.patch(R.statefulsets, 'default', 'web', { spec: { replicas: 0 } }).ok).toBe(true);
		let maxTerminating = 0;
		stepUntil(
			c,
			'no pods',
			() => names(c).length === 0,
			(now) => (maxTerminating = Math.max(maxTerminating, now.filter((p) => p.metadata.deletionTimestamp).length)),
		);
		expect(maxTerminating).toBe(3);
	});
});

describe('the StatefulSet controller: updates', () => {
	it('RollingUpdate replaces Pods from the highest ordinal down, one unavailable at a time, then makes the new revision current', () => {
		const c = created(createControllerHarness(), 3);
		waitFor(c, 'three ready pods', () => readyNames(c).length === 3);
		const oldRev = sts(c).status?.currentRevision;
		patchImage(c, 'nginx:1.28');
		const replaced: string[] = [];
		const oldUids = new Map(pods(c).map((p) => [p.metadata.name, p.metadata.uid]));
		let worst = 0;
		stepUntil(
			c,
			'all updated and ready',
			() => pods(c).length === 3 && pods(c).every((p) => image(p) === 'nginx:1.28' && isReady(p)),
			(now) => {
				worst = Math.max(worst, 3 - now.filter((p) => isReady(p) && !p.metadata.deletionTimestamp).length);
				for (const p of now) if (p.metadata.uid !== oldUids.get(p.metadata.name) && !replaced.includes(p.metadata.name ?? '')) replaced.push(p.metadata.name ?? '');
			},
		);
		expect(replaced).toEqual(['web-2', 'web-1', 'web-0']);
		expect(worst).toBe(1);
		c.advance(500);
		const status = sts(c).status!;
		expect(revisions(c).map((r) => r.revision)).toEqual([1, 2]);
		expect(status.updateRevision).toBe(revisions(c)[1].metadata.name);
		expect(status.currentRevision).toBe(status.updateRevision);
		expect(status.currentRevision).not.toBe(oldRev);
		expect(status).toMatchObject({ replicas: 3, currentReplicas: 3, updatedReplicas: 3, readyReplicas: 3, observedGeneration: 2 });
		expect(pods(c).every((p) => p.metadata.labels?.['controller-revision-hash'] === status.updateRevision)).toBe(true);
	});

	it('a partition updates only ordinals at or above it, and Pods below it come back at the old revision when deleted', () => {
		const c = created(createControllerHarness(), 3, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } } });
		waitFor(c, 'three ready pods', () => readyNames(c).length === 3);
		patchImage(c, 'nginx:1.28');
		waitFor(c, 'web-2 updated', () => pods(c).some((p) => p.metadata.name === 'web-2' && image(p) === 'nginx:1.28' && isReady(p)));
		c.advance(5000);
		expect(pods(c).map((p) => `${p.metadata.name} ${image(p)}`).sort()).toEqual(['web-0 nginx:1.27', 'web-1 nginx:1.27', 'web-2 nginx:1.28']);
		const [oldRev, newRev] = revisions(c).map((r) => r.metadata.name);
		expect(sts(c).status).toMatchObject({ currentRevision: oldRev, updateRevision: newRev, currentReplicas: 2, updatedReplicas: 1 });
		expect(c.kubectl.delete(R.pods, 'default', 'web-1').ok).toBe(true);
		const before = pods(c).find((p) => p.metadata.name === 'web-1')!.metadata.uid;
		waitFor(c, 'web-1 back', () => pods(c).some((p) => p.metadata.name === 'web-1' && p.metadata.uid !== before && isReady(p)));
		expect(image(pods(c).find((p) => p.metadata.name === 'web-1')!)).toBe('nginx:1.27');
		expect(c.kubectl.patch(R.statefulsets, 'default', 'web', { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } }).ok).toBe(true);
		waitFor(c, 'all updated', () => pods(c).length === 3 && pods(c).every((p) => image(p) === 'nginx:1.28' && isReady(p)));
		c.advance(500);
		expect(sts(c).status).toMatchObject({ currentRevision: newRev, updateRevision: newRev, currentReplicas: 3, updatedReplicas: 3 });
	});

	it('maxUnavailable 2 replaces two Pods at a time', () => {
		const c = created(createControllerHarness(), 4, { podManagementPolicy: 'Parallel', updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } } });
		waitFor(c, 'four ready pods', () => readyNames(c).length === 4);
		patchImage(c, 'nginx:1.28');
		let worst = 0;
		stepUntil(
			c,
			'all updated',
			() => pods(c).length === 4 && pods(c).every((p) => image(p) === 'nginx:1.28' && isReady(p)),
			(now) => (worst = Math.max(worst, 4 - now.filter((p) => isReady(p) && !p.metadata.deletionTimestamp).length)),
		);
		expect(worst).toBe(2);
	});

	it('OnDelete leaves running Pods alone; a deleted Pod comes back at the new revision', () => {
		const c = created(createControllerHarness(), 2, { updateStrategy: { type: 'OnDelete' } });
		waitFor(c, 'two ready pods', () => readyNames(c).length === 2);
		patchImage(c, 'nginx:1.28');
		c.advance(10_000);
		expect(pods(c).map(image)).toEqual(['nginx:1.27', 'nginx:1.27']);
		// updatedReplicas is omitempty: 0 is left out.
		expect(sts(c).status).toMatchObject({ currentReplicas: 2 });
		expect(sts(c).status?.updatedReplicas).toBeUndefined();
		expect(c.kubectl.delete(R.pods, 'default', 'web-0').ok).toBe(true);
		waitFor(c, 'web-0 at 1.28', () => pods(c).some((p) => p.metadata.name === 'web-0' && image(p) === 'nginx:1.28' && isReady(p)));
		c.advance(500);
		expect(pods(c).map((p) => `${p.metadata.name} ${image(p)}`).sort()).toEqual(['web-0 nginx:1.28', 'web-1 nginx:1.27']);
		expect(sts(c).status).toMatchObject({ updatedReplicas: 1, currentReplicas: 1 });
	});

	it('a template back to an older one renumbers that revision instead of recording a new one, and history is cut to revisionHistoryLimit', () => {
		const c = created(createControllerHarness(), 1, { revisionHistoryLimit: 1 });
		waitFor(c, 'one ready pod', () => readyNames(c).length === 1);
		const first = revisions(c)[0].metadata.name;
		const settleOn = (to: string) => {
			patchImage(c, to);
			waitFor(c, `web-0 at ${to}`, () => pods(c).some((p) => image(p) === to && isReady(p)));
			c.advance(1000);
		};
		settleOn('nginx:1.28');
		settleOn('nginx:1.27');
		// The revision of 1.27 is reused with the next number: 1.28 is revision 2, 1.27 now 3.
		expect(revisions(c).map((r) => [r.metadata.name === first, r.revision])).toEqual([
			[false, 2],
			[true, 3],
		]);
		settleOn('nginx:1.29');
		// Live: the current and update revisions; one more (the newest of the others) is kept.
		expect(revisions(c).map((r) => image({ spec: (r.data as { spec: { template: Pod } }).spec.template.spec } as Pod))).toEqual(['nginx:1.27', 'nginx:1.29']);
		expect(revisions(c).map((r) => r.revision)).toEqual([3, 4]);
	});
});

describe('the StatefulSet controller: determinism', () => {
	it('gives the same trace for the same seed and inputs', () => {
		const run = () => {
			const c = created(createControllerHarness({ seed: 11 }), 3);
			waitFor(c, 'ready', () => readyNames(c).length === 3);
			patchImage(c, 'nginx:1.28');
			c.advance(20_000);
			return c.kernel.trace.fingerprint();
		};
		expect(run()).toBe(run());
	});
});
