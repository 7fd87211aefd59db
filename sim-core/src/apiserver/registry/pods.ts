/**
 * The Pod strategy: defaults, the initial status (phase Pending and the QoS
 * class), generation, validation of creates and updates, the field selectors
 * kubectl and the kubelet use, and graceful deletion. An update of the
 * ephemeralcontainers subresource (`kubectl debug`) keeps everything of the
 * stored pod but spec.ephemeralContainers (dropNonEphemeralContainerUpdates).
 *
 * Mirrors pkg/registry/core/pod/strategy.go.
 */
import type { KubeObject, PodStatus } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asArray, asRecord } from './field.ts';
import { defaultPod } from './pod-defaults.ts';
import { validatePod, validatePodEphemeralContainersUpdate, validatePodUpdate } from './pod-validation.ts';
import { validateImmutable, validateObjectMetaUpdate } from './objectmeta.ts';
import { computePodQOS } from '../../component-helpers/qos.ts';
import type { PodSpec } from '../../api/types.ts';
import { bumpGenerationOnSpecChange, initGeneration } from './generation.ts';
import { deepCopy } from '../../golang/json.ts';

interface PodSpecFields {
	nodeName?: string;
	restartPolicy?: string;
	schedulerName?: string;
	serviceAccountName?: string;
	hostNetwork?: boolean;
	terminationGracePeriodSeconds?: number;
	schedulingGates?: unknown[];
}

const specOf = (obj: KubeObject) => (asRecord(obj.spec) ?? {}) as PodSpecFields;
const statusOf = (obj: KubeObject) => (asRecord(obj.status) ?? {}) as PodStatus;

/**
 * CheckGracefulDelete: the requested period, else terminationGracePeriodSeconds;
 * 0 for a pod that was never scheduled or has finished; a negative value
 * becomes 1. Undefined means "delete now".
 */
export function podGracePeriodSeconds(obj: KubeObject, requested: number | undefined): number | undefined {
	const spec = specOf(obj);
	let period = requested ?? spec.terminationGracePeriodSeconds ?? 0;
	if (!spec.nodeName) period = 0;
	const phase = statusOf(obj).phase;
	if (phase === 'Failed' || phase === 'Succeeded') period = 0;
	if (period < 0) period = 1;
	return period === 0 ? undefined : period;
}

/** ToSelectableFields / GetAttrs for pods. */
export function podFields(obj: KubeObject): Record<string, string> {
	const spec = specOf(obj);
	const status = statusOf(obj);
	const podIPs = status.podIPs ?? [];
	return {
		'spec.nodeName': spec.nodeName ?? '',
		'spec.restartPolicy': spec.restartPolicy ?? '',
		'spec.schedulerName': spec.schedulerName ?? '',
		'spec.serviceAccountName': spec.serviceAccountName ?? '',
		'spec.hostNetwork': String(spec.hostNetwork === true),
		'status.phase': status.phase ?? '',
		// status.podIP reads the first of status.podIPs, as upstream does.
		'status.podIP': podIPs[0]?.ip ?? '',
		'status.podIPs': podIPs.map((p) => p.ip).join(','),
		'status.nominatedNodeName': status.nominatedNodeName ?? '',
	};
}

/** dropNonEphemeralContainerUpdates: the stored pod with the new list; metadata as a status update resets it. */
function prepareEphemeralContainersUpdate(obj: KubeObject, old: KubeObject): void {
	const ephemeral = asRecord(obj.spec)?.ephemeralContainers;
	const annotations = obj.metadata.annotations;
	for (const k of Object.keys(obj)) delete obj[k];
	Object.assign(obj, deepCopy(old));
	if (annotations) obj.metadata.annotations = annotations;
	const spec = asRecord(obj.spec);
	if (spec) {
		if (ephemeral === undefined || ephemeral === null) delete spec.ephemeralContainers;
		else spec.ephemeralContainers = deepCopy(ephemeral);
	}
	bumpGenerationOnSpecChange(obj, old);
}

export const podStrategy: Strategy = {
	hasStatusSubresource: true,
	defaults(obj) {
		const spec = asRecord(obj.spec);
		if (spec) defaultPod(spec);
	},
	prepareForCreate(obj) {
		const status: PodStatus = { phase: 'Pending', qosClass: computePodQOS(specOf(obj) as unknown as PodSpec) };
		// applySchedulingGatedCondition: a gated pod says so in PodScheduled.
		if (asArray(specOf(obj).schedulingGates).length > 0) {
			status.conditions = [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }];
		}
		obj.status = status;
		initGeneration(obj);
	},
	prepareForUpdate(obj, old) {
		// The Priority plugin keeps priority and preemptionPolicy on updates that drop them;
		// the simulated server validates updates before admission, so the strategy carries them first.
		const spec = asRecord(obj.spec);
		const oldSpec = asRecord(old.spec) ?? {};
		if (spec) for (const f of ['priority', 'preemptionPolicy']) if (spec[f] === undefined && oldSpec[f] !== undefined) spec[f] = oldSpec[f];
		bumpGenerationOnSpecChange(obj, old);
	},
	prepareForStatusUpdate(obj, old) {
		// podStatusStrategy.PrepareForUpdate: everything but status comes from the stored pod.
		const status = asRecord(obj.status) ?? {};
		for (const k of Object.keys(obj)) if (k !== 'status') delete obj[k];
		Object.assign(obj, deepCopy({ ...old, status: undefined }));
		// The QoS class is fixed at create; a writer that omits it keeps it.
		if (status.qosClass === undefined && statusOf(old).qosClass) status.qosClass = statusOf(old).qosClass;
		obj.status = status;
	},
	subresourceUpdates: { ephemeralcontainers: { prepare: prepareEphemeralContainersUpdate, validate: validatePodEphemeralContainersUpdate } },
	validate(obj) {
		return validatePod(obj, true);
	},
	validateUpdate(obj, old) {
		return validatePodUpdate(obj, old);
	},
	validateStatusUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateImmutable(statusOf(obj).qosClass, statusOf(old).qosClass, 'status.qosClass')];
	},
	fields: podFields,
	gracePeriodSeconds: podGracePeriodSeconds,
};
