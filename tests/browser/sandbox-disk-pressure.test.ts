/**
 * The disk pressure scenario as a reader meets it in the troubleshooting
 * chapter: the sandbox opens on node-1 under DiskPressure with the evicted
 * Pod's message naming ephemeral-storage; `df` on the node and in a Pod
 * shows the disk; the fix from the task (a smaller write and a limit of its
 * own) brings `filler` back once the condition has passed.
 */
import { describe, expect, it } from 'vitest';
import { run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox({ path: 'failures/troubleshooting/', scenario: 'failures/troubleshooting-disk' });

describe('a node whose disk filled up', () => {
	it('shows DiskPressure, its taint and the eviction for ephemeral-storage', async () => {
		const node = await run(s.sandbox, 'kubectl describe node node-1');
		expect(node).toMatch(/Taints:\s+node\.kubernetes\.io\/disk-pressure:NoSchedule/);
		expect(node).toMatch(/DiskPressure\s+True\s.*KubeletHasDiskPressure\s+kubelet has disk pressure/);
		expect(node).toMatch(/EvictionThresholdMet\s.*Attempting to reclaim ephemeral-storage/);
		const events = await run(s.sandbox, 'kubectl get events --field-selector reason=Evicted');
		expect(events).toMatch(/The node was low on resource: ephemeral-storage\. Threshold quantity: 15Gi, available: \d+Ki\. Container filler was using \d+Ki, request is 0, has larger consumption of ephemeral-storage\./);
	});

	it('answers df on the node and in a Pod, and dd fills the disk from inside a Pod', async () => {
		expect(await run(s.sandbox, 'ssh node-1 df -h /')).toMatch(/^Filesystem\s+Size\s+Used\s+Avail\s+Use%\s+Mounted on\n\/dev\/sda1\s+100G\s+\S+\s+\S+\s+\d+% \/\n?$/);
		await run(s.sandbox, 'kubectl run scratch --image=busybox:1.36 -- sleep 3600');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		const dd = await run(s.sandbox, 'kubectl exec scratch -- dd if=/dev/zero of=/tmp/x bs=1M count=100');
		expect(dd).toContain('104857600 bytes (100.0MB) copied');
		expect(await run(s.sandbox, 'kubectl exec scratch -- df -h /tmp')).toMatch(/^overlay\s+100\.0G/m);
	});

	it('brings filler back once it writes what it needs within a limit of its own', async () => {
		await run(s.sandbox, 'kubectl set env deployment/filler BLOB_GB=1');
		await run(s.sandbox, 'kubectl set resources deployment filler --limits=ephemeral-storage=2Gi');
		for (let i = 0; i < 6; i++) await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get deployment filler'), { timeout: 20_000 }).toMatch(/filler\s+1\/1\s+1\s+1/);
		await s.page.screenshot({ path: '/tmp/disk-sandbox.png' });
	});
});
