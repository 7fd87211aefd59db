/**
 * Who each process of the cluster is to the API server: the username and
 * groups its credentials authenticate as (see the table in
 * sim-core/README.md). On a kubeadm cluster these come from client
 * certificates (CN = user, O = groups) in the kubeconfigs kubeadm writes
 * (admin.conf, scheduler.conf, controller-manager.conf, kubelet.conf) and
 * from service account tokens (kube-proxy's DaemonSet, and each controller
 * of kube-controller-manager, which kubeadm runs with
 * `--use-service-account-credentials=true`). The authenticator adds
 * `system:authenticated` to every identity it accepts.
 *
 * Mirrors cmd/kubeadm/app/phases/kubeconfig/kubeconfig.go (the certificates'
 * subjects),
 * staging/src/k8s.io/apiserver/pkg/authentication/serviceaccount/util.go
 * (usernames and groups of service accounts),
 * staging/src/k8s.io/apiserver/pkg/authentication/group/authenticated_group_adder.go,
 * cmd/kube-controller-manager/app/ (each controller's ClientBuilder name).
 */
import type { UserInfo } from '../../api/request.ts';
import { ALL_AUTHENTICATED, ALL_SERVICE_ACCOUNTS, KUBEADM_CLUSTER_ADMINS, SYSTEM_MASTERS, SYSTEM_NODES } from './bootstrap-policy.ts';
import { serviceAccountUsername } from './rbac.ts';

/** The namespace of the control plane's service accounts. */
const KUBE_SYSTEM = 'kube-system';

/** The user the `kubernetes-admin` entry of admin.conf authenticates as (its certificate's CN). */
export const KUBERNETES_ADMIN = 'kubernetes-admin';

/** AuthenticatedGroupAdder: append `system:authenticated` unless present. */
function authenticated(username: string, groups: string[]): UserInfo {
	return { username, groups: groups.includes(ALL_AUTHENTICATED) ? [...groups] : [...groups, ALL_AUTHENTICATED] };
}

/** serviceaccount.UserInfo: `system:serviceaccount:<ns>:<name>` in `system:serviceaccounts` and `system:serviceaccounts:<ns>`. */
export function serviceAccountIdentity(namespace: string, name: string): UserInfo {
	return authenticated(serviceAccountUsername(namespace, name), [ALL_SERVICE_ACCOUNTS, `${ALL_SERVICE_ACCOUNTS}:${namespace}`]);
}

/** The kubelet of a node: its client certificate is CN=system:node:<node>, O=system:nodes. */
export function nodeIdentityOf(nodeName: string): UserInfo {
	return authenticated(`system:node:${nodeName}`, [SYSTEM_NODES]);
}

/**
 * The service account each controller of kube-controller-manager acts as
 * when `--use-service-account-credentials` is on (the name it passes to
 * ClientBuilder), by the controller's `--controllers` name. The node
 * lifecycle, taint eviction and node IPAM controllers share node-controller;
 * upstream's own note says the taint manager reuses that role.
 */
const CONTROLLER_SERVICE_ACCOUNTS: Readonly<Record<string, string>> = {
	'attachdetach-controller': 'attachdetach-controller',
	'bootstrap-signer-controller': 'bootstrap-signer',
	'certificatesigningrequest-approving-controller': 'certificate-controller',
	'certificatesigningrequest-cleaner-controller': 'certificate-controller',
	'certificatesigningrequest-signing-controller': 'certificate-controller',
	'clusterrole-aggregation-controller': 'clusterrole-aggregation-controller',
	'cronjob-controller': 'cronjob-controller',
	'daemonset-controller': 'daemon-set-controller',
	'deployment-controller': 'deployment-controller',
	'disruption-controller': 'disruption-controller',
	'endpoints-controller': 'endpoint-controller',
	'endpointslice-controller': 'endpointslice-controller',
	'endpointslice-mirroring-controller': 'endpointslicemirroring-controller',
	'ephemeral-volume-controller': 'ephemeral-volume-controller',
	'garbage-collector-controller': 'generic-garbage-collector',
	'horizontal-pod-autoscaler-controller': 'horizontal-pod-autoscaler',
	'job-controller': 'job-controller',
	'legacy-serviceaccount-token-cleaner-controller': 'legacy-service-account-token-cleaner',
	'namespace-controller': 'namespace-controller',
	'node-ipam-controller': 'node-controller',
	'node-lifecycle-controller': 'node-controller',
	'persistentvolume-binder-controller': 'persistent-volume-binder',
	'persistentvolume-expander-controller': 'expand-controller',
	'persistentvolume-protection-controller': 'pv-protection-controller',
	'persistentvolumeclaim-protection-controller': 'pvc-protection-controller',
	'pod-garbage-collector-controller': 'pod-garbage-collector',
	'replicaset-controller': 'replicaset-controller',
	'replicationcontroller-controller': 'replication-controller',
	'resourceclaim-controller': 'resource-claim-controller',
	'resourcequota-controller': 'resourcequota-controller',
	'root-ca-certificate-publisher-controller': 'root-ca-cert-publisher',
	'service-cidr-controller': 'service-cidrs-controller',
	'service-lb-controller': 'service-controller',
	'serviceaccount-controller': 'service-account-controller',
	'statefulset-controller': 'statefulset-controller',
	'taint-eviction-controller': 'node-controller',
	'token-cleaner-controller': 'token-cleaner',
	'ttl-after-finished-controller': 'ttl-after-finished-controller',
	'ttl-controller': 'ttl-controller',
	'validatingadmissionpolicy-status-controller': 'validatingadmissionpolicy-status-controller',
	'volumeattributesclass-protection-controller': 'volumeattributesclass-protection-controller',
};

/** The kube-system service account a controller acts as, or undefined for a name kube-controller-manager does not know. */
export function controllerServiceAccount(controllerName: string): string | undefined {
	return Object.hasOwn(CONTROLLER_SERVICE_ACCOUNTS, controllerName) ? CONTROLLER_SERVICE_ACCOUNTS[controllerName] : undefined;
}

/**
 * The identity a controller's requests carry: with service account
 * credentials (kubeadm's setting, the default here) its service account in
 * kube-system; otherwise, or for an unknown controller, the manager's own
 * `system:kube-controller-manager`. The manager's leader election and
 * shared informers always use its own identity (its role lists and watches
 * everything).
 */
export function controllerIdentity(controllerName: string, useServiceAccountCredentials = true): UserInfo {
	const serviceAccount = useServiceAccountCredentials ? controllerServiceAccount(controllerName) : undefined;
	return serviceAccount ? serviceAccountIdentity(KUBE_SYSTEM, serviceAccount) : authenticated('system:kube-controller-manager', []);
}

interface IdentityOptions {
	/** For kube-controller-manager: the controller on whose behalf the request goes (see controllerIdentity). */
	controller?: string;
	/** `--use-service-account-credentials` of kube-controller-manager (kubeadm: true). */
	useServiceAccountCredentials?: boolean;
}

/**
 * The identity of a process by its id (README "Process ids, identities and
 * event sources"), or undefined for processes that are no API clients
 * (etcd, container runtimes). `kube-controller-manager/<controller>` is the
 * same as `kube-controller-manager` with `options.controller`.
 */
export function identityOf(processId: string, options: IdentityOptions = {}): UserInfo | undefined {
	const slash = processId.indexOf('/');
	const component = slash < 0 ? processId : processId.slice(0, slash);
	const instance = slash < 0 ? '' : processId.slice(slash + 1);
	switch (component) {
		case 'kubectl':
			// admin.conf: CN=kubernetes-admin, O=kubeadm:cluster-admins (system:masters before v1.29).
			return authenticated(KUBERNETES_ADMIN, [KUBEADM_CLUSTER_ADMINS]);
		case 'kube-apiserver':
			// The loopback client the server uses for its own writes (bootstrap RBAC, priority classes...).
			return authenticated('system:apiserver', [SYSTEM_MASTERS]);
		case 'kube-scheduler':
			return authenticated('system:kube-scheduler', []);
		case 'kube-controller-manager': {
			const controller = instance || options.controller;
			return controller ? controllerIdentity(controller, options.useServiceAccountCredentials ?? true) : authenticated('system:kube-controller-manager', []);
		}
		case 'kubelet':
			return instance ? nodeIdentityOf(instance) : undefined;
		case 'kube-proxy':
			// The kube-proxy DaemonSet's pods run as the kube-proxy service account (kubeadm's addon phase).
			return serviceAccountIdentity(KUBE_SYSTEM, 'kube-proxy');
		case 'cloud-controller-manager':
			// Its DaemonSet's pod runs as the cloud-controller-manager service account; every controller uses it (no --use-service-account-credentials).
			return serviceAccountIdentity(KUBE_SYSTEM, 'cloud-controller-manager');
		case 'metrics-server':
			// components.yaml runs it as the kube-system/metrics-server service account.
			return serviceAccountIdentity(KUBE_SYSTEM, 'metrics-server');
		default:
			return undefined;
	}
}
