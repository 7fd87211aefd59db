import { describe, it, expect } from 'vitest';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { at, serviceObject } from '../../testing/kubectl/scenario.ts';

/** A table line: cells padded to the hand-computed column widths (longest cell + 3, at least 6), the last cell bare. */
const row = (widths: number[], ...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');

/** A cluster where `build` creates objects at the start, looked at five minutes later. */
function cluster(build: (f: KubectlFixture) => void): KubectlFixture {
	const f = kubectlFixture();
	f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
	build(f);
	f.advance(5 * 60_000);
	return f;
}

describe('kubectl get for each kind', () => {
	it('services: TYPE, CLUSTER-IP, EXTERNAL-IP (<none>, <pending>, addresses, external names) and PORT(S)', () => {
		const f = cluster((c) => {
			c.create(serviceObject('kubernetes', { clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, targetPort: 6443 }] }));
			c.create(serviceObject('web', { type: 'NodePort', selector: { app: 'web' }, clusterIP: '10.96.100.20', ports: [{ port: 80, nodePort: 30080 }] }));
			c.create(serviceObject('lb', { type: 'LoadBalancer', selector: { app: 'lb' }, clusterIP: '10.96.100.30', ports: [{ port: 80, nodePort: 31000 }] }));
			const lb2 = c.create(serviceObject('lb2', { type: 'LoadBalancer', clusterIP: '10.96.100.31', ports: [{ port: 80, nodePort: 31001 }] }));
			c.setStatus(lb2, { loadBalancer: { ingress: [{ ip: '203.0.113.10' }] } });
			c.create(serviceObject('ext', { type: 'ExternalName', externalName: 'example.com' }));
		});
		// NAME: kubernetes (10) + 3 = 13; TYPE: LoadBalancer (12) + 3 = 15; CLUSTER-IP: 10.96.100.30 (12) + 3 = 15;
		// EXTERNAL-IP: 203.0.113.10 (12) + 3 = 15; PORT(S): 80:31000/TCP (12) + 3 = 15.
		const w = [13, 15, 15, 15, 15];
		expect(f.kubectl('get svc').stdout).toBe(
			lines(
				row(w, 'NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'),
				row(w, 'ext', 'ExternalName', '<none>', 'example.com', '<none>', '5m'),
				row(w, 'kubernetes', 'ClusterIP', '10.96.0.1', '<none>', '443/TCP', '5m'),
				row(w, 'lb', 'LoadBalancer', '10.96.100.30', '<pending>', '80:31000/TCP', '5m'),
				row(w, 'lb2', 'LoadBalancer', '10.96.100.31', '203.0.113.10', '80:31001/TCP', '5m'),
				row(w, 'web', 'NodePort', '10.96.100.20', '<none>', '80:30080/TCP', '5m'),
			),
		);
		expect(f.kubectl('get svc web lb -o wide').stdout).toBe(
			lines(
				row([7, 15, 15, 14, 15, 6], 'NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE', 'SELECTOR'),
				row([7, 15, 15, 14, 15, 6], 'web', 'NodePort', '10.96.100.20', '<none>', '80:30080/TCP', '5m', 'app=web'),
				row([7, 15, 15, 14, 15, 6], 'lb', 'LoadBalancer', '10.96.100.30', '<pending>', '80:31000/TCP', '5m', 'app=lb'),
			),
		);
	});

	it('endpoints: the first three addresses, then how many more, and the server deprecation warning', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: 'default' }, subsets: [{ addresses: [{ ip: '10.244.1.5' }, { ip: '10.244.2.7' }], ports: [{ port: 80, protocol: 'TCP' }] }] });
			c.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'big', namespace: 'default' }, subsets: [{ addresses: [1, 2, 3, 4, 5].map((n) => ({ ip: `10.0.0.${n}` })), ports: [{ port: 8080, protocol: 'TCP' }] }] });
			c.create({ apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'empty', namespace: 'default' } });
		});
		// NAME: empty (5) + 3 = 8; ENDPOINTS: three 13-character pairs, two commas and ` + 2 more...` (53) + 3 = 56.
		const w = [8, 56];
		expect(f.kubectl('get endpoints')).toEqual({
			stdout: lines(
				row(w, 'NAME', 'ENDPOINTS', 'AGE'),
				row(w, 'big', '10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080 + 2 more...', '5m'),
				row(w, 'empty', '<none>', '5m'),
				row(w, 'web', '10.244.1.5:80,10.244.2.7:80', '5m'),
			),
			stderr: 'Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n',
			exitCode: 0,
		});
	});

	it('endpointslices: ADDRESSTYPE, PORTS and ENDPOINTS, <unset> when empty', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abcde', namespace: 'default', labels: { 'kubernetes.io/service-name': 'web' } }, addressType: 'IPv4', ports: [{ name: '', port: 80, protocol: 'TCP' }], endpoints: [{ addresses: ['10.244.1.5'] }, { addresses: ['10.244.2.7'] }] });
			c.create({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'empty-x1', namespace: 'default' }, addressType: 'IPv4', endpoints: [] });
		});
		// NAME: web-abcde (9) + 3 = 12; ADDRESSTYPE (11) + 3 = 14; PORTS: <unset> (7) + 3 = 10; ENDPOINTS: 10.244.1.5,10.244.2.7 (21) + 3 = 24.
		const w = [12, 14, 10, 24];
		expect(f.kubectl('get endpointslices').stdout).toBe(
			lines(row(w, 'NAME', 'ADDRESSTYPE', 'PORTS', 'ENDPOINTS', 'AGE'), row(w, 'empty-x1', 'IPv4', '<unset>', '<unset>', '5m'), row(w, 'web-abcde', 'IPv4', '80', '10.244.1.5,10.244.2.7', '5m')),
		);
	});

	it('configmaps count data and binaryData keys; secrets show TYPE and DATA; service accounts their secrets', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { a: '1', b: '2' }, binaryData: { c: 'AAE=' } });
			c.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'empty', namespace: 'default' } });
			c.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-pass', namespace: 'default' }, type: 'Opaque', data: { password: 'czNjcjN0' } });
			c.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'web-tls', namespace: 'default' }, type: 'kubernetes.io/tls', data: { 'tls.crt': 'Y2VydA==', 'tls.key': 'a2V5' } });
			c.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' }, secrets: [{ name: 'builder-token' }] });
		});
		// NAME: app-config (10) + 3 = 13; DATA (4) + 3 = 7.
		expect(f.kubectl('get cm').stdout).toBe(lines(row([13, 7], 'NAME', 'DATA', 'AGE'), row([13, 7], 'app-config', '3', '5m'), row([13, 7], 'empty', '0', '5m')));
		// NAME: web-tls (7) + 3 = 10; TYPE: kubernetes.io/tls (17) + 3 = 20; DATA 7.
		expect(f.kubectl('get secrets').stdout).toBe(lines(row([10, 20, 7], 'NAME', 'TYPE', 'DATA', 'AGE'), row([10, 20, 7], 'db-pass', 'Opaque', '1', '5m'), row([10, 20, 7], 'web-tls', 'kubernetes.io/tls', '2', '5m')));
		expect(f.kubectl('get sa').stdout).toBe(lines(row([10, 10], 'NAME', 'SECRETS', 'AGE'), row([10, 10], 'builder', '1', '5m')));
	});

	it('namespaces show their phase; leases their holder', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
			c.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler', namespace: 'kube-system' }, spec: { holderIdentity: 'cp-1_6b9e3c5a-52d1-4f5e-9c1e-0a1b2c3d4e5f', leaseDurationSeconds: 15 } });
			c.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'worker-1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'worker-1', leaseDurationSeconds: 40 } });
		});
		// NAME: kube-node-lease (15) + 3 = 18; STATUS: Active (6) + 3 = 9.
		const w = [18, 9];
		expect(f.kubectl('get ns').stdout).toBe(lines(row(w, 'NAME', 'STATUS', 'AGE'), row(w, 'default', 'Active', '5m'), row(w, 'kube-node-lease', 'Active', '5m'), row(w, 'kube-system', 'Active', '5m')));
		// NAMESPACE: kube-node-lease (15) + 3 = 18; NAME: kube-scheduler (14) + 3 = 17; HOLDER: cp-1_ and a UUID (41) + 3 = 44.
		const lw = [18, 17, 44];
		expect(f.kubectl('get leases -A').stdout).toBe(
			lines(row(lw, 'NAMESPACE', 'NAME', 'HOLDER', 'AGE'), row(lw, 'kube-node-lease', 'worker-1', 'worker-1', '5m'), row(lw, 'kube-system', 'kube-scheduler', 'cp-1_6b9e3c5a-52d1-4f5e-9c1e-0a1b2c3d4e5f', '5m')),
		);
	});

	it('priorityclasses show VALUE, GLOBAL-DEFAULT and PREEMPTIONPOLICY without -o wide', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000000, preemptionPolicy: 'PreemptLowerPriority' });
			c.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 10, globalDefault: true, preemptionPolicy: 'Never' });
		});
		// NAME (4) + 3 = 7; VALUE: 1000000 (7) + 3 = 10; GLOBAL-DEFAULT (14) + 3 = 17; AGE 6.
		const w = [7, 10, 17, 6];
		expect(f.kubectl('get pc').stdout).toBe(lines(row(w, 'NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY'), row(w, 'high', '1000000', 'false', '5m', 'PreemptLowerPriority'), row(w, 'low', '10', 'true', '5m', 'Never')));
	});

	it('roles and clusterroles print NAME and CREATED AT; bindings their ROLE, and subjects with -o wide', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'pod-reader', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] });
			c.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'node-viewer' }, rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }] });
			c.create({
				apiVersion: 'rbac.authorization.k8s.io/v1',
				kind: 'RoleBinding',
				metadata: { name: 'read-pods', namespace: 'default' },
				roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
				subjects: [
					{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' },
					{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
					{ kind: 'ServiceAccount', name: 'builder', namespace: 'default' },
				],
			});
		});
		expect(f.kubectl('get roles').stdout).toBe(lines(row([13], 'NAME', 'CREATED AT'), row([13], 'pod-reader', '2026-11-30T08:00:00Z')));
		expect(f.kubectl('get clusterroles').stdout).toBe(lines(row([14], 'NAME', 'CREATED AT'), row([14], 'node-viewer', '2026-11-30T08:00:00Z')));
		// NAME: read-pods (9) + 3 = 12; ROLE: Role/pod-reader (15) + 3 = 18; AGE 6; USERS (5) + 3 = 8; GROUPS (6) + 3 = 9.
		const w = [12, 18, 6, 8, 9];
		expect(f.kubectl('get rolebindings -o wide').stdout).toBe(lines(row(w, 'NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS'), row(w, 'read-pods', 'Role/pod-reader', '5m', 'alice', 'devs', 'default/builder')));
		expect(f.kubectl('get rolebindings').stdout).toBe(lines(row([12, 18], 'NAME', 'ROLE', 'AGE'), row([12, 18], 'read-pods', 'Role/pod-reader', '5m')));
	});

	it('events: LAST SEEN TYPE REASON OBJECT MESSAGE, and the wide columns in upstream order', () => {
		const f = cluster((c) => {
			const event = (name: string, fields: Record<string, unknown>) => c.create({ apiVersion: 'v1', kind: 'Event', metadata: { name, namespace: 'default' }, ...fields });
			event('web-1.187c5f5b2a3e4d10', {
				involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-1', apiVersion: 'v1' },
				reason: 'Scheduled',
				message: 'Successfully assigned default/web-1 to worker-1',
				source: { component: 'default-scheduler' },
				type: 'Normal',
				firstTimestamp: at(0),
				lastTimestamp: at(0),
				count: 1,
			});
			event('web-2.187c5f6a00000000', {
				involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-2', apiVersion: 'v1', fieldPath: 'spec.containers{main}' },
				reason: 'BackOff',
				message: 'Back-off restarting failed container main in pod web-2_default(uid)',
				source: { component: 'kubelet', host: 'worker-2' },
				type: 'Warning',
				firstTimestamp: at(1),
				lastTimestamp: at(4),
				count: 5,
			});
		});
		// LAST SEEN (9) + 3 = 12; TYPE: Warning (7) + 3 = 10; REASON: Scheduled (9) + 3 = 12; OBJECT: pod/web-1 (9) + 3 = 12.
		const w = [12, 10, 12, 12];
		expect(f.kubectl('get events').stdout).toBe(
			lines(
				row(w, 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'),
				row(w, '5m', 'Normal', 'Scheduled', 'pod/web-1', 'Successfully assigned default/web-1 to worker-1'),
				row(w, '60s', 'Warning', 'BackOff', 'pod/web-2', 'Back-off restarting failed container main in pod web-2_default(uid)'),
			),
		);
		// SUBOBJECT: spec.containers{main} (21) + 3 = 24; SOURCE: default-scheduler (17) + 3 = 20;
		// MESSAGE: the back-off message (67) + 3 = 70; FIRST SEEN (10) + 3 = 13; COUNT (5) + 3 = 8.
		const ww = [12, 10, 12, 12, 24, 20, 70, 13, 8];
		expect(f.kubectl('get ev -o wide').stdout).toBe(
			lines(
				row(ww, 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME'),
				row(ww, '5m', 'Normal', 'Scheduled', 'pod/web-1', '', 'default-scheduler', 'Successfully assigned default/web-1 to worker-1', '5m', '1', 'web-1.187c5f5b2a3e4d10'),
				row(ww, '60s', 'Warning', 'BackOff', 'pod/web-2', 'spec.containers{main}', 'kubelet, worker-2', 'Back-off restarting failed container main in pod web-2_default(uid)', '4m', '5', 'web-2.187c5f6a00000000'),
			),
		);
	});

	it('daemonsets show their node selector; statefulsets ready/desired', () => {
		const f = cluster((c) => {
			const labels = { 'k8s-app': 'kube-proxy' };
			const ds = c.create({
				apiVersion: 'apps/v1',
				kind: 'DaemonSet',
				metadata: { name: 'kube-proxy', namespace: 'kube-system', labels },
				spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.36.3' }] } } },
			});
			c.setStatus(ds, { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3, numberAvailable: 3, observedGeneration: 1 });
			const sts = c.create({
				apiVersion: 'apps/v1',
				kind: 'StatefulSet',
				metadata: { name: 'db', namespace: 'default' },
				spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'postgres', image: 'postgres:16' }] } } },
			});
			c.setStatus(sts, { replicas: 2, readyReplicas: 1, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 1, observedGeneration: 1 });
		});
		// NAME: kube-proxy (10) + 3 = 13; DESIRED/CURRENT (7) + 3 = 10; READY 8; UP-TO-DATE 13; AVAILABLE 12; NODE SELECTOR: kubernetes.io/os=linux (22) + 3 = 25.
		const w = [13, 10, 10, 8, 13, 12, 25];
		expect(f.kubectl('get ds -n kube-system').stdout).toBe(
			lines(row(w, 'NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'), row(w, 'kube-proxy', '3', '3', '3', '3', '3', 'kubernetes.io/os=linux', '5m')),
		);
		expect(f.kubectl('get sts').stdout).toBe(lines(row([7, 8], 'NAME', 'READY', 'AGE'), row([7, 8], 'db', '1/3', '5m')));
		expect(f.kubectl('get sts -o wide').stdout).toBe(lines(row([7, 8, 6, 13], 'NAME', 'READY', 'AGE', 'CONTAINERS', 'IMAGES'), row([7, 8, 6, 13], 'db', '1/3', '5m', 'postgres', 'postgres:16')));
	});

	it('jobs show STATUS, COMPLETIONS and DURATION; cronjobs their schedule', () => {
		const f = cluster((c) => {
			const template = (name: string) => ({ spec: { restartPolicy: 'Never', containers: [{ name, image: 'perl:5.34' }] } });
			const pi = c.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default' }, spec: { completions: 1, template: template('pi') } });
			c.setStatus(pi, {
				startTime: at(0, 10),
				completionTime: at(1, 10),
				succeeded: 1,
				ready: 0,
				terminating: 0,
				uncountedTerminatedPods: {},
				conditions: [
					{ type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: at(1, 10), lastTransitionTime: at(1, 10), reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
					{ type: 'Complete', status: 'True', lastProbeTime: at(1, 10), lastTransitionTime: at(1, 10), reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
				],
			});
			const backup = c.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'backup', namespace: 'default' }, spec: { parallelism: 2, template: template('backup') } });
			c.setStatus(backup, { startTime: at(2), active: 2, ready: 2, terminating: 0, uncountedTerminatedPods: {} });
			c.create({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly', namespace: 'default' }, spec: { schedule: '0 3 * * *', suspend: false, jobTemplate: { spec: { template: template('nightly') } } } });
		});
		// NAME: backup (6) + 3 = 9; STATUS: Complete (8) + 3 = 11; COMPLETIONS (11) + 3 = 14; DURATION (8) + 3 = 11.
		// backup runs without completions but with parallelism 2; pi ran from 08:00:10 to 08:01:10.
		const w = [9, 11, 14, 11];
		expect(f.kubectl('get jobs').stdout).toBe(lines(row(w, 'NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'), row(w, 'backup', 'Running', '0/1 of 2', '3m', '5m'), row(w, 'pi', 'Complete', '1/1', '60s', '5m')));
		// NAME: nightly (7) + 3 = 10; SCHEDULE: 0 3 * * * (9) + 3 = 12; TIMEZONE (8) + 3 = 11; SUSPEND (7) + 3 = 10; ACTIVE (6) + 3 = 9; LAST SCHEDULE (13) + 3 = 16.
		const cw = [10, 12, 11, 10, 9, 16];
		expect(f.kubectl('get cj').stdout).toBe(lines(row(cw, 'NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'), row(cw, 'nightly', '0 3 * * *', '<none>', 'False', '0', '<none>', '5m')));
	});
});
