/**
 * The scheduler, the kubelet's admission and kubectl describe count one
 * Pod with a sidecar the same way, because they all use PodRequests. Before
 * they shared it, the kubelet ignored restartable init containers and
 * admitted Pods the scheduler would have turned away.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const WITH_SIDECAR = `apiVersion: v1
kind: Pod
metadata:
  name: app
spec:
  nodeSelector:
    kubernetes.io/hostname: worker
  initContainers:
  - name: log-shipper
    image: busybox:1.36
    command: ['sh', '-c', 'sleep 3600']
    restartPolicy: Always
    resources:
      requests:
        cpu: "1"
  containers:
  - name: web
    image: nginx:1.29
    resources:
      requests:
        cpu: 500m
`;

/** A pod asking for 600m on the worker: by the scheduler (nodeSelector) or bound by hand (nodeName). */
const extra = (name: string, placement: string) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  ${placement}
  containers:
  - name: web
    image: nginx:1.29
    resources:
      requests:
        cpu: 600m
`;

describe('one Pod with a sidecar, counted by every component', () => {
	it('the scheduler, the kubelet and kubectl describe all count 1500m for it', () => {
		const cluster = createCluster({ seed: 11, nodes: [{ name: 'control-plane', cpu: '2', memory: '4Gi', role: 'control-plane' }, { name: 'worker', cpu: '2', memory: '4Gi' }] });
		expect(cluster.exec('kubectl apply -f -', { stdin: WITH_SIDECAR }).exitCode).toBe(0);
		cluster.settle({ maxMs: 60_000 });
		expect(cluster.get('pods', 'default', 'app')?.spec).toMatchObject({ nodeName: 'worker' });

		// kubectl describe: the Pod's row and the node's total (CoreDNS's replicas and flannel's Pod there ask 100m each).
		const describe = cluster.exec('kubectl describe node worker').stdout;
		expect(describe).toMatch(/default\s+app\s+1500m \(75%\)/);
		const onWorker = (ns: string, label: string, value: string) => cluster.list('pods', ns).filter((p) => p.metadata.labels?.[label] === value && (p.spec as { nodeName?: string }).nodeName === 'worker').length;
		const systemMilli = 100 * (onWorker('kube-system', 'k8s-app', 'kube-dns') + onWorker('kube-flannel', 'app', 'flannel'));
		expect(describe).toContain(`cpu                ${1500 + systemMilli}m (${Math.floor(((1500 + systemMilli) / 2000) * 100)}%)`);

		// The scheduler: 600m more does not fit beside it.
		cluster.exec('kubectl apply -f -', { stdin: extra('scheduled', 'nodeSelector:\n    kubernetes.io/hostname: worker') });
		cluster.advance('5s');
		expect(cluster.exec('kubectl get events --field-selector involvedObject.name=scheduled -o jsonpath={.items[*].message}').stdout).toMatch(/0\/2 nodes are available: .*1 Insufficient cpu/);

		// The kubelet: bound by hand past the scheduler, the same 600m is turned away at admission.
		cluster.exec('kubectl apply -f -', { stdin: extra('bound', 'nodeName: worker') });
		cluster.advance('5s');
		const bound = cluster.get('pods', 'default', 'bound');
		expect(bound?.status).toMatchObject({ phase: 'Failed', reason: 'OutOfcpu' });
		expect((bound?.status as { message?: string }).message).toContain(`requested: 600, used: ${1500 + systemMilli}, capacity: 2000`);
	});
});
