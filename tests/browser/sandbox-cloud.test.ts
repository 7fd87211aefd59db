/**
 * The cloud-controller-manager chapter's sandbox in Chromium, as its reader
 * uses it: the Nodes carry simcloud's providerID; exposing `web` as a
 * LoadBalancer shows `<pending>`, then the cloud's address once the clock
 * has moved, and curl from the workstation reaches nginx through it; the
 * Faults panel lists cloud-controller-manager among the control plane.
 */
import { describe, expect, it } from 'vitest';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox({ path: 'control-plane/cloud-controller-manager/' });

describe('the cloud-controller-manager sandbox', () => {
	it('initialized the Nodes: providerID and zone from the cloud', async () => {
		expect(await run(s.sandbox, "kubectl get node node-1 -o jsonpath='{.spec.providerID}'")).toContain('simcloud://sim-east-1b/node-1');
		expect(await run(s.sandbox, 'kubectl get nodes -L topology.kubernetes.io/zone')).toMatch(/node-2\s+Ready\s.*sim-east-1c/);
	});

	it('gives a LoadBalancer Service the cloud\'s address, and curl from the workstation reaches a Pod through it', async () => {
		expect(await run(s.sandbox, 'kubectl expose deployment web --port=80 --type=LoadBalancer')).toMatch(/^service\/web exposed\s*$/);
		expect(await run(s.sandbox, 'kubectl get svc web')).toMatch(/web\s+LoadBalancer\s+\S+\s+<pending>/);
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get svc web'), { timeout: 20_000 }).toMatch(/web\s+LoadBalancer\s+\S+\s+203\.0\.113\.10\s+80:\d+\/TCP/);
		expect(await run(s.sandbox, 'kubectl describe svc web')).toMatch(/EnsuringLoadBalancer[\s\S]*EnsuredLoadBalancer/);
		expect(await run(s.sandbox, 'curl -s http://203.0.113.10/')).toContain('nginx');
		// SCREENSHOT_DIR=... keeps a picture of the terminal for a human to look at.
		if (process.env.SCREENSHOT_DIR) await s.page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/cloud-load-balancer.png` });
	});

	it('lists cloud-controller-manager in the Faults panel with the rest of the control plane', async () => {
		await openTab(s.sandbox, 'Faults');
		const row = s.sandbox.locator('.ca-faults__row').filter({ hasText: 'cloud-controller-manager' });
		expect(await row.locator('.ca-faults__state').innerText()).toContain('Running');
		await s.sandbox.getByRole('button', { name: 'Stop cloud-controller-manager' }).click();
		await expect.poll(() => row.locator('.ca-faults__state').innerText()).toContain('Stopped');
	});
});
