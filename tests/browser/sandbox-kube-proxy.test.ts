/**
 * The kube-proxy chapter's sandbox in Chromium, as its reader uses it:
 * expose the Deployment the page talks about and reach it by its ClusterIP
 * from a node, read the iptables chains the chapter prints, then stop
 * kube-proxy on node-1 in the Faults panel and see its Pod crash-loop
 * while the Service still answers from that node on the rules it left.
 */
import { describe, expect, it } from 'vitest';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox({ path: 'node/kube-proxy/' });

describe('the kube-proxy sandbox', () => {
	it('exposes hostnames; a node reaches a Pod through the ClusterIP and the rules name the Service', async () => {
		expect(await run(s.sandbox, 'kubectl expose deployment hostnames --port=80 --target-port=9376 --type=NodePort')).toMatch(/^service\/hostnames exposed\s*$/);
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		const ip = (await run(s.sandbox, "kubectl get svc hostnames -o jsonpath='{.spec.clusterIP}'")).trim();
		expect(ip).toMatch(/^10\.\d+\.\d+\.\d+$/);
		await expect.poll(() => run(s.sandbox, `ssh node-1 curl -s http://${ip}/`), { timeout: 20_000 }).toMatch(/hostnames-[a-z0-9]+-[a-z0-9]{5}/);
		expect(await run(s.sandbox, 'ssh node-1 sudo iptables-save -t nat | grep -c "default/hostnames ->"')).toMatch(/^3\s*$/);
		await openTab(s.sandbox, 'Tasks');
		await expect.poll(() => s.sandbox.locator('[data-task="expose"] .ca-task__state').innerText(), { timeout: 20_000 }).not.toBe('Not done yet');
	});

	it('stopping kube-proxy on node-1 crash-loops its Pod, and the Service still answers from node-1', async () => {
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Stop kube-proxy (node-1)' }).click();
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl -n kube-system get pods -l k8s-app=kube-proxy -o wide'), { timeout: 20_000 }).toMatch(/0\/1\s+(CrashLoopBackOff|Error)\s.*\snode-1\s/);
		const ip = (await run(s.sandbox, "kubectl get svc hostnames -o jsonpath='{.spec.clusterIP}'")).trim();
		expect(await run(s.sandbox, `ssh node-1 curl -s http://${ip}/`)).toMatch(/hostnames-[a-z0-9]+-[a-z0-9]{5}/);
	});
});
