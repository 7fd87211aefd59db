import { describe, expect, it } from 'vitest';
import type { KubeObject, Node, Pod, PodSpec } from '../../api/types.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { Code, isSkip } from '../framework/status.ts';
import type { PodAffinityTermSpec, WeightedPodAffinityTermSpec } from '../framework/types.ts';
import { fakeHandle, listersOf, makeNode, makePod, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ERR_REASON_AFFINITY_RULES_NOT_MATCH, ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH, ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH, InterPodAffinity, type InterPodAffinityArgs } from './inter-pod-affinity.ts';

const ZONE = 'topology.kubernetes.io/zone';
const HOST = 'kubernetes.io/hostname';
const term = (labels: Record<string, string>, topologyKey: string, extra: Partial<PodAffinityTermSpec> = {}): PodAffinityTermSpec => ({ labelSelector: { matchLabels: labels }, topologyKey, ...extra });
const weighted = (weight: number, t: PodAffinityTermSpec): WeightedPodAffinityTermSpec => ({ weight, podAffinityTerm: t });
const affinity = (a: { required?: PodAffinityTermSpec[]; preferred?: WeightedPodAffinityTermSpec[] } = {}, anti: { required?: PodAffinityTermSpec[]; preferred?: WeightedPodAffinityTermSpec[] } = {}): PodSpec['affinity'] => ({
	podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: a.required, preferredDuringSchedulingIgnoredDuringExecution: a.preferred },
	podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti.required, preferredDuringSchedulingIgnoredDuringExecution: anti.preferred },
});
let n = 0;
const pod = (labels: Record<string, string>, spec: Partial<PodSpec> = {}, namespace = 'default') => makePod(`p${++n}`, { labels, containers: [], namespace, ...spec });
const nodes = () => [makeNode('node-a', { labels: { [ZONE]: 'zone1' } }), makeNode('node-b', { labels: { [ZONE]: 'zone1' } }), makeNode('node-x', { labels: { [ZONE]: 'zone2' } })];

/** Verdicts in node order a, b, x (the cache itself walks zones round robin: a, x, b). */
function filter(incoming: Pod, existing: Pod[], namespaces: KubeObject[] = [], ns: Node[] = nodes()): Array<string | 'fits'> | 'skip' {
	const cache = snapshotOf(ns, existing);
	const plugin = new InterPodAffinity(undefined, fakeHandle(cache, listersOf({ namespaces })));
	const state = new CycleState();
	const pre = plugin.preFilter(state, incoming, cache.list());
	if (pre.status?.code === Code.Skip) return 'skip';
	return ns.map((node) => {
		const s = plugin.filter(state, incoming, cache.get(node.metadata.name!)!);
		return s ? `${Code[s.code]}: ${s.allReasons()[0]}` : 'fits';
	});
}

function score(incoming: Pod, existing: Pod[], args?: InterPodAffinityArgs): number[] | 'skip' {
	const cache = snapshotOf(nodes(), existing);
	const plugin = new InterPodAffinity(args, fakeHandle(cache));
	const state = new CycleState();
	if (isSkip(plugin.preScore(state, incoming, cache.list()))) return 'skip';
	const list = cache.list().map((node) => ({ name: node.name, score: plugin.score(state, incoming, node).score }));
	plugin.normalizeScore(state, incoming, list);
	// In node order a, b, x.
	return ['node-a', 'node-b', 'node-x'].map((name) => list.find((l) => l.name === name)!.score);
}

describe('InterPodAffinity filter', () => {
	const affinityReject = `UnschedulableAndUnresolvable: ${ERR_REASON_AFFINITY_RULES_NOT_MATCH}`;
	const antiReject = `Unschedulable: ${ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH}`;
	const existingAntiReject = `Unschedulable: ${ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH}`;

	it('has nothing to check for a pod without terms when no running pod has required anti-affinity: Skip', () => {
		expect(filter(pod({ app: 'web' }), [pod({ app: 'db' }, { nodeName: 'node-a' })])).toBe('skip');
	});

	it('required affinity: only nodes in the zone of a matching pod fit', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({ required: [term({ app: 'db' }, ZONE)] }) });
		expect(filter(incoming, [pod({ app: 'db' }, { nodeName: 'node-a' })])).toEqual(['fits', 'fits', affinityReject]);
	});

	it('required affinity: the first pod of a group that matches its own terms may go anywhere the topology exists', () => {
		const incoming = pod({ app: 'db' }, { affinity: affinity({ required: [term({ app: 'db' }, ZONE)] }) });
		expect(filter(incoming, [])).toEqual(['fits', 'fits', 'fits']);
	});

	it('required affinity: without a matching pod and not matching itself, nothing fits', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({ required: [term({ app: 'db' }, ZONE)] }) });
		expect(filter(incoming, [])).toEqual([affinityReject, affinityReject, affinityReject]);
	});

	it('required anti-affinity by hostname keeps replicas apart', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({}, { required: [term({ app: 'web' }, HOST)] }) });
		expect(filter(incoming, [pod({ app: 'web' }, { nodeName: 'node-a' })])).toEqual([antiReject, 'fits', 'fits']);
	});

	it('required anti-affinity by zone excludes the whole zone', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({}, { required: [term({ app: 'web' }, ZONE)] }) });
		expect(filter(incoming, [pod({ app: 'web' }, { nodeName: 'node-b' })])).toEqual([antiReject, antiReject, 'fits']);
	});

	it("a running pod's required anti-affinity keeps matching pods out of its domain", () => {
		const loner = pod({ app: 'loner' }, { nodeName: 'node-a', affinity: affinity({}, { required: [term({ app: 'web' }, HOST)] }) });
		expect(filter(pod({ app: 'web' }), [loner])).toEqual([existingAntiReject, 'fits', 'fits']);
	});

	it('a term only looks in the pod\'s own namespace unless it names others', () => {
		const db = pod({ app: 'db' }, { nodeName: 'node-x' }, 'data');
		const sameNs = pod({ app: 'web' }, { affinity: affinity({ required: [term({ app: 'db' }, ZONE)] }) });
		const otherNs = pod({ app: 'web' }, { affinity: affinity({ required: [term({ app: 'db' }, ZONE, { namespaces: ['data'] })] }) });
		expect(filter(sameNs, [db])).toEqual([affinityReject, affinityReject, affinityReject]);
		expect(filter(otherNs, [db])).toEqual([affinityReject, affinityReject, 'fits']);
	});

	it('a namespaceSelector is resolved against the namespaces the scheduler knows', () => {
		const db = pod({ app: 'db' }, { nodeName: 'node-x' }, 'data');
		const incoming = pod({ app: 'web' }, { affinity: affinity({ required: [term({ app: 'db' }, ZONE, { namespaceSelector: { matchLabels: { team: 'storage' } } })] }) });
		const namespaces: KubeObject[] = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'data', labels: { team: 'storage' } } }];
		expect(filter(incoming, [db], namespaces)).toEqual([affinityReject, affinityReject, 'fits']);
	});
});

describe('InterPodAffinity score', () => {
	it('preferred affinity: the zone with a matching pod gets the weight, normalized to 100', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({ preferred: [weighted(5, term({ app: 'db' }, ZONE))] }) });
		expect(score(incoming, [pod({ app: 'db' }, { nodeName: 'node-a' })])).toEqual([100, 100, 0]);
	});

	it('preferred anti-affinity: the zone with a matching pod loses the weight', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({}, { preferred: [weighted(5, term({ app: 'web' }, ZONE))] }) });
		expect(score(incoming, [pod({ app: 'web' }, { nodeName: 'node-x' })])).toEqual([100, 100, 0]);
	});

	it("a running pod's preferred affinity to the incoming pod pulls it into the running pod's domain", () => {
		const cache = pod({ app: 'cache' }, { nodeName: 'node-x', affinity: affinity({ preferred: [weighted(10, term({ app: 'web' }, HOST))] }) });
		expect(score(pod({ app: 'web' }), [cache])).toEqual([0, 0, 100]);
	});

	it("a running pod's required affinity counts with hardPodAffinityWeight (1 by default, 0 turns it off)", () => {
		const follower = pod({ app: 'follower' }, { nodeName: 'node-b', affinity: affinity({ required: [term({ app: 'web' }, HOST)] }) });
		expect(score(pod({ app: 'web' }), [follower])).toEqual([0, 100, 0]);
		expect(score(pod({ app: 'web' }), [follower], { hardPodAffinityWeight: 0 })).toBe('skip');
	});

	it('weights add up per domain and are scaled between the lowest and the highest', () => {
		const incoming = pod({ app: 'web' }, { affinity: affinity({ preferred: [weighted(8, term({ app: 'db' }, ZONE)), weighted(2, term({ app: 'db' }, HOST))] }) });
		// node-a: zone1 8 + its own host 2 = 10; node-b: zone1 8; node-x: 0.
		expect(score(incoming, [pod({ app: 'db' }, { nodeName: 'node-a' })])).toEqual([100, 80, 0]);
	});

	it('has nothing to score without any affinity anywhere: Skip', () => {
		expect(score(pod({ app: 'web' }), [pod({ app: 'db' }, { nodeName: 'node-a' })])).toBe('skip');
	});

	it('rejects hardPodAffinityWeight outside 0..100', () => {
		expect(() => new InterPodAffinity({ hardPodAffinityWeight: 101 }, fakeHandle(snapshotOf([])))).toThrow('hardPodAffinityWeight: Invalid value: 101: not in valid range [0, 100]');
	});
});
