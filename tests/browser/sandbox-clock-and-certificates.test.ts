/**
 * The troubleshooting chapter's clock and certificate sandboxes in
 * Chromium, as a reader repairs them: a node a day behind (its kubelet's
 * journal names the certificate it cannot trust; the Faults panel's Clock
 * row puts it back in step and it comes Ready), and a control plane whose
 * certificates expired (kubectl cannot connect; kubeadm on the
 * control-plane node lists them `<invalid>` and renews them).
 */
import { describe, expect, it } from 'vitest';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

describe('a node whose clock is a day behind', () => {
	const s = useStartedSandbox({ path: 'failures/troubleshooting/', scenario: 'failures/troubleshooting-clock' });

	it('says why in the journal, and comes back Ready once the Faults panel fixes its clock', async () => {
		expect(await run(s.sandbox, 'kubectl get node node-1 --no-headers')).toMatch(/node-1\s+NotReady/);
		expect(await run(s.sandbox, 'ssh node-1 "journalctl -u kubelet | grep x509 | tail -1"')).toMatch(/x509: certificate has expired or is not yet valid: current time 2026-11-29T\S+ is before 2026-11-30T07:55:00Z/);
		expect(await run(s.sandbox, 'ssh node-1 date')).toMatch(/^Sun Nov 29 /);
		await openTab(s.sandbox, 'Faults');
		const clockRow = s.sandbox.locator('.ca-faults__row').filter({ hasText: /^Clock/ }).nth(1);
		expect(await clockRow.locator('.ca-faults__state').innerText()).toContain('1d behind');
		await s.sandbox.getByRole('button', { name: 'Fix the clock of node-1' }).click();
		await expect.poll(() => clockRow.locator('.ca-faults__state').innerText()).toContain('In step');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get node node-1 --no-headers'), { timeout: 20_000 }).toMatch(/node-1\s+Ready/);
		expect(s.problems).toEqual([]);
	});
});

describe('a control plane whose certificates expired', () => {
	const s = useStartedSandbox({ path: 'failures/troubleshooting/', scenario: 'failures/troubleshooting-certificates' });

	it('refuses kubectl with the x509 error, and kubeadm lists and renews the certificates', async () => {
		expect(await run(s.sandbox, 'kubectl get nodes')).toMatch(/^Unable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time \S+ is after 2026-11-30T08:02:00Z/);
		expect(await run(s.sandbox, 'ssh control-plane kubeadm certs check-expiration')).toMatch(/^apiserver +Nov 30, 2026 08:02 UTC +<invalid> +ca +no/m);
		expect(await run(s.sandbox, 'ssh control-plane kubeadm certs renew all')).toContain('Done renewing certificates. You must restart the kube-apiserver, kube-controller-manager, kube-scheduler and etcd, so that they can use the new certificates.');
		expect(await run(s.sandbox, 'kubectl get nodes')).toContain('error: You must be logged in to the server (Unauthorized)');
		await run(s.sandbox, 'ssh control-plane cat /etc/kubernetes/admin.conf > ~/.kube/config');
		expect(await run(s.sandbox, 'kubectl get nodes')).toContain('etcdserver: request timed out');
		expect(s.problems).toEqual([]);
	});
});
