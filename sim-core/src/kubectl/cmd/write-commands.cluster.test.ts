import { describe, it, expect } from 'vitest';
import { createCluster } from '../../index.ts';

/**
 * The changing commands against a whole booted cluster (controllers,
 * scheduler, kubelets): the contracts with the other components hold end to
 * end. Pod names are random, so only stable lines are checked exactly.
 */
describe('kubectl changing commands in a booted cluster', () => {
	it('rolls a deployment out, runs commands in it, and drains a node', () => {
		const c = createCluster();
		expect(c.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2')).toMatchObject({ stdout: 'deployment.apps/web created\n', exitCode: 0 });
		const status = c.exec('kubectl rollout status deploy/web --timeout=2m');
		expect(status.exitCode).toBe(0);
		expect(status.stdout.split('\n').at(-2)).toBe('deployment "web" successfully rolled out');

		// pods/exec reaches the kubelet with the command, and the exit code comes back.
		expect(c.exec('kubectl exec deploy/web -- sh -c "echo hello"')).toMatchObject({ stdout: 'hello\n', exitCode: 0 });
		expect(c.exec('kubectl exec deploy/web -- sh -c "exit 3"')).toMatchObject({ stderr: 'command terminated with exit code 3\n', exitCode: 3 });

		// pods/log: the container's output.
		const logs = c.exec('kubectl logs deploy/web --tail=1');
		expect(logs.exitCode).toBe(0);
		expect(logs.stdout).toMatch(/nginx|worker/);

		expect(c.exec('kubectl set image deploy/web nginx=nginx:1.28').stdout).toBe('deployment.apps/web image updated\n');
		expect(c.exec('kubectl rollout status deploy/web --timeout=2m').exitCode).toBe(0);
		expect(c.exec('kubectl rollout history deploy/web').stdout).toBe('deployment.apps/web \nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n\n');

		const drain = c.exec('kubectl drain node-1 --ignore-daemonsets --timeout=2m');
		expect(drain.exitCode).toBe(0);
		expect(drain.stdout.startsWith('node/node-1 cordoned\n')).toBe(true);
		expect(drain.stdout.endsWith('node/node-1 drained\n')).toBe(true);
		expect(c.exec('kubectl uncordon node-1').stdout).toBe('node/node-1 uncordoned\n');
	});

	it('answers access questions from the bootstrap RBAC policy', () => {
		const c = createCluster();
		expect(c.exec('kubectl auth can-i create deployments')).toMatchObject({ stdout: 'yes\n', exitCode: 0 });
		expect(c.exec('kubectl auth can-i get secrets --as=system:serviceaccount:default:default')).toMatchObject({ stdout: 'no\n', exitCode: 1 });
		expect(c.exec('kubectl auth whoami').stdout).toBe('ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [kubeadm:cluster-admins system:authenticated]\n');
	});
});
