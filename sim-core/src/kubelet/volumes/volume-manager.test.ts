/**
 * The volume manager's timing and bookkeeping, from upstream's constants:
 * the operation back-off (exponentialbackoff: 500 ms doubling to 2 min 2 s)
 * retried on the reconciler's next 100 ms pass, the pod worker's 300 ms
 * poll and 2 min 3 s wait (volume_manager.go), getExpectedVolumes, and
 * reconstruction from the node's disk after a kubelet restart.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigMap, Pod, Volume } from '../../api/types.ts';
import { MemoryFs } from '../../host/fs.ts';
import { notFoundError, type ObjectLookup } from './lookup.ts';
import { nodeDiskFromFs } from '../../host/disk.ts';
import {
	expectedVolumes,
	INITIAL_DURATION_BEFORE_RETRY_MS,
	MAX_DURATION_BEFORE_RETRY_MS,
	markRemount,
	newPodVolumes,
	nextRetryAtMs,
	pollNoticesAtMs,
	POD_ATTACH_AND_MOUNT_TIMEOUT_MS,
	reconcilePod,
	RECONCILER_LOOP_SLEEP_PERIOD_MS,
	unmountedVolumes,
	waitTimeoutError,
	type ReconcileContext,
} from './volume-manager.ts';

const content: Volume = { name: 'content', configMap: { name: 'web-content' } };
const cache: Volume = { name: 'cache', emptyDir: {} };
const unused: Volume = { name: 'unused', configMap: { name: 'nowhere' } };

function pod(volumes: Volume[], mounts: string[]): Pod {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name: 'web', namespace: 'default', uid: 'uid-1' },
		spec: { containers: [{ name: 'app', image: 'nginx:1.27', volumeMounts: mounts.map((name) => ({ name, mountPath: `/m/${name}` })) }], volumes },
	};
}

function lookup(configMaps: () => ConfigMap[]): ObjectLookup {
	return {
		configMap: (_ns, name) => {
			const found = configMaps().find((c) => c.metadata.name === name);
			return found ? { ok: true, object: found } : notFoundError('configmap', name);
		},
		secret: (_ns, name) => notFoundError('secret', name),
		persistentVolumeClaim: (_ns, name) => ({ ok: false, notFound: true, error: `persistentvolumeclaims "${name}" not found` }),
		persistentVolume: (name) => ({ ok: false, notFound: true, error: `persistentvolumes "${name}" not found` }),
	};
}

function ctx(nowMs: number, configMaps: () => ConfigMap[], fs?: MemoryFs): ReconcileContext {
	return {
		lookup: lookup(configMaps),
		disk: fs ? nodeDiskFromFs(fs) : undefined,
		nodeAllocatable: {},
		nowMs,
		nowWallMs: nowMs,
		tokenSubject: { namespace: 'default', serviceAccountName: 'default', podName: 'web', podUid: 'uid-1', nodeName: 'node-1', nodeUid: 'n' },
	};
}

describe('the constants of the volume manager', () => {
	it('are upstream values', () => {
		expect([RECONCILER_LOOP_SLEEP_PERIOD_MS, POD_ATTACH_AND_MOUNT_TIMEOUT_MS, INITIAL_DURATION_BEFORE_RETRY_MS, MAX_DURATION_BEFORE_RETRY_MS]).toEqual([100, 2 * 60_000 + 3_000, 500, 2 * 60_000 + 2_000]);
	});
});

describe('a volume whose ConfigMap is missing', () => {
	it('fails at 0, then on the first reconciler pass after each doubled back-off, capped at 2 min 2 s', () => {
		const p = pod([content], ['content']);
		const state = newPodVolumes(p, undefined);
		const failures: number[] = [];
		let now = 0;
		for (let i = 0; i < 12; i++) {
			const outcomes = reconcilePod(state, p, ctx(now, () => []));
			if (outcomes.some((o) => !o.ok)) failures.push(now);
			now = nextRetryAtMs(state) ?? now;
		}
		// 0.5, 1, 2, 4 ... 64 s, then 122 s; each retry 100 ms after the back-off ends.
		expect(failures).toEqual([0, 600, 1_700, 3_800, 7_900, 16_000, 32_100, 64_200, 128_300, 250_400, 372_500, 494_600]);
	});

	it('reports the error and the back-off it starts; nothing is retried inside the back-off', () => {
		const p = pod([content], ['content']);
		const state = newPodVolumes(p, undefined);
		expect(reconcilePod(state, p, ctx(0, () => []))).toMatchObject([{ volume: 'content', ok: false, remount: false, error: 'configmap "web-content" not found', durationBeforeRetryMs: 500 }]);
		expect(reconcilePod(state, p, ctx(599, () => []))).toEqual([]);
		expect(unmountedVolumes(state)).toEqual(['content']);
	});

	it('mounts on the next retry once the ConfigMap exists, and forgets the back-off', () => {
		const p = pod([content], ['content']);
		const state = newPodVolumes(p, undefined);
		let objects: ConfigMap[] = [];
		reconcilePod(state, p, ctx(0, () => objects));
		objects = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-content', namespace: 'default' }, data: { 'index.html': 'hi' } }];
		expect(reconcilePod(state, p, ctx(600, () => objects))).toMatchObject([{ volume: 'content', ok: true }]);
		expect(state.volumes.content).toEqual({ mounted: true, remount: false });
		expect(unmountedVolumes(state)).toEqual([]);
	});

	it('times out the wait with the error WaitForAttachAndMount wraps', () => {
		const p = pod([content, cache], ['content', 'cache']);
		const state = newPodVolumes(p, undefined);
		reconcilePod(state, p, ctx(0, () => []));
		expect(waitTimeoutError(state)).toBe('unmounted volumes=[content], unattached volumes=[], failed to process volumes=[]: context deadline exceeded');
	});
});

describe('which volumes the pod waits for (getExpectedVolumes)', () => {
	it('only those a container mounts: an unused volume with a missing ConfigMap does not block the pod', () => {
		const p = pod([content, unused, cache], ['cache', 'content']);
		expect(expectedVolumes(p).map((v) => v.name)).toEqual(['content', 'cache']);
		const state = newPodVolumes(p, undefined);
		reconcilePod(state, p, ctx(0, () => [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-content' }, data: {} }]));
		expect(unmountedVolumes(state)).toEqual([]);
	});
});

describe('the pod worker noticing a mount', () => {
	it.each([
		[0, 0, 0],
		[0, 1, 300],
		[0, 300, 300],
		[1_000, 128_300, 128_500],
	])('a wait since %i notices a mount at %i at its poll at %i', (since, mounted, noticed) => {
		expect(pollNoticesAtMs(since, mounted)).toBe(noticed);
	});
});

describe('remounts and reconstruction', () => {
	it('a resync remounts API-data volumes only, and a failed remount keeps the volume mounted', () => {
		const fs = new MemoryFs();
		const p = pod([content, cache], ['content', 'cache']);
		const state = newPodVolumes(p, nodeDiskFromFs(fs));
		const cm: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-content' }, data: { 'index.html': 'v1' } };
		reconcilePod(state, p, ctx(0, () => [cm], fs));
		markRemount(state, p);
		expect(state.volumes).toEqual({ content: { mounted: true, remount: true }, cache: { mounted: true, remount: false } });
		const outcomes = reconcilePod(state, p, ctx(60_000, () => [], fs));
		expect(outcomes).toMatchObject([{ volume: 'content', ok: false, remount: true, error: 'configmap "web-content" not found' }]);
		expect(state.volumes.content.mounted).toBe(true);
		expect(fs.readFile('/var/lib/kubelet/pods/uid-1/volumes/kubernetes.io~configmap/content/index.html')).toBe('v1');
	});

	it('a kubelet that restarts finds the volumes on disk mounted, to be remounted', () => {
		const fs = new MemoryFs();
		const p = pod([content, cache], ['content', 'cache']);
		reconcilePod(newPodVolumes(p, nodeDiskFromFs(fs)), p, ctx(0, () => [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-content' }, data: {} }], fs));
		expect(newPodVolumes(p, nodeDiskFromFs(fs)).volumes).toEqual({ content: { mounted: true, remount: true }, cache: { mounted: true, remount: false } });
		expect(newPodVolumes(p, nodeDiskFromFs(new MemoryFs())).volumes).toEqual({ content: { mounted: false }, cache: { mounted: false } });
	});
});
