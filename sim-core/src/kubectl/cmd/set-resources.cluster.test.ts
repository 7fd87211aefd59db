/**
 * `kubectl set resources` on a whole cluster: requests and limits merged
 * into the matching containers of a pod template, kubectl's messages for a
 * missing update, a bad quantity and a container that does not exist.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

describe('kubectl set resources', () => {
	it('sets requests and limits on the template, keeps what it was not told, and rolls the Deployment', () => {
		const cluster = createCluster();
		cluster.exec('kubectl create deployment web --image=nginx:1.27');
		cluster.settle();
		expect(cluster.exec('kubectl set resources deployment web --requests=cpu=100m,memory=256Mi').stdout).toBe('deployment.apps/web resource requirements updated\n');
		cluster.settle();
		expect(cluster.exec('kubectl set resources deployment/web -c=nginx --limits=memory=512Mi').stdout).toBe('deployment.apps/web resource requirements updated\n');
		expect(cluster.exec('kubectl get deploy web -o jsonpath={.spec.template.spec.containers[0].resources}').stdout).toBe('{"limits":{"memory":"512Mi"},"requests":{"cpu":"100m","memory":"256Mi"}}');
		// The same values again change nothing, and kubectl prints nothing.
		expect(cluster.exec('kubectl set resources deployment web --requests=memory=256Mi')).toMatchObject({ stdout: '', exitCode: 0 });
		cluster.settle();
		expect(cluster.exec('kubectl rollout history deployment web').stdout).toMatch(/^3 +<none>$/m);
	});

	it('words its refusals as kubectl does', () => {
		const cluster = createCluster();
		cluster.exec('kubectl create deployment web --image=nginx:1.27');
		expect(cluster.exec('kubectl set resources deployment web')).toMatchObject({ stderr: 'error: you must specify an update to requests or limits (in the form of --requests/--limits)\n', exitCode: 1 });
		expect(cluster.exec('kubectl set resources deployment web --limits=cpu=lots').stderr).toBe("error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'\n");
		expect(cluster.exec('kubectl set resources deployment web -c sidecar --limits=cpu=1')).toMatchObject({ stdout: '', stderr: 'warning: Unable to find container named sidecar\n', exitCode: 0 });
		expect(cluster.exec('kubectl set resources deployment nope --limits=cpu=1').stderr).toBe('Error from server (NotFound): deployments.apps "nope" not found\n');
	});
});
