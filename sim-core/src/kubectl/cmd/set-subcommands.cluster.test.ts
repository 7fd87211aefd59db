/**
 * `kubectl set serviceaccount`, `set selector`, `set subject` and `set env
 * --from` through the public API: the field each one changes, kubectl's
 * messages for what it refuses, subjects added once each as a role binding
 * stores them, and variables a Pod reads from a ConfigMap or Secret.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

describe('kubectl set serviceaccount', () => {
	it("sets the pod template's serviceAccountName, and the rollout gives the Pods the account", () => {
		const c = createCluster({ seed: 2 });
		c.exec('kubectl create deployment web --image=nginx:1.27');
		c.exec('kubectl create serviceaccount builder');
		expect(c.exec('kubectl set serviceaccount deployment web builder').stdout).toBe('deployment.apps/web serviceaccount updated\n');
		c.exec('kubectl rollout status deployment/web');
		expect(c.exec('kubectl get pods -l app=web -o jsonpath={.items[*].spec.serviceAccountName}').stdout).toBe('builder');
		expect(c.exec('kubectl set sa').stderr).toBe('error: serviceaccount is required\n');
	});
});

describe('kubectl set selector', () => {
	it("replaces a Service's selector, and refuses other kinds and set-based expressions", () => {
		const c = createCluster({ seed: 2 });
		c.exec('kubectl create deployment web --image=nginx:1.27');
		c.exec('kubectl expose deployment web --port=80');
		expect(c.exec('kubectl set selector svc web app=web,tier=front').stdout).toBe('service/web selector updated\n');
		expect(c.exec('kubectl get svc web -o jsonpath={.spec.selector}').stdout).toBe('{"app":"web","tier":"front"}');
		expect(c.exec('kubectl set selector deployment web app=x').stderr).toBe('error: deployments/web setting a selector is only supported for Services\n');
		expect(c.exec("kubectl set selector svc web 'app in (a,b)'").stderr).toBe('error: services/web match expression [{app In [a b]}] not supported on this object\n');
		// One argument is the selector (here `web`, an existence test): the resource then lacks its name, as the builder says.
		expect(c.exec('kubectl set selector svc web').stderr).toMatch(/^error: resource\(s\) were provided, but no name was specified/);
	});
});

describe('kubectl set subject', () => {
	it('adds users, groups and service accounts to a binding once each', () => {
		const c = createCluster({ seed: 2 });
		c.exec('kubectl create rolebinding readers --clusterrole=view --user=jane');
		expect(c.exec('kubectl set subject rolebinding readers --user=bob --user=jane --group=devs --serviceaccount=default:ci').stdout).toBe('rolebinding.rbac.authorization.k8s.io/readers subjects updated\n');
		expect(c.exec('kubectl get rolebinding readers -o jsonpath={.subjects}').stdout).toBe(
			'[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"jane"},{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"bob"},{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"devs"},{"kind":"ServiceAccount","name":"ci","namespace":"default"}]',
		);
		// The API now answers for bob as the binding says.
		expect(c.exec('kubectl auth can-i list pods --as=bob').stdout).toBe('yes\n');
		expect(c.exec('kubectl set subject rolebinding readers').stderr).toBe('error: you must specify at least one value of user, group or serviceaccount\n');
		expect(c.exec('kubectl set subject rolebinding readers --serviceaccount=ci').stderr).toBe('error: serviceaccount must be <namespace>:<name>\n');
		c.exec('kubectl create clusterrolebinding all-readers --clusterrole=view --group=devs');
		expect(c.exec('kubectl set subject clusterrolebinding all-readers --serviceaccount=:ci').stderr).toBe('error: serviceaccount must be <namespace>:<name>, namespace must be specified\n');
		expect(c.exec('kubectl set subject configmap kube-root-ca.crt --user=bob').stderr).toBe('error: configmaps/kube-root-ca.crt setting subjects is only supported for RoleBinding/ClusterRoleBinding\n');
	});
});

describe('kubectl set env --from', () => {
	it("adds a variable per key of a ConfigMap or Secret, by reference, which the rolled-out Pods see", () => {
		const c = createCluster({ seed: 2 });
		c.exec('kubectl create deployment web --image=nginx:1.27');
		c.exec('kubectl create configmap app-config --from-literal=log.level=debug --from-literal=mode=fast');
		c.exec('kubectl create secret generic creds --from-literal=password=s3cret');
		expect(c.exec('kubectl set env deployment/web --from=configmap/app-config').stdout).toBe('deployment.apps/web env updated\n');
		expect(c.exec('kubectl set env deployment/web --from=secret/creds --prefix=DB_').stdout).toBe('deployment.apps/web env updated\n');
		expect(c.exec('kubectl set env deployment/web --list').stdout).toBe(
			'# Deployment web, container nginx\n# LOG_LEVEL from configmap app-config, key log.level\n# MODE from configmap app-config, key mode\n# DB_PASSWORD from secret creds, key password\n',
		);
		c.exec('kubectl rollout status deployment/web');
		const env = c.exec('kubectl exec deploy/web -- env').stdout;
		expect(env).toMatch(/^LOG_LEVEL=debug$/m);
		expect(env).toMatch(/^DB_PASSWORD=s3cret$/m);
	});

	it('takes only the --keys named, and says what it cannot read from', () => {
		const c = createCluster({ seed: 2 });
		c.exec('kubectl create deployment web --image=nginx:1.27');
		c.exec('kubectl create configmap app-config --from-literal=a=1 --from-literal=b=2');
		const yaml = c.exec('kubectl set env deployment/web --from=configmap/app-config --keys=b --dry-run=client -o yaml').stdout;
		expect(yaml).toContain('        - name: B\n          valueFrom:\n            configMapKeyRef:\n              key: b\n              name: app-config\n');
		expect(yaml).not.toContain('name: A\n');
		expect(c.exec('kubectl set env deployment/web --from=configmap/nope').stderr).toBe('Error from server (NotFound): configmaps "nope" not found\n');
		expect(c.exec('kubectl set env deployment/web --from=deployment/web').stderr).toBe('error: unsupported resource specified in --from\n');
	});
});
