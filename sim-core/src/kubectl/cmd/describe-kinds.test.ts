import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { at } from '../../testing/kubectl/scenario.ts';

/** A describe line: cells padded to the hand-computed widths of their tabwriter block (longest cell + 2), the last bare. */
const row = (widths: number[], ...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');
const kv = (width: number, key: string, value: string) => key.padEnd(width) + value;
/** Output with runs of spaces collapsed, for checks that do not depend on a block's width. */
const squeeze = (text: string) => text.replace(/ +/g, ' ');

function cluster(build: (f: KubectlFixture) => void): KubectlFixture {
	const f = kubectlFixture();
	build(f);
	f.advance(5 * 60_000);
	return f;
}

describe('kubectl describe, configuration kinds', () => {
	it('namespaces: status, and no quota or limit range', () => {
		const f = cluster((c) => c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { team: 'web' } } }));
		// "Annotations:" (12) + 2 = 14; the server labels every namespace with its name.
		expect(f.kubectl('describe ns shop').stdout).toBe(
			lines(kv(14, 'Name:', 'shop'), kv(14, 'Labels:', 'kubernetes.io/metadata.name=shop'), kv(14, '', 'team=web'), kv(14, 'Annotations:', '<none>'), kv(14, 'Status:', 'Active'), '', 'No resource quota.', '', 'No LimitRange resource.'),
		);
	});

	it('configmaps: each value under its key, binary data by size, then events', () => {
		const f = cluster((c) => c.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { 'app.properties': 'mode=fast\nsize=small\n', 'log-level': 'debug' }, binaryData: { 'logo.png': 'iVBORw0KGgo=' } }));
		expect(f.kubectl('describe cm app-config').stdout).toBe(
			lines(
				kv(14, 'Name:', 'app-config'),
				kv(14, 'Namespace:', 'default'),
				kv(14, 'Labels:', '<none>'),
				kv(14, 'Annotations:', '<none>'),
				'',
				'Data',
				'====',
				'app.properties:',
				'----',
				'mode=fast',
				'size=small',
				'',
				'',
				'log-level:',
				'----',
				'debug',
				'',
				'',
				'BinaryData',
				'====',
				// The PNG signature: 8 bytes.
				'logo.png: 8 bytes',
				'',
				kv(9, 'Events:', '<none>'),
			),
		);
	});

	it('secrets: the type and the size of each value, never the value', () => {
		const f = cluster((c) => c.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db-pass', namespace: 'default' }, type: 'Opaque', data: { password: 'czNjcjN0', username: 'YWRtaW4=' } }));
		expect(f.kubectl('describe secret db-pass')).toEqual({
			stdout: lines(kv(14, 'Name:', 'db-pass'), kv(14, 'Namespace:', 'default'), kv(14, 'Labels:', '<none>'), kv(14, 'Annotations:', '<none>'), '', kv(7, 'Type:', 'Opaque'), '', 'Data', '====', kv(11, 'password:', '6 bytes'), kv(11, 'username:', '5 bytes')),
			stderr: '',
			exitCode: 0,
		});
	});

	it('service accounts: image pull secrets and events', () => {
		const f = cluster((c) => c.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'default' }, imagePullSecrets: [{ name: 'regcred' }, { name: 'mirror' }] }));
		// "Image pull secrets:" (19) + 2 = 21; later names sit under a blank header of the same length.
		expect(f.kubectl('describe sa builder').stdout).toBe(
			lines(kv(21, 'Name:', 'builder'), kv(21, 'Namespace:', 'default'), kv(21, 'Labels:', '<none>'), kv(21, 'Annotations:', '<none>'), kv(21, 'Image pull secrets:', 'regcred'), kv(21, '                   ', 'mirror'), kv(21, 'Events:', '<none>')),
		);
	});

	it('priority classes', () => {
		const f = cluster((c) => c.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000000, preemptionPolicy: 'PreemptLowerPriority', description: "For the shop's frontends." }));
		// "PreemptionPolicy:" (17) + 2 = 19.
		expect(f.kubectl('describe pc high').stdout).toBe(
			lines(kv(19, 'Name:', 'high'), kv(19, 'Value:', '1000000'), kv(19, 'GlobalDefault:', 'false'), kv(19, 'PreemptionPolicy:', 'PreemptLowerPriority'), kv(19, 'Description:', "For the shop's frontends."), kv(19, 'Annotations:', '<none>'), kv(19, 'Events:', '<none>')),
		);
	});
});

describe('kubectl describe, RBAC', () => {
	const build = (c: KubectlFixture) => {
		c.create({
			apiVersion: 'rbac.authorization.k8s.io/v1',
			kind: 'ClusterRole',
			metadata: { name: 'web-ops' },
			rules: [
				{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'list', 'watch'] },
				{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get', 'patch'] },
				{ nonResourceURLs: ['/healthz', '/livez'], verbs: ['get'] },
			],
		});
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
	};

	it('roles: rules broken down, merged per resource and sorted by their printed form (verbs first)', () => {
		// Resources: "  deployments.apps" (18) + 2 = 20; Non-Resource URLs (17) + 2 = 19; Resource Names (14) + 2 = 16.
		const w = [20, 19, 16];
		expect(cluster(build).kubectl('describe clusterrole web-ops').stdout).toBe(
			lines(
				kv(14, 'Name:', 'web-ops'),
				kv(14, 'Labels:', '<none>'),
				kv(14, 'Annotations:', '<none>'),
				'PolicyRule:',
				row(w, '  Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs'),
				row(w, '  ---------', '-----------------', '--------------', '-----'),
				row(w, '  pods/log', '[]', '[]', '[get list watch]'),
				row(w, '  pods', '[]', '[]', '[get list watch]'),
				row(w, '  deployments.apps', '[]', '[web]', '[get patch]'),
				row(w, '  ', '[/healthz]', '[]', '[get]'),
				row(w, '  ', '[/livez]', '[]', '[get]'),
			),
		);
	});

	it('role bindings: the role and the subjects', () => {
		expect(cluster(build).kubectl('describe rolebinding read-pods').stdout).toBe(
			lines(
				kv(14, 'Name:', 'read-pods'),
				kv(14, 'Labels:', '<none>'),
				kv(14, 'Annotations:', '<none>'),
				'Role:',
				kv(9, '  Kind:', 'Role'),
				kv(9, '  Name:', 'pod-reader'),
				'Subjects:',
				// Kind: "  ServiceAccount" (16) + 2 = 18; Name: builder (7) + 2 = 9; users and groups have an empty namespace.
				row([18, 9], '  Kind', 'Name', 'Namespace'),
				row([18, 9], '  ----', '----', '---------'),
				row([18, 9], '  User', 'alice', ''),
				row([18, 9], '  Group', 'devs', ''),
				row([18, 9], '  ServiceAccount', 'builder', 'default'),
			),
		);
	});
});

describe('kubectl describe, kinds without their own describer', () => {
	it('prints every field of a lease under labels made from the field names', () => {
		let lease: KubeObject = { apiVersion: '', kind: '', metadata: {} };
		const f = cluster((c) => {
			c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-node-lease' } });
			lease = c.create({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'worker-1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'worker-1', leaseDurationSeconds: 40, renewTime: '2026-11-30T08:04:50.000000Z' } });
		});
		// Header through Kind: "Annotations:" / "API Version:" (12) + 2 = 14; metadata: "  Creation Timestamp:" (21) + 2 = 23;
		// spec through Events: "  Lease Duration Seconds:" (25) + 2 = 27.
		expect(f.kubectl('describe lease worker-1 -n kube-node-lease').stdout).toBe(
			lines(
				kv(14, 'Name:', 'worker-1'),
				kv(14, 'Namespace:', 'kube-node-lease'),
				kv(14, 'Labels:', '<none>'),
				kv(14, 'Annotations:', '<none>'),
				kv(14, 'API Version:', 'coordination.k8s.io/v1'),
				kv(14, 'Kind:', 'Lease'),
				'Metadata:',
				kv(23, '  Creation Timestamp:', '2026-11-30T08:00:00Z'),
				kv(23, '  Resource Version:', String(lease.metadata.resourceVersion)),
				kv(23, '  UID:', String(lease.metadata.uid)),
				'Spec:',
				kv(27, '  Holder Identity:', 'worker-1'),
				kv(27, '  Lease Duration Seconds:', '40'),
				kv(27, '  Renew Time:', '2026-11-30T08:04:50.000000Z'),
				kv(27, 'Events:', '<none>'),
			),
		);
	});
});

describe('kubectl describe, workloads', () => {
	it('jobs: parallelism, completions, times, duration and pod counts', () => {
		const f = cluster((c) => {
			const job = c.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] }] } } } });
			c.setStatus(job, {
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
		});
		const out = squeeze(f.kubectl('describe job pi').stdout);
		expect(out).toContain('\nParallelism: 1\nCompletions: 1\n');
		expect(out).toContain('\nStart Time: Mon, 30 Nov 2026 08:00:10 +0000\nCompleted At: Mon, 30 Nov 2026 08:01:10 +0000\nDuration: 60s\nPods Statuses: 0 Active (0 Ready) / 1 Succeeded / 0 Failed\nPod Template:\n');
		expect(out).toContain('\n Containers:\n pi:\n Image: perl:5.34\n Port: <none>\n Host Port: <none>\n Command:\n perl\n -Mbignum=bpi\n -wle\n print bpi(2000)\n Environment: <none>\n Mounts: <none>\n');
		expect(out.endsWith('\nEvents: <none>\n')).toBe(true);
	});

	it('cronjobs: schedule, limits and the job template', () => {
		const f = cluster((c) =>
			c.create({
				apiVersion: 'batch/v1',
				kind: 'CronJob',
				metadata: { name: 'nightly', namespace: 'default' },
				spec: { schedule: '0 3 * * *', concurrencyPolicy: 'Forbid', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'backup', image: 'busybox:1.36' }] } } } } },
			}),
		);
		const out = squeeze(f.kubectl('describe cj nightly').stdout);
		expect(out).toContain(
			'\nSchedule: 0 3 * * *\nConcurrency Policy: Forbid\nSuspend: False\nTime Zone: <unset>\nSuccessful Job History Limit: 3\nFailed Job History Limit: 1\nStarting Deadline Seconds: <unset>\nSelector: <unset>\nParallelism: <unset>\nCompletions: <unset>\nPod Template:\n',
		);
		expect(out).toContain('\nLast Schedule Time: <unset>\nActive Jobs: <none>\nEvents: <none>\n');
	});

	it('daemonsets: the node counts and pod phases', () => {
		const f = cluster((c) => {
			c.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
			const labels = { 'k8s-app': 'kube-proxy' };
			const ds = c.create({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'kube-proxy', namespace: 'kube-system', labels }, spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'kube-proxy', image: 'registry.k8s.io/kube-proxy:v1.36.3' }] } } } });
			c.setStatus(ds, { currentNumberScheduled: 3, numberMisscheduled: 0, desiredNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2, numberUnavailable: 1, observedGeneration: 1 });
		});
		const out = squeeze(f.kubectl('describe ds kube-proxy -n kube-system').stdout);
		expect(out).toContain('Selector: k8s-app=kube-proxy\nNode-Selector: kubernetes.io/os=linux\nLabels: k8s-app=kube-proxy\n');
		expect(out).toContain(
			'\nDesired Number of Nodes Scheduled: 3\nCurrent Number of Nodes Scheduled: 3\nNumber of Nodes Scheduled with Up-to-date Pods: 3\nNumber of Nodes Scheduled with Available Pods: 2\nNumber of Nodes Misscheduled: 0\nPods Status: 0 Running / 0 Waiting / 0 Succeeded / 0 Failed\n',
		);
	});

	it('statefulsets: replicas, update strategy and volume claims', () => {
		const f = cluster((c) => {
			const sts = c.create({
				apiVersion: 'apps/v1',
				kind: 'StatefulSet',
				metadata: { name: 'db', namespace: 'default' },
				spec: { replicas: 3, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'postgres', image: 'postgres:16' }] } } },
			});
			c.setStatus(sts, { replicas: 2, readyReplicas: 1, currentReplicas: 2, updatedReplicas: 2, availableReplicas: 1, observedGeneration: 1 });
		});
		const out = squeeze(f.kubectl('describe sts db').stdout);
		expect(out).toContain('\nCreationTimestamp: Mon, 30 Nov 2026 08:00:00 +0000\nSelector: app=db\n');
		expect(out).toContain('\nReplicas: 3 desired | 2 total\nUpdate Strategy: RollingUpdate\n');
		expect(out).toContain('\nVolume Claims: <none>\nEvents: <none>\n');
	});
});

describe('kubectl describe errors', () => {
	it.each([
		['describe', 'error: You must specify the type of resource to describe. Use "kubectl api-resources" for a complete list of supported resources.\n', 1],
		['describe podz', 'error: the server doesn\'t have a resource type "podz"\n', 1],
		['describe pods', 'No resources found in default namespace.\n', 0],
		['describe pods -A', 'No resources found\n', 0],
		['describe pod a b', 'Error from server (NotFound): pods "a" not found\nError from server (NotFound): pods "b" not found\n', 1],
		['describe pod/a', 'Error from server (NotFound): pods "a" not found\n', 1],
	])('`kubectl %s` prints %j', (line, stderr, exitCode) => {
		expect(kubectlFixture().kubectl(line)).toEqual({ stdout: '', stderr, exitCode });
	});

	it('says the API server refused the connection when it is down', () => {
		const f = kubectlFixture();
		f.harness.kernel.stop('kube-apiserver');
		expect(f.kubectl('describe pod web')).toEqual({ stdout: '', stderr: 'The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n', exitCode: 1 });
	});
});
