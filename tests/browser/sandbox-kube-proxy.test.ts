/**
 * The kube-proxy chapter's sandbox in Chromium, as its reader uses it:
 * expose the Deployment the page talks about and reach it by its ClusterIP
 * from a node, read the iptables chains the chapter prints, then stop
 * kube-proxy on node-1 in the Faults panel and see its Pod crash-loop
 * while the Service still answers from that node on the rules it left;
 * then forward a workstation port to it and reach it with curl there.
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

	it('port-forward to the Service keeps running as a job: curl on the workstation reaches a Pod, kill stops it', async () => {
		// The Service's port 80 leads to the containers' 9376: port-forward goes to the Pod's port directly.
		expect(await run(s.sandbox, 'kubectl port-forward svc/hostnames 8080:80 &')).toMatch(/^\[1\] \d+\nForwarding from 127\.0\.0\.1:8080 -> 9376\nForwarding from \[::1\]:8080 -> 9376\n?$/);
		expect(await run(s.sandbox, 'curl -s localhost:8080')).toMatch(/^Handling connection for 8080\nhostnames-[a-z0-9]+-[a-z0-9]{5}\n?$/);
		expect(await run(s.sandbox, 'jobs')).toMatch(/^\[1\]\+ {2}Running {17}kubectl port-forward svc\/hostnames 8080:80 &\n?$/);
		expect(await run(s.sandbox, 'kill %1')).toMatch(/^\[1\]\+ {2}Terminated {14}kubectl port-forward svc\/hostnames 8080:80\n?$/);
		expect(await run(s.sandbox, 'curl -s localhost:8080; echo "exit $?"')).toMatch(/exit 7\n?$/);
	});
});
