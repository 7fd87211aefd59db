/**
 * The Node authorizer (`--authorization-mode=Node,...`): what a kubelet,
 * user `system:node:<name>` in group `system:nodes`, may do. Secrets,
 * ConfigMaps, PersistentVolumeClaims, PersistentVolumes, ResourceClaims and
 * service account tokens are readable only when a pod bound to that node
 * uses them; pods and the Node object are readable only for the node's own;
 * its Lease only in kube-node-lease and under its own name. Writes the
 * kubelet needs (its Node and node status, pod status, mirror pods,
 * evictions) are allowed here and narrowed to its own objects by the
 * NodeRestriction admission plugin, as upstream splits the work. Anything
 * else is checked against the static node rules (bootstrap-policy.ts
 * `nodeRules()`); what they do not cover gets no opinion, so RBAC may still
 * allow it. Requests from anyone else get no opinion at all.
 *
 * Upstream keeps a graph of pods, their references and nodes, fed by
 * informers (graph_populator.go); here the same relations are read from the
 * API server's cache at decision time: a pod is related to a node when its
 * spec.nodeName names it, and a secret, configmap, service account, claim or
 * volume when such a pod refers to it (podutil.VisitPodSecretNames /
 * VisitPodConfigmapNames).
 *
 * Mirrors plugin/pkg/auth/authorizer/node/node_authorizer.go (with
 * AuthorizeNodeWithSelectors on, the v1.36 default),
 * pkg/auth/nodeidentifier/default.go.
 */
import type { Container, Pod, Volume } from '../../api/types.ts';
import { parseFieldSelector } from '../../api/labels.ts';
import type { UserInfo } from '../../api/request.ts';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, AuthorizerReader, SubjectRules } from './authorizer.ts';
import { nodeRules } from './bootstrap-policy.ts';
import { rulesAllow } from './rbac.ts';

const NODE_USER_PREFIX = 'system:node:';
/** user.NodesGroup. */
const NODES_GROUP = 'system:nodes';
/** api.NamespaceNodeLease: where each kubelet keeps its heartbeat Lease. */
const NODE_LEASE_NAMESPACE = 'kube-node-lease';

/**
 * nodeidentifier.NodeIdentity: a node when the username starts with
 * `system:node:` and the groups hold `system:nodes`; the name may be empty
 * (`system:node:` alone), which the authorizer refuses.
 */
export function nodeIdentity(user: UserInfo): { isNode: boolean; nodeName: string } {
	if (!user.username.startsWith(NODE_USER_PREFIX) || !user.groups.includes(NODES_GROUP)) return { isNode: false, nodeName: '' };
	return { isNode: true, nodeName: user.username.slice(NODE_USER_PREFIX.length) };
}

// ---- the relations a node has (graph.go, read from the cache) ---------------------

type Kind = 'pod' | 'secret' | 'configmap' | 'serviceAccount' | 'pvc' | 'pv' | 'resourceclaim' | 'volumeattachment' | 'resourceslice';

interface Named {
	name?: string;
}

function allContainers(pod: Pod): Container[] {
	const spec = pod.spec;
	const ephemeral = (spec.ephemeralContainers ?? []) as Container[];
	return [...(spec.initContainers ?? []), ...(spec.containers ?? []), ...ephemeral];
}

function sourceOf(volume: Volume, key: string): Record<string, unknown> | undefined {
	const value = volume[key];
	return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}

function projectedSources(volume: Volume): Array<Record<string, unknown>> {
	return (sourceOf(volume, 'projected')?.sources as Array<Record<string, unknown>> | undefined) ?? [];
}

/** podutil.VisitPodSecretNames: image pull secrets, env and envFrom, and every volume source that names a secret. */
export function podSecretNames(pod: Pod): Set<string> {
	const names = new Set<string>();
	const add = (name: unknown) => {
		if (typeof name === 'string' && name) names.add(name);
	};
	for (const s of (pod.spec.imagePullSecrets as Named[] | undefined) ?? []) add(s.name);
	for (const c of allContainers(pod)) {
		for (const from of c.envFrom ?? []) add((from.secretRef as Named | undefined)?.name);
		for (const env of c.env ?? []) add((env.valueFrom?.secretKeyRef as Named | undefined)?.name);
	}
	for (const v of pod.spec.volumes ?? []) {
		add(sourceOf(v, 'secret')?.secretName);
		add(sourceOf(v, 'azureFile')?.secretName);
		for (const key of ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos']) add((sourceOf(v, key)?.secretRef as Named | undefined)?.name);
		add((sourceOf(v, 'csi')?.nodePublishSecretRef as Named | undefined)?.name);
		for (const p of projectedSources(v)) add((p.secret as Named | undefined)?.name);
	}
	return names;
}

/** podutil.VisitPodConfigmapNames: env and envFrom, configMap volumes and projected configMap sources. */
export function podConfigMapNames(pod: Pod): Set<string> {
	const names = new Set<string>();
	const add = (name: unknown) => {
		if (typeof name === 'string' && name) names.add(name);
	};
	for (const c of allContainers(pod)) {
		for (const from of c.envFrom ?? []) add((from.configMapRef as Named | undefined)?.name);
		for (const env of c.env ?? []) add((env.valueFrom?.configMapKeyRef as Named | undefined)?.name);
	}
	for (const v of pod.spec.volumes ?? []) {
		add(sourceOf(v, 'configMap')?.name);
		for (const p of projectedSources(v)) add((p.configMap as Named | undefined)?.name);
	}
	return names;
}

/** The claims a pod mounts: persistentVolumeClaim volumes, and `<pod>-<volume>` for generic ephemeral volumes. */
function podClaimNames(pod: Pod): Set<string> {
	const names = new Set<string>();
	for (const v of pod.spec.volumes ?? []) {
		const claim = sourceOf(v, 'persistentVolumeClaim')?.claimName;
		if (typeof claim === 'string' && claim) names.add(claim);
		if (sourceOf(v, 'ephemeral')) names.add(`${pod.metadata.name}-${v.name}`);
	}
	return names;
}

/** resourceclaim.Name for each of the pod's resource claims: the named claim, or the one generated from a template (in status). */
function podResourceClaimNames(pod: Pod): Set<string> {
	const names = new Set<string>();
	for (const c of (pod.spec.resourceClaims as Array<{ resourceClaimName?: string }> | undefined) ?? []) if (c.resourceClaimName) names.add(c.resourceClaimName);
	for (const s of ((pod.status as { resourceClaimStatuses?: Array<{ resourceClaimName?: string }> } | undefined)?.resourceClaimStatuses ?? [])) if (s.resourceClaimName) names.add(s.resourceClaimName);
	return names;
}

/** The pods bound to a node (the only pods the graph holds), in one namespace or all. */
function podsOnNode(reader: AuthorizerReader, nodeName: string, namespace?: string): Pod[] {
	// The graph upstream keeps is an index by node; the watch cache's spec.nodeName index is ours.
	const indexed = reader.byIndex?.('', 'pods', 'spec.nodeName', nodeName, namespace) as Pod[] | undefined;
	return indexed ?? (reader.list('', 'pods', namespace) as Pod[]).filter((p) => p.spec?.nodeName === nodeName);
}

/** hasPathFrom: whether the object reaches the node through the relations above. */
function relatedToNode(reader: AuthorizerReader, nodeName: string, kind: Kind, namespace: string, name: string): boolean {
	switch (kind) {
		case 'pod':
			return (reader.get('', 'pods', namespace, name) as Pod | undefined)?.spec?.nodeName === nodeName;
		case 'secret':
			return podsOnNode(reader, nodeName, namespace).some((p) => podSecretNames(p).has(name));
		case 'configmap':
			return podsOnNode(reader, nodeName, namespace).some((p) => podConfigMapNames(p).has(name));
		case 'serviceAccount':
			return podsOnNode(reader, nodeName, namespace).some((p) => p.spec.serviceAccountName === name);
		case 'pvc':
			return podsOnNode(reader, nodeName, namespace).some((p) => podClaimNames(p).has(name));
		case 'pv':
			// pod -> pvc -> pv: a claim of a pod on the node bound to this volume.
			return podsOnNode(reader, nodeName).some((p) =>
				[...podClaimNames(p)].some((claim) => (reader.get('', 'persistentvolumeclaims', p.metadata.namespace, claim)?.spec as { volumeName?: string } | undefined)?.volumeName === name),
			);
		case 'resourceclaim':
			return podsOnNode(reader, nodeName, namespace).some((p) => podResourceClaimNames(p).has(name));
		case 'volumeattachment':
			return (reader.get('storage.k8s.io', 'volumeattachments', undefined, name)?.spec as { nodeName?: string } | undefined)?.nodeName === nodeName;
		case 'resourceslice':
			return (reader.get('resource.k8s.io', 'resourceslices', undefined, name)?.spec as { nodeName?: string } | undefined)?.nodeName === nodeName;
	}
}

// ---- decisions --------------------------------------------------------------------

const ALLOW: AuthorizationDecision = { allowed: true, reason: '' };

/** DecisionNoOpinion with a reason: the reason follows the 403 message. */
function noOpinion(reason: string): AuthorizationDecision | 'no-opinion' {
	return reason ? { allowed: false, reason } : 'no-opinion';
}

type Decision = AuthorizationDecision | 'no-opinion';

/** authorize: the object must be named and related to the node. */
function authorizeRelated(reader: AuthorizerReader, nodeName: string, kind: Kind, a: AuthorizationAttributes): Decision {
	if (!a.name) return noOpinion('No Object name found');
	if (!relatedToNode(reader, nodeName, kind, a.namespace ?? '', a.name)) return noOpinion(`no relationship found between node '${nodeName}' and this object`);
	return ALLOW;
}

/** authorizeReadNamespacedObject: get, list or watch of one named object in a namespace (secrets, configmaps). */
function authorizeReadNamespaced(reader: AuthorizerReader, nodeName: string, kind: Kind, a: AuthorizationAttributes): Decision {
	if (!['get', 'list', 'watch'].includes(a.verb)) return noOpinion('can only read resources of this type');
	if (a.subresource) return noOpinion('cannot read subresource');
	if (!a.namespace) return noOpinion('can only read namespaced object of this type');
	return authorizeRelated(reader, nodeName, kind, a);
}

/** authorizeGet: get of one related object, no subresource. */
function authorizeGet(reader: AuthorizerReader, nodeName: string, kind: Kind, a: AuthorizationAttributes): Decision {
	if (a.verb !== 'get') return noOpinion('can only get individual resources of this type');
	if (a.subresource) return noOpinion('cannot get subresource');
	return authorizeRelated(reader, nodeName, kind, a);
}

/** authorizeStatusUpdate: update or patch of the status subresource of a related object. */
function authorizeStatusUpdate(reader: AuthorizerReader, nodeName: string, kind: Kind, a: AuthorizationAttributes): Decision {
	if (a.verb !== 'update' && a.verb !== 'patch') return noOpinion('can only get/update/patch this type');
	if (a.subresource !== 'status') return noOpinion('can only update status subresource');
	return authorizeRelated(reader, nodeName, kind, a);
}

/** authorizeCreateToken: a token for a service account one of the node's pods runs as. */
function authorizeCreateToken(reader: AuthorizerReader, nodeName: string, a: AuthorizationAttributes): Decision {
	if (a.verb !== 'create' || !a.name) return noOpinion('can only create tokens for individual service accounts');
	if (a.subresource !== 'token') return noOpinion('can only create token subresource of serviceaccount');
	return authorizeRelated(reader, nodeName, 'serviceAccount', a);
}

/** authorizeLease: the node's own Lease in kube-node-lease (create is checked by NodeRestriction, which sees the name). */
function authorizeLease(nodeName: string, a: AuthorizationAttributes): Decision {
	if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a node lease');
	if (a.namespace !== NODE_LEASE_NAMESPACE) return noOpinion(`can only access leases in the "${NODE_LEASE_NAMESPACE}" system namespace`);
	if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access node lease with the same name as the requesting node');
	return ALLOW;
}

/** authorizeCSINode: the node's own CSINode. */
function authorizeCSINode(nodeName: string, a: AuthorizationAttributes): Decision {
	if (!['get', 'create', 'update', 'patch', 'delete'].includes(a.verb)) return noOpinion('can only get, create, update, patch, or delete a CSINode');
	if (a.subresource) return noOpinion('cannot authorize CSINode subresources');
	if (a.verb !== 'create' && a.name !== nodeName) return noOpinion('can only access CSINode with the same name as the requesting node');
	return ALLOW;
}

/** The requirements `field=value` of a field selector (an unparsable selector has none). */
function fieldEquals(a: AuthorizationAttributes, field: string, value: string): boolean {
	if (!a.fieldSelector) return false;
	try {
		return parseFieldSelector(a.fieldSelector).terms.some((t) => t.field === field && t.operator === '=' && t.value === value);
	} catch {
		return false;
	}
}

/** authorizeResourceSlice: slices whose spec.nodeName is the node. */
function authorizeResourceSlice(reader: AuthorizerReader, nodeName: string, a: AuthorizationAttributes): Decision {
	if (a.subresource) return noOpinion('cannot authorize ResourceSlice subresources');
	switch (a.verb) {
		case 'create':
			// NodeRestriction checks spec.nodeName on create; the authorizer cannot see the body.
			return ALLOW;
		case 'get':
		case 'update':
		case 'patch':
		case 'delete':
			return authorizeRelated(reader, nodeName, 'resourceslice', a);
		case 'watch':
		case 'list':
		case 'deletecollection':
			// Upstream has spelled the field `nodeName` and `spec.nodeName` across releases; either scopes the request to the node.
			return fieldEquals(a, 'spec.nodeName', nodeName) || fieldEquals(a, 'nodeName', nodeName) ? ALLOW : noOpinion('can only list/watch/deletecollection resourceslices with nodeName field selector');
		default:
			return noOpinion('only the following verbs are allowed for a ResourceSlice: get, watch, list, create, update, patch, delete, deletecollection');
	}
}

/** authorizeNode: any Node may be created or written (NodeRestriction narrows it); only its own may be read. */
function authorizeNode(nodeName: string, a: AuthorizationAttributes): Decision {
	if (!a.subresource) {
		if (['create', 'update', 'patch'].includes(a.verb)) return ALLOW;
		if (['get', 'list', 'watch'].includes(a.verb)) {
			// By name, not through the graph: a kubelet reads its Node before registering it.
			if (a.name === nodeName) return ALLOW;
			if (!a.name) return noOpinion(`node '${nodeName}' cannot read all nodes, only its own Node object`);
			return noOpinion(`node '${nodeName}' cannot read '${a.name}', only its own Node object`);
		}
	} else if (a.subresource === 'status' && (a.verb === 'update' || a.verb === 'patch')) {
		return ALLOW;
	}
	return 'no-opinion';
}

/** authorizePod: its own pods by name or by the spec.nodeName field selector; mirror pods, status and evictions (NodeRestriction narrows them). */
function authorizePod(reader: AuthorizerReader, nodeName: string, a: AuthorizationAttributes): Decision {
	switch (a.subresource ?? '') {
		case '':
			if (a.verb === 'get') return authorizeGet(reader, nodeName, 'pod', a);
			if (a.verb === 'list' || a.verb === 'watch') {
				if (fieldEquals(a, 'spec.nodeName', nodeName)) return ALLOW;
				if (a.name) return authorizeRelated(reader, nodeName, 'pod', a);
				return noOpinion('can only list/watch pods with spec.nodeName field selector');
			}
			if (a.verb === 'create' || a.verb === 'delete') return ALLOW;
			break;
		case 'status':
			if (a.verb === 'update' || a.verb === 'patch') return ALLOW;
			break;
		case 'eviction':
			if (a.verb === 'create') return ALLOW;
			break;
	}
	return 'no-opinion';
}

/** NodeAuthorizer.Authorize. */
export function authorizeNodeRequest(a: AuthorizationAttributes, reader: AuthorizerReader): Decision {
	const { isNode, nodeName } = nodeIdentity(a.user);
	if (!isNode) return 'no-opinion';
	if (!nodeName) return noOpinion(`unknown node for user "${a.user.username}"`);
	if (a.resourceRequest) {
		const gr = `${a.group}/${a.resource}`;
		switch (gr) {
			case '/secrets':
				return authorizeReadNamespaced(reader, nodeName, 'secret', a);
			case '/configmaps':
				return authorizeReadNamespaced(reader, nodeName, 'configmap', a);
			case '/persistentvolumeclaims':
				return a.subresource === 'status' ? authorizeStatusUpdate(reader, nodeName, 'pvc', a) : authorizeGet(reader, nodeName, 'pvc', a);
			case '/persistentvolumes':
				return authorizeGet(reader, nodeName, 'pv', a);
			case 'resource.k8s.io/resourceclaims':
				return authorizeGet(reader, nodeName, 'resourceclaim', a);
			case 'storage.k8s.io/volumeattachments':
				return authorizeGet(reader, nodeName, 'volumeattachment', a);
			case '/serviceaccounts':
				return authorizeCreateToken(reader, nodeName, a);
			case 'coordination.k8s.io/leases':
				return authorizeLease(nodeName, a);
			case 'storage.k8s.io/csinodes':
				return authorizeCSINode(nodeName, a);
			case 'resource.k8s.io/resourceslices':
				return authorizeResourceSlice(reader, nodeName, a);
			case '/nodes':
				return authorizeNode(nodeName, a);
			case '/pods':
				return authorizePod(reader, nodeName, a);
		}
	}
	// Everything else is the same for every node: the static node rules.
	return rulesAllow(a, NODE_RULES) ? ALLOW : 'no-opinion';
}

/** NodeRules(), built once: plain data, never changed. */
const NODE_RULES = nodeRules();

/** RulesFor: a node's permissions cannot be listed (they depend on its pods). */
export function nodeSubjectRules(user: UserInfo): SubjectRules {
	if (nodeIdentity(user).isNode) return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' };
	return { resourceRules: [], nonResourceRules: [], incomplete: false };
}

/** `--authorization-mode=Node`. */
export const nodeAuthorizer: Authorizer = {
	name: 'Node',
	authorize: authorizeNodeRequest,
	rulesFor: (user) => nodeSubjectRules(user),
};
