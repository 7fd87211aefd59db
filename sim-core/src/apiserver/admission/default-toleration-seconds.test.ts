import { describe, it, expect } from 'vitest';
import type { KubeObject, Toleration } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import { defaultTolerationSeconds } from './default-toleration-seconds.ts';

const ctx = {} as StrategyContext;
const notReady: Toleration = { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };
const unreachable: Toleration = { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 };

function admit(tolerations?: Toleration[]): Toleration[] | undefined {
	const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [], ...(tolerations ? { tolerations } : {}) } };
	defaultTolerationSeconds.admit!({ operation: 'CREATE', info: resourceByName('', 'pods')!, namespace: 'default', name: 'web', object: pod, user: { username: 'u', groups: [] }, dryRun: false }, ctx);
	return (pod.spec as { tolerations?: Toleration[] }).tolerations;
}

describe('DefaultTolerationSeconds', () => {
	it.each([
		['a pod with no tolerations gets both, 300s each', undefined, [notReady, unreachable]],
		['a pod tolerating not-ready gets only unreachable', [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }], [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, unreachable]],
		['a pod tolerating everything gets nothing', [{ operator: 'Exists' }], [{ operator: 'Exists' }]],
		['a NoSchedule-only toleration does not count', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }], [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoSchedule' }, notReady, unreachable]],
		['a toleration with no effect counts', [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }], [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists' }, notReady]],
	] as Array<[string, Toleration[] | undefined, Toleration[]]>)('%s', (_name, given, expected) => {
		expect(admit(given)).toEqual(expected);
	});
});
