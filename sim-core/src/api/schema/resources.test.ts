import { describe, expect, it } from 'vitest';
import { apiResources, resolveKind } from './resources.ts';
import { mappingNotFoundMessage, readTypeMeta } from './kubectl.ts';
import { typeForKind } from './schema.ts';

const FULL = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

describe('apiResources: the rows of kubectl api-resources', () => {
	it('lists every simulated resource with its short names', () => {
		const rows = apiResources().map((r) => `${r.name} ${r.shortNames.join(',') || '-'} ${r.apiVersion} ${r.namespaced} ${r.kind}`);
		// v1.36's built-in resources with a default kube-apiserver (every GA group version), as checked
		// against the v1.36 OpenAPI document, k8s.io/api v0.36.3 and each storage's ShortNames; the
		// other review resources are added by ../resources.ts.
		expect(rows).toEqual([
			'bindings - v1 true Binding',
			'componentstatuses cs v1 false ComponentStatus',
			'configmaps cm v1 true ConfigMap',
			'endpoints ep v1 true Endpoints',
			'events ev v1 true Event',
			'limitranges limits v1 true LimitRange',
			'namespaces ns v1 false Namespace',
			'nodes no v1 false Node',
			'persistentvolumeclaims pvc v1 true PersistentVolumeClaim',
			'persistentvolumes pv v1 false PersistentVolume',
			'pods po v1 true Pod',
			'podtemplates - v1 true PodTemplate',
			'replicationcontrollers rc v1 true ReplicationController',
			'resourcequotas quota v1 true ResourceQuota',
			'secrets - v1 true Secret',
			'serviceaccounts sa v1 true ServiceAccount',
			'services svc v1 true Service',
			'mutatingadmissionpolicies map admissionregistration.k8s.io/v1 false MutatingAdmissionPolicy',
			'mutatingadmissionpolicybindings - admissionregistration.k8s.io/v1 false MutatingAdmissionPolicyBinding',
			'mutatingwebhookconfigurations - admissionregistration.k8s.io/v1 false MutatingWebhookConfiguration',
			'validatingadmissionpolicies - admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicy',
			'validatingadmissionpolicybindings - admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicyBinding',
			'validatingwebhookconfigurations - admissionregistration.k8s.io/v1 false ValidatingWebhookConfiguration',
			'customresourcedefinitions crd,crds apiextensions.k8s.io/v1 false CustomResourceDefinition',
			'apiservices - apiregistration.k8s.io/v1 false APIService',
			'controllerrevisions - apps/v1 true ControllerRevision',
			'daemonsets ds apps/v1 true DaemonSet',
			'deployments deploy apps/v1 true Deployment',
			'replicasets rs apps/v1 true ReplicaSet',
			'statefulsets sts apps/v1 true StatefulSet',
			'tokenreviews - authentication.k8s.io/v1 false TokenReview',
			'horizontalpodautoscalers hpa autoscaling/v2 true HorizontalPodAutoscaler',
			'cronjobs cj batch/v1 true CronJob',
			'jobs - batch/v1 true Job',
			'certificatesigningrequests csr certificates.k8s.io/v1 false CertificateSigningRequest',
			'leases - coordination.k8s.io/v1 true Lease',
			'endpointslices - discovery.k8s.io/v1 true EndpointSlice',
			'events ev events.k8s.io/v1 true Event',
			'flowschemas - flowcontrol.apiserver.k8s.io/v1 false FlowSchema',
			'prioritylevelconfigurations - flowcontrol.apiserver.k8s.io/v1 false PriorityLevelConfiguration',
			'nodes - metrics.k8s.io/v1beta1 false NodeMetrics',
			'pods - metrics.k8s.io/v1beta1 true PodMetrics',
			'ingressclasses - networking.k8s.io/v1 false IngressClass',
			'ingresses ing networking.k8s.io/v1 true Ingress',
			'ipaddresses - networking.k8s.io/v1 false IPAddress',
			'networkpolicies netpol networking.k8s.io/v1 true NetworkPolicy',
			'servicecidrs - networking.k8s.io/v1 false ServiceCIDR',
			'runtimeclasses - node.k8s.io/v1 false RuntimeClass',
			'poddisruptionbudgets pdb policy/v1 true PodDisruptionBudget',
			'clusterrolebindings - rbac.authorization.k8s.io/v1 false ClusterRoleBinding',
			'clusterroles - rbac.authorization.k8s.io/v1 false ClusterRole',
			'rolebindings - rbac.authorization.k8s.io/v1 true RoleBinding',
			'roles - rbac.authorization.k8s.io/v1 true Role',
			'deviceclasses - resource.k8s.io/v1 false DeviceClass',
			'resourceclaims - resource.k8s.io/v1 true ResourceClaim',
			'resourceclaimtemplates - resource.k8s.io/v1 true ResourceClaimTemplate',
			'resourceslices - resource.k8s.io/v1 false ResourceSlice',
			'priorityclasses pc scheduling.k8s.io/v1 false PriorityClass',
			'csidrivers - storage.k8s.io/v1 false CSIDriver',
			'csinodes - storage.k8s.io/v1 false CSINode',
			'csistoragecapacities - storage.k8s.io/v1 true CSIStorageCapacity',
			'storageclasses sc storage.k8s.io/v1 false StorageClass',
			'volumeattachments - storage.k8s.io/v1 false VolumeAttachment',
			'volumeattributesclasses vac storage.k8s.io/v1 false VolumeAttributesClass',
		]);
	});

	it('has discovery’s verbs, categories and subresources', () => {
		const byName = (name: string, apiVersion = 'v1') => apiResources().find((r) => r.name === name && r.apiVersion === apiVersion);
		expect(byName('pods')?.verbs).toEqual(FULL);
		expect(byName('namespaces')?.verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
		expect(byName('bindings')?.verbs).toEqual(['create']);
		expect(byName('deployments', 'apps/v1')?.categories).toEqual(['all']);
		expect(byName('configmaps')?.categories).toEqual([]);
		expect(byName('replicationcontrollers')?.categories).toEqual(['all']);
		for (const name of ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations', 'validatingadmissionpolicies', 'mutatingadmissionpolicybindings']) {
			expect(byName(name, 'admissionregistration.k8s.io/v1')?.categories, name).toEqual(['api-extensions']);
		}
		expect(byName('customresourcedefinitions', 'apiextensions.k8s.io/v1')?.categories).toEqual(['api-extensions']);
		expect(byName('apiservices', 'apiregistration.k8s.io/v1')?.categories).toEqual(['api-extensions']);
		expect(byName('componentstatuses')?.verbs).toEqual(['get', 'list']);
		expect(byName('certificatesigningrequests', 'certificates.k8s.io/v1')?.subresources.map((s) => s.name)).toEqual(['certificatesigningrequests/approval', 'certificatesigningrequests/status']);
		expect(byName('replicationcontrollers')?.subresources[0]).toEqual({ name: 'replicationcontrollers/scale', kind: 'Scale', apiVersion: 'autoscaling/v1', verbs: ['get', 'patch', 'update'] });
		expect(byName('pods')?.subresources.find((s) => s.name === 'pods/binding')).toEqual({ name: 'pods/binding', kind: 'Binding', apiVersion: 'v1', verbs: ['create'] });
		expect(byName('pods')?.subresources.find((s) => s.name === 'pods/eviction')).toEqual({ name: 'pods/eviction', kind: 'Eviction', apiVersion: 'policy/v1', verbs: ['create'] });
		expect(byName('pods')?.subresources.find((s) => s.name === 'pods/status')).toEqual({ name: 'pods/status', kind: 'Pod', apiVersion: 'v1', verbs: ['get', 'patch', 'update'] });
		expect(byName('deployments', 'apps/v1')?.subresources).toEqual([
			{ name: 'deployments/scale', kind: 'Scale', apiVersion: 'autoscaling/v1', verbs: ['get', 'patch', 'update'] },
			{ name: 'deployments/status', kind: 'Deployment', apiVersion: 'apps/v1', verbs: ['get', 'patch', 'update'] },
		]);
		expect(byName('configmaps')?.subresources).toEqual([]);
		for (const r of apiResources()) {
			expect(r.singularName).toBe(r.kind.toLowerCase());
			expect([...r.verbs].sort()).toEqual(r.verbs);
			// Every resource's kind has a schema to decode it with.
			expect(typeForKind(r), r.name).toBeDefined();
		}
	});
});

describe('resolveKind: kubectl’s REST mapping', () => {
	it('maps apiVersion and kind to the resource', () => {
		expect(resolveKind('apps/v1', 'Deployment').resource).toMatchObject({ name: 'deployments', namespaced: true, shortNames: ['deploy'] });
		expect(resolveKind('v1', 'Node').resource).toMatchObject({ name: 'nodes', namespaced: false, shortNames: ['no'] });
		expect(resolveKind('v1', 'Event').resource?.apiVersion).toBe('v1');
		expect(resolveKind('events.k8s.io/v1', 'Event').resource?.apiVersion).toBe('events.k8s.io/v1');
		expect(resolveKind('v1', 'Binding').resource?.name).toBe('bindings');
		// Without a version, any version of the group will do.
		expect(resolveKind('', 'Pod').resource?.name).toBe('pods');
	});

	it('reports what it cannot map, in upstream’s words', () => {
		expect(resolveKind('apps/v1', 'Deploymnet')).toEqual({ error: 'no matches for kind "Deploymnet" in version "apps/v1"' });
		expect(resolveKind('apps/v1', 'deployment').error).toBe('no matches for kind "deployment" in version "apps/v1"');
		expect(resolveKind('apps/v1beta1', 'Deployment').error).toBe('no matches for kind "Deployment" in version "apps/v1beta1"');
		expect(resolveKind('extensions/v1beta1', 'Ingress').error).toBe('no matches for kind "Ingress" in version "extensions/v1beta1"');
		expect(resolveKind('v1', 'Deployment').error).toBe('no matches for kind "Deployment" in version "v1"');
		expect(resolveKind('', 'Deployment').error).toBe('no matches for kind "Deployment" in version ""');
		expect(resolveKind('autoscaling/v1', 'Scale').error).toBe('no matches for kind "Scale" in version "autoscaling/v1"');
		expect(resolveKind('apps/v1/x', 'Deployment').error).toBe('unexpected GroupVersion string: apps/v1/x');
	});

	it('builds kubectl’s whole message', () => {
		const { error } = resolveKind('apps/v1', 'Deploymnet');
		expect(mappingNotFoundMessage(error as string, 'web', '', 'web.yaml')).toBe(
			'resource mapping not found for name: "web" namespace: "" from "web.yaml": no matches for kind "Deploymnet" in version "apps/v1"\nensure CRDs are installed first',
		);
	});
});

describe('readTypeMeta: kubectl’s own checks', () => {
	const STOP = '; if you choose to ignore these errors, turn validation off with --validate=false';

	it('reads apiVersion and kind', () => {
		expect(readTypeMeta({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } })).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment' });
	});

	it('validates them first, by default', () => {
		expect(readTypeMeta({ apiVersion: 'apps/v1', metadata: { name: 'web' } }).error).toBe(`error validating data: kind not set${STOP}`);
		expect(readTypeMeta({ kind: 'Deployment' }).error).toBe(`error validating data: apiVersion not set${STOP}`);
		expect(readTypeMeta({ metadata: {} }).error).toBe(`error validating data: [apiVersion not set, kind not set]${STOP}`);
		expect(readTypeMeta({ apiVersion: 1, kind: true }).error).toBe(`error validating data: [apiVersion isn't string type, kind isn't string type]${STOP}`);
		expect(readTypeMeta({ apiVersion: 'a/b/c', kind: 'X' }).error).toBe(`error validating data: unexpected GroupVersion string: a/b/c${STOP}`);
		expect(readTypeMeta(['a']).error).toBe(`error validating data: invalid object to validate${STOP}`);
		expect(readTypeMeta(null).error).toBe(`error validating data: invalid object to validate${STOP}`);
	});

	it('then requires a kind, quoting the JSON it made from the YAML', () => {
		expect(readTypeMeta({ apiVersion: 'apps/v1', kind: '', metadata: { name: 'web' } }).error).toBe(
			`Object 'Kind' is missing in '{"apiVersion":"apps/v1","kind":"","metadata":{"name":"web"}}'`,
		);
		expect(readTypeMeta({ spec: { replicas: 1 }, apiVersion: 'apps/v1', metadata: { name: 'web' } }, { validate: false }).error).toBe(
			`Object 'Kind' is missing in '{"apiVersion":"apps/v1","metadata":{"name":"web"},"spec":{"replicas":1}}'`,
		);
		expect(readTypeMeta({ kind: 'Pod' }, { validate: false })).toEqual({ apiVersion: '', kind: 'Pod' });
		expect(readTypeMeta(null, { validate: false }).error).toBe(`Object 'Kind' is missing in 'null'`);
	});
});
