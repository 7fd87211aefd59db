/**
 * PodGC's threshold for terminated pods (--terminated-pod-gc-threshold):
 * beyond it, the oldest Succeeded or Failed pods go first, every 20 s
 * (gc_controller.go gcTerminated). The dead-node cases run in a whole
 * cluster: ../cluster/dead-node.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../api/types.ts';
import { R } from '../client/client.ts';
import { GC_CHECK_PERIOD_MS } from './podgc.ts';
import { createControllerHarness } from '../testing/controllers/harness.ts';

describe('PodGC: terminated pods over the threshold', () => {
	it('deletes the oldest terminated pods beyond the threshold and leaves running ones', () => {
		const t = createControllerHarness({ kcm: { terminatedPodGcThreshold: 2 }, startNodes: false });
		t.advance(5_000);
		// No (fake) kubelets run: nothing rewrites the phases set below.
		for (const name of ['done-1', 'done-2', 'done-3', 'done-4', 'busy']) {
			expect(t.kubectl.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } }).ok).toBe(true);
			t.advance(1_000);
		}
		for (const name of ['done-1', 'done-2', 'done-3', 'done-4']) {
			expect(t.kubectl.patch(R.pods, 'default', name, { status: { phase: name === 'done-2' ? 'Failed' : 'Succeeded' } }, 'application/strategic-merge-patch+json', 'status').ok).toBe(true);
		}
		t.advance(GC_CHECK_PERIOD_MS + 1_000);
		expect(t.list<Pod>(R.pods, 'default').map((p) => p.metadata.name)).toEqual(['busy', 'done-3', 'done-4']);
	});
});
