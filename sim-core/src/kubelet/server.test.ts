import { describe, expect, it } from 'vitest';
import type { ContainerStatus, PodStatus } from '../api/types.ts';
import { logContainerId } from './server.ts';

const base: ContainerStatus = { name: 'app', ready: false, restartCount: 0, image: '', imageID: '', lastState: {} };

function status(s: Partial<ContainerStatus>): PodStatus {
	return { containerStatuses: [{ ...base, ...s }] };
}

describe('which container answers `kubectl logs` (validateContainerLogStatus)', () => {
	it.each([
		['a running container', status({ state: { running: {} }, containerID: 'containerd://run' }), false, { ok: true, containerId: 'run' }],
		['a terminated container', status({ state: { terminated: { exitCode: 0, containerID: 'containerd://done' } } }), false, { ok: true, containerId: 'done' }],
		['a crash-looping container (its last run)', status({ state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, containerID: 'containerd://last' } } }), false, { ok: true, containerId: 'last' }],
		['--previous of a restarted container', status({ state: { running: {} }, lastState: { terminated: { exitCode: 1, containerID: 'containerd://prev' } } }), true, { ok: true, containerId: 'prev' }],
		['--previous with no earlier run', status({ state: { running: {} } }), true, { ok: false, message: 'previous terminated container "app" in pod "web" not found' }],
		['a container still being created', status({ state: { waiting: { reason: 'ContainerCreating' } } }), false, { ok: false, message: 'container "app" in pod "web" is waiting to start: ContainerCreating' }],
		['a container whose image cannot be pulled', status({ state: { waiting: { reason: 'ErrImagePull' } } }), false, { ok: false, message: 'container "app" in pod "web" is waiting to start: image can\'t be pulled' }],
		['a container in image pull back-off', status({ state: { waiting: { reason: 'ImagePullBackOff' } } }), false, { ok: false, message: 'container "app" in pod "web" is waiting to start: trying and failing to pull image' }],
	])('%s', (_what, s, previous, expected) => {
		expect(logContainerId('web', s, 'app', previous)).toEqual(expected);
	});

	it('names a container the pod does not have', () => {
		expect(logContainerId('web', status({}), 'other', false)).toEqual({ ok: false, message: 'container "other" in pod "web" is not available' });
	});
});
