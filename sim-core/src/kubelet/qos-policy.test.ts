import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types.ts';
import { containerOomScoreAdj } from './qos-policy.ts';

const GI = 1024 ** 3;
const pod = (resources: Record<string, Record<string, string>> | undefined, priorityClassName?: string): Pod =>
	({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { ...(priorityClassName ? { priorityClassName, priority: 2_000_000_000 } : {}), containers: [{ name: 'c', image: 'nginx', ...(resources ? { resources } : {}) }] } }) as Pod;

describe('containerOomScoreAdj', () => {
	it.each([
		['BestEffort', pod(undefined), 1000],
		['Guaranteed', pod({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), -997],
		['Burstable asking a quarter of the machine', pod({ requests: { memory: '1Gi' } }), 750],
		['Burstable asking for nothing of memory', pod({ requests: { cpu: '100m' } }), 999],
		['Burstable asking for all of it', pod({ requests: { memory: '4Gi' } }), 3],
		["a system-node-critical Pod (kubeadm's static Pods, kube-proxy)", pod({ requests: { cpu: '250m' } }, 'system-node-critical'), -997],
		['a system-cluster-critical Pod by its QoS class', pod({ requests: { memory: '1Gi' } }, 'system-cluster-critical'), 750],
	])('gives %s %d', (_what, p, adj) => {
		expect(containerOomScoreAdj(p, p.spec.containers[0], 4 * GI)).toBe(adj);
	});
});
