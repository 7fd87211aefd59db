/**
 * The default RBAC policy: the ClusterRoles, ClusterRoleBindings, Roles and
 * RoleBindings kube-apiserver writes at start-up (its `rbac/bootstrap-roles`
 * post-start hook), and, separately, the RBAC objects `kubeadm init` adds.
 *
 * The rules follow the v1.36 defaults: rules guarded by a feature gate that
 * is off by default (alpha, and off-by-default beta) are left out; rules
 * guarded by a gate that is on by default (or GA) are in, with the gate
 * named. Every list in a rule is sorted, as upstream's rule builder sorts
 * (so `kubectl get clusterrole view -o yaml` reads as on a real cluster).
 * The objects are plain data; the cluster bootstrap writes them through the
 * API as the API server's loopback client (group system:masters).
 *
 * Mirrors plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go,
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go,
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go (their
 * rendered form is testdata/*.yaml),
 * cmd/kubeadm/app/phases/bootstraptoken/node/tlsbootstrap.go,
 * cmd/kubeadm/app/phases/bootstraptoken/clusterinfo/clusterinfo.go,
 * cmd/kubeadm/app/phases/uploadconfig/uploadconfig.go,
 * cmd/kubeadm/app/phases/kubelet/config.go,
 * cmd/kubeadm/app/phases/addons/proxy/proxy.go,
 * cmd/kubeadm/app/phases/addons/dns/manifests.go,
 * cmd/kubeadm/app/phases/kubeconfig/kubeconfig.go.
 */
import type { KubeObject, PolicyRule } from '../../api/types.ts';
import { compareGoStrings } from '../../golang/json.ts';

/** rbac.GroupName. */
const RBAC = 'rbac.authorization.k8s.io';
const API_VERSION = `${RBAC}/v1`;

/** bootstrappolicy.Label: marks every default object. */
const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
/** rbacv1.AutoUpdateAnnotationKey: the API server reconciles objects carrying it at every start. */
const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
/** The labels that feed the aggregated admin, edit and view ClusterRoles. */
const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

/** user.SystemPrivilegedGroup and friends (k8s.io/apiserver/pkg/authentication/user/user.go). */
export const SYSTEM_MASTERS = 'system:masters';
export const SYSTEM_NODES = 'system:nodes';
const SYSTEM_MONITORING = 'system:monitoring';
export const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';
/** serviceaccount.AllServiceAccountsGroup. */
export const ALL_SERVICE_ACCOUNTS = 'system:serviceaccounts';
/** kubeadm's constants.ClusterAdminsGroupAndClusterRoleBinding (the admin.conf certificate's O since v1.29). */
export const KUBEADM_CLUSTER_ADMINS = 'kubeadm:cluster-admins';
/** kubeadm's constants.NodeBootstrapTokenAuthGroup: the group of the default bootstrap token. */
const KUBEADM_BOOTSTRAP_TOKEN_GROUP = 'system:bootstrappers:kubeadm:default-node-token';

/** bootstrappolicy verb sets (policy.go). */
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const READ_WRITE = [...READ, ...WRITE];
const READ_UPDATE = ['get', 'list', 'watch', 'update', 'patch'];

const CORE = '';
const APPS = 'apps';
const AUTHENTICATION = 'authentication.k8s.io';
const AUTHORIZATION = 'authorization.k8s.io';
const AUTOSCALING = 'autoscaling';
const BATCH = 'batch';
const CERTIFICATES = 'certificates.k8s.io';
const COORDINATION = 'coordination.k8s.io';
const DISCOVERY = 'discovery.k8s.io';
const EVENTS = 'events.k8s.io';
const EXTENSIONS = 'extensions';
const NETWORKING = 'networking.k8s.io';
const POLICY = 'policy';
const RESOURCE = 'resource.k8s.io';
const STORAGE = 'storage.k8s.io';

function sortedSet(values: readonly string[]): string[] {
	return [...new Set(values)].sort(compareGoStrings);
}

/** rbacv1helpers.NewRule(verbs).Groups(groups).Resources(resources).Names(names).RuleOrDie(): every list sorted and de-duplicated. */
function rule(verbs: readonly string[], apiGroups: readonly string[], resources: readonly string[], resourceNames?: readonly string[]): PolicyRule {
	const out: PolicyRule = { verbs: sortedSet(verbs), apiGroups: sortedSet(apiGroups), resources: sortedSet(resources) };
	if (resourceNames?.length) out.resourceNames = sortedSet(resourceNames);
	return out;
}

/** rbacv1helpers.NewRule(verbs).URLs(urls).RuleOrDie(). */
function urls(verbs: readonly string[], nonResourceURLs: readonly string[]): PolicyRule {
	return { verbs: sortedSet(verbs), nonResourceURLs: sortedSet(nonResourceURLs) };
}

/** eventsRule(): create/update/patch of events in both event groups. */
function eventsRule(): PolicyRule {
	return rule(['create', 'update', 'patch'], [CORE, EVENTS], ['events']);
}

function defaultMetadata(name: string, namespace?: string, labels: Record<string, string> = {}): KubeObject['metadata'] {
	const metadata: KubeObject['metadata'] = {
		name,
		labels: { ...labels, [BOOTSTRAPPING_LABEL]: 'rbac-defaults' },
		annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
	};
	if (namespace) metadata.namespace = namespace;
	return metadata;
}

interface RoleSpec {
	name: string;
	rules?: PolicyRule[];
	labels?: Record<string, string>;
	/** matchLabels of each aggregationRule.clusterRoleSelectors entry. */
	aggregateFrom?: string;
}

function clusterRole(spec: RoleSpec): KubeObject {
	const obj: KubeObject = { apiVersion: API_VERSION, kind: 'ClusterRole', metadata: defaultMetadata(spec.name, undefined, spec.labels) };
	if (spec.aggregateFrom) obj.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [spec.aggregateFrom]: 'true' } }] };
	// An aggregated role is written without rules: the clusterrole-aggregation controller fills them (rbac.ts computes them meanwhile).
	if (spec.rules) obj.rules = spec.rules;
	return obj;
}

function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
	return { apiVersion: API_VERSION, kind: 'Role', metadata: defaultMetadata(name, namespace), rules };
}

type SubjectSpec = { user: string } | { group: string } | { serviceAccount: string; namespace: string };

function subject(s: SubjectSpec): Record<string, string> {
	if ('user' in s) return { apiGroup: RBAC, kind: 'User', name: s.user };
	if ('group' in s) return { apiGroup: RBAC, kind: 'Group', name: s.group };
	return { kind: 'ServiceAccount', name: s.serviceAccount, namespace: s.namespace };
}

/** rbacv1helpers.NewClusterBinding(role): the binding is named after the role. */
function clusterRoleBinding(roleName: string, subjects: SubjectSpec[], bindingName = roleName, metadata = defaultMetadata(bindingName)): KubeObject {
	const obj: KubeObject = { apiVersion: API_VERSION, kind: 'ClusterRoleBinding', metadata, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName } };
	if (subjects.length) obj.subjects = subjects.map(subject);
	return obj;
}

function roleBinding(namespace: string, bindingName: string, roleName: string, subjects: SubjectSpec[], metadata = defaultMetadata(bindingName, namespace)): KubeObject {
	return { apiVersion: API_VERSION, kind: 'RoleBinding', metadata, roleRef: { apiGroup: RBAC, kind: 'Role', name: roleName }, subjects: subjects.map(subject) };
}

/**
 * NodeRules(): what every kubelet may do, as the `system:node` ClusterRole
 * and the Node authorizer's static rules. The Node authorizer narrows
 * secrets, configmaps, pods, nodes, leases... to the node's own objects.
 */
export function nodeRules(): PolicyRule[] {
	return [
		// Needed to check API access; these creates do not mutate anything.
		rule(['create'], [AUTHENTICATION], ['tokenreviews']),
		rule(['create'], [AUTHORIZATION], ['subjectaccessreviews', 'localsubjectaccessreviews']),
		// The service lister, for the env vars of services.
		rule(READ, [CORE], ['services']),
		// Nodes register themselves and report status (NodeRestriction limits them to their own).
		rule(['create', 'get', 'list', 'watch'], [CORE], ['nodes']),
		rule(['update', 'patch'], [CORE], ['nodes/status']),
		rule(['update', 'patch'], [CORE], ['nodes']),
		rule(['create', 'update', 'patch'], [CORE], ['events']),
		rule(READ, [CORE], ['pods']),
		// Mirror pods, pod status and evictions (NodeRestriction limits them to pods bound to the node).
		rule(['create', 'delete'], [CORE], ['pods']),
		rule(['update', 'patch'], [CORE], ['pods/status']),
		rule(['create'], [CORE], ['pods/eviction']),
		// Secret and configmap volumes and env (the Node authorizer limits them to the node's pods).
		rule(READ, [CORE], ['secrets', 'configmaps']),
		rule(['get'], [CORE], ['persistentvolumeclaims', 'persistentvolumes']),
		rule(['get'], [CORE], ['endpoints']),
		// Client certificate rotation.
		rule(['create', 'get', 'list', 'watch'], [CERTIFICATES], ['certificatesigningrequests']),
		// The node's heartbeat Lease.
		rule(['get', 'create', 'update', 'patch', 'delete'], [COORDINATION], ['leases']),
		rule(['get'], [STORAGE], ['volumeattachments']),
		// Projected service account tokens of the node's pods.
		rule(['create'], [CORE], ['serviceaccounts/token']),
		rule(['get', 'update', 'patch'], [CORE], ['persistentvolumeclaims/status']),
		rule(READ, [STORAGE], ['csidrivers']),
		rule(['get', 'create', 'update', 'patch', 'delete'], [STORAGE], ['csinodes']),
		rule(READ, ['node.k8s.io'], ['runtimeclasses']),
		// DynamicResourceAllocation (GA and on by default since v1.34).
		rule(['get'], [RESOURCE], ['resourceclaims']),
		rule(['deletecollection'], [RESOURCE], ['resourceslices']),
	];
}

/** The cluster-wide roles of policy.go ClusterRoles(), sorted by name as upstream's bootstrappolicy testdata/cluster-roles.yaml lists them. */
function clusterRoles(): KubeObject[] {
	const specs: RoleSpec[] = [
		// The namespace admin: edit plus Roles and RoleBindings, aggregated.
		{ name: 'admin', aggregateFrom: AGGREGATE_TO_ADMIN },
		// Can do anything.
		{ name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
		{ name: 'edit', labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateFrom: AGGREGATE_TO_EDIT },
		{
			name: 'system:aggregate-to-admin',
			labels: { [AGGREGATE_TO_ADMIN]: 'true' },
			rules: [rule(['create'], [AUTHORIZATION], ['localsubjectaccessreviews']), rule(READ_WRITE, [RBAC], ['roles', 'rolebindings'])],
		},
		{
			name: 'system:aggregate-to-edit',
			labels: { [AGGREGATE_TO_EDIT]: 'true' },
			rules: [
				// Read access to the escalating resources.
				rule(READ, [CORE], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
				rule(['impersonate'], [CORE], ['serviceaccounts']),
				rule(WRITE, [CORE], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
				rule(['create'], [CORE], ['pods/eviction']),
				rule(WRITE, [CORE], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
				rule(['create'], [CORE], ['serviceaccounts/token']),
				rule(WRITE, [APPS], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
				rule(WRITE, [AUTOSCALING], ['horizontalpodautoscalers']),
				rule(WRITE, [BATCH], ['jobs', 'cronjobs']),
				rule(WRITE, [EXTENSIONS], ['daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'ingresses', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale', 'networkpolicies']),
				rule(WRITE, [POLICY], ['poddisruptionbudgets']),
				rule(WRITE, [NETWORKING], ['networkpolicies', 'ingresses']),
			],
		},
		{
			name: 'system:aggregate-to-view',
			labels: { [AGGREGATE_TO_VIEW]: 'true' },
			rules: [
				rule(READ, [CORE], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
				rule(READ, [CORE], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
				// Reading namespaces at namespace scope reads *this* namespace: a hint of which namespaces one may use.
				rule(READ, [CORE], ['namespaces']),
				rule(READ, [DISCOVERY], ['endpointslices']),
				rule(READ, [APPS], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
				rule(READ, [AUTOSCALING], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
				rule(READ, [BATCH], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
				rule(READ, [EXTENSIONS], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale', 'networkpolicies']),
				rule(READ, [POLICY], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
				rule(READ, [NETWORKING], ['ingresses', 'ingresses/status', 'networkpolicies']),
			],
		},
		{ name: 'system:auth-delegator', rules: [rule(['create'], [AUTHENTICATION], ['tokenreviews']), rule(['create'], [AUTHORIZATION], ['subjectaccessreviews'])] },
		// Lets anyone learn about themselves (kubectl auth can-i, kubectl auth whoami).
		{ name: 'system:basic-user', rules: [rule(['create'], [AUTHORIZATION], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), rule(['create'], [AUTHENTICATION], ['selfsubjectreviews'])] },
		{ name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', rules: [rule(['create'], [CERTIFICATES], ['certificatesigningrequests/nodeclient'])] },
		{ name: 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', rules: [rule(['create'], [CERTIFICATES], ['certificatesigningrequests/selfnodeclient'])] },
		{ name: 'system:certificates.k8s.io:kube-apiserver-client-approver', rules: [rule(['approve'], [CERTIFICATES], ['signers'], ['kubernetes.io/kube-apiserver-client'])] },
		{ name: 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', rules: [rule(['approve'], [CERTIFICATES], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet'])] },
		{ name: 'system:certificates.k8s.io:kubelet-serving-approver', rules: [rule(['approve'], [CERTIFICATES], ['signers'], ['kubernetes.io/kubelet-serving'])] },
		{ name: 'system:certificates.k8s.io:legacy-unknown-approver', rules: [rule(['approve'], [CERTIFICATES], ['signers'], ['kubernetes.io/legacy-unknown'])] },
		// Just enough to see whether the server is up and to discover API versions.
		{ name: 'system:discovery', rules: [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/', '/openapi', '/openapi/*', '/api', '/api/*', '/apis', '/apis/*'])] },
		{ name: 'system:heapster', rules: [rule(READ, [CORE], ['events', 'pods', 'nodes', 'namespaces']), rule(READ, [EXTENSIONS], ['deployments'])] },
		{ name: 'system:kube-aggregator', rules: [rule(READ, [CORE], ['services', 'endpoints'])] },
		{
			// The controller manager's own identity: leader election, shared informers, and the service accounts and tokens of its controllers.
			name: 'system:kube-controller-manager',
			rules: [
				eventsRule(),
				rule(['create'], [COORDINATION], ['leases']),
				rule(['get', 'update'], [COORDINATION], ['leases'], ['kube-controller-manager']),
				rule(['create'], [CORE], ['secrets', 'serviceaccounts']),
				rule(['delete'], [CORE], ['secrets']),
				rule(['get'], [CORE], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
				rule(['update'], [CORE], ['secrets', 'serviceaccounts']),
				rule(['create'], [AUTHENTICATION], ['tokenreviews']),
				rule(['create'], [AUTHORIZATION], ['subjectaccessreviews']),
				// Every shared informer.
				rule(['list', 'watch'], ['*'], ['*']),
				rule(['create'], [CORE], ['serviceaccounts/token']),
			],
		},
		{ name: 'system:kube-dns', rules: [rule(['list', 'watch'], [CORE], ['endpoints', 'services'])] },
		{
			name: 'system:kube-scheduler',
			rules: [
				eventsRule(),
				// Leader election on the Lease kube-system/kube-scheduler.
				rule(['create'], [COORDINATION], ['leases']),
				rule(['get', 'update'], [COORDINATION], ['leases'], ['kube-scheduler']),
				rule(READ, [CORE], ['nodes']),
				rule(['get', 'list', 'watch', 'delete'], [CORE], ['pods']),
				rule(['create'], [CORE], ['pods/binding', 'bindings']),
				rule(['patch', 'update'], [CORE], ['pods/status']),
				rule(READ, [CORE], ['replicationcontrollers', 'services']),
				rule(READ, [APPS, EXTENSIONS], ['replicasets']),
				rule(READ, [APPS], ['statefulsets']),
				rule(READ, [POLICY], ['poddisruptionbudgets']),
				rule(READ, [CORE], ['persistentvolumeclaims', 'persistentvolumes']),
				rule(['create'], [AUTHENTICATION], ['tokenreviews']),
				rule(['create'], [AUTHORIZATION], ['subjectaccessreviews']),
				rule(READ, [STORAGE], ['csinodes']),
				rule(READ, [CORE], ['namespaces']),
				rule(READ, [STORAGE], ['csidrivers']),
				rule(READ, [STORAGE], ['csistoragecapacities']),
				// DynamicResourceAllocation (GA and on by default since v1.34).
				rule(READ, [RESOURCE], ['deviceclasses']),
				rule(READ_UPDATE, [RESOURCE], ['resourceclaims']),
				rule(READ_UPDATE, [RESOURCE], ['resourceclaims/status']),
				rule(READ_UPDATE, [CORE], ['pods/finalizers']),
				rule(READ, [RESOURCE], ['resourceslices']),
			],
		},
		{
			name: 'system:kubelet-api-admin',
			rules: [
				rule(READ, [CORE], ['nodes']),
				rule(['proxy'], [CORE], ['nodes']),
				rule(['*'], [CORE], ['nodes/proxy', 'nodes/metrics', 'nodes/stats', 'nodes/log']),
				// KubeletFineGrainedAuthz (beta and on by default since v1.33).
				rule(['*'], [CORE], ['nodes/pods', 'nodes/healthz', 'nodes/configz']),
			],
		},
		{ name: 'system:monitoring', rules: [urls(['get'], ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'])] },
		{ name: 'system:node', rules: nodeRules() },
		{ name: 'system:node-bootstrapper', rules: [rule(['create', 'get', 'list', 'watch'], [CERTIFICATES], ['certificatesigningrequests'])] },
		{ name: 'system:node-problem-detector', rules: [rule(['get'], [CORE], ['nodes']), rule(['patch'], [CORE], ['nodes/status']), eventsRule()] },
		{
			// kube-proxy: the service and endpoint listers, its node, and events.
			name: 'system:node-proxier',
			rules: [
				rule(['list', 'watch'], [CORE], ['services', 'endpoints']),
				rule(READ, [CORE], ['nodes']),
				eventsRule(),
				// MultiCIDRServiceAllocator (GA and on by default since v1.33).
				rule(['list', 'watch'], [NETWORKING], ['servicecidrs']),
				rule(['list', 'watch'], [DISCOVERY], ['endpointslices']),
			],
		},
		{
			name: 'system:persistent-volume-provisioner',
			rules: [
				rule(['get', 'list', 'watch', 'create', 'delete'], [CORE], ['persistentvolumes']),
				rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims']),
				rule(READ, [STORAGE], ['storageclasses']),
				rule(['watch'], [CORE], ['events']),
				eventsRule(),
			],
		},
		// What anyone, even unauthenticated, may read.
		{ name: 'system:public-info-viewer', rules: [urls(['get'], ['/livez', '/readyz', '/healthz', '/version', '/version/'])] },
		{ name: 'system:service-account-issuer-discovery', rules: [urls(['get'], ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'])] },
		{
			name: 'system:volume-scheduler',
			rules: [rule(READ_UPDATE, [CORE], ['persistentvolumes']), rule(READ, [STORAGE], ['storageclasses']), rule(READ_UPDATE, [CORE], ['persistentvolumeclaims'])],
		},
		{ name: 'view', labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateFrom: AGGREGATE_TO_VIEW },
	];
	return specs.map(clusterRole);
}

/** ClusterRoleBindings(): the default bindings of policy.go, sorted by name. */
function clusterRoleBindings(): KubeObject[] {
	return [
		clusterRoleBinding('cluster-admin', [{ group: SYSTEM_MASTERS }]),
		// Since v1.14 discovery and basic-user are for authenticated users only.
		clusterRoleBinding('system:basic-user', [{ group: ALL_AUTHENTICATED }]),
		clusterRoleBinding('system:discovery', [{ group: ALL_AUTHENTICATED }]),
		clusterRoleBinding('system:kube-controller-manager', [{ user: 'system:kube-controller-manager' }]),
		clusterRoleBinding('system:kube-dns', [{ serviceAccount: 'kube-dns', namespace: 'kube-system' }]),
		clusterRoleBinding('system:kube-scheduler', [{ user: 'system:kube-scheduler' }]),
		clusterRoleBinding('system:monitoring', [{ group: SYSTEM_MONITORING }]),
		// Kept without subjects: nodes are authorized by the Node authorizer since v1.8.
		clusterRoleBinding('system:node', []),
		clusterRoleBinding('system:node-proxier', [{ user: 'system:kube-proxy' }]),
		clusterRoleBinding('system:public-info-viewer', [{ group: ALL_AUTHENTICATED }, { group: ALL_UNAUTHENTICATED }]),
		clusterRoleBinding('system:service-account-issuer-discovery', [{ group: ALL_SERVICE_ACCOUNTS }]),
		clusterRoleBinding('system:volume-scheduler', [{ user: 'system:kube-scheduler' }]),
	];
}

/** The `system:controller:<name>` ClusterRoles of controller_policy.go, by service account name. */
function controllerRoleRules(): Array<[string, PolicyRule[]]> {
	return [
		[
			'attachdetach-controller',
			[
				rule(['list', 'watch'], [CORE], ['persistentvolumes', 'persistentvolumeclaims']),
				rule(READ, [CORE], ['nodes']),
				rule(['patch', 'update'], [CORE], ['nodes/status']),
				rule(['list', 'watch'], [CORE], ['pods']),
				eventsRule(),
				rule(['get', 'create', 'delete', 'list', 'watch'], [STORAGE], ['volumeattachments']),
				rule(READ, [STORAGE], ['csidrivers']),
				rule(READ, [STORAGE], ['csinodes']),
			],
		],
		[
			'certificate-controller',
			[
				rule(['get', 'list', 'watch', 'delete'], [CERTIFICATES], ['certificatesigningrequests']),
				rule(['update'], [CERTIFICATES], ['certificatesigningrequests/status', 'certificatesigningrequests/approval']),
				rule(['approve'], [CERTIFICATES], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
				rule(['sign'], [CERTIFICATES], ['signers'], ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown']),
				rule(['create'], [AUTHORIZATION], ['subjectaccessreviews']),
				eventsRule(),
			],
		],
		['clusterrole-aggregation-controller', [rule(['escalate', 'get', 'list', 'watch', 'update', 'patch'], [RBAC], ['clusterroles'])]],
		[
			'cronjob-controller',
			[
				rule(['get', 'list', 'watch', 'update'], [BATCH], ['cronjobs']),
				rule(['get', 'list', 'watch', 'create', 'update', 'delete', 'patch'], [BATCH], ['jobs']),
				rule(['update'], [BATCH], ['cronjobs/status']),
				rule(['update'], [BATCH], ['cronjobs/finalizers']),
				rule(['list', 'watch', 'delete'], [CORE], ['pods']),
				eventsRule(),
			],
		],
		[
			'daemon-set-controller',
			[
				rule(READ, [EXTENSIONS, APPS], ['daemonsets']),
				rule(['update'], [EXTENSIONS, APPS], ['daemonsets/status']),
				rule(['update'], [EXTENSIONS, APPS], ['daemonsets/finalizers']),
				rule(['list', 'watch'], [CORE], ['nodes']),
				rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
				rule(['create'], [CORE], ['pods/binding']),
				rule(['get', 'list', 'watch', 'create', 'delete', 'update', 'patch'], [APPS], ['controllerrevisions']),
				eventsRule(),
			],
		],
		[
			'deployment-controller',
			[
				rule(['get', 'list', 'watch', 'update'], [EXTENSIONS, APPS], ['deployments']),
				rule(['update'], [EXTENSIONS, APPS], ['deployments/status']),
				rule(['update'], [EXTENSIONS, APPS], ['deployments/finalizers']),
				rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], [APPS, EXTENSIONS], ['replicasets']),
				// The pod list feeds the Recreate strategy; update is for the pod-template-hash label of pods that predate it.
				rule(['get', 'list', 'watch', 'update'], [CORE], ['pods']),
				eventsRule(),
			],
		],
		[
			'disruption-controller',
			[
				rule(READ, [EXTENSIONS, APPS], ['deployments']),
				rule(READ, [APPS, EXTENSIONS], ['replicasets']),
				rule(READ, [CORE], ['replicationcontrollers']),
				rule(READ, [POLICY], ['poddisruptionbudgets']),
				rule(READ, [APPS], ['statefulsets']),
				rule(['update'], [POLICY], ['poddisruptionbudgets/status']),
				rule(['patch', 'update'], [CORE], ['pods/status']),
				// The scale subresource of any workload a budget's pods belong to.
				rule(['get'], ['*'], ['*/scale']),
				eventsRule(),
			],
		],
		[
			'endpoint-controller',
			[
				rule(READ, [CORE], ['services', 'pods']),
				rule(['get', 'list', 'create', 'update', 'delete', 'watch'], [CORE], ['endpoints']),
				rule(['create'], [CORE], ['endpoints/restricted']),
				eventsRule(),
			],
		],
		[
			'endpointslice-controller',
			[
				rule(READ, [CORE], ['services', 'pods', 'nodes']),
				// Owner references with blockOwnerDeletion need update on the owner's finalizers.
				rule(['update'], [CORE], ['services/finalizers']),
				rule(['get', 'list', 'create', 'update', 'delete', 'watch'], [DISCOVERY], ['endpointslices']),
				eventsRule(),
			],
		],
		[
			'endpointslicemirroring-controller',
			[
				rule(READ, [CORE], ['services', 'endpoints']),
				rule(['update'], [CORE], ['services/finalizers']),
				rule(['update'], [CORE], ['endpoints/finalizers']),
				rule(['get', 'list', 'create', 'update', 'delete', 'watch'], [DISCOVERY], ['endpointslices']),
				eventsRule(),
			],
		],
		[
			'ephemeral-volume-controller',
			[rule(READ, [CORE], ['pods']), rule(['update'], [CORE], ['pods/finalizers']), rule(['get', 'list', 'watch', 'create'], [CORE], ['persistentvolumeclaims']), eventsRule()],
		],
		[
			'expand-controller',
			[
				rule(['get', 'list', 'watch', 'update', 'patch'], [CORE], ['persistentvolumes']),
				rule(['update', 'patch'], [CORE], ['persistentvolumeclaims/status']),
				rule(READ, [CORE], ['persistentvolumeclaims']),
				eventsRule(),
			],
		],
		// The garbage collector reads and deletes anything (and patches owner references).
		['generic-garbage-collector', [rule(['get', 'list', 'watch', 'patch', 'update', 'delete'], ['*'], ['*']), eventsRule()]],
		[
			'horizontal-pod-autoscaler',
			[
				rule(READ, [AUTOSCALING], ['horizontalpodautoscalers']),
				rule(['update'], [AUTOSCALING], ['horizontalpodautoscalers/status']),
				rule(['get', 'update'], ['*'], ['*/scale']),
				rule(['list', 'watch'], [CORE], ['pods']),
				rule(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
				rule(READ, ['custom.metrics.k8s.io'], ['*']),
				rule(READ, ['external.metrics.k8s.io'], ['*']),
				eventsRule(),
			],
		],
		[
			'job-controller',
			[
				rule(['get', 'list', 'watch', 'update', 'patch'], [BATCH], ['jobs']),
				rule(['update'], [BATCH], ['jobs/status']),
				rule(['update'], [BATCH], ['jobs/finalizers']),
				rule(['list', 'watch', 'create', 'delete', 'patch'], [CORE], ['pods']),
				eventsRule(),
			],
		],
		['legacy-service-account-token-cleaner', [rule(['get'], [CORE], ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']), rule(['patch', 'delete'], [CORE], ['secrets'])]],
		[
			'namespace-controller',
			[
				rule(['get', 'list', 'watch', 'delete'], [CORE], ['namespaces']),
				rule(['update'], [CORE], ['namespaces/finalize', 'namespaces/status']),
				// Empties a namespace of every kind of object.
				rule(['get', 'list', 'watch', 'delete', 'deletecollection'], ['*'], ['*']),
			],
		],
		[
			// Node lifecycle, taint-based eviction and node IPAM all act as node-controller.
			'node-controller',
			[
				rule(['get', 'list', 'update', 'delete', 'patch', 'watch'], [CORE], ['nodes']),
				rule(['patch', 'update'], [CORE], ['nodes/status']),
				rule(['patch', 'update'], [CORE], ['pods/status']),
				rule(['list', 'watch', 'delete', 'get'], [CORE], ['pods']),
				eventsRule(),
			],
		],
		[
			'persistent-volume-binder',
			[
				rule(['get', 'list', 'watch', 'update', 'create', 'delete'], [CORE], ['persistentvolumes']),
				rule(['update'], [CORE], ['persistentvolumes/status']),
				rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims']),
				rule(['update'], [CORE], ['persistentvolumeclaims/status']),
				rule(['list', 'watch', 'get', 'create', 'delete'], [CORE], ['pods']),
				rule(READ, [STORAGE], ['storageclasses']),
				rule(['list', 'watch'], [CORE], ['nodes']),
				eventsRule(),
				rule(['watch'], [CORE], ['events']),
			],
		],
		['pod-garbage-collector', [rule(['list', 'watch', 'delete'], [CORE], ['pods']), rule(READ, [CORE], ['nodes']), rule(['patch'], [CORE], ['pods/status'])]],
		['pv-protection-controller', [rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumes']), eventsRule()]],
		['pvc-protection-controller', [rule(['get', 'list', 'watch', 'update'], [CORE], ['persistentvolumeclaims']), rule(['update'], [CORE], ['persistentvolumeclaims/status']), rule(READ, [CORE], ['pods']), eventsRule()]],
		[
			'replicaset-controller',
			[
				rule(['get', 'list', 'watch', 'update'], [APPS, EXTENSIONS], ['replicasets']),
				rule(['update'], [APPS, EXTENSIONS], ['replicasets/status']),
				rule(['update'], [APPS, EXTENSIONS], ['replicasets/finalizers']),
				rule(['list', 'watch', 'patch', 'create', 'delete'], [CORE], ['pods']),
				eventsRule(),
			],
		],
		[
			'replication-controller',
			[
				rule(['get', 'list', 'watch', 'update'], [CORE], ['replicationcontrollers']),
				rule(['update'], [CORE], ['replicationcontrollers/status']),
				rule(['update'], [CORE], ['replicationcontrollers/finalizers']),
				rule(['list', 'watch', 'patch', 'create', 'delete'], [CORE], ['pods']),
				eventsRule(),
			],
		],
		[
			// DynamicResourceAllocation (GA and on by default since v1.34).
			'resource-claim-controller',
			[
				rule(READ, [CORE], ['pods']),
				rule(['update'], [CORE], ['pods/finalizers']),
				rule(['get', 'list', 'watch', 'create', 'delete'], [RESOURCE], ['resourceclaims']),
				rule(['update', 'patch'], [RESOURCE], ['resourceclaims', 'resourceclaims/status']),
				rule(['update', 'patch'], [CORE], ['pods/status']),
				eventsRule(),
				rule(['update', 'patch'], [RESOURCE], ['resourceclaims/binding']),
			],
		],
		['resourcequota-controller', [rule(['list', 'watch'], ['*'], ['*']), rule(['update'], [CORE], ['resourcequotas/status']), eventsRule()]],
		// Writes the kube-root-ca.crt ConfigMap into every namespace.
		['root-ca-cert-publisher', [rule(['create', 'update'], [CORE], ['configmaps']), eventsRule()]],
		['route-controller', [rule(['list', 'watch'], [CORE], ['nodes']), rule(['patch'], [CORE], ['nodes/status']), eventsRule()]],
		[
			'selinux-warning-controller',
			[eventsRule(), rule(READ, [CORE], ['persistentvolumes']), rule(READ, [CORE], ['persistentvolumeclaims']), rule(READ, [CORE], ['pods']), rule(READ, [STORAGE], ['csidrivers'])],
		],
		['service-account-controller', [rule(['create'], [CORE], ['serviceaccounts']), eventsRule()]],
		[
			'service-cidrs-controller',
			[
				rule(['get', 'list', 'watch', 'patch', 'update'], [NETWORKING], ['servicecidrs']),
				rule(['patch', 'update'], [NETWORKING], ['servicecidrs/finalizers']),
				rule(['patch', 'update'], [NETWORKING], ['servicecidrs/status']),
				rule(READ, [NETWORKING], ['ipaddresses']),
				eventsRule(),
			],
		],
		['service-controller', [rule(READ, [CORE], ['services']), rule(['patch', 'update'], [CORE], ['services/status']), rule(['list', 'watch'], [CORE], ['nodes']), eventsRule()]],
		[
			'statefulset-controller',
			[
				rule(['list', 'watch'], [CORE], ['pods']),
				rule(READ, [APPS], ['statefulsets']),
				rule(['update'], [APPS], ['statefulsets/status']),
				rule(['update'], [APPS], ['statefulsets/finalizers']),
				rule(['get', 'create', 'delete', 'update', 'patch'], [CORE], ['pods']),
				rule(['get', 'create', 'delete', 'update', 'patch', 'list', 'watch'], [APPS], ['controllerrevisions']),
				rule(['get', 'create', 'list', 'watch'], [CORE], ['persistentvolumeclaims']),
				rule(['update', 'delete'], [CORE], ['persistentvolumeclaims']),
				rule(['update'], [CORE], ['pods/finalizers']),
				eventsRule(),
			],
		],
		['ttl-after-finished-controller', [rule(['get', 'list', 'watch', 'delete'], [BATCH], ['jobs']), eventsRule()]],
		['ttl-controller', [rule(['update', 'patch', 'list', 'watch'], [CORE], ['nodes']), eventsRule()]],
		[
			'validatingadmissionpolicy-status-controller',
			[rule(READ, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']), rule(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']), eventsRule()],
		],
		[
			'volumeattributesclass-protection-controller',
			[rule(READ, [CORE], ['persistentvolumeclaims']), rule(READ, [CORE], ['persistentvolumes']), rule(['get', 'list', 'watch', 'update'], [STORAGE], ['volumeattributesclasses']), eventsRule()],
		],
	];
}

/** The prefix of every controller's ClusterRole and ClusterRoleBinding (saRolePrefix). */
const CONTROLLER_ROLE_PREFIX = 'system:controller:';

/** The service accounts in kube-system that have a `system:controller:<name>` role. */
export function controllerServiceAccounts(): string[] {
	return controllerRoleRules().map(([name]) => name);
}

/** ControllerRoles() and ControllerRoleBindings(): each bound to its service account in kube-system. */
function controllerObjects(): { roles: KubeObject[]; bindings: KubeObject[] } {
	const roles: KubeObject[] = [];
	const bindings: KubeObject[] = [];
	for (const [name, rules] of controllerRoleRules()) {
		roles.push(clusterRole({ name: CONTROLLER_ROLE_PREFIX + name, rules }));
		bindings.push(clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, [{ serviceAccount: name, namespace: 'kube-system' }]));
	}
	return { roles, bindings };
}

/** NamespaceRoles() and NamespaceRoleBindings() of namespace_policy.go: kube-system and kube-public. */
function namespaceObjects(): KubeObject[] {
	const leaderLocking = [rule(['create', 'get', 'list', 'update', 'watch'], [COORDINATION], ['leases']), rule(['create', 'get', 'list', 'update', 'watch'], [COORDINATION], ['leasecandidates'])];
	return [
		// Lets the bootstrap signer sign the cluster-info ConfigMap with each bootstrap token.
		role('kube-public', 'system:controller:bootstrap-signer', [rule(READ, [CORE], ['configmaps']), rule(['update'], [CORE], ['configmaps'], ['cluster-info']), eventsRule()]),
		// Lets the components read the client CA and front-proxy settings of the API server.
		role('kube-system', 'extension-apiserver-authentication-reader', [rule(READ, [CORE], ['configmaps'], ['extension-apiserver-authentication'])]),
		role('kube-system', 'system::leader-locking-kube-controller-manager', leaderLocking),
		role('kube-system', 'system::leader-locking-kube-scheduler', leaderLocking),
		role('kube-system', 'system:controller:bootstrap-signer', [rule(READ, [CORE], ['secrets'])]),
		role('kube-system', 'system:controller:cloud-provider', [rule(['create', 'get', 'list', 'watch'], [CORE], ['configmaps'])]),
		role('kube-system', 'system:controller:token-cleaner', [rule(['delete', 'get', 'list', 'watch'], [CORE], ['secrets']), eventsRule()]),
		roleBinding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [{ serviceAccount: 'bootstrap-signer', namespace: 'kube-system' }]),
		roleBinding('kube-system', 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [{ user: 'system:kube-controller-manager' }, { user: 'system:kube-scheduler' }]),
		roleBinding('kube-system', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
			{ user: 'system:kube-controller-manager' },
			{ serviceAccount: 'kube-controller-manager', namespace: 'kube-system' },
			{ serviceAccount: 'leader-election-controller', namespace: 'kube-system' },
		]),
		roleBinding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [{ user: 'system:kube-scheduler' }, { serviceAccount: 'kube-scheduler', namespace: 'kube-system' }]),
		roleBinding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [{ serviceAccount: 'bootstrap-signer', namespace: 'kube-system' }]),
		roleBinding('kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', [{ serviceAccount: 'cloud-provider', namespace: 'kube-system' }]),
		roleBinding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [{ serviceAccount: 'token-cleaner', namespace: 'kube-system' }]),
	];
}

/**
 * Everything the API server's `rbac/bootstrap-roles` hook writes, in the
 * hook's order: cluster roles, cluster role bindings, the controllers'
 * roles and bindings, then the namespaced roles and bindings (which need
 * kube-system and kube-public to exist). Fresh copies at every call.
 */
export function bootstrapPolicyObjects(): KubeObject[] {
	const controllers = controllerObjects();
	return [...clusterRoles(), ...controllers.roles, ...clusterRoleBindings(), ...controllers.bindings, ...namespaceObjects()];
}

/** kubeadm writes its objects without the bootstrapping label or annotation. */
function plainMetadata(name: string, namespace?: string): KubeObject['metadata'] {
	return namespace ? { name, namespace } : { name };
}

/**
 * What `kubeadm init` adds (phases bootstrap-token, upload-config, kubelet,
 * addon/coredns, addon/kube-proxy and the admin kubeconfig): the admins'
 * binding, the RBAC that lets joining nodes use a bootstrap token, the
 * ConfigMap readers, and the RBAC of CoreDNS and kube-proxy. Namespaced
 * objects need kube-system and kube-public to exist.
 */
export function kubeadmRbacObjects(): KubeObject[] {
	const configMapReader = (namespace: string, name: string, configMap: string): KubeObject => ({ apiVersion: API_VERSION, kind: 'Role', metadata: plainMetadata(name, namespace), rules: [rule(['get'], [CORE], ['configmaps'], [configMap])] });
	const nodesAndBootstrappers: SubjectSpec[] = [{ group: SYSTEM_NODES }, { group: KUBEADM_BOOTSTRAP_TOKEN_GROUP }];
	return [
		// kubeconfig phase (v1.29+): admin.conf carries O=kubeadm:cluster-admins, bound to cluster-admin, instead of system:masters.
		clusterRoleBinding('cluster-admin', [{ group: KUBEADM_CLUSTER_ADMINS }], KUBEADM_CLUSTER_ADMINS, plainMetadata(KUBEADM_CLUSTER_ADMINS)),
		// bootstrap-token phase: joining kubelets may read nodes, post CSRs, and get them approved.
		{ apiVersion: API_VERSION, kind: 'ClusterRole', metadata: plainMetadata('kubeadm:get-nodes'), rules: [rule(['get'], [CORE], ['nodes'])] },
		clusterRoleBinding('kubeadm:get-nodes', [{ group: KUBEADM_BOOTSTRAP_TOKEN_GROUP }], 'kubeadm:get-nodes', plainMetadata('kubeadm:get-nodes')),
		clusterRoleBinding('system:node-bootstrapper', [{ group: KUBEADM_BOOTSTRAP_TOKEN_GROUP }], 'kubeadm:kubelet-bootstrap', plainMetadata('kubeadm:kubelet-bootstrap')),
		clusterRoleBinding('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [{ group: KUBEADM_BOOTSTRAP_TOKEN_GROUP }], 'kubeadm:node-autoapprove-bootstrap', plainMetadata('kubeadm:node-autoapprove-bootstrap')),
		clusterRoleBinding('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [{ group: SYSTEM_NODES }], 'kubeadm:node-autoapprove-certificate-rotation', plainMetadata('kubeadm:node-autoapprove-certificate-rotation')),
		// The anonymous reader of kube-public/cluster-info, for discovery by joining nodes.
		configMapReader('kube-public', 'kubeadm:bootstrap-signer-clusterinfo', 'cluster-info'),
		roleBinding('kube-public', 'kubeadm:bootstrap-signer-clusterinfo', 'kubeadm:bootstrap-signer-clusterinfo', [{ user: 'system:anonymous' }], plainMetadata('kubeadm:bootstrap-signer-clusterinfo', 'kube-public')),
		// upload-config and kubelet phases: nodes read kubeadm-config and kubelet-config.
		configMapReader('kube-system', 'kubeadm:nodes-kubeadm-config', 'kubeadm-config'),
		roleBinding('kube-system', 'kubeadm:nodes-kubeadm-config', 'kubeadm:nodes-kubeadm-config', [{ group: KUBEADM_BOOTSTRAP_TOKEN_GROUP }, { group: SYSTEM_NODES }], plainMetadata('kubeadm:nodes-kubeadm-config', 'kube-system')),
		configMapReader('kube-system', 'kubeadm:kubelet-config', 'kubelet-config'),
		roleBinding('kube-system', 'kubeadm:kubelet-config', 'kubeadm:kubelet-config', nodesAndBootstrappers, plainMetadata('kubeadm:kubelet-config', 'kube-system')),
		// addon/coredns.
		{
			apiVersion: API_VERSION,
			kind: 'ClusterRole',
			metadata: plainMetadata('system:coredns'),
			rules: [
				{ apiGroups: [CORE], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
				{ apiGroups: [DISCOVERY], resources: ['endpointslices'], verbs: ['list', 'watch'] },
			],
		},
		clusterRoleBinding('system:coredns', [{ serviceAccount: 'coredns', namespace: 'kube-system' }], 'system:coredns', plainMetadata('system:coredns')),
		// addon/kube-proxy: the DaemonSet's service account gets system:node-proxier; joining nodes read its ConfigMap.
		clusterRoleBinding('system:node-proxier', [{ serviceAccount: 'kube-proxy', namespace: 'kube-system' }], 'kubeadm:node-proxier', plainMetadata('kubeadm:node-proxier')),
		configMapReader('kube-system', 'kube-proxy', 'kube-proxy'),
		roleBinding('kube-system', 'kube-proxy', 'kube-proxy', [{ group: KUBEADM_BOOTSTRAP_TOKEN_GROUP }], plainMetadata('kube-proxy', 'kube-system')),
	];
}
