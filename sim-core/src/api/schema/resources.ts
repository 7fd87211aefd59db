/**
 * The discovery data behind `kubectl api-resources` for the kinds the
 * simulator serves, and kubectl's REST mapping from a manifest's
 * apiVersion/kind to a resource.
 *
 * Facts (names, short names, scope, verbs, categories, subresources) are as
 * a v1.3x kube-apiserver reports them in /api/v1 and /apis/<group>/<version>
 * (upstream: each storage's ShortNames() and Categories() under
 * k8s.io/kubernetes/pkg/registry, and the verbs its REST storage
 * implements). Checked against a real v1.31 /api/v1 discovery document and
 * the v1.3x group documents; `pods/resize` is newer (v1.33+). The rest of
 * v1.36's built-in resources (every GA group version, which is what a
 * default kube-apiserver enables) were taken from the v1.36 OpenAPI
 * document (paths, scope, verbs, subresources), k8s.io/api v0.36.3 (the
 * release each v1 kind went GA in: MutatingAdmissionPolicy v1 in 1.36),
 * k8s.io/apiserver v0.36.3 (the MutatingAdmissionPolicy gate, GA and on in
 * 1.36) and the storages' ShortNames and Categories under pkg/registry.
 * The authorization reviews and SelfSubjectReview are not rows (they have
 * no field schema here): ../resources.ts adds them.
 *
 * Mirrors pkg/registry/ (each storage's ShortNames and Categories),
 * staging/src/k8s.io/apiserver/pkg/endpoints/installer.go (the discovery
 * entries), staging/src/k8s.io/apimachinery/pkg/api/meta/restmapper.go
 * (kubectl's REST mapping).
 */

import { noKindMatch } from './decode.ts';
import { groupVersionString } from './schema.ts';

/** A subresource (`pods/binding`, `deployments/scale`) as discovery lists it. */
export interface ApiSubresource {
	/** `pods/status`. */
	readonly name: string;
	/** The kind of its request body: `Binding`, `Scale`, or the parent's. */
	readonly kind: string;
	/** The body's apiVersion (`autoscaling/v1` for scale), when it is not the parent's. */
	readonly apiVersion: string;
	readonly verbs: readonly string[];
}

/**
 * One row of `kubectl api-resources -o wide` (metav1.APIResource upstream,
 * k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
 */
export interface ApiResource {
	/** NAME: the plural, as in URLs (`deployments`). */
	readonly name: string;
	/** The lower-case kind (`deployment`). */
	readonly singularName: string;
	/** SHORTNAMES (`deploy`). */
	readonly shortNames: readonly string[];
	/** APIVERSION (`apps/v1`, `v1`). */
	readonly apiVersion: string;
	/** API group, '' for core. */
	readonly group: string;
	readonly version: string;
	/** NAMESPACED. */
	readonly namespaced: boolean;
	/** KIND. */
	readonly kind: string;
	/** VERBS, sorted as discovery sorts them. */
	readonly verbs: readonly string[];
	/** CATEGORIES (`all` for what `kubectl get all` shows). */
	readonly categories: readonly string[];
	readonly subresources: readonly ApiSubresource[];
}

const ALL_VERBS = 'create delete deletecollection get list patch update watch';
const STATUS = 'status';
/** The category of the resources that extend the API (admission policies and webhooks, CRDs, APIServices). */
const EXT = 'api-extensions';

// Subresources: `name[=Kind][@apiVersion][:verbs]`; verbs default to get patch update.
// Resources: [name, shortNames, apiVersion, namespaced, kind, verbs?, categories?, subresources?]
type Row = [string, string, string, 0 | 1, string, string?, string?, string?];
const ROWS: Row[] = [
	['bindings', '', 'v1', 1, 'Binding', 'create'],
	['componentstatuses', 'cs', 'v1', 0, 'ComponentStatus', 'get list'],
	['configmaps', 'cm', 'v1', 1, 'ConfigMap'],
	['endpoints', 'ep', 'v1', 1, 'Endpoints'],
	['events', 'ev', 'v1', 1, 'Event'],
	['limitranges', 'limits', 'v1', 1, 'LimitRange'],
	['namespaces', 'ns', 'v1', 0, 'Namespace', 'create delete get list patch update watch', '', `finalize:update ${STATUS}`],
	['nodes', 'no', 'v1', 0, 'Node', '', '', `proxy=NodeProxyOptions:create,delete,get,patch,update ${STATUS}`],
	['persistentvolumeclaims', 'pvc', 'v1', 1, 'PersistentVolumeClaim', '', '', STATUS],
	['persistentvolumes', 'pv', 'v1', 0, 'PersistentVolume', '', '', STATUS],
	[
		'pods',
		'po',
		'v1',
		1,
		'Pod',
		'',
		'all',
		'attach=PodAttachOptions:create,get binding=Binding:create ephemeralcontainers eviction=Eviction@policy/v1:create exec=PodExecOptions:create,get log:get ' +
			`portforward=PodPortForwardOptions:create,get proxy=PodProxyOptions:create,delete,get,patch,update resize ${STATUS}`,
	],
	['podtemplates', '', 'v1', 1, 'PodTemplate'],
	['replicationcontrollers', 'rc', 'v1', 1, 'ReplicationController', '', 'all', `scale=Scale@autoscaling/v1 ${STATUS}`],
	['resourcequotas', 'quota', 'v1', 1, 'ResourceQuota', '', '', STATUS],
	['secrets', '', 'v1', 1, 'Secret'],
	['serviceaccounts', 'sa', 'v1', 1, 'ServiceAccount', '', '', 'token=TokenRequest@authentication.k8s.io/v1:create'],
	['services', 'svc', 'v1', 1, 'Service', '', 'all', `proxy=ServiceProxyOptions:create,delete,get,patch,update ${STATUS}`],
	['mutatingadmissionpolicies', 'map', 'admissionregistration.k8s.io/v1', 0, 'MutatingAdmissionPolicy', '', EXT],
	['mutatingadmissionpolicybindings', '', 'admissionregistration.k8s.io/v1', 0, 'MutatingAdmissionPolicyBinding', '', EXT],
	['mutatingwebhookconfigurations', '', 'admissionregistration.k8s.io/v1', 0, 'MutatingWebhookConfiguration', '', EXT],
	['validatingadmissionpolicies', '', 'admissionregistration.k8s.io/v1', 0, 'ValidatingAdmissionPolicy', '', EXT, STATUS],
	['validatingadmissionpolicybindings', '', 'admissionregistration.k8s.io/v1', 0, 'ValidatingAdmissionPolicyBinding', '', EXT],
	['validatingwebhookconfigurations', '', 'admissionregistration.k8s.io/v1', 0, 'ValidatingWebhookConfiguration', '', EXT],
	['customresourcedefinitions', 'crd crds', 'apiextensions.k8s.io/v1', 0, 'CustomResourceDefinition', '', EXT, STATUS],
	['apiservices', '', 'apiregistration.k8s.io/v1', 0, 'APIService', '', EXT, STATUS],
	['controllerrevisions', '', 'apps/v1', 1, 'ControllerRevision'],
	['daemonsets', 'ds', 'apps/v1', 1, 'DaemonSet', '', 'all', STATUS],
	['deployments', 'deploy', 'apps/v1', 1, 'Deployment', '', 'all', `scale=Scale@autoscaling/v1 ${STATUS}`],
	['replicasets', 'rs', 'apps/v1', 1, 'ReplicaSet', '', 'all', `scale=Scale@autoscaling/v1 ${STATUS}`],
	['statefulsets', 'sts', 'apps/v1', 1, 'StatefulSet', '', 'all', `scale=Scale@autoscaling/v1 ${STATUS}`],
	// Answered by the API server's token authenticator, never stored (../../apiserver/reviews.ts).
	['tokenreviews', '', 'authentication.k8s.io/v1', 0, 'TokenReview', 'create'],
	['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', 1, 'HorizontalPodAutoscaler', '', 'all', STATUS],
	['cronjobs', 'cj', 'batch/v1', 1, 'CronJob', '', 'all', STATUS],
	['jobs', '', 'batch/v1', 1, 'Job', '', 'all', STATUS],
	['certificatesigningrequests', 'csr', 'certificates.k8s.io/v1', 0, 'CertificateSigningRequest', '', '', `approval ${STATUS}`],
	['leases', '', 'coordination.k8s.io/v1', 1, 'Lease'],
	['endpointslices', '', 'discovery.k8s.io/v1', 1, 'EndpointSlice'],
	['events', 'ev', 'events.k8s.io/v1', 1, 'Event'],
	['flowschemas', '', 'flowcontrol.apiserver.k8s.io/v1', 0, 'FlowSchema', '', '', STATUS],
	['prioritylevelconfigurations', '', 'flowcontrol.apiserver.k8s.io/v1', 0, 'PriorityLevelConfiguration', '', '', STATUS],
	// metrics.k8s.io is not the API server's own: metrics-server serves it through the aggregator (APIService v1beta1.metrics.k8s.io).
	['nodes', '', 'metrics.k8s.io/v1beta1', 0, 'NodeMetrics', 'get list'],
	['pods', '', 'metrics.k8s.io/v1beta1', 1, 'PodMetrics', 'get list'],
	['ingressclasses', '', 'networking.k8s.io/v1', 0, 'IngressClass'],
	['ingresses', 'ing', 'networking.k8s.io/v1', 1, 'Ingress', '', '', STATUS],
	['ipaddresses', '', 'networking.k8s.io/v1', 0, 'IPAddress'],
	['networkpolicies', 'netpol', 'networking.k8s.io/v1', 1, 'NetworkPolicy'],
	['servicecidrs', '', 'networking.k8s.io/v1', 0, 'ServiceCIDR', '', '', STATUS],
	['runtimeclasses', '', 'node.k8s.io/v1', 0, 'RuntimeClass'],
	['poddisruptionbudgets', 'pdb', 'policy/v1', 1, 'PodDisruptionBudget', '', '', STATUS],
	['clusterrolebindings', '', 'rbac.authorization.k8s.io/v1', 0, 'ClusterRoleBinding'],
	['clusterroles', '', 'rbac.authorization.k8s.io/v1', 0, 'ClusterRole'],
	['rolebindings', '', 'rbac.authorization.k8s.io/v1', 1, 'RoleBinding'],
	['roles', '', 'rbac.authorization.k8s.io/v1', 1, 'Role'],
	['deviceclasses', '', 'resource.k8s.io/v1', 0, 'DeviceClass'],
	['resourceclaims', '', 'resource.k8s.io/v1', 1, 'ResourceClaim', '', '', STATUS],
	['resourceclaimtemplates', '', 'resource.k8s.io/v1', 1, 'ResourceClaimTemplate'],
	['resourceslices', '', 'resource.k8s.io/v1', 0, 'ResourceSlice'],
	['priorityclasses', 'pc', 'scheduling.k8s.io/v1', 0, 'PriorityClass'],
	['csidrivers', '', 'storage.k8s.io/v1', 0, 'CSIDriver'],
	['csinodes', '', 'storage.k8s.io/v1', 0, 'CSINode'],
	['csistoragecapacities', '', 'storage.k8s.io/v1', 1, 'CSIStorageCapacity'],
	['storageclasses', 'sc', 'storage.k8s.io/v1', 0, 'StorageClass'],
	['volumeattachments', '', 'storage.k8s.io/v1', 0, 'VolumeAttachment', '', '', STATUS],
	['volumeattributesclasses', 'vac', 'storage.k8s.io/v1', 0, 'VolumeAttributesClass'],
];

const words = (text: string | undefined): string[] => (text ? text.split(/[ ,]/) : []);

let table: ApiResource[] | undefined;

/**
 * Every resource the simulator serves, in `kubectl api-resources` order
 * (core group first, then groups alphabetically, names alphabetically within
 * a group).
 */
export function apiResources(): readonly ApiResource[] {
	table ??= ROWS.map(([name, short, apiVersion, namespaced, kind, verbs, categories, subs]) => {
		const slash = apiVersion.indexOf('/');
		return {
			name,
			singularName: kind.toLowerCase(),
			shortNames: words(short),
			apiVersion,
			group: slash < 0 ? '' : apiVersion.slice(0, slash),
			version: apiVersion.slice(slash + 1),
			namespaced: namespaced === 1,
			kind,
			verbs: words(verbs || ALL_VERBS),
			categories: words(categories),
			subresources: words(subs?.replaceAll(',', '+')).map((sub) => {
				const m = /^(\w+)(?:=(\w+))?(?:@([\w./]+))?(?::([\w+]+))?$/.exec(sub) as RegExpExecArray;
				return { name: `${name}/${m[1]}`, kind: m[2] ?? kind, apiVersion: m[3] ?? apiVersion, verbs: (m[4] ?? 'get+patch+update').split('+') };
			}),
		};
	});
	return table;
}

/**
 * The outcome of kubectl's REST mapping of a manifest's apiVersion and
 * kind: the resource, or the error kubectl reports.
 */
export type KindResolution = { readonly resource: ApiResource; readonly error?: undefined } | { readonly resource?: undefined; readonly error: string };

/**
 * Maps a manifest's apiVersion and kind to the resource that serves it, as
 * kubectl's RESTMapper does before sending anything (cli-runtime
 * pkg/resource/mapper.go infoForData → meta.DefaultRESTMapper.RESTMapping).
 * Kinds match case-sensitively. An apiVersion with no version part searches
 * every version of the group. Errors are upstream's:
 * `no matches for kind "Deploymnet" in version "apps/v1"`, or
 * `unexpected GroupVersion string: a/b/c` (schema.ParseGroupVersion).
 */
export function resolveKind(apiVersion: string, kind: string): KindResolution {
	const parts = apiVersion === '/' ? [''] : apiVersion.split('/');
	if (parts.length > 2) return { error: `unexpected GroupVersion string: ${apiVersion}` };
	const [group, version] = parts.length === 2 ? parts : ['', parts[0]];
	const resource = apiResources().find((r) => r.group === group && (r.version === version || !version) && r.kind === kind);
	return resource ? { resource } : { error: noKindMatch(kind, groupVersionString(group, version)) };
}
