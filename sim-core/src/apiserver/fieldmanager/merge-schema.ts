/**
 * How server-side apply sees each part of an object: a scalar, a struct
 * (named fields), a map (free keys, such as labels), or a list that is
 * atomic (replaced whole: `command`, `tolerations`), a set (`finalizers`) or
 * keyed by some of its items' fields (`containers` by name, container
 * `ports` by containerPort and protocol). A struct or map can be atomic too
 * (a label selector is owned whole).
 *
 * The field names and types come from the simulator's copy of the OpenAPI
 * schema (../../api/schema/); the list types and atomic markers come from
 * the `+listType`, `+listMapKey`, `+structType` and `+mapType` markers of
 * k8s.io/api v1.36, written out below for the types the simulator serves.
 * A list with no marker is atomic, as schemaconv makes it. A kind without
 * a schema is read as SMD reads untyped data: maps with members, atomic
 * lists.
 *
 * Mirrors kubernetes/kube-openapi pkg/schemaconv/smd.go (list types from the
 * x-kubernetes-list-type, -list-map-keys and -map-type extensions),
 * kubernetes-sigs/structured-merge-diff schema/elements.go (Map, List,
 * ElementRelationship).
 */
import { typeForKind, typeSchema, type FieldType } from '../../api/schema/index.ts';

/** One node of the schema as merging sees it. */
export type MergeType =
	| { readonly kind: 'scalar' }
	| { readonly kind: 'struct'; readonly key: string; readonly atomic: boolean }
	| { readonly kind: 'map'; readonly value: MergeType; readonly atomic: boolean }
	| { readonly kind: 'list'; readonly item: MergeType; readonly relation: ListRelation }
	| { readonly kind: 'untyped' };

/** Atomic, a set of scalars, or keyed by these item fields (sorted, as SMD sorts a key's fields). */
export type ListRelation = 'atomic' | 'set' | { readonly keys: readonly string[] };

const SCALAR: MergeType = { kind: 'scalar' };
const UNTYPED: MergeType = { kind: 'untyped' };

/** `+listType=map` (with its keys) and `+listType=set` lists, by `TypeKey.field`. Unlisted lists are atomic. */
const LIST_TYPES: Record<string, 'set' | readonly string[]> = {
	'ObjectMeta.finalizers': 'set',
	'ObjectMeta.ownerReferences': ['uid'],
	'PodSpec.containers': ['name'],
	'PodSpec.initContainers': ['name'],
	'PodSpec.ephemeralContainers': ['name'],
	'PodSpec.volumes': ['name'],
	'PodSpec.imagePullSecrets': ['name'],
	'PodSpec.hostAliases': ['ip'],
	'PodSpec.topologySpreadConstraints': ['topologyKey', 'whenUnsatisfiable'],
	'PodSpec.schedulingGates': ['name'],
	'PodSpec.resourceClaims': ['name'],
	'Container.ports': ['containerPort', 'protocol'],
	'Container.env': ['name'],
	'Container.volumeMounts': ['mountPath'],
	'Container.volumeDevices': ['devicePath'],
	'EphemeralContainer.ports': ['containerPort', 'protocol'],
	'EphemeralContainer.env': ['name'],
	'EphemeralContainer.volumeMounts': ['mountPath'],
	'EphemeralContainer.volumeDevices': ['devicePath'],
	'ResourceRequirements.claims': ['name'],
	'PodStatus.conditions': ['type'],
	'PodStatus.podIPs': ['ip'],
	'PodStatus.hostIPs': ['ip'],
	'ServiceSpec.ports': ['port', 'protocol'],
	'NodeSpec.podCIDRs': 'set',
	'NodeStatus.conditions': ['type'],
	'NodeStatus.addresses': ['type'],
	'NamespaceStatus.conditions': ['type'],
	'DeploymentStatus.conditions': ['type'],
	'ReplicaSetStatus.conditions': ['type'],
	'StatefulSetStatus.conditions': ['type'],
	'DaemonSetStatus.conditions': ['type'],
	'PersistentVolumeClaimStatus.conditions': ['type'],
	'PodDisruptionBudgetStatus.conditions': ['type'],
	'HorizontalPodAutoscalerStatus.conditions': ['type'],
	'CertificateSigningRequestStatus.conditions': ['type'],
	'ServiceStatus.conditions': ['type'],
	'LoadBalancerIngress.ports': ['port', 'protocol'],
};

/** Defaults SMD fills into a missing key field (the OpenAPI `default`), so `{containerPort: 80}` keys as TCP. */
const KEY_DEFAULTS: Record<string, unknown> = { protocol: 'TCP' };

/** Types owned whole (`+structType=atomic`). */
const ATOMIC_STRUCTS = new Set([
	'LabelSelector',
	'NodeSelector',
	'NodeSelectorTerm',
	'TopologySelectorTerm',
	'ObjectReference',
	'LocalObjectReference',
	'TypedLocalObjectReference',
	'OwnerReference',
	'ConfigMapKeySelector',
	'SecretKeySelector',
	'ObjectFieldSelector',
	'ResourceFieldSelector',
]);

/** Maps owned whole (`+mapType=atomic`), by `TypeKey.field`. */
const ATOMIC_MAPS = new Set(['PodSpec.nodeSelector', 'ServiceSpec.selector', 'ReplicationControllerSpec.selector']);

/** The merge type of a whole object of this kind. */
export function rootType(group: string, version: string, kind: string): MergeType {
	const key = typeForKind({ group, version, kind });
	return key && typeSchema(key) ? { kind: 'struct', key, atomic: false } : UNTYPED;
}

const FIELD_TYPES = new Map<string, MergeType>();

/** The merge type of one member of a struct or map, or of a list's items. */
export function childType(parent: MergeType, name: string): MergeType {
	switch (parent.kind) {
		case 'struct': {
			// Every write walks these: each struct field's merge type is worked out once.
			const cacheKey = `${parent.key}.${name}`;
			let type = FIELD_TYPES.get(cacheKey);
			if (!type) {
				const field = typeSchema(parent.key)?.fields.get(name);
				type = field ? fromField(parent.key, name, field.type) : SCALAR;
				FIELD_TYPES.set(cacheKey, type);
			}
			return type;
		}
		case 'map':
			return parent.value;
		case 'list':
			return parent.item;
		case 'untyped':
			return UNTYPED;
		default:
			return SCALAR;
	}
}

function fromField(owner: string, name: string, type: FieldType): MergeType {
	if (type.code === '[') {
		const marker = LIST_TYPES[`${owner}.${name}`];
		const relation: ListRelation = marker === 'set' ? 'set' : marker ? { keys: [...marker].sort() } : 'atomic';
		return { kind: 'list', item: fromElem(type.elem!), relation };
	}
	if (type.code === '{') return { kind: 'map', value: fromElem(type.elem!), atomic: ATOMIC_MAPS.has(`${owner}.${name}`) };
	return fromElem(type);
}

function fromElem(type: FieldType): MergeType {
	if (type.code === 'R') return { kind: 'struct', key: type.ref!, atomic: ATOMIC_STRUCTS.has(type.ref!) };
	// Lists of lists and maps of lists do not occur in the built-in types; read them as atomic.
	if (type.code === '[') return { kind: 'list', item: fromElem(type.elem!), relation: 'atomic' };
	if (type.code === '{') return { kind: 'map', value: fromElem(type.elem!), atomic: false };
	return SCALAR;
}

/** True where the node is owned whole (a leaf for ownership). */
export function isAtomic(type: MergeType): boolean {
	switch (type.kind) {
		case 'scalar':
			return true;
		case 'struct':
		case 'map':
			return type.atomic;
		case 'list':
			return type.relation === 'atomic';
		default:
			return false;
	}
}

/**
 * The path element of one item of a non-atomic list: `k:{...}` with the key
 * fields as sorted JSON, or `v:<json>` for a set's item. Undefined when a
 * keyed item lacks its key (the API server's validation reports it).
 */
export function itemElement(list: MergeType & { kind: 'list' }, item: unknown): string | undefined {
	if (list.relation === 'set') return 'v:' + JSON.stringify(item);
	if (list.relation === 'atomic' || !item || typeof item !== 'object') return undefined;
	const key: Record<string, unknown> = {};
	for (const field of list.relation.keys) {
		const value = (item as Record<string, unknown>)[field] ?? KEY_DEFAULTS[field];
		if (value === undefined) return undefined;
		key[field] = value;
	}
	return 'k:' + JSON.stringify(key);
}
