/**
 * Rows of the remaining built-in kinds in `kubectl get`: the core
 * PodTemplates, ReplicationControllers, LimitRanges, ResourceQuotas and
 * ComponentStatuses; admission webhooks and policies; certificate signing
 * requests; API priority and fairness; RuntimeClasses; and dynamic resource
 * allocation's classes, claims, templates and slices, as the API server
 * prints them. CustomResourceDefinitions have no printer upstream (the
 * generic `NAME CREATED AT`).
 *
 * Mirrors pkg/printers/internalversion/printers.go (printPodTemplate,
 * printReplicationController, printLimitRange, printResourceQuota,
 * printComponentStatus, printMutatingWebhook, printValidatingWebhook,
 * printValidatingAdmissionPolicy, printValidatingAdmissionPolicyBinding,
 * printMutatingAdmissionPolicy, printMutatingAdmissionPolicyBinding,
 * printCertificateSigningRequest, extractCSRStatus, printFlowSchema,
 * printPriorityLevelConfiguration, printRuntimeClass, printDeviceClass,
 * printResourceClaim, resourceClaimState, printResourceClaimTemplate,
 * printResourceSlice).
 */
import type { KubeObject } from '../../api/types.ts';
import { formatLabels, formatLabelSelector } from '../../api/labels.ts';
import { humanDuration } from '../../api/duration.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { columns, int, layoutContainerCells, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';
import { quantityString } from './table-storage.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

type Fields = Record<string, unknown>;
const rec = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const labelsOf = (v: unknown): Record<string, string> => rec(v) as Record<string, string>;
const field = (obj: KubeObject, name: string): unknown => (obj as KubeObject & Fields)[name];

/** `kubectl get podtemplates`: NAME CONTAINERS IMAGES POD LABELS. */
export const PODTEMPLATE_TABLE: TableDefinition = {
	columns: columns('Name', 'Containers', 'Images', 'Pod Labels'),
	row(obj) {
		const template = rec(field(obj, 'template'));
		const [names, images] = layoutContainerCells(arr(rec(template.spec).containers) as Parameters<typeof layoutContainerCells>[0]);
		return [obj.metadata.name ?? '', names, images, formatLabels(labelsOf(rec(template.metadata).labels))];
	},
};

/** `kubectl get rc`: NAME DESIRED CURRENT READY AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const REPLICATIONCONTROLLER_TABLE: TableDefinition = {
	columns: columns('Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const status = rec(obj.status);
		const [names, images] = layoutContainerCells(arr(rec(rec(spec.template).spec).containers) as Parameters<typeof layoutContainerCells>[0]);
		return [obj.metadata.name ?? '', int(spec.replicas ?? 1), int(status.replicas), int(status.readyReplicas), age(obj, ctx), names, images, formatLabels(labelsOf(spec.selector))];
	},
};

/** `kubectl get limits`: NAME CREATED AT (RFC 3339, UTC). */
export const LIMITRANGE_TABLE: TableDefinition = {
	columns: columns('Name', 'Created At'),
	row: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? ''],
};

/** `kubectl get quota`: NAME AGE REQUEST LIMIT: `resource: used/hard` for each hard limit, `limits.*` in LIMIT. */
export const RESOURCEQUOTA_TABLE: TableDefinition = {
	columns: columns('Name', 'Age', 'Request', 'Limit'),
	row(obj, ctx) {
		const status = rec(obj.status);
		const hard = rec(status.hard);
		const used = rec(status.used);
		const request: string[] = [];
		const limit: string[] = [];
		for (const resource of Object.keys(hard).sort(compareGoStrings)) {
			const pieces = resource.split('.');
			const cell = `${resource}: ${quantityString(used[resource])}/${quantityString(hard[resource])}`;
			(pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(cell);
		}
		return [obj.metadata.name ?? '', age(obj, ctx), request.join(', '), limit.join(', ')];
	},
};

/** `kubectl get cs`: NAME STATUS MESSAGE ERROR from the Healthy condition. */
export const COMPONENTSTATUS_TABLE: TableDefinition = {
	columns: columns('Name', 'Status', 'Message', 'Error'),
	row(obj) {
		let status = 'Unknown';
		let message = '';
		let error = '';
		const healthy = arr(field(obj, 'conditions')).map(rec).find((c) => c.type === 'Healthy');
		if (healthy) {
			status = healthy.status === 'True' ? 'Healthy' : 'Unhealthy';
			message = str(healthy.message);
			error = str(healthy.error);
		}
		return [obj.metadata.name ?? '', status, message, error];
	},
};

/** `kubectl get mutatingwebhookconfigurations` (and validating): NAME WEBHOOKS AGE. */
export const WEBHOOKCONFIGURATION_TABLE: TableDefinition = {
	columns: columns('Name', 'Webhooks', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', String(arr(field(obj, 'webhooks')).length), age(obj, ctx)],
};

/** A policy's paramKind as `apiVersion/kind`, or `<unset>`. */
function paramKind(spec: Fields): string {
	if (!spec.paramKind) return '<unset>';
	const p = rec(spec.paramKind);
	return `${str(p.apiVersion)}/${str(p.kind)}`;
}

/** A binding's paramRef: `namespace/name` (a `*` namespace without one), its selector, or `<unset>`. */
function paramRef(spec: Fields): string {
	if (!spec.paramRef) return '<unset>';
	const p = rec(spec.paramRef);
	if (str(p.name)) return str(p.namespace) ? `${str(p.namespace)}/${str(p.name)}` : `*/${str(p.name)}`;
	if (p.selector) return formatLabelSelector(p.selector as Parameters<typeof formatLabelSelector>[0]);
	return '<unset>';
}

/** `kubectl get validatingadmissionpolicies`: NAME VALIDATIONS PARAMKIND AGE. */
export const VALIDATINGADMISSIONPOLICY_TABLE: TableDefinition = {
	columns: columns('Name', 'Validations', 'ParamKind', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', String(arr(rec(obj.spec).validations).length), paramKind(rec(obj.spec)), age(obj, ctx)],
};

/** `kubectl get mutatingadmissionpolicies`: NAME MUTATIONS PARAMKIND AGE. */
export const MUTATINGADMISSIONPOLICY_TABLE: TableDefinition = {
	columns: columns('Name', 'Mutations', 'ParamKind', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', String(arr(rec(obj.spec).mutations).length), paramKind(rec(obj.spec)), age(obj, ctx)],
};

/** `kubectl get validatingadmissionpolicybindings` (and mutating): NAME POLICYNAME PARAMREF AGE. */
export const ADMISSIONPOLICYBINDING_TABLE: TableDefinition = {
	columns: columns('Name', 'PolicyName', 'ParamRef', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', str(rec(obj.spec).policyName), paramRef(rec(obj.spec)), age(obj, ctx)],
};

/** extractCSRStatus: Denied, else Approved, else Pending; then `,Failed` and `,Issued`. */
export function csrCondition(obj: KubeObject): string {
	const status = rec(obj.status);
	const types = new Set(arr(status.conditions).map((c) => str(rec(c).type)));
	let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
	if (types.has('Failed')) text += ',Failed';
	if (str(status.certificate)) text += ',Issued';
	return text;
}

/** `kubectl get csr`: NAME AGE SIGNERNAME REQUESTOR REQUESTEDDURATION CONDITION. */
export const CSR_TABLE: TableDefinition = {
	columns: columns('Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const duration = typeof spec.expirationSeconds === 'number' ? humanDuration(spec.expirationSeconds * 1000) : '<none>';
		return [obj.metadata.name ?? '', age(obj, ctx), str(spec.signerName) || '<none>', str(spec.username), duration, csrCondition(obj)];
	},
};

/** `kubectl get flowschemas`: NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL. */
export const FLOWSCHEMA_TABLE: TableDefinition = {
	columns: columns('Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const dangling = arr(rec(obj.status).conditions)
			.map(rec)
			.find((c) => c.type === 'Dangling');
		return [
			obj.metadata.name ?? '',
			str(rec(spec.priorityLevelConfiguration).name),
			int(spec.matchingPrecedence),
			spec.distinguisherMethod ? str(rec(spec.distinguisherMethod).type) : '<none>',
			age(obj, ctx),
			dangling ? str(dangling.status) : '?',
		];
	},
};

/** `kubectl get prioritylevelconfigurations`: NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE. */
export const PRIORITYLEVELCONFIGURATION_TABLE: TableDefinition = {
	columns: columns('Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		let [ncs, queues, handSize, queueLengthLimit] = ['<none>', '<none>', '<none>', '<none>'];
		if (spec.limited) {
			const limited = rec(spec.limited);
			ncs = int(limited.nominalConcurrencyShares);
			const queuing = rec(limited.limitResponse).queuing;
			if (queuing) {
				const q = rec(queuing);
				[queues, handSize, queueLengthLimit] = [int(q.queues), int(q.handSize), int(q.queueLengthLimit)];
			}
		}
		return [obj.metadata.name ?? '', str(spec.type), ncs, queues, handSize, queueLengthLimit, age(obj, ctx)];
	},
};

/** `kubectl get runtimeclasses`: NAME HANDLER AGE. */
export const RUNTIMECLASS_TABLE: TableDefinition = {
	columns: columns('Name', 'Handler', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', str(field(obj, 'handler')), age(obj, ctx)],
};

/** `kubectl get deviceclasses` and `resourceclaimtemplates`: NAME AGE. */
export const NAME_AGE_TABLE: TableDefinition = {
	columns: columns('Name', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', age(obj, ctx)],
};

/** resourceClaimState: deleted, pending (not allocated), allocated, reserved. */
function resourceClaimState(obj: KubeObject): string {
	const status = rec(obj.status);
	const states: string[] = [];
	if (obj.metadata.deletionTimestamp) states.push('deleted');
	if (!status.allocation) {
		if (!obj.metadata.deletionTimestamp) states.push('pending');
	} else {
		states.push('allocated');
		if (arr(status.reservedFor).length) states.push('reserved');
	}
	return states.join(',');
}

/** `kubectl get resourceclaims`: NAME STATE AGE. */
export const RESOURCECLAIM_TABLE: TableDefinition = {
	columns: columns('Name', 'State', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', resourceClaimState(obj), age(obj, ctx)],
};

/** `kubectl get resourceslices`: NAME NODE DRIVER POOL AGE. */
export const RESOURCESLICE_TABLE: TableDefinition = {
	columns: columns('Name', 'Node', 'Driver', 'Pool', 'Age'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		return [obj.metadata.name ?? '', str(spec.nodeName), str(spec.driver), str(rec(spec.pool).name), age(obj, ctx)];
	},
};
