/**
 * The kubelet chapter's sandbox, as a reader follows kubernetes.io's
 * "Configure a Pod to Use a PersistentVolume for Storage" in it: the file
 * written on the nodes over ssh, the page's three manifests applied by URL,
 * the claim bound, the Pod serving the file from the node's directory, and
 * `kubectl describe pvc` saying who uses the claim; then the Secret page's
 * "Secret files permissions" Pod pasted as a here-document, its files
 * 0400 in the container.
 */
import { describe, expect, it } from 'vitest';
import { run, useStartedSandbox } from './sandbox-helpers.ts';

// The clock runs, as for a reader: the PV controller, the scheduler and the kubelet act while they type.
const s = useStartedSandbox({ path: 'node/kubelet/', clock: 'running' });

describe('a PersistentVolume, in the sandbox', () => {
	it('binds the claim to the hostPath volume and serves the node file from the Pod', async () => {
		for (const node of ['node-1', 'node-2']) {
			await run(s.sandbox, `ssh ${node} "sudo mkdir /mnt/data; sudo sh -c \\"echo 'Hello from Kubernetes storage' > /mnt/data/index.html\\""`);
		}
		expect(await run(s.sandbox, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-volume.yaml')).toBe('persistentvolume/task-pv-volume created\n');
		expect(await run(s.sandbox, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-claim.yaml')).toBe('persistentvolumeclaim/task-pv-claim created\n');
		await expect.poll(() => run(s.sandbox, 'kubectl get pvc task-pv-claim --no-headers'), { timeout: 30_000 }).toMatch(/^task-pv-claim\s+Bound\s+task-pv-volume\s+10Gi\s+RWO\s+manual\s/);
		await run(s.sandbox, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-pod.yaml');
		await expect.poll(() => run(s.sandbox, 'kubectl get pod task-pv-pod --no-headers'), { timeout: 60_000 }).toMatch(/^task-pv-pod\s+1\/1\s+Running\s/);
		await expect.poll(() => run(s.sandbox, 'kubectl exec task-pv-pod -- curl -s http://localhost/'), { timeout: 30_000 }).toBe('Hello from Kubernetes storage\n');
		expect(await run(s.sandbox, 'kubectl describe pvc task-pv-claim')).toMatch(/^Used By:\s+task-pv-pod$/m);
	}, 120_000);

	it('mounts a Secret with defaultMode 0400, as the Secret page shows, and the files say so', async () => {
		await run(s.sandbox, 'kubectl create secret generic mysecret --from-literal=username=admin --from-literal=password=s3cr3t');
		const input = s.sandbox.locator('.ca-term__input');
		await input.evaluate((field, block) => {
			const data = new DataTransfer();
			data.setData('text/plain', block);
			field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
		}, 'cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: Pod\nmetadata:\n  name: mypod\nspec:\n  containers:\n  - name: mypod\n    image: redis\n    volumeMounts:\n    - name: foo\n      mountPath: "/etc/foo"\n  volumes:\n  - name: foo\n    secret:\n      secretName: mysecret\n      defaultMode: 0400\nEOF\n');
		await expect.poll(() => run(s.sandbox, 'kubectl get pod mypod --no-headers'), { timeout: 60_000 }).toMatch(/^mypod\s+1\/1\s+Running\s/);
		expect(await run(s.sandbox, 'kubectl exec mypod -- ls -l /etc/foo')).toMatch(/^total 8\n-r-------- 1 root root 6 .+ password\n-r-------- 1 root root 5 .+ username\n$/);
		expect(await run(s.sandbox, 'kubectl exec mypod -- stat -c %a /etc/foo/username')).toBe('400\n');
	}, 120_000);

	it('logged no console error and no CSP violation', () => {
		expect(s.problems).toEqual([]);
	});
});
