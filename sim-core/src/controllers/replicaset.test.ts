import { describe, it, expect } from 'vitest';
import type { Pod, ReplicaSet } from '../api/types.ts';
import { R } from '../client/client.ts';
import { podFromTemplate, slowStartBatch } from './replicaset.ts';
import { createControllerHarness, type ControllerHarness } from '../testing/controllers/harness.ts';
import { eventsFor, get, isReady, replicaSet, waitFor } from '../testing/controllers/builders.ts';

const podsOf = (c: ControllerHarness, app: string) => c.list<Pod>(R.pods, 'default').filter((p) => p.metadata.labels?.app === app);
const live = (c: ControllerHarness, app: string) => podsOf(c, app).filter((p) => !p.metadata.deletionTimestamp);
const rsNamed = (c: ControllerHarness, name: string) => get<ReplicaSet>(c, R.replicasets, 'default', name)!;

describe('slowStartBatch', () => {
	it('runs batches of 1, 2, 4, ... up to the count', () => {
		const sizes: number[] = [];
		const result = slowStartBatch(10, 1, () => undefined, (n) => sizes.push(n));
		expect(sizes).toEqual([1, 2, 4, 3]);
		expect(result).toEqual({ successes: 10 });
	});

	it('stops after the first batch with a failure, reporting the successes so far', () => {
		let calls = 0;
		const result = slowStartBatch(10, 1, () => (++calls === 3 ? 'quota exceeded' : undefined));
		// Batches 1 and 2: the third call fails inside the second batch, which still finishes.
		expect(calls).toBe(3);
		expect(result).toEqual({ successes: 2, error: 'quota exceeded' });
	});
});

describe('podFromTemplate', () => {
	it('names the pod after its owner and points back at it with a blocking controller reference', () => {
		const owner = { ...replicaSet('web-abc', 1), metadata: { name: 'web-abc', namespace: 'default', uid: 'rs-uid' } };
		const pod = podFromTemplate(owner.spec.template!, owner, 'default');
		expect(pod.metadata).toEqual({
			generateName: 'web-abc-',
			namespace: 'default',
			labels: { app: 'web-abc' },
			ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc', uid: 'rs-uid', controller: true, blockOwnerDeletion: true }],
		});
	});
});

describe('the ReplicaSet controller', () => {
	it('replaces a deleted pod', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.replicasets, 'default', replicaSet('web', 3));
		waitFor(c, '3 ready pods', () => live(c, 'web').filter(isReady).length === 3);
		const victim = live(c, 'web')[0].metadata.name ?? '';
		expect(c.kubectl.delete(R.pods, 'default', victim).ok).toBe(true);
		waitFor(c, 'a replacement', () => live(c, 'web').filter(isReady).length === 3 && !podsOf(c, 'web').some((p) => p.metadata.name === victim));
		c.advance(100);
		const created = eventsFor(c, 'default', 'web').filter((e) => e.startsWith('SuccessfulCreate: Created pod: '));
		expect(created).toHaveLength(4);
		expect(rsNamed(c, 'web').status).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, terminatingReplicas: 0, observedGeneration: 1 });
	});

	it('never creates twice while its cache lags (expectations)', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.replicasets, 'default', replicaSet('web', 5));
		// Step until the first sync has created pods, then force another sync before the informer shows them.
		for (let i = 0; i < 10_000 && !c.kernel.trace.events().some((e) => e.sub === 'replicaset' && e.action === 'slow-start'); i++) c.kernel.step();
		c.kcm.enqueue('replicaset', 'default/web');
		c.advance(5000);
		expect(podsOf(c, 'web')).toHaveLength(5);
	});

	it('adopts a matching orphan instead of creating a pod, and releases a pod that stops matching', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'stray', labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } });
		c.kubectl.create(R.replicasets, 'default', replicaSet('web', 2));
		waitFor(c, '2 ready pods', () => live(c, 'web').filter(isReady).length === 2);
		const uid = rsNamed(c, 'web').metadata.uid;
		const stray = get<Pod>(c, R.pods, 'default', 'stray')!;
		expect(stray.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid, controller: true, blockOwnerDeletion: true }]);
		expect(eventsFor(c, 'default', 'web').filter((e) => e.startsWith('SuccessfulCreate'))).toHaveLength(1);

		expect(c.kubectl.patch(R.pods, 'default', 'stray', { metadata: { labels: { app: 'debug' } } }).ok).toBe(true);
		waitFor(c, 'the release and a replacement', () => live(c, 'web').filter(isReady).length === 2 && !get<Pod>(c, R.pods, 'default', 'stray')?.metadata.ownerReferences?.length);
		expect(get<Pod>(c, R.pods, 'default', 'stray')?.metadata.deletionTimestamp).toBeUndefined();
	});

	it('deletes the pod that is not ready first when scaling down, and counts it as terminating until it is gone', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2', 'node-3'] });
		c.nodes.setAlive('node-3', false);
		c.kubectl.create(R.replicasets, 'default', replicaSet('web', 3));
		waitFor(c, '2 ready pods and one pending', () => live(c, 'web').filter(isReady).length === 2 && live(c, 'web').length === 3);
		const stuck = live(c, 'web').find((p) => !isReady(p))!;
		expect(c.kubectl.patch(R.replicasets, 'default', 'web', { spec: { replicas: 2 } }).ok).toBe(true);
		waitFor(c, 'the scale-down', () => live(c, 'web').length === 2);
		expect(eventsFor(c, 'default', 'web')).toContain(`SuccessfulDelete: Deleted pod: ${stuck.metadata.name}`);
		expect(live(c, 'web').every(isReady)).toBe(true);
	});

	it('reports pods held by a dead kubelet as terminating replicas', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.kubectl.create(R.replicasets, 'default', replicaSet('web', 2));
		waitFor(c, '2 ready pods', () => live(c, 'web').filter(isReady).length === 2);
		const onNode2 = live(c, 'web').find((p) => p.spec.nodeName === 'node-2')!;
		c.nodes.setAlive('node-2', false);
		expect(c.kubectl.delete(R.pods, 'default', onNode2.metadata.name ?? '').ok).toBe(true);
		waitFor(c, 'a replacement', () => live(c, 'web').filter(isReady).length === 2);
		c.advance(100);
		expect(rsNamed(c, 'web').status).toMatchObject({ replicas: 2, readyReplicas: 2, terminatingReplicas: 1 });
	});

	it('honours minReadySeconds in availableReplicas', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.replicasets, 'default', replicaSet('web', 1, { minReadySeconds: 5 }));
		waitFor(c, 'a ready pod', () => (rsNamed(c, 'web').status?.readyReplicas ?? 0) === 1);
		expect(rsNamed(c, 'web').status?.availableReplicas ?? 0).toBe(0);
		c.advance(7000);
		expect(rsNamed(c, 'web').status?.availableReplicas).toBe(1);
	});
});
