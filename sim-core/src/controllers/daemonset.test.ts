import { describe, it, expect } from 'vitest';
import type { DaemonSet, Node, Pod, PodSpec } from '../api/types.ts';
import { R } from '../client/client.ts';
import { addDaemonPodTolerations, nodeShouldRunDaemonPod, pinToNode } from './daemonset.ts';
import { createControllerHarness, type ControllerHarness } from '../testing/controllers/harness.ts';
import { daemonSet, eventsFor, get, isReady, waitFor } from '../testing/controllers/builders.ts';

describe('daemon pod tolerations (AddOrUpdateDaemonPodTolerations)', () => {
	it('tolerates not-ready and unreachable forever, and the pressure and unschedulable taints', () => {
		const spec: PodSpec = { containers: [] };
		addDaemonPodTolerations(spec);
		expect(spec.tolerations).toEqual([
			{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
			{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
			{ key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
			{ key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
			{ key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
			{ key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
		]);
	});

	it('adds network-unavailable for host-network pods, and replaces a shorter unreachable toleration', () => {
		const spec: PodSpec = { containers: [], hostNetwork: true, tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
		addDaemonPodTolerations(spec);
		expect(spec.tolerations?.[0]).toEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' });
		expect(spec.tolerations?.at(-1)).toEqual({ key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' });
	});
});

describe('pinToNode (ReplaceDaemonSetPodNodeNameNodeAffinity)', () => {
	it('makes the required node affinity exactly metadata.name In [node], keeping preferences', () => {
		const spec: PodSpec = { containers: [], affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['ssd'] }] }] }, preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: { matchExpressions: [{ key: 'a', operator: 'Exists' }] } }] } } };
		pinToNode(spec, 'node-2');
		expect(spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] }] });
		expect(spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toHaveLength(1);
	});
});

describe('nodeShouldRunDaemonPod', () => {
	const ds = daemonSet('agent', 'agent:1');
	const node = (spec: Node['spec'], labels: Record<string, string> = {}): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels }, spec });
	it.each([
		['a plain node', {}, { shouldRun: true, shouldContinueRunning: true }],
		['a cordoned node (tolerated)', { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const }] }, { shouldRun: true, shouldContinueRunning: true }],
		['an unreachable node (tolerated)', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' as const }] }, { shouldRun: true, shouldContinueRunning: true }],
		['a control-plane NoSchedule taint', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' as const }] }, { shouldRun: false, shouldContinueRunning: true }],
		['a foreign NoExecute taint', { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' as const }] }, { shouldRun: false, shouldContinueRunning: false }],
	])('%s', (_name, spec, expected) => {
		expect(nodeShouldRunDaemonPod(node(spec), ds)).toEqual(expected);
	});

	it('follows the template nodeSelector', () => {
		const picky = daemonSet('agent', 'agent:1');
		picky.spec.template.spec.nodeSelector = { disk: 'ssd' };
		expect(nodeShouldRunDaemonPod(node({}, { disk: 'ssd' }), picky).shouldRun).toBe(true);
		expect(nodeShouldRunDaemonPod(node({}, { disk: 'hdd' }), picky)).toEqual({ shouldRun: false, shouldContinueRunning: false });
	});
});

const podsOf = (c: ControllerHarness) => c.list<Pod>(R.pods, 'kube-system').filter((p) => p.metadata.labels?.app === 'proxy');
const ds = (c: ControllerHarness) => get<DaemonSet>(c, R.daemonsets, 'kube-system', 'proxy')!;

describe('the DaemonSet controller', () => {
	it('runs one pod per node, created unscheduled and pinned for the scheduler, and reports counts', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.daemonsets, 'kube-system', daemonSet('proxy', 'kube-proxy:v1.36.3', { template: { metadata: { labels: { app: 'proxy' } }, spec: { hostNetwork: true, containers: [{ name: 'main', image: 'kube-proxy:v1.36.3' }] } } }));
		waitFor(c, 'a ready pod on each node', () => podsOf(c).filter(isReady).length === 3);
		c.advance(100);
		const pods = podsOf(c);
		expect(pods.map((p) => p.spec.nodeName).sort()).toEqual(['node-1', 'node-2', 'node-3']);
		for (const pod of pods) {
			expect(pod.metadata.name).toMatch(/^proxy-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
			expect(pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [pod.spec.nodeName] }] }]);
			expect(pod.spec.tolerations?.map((t) => `${t.key}:${t.effect}`)).toContain('node.kubernetes.io/network-unavailable:NoSchedule');
			expect(pod.metadata.labels?.['controller-revision-hash']).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
		}
		// The pods were created without a node: the scheduler bound them.
		expect(c.kernel.trace.events().filter((e) => e.action === 'bind' && e.object?.startsWith('pods/kube-system/proxy-'))).toHaveLength(3);
		expect(ds(c).status).toEqual({ currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, observedGeneration: 1, updatedNumberScheduled: 3, numberAvailable: 3 });
		expect(eventsFor(c, 'kube-system', 'proxy').sort()).toEqual(pods.map((p) => `SuccessfulCreate: Created pod: ${p.metadata.name}`).sort());
	});

	it('adds a pod for a new node and removes the pod of a node that gets a NoExecute taint it does not tolerate', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.kubectl.create(R.daemonsets, 'kube-system', daemonSet('proxy', 'kube-proxy:v1.36.3'));
		waitFor(c, 'two pods', () => podsOf(c).filter(isReady).length === 2);
		c.kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-3' }, spec: {}, status: { conditions: [{ type: 'Ready', status: 'True' }] } });
		c.nodes.setAlive('node-3', true);
		waitFor(c, 'a pod on node-3', () => podsOf(c).some((p) => p.spec.nodeName === 'node-3' && isReady(p)));
		expect(c.kubectl.patch(R.nodes, undefined, 'node-1', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] } }).ok).toBe(true);
		waitFor(c, 'the pod on node-1 to go', () => !podsOf(c).some((p) => p.spec.nodeName === 'node-1'));
		c.advance(100);
		expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberMisscheduled: 0 });
	});

	it('rolls a new template out node by node, never more than one node without an available pod', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2', 'node-3', 'node-4'] });
		c.kubectl.create(R.daemonsets, 'kube-system', daemonSet('proxy', 'kube-proxy:v1.36.2'));
		waitFor(c, 'four pods', () => podsOf(c).filter(isReady).length === 4);
		expect(c.kubectl.patch(R.daemonsets, 'kube-system', 'proxy', { spec: { template: { spec: { containers: [{ name: 'main', image: 'kube-proxy:v1.36.3' }] } } } }).ok).toBe(true);
		let worst = 0;
		const done = () => {
			const pods = c.stored<Pod>('pods', 'kube-system').filter((p) => p.metadata.labels?.app === 'proxy');
			return pods.length === 4 && pods.every((p) => p.spec.containers[0].image === 'kube-proxy:v1.36.3' && isReady(p));
		};
		for (let i = 0; i < 200_000 && !done(); i++) {
			if (!c.kernel.step()) c.advance(100);
			const pods = c.stored<Pod>('pods', 'kube-system').filter((p) => p.metadata.labels?.app === 'proxy' && !p.metadata.deletionTimestamp && isReady(p));
			const covered = new Set(pods.map((p) => p.spec.nodeName));
			worst = Math.max(worst, 4 - covered.size);
		}
		expect(done()).toBe(true);
		expect(worst).toBe(1);
	});
});

describe('DaemonSet update strategies', () => {
	const live = (c: ControllerHarness) => c.stored<Pod>('pods', 'kube-system').filter((p) => p.metadata.labels?.app === 'proxy' && !p.metadata.deletionTimestamp);
	const image = (p: Pod) => p.spec.containers[0].image;
	const setImage = (c: ControllerHarness, img: string) => expect(c.kubectl.patch(R.daemonsets, 'kube-system', 'proxy', { spec: { template: { spec: { containers: [{ name: 'main', image: img }] } } } }).ok).toBe(true);

	it('maxSurge 1: a node gets its new pod before the old one goes, one node at a time, and never goes without a ready pod', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2', 'node-3'] });
		c.kubectl.create(R.daemonsets, 'kube-system', daemonSet('proxy', 'kube-proxy:v1.36.2', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } } }));
		waitFor(c, 'three pods', () => podsOf(c).filter(isReady).length === 3);
		setImage(c, 'kube-proxy:v1.36.3');
		let maxSurging = 0;
		let sawTwoOnANode = false;
		const done = () => live(c).length === 3 && live(c).every((p) => image(p) === 'kube-proxy:v1.36.3' && isReady(p));
		for (let i = 0; i < 200_000 && !done(); i++) {
			if (!c.kernel.step()) c.advance(100);
			const pods = live(c);
			const perNode = new Map<string, Pod[]>();
			for (const p of pods) perNode.set(p.spec.nodeName ?? targetOf(p), [...(perNode.get(p.spec.nodeName ?? targetOf(p)) ?? []), p]);
			const surging = [...perNode.values()].filter((ps) => ps.length > 1).length;
			if (surging) sawTwoOnANode = true;
			maxSurging = Math.max(maxSurging, surging);
			// maxUnavailable 0: every node keeps a ready pod throughout.
			for (const node of ['node-1', 'node-2', 'node-3']) expect((perNode.get(node) ?? []).some(isReady), `${node} at ${c.kernel.nowMs} ms`).toBe(true);
		}
		expect(done()).toBe(true);
		expect(sawTwoOnANode).toBe(true);
		expect(maxSurging).toBe(1);
		// The last old pod is still terminating (and, being the oldest, still counted for its node).
		waitFor(c, 'the old pods gone', () => podsOf(c).length === 3);
		c.advance(500);
		expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 3, currentNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3 });
	});

	it('OnDelete: a new template replaces nothing until a pod is deleted, whose replacement has the new template', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.kubectl.create(R.daemonsets, 'kube-system', daemonSet('proxy', 'kube-proxy:v1.36.2', { updateStrategy: { type: 'OnDelete' } }));
		waitFor(c, 'two pods', () => podsOf(c).filter(isReady).length === 2);
		setImage(c, 'kube-proxy:v1.36.3');
		c.advance(30_000);
		expect(live(c).map(image)).toEqual(['kube-proxy:v1.36.2', 'kube-proxy:v1.36.2']);
		expect(ds(c).status).toMatchObject({ observedGeneration: 2, desiredNumberScheduled: 2 });
		expect(ds(c).status?.updatedNumberScheduled ?? 0).toBe(0);
		const victim = live(c).find((p) => p.spec.nodeName === 'node-1')!;
		expect(c.kubectl.delete(R.pods, 'kube-system', victim.metadata.name ?? '').ok).toBe(true);
		waitFor(c, 'a new pod on node-1', () => live(c).some((p) => p.spec.nodeName === 'node-1' && isReady(p) && p.metadata.name !== victim.metadata.name));
		c.advance(500);
		expect(live(c).map((p) => `${p.spec.nodeName} ${image(p)}`).sort()).toEqual(['node-1 kube-proxy:v1.36.3', 'node-2 kube-proxy:v1.36.2']);
		expect(ds(c).status?.updatedNumberScheduled).toBe(1);
	});

	it('starts a pod on a node once the taint that kept it off is removed', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		expect(c.kubectl.patch(R.nodes, undefined, 'node-2', { spec: { taints: [{ key: 'dedicated', value: 'db', effect: 'NoSchedule' }] } }).ok).toBe(true);
		c.kubectl.create(R.daemonsets, 'kube-system', daemonSet('proxy', 'kube-proxy:v1.36.3'));
		waitFor(c, 'a pod on node-1', () => podsOf(c).filter(isReady).length === 1);
		c.advance(5000);
		expect(podsOf(c).map((p) => p.spec.nodeName)).toEqual(['node-1']);
		expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 1, currentNumberScheduled: 1 });
		expect(c.kubectl.patch(R.nodes, undefined, 'node-2', { spec: { taints: null } }).ok).toBe(true);
		waitFor(c, 'a pod on node-2', () => podsOf(c).some((p) => p.spec.nodeName === 'node-2' && isReady(p)));
		c.advance(500);
		expect(ds(c).status).toMatchObject({ desiredNumberScheduled: 2, currentNumberScheduled: 2, numberReady: 2 });
	});
});

function targetOf(pod: Pod): string {
	return pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0] ?? '';
}
