import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { at, deploymentObject, nodeObject, nodeStatus, podObject, replicaSetObject, runningStatus, serviceObject } from '../../testing/kubectl/scenario.ts';

/**
 * A line of `kubectl describe` as its tabwriter (minwidth 0, padding 2)
 * lays it out: each cell but the last padded to its column's width. The
 * widths are worked out by hand per block of consecutive tabbed lines:
 * the longest cell of the block's column plus 2.
 */
const row = (widths: number[], ...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');
const kv = (width: number, key: string, value: string) => key.padEnd(width) + value;

const IMAGE_ID = 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31';

/** An event as a component records it. */
function event(f: KubectlFixture, name: string, involved: KubeObject, fields: { reason: string; message: string; type?: string; component: string; host?: string; fieldPath?: string; first: string; last?: string; count?: number }): void {
	f.create({
		apiVersion: 'v1',
		kind: 'Event',
		metadata: { name, namespace: involved.metadata.namespace ?? 'default' },
		involvedObject: { kind: involved.kind, namespace: involved.metadata.namespace, name: involved.metadata.name, uid: involved.metadata.uid, apiVersion: involved.apiVersion, ...(fields.fieldPath ? { fieldPath: fields.fieldPath } : {}) },
		reason: fields.reason,
		message: fields.message,
		type: fields.type ?? 'Normal',
		source: fields.host ? { component: fields.component, host: fields.host } : { component: fields.component },
		firstTimestamp: fields.first,
		lastTimestamp: fields.last ?? fields.first,
		count: fields.count ?? 1,
	});
}

/** web-1 running on worker-1 with the four events a healthy start records, looked at 08:05. */
function runningPod(): KubectlFixture {
	const f = kubectlFixture();
	const pod = f.create(podObject('web-1', { labels: { app: 'web', tier: 'frontend' }, node: 'worker-1' }));
	f.setStatus(pod, runningStatus('10.244.1.5', '192.168.56.11'));
	event(f, 'web-1.0001', pod, { reason: 'Scheduled', message: 'Successfully assigned default/web-1 to worker-1', component: 'default-scheduler', first: at(0, 1) });
	const kubelet = { component: 'kubelet', host: 'worker-1', fieldPath: 'spec.containers{main}' };
	event(f, 'web-1.0002', pod, { ...kubelet, reason: 'Pulled', message: 'Container image "nginx:1.25" already present on machine and can be accessed by the pod', first: at(0, 3) });
	event(f, 'web-1.0003', pod, { ...kubelet, reason: 'Created', message: 'Container created', first: at(0, 4) });
	event(f, 'web-1.0004', pod, { ...kubelet, reason: 'Started', message: 'Container started', first: at(0, 5) });
	f.advance(5 * 60_000);
	return f;
}

/** The describe text of web-1 without its Events section. */
function podBody(): string[] {
	// Header block, up to IP: the longest key is "Annotations:" (12) + 2 = 14.
	const h = 14;
	// Container block: "    Restart Count:" (18) + 2 = 20.
	const c = 20;
	// Conditions and what follows them: "  PodReadyToStartContainers " (28) + 2 = 30.
	const t = 30;
	return [
		kv(h, 'Name:', 'web-1'),
		kv(h, 'Namespace:', 'default'),
		kv(h, 'Node:', 'worker-1/192.168.56.11'),
		kv(h, 'Start Time:', 'Mon, 30 Nov 2026 08:00:01 +0000'),
		kv(h, 'Labels:', 'app=web'),
		kv(h, '', 'tier=frontend'),
		kv(h, 'Annotations:', '<none>'),
		kv(h, 'Status:', 'Running'),
		kv(h, 'IP:', '10.244.1.5'),
		'IPs:',
		kv(7, '  IP:', '10.244.1.5'),
		'Containers:',
		'  main:',
		kv(c, '    Container ID:', 'containerd://main0000aaaabbbbccccdddd'),
		kv(c, '    Image:', 'nginx:1.25'),
		kv(c, '    Image ID:', IMAGE_ID),
		kv(c, '    Port:', '<none>'),
		kv(c, '    Host Port:', '<none>'),
		kv(c, '    State:', 'Running'),
		kv(c, '      Started:', 'Mon, 30 Nov 2026 08:00:05 +0000'),
		kv(c, '    Ready:', 'True'),
		kv(c, '    Restart Count:', '0'),
		kv(c, '    Environment:', '<none>'),
		kv(c, '    Mounts:', '<none>'),
		'Conditions:',
		kv(t, '  Type', 'Status'),
		kv(t, '  PodReadyToStartContainers ', 'True '),
		kv(t, '  Initialized ', 'True '),
		kv(t, '  Ready ', 'True '),
		kv(t, '  ContainersReady ', 'True '),
		kv(t, '  PodScheduled ', 'True '),
		kv(t, 'Volumes:', '<none>'),
		kv(t, 'QoS Class:', 'BestEffort'),
		kv(t, 'Node-Selectors:', '<none>'),
		kv(t, 'Tolerations:', '<none>'),
	];
}

describe('kubectl describe pod', () => {
	it('describes a running pod, its containers, conditions and events (v1.35+ fieldPath prefixes)', () => {
		// Events table: Type "  Normal" (8) + 2 = 10; Reason: Scheduled (9) + 2 = 11; Age: 4m59s (5) + 2 = 7; From: default-scheduler (17) + 2 = 19.
		const e = [10, 11, 7, 19];
		expect(runningPod().kubectl('describe pod web-1')).toEqual({
			stdout: lines(
				...podBody(),
				'Events:',
				row(e, '  Type', 'Reason', 'Age', 'From', 'Message'),
				row(e, '  ----', '------', '----', '----', '-------'),
				row(e, '  Normal', 'Scheduled', '4m59s', 'default-scheduler', 'Successfully assigned default/web-1 to worker-1'),
				row(e, '  Normal', 'Pulled', '4m57s', 'kubelet', 'spec.containers{main}: Container image "nginx:1.25" already present on machine and can be accessed by the pod'),
				row(e, '  Normal', 'Created', '4m56s', 'kubelet', 'spec.containers{main}: Container created'),
				row(e, '  Normal', 'Started', '4m55s', 'kubelet', 'spec.containers{main}: Container started'),
			),
			stderr: '',
			exitCode: 0,
		});
	});

	it('prints `Events:  <none>` in the last block when there are none', () => {
		const f = runningPod();
		f.create(podObject('lonely'));
		const out = f.kubectl('describe pod lonely').stdout.split('\n');
		// Without conditions the container's block runs on to Events: its longest key is "    Environment:" (16) + 2 = 18.
		expect(out.slice(-8)).toEqual([kv(18, '    Environment:', '<none>'), kv(18, '    Mounts:', '<none>'), kv(18, 'Volumes:', '<none>'), kv(18, 'QoS Class:', 'BestEffort'), kv(18, 'Node-Selectors:', '<none>'), kv(18, 'Tolerations:', '<none>'), kv(18, 'Events:', '<none>'), '']);
	});

	it('shows `(x3 over 2m)` for repeated events, and the reporting controller when there is no source', () => {
		const f = kubectlFixture();
		const pod = f.create(podObject('web-2'));
		event(f, 'web-2.0001', pod, { reason: 'BackOff', type: 'Warning', message: 'Back-off restarting failed container main in pod web-2_default(uid)', component: 'kubelet', fieldPath: 'spec.containers{main}', first: at(1), last: at(3), count: 3 });
		f.create({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'web-2.0002', namespace: 'default' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-2', uid: pod.metadata.uid }, reason: 'Killing', message: 'Stopping container main', type: 'Normal', source: {}, reportingComponent: 'kubelet', firstTimestamp: at(4), lastTimestamp: at(4), count: 1 });
		f.advance(5 * 60_000);
		const out = f.kubectl('describe pod web-2').stdout.split('\n');
		// Type: "  Warning" (9) + 2 = 11; Reason: BackOff (7) + 2 = 9; Age: "2m (x3 over 4m)" (15) + 2 = 17; From: kubelet (7) + 2 = 9.
		const e = [11, 9, 17, 9];
		expect(out.slice(-5)).toEqual([
			row(e, '  Type', 'Reason', 'Age', 'From', 'Message'),
			row(e, '  ----', '------', '----', '----', '-------'),
			row(e, '  Warning', 'BackOff', '2m (x3 over 4m)', 'kubelet', 'spec.containers{main}: Back-off restarting failed container main in pod web-2_default(uid)'),
			row(e, '  Normal', 'Killing', '60s', 'kubelet', 'Stopping container main'),
			'',
		]);
	});

	it('describes each pod of a list, separated by two blank lines, without events', () => {
		const f = runningPod();
		f.create(podObject('web-2', { labels: { app: 'web' } }));
		const out = f.kubectl('describe pods -l app=web').stdout;
		const [first, second] = out.split('\n\n\n');
		expect(first.split('\n')).toEqual(podBody());
		expect(second.split('\n').slice(0, 2)).toEqual([kv(14, 'Name:', 'web-2'), kv(14, 'Namespace:', 'default')]);
		expect(out).not.toContain('Events:');
	});

	it('falls back to the pods whose name starts with the argument', () => {
		const f = runningPod();
		const out = f.kubectl('describe pod web');
		expect(out.stdout).toBe(lines(...podBody(), ''));
		expect(out.exitCode).toBe(0);
		expect(f.kubectl('describe pod zzz')).toEqual({ stdout: '', stderr: 'Error from server (NotFound): pods "zzz" not found\n', exitCode: 1 });
	});

	it('describes a terminating pod with its grace period, counting from the end of the grace period', () => {
		const f = runningPod();
		f.harness.client('kubectl').delete({ group: '', version: 'v1', resource: 'pods' }, 'default', 'web-1');
		// deletionTimestamp is when the grace period ends, so while it runs the age is negative: <invalid>.
		f.advance(10_000);
		// "Termination Grace Period:" (25) + 2 = 27.
		expect(f.kubectl('describe pod web-1').stdout.split('\n').slice(7, 9)).toEqual([kv(27, 'Status:', 'Terminating (lasts <invalid>)'), kv(27, 'Termination Grace Period:', '30s')]);
		f.advance(30_000);
		expect(f.kubectl('describe pod web-1').stdout.split('\n')[7]).toBe(kv(27, 'Status:', 'Terminating (lasts 10s)'));
	});
});

describe('kubectl describe pod, as admission leaves it', () => {
	it('shows the priority, service account, token volume and default tolerations', () => {
		const f = kubectlFixture({ admission: true });
		const pod = f.create(podObject('web'));
		const volume = String((pod.spec as { volumes: Array<{ name: string }> }).volumes[0].name);
		// Header: "Service Account:" (16) + 2 = 18; container: "    Environment:" (16) + 2 = 18;
		// volumes through Events: "    TokenExpirationSeconds:" (27) + 2 = 29.
		const v = 29;
		expect(f.kubectl('describe pod web').stdout).toBe(
			lines(
				kv(18, 'Name:', 'web'),
				kv(18, 'Namespace:', 'default'),
				kv(18, 'Priority:', '0'),
				kv(18, 'Service Account:', 'default'),
				kv(18, 'Node:', '<none>'),
				kv(18, 'Labels:', '<none>'),
				kv(18, 'Annotations:', '<none>'),
				kv(18, 'Status:', 'Pending'),
				kv(18, 'IP:', ''),
				kv(18, 'IPs:', '<none>'),
				'Containers:',
				'  main:',
				kv(18, '    Image:', 'nginx:1.25'),
				kv(18, '    Port:', '<none>'),
				kv(18, '    Host Port:', '<none>'),
				kv(18, '    Environment:', '<none>'),
				'    Mounts:',
				`      /var/run/secrets/kubernetes.io/serviceaccount from ${volume} (ro)`,
				'Volumes:',
				`  ${volume}:`,
				kv(v, '    Type:', 'Projected (a volume that contains injected data from multiple sources)'),
				kv(v, '    TokenExpirationSeconds:', '3607'),
				kv(v, '    ConfigMapName:', 'kube-root-ca.crt'),
				kv(v, '    Optional:', 'false'),
				kv(v, '    DownwardAPI:', 'true'),
				kv(v, 'QoS Class:', 'BestEffort'),
				kv(v, 'Node-Selectors:', '<none>'),
				kv(v, 'Tolerations:', 'node.kubernetes.io/not-ready:NoExecute op=Exists for 300s'),
				kv(v, '', 'node.kubernetes.io/unreachable:NoExecute op=Exists for 300s'),
				kv(v, 'Events:', '<none>'),
			),
		);
	});
});

describe('kubectl describe node', () => {
	it('shows the lease, conditions, addresses, resources, system info and the pods with their share of allocatable', () => {
		const f = kubectlFixture();
		f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
		f.create(nodeObject('worker-1', { podCIDR: '10.244.1.0/24' }));
		f.setStatus(nodeObject('worker-1'), nodeStatus('192.168.56.11', 'True'));
		f.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'worker-1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'worker-1', leaseDurationSeconds: 40, renewTime: '2026-11-30T08:04:50.000000Z' } });
		const resources = { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } };
		const web = f.create(podObject('web-1', { node: 'worker-1', containers: [{ name: 'main', image: 'nginx:1.25', resources }] }));
		f.setStatus(web, { ...runningStatus('10.244.1.5', '192.168.56.11'), qosClass: 'Burstable' });
		const done = f.create(podObject('job-x', { node: 'worker-1' }));
		f.setStatus(done, { phase: 'Succeeded' });
		f.create(podObject('elsewhere', { node: 'worker-2' }));
		f.advance(5 * 60_000);
		// Blocks, by hand: header "CreationTimestamp:" (18) + 2 = 20; lease "  HolderIdentity:" (17) + 2 = 19;
		// conditions: "  MemoryPressure " (17) + 2 = 19, "Status"/"False " (6) + 2 = 8, a time and a space (32) + 2 = 34 twice,
		// "KubeletHasSufficientMemory " (27) + 2 = 29; addresses "  InternalIP:" (13) + 2 = 15; capacity "  ephemeral-storage:" (20) + 2 = 22;
		// system info through the pods table: "  Container Runtime Version:" (28) + 2 = 30, then Name (web-1) 7, the empty column 2,
		// "CPU Requests" 14, "CPU Limits" 12, "Memory Requests" 17, "Memory Limits" 15; allocated resources through Events:
		// "  ephemeral-storage" (19) + 2 = 21, "250m (12%)" (10) + 2 = 12.
		const h = 20;
		const cond = [19, 8, 34, 34, 29];
		const s = 30;
		const pods = [30, 7, 2, 14, 12, 17, 15];
		const alloc = [21, 12];
		expect(f.kubectl('describe node worker-1')).toEqual({
			stdout: lines(
				kv(h, 'Name:', 'worker-1'),
				kv(h, 'Roles:', '<none>'),
				kv(h, 'Labels:', 'kubernetes.io/hostname=worker-1'),
				kv(h, '', 'kubernetes.io/os=linux'),
				kv(h, 'Annotations:', '<none>'),
				kv(h, 'CreationTimestamp:', 'Mon, 30 Nov 2026 08:00:00 +0000'),
				kv(h, 'Taints:', '<none>'),
				kv(h, 'Unschedulable:', 'false'),
				'Lease:',
				kv(19, '  HolderIdentity:', 'worker-1'),
				kv(19, '  AcquireTime:', '<unset>'),
				kv(19, '  RenewTime:', 'Mon, 30 Nov 2026 08:04:50 +0000'),
				'Conditions:',
				row(cond, '  Type', 'Status', 'LastHeartbeatTime', 'LastTransitionTime', 'Reason', 'Message'),
				row(cond, '  ----', '------', '-----------------', '------------------', '------', '-------'),
				row(cond, '  MemoryPressure ', 'False ', 'Mon, 30 Nov 2026 08:04:50 +0000 ', 'Mon, 30 Nov 2026 08:00:00 +0000 ', 'KubeletHasSufficientMemory ', 'kubelet has sufficient memory available'),
				row(cond, '  Ready ', 'True ', 'Mon, 30 Nov 2026 08:04:50 +0000 ', 'Mon, 30 Nov 2026 08:00:30 +0000 ', 'KubeletReady ', 'kubelet is posting ready status'),
				'Addresses:',
				kv(15, '  InternalIP:', '192.168.56.11'),
				kv(15, '  Hostname:', 'node'),
				'Capacity:',
				kv(22, '  cpu:', '2'),
				kv(22, '  ephemeral-storage:', '30Gi'),
				kv(22, '  memory:', '4Gi'),
				kv(22, '  pods:', '110'),
				'Allocatable:',
				kv(22, '  cpu:', '2'),
				kv(22, '  ephemeral-storage:', '30Gi'),
				kv(22, '  memory:', '4Gi'),
				kv(22, '  pods:', '110'),
				'System Info:',
				kv(s, '  Machine ID:', 'a1b2c3d4e5f60718293a4b5c6d7e8f90'),
				kv(s, '  System UUID:', '4c4c4544-0042-3510-8053-b4c04f4a4d32'),
				kv(s, '  Boot ID:', '5f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0'),
				kv(s, '  Kernel Version:', '6.8.0-45-generic'),
				kv(s, '  OS Image:', 'Ubuntu 24.04.1 LTS'),
				kv(s, '  Operating System:', 'linux'),
				kv(s, '  Architecture:', 'amd64'),
				kv(s, '  Container Runtime Version:', 'containerd://2.1.4'),
				kv(s, '  Kubelet Version:', 'v1.36.3'),
				kv(s, 'PodCIDR:', '10.244.1.0/24'),
				kv(s, 'PodCIDRs:', '10.244.1.0/24'),
				kv(s, 'Non-terminated Pods:', '(1 in total)'),
				row(pods, '  Namespace', 'Name', '', 'CPU Requests', 'CPU Limits', 'Memory Requests', 'Memory Limits', 'Age'),
				row(pods, '  ---------', '----', '', '------------', '----------', '---------------', '-------------', '---'),
				// 250m of 2 CPUs is 12.5%, truncated; 64Mi of 4Gi is 1.56%.
				row(pods, '  default', 'web-1', '', '250m (12%)', '500m (25%)', '64Mi (1%)', '128Mi (3%)', '5m'),
				'Allocated resources:',
				'  (Total limits may be over 100 percent, i.e., overcommitted.)',
				row(alloc, '  Resource', 'Requests', 'Limits'),
				row(alloc, '  --------', '--------', '------'),
				row(alloc, '  cpu', '250m (12%)', '500m (25%)'),
				row(alloc, '  memory', '64Mi (1%)', '128Mi (3%)'),
				row(alloc, '  ephemeral-storage', '0 (0%)', '0 (0%)'),
				kv(21, 'Events:', '<none>'),
			),
			stderr: '',
			exitCode: 0,
		});
	});

	it('says when the node has no lease, and shows roles and taints', () => {
		const f = kubectlFixture();
		f.create({ ...nodeObject('cp-1', { labels: { 'node-role.kubernetes.io/control-plane': '' } }), spec: { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] } });
		const out = f.kubectl('describe node cp-1').stdout.split('\n');
		// Taints sort by "effect,key": NoExecute before NoSchedule.
		expect(out.slice(0, 10)).toEqual([
			kv(20, 'Name:', 'cp-1'),
			kv(20, 'Roles:', 'control-plane'),
			kv(20, 'Labels:', 'kubernetes.io/hostname=cp-1'),
			kv(20, '', 'kubernetes.io/os=linux'),
			kv(20, '', 'node-role.kubernetes.io/control-plane='),
			kv(20, 'Annotations:', '<none>'),
			kv(20, 'CreationTimestamp:', 'Mon, 30 Nov 2026 08:00:00 +0000'),
			kv(20, 'Taints:', 'node.kubernetes.io/unreachable:NoExecute'),
			kv(20, '', 'node-role.kubernetes.io/control-plane:NoSchedule'),
			kv(20, 'Unschedulable:', 'false'),
		]);
		expect(out[10]).toBe(kv(20, 'Lease:', 'Failed to get lease: leases.coordination.k8s.io "cp-1" not found'));
	});
});

describe('kubectl describe deployment and replicaset', () => {
	function rolledOut(): KubectlFixture {
		const f = kubectlFixture();
		const d = f.create({ ...deploymentObject('web', 3), metadata: { name: 'web', namespace: 'default', labels: { app: 'web' }, annotations: { 'deployment.kubernetes.io/revision': '2' } } });
		f.setStatus(d, {
			observedGeneration: 1,
			replicas: 3,
			updatedReplicas: 3,
			readyReplicas: 3,
			availableReplicas: 3,
			conditions: [
				{ type: 'Available', status: 'True', lastUpdateTime: at(0, 20), lastTransitionTime: at(0, 20), reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' },
				{ type: 'Progressing', status: 'True', lastUpdateTime: at(0, 20), lastTransitionTime: at(0), reason: 'NewReplicaSetAvailable', message: 'ReplicaSet "web-5d4f8b7c9" has successfully progressed.' },
			],
		});
		const current = f.create(replicaSetObject('web', '5d4f8b7c9', 3, d));
		f.setStatus(current, { replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
		f.create(replicaSetObject('web', '6c8f9d7b8', 0, d, 'nginx:1.24'));
		for (let i = 0; i < 3; i++) {
			const pod = f.create(podObject(`web-5d4f8b7c9-${['abcde', 'fghij', 'klmno'][i]}`, { labels: { app: 'web', 'pod-template-hash': '5d4f8b7c9' }, owner: current }));
			if (i < 2) f.setStatus(pod, runningStatus(`10.244.1.${i + 10}`, '192.168.56.11'));
		}
		event(f, 'web.0001', d, { reason: 'ScalingReplicaSet', message: 'Scaled up replica set web-5d4f8b7c9 from 0 to 3', component: 'deployment-controller', first: at(0) });
		f.advance(5 * 60_000);
		return f;
	}

	it('shows replicas, strategy, the pod template, conditions, old and new replica sets and events', () => {
		// Header: "RollingUpdateStrategy:" (22) + 2 = 24; template labels alone: "  Labels:" (9) + 2 = 11;
		// container and template tail: "  Node-Selectors:" (17) + 2 = 19; conditions through NewReplicaSet: "OldReplicaSets:" (15) + 2 = 17, "Status" 8.
		const h = 24;
		const c = 19;
		const cond = [17, 8];
		// Events: Type 10; Reason: ScalingReplicaSet (17) + 2 = 19; Age: "----" (4) + 2 = 6; From: deployment-controller (21) + 2 = 23.
		const e = [10, 19, 6, 23];
		expect(rolledOut().kubectl('describe deploy web').stdout).toBe(
			lines(
				kv(h, 'Name:', 'web'),
				kv(h, 'Namespace:', 'default'),
				kv(h, 'CreationTimestamp:', 'Mon, 30 Nov 2026 08:00:00 +0000'),
				kv(h, 'Labels:', 'app=web'),
				kv(h, 'Annotations:', 'deployment.kubernetes.io/revision: 2'),
				kv(h, 'Selector:', 'app=web'),
				kv(h, 'Replicas:', '3 desired | 3 updated | 3 total | 3 available | 0 unavailable'),
				kv(h, 'StrategyType:', 'RollingUpdate'),
				kv(h, 'MinReadySeconds:', '0'),
				kv(h, 'RollingUpdateStrategy:', '25% max unavailable, 25% max surge'),
				'Pod Template:',
				kv(11, '  Labels:', 'app=web'),
				'  Containers:',
				'   nginx:',
				kv(c, '    Image:', 'nginx:1.25'),
				kv(c, '    Port:', '80/TCP'),
				kv(c, '    Host Port:', '0/TCP'),
				kv(c, '    Environment:', '<none>'),
				kv(c, '    Mounts:', '<none>'),
				kv(c, '  Volumes:', '<none>'),
				kv(c, '  Node-Selectors:', '<none>'),
				kv(c, '  Tolerations:', '<none>'),
				'Conditions:',
				row(cond, '  Type', 'Status', 'Reason'),
				row(cond, '  ----', '------', '------'),
				row(cond, '  Available ', 'True', 'MinimumReplicasAvailable'),
				row(cond, '  Progressing ', 'True', 'NewReplicaSetAvailable'),
				kv(17, 'OldReplicaSets:', 'web-6c8f9d7b8 (0/0 replicas created)'),
				kv(17, 'NewReplicaSet:', 'web-5d4f8b7c9 (3/3 replicas created)'),
				'Events:',
				row(e, '  Type', 'Reason', 'Age', 'From', 'Message'),
				row(e, '  ----', '------', '----', '----', '-------'),
				row(e, '  Normal', 'ScalingReplicaSet', '5m', 'deployment-controller', 'Scaled up replica set web-5d4f8b7c9 from 0 to 3'),
			),
		);
	});

	it('shows a replica set with its controller and its pods by phase', () => {
		// Header through Pods Status: "Controlled By:" (14) + 2 = 16; template labels: "  Labels:" (9) + 2 = 11.
		const out = rolledOut().kubectl('describe rs web-5d4f8b7c9').stdout.split('\n');
		expect(out.slice(0, 12)).toEqual([
			kv(16, 'Name:', 'web-5d4f8b7c9'),
			kv(16, 'Namespace:', 'default'),
			kv(16, 'Selector:', 'app=web,pod-template-hash=5d4f8b7c9'),
			kv(16, 'Labels:', 'app=web'),
			kv(16, '', 'pod-template-hash=5d4f8b7c9'),
			kv(16, 'Annotations:', 'deployment.kubernetes.io/desired-replicas: 3'),
			kv(16, '', 'deployment.kubernetes.io/max-replicas: 4'),
			kv(16, '', 'deployment.kubernetes.io/revision: 1'),
			kv(16, 'Controlled By:', 'Deployment/web'),
			kv(16, 'Replicas:', '3 current / 3 desired'),
			kv(16, 'Pods Status:', '2 Running / 1 Waiting / 0 Succeeded / 0 Failed'),
			'Pod Template:',
		]);
		expect(out.slice(12, 14)).toEqual([kv(11, '  Labels:', 'app=web'), kv(11, '', 'pod-template-hash=5d4f8b7c9')]);
		expect(out.at(-2)).toBe(kv(19, 'Events:', '<none>'));
	});
});

describe('kubectl describe services and endpoints', () => {
	function served(): KubectlFixture {
		const f = kubectlFixture();
		f.create(serviceObject('web', { selector: { app: 'web' }, clusterIP: '10.96.100.20', ports: [{ name: 'http', port: 80, targetPort: 8080 }] }));
		f.create({
			apiVersion: 'discovery.k8s.io/v1',
			kind: 'EndpointSlice',
			metadata: { name: 'web-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } },
			addressType: 'IPv4',
			ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
			endpoints: [
				{ addresses: ['10.244.1.5'], conditions: { ready: true }, nodeName: 'worker-1' },
				{ addresses: ['10.244.2.7'], conditions: { ready: false }, nodeName: 'worker-2' },
			],
		});
		f.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: 'default' }, subsets: [{ addresses: [{ ip: '10.244.1.5' }], notReadyAddresses: [{ ip: '10.244.2.7' }], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] }] });
		return f;
	}

	it('describes a service, with the ready endpoints of each port from its slices', () => {
		// One block: "Internal Traffic Policy:" (24) + 2 = 26; the port name column only on the Port line: "http" (4) + 2 = 6.
		const w = 26;
		expect(served().kubectl('describe svc web').stdout).toBe(
			lines(
				kv(w, 'Name:', 'web'),
				kv(w, 'Namespace:', 'default'),
				kv(w, 'Labels:', '<none>'),
				kv(w, 'Annotations:', '<none>'),
				kv(w, 'Selector:', 'app=web'),
				kv(w, 'Type:', 'ClusterIP'),
				kv(w, 'IP Family Policy:', 'SingleStack'),
				kv(w, 'IP Families:', 'IPv4'),
				kv(w, 'IP:', '10.96.100.20'),
				kv(w, 'IPs:', '10.96.100.20'),
				row([w, 6], 'Port:', 'http', '80/TCP'),
				kv(w, 'TargetPort:', '8080/TCP'),
				kv(w, 'Endpoints:', '10.244.1.5:8080'),
				kv(w, 'Session Affinity:', 'None'),
				kv(w, 'Internal Traffic Policy:', 'Cluster'),
				kv(w, 'Events:', '<none>'),
			),
		);
	});

	it('describes endpoints by subset, with the deprecation warning', () => {
		expect(served().kubectl('describe endpoints web')).toEqual({
			stdout: lines(
				kv(14, 'Name:', 'web'),
				kv(14, 'Namespace:', 'default'),
				kv(14, 'Labels:', '<none>'),
				kv(14, 'Annotations:', '<none>'),
				'Subsets:',
				kv(22, '  Addresses:', '10.244.1.5'),
				kv(22, '  NotReadyAddresses:', '10.244.2.7'),
				'  Ports:',
				row([10, 6], '    Name', 'Port', 'Protocol'),
				row([10, 6], '    ----', '----', '--------'),
				row([10, 6], '    http', '8080', 'TCP'),
				'',
				kv(9, 'Events:', '<none>'),
			),
			stderr: 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n',
			exitCode: 0,
		});
	});

	it('describes an endpoint slice endpoint by endpoint', () => {
		// The blocks break at each untabbed line, so each endpoint's keys align with the next endpoint's first line.
		expect(served().kubectl('describe endpointslice web-abcde').stdout).toBe(
			lines(
				kv(14, 'Name:', 'web-abcde'),
				kv(14, 'Namespace:', 'default'),
				kv(14, 'Labels:', 'kubernetes.io/service-name=web'),
				kv(14, 'Annotations:', '<none>'),
				kv(14, 'AddressType:', 'IPv4'),
				'Ports:',
				row([8, 6], '  Name', 'Port', 'Protocol'),
				row([8, 6], '  ----', '----', '--------'),
				row([8, 6], '  http', '8080', 'TCP'),
				'Endpoints:',
				kv(16, '  - Addresses:', '10.244.1.5'),
				'    Conditions:',
				kv(16, '      Ready:', 'true'),
				kv(16, '    Hostname:', '<unset>'),
				kv(16, '    NodeName:', 'worker-1'),
				kv(16, '    Zone:', '<unset>'),
				kv(16, '  - Addresses:', '10.244.2.7'),
				'    Conditions:',
				kv(15, '      Ready:', 'false'),
				kv(15, '    Hostname:', '<unset>'),
				kv(15, '    NodeName:', 'worker-2'),
				kv(15, '    Zone:', '<unset>'),
				kv(15, 'Events:', '<none>'),
			),
		);
	});
});
