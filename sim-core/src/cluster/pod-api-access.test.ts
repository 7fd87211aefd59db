/**
 * A Pod calling the API with its own identity, as in-cluster clients do:
 * the kubelet fetched the service account token with a TokenRequest, so the
 * API server accepts it; the Pod trusts the cluster CA from the projected
 * ca.crt; RBAC decides. The commands are the ones the kubernetes.io task
 * "Accessing the Kubernetes API from a Pod" uses, typed through
 * `kubectl exec ... -- sh -c '...'`.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const SA = '/var/run/secrets/kubernetes.io/serviceaccount';
const CALL = `kubectl exec box -- sh -c 'curl -s --cacert ${SA}/ca.crt -H "Authorization: Bearer $(cat ${SA}/token)" https://kubernetes.default.svc/api/v1/namespaces/default/pods'`;

function withPod() {
	const cluster = createCluster({ seed: 5 });
	cluster.exec('kubectl run box --image=nginx:1.29');
	cluster.settle({ maxMs: 120_000 });
	return cluster;
}

describe('a Pod calling the API server with its service account token', () => {
	it('is authenticated as its service account and forbidden until RBAC allows it', () => {
		const cluster = withPod();
		const denied = cluster.exec(CALL);
		expect(denied.exitCode).toBe(0);
		const status = JSON.parse(denied.stdout) as { code: number; message: string };
		expect(status.code).toBe(403);
		expect(status.message).toBe('pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"');

		expect(cluster.exec('kubectl create rolebinding box-reads --clusterrole=view --serviceaccount=default:default').exitCode).toBe(0);
		const allowed = JSON.parse(cluster.exec(CALL).stdout) as { kind: string; items: Array<{ metadata: { name: string } }> };
		expect(allowed.kind).toBe('PodList');
		expect(allowed.items.map((p) => p.metadata.name)).toContain('box');
	});

	it('needs the projected ca.crt to trust the API server, and the token to be anyone', () => {
		const cluster = withPod();
		expect(cluster.exec("kubectl exec box -- sh -c 'curl -sS https://kubernetes.default.svc/api'")).toMatchObject({ exitCode: 60 });
		const anonymous = JSON.parse(cluster.exec(`kubectl exec box -- sh -c 'curl -s --cacert ${SA}/ca.crt https://kubernetes.default.svc/api'`).stdout) as { code: number; message: string };
		expect(anonymous).toMatchObject({ code: 403, message: 'forbidden: User "system:anonymous" cannot get path "/api"' });
	});

	it('the same token works from outside the Pod while the Pod lives, and not after', () => {
		const cluster = withPod();
		const token = cluster.exec(`kubectl exec box -- cat ${SA}/token`).stdout.trim();
		const whoami = cluster.exec(`curl -sk -X POST -H "Authorization: Bearer ${token}" -H "Content-Type: application/json" -d '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' https://control-plane:6443/apis/authentication.k8s.io/v1/selfsubjectreviews`);
		expect(JSON.parse(whoami.stdout)).toMatchObject({ status: { userInfo: { username: 'system:serviceaccount:default:default' } } });
		// Bound to the Pod: once the Pod is gone, so is the token's validity.
		cluster.exec('kubectl delete pod box --grace-period=0 --force');
		cluster.settle({ maxMs: 30_000 });
		const after = cluster.exec(`curl -sk -H "Authorization: Bearer ${token}" https://control-plane:6443/api`);
		expect(JSON.parse(after.stdout)).toMatchObject({ code: 401, message: 'Unauthorized' });
	});
});

describe('commands inside a Pod', () => {
	it('curl to localhost or the Pod’s own address reaches its own server, past no node rule', () => {
		const cluster = withPod();
		cluster.advance('10s');
		const ip = cluster.exec("kubectl get pod box -o jsonpath='{.status.podIP}'").stdout;
		for (const target of ['localhost', '127.0.0.1:80', ip]) expect(cluster.exec(`kubectl exec box -- curl -s ${target}`).stdout, target).toContain('nginx');
	});

	it('-it in a pipe has no terminal to use: kubectl says so and the shell reads end-of-file', () => {
		const cluster = withPod();
		expect(cluster.exec('kubectl exec -it box -- sh | cat')).toMatchObject({ stdout: '', stderr: 'Unable to use a TTY - input is not a terminal or the right kind of file\n', exitCode: 0 });
		expect(cluster.exec('kubectl exec -it -q box -- sh | cat').stderr).toBe('');
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
	});
});
