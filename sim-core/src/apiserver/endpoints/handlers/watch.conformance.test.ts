/**
 * Watches from a resourceVersion over HTTP, as the Conformance suite's
 * Watchers tests check them (test/e2e/apimachinery/watch.go, v1.36): a
 * watch started at revision N replays what changed after N, in order, with
 * selectors turning objects that leave or enter the selection into DELETED
 * and ADDED. The stream is read with `kubectl get --raw`, which ends it
 * where a reader's Ctrl-C would: after what has happened so far.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../../index.ts';

type Event = { type: string; object: { metadata: { name: string; resourceVersion: string; labels?: Record<string, string> }; data?: Record<string, string> } };

function cluster(seed: number) {
	const c = createCluster({ seed });
	const rvOf = (name: string) => c.exec(`kubectl get configmap ${name} -o jsonpath={.metadata.resourceVersion}`).stdout;
	/** The list's own resourceVersion (kubectl get wraps lists in a List without one, so the raw answer is read). */
	const listRv = () => JSON.parse(c.exec('kubectl get --raw /api/v1/namespaces/default/configmaps').stdout).metadata.resourceVersion as string;
	const watchFrom = (rv: string, selector: string): Event[] => {
		const r = c.exec(`kubectl get --raw '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}&labelSelector=${encodeURIComponent(selector)}'`);
		expect(r.stderr).toBe('');
		return r.stdout
			.split('\n')
			.filter(Boolean)
			.map((line) => JSON.parse(line) as Event);
	};
	const mutate = (name: string, value: string) => expect(c.exec(`kubectl patch configmap ${name} -p '{"data":{"mutation":"${value}"}}'`).exitCode).toBe(0);
	const create = (name: string, label: string) => expect(c.exec(`kubectl create configmap ${name} && kubectl label configmap ${name} watch-this-configmap=${label}`).exitCode).toBe(0);
	return { c, rvOf, listRv, watchFrom, mutate, create };
}

const summary = (events: Event[]) => events.map((e) => `${e.type} ${e.object.metadata.name} ${e.object.data?.mutation ?? '-'}`);

describe('[sig-api-machinery] Watchers', () => {
	it('should be able to start watch from a specific resource version [Conformance]', () => {
		const { c, rvOf, watchFrom, mutate, create } = cluster(1);
		create('e2e-watch-test-resource-version', 'from-resource-version');
		mutate('e2e-watch-test-resource-version', '1');
		const afterFirstUpdate = rvOf('e2e-watch-test-resource-version');
		mutate('e2e-watch-test-resource-version', '2');
		c.exec('kubectl delete configmap e2e-watch-test-resource-version');
		const events = watchFrom(afterFirstUpdate, 'watch-this-configmap=from-resource-version');
		expect(summary(events)).toEqual(['MODIFIED e2e-watch-test-resource-version 2', 'DELETED e2e-watch-test-resource-version 2']);
	});

	it('should be able to restart watching from the last resource version observed by the previous watch [Conformance]', () => {
		const { c, rvOf, listRv, watchFrom, mutate, create } = cluster(2);
		const selector = 'watch-this-configmap=watch-closed-and-restarted';
		const start = listRv();
		create('e2e-watch-test-watch-closed', 'watch-closed-and-restarted');
		mutate('e2e-watch-test-watch-closed', '1');
		const first = watchFrom(start, selector);
		expect(summary(first)).toEqual(['ADDED e2e-watch-test-watch-closed -', 'MODIFIED e2e-watch-test-watch-closed 1']);
		// The first watch is closed; the configmap changes while nobody watches.
		const lastObserved = first[first.length - 1].object.metadata.resourceVersion;
		expect(lastObserved).toBe(rvOf('e2e-watch-test-watch-closed'));
		mutate('e2e-watch-test-watch-closed', '2');
		c.exec('kubectl delete configmap e2e-watch-test-watch-closed');
		expect(summary(watchFrom(lastObserved, selector))).toEqual(['MODIFIED e2e-watch-test-watch-closed 2', 'DELETED e2e-watch-test-watch-closed 2']);
	});

	it('should observe an object deletion if it stops meeting the requirements of the selector [Conformance]', () => {
		const { c, listRv, watchFrom, mutate, create } = cluster(3);
		const start = listRv();
		const name = 'e2e-watch-test-label-changed';
		create(name, 'label-changed-and-restored');
		mutate(name, '1');
		c.exec(`kubectl label configmap ${name} watch-this-configmap=wrong-value --overwrite`);
		mutate(name, '2');
		c.exec(`kubectl label configmap ${name} watch-this-configmap=label-changed-and-restored --overwrite`);
		mutate(name, '3');
		c.exec(`kubectl delete configmap ${name}`);
		expect(summary(watchFrom(start, 'watch-this-configmap=label-changed-and-restored'))).toEqual([
			`ADDED ${name} -`,
			`MODIFIED ${name} 1`,
			// Leaving the selection is a deletion for this watcher; the change made meanwhile is not seen.
			`DELETED ${name} 1`,
			`ADDED ${name} 2`,
			`MODIFIED ${name} 3`,
			`DELETED ${name} 3`,
		]);
	});
});

describe('a watch over HTTP', () => {
	it('without a resourceVersion opens with the current objects, and refuses a compacted one with 410', () => {
		const { c, create } = cluster(4);
		create('present', 'yes');
		const lines = c.exec("kubectl get --raw '/api/v1/namespaces/default/configmaps?watch=1&labelSelector=watch-this-configmap%3Dyes'").stdout.trim().split('\n');
		expect(lines.map((l) => JSON.parse(l).type + ' ' + JSON.parse(l).object.metadata.name)).toEqual(['ADDED present']);
		c.advance('11m');
		expect(c.exec("kubectl get --raw '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2'").stderr).toMatch(/^Error from server \(Expired\): too old resource version: 2 \(\d+\)\n$/);
	});
});
