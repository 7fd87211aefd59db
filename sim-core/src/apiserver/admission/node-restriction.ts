/**
 * NodeRestriction: a kubelet (user `system:node:<name>` in group
 * `system:nodes`) may change only its own Node and its own Lease in
 * kube-node-lease, may not change its taints or set labels outside the
 * kubelet's allowed set, may create only mirror pods bound to itself (owned
 * by its Node, referencing no service account or secret), may update the
 * status only of pods bound to itself, and may delete only those pods. Other
 * users pass untouched. kubeadm enables this plugin.
 *
 * Mirrors plugin/pkg/admission/noderestriction/admission.go,
 * pkg/auth/nodeidentifier/default.go.
 */
import type { KubeObject, Node, OwnerReference, PodSpec } from '../../api/types.ts';
import type { UserInfo } from '../../api/request.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';
import * as errors from '../errors.ts';
import { admissionForbidden } from './errors.ts';

const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** api.NamespaceNodeLease. */
export const NAMESPACE_NODE_LEASE = 'kube-node-lease';

/** nodeidentifier.NodeIdentity: the node name, or undefined when the user is not a node. */
export function nodeName(user: UserInfo): string | undefined {
	if (!user.username.startsWith('system:node:') || !user.groups.includes('system:nodes')) return undefined;
	return user.username.slice('system:node:'.length);
}

/** The labels a kubelet may set on its Node (kubeletapis.KubeletLabels and the allowed namespaces). */
const KUBELET_LABELS = new Set([
	'kubernetes.io/hostname',
	'topology.kubernetes.io/zone',
	'topology.kubernetes.io/region',
	'failure-domain.beta.kubernetes.io/zone',
	'failure-domain.beta.kubernetes.io/region',
	'beta.kubernetes.io/instance-type',
	'node.kubernetes.io/instance-type',
	'kubernetes.io/os',
	'kubernetes.io/arch',
	'beta.kubernetes.io/os',
	'beta.kubernetes.io/arch',
]);
const KUBELET_LABEL_NAMESPACES = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** getForbiddenLabels: node-restriction.kubernetes.io/ keys and kubernetes.io/k8s.io keys the kubelet may not set. */
function forbiddenLabels(keys: string[]): string[] {
	const out = keys.filter((k) => {
		const slash = k.indexOf('/');
		if (slash < 0) return false;
		const namespace = k.slice(0, slash);
		if (namespace === 'node-restriction.kubernetes.io' || namespace.endsWith('.node-restriction.kubernetes.io')) return true;
		const kubernetesNamespace = namespace === 'kubernetes.io' || namespace.endsWith('.kubernetes.io') || namespace === 'k8s.io' || namespace.endsWith('.k8s.io');
		if (!kubernetesNamespace) return false;
		if (KUBELET_LABELS.has(k)) return false;
		return !KUBELET_LABEL_NAMESPACES.some((ns) => namespace === ns || namespace.endsWith(`.${ns}`));
	});
	return out.sort();
}

/** getModifiedLabels: keys added, removed or changed. */
function modifiedLabels(now: Record<string, string> = {}, before: Record<string, string> = {}): string[] {
	const keys = new Set<string>();
	for (const k of Object.keys(now)) if (before[k] !== now[k]) keys.add(k);
	for (const k of Object.keys(before)) if (!(k in now)) keys.add(k);
	return [...keys];
}

function admitNode(node: string, a: AdmissionAttributes) {
	if (a.name !== node) return admissionForbidden(a, `node "${node}" is not allowed to modify node "${a.name}"`);
	if (a.operation === 'CREATE' && a.object) {
		const bad = forbiddenLabels(modifiedLabels(a.object.metadata.labels, {}));
		if (bad.length) return admissionForbidden(a, `node "${node}" is not allowed to set the following labels: ${bad.join(', ')}`);
	}
	if (a.operation === 'UPDATE' && a.object && a.oldObject) {
		const taints = JSON.stringify((a.object as Node).spec?.taints ?? []);
		const oldTaints = JSON.stringify((a.oldObject as Node).spec?.taints ?? []);
		if (taints !== oldTaints) return admissionForbidden(a, `node "${node}" is not allowed to modify taints`);
		const bad = forbiddenLabels(modifiedLabels(a.object.metadata.labels, a.oldObject.metadata.labels));
		if (bad.length) return admissionForbidden(a, `is not allowed to modify labels: ${bad.join(', ')}`);
	}
	return undefined;
}

function admitPodCreate(node: string, a: AdmissionAttributes, ctx: StrategyContext) {
	const pod = a.object as KubeObject;
	const spec = (pod.spec ?? {}) as PodSpec;
	if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] === undefined) {
		return admissionForbidden(a, `pod does not have "${MIRROR_POD_ANNOTATION}" annotation, node "${node}" can only create mirror pods`);
	}
	if (spec.nodeName !== node) return admissionForbidden(a, `node "${node}" can only create pods with spec.nodeName set to itself`);
	if (spec.serviceAccountName) return admissionForbidden(a, `node "${node}" can not create pods that reference a service account`);
	if ((spec.volumes ?? []).some((v) => v.secret)) return admissionForbidden(a, `node "${node}" can not create pods that reference secrets`);
	if ((spec.volumes ?? []).some((v) => v.configMap)) return admissionForbidden(a, `node "${node}" can not create pods that reference configmaps`);
	if ((spec.volumes ?? []).some((v) => v.persistentVolumeClaim)) return admissionForbidden(a, `node "${node}" can not create pods that reference persistentvolumeclaims`);
	const owners: OwnerReference[] = pod.metadata.ownerReferences ?? [];
	if (owners.length > 1) return admissionForbidden(a, `node "${node}" can only create pods with a single owner reference set to itself`);
	if (owners.length === 0) return admissionForbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
	const owner = owners[0];
	if (owner.apiVersion !== 'v1' || owner.kind !== 'Node' || owner.name !== node) return admissionForbidden(a, `node "${node}" can only create pods with an owner reference set to itself`);
	if (owner.controller !== true) return admissionForbidden(a, `node "${node}" can only create pods with a controller owner reference set to itself`);
	if (owner.blockOwnerDeletion === true) return admissionForbidden(a, `node "${node}" must not set blockOwnerDeletion on an owner reference`);
	const nodeObject = ctx.get('', 'nodes', undefined, node);
	if (!nodeObject) return errors.notFound('nodes', node, '', 'nodes');
	if (nodeObject.metadata.uid !== owner.uid) return admissionForbidden(a, `node ${node} UID mismatch: expected ${nodeObject.metadata.uid} got ${owner.uid}`);
	return undefined;
}

function admitPod(node: string, a: AdmissionAttributes, ctx: StrategyContext) {
	switch (a.subresource ?? '') {
		case '':
			if (a.operation === 'CREATE') return admitPodCreate(node, a, ctx);
			if (a.operation === 'DELETE') {
				const existing = a.oldObject;
				if (!existing) return errors.notFound('pods', a.name, '', 'pods');
				if ((existing.spec as PodSpec | undefined)?.nodeName !== node) return admissionForbidden(a, `node "${node}" can only delete pods with spec.nodeName set to itself`);
				return undefined;
			}
			return admissionForbidden(a, `unexpected operation "${a.operation}", node "${node}" can only create and delete mirror pods`);
		case 'status': {
			if (a.operation !== 'UPDATE') return admissionForbidden(a, `unexpected operation "${a.operation}"`);
			const old = a.oldObject;
			if ((old?.spec as PodSpec | undefined)?.nodeName !== node) return admissionForbidden(a, `node "${node}" can only update pod status for pods with spec.nodeName set to itself`);
			if (JSON.stringify(old?.metadata.labels ?? {}) !== JSON.stringify(a.object?.metadata.labels ?? {})) return admissionForbidden(a, `node "${node}" cannot update labels through pod status`);
			return undefined;
		}
		case 'eviction':
			return undefined;
		default:
			return admissionForbidden(a, `unexpected pod subresource "${a.subresource}", only 'status' and 'eviction' are allowed`);
	}
}

function admitLease(node: string, a: AdmissionAttributes) {
	if (a.namespace !== NAMESPACE_NODE_LEASE) return admissionForbidden(a, `can only access leases in the "${NAMESPACE_NODE_LEASE}" system namespace`);
	const name = a.operation === 'CREATE' ? a.object?.metadata.name : a.name;
	if (name !== node) return admissionForbidden(a, 'can only access node lease with the same name as the requesting node');
	return undefined;
}

function admitNodeRequest(a: AdmissionAttributes, ctx: StrategyContext) {
	const node = nodeName(a.user);
	if (node === undefined) return undefined;
	if (node === '') return admissionForbidden(a, 'could not determine node from user "' + a.user.username + '"');
	const { group, resource } = a.info;
	if (group === '' && resource === 'pods') return admitPod(node, a, ctx);
	if (group === '' && resource === 'nodes') return admitNode(node, a);
	if (group === 'coordination.k8s.io' && resource === 'leases') return admitLease(node, a);
	return undefined;
}

export const nodeRestriction: AdmissionPlugin = {
	name: 'NodeRestriction',
	admit(a, ctx) {
		return a.operation === 'DELETE' ? undefined : admitNodeRequest(a, ctx);
	},
	validate(a, ctx) {
		// Deletions reach only the validating phase in the simulated server.
		return a.operation === 'DELETE' ? admitNodeRequest(a, ctx) : undefined;
	},
};
