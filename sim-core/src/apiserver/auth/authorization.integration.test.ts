import { describe, it, expect } from 'vitest';
import type { KubeObject, Node } from '../../api/types.ts';
import { resourceForKind } from '../../api/resources.ts';
import { R, refOf, type ApiClient, type CallResult } from '../../client/client.ts';
import { createApiHarness } from '../../testing/api-harness.ts';
import { defaultStrategies } from '../registry/index.ts';
import { defaultAdmissionPlugins } from '../admission/index.ts';
import { bootstrapPolicyObjects, kubeadmRbacObjects } from './bootstrap-policy.ts';
import { identityOf, serviceAccountIdentity } from './identities.ts';
import { defaultAuthorizers } from './index.ts';

const RBAC = { group: 'rbac.authorization.k8s.io', version: 'v1' };
const SSAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' };
const SSRR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews' };

function mustCreate(client: ApiClient, obj: KubeObject): void {
	const info = resourceForKind(obj.apiVersion, obj.kind);
	if (!info) throw new Error(`no resource for ${obj.kind}`);
	const result = client.create(refOf(info), info.namespaced ? obj.metadata.namespace : undefined, obj);
	if (!result.ok) throw new Error(`${obj.kind} ${obj.metadata.name}: ${result.message}`);
}

/**
 * A real etcd + kube-apiserver with `--authorization-mode=Node,RBAC`, every
 * strategy and the admission chain. The API server's loopback client
 * (system:masters) writes the bootstrap policy, as its post-start hook does,
 * and kubeadm's objects; the other processes get their README identities.
 */
function cluster() {
	const h = createApiHarness({ deps: { strategies: defaultStrategies(), admission: defaultAdmissionPlugins(), authorizers: defaultAuthorizers('Node,RBAC') } });
	for (const id of ['kube-apiserver', 'kubectl', 'kube-scheduler', 'kube-controller-manager', 'kubelet/node-1', 'kubelet/node-2', 'kube-proxy/node-1']) h.transport.enroll(id, identityOf(id)!);
	h.transport.enroll('jane', { username: 'jane', groups: ['system:authenticated'] });
	h.transport.enroll('bot', serviceAccountIdentity('team', 'bot'));
	const loopback = h.client('kube-apiserver');
	for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease', 'team']) mustCreate(loopback, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
	for (const obj of [...bootstrapPolicyObjects(), ...kubeadmRbacObjects()]) mustCreate(loopback, obj);
	const admin = h.client('kubectl');
	// The service account controller's and the kubelets' registration work, played here by the admin.
	for (const ns of ['default', 'team']) mustCreate(admin, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } });
	for (const name of ['node-1', 'node-2']) mustCreate(admin, { apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: {} });
	return { h, admin, client: (id: string) => h.client(id) };
}

const container = { name: 'app', image: 'nginx:1.27' };

function pod(name: string, extra: Record<string, unknown> = {}, namespace = 'default'): KubeObject {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [container], ...extra } };
}

function failure(result: CallResult<unknown>) {
	return result.ok ? { ok: true } : { code: result.code, reason: result.reason, message: result.message };
}

describe('Node,RBAC authorization with the bootstrap policy', () => {
	it('forbids a user without bindings, with the upstream 403 wording', () => {
		const { client } = cluster();
		expect(failure(client('jane').list(R.pods, 'default'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: 'pods is forbidden: User "jane" cannot list resource "pods" in API group "" in the namespace "default"',
		});
		expect(failure(client('jane').get(R.nodes, undefined, 'node-1'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: 'nodes "node-1" is forbidden: User "jane" cannot get resource "nodes" in API group "" at the cluster scope',
		});
		// Anyone authenticated may ask what they may do (system:basic-user).
		const review = client('jane').create(SSAR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'list', resource: 'pods', namespace: 'default' } } });
		expect(review.ok && review.object.status).toEqual({ allowed: false });
	});

	it('lets kubernetes-admin do everything, through the kubeadm:cluster-admins binding', () => {
		const { client } = cluster();
		const admin = client('kubectl');
		expect(admin.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }).ok).toBe(true);
		expect(admin.list(R.secrets).ok).toBe(true);
		expect(admin.create({ ...RBAC, resource: 'clusterroles' }, undefined, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'x' }, rules: [] }).ok).toBe(true);
		expect(admin.delete(R.nodes, undefined, 'node-2').ok).toBe(true);
		const review = admin.create(SSAR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'delete', resource: 'nodes', name: 'node-1' } } });
		expect(review.ok && review.object.status).toEqual({
			allowed: true,
			reason: 'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins"',
		});
	});

	it('lets the scheduler bind pods but not delete nodes', () => {
		const { admin, client } = cluster();
		mustCreate(admin, pod('web'));
		const scheduler = client('kube-scheduler');
		expect(scheduler.list(R.pods).ok).toBe(true);
		expect(scheduler.bind('default', 'web', 'node-1')).toMatchObject({ ok: true, code: 201 });
		expect(failure(scheduler.delete(R.nodes, undefined, 'node-1'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: 'nodes "node-1" is forbidden: User "system:kube-scheduler" cannot delete resource "nodes" in API group "" at the cluster scope',
		});
		expect(scheduler.create(R.pods, 'default', pod('sneaky')).ok).toBe(false);
	});

	it("lets a kubelet update its own node's status but not another node's", () => {
		const { admin, client } = cluster();
		const kubelet = client('kubelet/node-1');
		const own = kubelet.get<Node>(R.nodes, undefined, 'node-1');
		expect(own.ok).toBe(true);
		const mine = structuredClone((own as { object: Node }).object);
		mine.status = { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] };
		expect(kubelet.updateStatus(R.nodes, mine).ok).toBe(true);

		// Reading another Node is refused by the Node authorizer, whose reason follows the sentence.
		expect(failure(kubelet.get(R.nodes, undefined, 'node-2'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: `nodes "node-2" is forbidden: User "system:node:node-1" cannot get resource "nodes" in API group "" at the cluster scope: node 'node-1' cannot read 'node-2', only its own Node object`,
		});
		// Writing another node's status passes authorization and is refused by NodeRestriction.
		const theirs = structuredClone((admin.get<Node>(R.nodes, undefined, 'node-2') as { object: Node }).object);
		theirs.status = { conditions: [{ type: 'Ready', status: 'False' }] };
		expect(failure(kubelet.updateStatus(R.nodes, theirs))).toEqual({ code: 403, reason: 'Forbidden', message: 'nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"' });
		// Its heartbeat Lease lives in kube-node-lease under its own name.
		const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'node-1', namespace: 'kube-node-lease' }, spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40 } };
		expect(kubelet.create(R.leases, 'kube-node-lease', lease).ok).toBe(true);
		expect(failure(kubelet.get(R.leases, 'kube-node-lease', 'node-2')).message).toBe(
			'leases.coordination.k8s.io "node-2" is forbidden: User "system:node:node-1" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node',
		);
	});

	it("lets a kubelet read its own pods' secrets, not other pods'", () => {
		const { admin, client } = cluster();
		for (const name of ['web-tls', 'db-password']) mustCreate(admin, { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, data: {} });
		mustCreate(admin, pod('web-1', { nodeName: 'node-1', volumes: [{ name: 'tls', secret: { secretName: 'web-tls' } }] }));
		mustCreate(admin, pod('db-1', { nodeName: 'node-2', volumes: [{ name: 'pw', secret: { secretName: 'db-password' } }] }));
		const kubelet = client('kubelet/node-1');
		expect(kubelet.get(R.secrets, 'default', 'web-tls').ok).toBe(true);
		// The kubelet watches one secret with a metadata.name field selector; that is authorized as a request for the name.
		expect(kubelet.list(R.secrets, 'default', { fieldSelector: 'metadata.name=web-tls' }).ok).toBe(true);
		expect(failure(kubelet.get(R.secrets, 'default', 'db-password'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: `secrets "db-password" is forbidden: User "system:node:node-1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'node-1' and this object`,
		});
		// Its pods, by field selector; never all pods.
		const listed = kubelet.list(R.pods, undefined, { fieldSelector: 'spec.nodeName=node-1' });
		expect(listed.ok && listed.object.items.map((p) => p.metadata.name)).toEqual(['web-1']);
		expect(failure(kubelet.list(R.pods)).message).toBe('pods is forbidden: User "system:node:node-1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector');
		// Services come from the static node rules.
		expect(kubelet.list(R.services).ok).toBe(true);
	});

	it('lets kube-proxy watch services and endpointslices through kubeadm:node-proxier', () => {
		const { client } = cluster();
		const proxy = client('kube-proxy/node-1');
		expect(proxy.list(R.services).ok).toBe(true);
		expect(proxy.list(R.endpointslices).ok).toBe(true);
		expect(proxy.list(R.pods).ok).toBe(false);
	});

	it('gives a ServiceAccount exactly the rights of its Role and RoleBinding', () => {
		const { admin, client } = cluster();
		mustCreate(admin, {
			apiVersion: 'rbac.authorization.k8s.io/v1',
			kind: 'Role',
			metadata: { name: 'pod-reader', namespace: 'team' },
			rules: [
				{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
				{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'], resourceNames: ['settings'] },
			],
		});
		mustCreate(admin, {
			apiVersion: 'rbac.authorization.k8s.io/v1',
			kind: 'RoleBinding',
			metadata: { name: 'bot-reads-pods', namespace: 'team' },
			roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'pod-reader' },
			subjects: [{ kind: 'ServiceAccount', name: 'bot', namespace: 'team' }],
		});
		mustCreate(admin, pod('p', {}, 'team'));
		for (const name of ['settings', 'other']) mustCreate(admin, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'team' }, data: {} });
		const bot = client('bot');
		const table: Array<[string, CallResult<unknown>, boolean]> = [
			['list pods in team', bot.list(R.pods, 'team'), true],
			['get a pod in team', bot.get(R.pods, 'team', 'p'), true],
			['get the settings configmap', bot.get(R.configmaps, 'team', 'settings'), true],
			['get another configmap', bot.get(R.configmaps, 'team', 'other'), false],
			['list configmaps', bot.list(R.configmaps, 'team'), false],
			['watch pods (not granted)', bot.watch(R.pods, 'team', {}), false],
			['delete a pod', bot.delete(R.pods, 'team', 'p'), false],
			['create a pod', bot.create(R.pods, 'team', pod('q', {}, 'team')), false],
			['list pods in default', bot.list(R.pods, 'default'), false],
			['list pods in all namespaces', bot.list(R.pods), false],
			['get pod logs (a subresource)', bot.call({ verb: 'get', ...R.pods, namespace: 'team', name: 'p', subresource: 'log' }), false],
		];
		const outcome = (r: CallResult<unknown>) => (r.ok ? 'allowed' : r.code === 403 ? 'forbidden' : `failed with ${r.code}`);
		for (const [what, result, allowed] of table) expect({ what, outcome: outcome(result) }).toEqual({ what, outcome: allowed ? 'allowed' : 'forbidden' });
		expect(failure(bot.delete(R.pods, 'team', 'p')).message).toBe('pods "p" is forbidden: User "system:serviceaccount:team:bot" cannot delete resource "pods" in API group "" in the namespace "team"');

		const rules = bot.create(SSRR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'team' } });
		expect(rules.ok && rules.object.status).toEqual({
			resourceRules: [
				{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
				{ verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
				{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] },
				{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
			],
			nonResourceRules: [
				{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] },
				{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] },
				{ verbs: ['get'], nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'] },
			],
			incomplete: false,
		});
	});

	it('gives a binding to the aggregated view role the rules aggregated into it', () => {
		const { admin, client } = cluster();
		mustCreate(admin, {
			apiVersion: 'rbac.authorization.k8s.io/v1',
			kind: 'RoleBinding',
			metadata: { name: 'jane-views', namespace: 'team' },
			roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
			subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'jane' }],
		});
		const jane = client('jane');
		expect(jane.list(R.deployments, 'team').ok).toBe(true);
		expect(jane.list(R.secrets, 'team').ok).toBe(false);
		// A new role labelled aggregate-to-view extends view at once.
		mustCreate(admin, {
			apiVersion: 'rbac.authorization.k8s.io/v1',
			kind: 'ClusterRole',
			metadata: { name: 'view-secrets', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
			rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['list'] }],
		});
		expect(jane.list(R.secrets, 'team').ok).toBe(true);
		expect(jane.list(R.secrets, 'default').ok).toBe(false);
	});
});
