/**
 * RuntimeClass admission through the whole cluster, as the Conformance
 * suite checks it (test/e2e/common/node/runtimeclass.go, v1.36): a Pod
 * naming a missing (or deleted) RuntimeClass is refused, one naming a
 * class with an overhead gets it, and the class's scheduling constraints
 * reach the Pod. The classes use containerd's preconfigured `runc` handler.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const pod = (name: string, runtimeClass: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  runtimeClassName: ${runtimeClass}
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.10
`;

describe('[sig-node] RuntimeClass [Conformance]', () => {
	it('should reject a Pod requesting a non-existent RuntimeClass', () => {
		const c = createCluster({ seed: 1 });
		c.writeFile('pod.yaml', pod('test-pod', 'runtimeclass-does-not-exist'));
		expect(c.exec('kubectl apply -f pod.yaml').stderr).toBe('Error from server (Forbidden): error when creating "pod.yaml": pods "test-pod" is forbidden: pod rejected: RuntimeClass "runtimeclass-does-not-exist" not found\n');
	});

	it('should reject a Pod requesting a deleted RuntimeClass', () => {
		const c = createCluster({ seed: 2 });
		c.writeFile('rc.yaml', 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: to-delete\nhandler: runc\n');
		c.exec('kubectl apply -f rc.yaml');
		c.exec('kubectl delete runtimeclass to-delete');
		c.writeFile('pod.yaml', pod('test-pod', 'to-delete'));
		expect(c.exec('kubectl apply -f pod.yaml').stderr).toContain('pods "test-pod" is forbidden: pod rejected: RuntimeClass "to-delete" not found');
	});

	it('should schedule a Pod requesting a RuntimeClass without PodOverhead', () => {
		const c = createCluster({ seed: 3 });
		c.writeFile('rc.yaml', 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: plain\nhandler: runc\n');
		c.exec('kubectl apply -f rc.yaml');
		c.writeFile('pod.yaml', pod('test-pod', 'plain'));
		expect(c.exec('kubectl apply -f pod.yaml').exitCode).toBe(0);
		expect(c.exec('kubectl wait --for=condition=Ready pod/test-pod --timeout=60s').exitCode).toBe(0);
		expect(c.exec('kubectl get pod test-pod -o jsonpath={.spec.overhead}').stdout).toBe('');
	});

	it('should schedule a Pod requesting a RuntimeClass and initialize its Overhead', () => {
		const c = createCluster({ seed: 4 });
		c.writeFile('rc.yaml', 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: with-overhead\nhandler: runc\noverhead:\n  podFixed:\n    cpu: 10m\n    memory: 1Mi\n');
		c.exec('kubectl apply -f rc.yaml');
		c.writeFile('pod.yaml', pod('test-pod', 'with-overhead'));
		c.exec('kubectl apply -f pod.yaml');
		expect(JSON.parse(c.exec('kubectl get pod test-pod -o jsonpath={.spec.overhead}').stdout)).toEqual({ cpu: '10m', memory: '1Mi' });
		expect(c.exec('kubectl wait --for=condition=Ready pod/test-pod --timeout=60s').exitCode).toBe(0);
	});
});

describe('RuntimeClass scheduling and overhead checks', () => {
	it("merges the class's node selector and tolerations into the Pod, and refuses a conflicting selector or overhead", () => {
		const c = createCluster({ seed: 5 });
		c.writeFile('rc.yaml', `apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata:
  name: sandboxed
handler: runc
overhead:
  podFixed: {cpu: 250m}
scheduling:
  nodeSelector: {kubernetes.io/hostname: node-2}
  tolerations:
  - {key: sandbox, operator: Exists, effect: NoSchedule}
`);
		c.exec('kubectl apply -f rc.yaml');
		c.writeFile('pod.yaml', pod('merged', 'sandboxed'));
		c.exec('kubectl apply -f pod.yaml');
		expect(c.exec("kubectl get pod merged -o jsonpath='{.spec.nodeSelector}'").stdout).toBe('{"kubernetes.io/hostname":"node-2"}');
		// After the two DefaultTolerationSeconds added (that plugin runs first).
		expect(c.exec("kubectl get pod merged -o jsonpath='{.spec.tolerations[*].key}'").stdout).toBe('node.kubernetes.io/not-ready node.kubernetes.io/unreachable sandbox');
		c.advance('10s');
		expect(c.exec('kubectl get pod merged -o jsonpath={.spec.nodeName}').stdout).toBe('node-2');

		c.writeFile('conflict.yaml', pod('conflict', 'sandboxed').replace('spec:\n', 'spec:\n  nodeSelector: {kubernetes.io/hostname: node-1}\n'));
		expect(c.exec('kubectl apply -f conflict.yaml').stderr).toContain('pods "conflict" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[kubernetes.io/hostname] = node-2; pod.spec.nodeSelector[kubernetes.io/hostname] = node-1');
		c.writeFile('overhead.yaml', pod('overhead', 'sandboxed').replace('spec:\n', 'spec:\n  overhead: {cpu: 1}\n'));
		expect(c.exec('kubectl apply -f overhead.yaml').stderr).toContain(`pods "overhead" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead`);
		c.writeFile('bare.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bare\nspec:\n  overhead: {cpu: 1}\n  containers:\n  - name: pause\n    image: registry.k8s.io/pause:3.10\n');
		expect(c.exec('kubectl apply -f bare.yaml').stderr).toContain('pods "bare" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
	});
});

describe('the RuntimeClass handler on the node', () => {
	it('runs a Pod whose handler containerd has (runc), and leaves one whose handler it lacks in ContainerCreating with the runtime\'s error, retried every 10 s', () => {
		const c = createCluster({ seed: 6 });
		// The kubernetes.io RuntimeClass page's example: a handler nobody configured on this kubeadm node.
		c.writeFile('rc.yaml', 'apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: myclass\nhandler: myconfiguration\n---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata:\n  name: plain\nhandler: runc\n');
		c.exec('kubectl apply -f rc.yaml');
		c.writeFile('pods.yaml', `${pod('mypod', 'myclass')}---\n${pod('plain', 'plain')}`);
		c.exec('kubectl apply -f pods.yaml');
		c.advance('31s');
		expect(c.exec('kubectl get pod plain -o jsonpath={.status.phase}').stdout).toBe('Running');
		expect(c.exec("kubectl get pod mypod -o jsonpath='{.status.phase} {.status.containerStatuses[0].state.waiting.reason}'").stdout).toBe('Pending ContainerCreating');
		const failures = c.exec("kubectl get events --field-selector involvedObject.name=mypod,reason=FailedCreatePodSandBox -o jsonpath='{range .items[*]}{.message}{\"\\n\"}{end}'").stdout.trim().split('\n');
		expect(failures.length).toBeGreaterThanOrEqual(3);
		for (const message of failures) expect(message).toMatch(/^Failed to create pod sandbox: rpc error: code = Unknown desc = unable to get OCI runtime for sandbox "[0-9a-f]{64}": no runtime for "myconfiguration" is configured$/);
		// A RuntimeClass deleted after admission: the kubelet cannot find the handler at all.
		c.exec('kubectl delete runtimeclass myclass');
		c.advance('11s');
		expect(c.exec('kubectl describe pod mypod').stdout).toContain('Failed to create pod sandbox: runtimeclass.node.k8s.io "myclass" not found');
	});
});
