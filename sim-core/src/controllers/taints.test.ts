import { describe, it, expect } from 'vitest';
import type { Node, PodSpec, Taint, Toleration } from '../api/types.ts';
import { addOrUpdateToleration } from './taints.ts';
import { RequiredNodeAffinity } from '../component-helpers/node-affinity.ts';

/** GetRequiredNodeAffinity(pod).Match(node), as the DaemonSet controller asks it. */
const requiredNodeAffinityMatches = (spec: PodSpec, node: Node) => new RequiredNodeAffinity(spec).match(node);
import { matchingTolerations, toleratesTaint } from '../component-helpers/taints.ts';

const taint: Taint = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };

describe('toleratesTaint', () => {
	it.each([
		['Exists on the key and effect', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, true],
		['Exists with no key (everything)', { operator: 'Exists' }, true],
		['Exists with another effect', { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, false],
		['Equal (the default) with the empty value', { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }, true],
		['Equal with another value', { key: 'node.kubernetes.io/unreachable', operator: 'Equal', value: 'x' }, false],
		['another key', { key: 'node.kubernetes.io/not-ready', operator: 'Exists' }, false],
	] as const)('%s: %s', (_name, toleration, expected) => {
		expect(toleratesTaint(toleration as Toleration, taint)).toBe(expected);
	});
});

describe('matchingTolerations', () => {
	it('returns the toleration used for each taint, or nothing when one is not tolerated', () => {
		const tolerations: Toleration[] = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }];
		expect(matchingTolerations([taint], tolerations)).toEqual({ allTolerated: true, used: tolerations });
		expect(matchingTolerations([taint, { key: 'x', effect: 'NoExecute' }], tolerations)).toEqual({ allTolerated: false, used: [] });
		expect(matchingTolerations([], [])).toEqual({ allTolerated: true, used: [] });
	});
});

describe('addOrUpdateToleration', () => {
	it('replaces a toleration with the same key, operator, value and effect, and appends otherwise', () => {
		const spec: PodSpec = { containers: [], tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }] };
		expect(addOrUpdateToleration(spec, { key: 'k', operator: 'Exists', effect: 'NoExecute' })).toBe(true);
		expect(spec.tolerations).toEqual([{ key: 'k', operator: 'Exists', effect: 'NoExecute' }]);
		expect(addOrUpdateToleration(spec, { key: 'k', operator: 'Exists', effect: 'NoExecute' })).toBe(false);
		addOrUpdateToleration(spec, { key: 'j', operator: 'Exists', effect: 'NoSchedule' });
		expect(spec.tolerations?.length).toBe(2);
	});
});

describe('requiredNodeAffinityMatches', () => {
	const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { disk: 'ssd', gen: '5' } }, spec: {} };
	it.each([
		['no constraint', {}, true],
		['a matching nodeSelector', { nodeSelector: { disk: 'ssd' } }, true],
		['a nodeSelector that does not match', { nodeSelector: { disk: 'hdd' } }, false],
		['matchFields metadata.name In [node-1]', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-1'] }] }] } } } }, true],
		['matchFields for another node', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-2'] }] }] } } } }, false],
		['one of two terms matching (terms are ORed)', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'disk', operator: 'In', values: ['hdd'] }] }, { matchExpressions: [{ key: 'gen', operator: 'Gt', values: ['4'] }] }] } } } }, true],
		['an empty term (matches nothing)', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{}] } } } }, false],
	] as const)('%s', (_name, spec, expected) => {
		expect(requiredNodeAffinityMatches({ containers: [], ...(spec as Partial<PodSpec>) }, node)).toBe(expected);
	});
});
