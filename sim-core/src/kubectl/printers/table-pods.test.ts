import { describe, it, expect } from 'vitest';
import type { ContainerStatus, Pod, PodStatus } from '../../api/types.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { podStatusCells } from './table-pods.ts';

const NOW = parseRfc3339('2026-11-30T09:00:00Z');

/** A pod with `n` containers (c0, c1...), init containers and a status. */
function pod(status: PodStatus, options: { containers?: number; init?: Array<{ name: string; sidecar?: boolean }>; deleting?: boolean } = {}): Pod {
	const p: Pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name: 'p' },
		spec: {
			containers: Array.from({ length: options.containers ?? 1 }, (_, i) => ({ name: `c${i}`, image: 'img' })),
			initContainers: options.init?.map((c) => ({ name: c.name, image: 'img', ...(c.sidecar ? { restartPolicy: 'Always' } : {}) })),
		},
		status,
	};
	if (options.deleting) p.metadata.deletionTimestamp = '2026-11-30T08:59:00Z';
	return p;
}

const cs = (name: string, fields: Partial<ContainerStatus>): ContainerStatus => ({ name, ready: false, restartCount: 0, image: 'img', imageID: '', ...fields });
const running = { running: { startedAt: '2026-11-30T08:00:00Z' } };

describe('printPod READY, STATUS and RESTARTS', () => {
	it.each<[string, Pod, string, string, string]>([
		['a new pod is Pending', pod({ phase: 'Pending' }), '0/1', 'Pending', '0'],
		['a waiting container shows its reason', pod({ phase: 'Pending', containerStatuses: [cs('c0', { state: { waiting: { reason: 'ContainerCreating' } } })] }), '0/1', 'ContainerCreating', '0'],
		['a ready running container', pod({ phase: 'Running', containerStatuses: [cs('c0', { ready: true, state: running })] }), '1/1', 'Running', '0'],
		[
			'a crash-looping container with the age of its last restart',
			pod({ phase: 'Running', containerStatuses: [cs('c0', { restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', finishedAt: '2026-11-30T08:58:00Z' } } })] }),
			'0/1',
			'CrashLoopBackOff',
			'3 (2m ago)',
		],
		['a finished container', pod({ phase: 'Succeeded', containerStatuses: [cs('c0', { state: { terminated: { exitCode: 0, reason: 'Completed' } } })] }), '0/1', 'Completed', '0'],
		['a terminated container without a reason shows its exit code', pod({ phase: 'Failed', containerStatuses: [cs('c0', { state: { terminated: { exitCode: 1 } } })] }), '0/1', 'ExitCode:1', '0'],
		['or its signal', pod({ phase: 'Failed', containerStatuses: [cs('c0', { state: { terminated: { exitCode: 137, signal: 9 } } })] }), '0/1', 'Signal:9', '0'],
		['the pod reason wins over the phase', pod({ phase: 'Failed', reason: 'Evicted' }), '0/1', 'Evicted', '0'],
		['a running init container counts init progress', pod({ phase: 'Pending', initContainerStatuses: [cs('init', { state: running })] }, { init: [{ name: 'init' }] }), '0/1', 'Init:0/1', '0'],
		['a waiting init container shows its reason', pod({ phase: 'Pending', initContainerStatuses: [cs('init', { state: { waiting: { reason: 'ImagePullBackOff' } } })] }, { init: [{ name: 'init' }] }), '0/1', 'Init:ImagePullBackOff', '0'],
		['but not PodInitializing', pod({ phase: 'Pending', initContainerStatuses: [cs('init', { state: { waiting: { reason: 'PodInitializing' } } })] }, { init: [{ name: 'init' }] }), '0/1', 'Init:0/1', '0'],
		['a failed init container shows its reason', pod({ phase: 'Pending', initContainerStatuses: [cs('init', { restartCount: 2, state: { terminated: { exitCode: 1, reason: 'Error' } } })] }, { init: [{ name: 'init' }] }), '0/1', 'Init:Error', '2'],
		['or its exit code', pod({ phase: 'Pending', initContainerStatuses: [cs('init', { state: { terminated: { exitCode: 2 } } })] }, { init: [{ name: 'init' }] }), '0/1', 'Init:ExitCode:2', '0'],
		[
			'done init containers are skipped when counting',
			pod({ phase: 'Pending', initContainerStatuses: [cs('a', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('b', { state: running })] }, { init: [{ name: 'a' }, { name: 'b' }] }),
			'0/1',
			'Init:1/2',
			'0',
		],
		[
			'a started sidecar counts as a container, with its restarts',
			pod({ phase: 'Running', initContainerStatuses: [cs('proxy', { started: true, ready: true, restartCount: 2, state: running })], containerStatuses: [cs('c0', { ready: true, restartCount: 1, state: running })] }, { init: [{ name: 'proxy', sidecar: true }] }),
			'2/2',
			'Running',
			'3',
		],
		[
			'Completed with a container still running shows Running when the pod is Ready',
			pod({ phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }], containerStatuses: [cs('c0', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('c1', { ready: true, state: running })] }, { containers: 2 }),
			'1/2',
			'Running',
			'0',
		],
		[
			'and NotReady when it is not',
			pod({ phase: 'Running', containerStatuses: [cs('c0', { state: { terminated: { exitCode: 0, reason: 'Completed' } } }), cs('c1', { ready: true, state: running })] }, { containers: 2 }),
			'1/2',
			'NotReady',
			'0',
		],
		['a pod being deleted is Terminating', pod({ phase: 'Running', containerStatuses: [cs('c0', { ready: true, state: running })] }, { deleting: true }), '1/1', 'Terminating', '0'],
		['unless it already finished', pod({ phase: 'Succeeded', containerStatuses: [cs('c0', { state: { terminated: { exitCode: 0, reason: 'Completed' } } })] }, { deleting: true }), '0/1', 'Completed', '0'],
		['a pod deleted from a lost node is Unknown', pod({ phase: 'Running', reason: 'NodeLost' }, { deleting: true }), '0/1', 'Unknown', '0'],
		['a gated pod says so', pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), '0/1', 'SchedulingGated', '0'],
	])('%s', (_name, p, ready, status, restarts) => {
		expect(podStatusCells(p, NOW)).toEqual({ ready, status, restarts });
	});
});
