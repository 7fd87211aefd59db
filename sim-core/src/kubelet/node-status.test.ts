import { describe, expect, it } from 'vitest';
import type { NodeStatus } from '../api/types.ts';
import { aggregateErrors, nodeAllocatable, nodeCapacity, nodeStatusHasChanged, setNodeConditions } from './node-status.ts';

describe('capacity and allocatable', () => {
	it.each([
		['2', '4Gi', '100Gi', '4Gi', '3996Mi', '90Gi'],
		['4', '8Gi', '50Gi', '8Gi', '8092Mi', '45Gi'],
		// Quantities print canonically: 2048Mi is 2Gi.
		['1', '2048Mi', '20Gi', '2Gi', '1948Mi', '18Gi'],
	])('cpu %s, memory %s, disk %s → capacity memory %s, allocatable memory %s, ephemeral-storage %s', (cpu, memory, disk, canonical, mem, storage) => {
		const capacity = nodeCapacity({ cpu, memory, ephemeralStorage: disk });
		expect(capacity).toEqual({ cpu, 'ephemeral-storage': disk, 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: canonical, pods: '110' });
		// memory.available<100Mi and nodefs.available<10% are reserved; nothing else on a kubeadm node.
		expect(nodeAllocatable(capacity)).toEqual({ ...capacity, memory: mem, 'ephemeral-storage': storage });
	});
});

describe('node conditions (nodestatus/setters.go)', () => {
	const now = '2026-11-30T08:00:10Z';

	it('reports a healthy node with upstream reasons and messages, Ready last', () => {
		const status: NodeStatus = {};
		const events: string[] = [];
		setNodeConditions(status, now, { runtimeErrors: [], networkErrors: [] }, (_t, reason) => events.push(reason));
		expect(status.conditions).toEqual([
			{ type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', lastHeartbeatTime: now, lastTransitionTime: now },
			{ type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', lastHeartbeatTime: now, lastTransitionTime: now },
			{ type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', lastHeartbeatTime: now, lastTransitionTime: now },
			{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now },
		]);
		expect(events).toEqual(['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']);
	});

	it('goes NotReady with the runtime errors, and records NodeNotReady on the transition only', () => {
		const status: NodeStatus = {};
		setNodeConditions(status, '2026-11-30T08:00:00Z', { runtimeErrors: [], networkErrors: [] }, () => {});
		const events: string[] = [];
		setNodeConditions(status, now, { runtimeErrors: ['container runtime is down'], networkErrors: [] }, (_t, reason) => events.push(reason));
		expect(status.conditions?.find((c) => c.type === 'Ready')).toEqual({ type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down', lastHeartbeatTime: now, lastTransitionTime: now });
		expect(events).toEqual(['NodeNotReady']);
		setNodeConditions(status, '2026-11-30T08:00:20Z', { runtimeErrors: ['container runtime is down'], networkErrors: [] }, (_t, reason) => events.push(reason));
		expect(events).toEqual(['NodeNotReady']);
		expect(status.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime).toBe(now);
	});

	it('aggregates several errors as utilerrors does', () => {
		expect(aggregateErrors(['container runtime is down'])).toBe('container runtime is down');
		expect(aggregateErrors(['container runtime is down', 'PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s'])).toBe('[container runtime is down, PLEG is not healthy: pleg was last seen active 3m5s ago; threshold is 3m0s]');
		const status: NodeStatus = {};
		setNodeConditions(status, now, { runtimeErrors: [], networkErrors: ['container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized'] }, () => {});
		expect(status.conditions?.find((c) => c.type === 'Ready')?.message).toBe('container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized');
	});

	it('does not count a new heartbeat as a change', () => {
		const before: NodeStatus = {};
		setNodeConditions(before, '2026-11-30T08:00:00Z', { runtimeErrors: [], networkErrors: [] }, () => {});
		const after: NodeStatus = JSON.parse(JSON.stringify(before));
		setNodeConditions(after, '2026-11-30T08:00:10Z', { runtimeErrors: [], networkErrors: [] }, () => {});
		expect(nodeStatusHasChanged(before, after)).toBe(false);
		setNodeConditions(after, '2026-11-30T08:00:20Z', { runtimeErrors: ['container runtime is down'], networkErrors: [] }, () => {});
		expect(nodeStatusHasChanged(before, after)).toBe(true);
	});
});
