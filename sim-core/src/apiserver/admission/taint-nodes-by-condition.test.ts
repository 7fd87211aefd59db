import { describe, it, expect } from 'vitest';
import type { KubeObject, Taint } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionOperation } from './plugin.ts';
import { taintNodesByCondition } from './taint-nodes-by-condition.ts';

function admit(operation: AdmissionOperation, taints?: Taint[]): Taint[] | undefined {
	const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: taints ? { taints } : {} };
	taintNodesByCondition.admit!({ operation, info: resourceByName('', 'nodes')!, name: 'node-1', object: node, user: { username: 'system:node:node-1', groups: ['system:nodes'] }, dryRun: false }, {} as StrategyContext);
	return (node.spec as { taints?: Taint[] }).taints;
}

describe('TaintNodesByCondition', () => {
	it('taints a new node not-ready:NoSchedule', () => {
		expect(admit('CREATE')).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
	});
	it('keeps a node that already has the taint as it is', () => {
		expect(admit('CREATE', [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }])).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
	});
	it('appends after existing taints', () => {
		expect(admit('CREATE', [{ key: 'gpu', effect: 'NoSchedule' }])).toEqual([{ key: 'gpu', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
	});
	it('leaves updates alone', () => {
		expect(admit('UPDATE')).toBeUndefined();
	});
});
