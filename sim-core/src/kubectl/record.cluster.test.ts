/**
 * `--record` as older tutorials use it (kubernetes.io's Deployment page
 * before v1.27): accepted with pflag's deprecation notice on the commands
 * that register it, refused elsewhere, and the command line lands in
 * `kubernetes.io/change-cause`, which `kubectl rollout history` prints for
 * each revision.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('kubectl --record', () => {
	it('records each command line in the rollout history, with the deprecation notice', () => {
		const cluster = createCluster({ seed: 3 });
		const applied = cluster.exec('kubectl apply -f https://k8s.io/examples/controllers/nginx-deployment.yaml --record');
		expect(applied).toMatchObject({ exitCode: 0, stdout: 'deployment.apps/nginx-deployment created\n', stderr: 'Flag --record has been deprecated, --record will be removed in the future\n' });
		cluster.exec('kubectl rollout status deployment/nginx-deployment');
		expect(cluster.exec('kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1 --record').exitCode).toBe(0);
		cluster.exec('kubectl rollout status deployment/nginx-deployment');
		const history = cluster.exec('kubectl rollout history deployment/nginx-deployment').stdout;
		// parseCommandArguments joins path, arguments and flags as "%s %s%s": no arguments leave two spaces.
		expect(history).toBe(
			'deployment.apps/nginx-deployment \nREVISION  CHANGE-CAUSE\n' +
				'1         kubectl apply  --filename=https://k8s.io/examples/controllers/nginx-deployment.yaml --record=true\n' +
				'2         kubectl set image deployment/nginx-deployment nginx=nginx:1.16.1 --record=true\n\n',
		);
	});

	it('names flags by their long names in the order typed, globals included, and records scales with a patch of their own', () => {
		const cluster = createCluster({ seed: 3 });
		cluster.exec('kubectl create deployment web --image=nginx:1.27');
		expect(cluster.exec('kubectl -n default scale deploy web --replicas 2 --record').exitCode).toBe(0);
		expect(cluster.exec("kubectl get deploy web -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'").stdout).toBe('kubectl scale deploy web --namespace=default --replicas=2 --record=true');
		expect(cluster.exec('kubectl get deploy web -o jsonpath={.spec.replicas}').stdout).toBe('2');
		// --record=false records nothing (the annotation stays as it was).
		cluster.exec('kubectl label deploy web tier=front --record=false');
		expect(cluster.exec("kubectl get deploy web -o jsonpath='{.metadata.annotations.kubernetes\\.io/change-cause}'").stdout).toContain('kubectl scale');
	});

	it('is refused where kubectl does not register it, and takes only booleans', () => {
		const cluster = createCluster({ seed: 3 });
		expect(cluster.exec('kubectl get pods --record').stderr).toBe("error: unknown flag: --record\nSee 'kubectl get --help' for usage.\n");
		expect(cluster.exec('kubectl create deployment web --image=nginx --record=maybe')).toMatchObject({ exitCode: 1, stderr: 'error: invalid argument "maybe" for "--record" flag: strconv.ParseBool: parsing "maybe": invalid syntax\n' });
		expect(cluster.exec('kubectl get deploy web').exitCode).toBe(1);
	});

	it("prints pflag's deprecation notices before the command's own output, as the parse comes first", () => {
		const cluster = createCluster({ seed: 3 });
		cluster.exec('kubectl create deployment web --image=nginx:1.27');
		expect(cluster.exec('kubectl autoscale deployment web --cpu-percent=80 --max=3').output).toBe(
			"Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format (e.g., '70%' for utilization or '500m' for milliCPU).\nhorizontalpodautoscaler.autoscaling/web autoscaled\n",
		);
		expect(cluster.exec('kubectl label deployment web tier=front --record').output).toBe('Flag --record has been deprecated, --record will be removed in the future\ndeployment.apps/web labeled\n');
	});
});
