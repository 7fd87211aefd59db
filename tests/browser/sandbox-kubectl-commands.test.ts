/**
 * kubectl commands a reader copies from kubernetes.io, typed into a
 * sandbox in Chromium: a subcommand's own help, a registry Secret, a
 * change-cause recorded with --record, logs from the last seconds, set
 * env from a ConfigMap read inside the Pod, config set, the cluster
 * dump a bug report asks for, server-side apply with its conflicts, the
 * namespace quota and LimitRange tasks with their own example files, and
 * the API server's proxy, chunked lists and watches from a resourceVersion.
 */
import { describe, expect, it } from 'vitest';
import { run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox();
/** What the reader sees for a command, without the trailing newline. */
const out = async (command: string) => (await run(s.sandbox, command)).trim();

describe('kubectl in the sandbox', () => {
	it("answers a subcommand's --help with its own help, and kubectl options with the global flags", async () => {
		const help = await run(s.sandbox, 'kubectl rollout status --help');
		expect(help).toMatch(/^Show the status of the rollout/);
		expect(help).toContain('kubectl rollout status (TYPE NAME | TYPE/NAME) [flags] [options]');
		expect(await run(s.sandbox, 'kubectl options')).toMatch(/^The following options can be passed to any command:\n\n\s*--as='':/);
	});

	it('creates a registry Secret and records a change-cause that rollout history shows', async () => {
		expect(await out('kubectl create secret docker-registry regcred --docker-server=registry.example.com --docker-username=jane --docker-password=s3cret')).toBe('secret/regcred created');
		expect(await out('kubectl get secret regcred -o jsonpath={.type}')).toBe('kubernetes.io/dockerconfigjson');
		await run(s.sandbox, 'kubectl create deployment shop --image=nginx:1.27');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		const recorded = await run(s.sandbox, 'kubectl set image deployment/shop nginx=nginx:1.29 --record');
		expect(recorded).toContain('Flag --record has been deprecated, --record will be removed in the future');
		expect(recorded).toContain('deployment.apps/shop image updated');
		await run(s.sandbox, 'kubectl rollout status deployment/shop');
		expect(await run(s.sandbox, 'kubectl rollout history deployment/shop')).toMatch(/^2\s+kubectl set image deployment\/shop nginx=nginx:1\.29 --record=true$/m);
	});

	it('reads variables from a ConfigMap into the Pods, and logs from the last seconds only', async () => {
		await run(s.sandbox, 'kubectl create configmap shop-config --from-literal=mode=fast');
		expect(await out('kubectl set env deployment/shop --from=configmap/shop-config')).toBe('deployment.apps/shop env updated');
		await run(s.sandbox, 'kubectl rollout status deployment/shop');
		// Until the old Pod has gone, kubectl exec deploy/shop may pick it (ready for longer, as podutils ranks them).
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => out('kubectl get pods -l app=shop --no-headers')).not.toContain('Terminating');
		expect(await out('kubectl exec deploy/shop -- printenv MODE')).toBe('fast');
		await run(s.sandbox, "kubectl run ticker --image=busybox:1.36 -- sh -c 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 1; done'");
		for (let i = 0; i < 3; i++) await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		const recent = (await run(s.sandbox, 'kubectl logs ticker --since=3s')).split('\n').filter(Boolean);
		expect(recent.length).toBeGreaterThanOrEqual(2);
		expect(recent.length).toBeLessThanOrEqual(4);
		expect(recent.every((line) => /^tick \d+$/.test(line))).toBe(true);
	});

	it('sets a kubeconfig property and dumps the cluster for a bug report', async () => {
		expect(await out('kubectl config set contexts.kubernetes-admin@kubernetes.namespace kube-system')).toBe('Property "contexts.kubernetes-admin@kubernetes.namespace" set.');
		expect(await out('kubectl get deploy coredns -o name')).toBe('deployment.apps/coredns');
		await run(s.sandbox, 'kubectl config unset contexts.kubernetes-admin@kubernetes.namespace');
		expect(await out('kubectl cluster-info dump --output-directory=dump')).toBe('Cluster info dumped to dump');
		expect(await out('grep -c "==== START logs" dump/kube-system/etcd-control-plane/logs.txt')).toBe('1');
	});

	it('server-side applies a file, refuses to undo kubectl scale, and takes the field with --force-conflicts', async () => {
		await run(s.sandbox, 'kubectl create deployment ssa --image=nginx:1.27 --replicas=2 --dry-run=client -o yaml > ssa.yaml');
		expect(await out('kubectl apply --server-side -f ssa.yaml')).toBe('deployment.apps/ssa serverside-applied');
		await run(s.sandbox, 'kubectl scale deployment ssa --replicas=4');
		const refused = await out('kubectl apply --server-side -f ssa.yaml');
		expect(refused).toMatch(/^error: Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps\/v1: \.spec\.replicas\nPlease review the fields above/);
		expect(await out('kubectl get deployment ssa -o jsonpath={.spec.replicas}')).toBe('4');
		expect(await out('kubectl apply --server-side --force-conflicts -f ssa.yaml')).toBe('deployment.apps/ssa serverside-applied');
		expect(await out("kubectl get deployment ssa -o jsonpath='{.spec.replicas} {.metadata.managedFields[0].manager} {.metadata.managedFields[0].operation}'")).toBe('2 kubectl Apply');
		expect(await out('kubectl get deployment ssa -o yaml --show-managed-fields | grep -c "f:replicas"')).toBe('1');
	});

	it('enforces a namespace quota and fills in LimitRange defaults, as the kubernetes.io tasks show', async () => {
		await run(s.sandbox, 'kubectl create namespace quota-mem-cpu-example');
		await run(s.sandbox, 'kubectl apply -f https://k8s.io/examples/admin/resource/quota-mem-cpu.yaml --namespace=quota-mem-cpu-example');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		expect(await out('kubectl apply -f https://k8s.io/examples/admin/resource/quota-mem-cpu-pod.yaml --namespace=quota-mem-cpu-example')).toBe('pod/quota-mem-cpu-demo created');
		expect(await out("kubectl get resourcequota mem-cpu-demo --namespace=quota-mem-cpu-example -o jsonpath='{.status.used.requests\\.memory}'")).toBe('600Mi');
		expect(await out('kubectl apply -f https://k8s.io/examples/admin/resource/quota-mem-cpu-pod-2.yaml --namespace=quota-mem-cpu-example')).toBe(
			'Error from server (Forbidden): error when creating "https://k8s.io/examples/admin/resource/quota-mem-cpu-pod-2.yaml": pods "quota-mem-cpu-demo-2" is forbidden: exceeded quota: mem-cpu-demo, requested: requests.memory=700Mi, used: requests.memory=600Mi, limited: requests.memory=1Gi',
		);
		await run(s.sandbox, 'kubectl create namespace default-mem-example');
		await run(s.sandbox, 'kubectl apply -f https://k8s.io/examples/admin/resource/memory-defaults.yaml --namespace=default-mem-example');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await run(s.sandbox, 'kubectl apply -f https://k8s.io/examples/admin/resource/memory-defaults-pod.yaml --namespace=default-mem-example');
		expect(await out("kubectl get pod default-mem-demo --namespace=default-mem-example -o jsonpath='{.spec.containers[0].resources}'")).toBe('{"limits":{"memory":"512Mi"},"requests":{"memory":"256Mi"}}');
	});

	it('reaches a Pod and a Service through the API server proxy, pages a list, and replays a watch from a resourceVersion', async () => {
		await run(s.sandbox, 'kubectl run web-proxied --image=nginx --port=80 --labels=app=web-proxied');
		await run(s.sandbox, 'kubectl expose pod web-proxied --port=80');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await expect.poll(() => out('kubectl get --raw /api/v1/namespaces/default/pods/web-proxied/proxy/')).toContain('<title>Welcome to nginx!</title>');
		expect(await out('kubectl get --raw /api/v1/namespaces/default/services/web-proxied:80/proxy/')).toContain('<title>Welcome to nginx!</title>');
		expect(await out('kubectl get --raw /api/v1/namespaces/default/services/web-proxied:81/proxy/')).toBe('Error from server (ServiceUnavailable): no service port 81 found for service "web-proxied"');
		const paged = await run(s.sandbox, 'kubectl get pods -A --chunk-size=4 -v=6');
		expect(paged).toContain('/api/v1/pods?limit=4"');
		expect(paged).toMatch(/\/api\/v1\/pods\?continue=[\w-]+&limit=4"/);
		await run(s.sandbox, 'kubectl create configmap watched');
		const rv = await out('kubectl get configmap watched -o jsonpath={.metadata.resourceVersion}');
		await run(s.sandbox, 'kubectl label configmap watched seen=yes');
		await run(s.sandbox, 'kubectl delete configmap watched');
		const events = (await out(`kubectl get --raw '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=${rv}'`)).split('\n').map((line) => JSON.parse(line).type);
		expect(events).toEqual(['MODIFIED', 'DELETED']);
	});
});
