/**
 * The strategies of the built-in kinds the simulation stores and serves
 * without validation of their own: object metadata is
 * validated as everywhere, status is a subresource where upstream serves
 * one, and the defaults that `kubectl get` shows are set (a PersistentVolume
 * or claim starts Pending, a volume's reclaim policy is Retain, a
 * StorageClass deletes and binds at once, a ReplicationController has one
 * replica and selects its template's labels, a CSIDriver needs attaching
 * and serves persistent volumes, a NetworkPolicy without policyTypes
 * governs ingress, and egress when it has egress rules). Spec validation beyond the schema's
 * field types is not modelled for these kinds. (Volumes and claims are
 * bound by kube-controller-manager's PV controller,
 * ../../controllers/volume/persistentvolume-binder.ts.)
 *
 * Mirrors pkg/registry/core/persistentvolume/strategy.go,
 * pkg/registry/core/persistentvolumeclaim/strategy.go,
 * pkg/registry/core/replicationcontroller/strategy.go,
 * pkg/registry/storage/storageclass/strategy.go,
 * pkg/apis/core/v1/defaults.go (SetDefaults_PersistentVolume,
 * SetDefaults_PersistentVolumeClaim, SetDefaults_ReplicationController,
 * SetDefaults_HostPathVolumeSource),
 * pkg/apis/storage/v1/defaults.go (SetDefaults_StorageClass,
 * SetDefaults_CSIDriver),
 * pkg/apis/networking/v1/defaults.go (SetDefaults_NetworkPolicy).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord } from './field.ts';
import { metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';
import { defaultPodTemplate } from './pod-defaults.ts';
import { bumpGenerationOnSpecChange, initGeneration } from './generation.ts';

/** Metadata validation on create and update, for a namespaced or cluster-scoped kind. */
function metadataOnly(namespaced: boolean, extra: Partial<Strategy> = {}): Strategy {
	return {
		validate: (obj) => metaErrors(obj, namespaced),
		validateUpdate: (obj, old) => [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...metaErrors(obj, namespaced)],
		...extra,
	};
}

/** A kind with a status subresource: a create drops any status, the main resource keeps the old one. */
function withStatus(namespaced: boolean, extra: Partial<Strategy> = {}): Strategy {
	return metadataOnly(namespaced, { hasStatusSubresource: true, ...extra });
}

const spec = (obj: KubeObject): Record<string, unknown> => {
	obj.spec = asRecord(obj.spec) ?? {};
	return obj.spec as Record<string, unknown>;
};

/** A hostPath source's `type` defaults to "" (HostPathUnset). */
function defaultHostPath(source: Record<string, unknown>): void {
	const hostPath = asRecord(source.hostPath);
	if (hostPath && hostPath.type === undefined) hostPath.type = '';
}

/** PersistentVolumes: Retain and Filesystem by default; a new volume is Pending, with the time it became so. */
export const persistentVolumeStrategy: Strategy = withStatus(false, {
	defaults(obj) {
		const s = spec(obj);
		s.persistentVolumeReclaimPolicy ??= 'Retain';
		s.volumeMode ??= 'Filesystem';
		defaultHostPath(s);
	},
	prepareForCreate(obj, ctx) {
		obj.status = { phase: 'Pending', lastPhaseTransitionTime: ctx.now };
	},
});

/** PersistentVolumeClaims: Filesystem by default; a new claim is Pending until a volume is bound to it. */
export const persistentVolumeClaimStrategy: Strategy = withStatus(true, {
	defaults(obj) {
		spec(obj).volumeMode ??= 'Filesystem';
	},
	prepareForCreate(obj) {
		obj.status = { phase: 'Pending' };
	},
});

/** ReplicationControllers: one replica, the template's labels as selector and labels, the template's pod defaults. */
export const replicationControllerStrategy: Strategy = withStatus(true, {
	defaults(obj) {
		const s = spec(obj);
		const template = asRecord(s.template);
		const labels = asRecord(asRecord(template?.metadata)?.labels) as Record<string, string> | undefined;
		if (labels) {
			if (!asRecord(s.selector) || Object.keys(asRecord(s.selector) ?? {}).length === 0) s.selector = { ...labels };
			if (Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...labels };
		}
		s.replicas ??= 1;
		if (template) defaultPodTemplate(template);
	},
	prepareForCreate(obj) {
		initGeneration(obj);
		obj.status = { replicas: 0 };
	},
	prepareForUpdate(obj, old) {
		bumpGenerationOnSpecChange(obj, old);
	},
});

/**
 * LimitRanges: a Container limit's default limit falls back to its max, its
 * default request to the default limit, then to its min
 * (SetDefaults_LimitRangeItem), so what LimitRanger applies is on show.
 */
export const limitRangeStrategy: Strategy = metadataOnly(true, {
	defaults(obj) {
		const limits = spec(obj).limits;
		if (!Array.isArray(limits)) return;
		for (const raw of limits) {
			const item = asRecord(raw);
			if (!item || item.type !== 'Container') continue;
			const fill = (into: string, from: string) => {
				for (const [name, value] of Object.entries(asRecord(item[from]) ?? {})) {
					// An empty map is omitted when written, as upstream's is.
					const target = (asRecord(item[into]) ?? (item[into] = {})) as Record<string, unknown>;
					if (!Object.hasOwn(target, name)) target[name] = value;
				}
			};
			fill('default', 'max');
			fill('defaultRequest', 'default');
			fill('defaultRequest', 'min');
		}
	},
});

/** StorageClasses: reclaimPolicy Delete and volumeBindingMode Immediate by default. */
export const storageClassStrategy: Strategy = metadataOnly(false, {
	defaults(obj) {
		const sc = obj as KubeObject & Record<string, unknown>;
		sc.reclaimPolicy ??= 'Delete';
		sc.volumeBindingMode ??= 'Immediate';
	},
});

/** CSIDrivers: SetDefaults_CSIDriver's attach, pod info, capacity, fsGroup, republish, lifecycle and SELinux defaults. */
export const csiDriverStrategy: Strategy = metadataOnly(false, {
	defaults(obj) {
		const s = spec(obj);
		s.attachRequired ??= true;
		s.podInfoOnMount ??= false;
		s.storageCapacity ??= false;
		s.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
		s.requiresRepublish ??= false;
		if (!Array.isArray(s.volumeLifecycleModes) || s.volumeLifecycleModes.length === 0) s.volumeLifecycleModes = ['Persistent'];
		s.seLinuxMount ??= false;
	},
});

/** NetworkPolicies: without policyTypes, Ingress, and Egress too when egress rules are given (SetDefaults_NetworkPolicy). */
export const networkPolicyStrategy: Strategy = metadataOnly(true, {
	defaults(obj) {
		const s = spec(obj);
		if (Array.isArray(s.policyTypes) && s.policyTypes.length > 0) return;
		s.policyTypes = Array.isArray(s.egress) && s.egress.length > 0 ? ['Ingress', 'Egress'] : ['Ingress'];
	},
});

/** `[group, resource, strategy]` for every kind served through these generic strategies. */
export function builtinKindStrategies(): Array<[string, string, Strategy]> {
	const ADMISSION = 'admissionregistration.k8s.io';
	return [
		['', 'persistentvolumes', persistentVolumeStrategy],
		['', 'persistentvolumeclaims', persistentVolumeClaimStrategy],
		['', 'replicationcontrollers', replicationControllerStrategy],
		['', 'resourcequotas', withStatus(true)],
		['', 'limitranges', limitRangeStrategy],
		['', 'podtemplates', metadataOnly(true, { defaults: (obj) => defaultPodTemplate((obj as KubeObject & { template?: unknown }).template) })],
		[ADMISSION, 'mutatingwebhookconfigurations', metadataOnly(false)],
		[ADMISSION, 'validatingwebhookconfigurations', metadataOnly(false)],
		[ADMISSION, 'validatingadmissionpolicies', withStatus(false)],
		[ADMISSION, 'validatingadmissionpolicybindings', metadataOnly(false)],
		[ADMISSION, 'mutatingadmissionpolicies', metadataOnly(false)],
		[ADMISSION, 'mutatingadmissionpolicybindings', metadataOnly(false)],
		['apiextensions.k8s.io', 'customresourcedefinitions', withStatus(false)],
		['flowcontrol.apiserver.k8s.io', 'flowschemas', withStatus(false)],
		['flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', withStatus(false)],
		['networking.k8s.io', 'ingresses', withStatus(true)],
		['networking.k8s.io', 'ingressclasses', metadataOnly(false)],
		['networking.k8s.io', 'networkpolicies', networkPolicyStrategy],
		['networking.k8s.io', 'ipaddresses', metadataOnly(false)],
		['networking.k8s.io', 'servicecidrs', withStatus(false)],
		['node.k8s.io', 'runtimeclasses', metadataOnly(false)],
		['resource.k8s.io', 'deviceclasses', metadataOnly(false)],
		['resource.k8s.io', 'resourceclaims', withStatus(true)],
		['resource.k8s.io', 'resourceclaimtemplates', metadataOnly(true)],
		['resource.k8s.io', 'resourceslices', metadataOnly(false)],
		['storage.k8s.io', 'storageclasses', storageClassStrategy],
		['storage.k8s.io', 'csidrivers', csiDriverStrategy],
		['storage.k8s.io', 'csinodes', metadataOnly(false)],
		['storage.k8s.io', 'csistoragecapacities', metadataOnly(true)],
		['storage.k8s.io', 'volumeattachments', withStatus(false)],
		['storage.k8s.io', 'volumeattributesclasses', metadataOnly(false)],
	];
}
