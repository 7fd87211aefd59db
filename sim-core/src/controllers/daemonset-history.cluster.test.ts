/**
 * A DaemonSet's revision history through the public API: a ControllerRevision
 * per template, named by the hash its pods carry; `kubectl rollout history
 * ds` lists them with their change-cause; `rollout undo ds` rolls the pods
 * back and renumbers the old revision to the top; revisionHistoryLimit
 * trims the rest.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import type { ControllerRevision, Pod } from '../api/types.ts';

const AGENT = `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  revisionHistoryLimit: 1
  selector:
    matchLabels: {app: agent}
  template:
    metadata:
      labels: {app: agent}
    spec:
      containers:
      - name: agent
        image: nginx:1.26
`;

function revisions(cluster: ReturnType<typeof createCluster>): Array<[string, number]> {
	return (cluster.list('controllerrevisions', 'default') as ControllerRevision[]).map((r) => [r.metadata.name ?? '', r.revision] as [string, number]).sort((a, b) => a[1] - b[1]);
}

function images(cluster: ReturnType<typeof createCluster>): string[] {
	return (cluster.list('pods', 'default') as Pod[]).filter((p) => p.metadata.labels?.app === 'agent' && !p.metadata.deletionTimestamp).map((p) => p.spec.containers[0].image ?? '').sort();
}

describe('DaemonSet history', () => {
	it('records a revision per template, rolls back with undo, and keeps revisionHistoryLimit old ones', () => {
		const cluster = createCluster();
		cluster.exec('kubectl apply -f -', { stdin: AGENT });
		cluster.settle();
		const [first] = revisions(cluster);
		expect(first[1]).toBe(1);
		// The revision's name ends in the hash every pod of that template carries.
		const hashes = new Set((cluster.list('pods', 'default') as Pod[]).map((p) => p.metadata.labels?.['controller-revision-hash']));
		expect([...hashes]).toEqual([first[0].slice('agent-'.length)]);

		cluster.exec('kubectl annotate ds agent kubernetes.io/change-cause="image 1.27"');
		cluster.exec('kubectl set image ds/agent agent=nginx:1.27');
		cluster.settle();
		expect(images(cluster)).toEqual(['nginx:1.27', 'nginx:1.27']);
		expect(cluster.exec('kubectl rollout history ds/agent').stdout).toBe('daemonset.apps/agent \nREVISION  CHANGE-CAUSE\n1         <none>\n2         image 1.27\n\n');
		expect(cluster.exec('kubectl rollout history ds/agent --revision=1').stdout).toContain('    Image:\tnginx:1.26\n');

		expect(cluster.exec('kubectl rollout undo ds/agent').stdout).toBe('daemonset.apps/agent rolled back\n');
		cluster.settle();
		expect(images(cluster)).toEqual(['nginx:1.26', 'nginx:1.26']);
		// The first template's revision is current again, renumbered past the newest.
		expect(revisions(cluster)).toEqual([
			[expect.stringMatching(/^agent-/), 2],
			[first[0], 3],
		]);
		expect(cluster.exec('kubectl rollout undo ds/agent --to-revision=3').stdout).toBe('daemonset.apps/agent skipped rollback (current template already matches revision 3)\n');

		// A third template: with revisionHistoryLimit 1 only the newest old revision stays.
		cluster.exec('kubectl set image ds/agent agent=nginx:1.28');
		cluster.settle();
		expect(revisions(cluster).map(([, n]) => n)).toEqual([3, 4]);
	});
});
