import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { at, podObject, serviceObject } from '../../testing/kubectl/scenario.ts';

const row = (widths: number[], ...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');

const REFUSED = 'The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n';

function down(f: KubectlFixture): KubectlFixture {
	f.harness.kernel.stop('kube-apiserver');
	return f;
}

describe('kubectl api-resources', () => {
	it('lists every served resource, core group first, then groups and names alphabetically', () => {
		expect(kubectlFixture().kubectl('api-resources -o name').stdout).toBe(
			lines(
				'bindings',
				'componentstatuses',
				'configmaps',
				'endpoints',
				'events',
				'limitranges',
				'namespaces',
				'nodes',
				'persistentvolumeclaims',
				'persistentvolumes',
				'pods',
				'podtemplates',
				'replicationcontrollers',
				'resourcequotas',
				'secrets',
				'serviceaccounts',
				'services',
				'mutatingadmissionpolicies.admissionregistration.k8s.io',
				'mutatingadmissionpolicybindings.admissionregistration.k8s.io',
				'mutatingwebhookconfigurations.admissionregistration.k8s.io',
				'validatingadmissionpolicies.admissionregistration.k8s.io',
				'validatingadmissionpolicybindings.admissionregistration.k8s.io',
				'validatingwebhookconfigurations.admissionregistration.k8s.io',
				'customresourcedefinitions.apiextensions.k8s.io',
				'apiservices.apiregistration.k8s.io',
				'controllerrevisions.apps',
				'daemonsets.apps',
				'deployments.apps',
				'replicasets.apps',
				'statefulsets.apps',
				'selfsubjectreviews.authentication.k8s.io',
				'tokenreviews.authentication.k8s.io',
				'localsubjectaccessreviews.authorization.k8s.io',
				'selfsubjectaccessreviews.authorization.k8s.io',
				'selfsubjectrulesreviews.authorization.k8s.io',
				'subjectaccessreviews.authorization.k8s.io',
				'horizontalpodautoscalers.autoscaling',
				'cronjobs.batch',
				'jobs.batch',
				'certificatesigningrequests.certificates.k8s.io',
				'leases.coordination.k8s.io',
				'endpointslices.discovery.k8s.io',
				'events.events.k8s.io',
				'flowschemas.flowcontrol.apiserver.k8s.io',
				'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io',
				'ingressclasses.networking.k8s.io',
				'ingresses.networking.k8s.io',
				'ipaddresses.networking.k8s.io',
				'networkpolicies.networking.k8s.io',
				'servicecidrs.networking.k8s.io',
				'runtimeclasses.node.k8s.io',
				'poddisruptionbudgets.policy',
				'clusterrolebindings.rbac.authorization.k8s.io',
				'clusterroles.rbac.authorization.k8s.io',
				'rolebindings.rbac.authorization.k8s.io',
				'roles.rbac.authorization.k8s.io',
				'deviceclasses.resource.k8s.io',
				'resourceclaims.resource.k8s.io',
				'resourceclaimtemplates.resource.k8s.io',
				'resourceslices.resource.k8s.io',
				'priorityclasses.scheduling.k8s.io',
				'csidrivers.storage.k8s.io',
				'csinodes.storage.k8s.io',
				'csistoragecapacities.storage.k8s.io',
				'storageclasses.storage.k8s.io',
				'volumeattachments.storage.k8s.io',
				'volumeattributesclasses.storage.k8s.io',
			),
		);
	});

	it('prints NAME SHORTNAMES APIVERSION NAMESPACED KIND, filtered by group', () => {
		// NAME: controllerrevisions (19) + 3 = 22; SHORTNAMES (10) + 3 = 13; APIVERSION (10) + 3 = 13; NAMESPACED (10) + 3 = 13.
		const w = [22, 13, 13, 13];
		expect(kubectlFixture().kubectl('api-resources --api-group=apps').stdout).toBe(
			lines(
				row(w, 'NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND'),
				row(w, 'controllerrevisions', '', 'apps/v1', 'true', 'ControllerRevision'),
				row(w, 'daemonsets', 'ds', 'apps/v1', 'true', 'DaemonSet'),
				row(w, 'deployments', 'deploy', 'apps/v1', 'true', 'Deployment'),
				row(w, 'replicasets', 'rs', 'apps/v1', 'true', 'ReplicaSet'),
				row(w, 'statefulsets', 'sts', 'apps/v1', 'true', 'StatefulSet'),
			),
		);
	});

	it('adds VERBS and CATEGORIES with -o wide', () => {
		// NAME: cronjobs (8) + 3 = 11; APIVERSION: batch/v1 (8), header (10) → 13; KIND: CronJob (7) + 3 = 10;
		// VERBS: create,delete,deletecollection,get,list,patch,update,watch (58) + 3 = 61.
		const w = [11, 13, 13, 13, 10, 61];
		const verbs = 'create,delete,deletecollection,get,list,patch,update,watch';
		expect(kubectlFixture().kubectl('api-resources -o wide --api-group=batch').stdout).toBe(
			lines(row(w, 'NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', 'VERBS', 'CATEGORIES'), row(w, 'cronjobs', 'cj', 'batch/v1', 'true', 'CronJob', verbs, 'all'), row(w, 'jobs', '', 'batch/v1', 'true', 'Job', verbs, 'all')),
		);
	});

	it('filters by scope and verbs, and sorts by kind or name', () => {
		expect(kubectlFixture().kubectl('api-resources --namespaced=false --verbs=list -o name').stdout).toBe(
			lines(
				'componentstatuses',
				'namespaces',
				'nodes',
				'persistentvolumes',
				'mutatingadmissionpolicies.admissionregistration.k8s.io',
				'mutatingadmissionpolicybindings.admissionregistration.k8s.io',
				'mutatingwebhookconfigurations.admissionregistration.k8s.io',
				'validatingadmissionpolicies.admissionregistration.k8s.io',
				'validatingadmissionpolicybindings.admissionregistration.k8s.io',
				'validatingwebhookconfigurations.admissionregistration.k8s.io',
				'customresourcedefinitions.apiextensions.k8s.io',
				'apiservices.apiregistration.k8s.io',
				'certificatesigningrequests.certificates.k8s.io',
				'flowschemas.flowcontrol.apiserver.k8s.io',
				'prioritylevelconfigurations.flowcontrol.apiserver.k8s.io',
				'ingressclasses.networking.k8s.io',
				'ipaddresses.networking.k8s.io',
				'servicecidrs.networking.k8s.io',
				'runtimeclasses.node.k8s.io',
				'clusterrolebindings.rbac.authorization.k8s.io',
				'clusterroles.rbac.authorization.k8s.io',
				'deviceclasses.resource.k8s.io',
				'resourceslices.resource.k8s.io',
				'priorityclasses.scheduling.k8s.io',
				'csidrivers.storage.k8s.io',
				'csinodes.storage.k8s.io',
				'storageclasses.storage.k8s.io',
				'volumeattachments.storage.k8s.io',
				'volumeattributesclasses.storage.k8s.io',
			),
		);
		expect(kubectlFixture().kubectl('api-resources --api-group=rbac.authorization.k8s.io --sort-by=kind -o name').stdout).toBe(
			lines('clusterroles.rbac.authorization.k8s.io', 'clusterrolebindings.rbac.authorization.k8s.io', 'roles.rbac.authorization.k8s.io', 'rolebindings.rbac.authorization.k8s.io'),
		);
		expect(kubectlFixture().kubectl('api-resources --categories=all -o name --sort-by=name').stdout).toBe(
			lines('cronjobs.batch', 'daemonsets.apps', 'deployments.apps', 'horizontalpodautoscalers.autoscaling', 'jobs.batch', 'pods', 'replicasets.apps', 'replicationcontrollers', 'services', 'statefulsets.apps'),
		);
	});

	it('rejects other sort keys and fails when the server is down', () => {
		expect(kubectlFixture().kubectl('api-resources --sort-by=group')).toEqual({ stdout: '', stderr: 'error: --sort-by accepts only name or kind\n', exitCode: 1 });
		expect(down(kubectlFixture()).kubectl('api-resources')).toEqual({ stdout: '', stderr: REFUSED, exitCode: 1 });
	});
});

describe('kubectl api-versions', () => {
	it('prints each served group/version, sorted', () => {
		expect(kubectlFixture().kubectl('api-versions').stdout).toBe(
			lines(
				'admissionregistration.k8s.io/v1',
				'apiextensions.k8s.io/v1',
				'apiregistration.k8s.io/v1',
				'apps/v1',
				'authentication.k8s.io/v1',
				'authorization.k8s.io/v1',
				'autoscaling/v2',
				'batch/v1',
				'certificates.k8s.io/v1',
				'coordination.k8s.io/v1',
				'discovery.k8s.io/v1',
				'events.k8s.io/v1',
				'flowcontrol.apiserver.k8s.io/v1',
				'networking.k8s.io/v1',
				'node.k8s.io/v1',
				'policy/v1',
				'rbac.authorization.k8s.io/v1',
				'resource.k8s.io/v1',
				'scheduling.k8s.io/v1',
				'storage.k8s.io/v1',
				'v1',
			),
		);
	});
});

describe('kubectl version', () => {
	it('prints the client, the kustomize it embeds and the server', () => {
		expect(kubectlFixture().kubectl('version')).toEqual({ stdout: lines('Client Version: v1.36.3', 'Kustomize Version: v5.8.1', 'Server Version: v1.36.3'), stderr: '', exitCode: 0 });
		expect(kubectlFixture().kubectl('version --client').stdout).toBe(lines('Client Version: v1.36.3', 'Kustomize Version: v5.8.1'));
	});

	it('prints JSON in struct order with two-space indents, the server with its emulation and compatibility versions', () => {
		const out = JSON.parse(kubectlFixture({ serverVersion: 'v1.35.4' }).kubectl('version -o json').stdout) as Record<string, Record<string, string>>;
		expect(Object.keys(out)).toEqual(['clientVersion', 'kustomizeVersion', 'serverVersion']);
		expect(Object.keys(out.clientVersion)).toEqual(['major', 'minor', 'gitVersion', 'gitCommit', 'gitTreeState', 'buildDate', 'goVersion', 'compiler', 'platform']);
		expect(out.serverVersion).toMatchObject({ major: '1', minor: '35', emulationMajor: '1', emulationMinor: '35', minCompatibilityMajor: '1', minCompatibilityMinor: '34', gitVersion: 'v1.35.4' });
		expect(kubectlFixture().kubectl('version --client -o json').stdout.split('\n').slice(0, 3)).toEqual(['{', '  "clientVersion": {', '    "major": "1",']);
	});

	it('prints YAML with sorted keys and the blank line Fprintln adds', () => {
		const out = kubectlFixture().kubectl('version --client -o yaml').stdout;
		expect(out.split('\n').slice(0, 3)).toEqual(['clientVersion:', '  buildDate: "2026-07-23T05:16:13Z"', '  compiler: gc']);
		expect(out.endsWith('kustomizeVersion: v5.8.1\n\n')).toBe(true);
	});

	it('warns beyond one minor version of skew', () => {
		expect(kubectlFixture({ serverVersion: 'v1.33.2' }).kubectl('version')).toEqual({
			stdout: lines('Client Version: v1.36.3', 'Kustomize Version: v5.8.1', 'Server Version: v1.33.2'),
			stderr: 'Warning: version difference between client (1.36) and server (1.33) exceeds the supported minor version skew of +/-1\n',
			exitCode: 0,
		});
	});

	it('prints the client version, then the error, when the server is down', () => {
		expect(down(kubectlFixture()).kubectl('version')).toEqual({ stdout: lines('Client Version: v1.36.3', 'Kustomize Version: v5.8.1'), stderr: REFUSED, exitCode: 1 });
		expect(kubectlFixture().kubectl('version -o xml')).toEqual({ stdout: '', stderr: "error: --output must be 'yaml' or 'json'\n", exitCode: 1 });
	});
});

describe('kubectl cluster-info', () => {
	it('shows the control plane and CoreDNS through the API server proxy', () => {
		const f = kubectlFixture();
		f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
		f.create(
			serviceObject(
				'kube-dns',
				{ selector: { 'k8s-app': 'kube-dns' }, clusterIP: '10.96.0.10', ports: [{ name: 'dns', port: 53, protocol: 'UDP' }, { name: 'dns-tcp', port: 53, protocol: 'TCP' }, { name: 'metrics', port: 9153, protocol: 'TCP' }] },
				'kube-system',
				{ 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
			),
		);
		expect(f.kubectl('cluster-info')).toEqual({
			stdout: lines(
				'Kubernetes control plane is running at https://192.168.56.10:6443',
				'CoreDNS is running at https://192.168.56.10:6443/api/v1/namespaces/kube-system/services/kube-dns:dns/proxy',
				'',
				"To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.",
			),
			stderr: '',
			exitCode: 0,
		});
	});

	it('shows only the control plane without cluster services, and the hint before the error when the server is down', () => {
		expect(kubectlFixture().kubectl('cluster-info').stdout).toBe(lines('Kubernetes control plane is running at https://192.168.56.10:6443', '', "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'."));
		expect(down(kubectlFixture()).kubectl('cluster-info')).toEqual({ stdout: lines('', "To further debug and diagnose cluster problems, use 'kubectl cluster-info dump'."), stderr: REFUSED, exitCode: 1 });
	});
});

describe('kubectl events', () => {
	function withEvents(): KubectlFixture {
		const f = kubectlFixture();
		f.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } });
		const web = f.create(podObject('web-1'));
		const dns = f.create(podObject('coredns-x', { namespace: 'kube-system' }));
		const event = (name: string, involved: KubeObject, reason: string, type: string, message: string, first: string, last: string, count: number) =>
			f.create({
				apiVersion: 'v1',
				kind: 'Event',
				metadata: { name, namespace: involved.metadata.namespace },
				involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: involved.metadata.namespace, name: involved.metadata.name, uid: involved.metadata.uid },
				reason,
				type,
				message,
				source: { component: 'kubelet' },
				firstTimestamp: first,
				lastTimestamp: last,
				count,
			});
		// Names sort differently from times, so the server's order is not the printed one.
		event('a-late', web, 'BackOff', 'Warning', 'Back-off restarting failed container', at(1), at(4), 3);
		event('b-early', web, 'Pulled', 'Normal', 'Container image "nginx:1.25" already present on machine and can be accessed by the pod', at(0, 30), at(0, 30), 1);
		event('c-dns', dns, 'Started', 'Normal', 'Container started', at(2), at(2), 1);
		f.advance(5 * 60_000);
		return f;
	}

	it('lists the namespace events oldest first, objects as Kind/name', () => {
		// LAST SEEN: "60s (x3 over 4m)" (16) + 3 = 19; TYPE: Warning (7) + 3 = 10; REASON: BackOff/Pulled (7) + 3 = 10; OBJECT: Pod/web-1 (9) + 3 = 12.
		const w = [19, 10, 10, 12];
		expect(withEvents().kubectl('events')).toEqual({
			stdout: lines(
				row(w, 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'),
				row(w, '4m30s', 'Normal', 'Pulled', 'Pod/web-1', 'Container image "nginx:1.25" already present on machine and can be accessed by the pod'),
				row(w, '60s (x3 over 4m)', 'Warning', 'BackOff', 'Pod/web-1', 'Back-off restarting failed container'),
			),
			stderr: '',
			exitCode: 0,
		});
	});

	it('spans namespaces with -A, and filters by --types and --for', () => {
		// NAMESPACE: kube-system (11) + 3 = 14; OBJECT: Pod/coredns-x (13) + 3 = 16.
		const w = [14, 19, 10, 10, 16];
		expect(withEvents().kubectl('events -A').stdout).toBe(
			lines(
				row(w, 'NAMESPACE', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'),
				row(w, 'default', '4m30s', 'Normal', 'Pulled', 'Pod/web-1', 'Container image "nginx:1.25" already present on machine and can be accessed by the pod'),
				row(w, 'kube-system', '3m', 'Normal', 'Started', 'Pod/coredns-x', 'Container started'),
				row(w, 'default', '60s (x3 over 4m)', 'Warning', 'BackOff', 'Pod/web-1', 'Back-off restarting failed container'),
			),
		);
		expect(withEvents().kubectl('events --types=Warning').stdout).toBe(lines(row([19, 10, 10, 12], 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'), row([19, 10, 10, 12], '60s (x3 over 4m)', 'Warning', 'BackOff', 'Pod/web-1', 'Back-off restarting failed container')));
		expect(withEvents().kubectl('events --for pod/coredns-x -n kube-system').stdout).toBe(lines(row([12, 9, 10, 16], 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'), row([12, 9, 10, 16], '3m', 'Normal', 'Started', 'Pod/coredns-x', 'Container started')));
	});

	it('says when there are none, and rejects bad --types and --for', () => {
		expect(kubectlFixture().kubectl('events')).toEqual({ stdout: '', stderr: 'No events found in default namespace.\n', exitCode: 0 });
		expect(kubectlFixture().kubectl('events -A')).toEqual({ stdout: '', stderr: 'No events found.\n', exitCode: 0 });
		expect(kubectlFixture().kubectl('events --types=Bogus')).toEqual({ stdout: '', stderr: 'error: valid --types are Normal or Warning\n', exitCode: 1 });
		expect(kubectlFixture().kubectl('events --for web-1')).toEqual({ stdout: '', stderr: 'error: --for must be in resource/name form\n', exitCode: 1 });
		expect(kubectlFixture().kubectl('events --for podz/web-1')).toEqual({ stdout: '', stderr: 'error: the server doesn\'t have a resource type "podz"\n', exitCode: 1 });
	});
});

describe('kubectl config', () => {
	it('views the kubeadm admin kubeconfig with certificate data omitted', () => {
		expect(kubectlFixture().kubectl('config view')).toEqual({
			stdout: lines(
				'apiVersion: v1',
				'clusters:',
				'- cluster:',
				'    certificate-authority-data: DATA+OMITTED',
				'    server: https://192.168.56.10:6443',
				'  name: kubernetes',
				'contexts:',
				'- context:',
				'    cluster: kubernetes',
				'    user: kubernetes-admin',
				'  name: kubernetes-admin@kubernetes',
				'current-context: kubernetes-admin@kubernetes',
				'kind: Config',
				'preferences: {}',
				'users:',
				'- name: kubernetes-admin',
				'  user:',
				'    client-certificate-data: DATA+OMITTED',
				'    client-key-data: DATA+OMITTED',
			),
			stderr: '',
			exitCode: 0,
		});
		expect(kubectlFixture().kubectl('config view --minify').stdout).toBe(kubectlFixture().kubectl('config view').stdout);
	});

	it('prints JSON in the Config struct order, shows data with --raw, and answers JSONPath', () => {
		const json = kubectlFixture().kubectl('config view -o json').stdout;
		expect(Object.keys(JSON.parse(json))).toEqual(['kind', 'apiVersion', 'preferences', 'clusters', 'users', 'contexts', 'current-context']);
		expect(json.split('\n').slice(0, 3)).toEqual(['{', '    "kind": "Config",', '    "apiVersion": "v1",']);
		expect(kubectlFixture().kubectl('config view --raw').stdout).toContain('    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t');
		expect(kubectlFixture().kubectl('config view -o jsonpath={.users[*].name}').stdout).toBe('kubernetes-admin');
	});

	it('shows the current context and the contexts table', () => {
		expect(kubectlFixture().kubectl('config current-context').stdout).toBe('kubernetes-admin@kubernetes\n');
		// NAME: kubernetes-admin@kubernetes (27) + 3 = 30; CLUSTER: kubernetes (10) + 3 = 13; AUTHINFO: kubernetes-admin (16) + 3 = 19; the empty namespace leaves padding behind.
		const w = [10, 30, 13, 19];
		expect(kubectlFixture().kubectl('config get-contexts').stdout).toBe(lines(row(w, 'CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE'), row(w, '*', 'kubernetes-admin@kubernetes', 'kubernetes', 'kubernetes-admin', '')));
		expect(kubectlFixture().kubectl('config get-contexts -o name').stdout).toBe('kubernetes-admin@kubernetes\n');
		// Only the header is printed, so its cells alone size the columns.
		expect(kubectlFixture().kubectl('config get-contexts nope')).toEqual({ stdout: lines(row([10, 7, 10, 11], 'CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE')), stderr: 'error: context nope not found\n', exitCode: 1 });
	});

	it('refuses to change the kubeconfig and unknown subcommands', () => {
		expect(kubectlFixture().kubectl('config use-context other').exitCode).toBe(1);
		expect(kubectlFixture().kubectl('config frob')).toEqual({ stdout: '', stderr: 'error: unknown command "frob"\nSee \'kubectl config -h\' for help and examples\n', exitCode: 1 });
	});
});

describe('kubectl explain', () => {
	it('describes a kind and each of its fields in the template\'s layout', () => {
		expect(kubectlFixture().kubectl('explain pods')).toEqual({
			stdout: [
				'KIND:       Pod',
				'VERSION:    v1',
				'',
				'DESCRIPTION:',
				'    A Pod is one or more containers scheduled together onto a node, sharing its',
				'    network identity and volumes.',
				// sprig's indent also pads the empty line the description's newline leaves.
				'    ',
				'FIELDS:',
				'  apiVersion\t<string>',
				'    The versioned schema of this object, as group/version (or just the version',
				'    for the core group). The API server converts between the versions it serves.',
				'',
				'  kind\t<string>',
				'    The type of this object, in CamelCase. Together with apiVersion it tells',
				'    clients and the server which schema applies.',
				'',
				'  metadata\t<ObjectMeta>',
				'    Standard object metadata: name, namespace, labels, annotations, owners, and',
				'    the fields the server sets (uid, resourceVersion, creationTimestamp).',
				'',
				'  spec\t<PodSpec>',
				'    The desired state: what the user asks for. Controllers work to make the',
				'    observed state match it.',
				'',
				'  status\t<PodStatus>',
				'    The observed state, written by the system (controllers, the kubelet). Users',
				'    do not set it; it may lag behind the spec.',
				'',
				// The template's last newline.
				'',
				'',
			].join('\n'),
			stderr: '',
			exitCode: 0,
		});
	});

	it('explains the kind in the group/version --api-version names, or says the server has none there', () => {
		const f = kubectlFixture();
		expect(f.kubectl('explain deployment.spec.replicas --api-version=apps/v1').stdout).toBe(f.kubectl('explain deployment.spec.replicas').stdout);
		expect(f.kubectl('explain pods --api-version=v1').stdout).toMatch(/^KIND:       Pod\nVERSION:    v1\n/);
		expect(f.kubectl('explain deployment --api-version=apps/v1beta1')).toEqual({ stdout: '', stderr: 'error: couldn\'t find resource for "apps/v1beta1, Kind=Deployment"\n', exitCode: 1 });
		expect(f.kubectl('explain pods --api-version=a/b/c').stderr).toBe('error: unexpected GroupVersion string: a/b/c\n');
	});

	it('explains one field: FIELD, two blank lines, its description and its type\'s, wrapped at 76', () => {
		expect(kubectlFixture().kubectl('explain deployment.spec.replicas').stdout).toBe(
			['GROUP:      apps', 'KIND:       Deployment', 'VERSION:    v1', '', 'FIELD: replicas <integer>', '', '', 'DESCRIPTION:', '    How many pods to run. Unset means 1; 0 keeps the Deployment but runs no', '    pods.', '    ', '', ''].join('\n'),
		);
		const strategy = kubectlFixture().kubectl('explain deploy.spec.strategy').stdout;
		expect(strategy).toContain('FIELD: strategy <DeploymentStrategy>\n\n\nDESCRIPTION:\n    How old pods are replaced by new ones during a rollout.\n    How a Deployment replaces old pods with new ones.\n    \nFIELDS:\n');
		expect(strategy).toContain('  rollingUpdate\t<RollingUpdateDeployment>\n    The limits of a rolling update; only with type RollingUpdate.\n\n  type\t<string>\n');
		const resources = kubectlFixture().kubectl('explain pod.spec.containers.resources').stdout;
		expect(resources).toContain('FIELD: resources <ResourceRequirements>\n');
		expect(resources).toContain('  limits\t<map[string]Quantity>\n');
		expect(resources).toContain('  requests\t<map[string]Quantity>\n');
		const containers = kubectlFixture().kubectl('explain pod.spec.containers').stdout;
		expect(containers).toContain('FIELD: containers <[]Container>\n');
		expect(containers).toContain('  name\t<string> -required-\n');
	});

	it('says <empty> and <no description> where it has no description, as upstream does for an undocumented schema', () => {
		const out = kubectlFixture().kubectl('explain pod.spec.containers.securityContext').stdout;
		expect(out).toContain('DESCRIPTION:\n    <empty>\nFIELDS:\n');
		expect(out).toContain('  privileged\t<boolean>\n    <no description>\n\n');
	});

	it('nests fields with --recursive, without descriptions', () => {
		expect(kubectlFixture().kubectl('explain deploy.spec.strategy --recursive').stdout).toContain('FIELDS:\n  rollingUpdate\t<RollingUpdateDeployment>\n    maxSurge\t<IntOrString>\n    maxUnavailable\t<IntOrString>\n  type\t<string>\n  enum: Recreate, RollingUpdate\n\n');
	});

	it("prints an enum type's values: ENUM one a line under FIELD, `enum:` at most four in a field list", () => {
		expect(kubectlFixture().kubectl('explain pod.spec.restartPolicy').stdout).toContain('FIELD: restartPolicy <string>\nENUM:\n    Always\n    Never\n    OnFailure\n\nDESCRIPTION:\n');
		const spec = kubectlFixture().kubectl('explain pod.spec').stdout;
		expect(spec).toContain('  dnsPolicy\t<string>\n  enum: ClusterFirst, ClusterFirstWithHostNet, Default, None\n    ');
		expect(kubectlFixture().kubectl('explain pv.spec.hostPath').stdout).toContain('  type\t<string>\n  enum: "", BlockDevice, CharDevice, Directory, ....\n');
		// An array's values are its items' enum, which explain does not print; a plain string has none.
		expect(kubectlFixture().kubectl('explain pvc.spec.accessModes').stdout).toContain('FIELD: accessModes <[]string>\n\n\nDESCRIPTION:\n');
		expect(kubectlFixture().kubectl('explain pod.spec.nodeName').stdout).toContain('FIELD: nodeName <string>\n\n\n');
	});

	it('rejects unknown fields and types', () => {
		expect(kubectlFixture().kubectl('explain pods.spec.nope')).toEqual({ stdout: '', stderr: 'error: field "nope" does not exist\n', exitCode: 1 });
		expect(kubectlFixture().kubectl('explain podz')).toEqual({ stdout: '', stderr: 'error: the server doesn\'t have a resource type "podz"\n', exitCode: 1 });
	});
});

describe('kubectl get and describe -f', () => {
	it('fetch the live objects a manifest names', () => {
		const manifest = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-config\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n';
		const f = kubectlFixture({ files: { 'app.yaml': manifest } });
		f.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: 'default' }, data: { a: '1' } });
		f.advance(60_000);
		// The Service does not exist, so only one kind was found: no kind prefix (multipleGVKsRequested looks at what was found).
		expect(f.kubectl('get -f app.yaml')).toEqual({
			stdout: lines(row([13, 7], 'NAME', 'DATA', 'AGE'), row([13, 7], 'app-config', '1', '60s')),
			stderr: 'Error from server (NotFound): services "web" not found\n',
			exitCode: 1,
		});
		expect(f.kubectl('describe -f app.yaml').stderr).toBe('Error from server (NotFound): services "web" not found\n');
		expect(f.kubectl('describe -f app.yaml').stdout.split('\n')[0]).toBe('Name:         app-config');
	});
});

describe('kubectl top', () => {
	it('stops at discovery: no metrics-server, so no metrics.k8s.io group', () => {
		const f = kubectlFixture();
		for (const line of ['top nodes', 'top node node-1', 'top pods -A', 'top po --containers']) {
			expect(f.kubectl(line), line).toEqual({ stdout: '', stderr: 'error: Metrics API not available\n', exitCode: 1 });
		}
		// Bare, the parent prints its help on stderr and fails (DefaultSubCommandRun); cobra pads names to at least 11.
		expect(f.kubectl('top')).toMatchObject({ stdout: '', exitCode: 1 });
		expect(f.kubectl('top').stderr).toContain('Available Commands:\n  node        Display resource (CPU/memory) usage of nodes\n');
	});

	it('reports an API server that does not answer before anything else', () => {
		expect(down(kubectlFixture()).kubectl('top nodes')).toEqual({ stdout: '', stderr: REFUSED, exitCode: 1 });
	});
});
