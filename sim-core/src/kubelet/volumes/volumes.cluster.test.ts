/**
 * Volumes through the whole cluster (createCluster, kubectl, ssh), as a
 * reader meets them: an nginx pod whose ConfigMap is missing stays in
 * ContainerCreating with counted FailedMount events, starts on its own
 * once the ConfigMap exists, serves it, and carries the kube-api-access
 * files the ServiceAccount admission plugin and the root-CA publisher
 * provide. The kubelet reads the ConfigMap as `system:node:<node>`, which
 * the Node authorizer allows only because a pod bound to that node uses it.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const WEB = `apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: nginx
    image: nginx:1.27
    volumeMounts:
    - name: content
      mountPath: /usr/share/nginx/html
  volumes:
  - name: content
    configMap:
      name: web-content
`;

describe('volumes in a cluster, driven with kubectl', () => {
	it('a missing ConfigMap holds the pod in ContainerCreating until it is created; then the pod serves it', () => {
		const c = createCluster();
		c.writeFile('web.yaml', WEB);
		expect(c.exec('kubectl apply -f web.yaml').stdout).toBe('pod/web created\n');
		c.advance('30s');
		expect(c.exec('kubectl get pod web').stdout).toBe('NAME   READY   STATUS              RESTARTS   AGE\nweb    0/1     ContainerCreating   0          30s\n');
		// Failures at 0, 0.6, 1.7, 3.8, 7.9 and 16.0 s; the last one 14 s ago.
		expect(c.exec('kubectl describe pod web').stdout).toContain('  Warning  FailedMount  14s (x6 over 30s)  kubelet            MountVolume.SetUp failed for volume "content" : configmap "web-content" not found\n');
		expect(c.exec('kubectl create configmap web-content --from-literal=index.html=hello-from-a-configmap').stdout).toBe('configmap/web-content created\n');
		// The back-off after the failure at 16.0 s is 16 s: the next try, on the reconciler's next pass, is at 32.1 s.
		c.advance('2s');
		expect(c.exec('kubectl get pod web').stdout).toContain('ContainerCreating');
		c.advance('8s');
		expect(c.exec('kubectl get pod web').stdout).toContain('1/1     Running');
		expect(c.exec('kubectl exec web -- cat /usr/share/nginx/html/index.html')).toMatchObject({ stdout: 'hello-from-a-configmap\n', exitCode: 0 });
		expect(c.exec('kubectl exec web -- ls /var/run/secrets/kubernetes.io/serviceaccount').stdout).toBe('ca.crt\nnamespace\ntoken\n');
		expect(c.exec('kubectl exec web -- cat /var/run/secrets/kubernetes.io/serviceaccount/namespace').stdout).toBe('default\n');
		expect(c.exec('kubectl exec web -- cat /var/run/secrets/kubernetes.io/serviceaccount/ca.crt').stdout).toContain('-----BEGIN CERTIFICATE-----');
		expect(c.exec('kubectl exec web -- sh -c "echo x > /usr/share/nginx/html/index.html"')).toMatchObject({ stderr: 'sh: 1: cannot create /usr/share/nginx/html/index.html: Read-only file system\ncommand terminated with exit code 2\n', exitCode: 2 });
		const pod = c.get('pods', 'default', 'web');
		const uid = pod?.metadata.uid ?? '';
		const node = (pod?.spec as { nodeName: string }).nodeName;
		expect(c.exec(`ssh ${node} cat /var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~configmap/content/index.html`).stdout).toBe('hello-from-a-configmap');
		// The kubelet's read went through the Node authorizer's graph: the pod on that node uses web-content.
		expect(c.trace().some((e) => e.action === 'authorize' && e.msg?.startsWith(`Node allowed system:node:${node} to get configmaps`))).toBe(true);
	}, 120_000);

	it('a Secret mounted in a pod is the decoded value, and a kubelet may not read a Secret no pod of its node uses', () => {
		const c = createCluster();
		c.exec('kubectl create secret generic db --from-literal=password=s3cr3t');
		c.writeFile('client.yaml', ['apiVersion: v1', 'kind: Pod', 'metadata:', '  name: client', 'spec:', '  nodeName: node-2', '  containers:', '  - name: client', '    image: busybox:1.36', '    command: ["sleep", "3600"]', '    volumeMounts:', '    - name: db', '      mountPath: /etc/db', '  volumes:', '  - name: db', '    secret:', '      secretName: db', ''].join('\n'));
		expect(c.exec('kubectl apply -f client.yaml').stdout).toBe('pod/client created\n');
		c.advance('20s');
		expect(c.exec('kubectl exec client -- cat /etc/db/password').stdout).toBe('s3cr3t\n');
		// node-1 runs no pod that uses the Secret: its kubelet identity is refused.
		const asNode1 = c.exec('ssh node-1 KUBECONFIG=/etc/kubernetes/kubelet.conf kubectl get secret db');
		expect(asNode1.stderr).toBe('Error from server (Forbidden): secrets "db" is forbidden: User "system:node:node-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'node-1\' and this object\n');
	}, 120_000);
});
