/**
 * kubernetes.io's task "Configure a Pod to Use a PersistentVolume for
 * Storage" (tasks/configure-pod-container/configure-persistent-volume-storage),
 * replayed with the page's manifests by URL and its commands: a file on
 * the node, a hostPath PersistentVolume, a claim the PV controller binds
 * to it, a Pod that mounts the claim and serves the file. The page wants a
 * one-node cluster; this one has two workers, so the file is written on
 * both (the Pod may land on either). Then what a cluster does around it:
 * the Pod waits while its claim is missing or unbound, a claim with no
 * class and no volume says so, the protection finalizers hold a claim in
 * use, Retain leaves the volume Released, and a WaitForFirstConsumer
 * class binds a local volume on the node the scheduler picks.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

const row = (text: string, name: string) => text.split('\n').find((l) => l.startsWith(`${name} `)) ?? '';

describe('Configure a Pod to use a PersistentVolume, step by step', () => {
	const cluster = new Cluster({ seed: 11 });

	beforeAll(() => {
		cluster.settle({ maxMs: 120_000 });
	});

	it('writes index.html on the nodes', () => {
		for (const node of ['node-1', 'node-2']) {
			run(cluster, `ssh ${node} sudo mkdir /mnt/data`);
			run(cluster, `ssh ${node} "sudo sh -c \\"echo 'Hello from Kubernetes storage' > /mnt/data/index.html\\""`);
			expect(run(cluster, `ssh ${node} cat /mnt/data/index.html`).stdout).toBe('Hello from Kubernetes storage\n');
		}
	});

	it('creates the PersistentVolume: Available, not bound to any claim', () => {
		expect(run(cluster, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-volume.yaml').stdout).toBe('persistentvolume/task-pv-volume created\n');
		cluster.settle({ maxMs: 10_000 });
		const table = run(cluster, 'kubectl get pv task-pv-volume').stdout;
		expect(table.split('\n')[0]).toMatch(/^NAME\s+CAPACITY\s+ACCESS MODES\s+RECLAIM POLICY\s+STATUS\s+CLAIM\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+REASON\s+AGE$/);
		expect(row(table, 'task-pv-volume')).toMatch(/^task-pv-volume\s+10Gi\s+RWO\s+Retain\s+Available\s+manual\s+<unset>\s+\d+s$/);
	});

	it('creates the claim; the control plane binds it to the volume', () => {
		run(cluster, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-claim.yaml');
		cluster.settle({ maxMs: 10_000 });
		expect(row(run(cluster, 'kubectl get pv task-pv-volume').stdout, 'task-pv-volume')).toMatch(/\sBound\s+default\/task-pv-claim\s+manual\s/);
		expect(row(run(cluster, 'kubectl get pvc task-pv-claim').stdout, 'task-pv-claim')).toMatch(/^task-pv-claim\s+Bound\s+task-pv-volume\s+10Gi\s+RWO\s+manual\s+<unset>\s+\d+s$/);
		const claim = run(cluster, 'kubectl describe pvc task-pv-claim').stdout;
		expect(claim).toContain('Annotations:   pv.kubernetes.io/bind-completed: yes\n               pv.kubernetes.io/bound-by-controller: yes\nFinalizers:    [kubernetes.io/pvc-protection]\nCapacity:      10Gi\nAccess Modes:  RWO\nVolumeMode:    Filesystem\nUsed By:       <none>\n');
		expect(run(cluster, 'kubectl describe pv task-pv-volume').stdout).toContain('Source:\n    Type:          HostPath (bare host directory volume)\n    Path:          /mnt/data\n');
	});

	it('starts a Pod that mounts the claim; nginx serves the file from the node', () => {
		run(cluster, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-pod.yaml');
		cluster.settle({ maxMs: 60_000 });
		expect(row(run(cluster, 'kubectl get pod task-pv-pod').stdout, 'task-pv-pod')).toMatch(/^task-pv-pod\s+1\/1\s+Running\s/);
		run(cluster, 'sleep 2'); // nginx's workers start listening a moment after the container starts
		expect(run(cluster, 'kubectl exec task-pv-pod -- curl -s http://localhost/').stdout).toBe('Hello from Kubernetes storage\n');
		expect(run(cluster, 'kubectl describe pvc task-pv-claim').stdout).toMatch(/^Used By:\s+task-pv-pod$/m);
	});

	it('keeps a claim in use Terminating until its Pod goes; Retain then leaves the volume Released', () => {
		run(cluster, 'kubectl delete pvc task-pv-claim --wait=false');
		cluster.settle({ maxMs: 10_000 });
		expect(row(run(cluster, 'kubectl get pvc').stdout, 'task-pv-claim')).toMatch(/^task-pv-claim\s+Terminating\s/);
		run(cluster, 'kubectl delete pod task-pv-pod');
		cluster.settle({ maxMs: 30_000 });
		expect(cluster.exec('kubectl get pvc task-pv-claim').stderr).toBe('Error from server (NotFound): persistentvolumeclaims "task-pv-claim" not found\n');
		expect(row(run(cluster, 'kubectl get pv').stdout, 'task-pv-volume')).toMatch(/\sRetain\s+Released\s+default\/task-pv-claim\s/);
		// The data stays on the node, as Retain promises.
		expect(run(cluster, 'ssh node-1 cat /mnt/data/index.html').stdout).toBe('Hello from Kubernetes storage\n');
		run(cluster, 'kubectl delete pv task-pv-volume');
		expect(cluster.exec('kubectl get pv').stderr).toBe('No resources found\n');
	});
});

describe('what a claim waits for, and says', () => {
	const cluster = new Cluster({ seed: 12 });

	beforeAll(() => {
		cluster.settle({ maxMs: 120_000 });
	});

	it('keeps a Pod Pending while its claim is missing, then unbound', () => {
		run(cluster, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-pod.yaml');
		cluster.settle({ maxMs: 10_000 });
		const events = () => run(cluster, 'kubectl get events --field-selector involvedObject.name=task-pv-pod,reason=FailedScheduling -o jsonpath={.items[*].message}').stdout;
		expect(events()).toContain('0/3 nodes are available: persistentvolumeclaim "task-pv-claim" not found. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
		run(cluster, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-claim.yaml');
		cluster.settle({ maxMs: 10_000 });
		expect(events()).toContain('0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
		expect(row(run(cluster, 'kubectl get pod task-pv-pod').stdout, 'task-pv-pod')).toMatch(/^task-pv-pod\s+0\/1\s+Pending\s/);
		// The claim names a class this cluster does not have, and no volume matches it yet.
		expect(run(cluster, 'kubectl describe pvc task-pv-claim').stdout).toMatch(/Warning\s+ProvisioningFailed\s+.*persistentvolume-controller\s+storageclass\.storage\.k8s\.io "manual" not found\n$/);
		// A matching volume appears: the claim binds and the Pod is scheduled.
		run(cluster, 'ssh node-1 sudo mkdir -p /mnt/data; ssh node-2 sudo mkdir -p /mnt/data');
		run(cluster, 'kubectl apply -f https://k8s.io/examples/pods/storage/pv-volume.yaml');
		// The PV controller looks at a waiting claim again on its 15 s pass; then the scheduler places the Pod.
		run(cluster, 'sleep 20');
		expect(row(run(cluster, 'kubectl get pod task-pv-pod').stdout, 'task-pv-pod')).toMatch(/^task-pv-pod\s+1\/1\s+Running\s/);
	});

	it('says a claim with no class has no volume and no storage class, on every pass of the PV controller', () => {
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: bare\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\nEOF');
		run(cluster, 'sleep 31');
		const described = run(cluster, 'kubectl describe pvc bare').stdout;
		expect(described).toMatch(/^Status:\s+Pending$/m);
		expect(described).toMatch(/Normal\s+FailedBinding\s+\d+s \(x3 over \d+s\)\s+persistentvolume-controller\s+no persistent volumes available for this claim and no storage class is set\n$/);
	});

	it('binds the smallest volume that satisfies the claim, and only one whose labels its selector matches', () => {
		const pv = (name: string, size: string, labels: string) => `kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: ${name}\n  labels: {${labels}}\nspec:\n  capacity:\n    storage: ${size}\n  accessModes: [ReadWriteOnce]\n  storageClassName: slow\n  hostPath:\n    path: /tmp/${name}\nEOF`;
		run(cluster, pv('big', '100Gi', 'tier: gold'));
		run(cluster, pv('small', '5Gi', 'tier: bronze'));
		run(cluster, pv('medium', '20Gi', 'tier: gold'));
		const claim = (name: string, selector: string) => `kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: ${name}\nspec:\n  storageClassName: slow\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 2Gi\n${selector}EOF`;
		run(cluster, claim('any', ''));
		run(cluster, claim('gold', '  selector:\n    matchLabels:\n      tier: gold\n'));
		cluster.settle({ maxMs: 10_000 });
		expect(run(cluster, "kubectl get pvc any gold -o jsonpath='{.items[*].spec.volumeName}'").stdout).toBe('small medium');
	});

	it('gives a claim that names no class the default StorageClass (DefaultStorageClass admission), and describes the class', () => {
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n  annotations:\n    storageclass.kubernetes.io/is-default-class: "true"\nprovisioner: example.com/nfs\nEOF');
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: defaulted\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\nEOF');
		// An explicit "" asks for no class at all, and keeps it.
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: classless\nspec:\n  storageClassName: ""\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\nEOF');
		expect(run(cluster, "kubectl get pvc defaulted classless -o jsonpath='{.items[*].spec.storageClassName}'").stdout).toBe('standard ');
		cluster.settle({ maxMs: 10_000 });
		// Its provisioner is not running here: the claim waits for it, as on a cluster without that driver.
		expect(run(cluster, 'kubectl describe pvc defaulted').stdout).toMatch(/Normal\s+ExternalProvisioning\s+.*Waiting for a volume to be created either by the external provisioner 'example\.com\/nfs' or manually by the system administrator\./);
		expect(run(cluster, 'kubectl describe sc standard').stdout).toBe(
			'Name:                  standard\nIsDefaultClass:        Yes\nAnnotations:           storageclass.kubernetes.io/is-default-class=true\nProvisioner:           example.com/nfs\nParameters:            <none>\nAllowVolumeExpansion:  <unset>\nMountOptions:          <none>\nReclaimPolicy:         Delete\nVolumeBindingMode:     Immediate\nEvents:                <none>\n',
		);
		run(cluster, 'kubectl delete pvc defaulted classless; kubectl delete sc standard');
		// A claim made while there was no default gets one as soon as a default appears (the PV controller's retroactive assignment).
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: early\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\nEOF');
		expect(run(cluster, "kubectl get pvc early -o jsonpath='{.spec.storageClassName}'").stdout).toBe('');
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: late\n  annotations:\n    storageclass.kubernetes.io/is-default-class: "true"\nprovisioner: example.com/nfs\nEOF');
		run(cluster, 'sleep 16');
		expect(run(cluster, "kubectl get pvc early -o jsonpath='{.spec.storageClassName}'").stdout).toBe('late');
		run(cluster, 'kubectl delete pvc early; kubectl delete sc late');
	});

	it('binds a WaitForFirstConsumer claim to a local volume on the node the scheduler picks', () => {
		run(cluster, 'ssh node-2 sudo mkdir -p /mnt/disks/ssd1');
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: local-storage\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\nEOF');
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: local-pv\nspec:\n  capacity:\n    storage: 50Gi\n  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: Retain\n  storageClassName: local-storage\n  local:\n    path: /mnt/disks/ssd1\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - key: kubernetes.io/hostname\n          operator: In\n          values: [node-2]\nEOF');
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: fast\nspec:\n  storageClassName: local-storage\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 10Gi\nEOF');
		cluster.settle({ maxMs: 20_000 });
		// No consumer yet: the claim waits, and says why.
		expect(row(run(cluster, 'kubectl get pvc fast').stdout, 'fast')).toMatch(/^fast\s+Pending\s/);
		expect(run(cluster, 'kubectl describe pvc fast').stdout).toMatch(/Normal\s+WaitForFirstConsumer\s+.*waiting for first consumer to be created before binding\n$/);
		run(cluster, 'kubectl create -f - <<EOF\napiVersion: v1\nkind: Pod\nmetadata:\n  name: writer\nspec:\n  volumes:\n  - name: d\n    persistentVolumeClaim:\n      claimName: fast\n  containers:\n  - name: writer\n    image: busybox:1.36\n    command: [sh, -c, "echo written > /data/out; sleep 3600"]\n    volumeMounts:\n    - name: d\n      mountPath: /data\nEOF');
		run(cluster, 'sleep 20');
		expect(run(cluster, "kubectl get pod writer -o jsonpath='{.spec.nodeName} {.status.phase}'").stdout).toBe('node-2 Running');
		expect(run(cluster, "kubectl get pvc fast -o jsonpath='{.status.phase} {.spec.volumeName}'").stdout).toBe('Bound local-pv');
		expect(run(cluster, 'ssh node-2 cat /mnt/disks/ssd1/out').stdout).toBe('written\n');
		expect(run(cluster, 'kubectl describe pv local-pv').stdout).toContain('Node Affinity:     \n  Required Terms:  \n    Term 0:        kubernetes.io/hostname in [node-2]\n');
	});
});
