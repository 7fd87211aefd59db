/**
 * The high-availability chapter's sandbox, as a reader drives it in
 * Chromium: three etcd members listed from a control-plane machine's shell,
 * named by machine on the map with the leader marked,
 * the API carrying on with one member stopped from the Faults panel, failing
 * with etcd's `request timed out` once the majority is gone, and back, with
 * nothing lost, when a second member returns.
 */
import { describe, expect, it } from 'vitest';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

const ETCDCTL = 'etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

const s = useStartedSandbox({ path: 'operations/high-availability/', clock: 'paused' });

describe('a three-member etcd in the sandbox', () => {
	it('lists its three members, one of them leading, from the control-plane machine', async () => {
		await run(s.sandbox, 'ssh control-plane');
		const members = await run(s.sandbox, `${ETCDCTL} member list`);
		for (const machine of ['control-plane', 'control-plane-2', 'control-plane-3']) expect(members).toMatch(new RegExp(`, started, ${machine}, https://`));
		const status = await run(s.sandbox, `${ETCDCTL} endpoint status --cluster`);
		expect(status.match(/, true, false, /g)).toHaveLength(1);
		const chips = (await s.sandbox.locator('.ca-map__components .ca-chip').allInnerTexts()).map((c) => c.replace(/\s+/g, ' '));
		const onMap = chips.filter((c) => /^\W*etcd \(control-plane(-2|-3)?\)/.test(c));
		expect(onMap).toHaveLength(3);
		expect(onMap.filter((c) => c.includes('leader'))).toHaveLength(1);
		await run(s.sandbox, 'exit');
	});

	it('keeps writing with one member stopped, times out without a majority, and comes back with nothing lost', async () => {
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Stop etcd (control-plane-3)' }).click();
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		expect(await run(s.sandbox, 'kubectl create configmap survivor --from-literal=written=with-two-of-three')).toContain('configmap/survivor created');
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Stop etcd (control-plane-2)' }).click();
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		expect(await run(s.sandbox, 'kubectl get pods')).toContain('Error from server: etcdserver: request timed out');
		// The map says why, beside the terminal.
		await expect.poll(() => s.sandbox.locator('.ca-map__notices').innerText()).toContain('etcd has no leader');
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Start etcd (control-plane-2)' }).click();
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get configmap survivor -o jsonpath={.data.written}'), { timeout: 20_000 }).toContain('with-two-of-three');
	});
});
