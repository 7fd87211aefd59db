import { describe, it, expect } from 'vitest';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { createShopPods, deploymentObject, nodeObject, nodeStatus, podObject, replicaSetObject, serviceObject } from '../../testing/kubectl/scenario.ts';

/**
 * One table line as `kubectl get`'s tabwriter lays it out: every cell but
 * the last padded to its column's width. The widths are worked out by hand
 * in each test: the column's longest cell plus 3, and at least 6.
 */
const row = (widths: number[], ...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');

/** The shop's pods, looked at five minutes after they were created. */
function shop(): KubectlFixture {
	const f = kubectlFixture();
	createShopPods(f);
	f.advance(5 * 60_000);
	return f;
}

describe('kubectl get pods', () => {
	it('prints READY, STATUS, RESTARTS and AGE per pod, in name order', () => {
		// NAME: web-1 (5) + 3 = 8; READY: READY (5) + 3 = 8; STATUS: CrashLoopBackOff (16) + 3 = 19; RESTARTS: 2 (2m ago) (10) + 3 = 13.
		const w = [8, 8, 19, 13];
		expect(shop().kubectl('get pods')).toEqual({
			stdout: lines(
				row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'),
				row(w, 'db-0', '0/1', 'Pending', '0', '5m'),
				row(w, 'web-1', '1/1', 'Running', '0', '5m'),
				row(w, 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m'),
			),
			stderr: '',
			exitCode: 0,
		});
	});

	it('adds IP, NODE, NOMINATED NODE and READINESS GATES with -o wide', () => {
		// AGE: AGE (3) + 3 = 6; IP: 10.244.1.5 (10) + 3 = 13; NODE: worker-1 (8) + 3 = 11; NOMINATED NODE (14) + 3 = 17.
		const w = [8, 8, 19, 13, 6, 13, 11, 17];
		expect(shop().kubectl('get pods -o wide').stdout).toBe(
			lines(
				row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES'),
				row(w, 'db-0', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>'),
				row(w, 'web-1', '1/1', 'Running', '0', '5m', '10.244.1.5', 'worker-1', '<none>', '<none>'),
				row(w, 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m', '10.244.2.7', 'worker-2', '<none>', '<none>'),
			),
		);
	});

	it('puts NAMESPACE first with -A and LABELS last with --show-labels', () => {
		const f = shop();
		f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
		f.create(podObject('etcd-cp-1', { namespace: 'kube-system', labels: { component: 'etcd', tier: 'control-plane' }, image: 'registry.k8s.io/etcd:3.6.10-0' }));
		// NAMESPACE: kube-system (11) + 3 = 14; NAME: etcd-cp-1 (9) + 3 = 12; AGE 6. The kube-system pod was created five minutes after the others.
		const w = [14, 12, 8, 19, 13, 6];
		expect(f.kubectl('get pods -A --show-labels').stdout).toBe(
			lines(
				row(w, 'NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'LABELS'),
				row(w, 'default', 'db-0', '0/1', 'Pending', '0', '5m', 'app=db'),
				row(w, 'default', 'web-1', '1/1', 'Running', '0', '5m', 'app=web,tier=frontend'),
				row(w, 'default', 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m', 'app=web'),
				row(w, 'kube-system', 'etcd-cp-1', '0/1', 'Pending', '0', '0s', 'component=etcd,tier=control-plane'),
			),
		);
	});

	it('adds a column per -L label (named after the key) and leaves missing values empty', () => {
		// APP: APP (3) + 3 = 6; TIER last. An empty last cell still pads the column before it.
		const w = [8, 8, 19, 13, 6, 6];
		expect(shop().kubectl('get pods -L app -L tier').stdout).toBe(
			lines(
				row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'APP', 'TIER'),
				row(w, 'db-0', '0/1', 'Pending', '0', '5m', 'db', ''),
				row(w, 'web-1', '1/1', 'Running', '0', '5m', 'web', 'frontend'),
				row(w, 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m', 'web', ''),
			),
		);
		expect(shop().kubectl('get pods -L app.kubernetes.io/name').stdout.split('\n')[0]).toBe(row([8, 8, 19, 13, 6], 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'NAME'));
	});

	it('drops the header with --no-headers, and sizes columns on the rows alone', () => {
		// NAME: 5 + 3 = 8; READY: 3 + 3 = 6; STATUS: 16 + 3 = 19; RESTARTS: 10 + 3 = 13.
		const w = [8, 6, 19, 13];
		expect(shop().kubectl('get pods --no-headers').stdout).toBe(
			lines(row(w, 'db-0', '0/1', 'Pending', '0', '5m'), row(w, 'web-1', '1/1', 'Running', '0', '5m'), row(w, 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m')),
		);
	});

	it('sorts rows with --sort-by as Go does: objects without the field first, in reverse', () => {
		// Only web-1 has a tier label. Go's insertion sort moves web-2 before web-1, then before db-0 (a missing value is "less").
		const w = [8, 8, 19, 13];
		expect(shop().kubectl('get pods --sort-by=.metadata.labels.tier').stdout).toBe(
			lines(
				row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'),
				row(w, 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m'),
				row(w, 'db-0', '0/1', 'Pending', '0', '5m'),
				row(w, 'web-1', '1/1', 'Running', '0', '5m'),
			),
		);
		expect(shop().kubectl('get pods --sort-by={.spec.containers[0].image}').stdout.split('\n').map((l) => l.split(' ')[0])).toEqual(['NAME', 'web-1', 'web-2', 'db-0', '']);
		expect(shop().kubectl('get pods --sort-by=.metadata.nope')).toEqual({ stdout: '', stderr: 'error: couldn\'t find any field with path "{.metadata.nope}" in the list of objects\n', exitCode: 1 });
	});

	it('filters with -l and --field-selector', () => {
		const w = [8, 8, 19, 13];
		expect(shop().kubectl('get pods -l app=web,tier!=frontend').stdout).toBe(lines(row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'), row(w, 'web-2', '0/1', 'CrashLoopBackOff', '2 (2m ago)', '5m')));
		expect(shop().kubectl('get pods --field-selector spec.nodeName=worker-1').stdout).toBe(lines(row([8, 8, 10, 11], 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'), row([8, 8, 10, 11], 'web-1', '1/1', 'Running', '0', '5m')));
	});

	it('gets named pods, printing what it found and then the errors', () => {
		const w = [8, 8, 10, 11];
		expect(shop().kubectl('get pod web-1 nope')).toEqual({
			stdout: lines(row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'), row(w, 'web-1', '1/1', 'Running', '0', '5m')),
			stderr: 'Error from server (NotFound): pods "nope" not found\n',
			exitCode: 1,
		});
		expect(shop().kubectl('get pod nope')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "nope" not found\n', exitCode: 1 });
		expect(shop().kubectl('get pod nope --ignore-not-found')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
	});

	it('says when nothing was found, on stderr', () => {
		const f = kubectlFixture();
		f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'empty' } });
		expect(f.kubectl('get pods')).toEqual({ stdout: '', stderr: 'No resources found in default namespace.\n', exitCode: 0 });
		expect(f.kubectl('get pods -n empty')).toEqual({ stdout: '', stderr: 'No resources found in empty namespace.\n', exitCode: 0 });
		expect(f.kubectl('get pods -A')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
		expect(f.kubectl('get nodes')).toEqual({ stdout: '', stderr: 'No resources found\n', exitCode: 0 });
		expect(f.kubectl('get pods -o json').stdout).toBe('{\n    "apiVersion": "v1",\n    "items": [],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n');
	});
});

describe('kubectl get, several kinds', () => {
	function workloads(): KubectlFixture {
		const f = kubectlFixture();
		const d = f.create(deploymentObject('web', 3));
		f.setStatus(d, { observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 1 });
		const rs = f.create(replicaSetObject('web', '5d4f8b7c9', 3, d));
		f.setStatus(rs, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
		f.create(serviceObject('web', { selector: { app: 'web' }, clusterIP: '10.96.100.20', ports: [{ port: 80 }] }));
		f.advance(5 * 60_000);
		return f;
	}

	it('prints one table per kind, names prefixed with kind.group, a blank line between', () => {
		// deployment.apps/web (19) + 3 = 22; replicaset.apps/web-5d4f8b7c9 (29) + 3 = 32; widths restart with each table.
		expect(workloads().kubectl('get deploy,rs')).toEqual({
			stdout: lines(
				row([22, 8, 13, 12], 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'),
				row([22, 8, 13, 12], 'deployment.apps/web', '2/3', '3', '2', '5m'),
				'',
				row([32, 10, 10, 8], 'NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'),
				row([32, 10, 10, 8], 'replicaset.apps/web-5d4f8b7c9', '3', '3', '2', '5m'),
			),
			stderr: '',
			exitCode: 0,
		});
	});

	it('lists the `all` category, with the core kinds unqualified', () => {
		const out = workloads().kubectl('get all').stdout;
		expect(out).toBe(
			lines(
				row([14, 12, 15, 14, 10], 'NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'),
				row([14, 12, 15, 14, 10], 'service/web', 'ClusterIP', '10.96.100.20', '<none>', '80/TCP', '5m'),
				'',
				row([22, 8, 13, 12], 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'),
				row([22, 8, 13, 12], 'deployment.apps/web', '2/3', '3', '2', '5m'),
				'',
				row([32, 10, 10, 8], 'NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'),
				row([32, 10, 10, 8], 'replicaset.apps/web-5d4f8b7c9', '3', '3', '2', '5m'),
			),
		);
	});

	it('prefixes names with their kind even when only one kind turned out to have objects', () => {
		// Both types were asked for, so kubectl shows kinds; the empty pod list prints nothing.
		expect(workloads().kubectl('get pods,svc').stdout).toBe(
			lines(row([14, 12, 15, 14, 10], 'NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'), row([14, 12, 15, 14, 10], 'service/web', 'ClusterIP', '10.96.100.20', '<none>', '80/TCP', '5m')),
		);
	});

	it('prints resource/name arguments as their own tables, in argument order', () => {
		expect(workloads().kubectl('get svc/web deploy/web').stdout).toBe(
			lines(
				row([14, 12, 15, 14, 10], 'NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'),
				row([14, 12, 15, 14, 10], 'service/web', 'ClusterIP', '10.96.100.20', '<none>', '80/TCP', '5m'),
				'',
				row([22, 8, 13, 12], 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'),
				row([22, 8, 13, 12], 'deployment.apps/web', '2/3', '3', '2', '5m'),
			),
		);
	});

	it('adds CONTAINERS, IMAGES and SELECTOR to deployments and replicasets with -o wide', () => {
		const f = workloads();
		// NAME: NAME (4) + 3 = 7; AGE 6; CONTAINERS (10) + 3 = 13; IMAGES: nginx:1.25 (10), IMAGES (6) → 13.
		expect(f.kubectl('get deploy -o wide').stdout).toBe(
			lines(row([7, 8, 13, 12, 6, 13, 13], 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'), row([7, 8, 13, 12, 6, 13, 13], 'web', '2/3', '3', '2', '5m', 'nginx', 'nginx:1.25', 'app=web')),
		);
		// The replica set's selector carries its pod-template-hash.
		expect(f.kubectl('get rs -o wide').stdout).toBe(
			lines(
				row([16, 10, 10, 8, 6, 13, 13], 'NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE', 'CONTAINERS', 'IMAGES', 'SELECTOR'),
				row([16, 10, 10, 8, 6, 13, 13], 'web-5d4f8b7c9', '3', '3', '2', '5m', 'nginx', 'nginx:1.25', 'app=web,pod-template-hash=5d4f8b7c9'),
			),
		);
	});
});

describe('kubectl get nodes', () => {
	it('shows Ready, NotReady and SchedulingDisabled, and roles from node-role labels', () => {
		const f = kubectlFixture();
		f.create(nodeObject('cp-1', { labels: { 'node-role.kubernetes.io/control-plane': '' } }));
		f.create(nodeObject('worker-1', { unschedulable: true }));
		f.create(nodeObject('worker-2'));
		f.setStatus(nodeObject('cp-1'), nodeStatus('192.168.56.10', 'True'));
		f.setStatus(nodeObject('worker-1'), nodeStatus('192.168.56.11', 'True'));
		f.setStatus(nodeObject('worker-2'), nodeStatus('192.168.56.12', 'False'));
		f.advance(5 * 60_000);
		// NAME: worker-1 (8) + 3 = 11; STATUS: Ready,SchedulingDisabled (24) + 3 = 27; ROLES: control-plane (13) + 3 = 16; AGE 6.
		const w = [11, 27, 16, 6];
		expect(f.kubectl('get nodes').stdout).toBe(
			lines(
				row(w, 'NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'),
				row(w, 'cp-1', 'Ready', 'control-plane', '5m', 'v1.36.3'),
				row(w, 'worker-1', 'Ready,SchedulingDisabled', '<none>', '5m', 'v1.36.3'),
				row(w, 'worker-2', 'NotReady', '<none>', '5m', 'v1.36.3'),
			),
		);
		// One node: NAME: NAME (4) + 3 = 7; STATUS (6) + 3 = 9; VERSION: v1.36.3 (7) + 3 = 10; INTERNAL-IP: 192.168.56.10 (13) + 3 = 16;
		// EXTERNAL-IP (11) + 3 = 14; OS-IMAGE: Ubuntu 24.04.1 LTS (18) + 3 = 21; KERNEL-VERSION: 6.8.0-45-generic (16) + 3 = 19.
		const ww = [7, 9, 16, 6, 10, 16, 14, 21, 19];
		expect(f.kubectl('get node cp-1 -o wide').stdout).toBe(
			lines(
				row(ww, 'NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION', 'INTERNAL-IP', 'EXTERNAL-IP', 'OS-IMAGE', 'KERNEL-VERSION', 'CONTAINER-RUNTIME'),
				row(ww, 'cp-1', 'Ready', 'control-plane', '5m', 'v1.36.3', '192.168.56.10', '<none>', 'Ubuntu 24.04.1 LTS', '6.8.0-45-generic', 'containerd://2.1.4'),
			),
		);
	});
});
