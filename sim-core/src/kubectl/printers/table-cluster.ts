/**
 * Rows of the cluster-level and configuration resources in `kubectl get`:
 * nodes, namespaces, events, leases, priorityclasses, configmaps, secrets,
 * serviceaccounts, role bindings and poddisruptionbudgets, as the API server
 * prints them (printNode, printNamespace, printEvent, printLease,
 * printPriorityClass, printConfigMap, printSecret, printServiceAccount,
 * printRoleBinding, printPodDisruptionBudget).
 *
 * Mirrors pkg/printers/internalversion/printers.go (printNode,
 * printNamespace, printEvent, printLease, printPriorityClass,
 * printConfigMap, printSecret, printServiceAccount, printRoleBinding,
 * printPodDisruptionBudget).
 */
import type { ConfigMap, CoreEvent, KubeObject, Lease, Node, PriorityClass, RoleBinding, Secret, ServiceAccount, Subject } from '../../api/types.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { columns, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

/** The label prefix that names a node role (printers.go labelNodeRolePrefix). */
const LABEL_NODE_ROLE_PREFIX = 'node-role.kubernetes.io/';
/** The older label holding a node's role as its value (printers.go nodeLabelRole). */
const NODE_LABEL_ROLE = 'kubernetes.io/role';

/** findNodeRoles: roles from `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role` values, distinct and sorted. */
export function findNodeRoles(node: Node): string[] {
	const roles = new Set<string>();
	for (const [key, value] of Object.entries(node.metadata.labels ?? {})) {
		if (key.startsWith(LABEL_NODE_ROLE_PREFIX)) {
			const role = key.slice(LABEL_NODE_ROLE_PREFIX.length);
			if (role) roles.add(role);
		} else if (key === NODE_LABEL_ROLE && value) roles.add(value);
	}
	return [...roles].sort(compareGoStrings);
}

/** printNode's STATUS: Ready / NotReady from the Ready condition (Unknown without one), plus SchedulingDisabled when cordoned. */
export function nodeStatus(node: Node): string {
	const status: string[] = [];
	const ready = (node.status?.conditions ?? []).filter((c) => c.type === 'Ready').pop();
	if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
	if (status.length === 0) status.push('Unknown');
	if (node.spec?.unschedulable) status.push('SchedulingDisabled');
	return status.join(',');
}

/** The first address of a type, or `<none>` (getNodeInternalIP, getNodeExternalIP). */
function nodeAddress(node: Node, type: string): string {
	return (node.status?.addresses ?? []).find((a) => a.type === type)?.address ?? '<none>';
}

/** `kubectl get nodes`: NAME STATUS ROLES AGE VERSION, wide: INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME. */
export const NODE_TABLE: TableDefinition = {
	columns: columns('Name', 'Status', 'Roles', 'Age', 'Version', 'Internal-IP*', 'External-IP*', 'OS-Image*', 'Kernel-Version*', 'Container-Runtime*'),
	row(obj, ctx) {
		const node = obj as Node;
		const info = node.status?.nodeInfo;
		return [
			node.metadata.name ?? '',
			nodeStatus(node),
			findNodeRoles(node).join(',') || '<none>',
			age(node, ctx),
			info?.kubeletVersion ?? '',
			nodeAddress(node, 'InternalIP'),
			nodeAddress(node, 'ExternalIP'),
			info?.osImage || '<unknown>',
			info?.kernelVersion || '<unknown>',
			info?.containerRuntimeVersion || '<unknown>',
		];
	},
};

/** `kubectl get ns`: NAME STATUS AGE. */
export const NAMESPACE_TABLE: TableDefinition = {
	columns: columns('Name', 'Status', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', (obj.status as { phase?: string } | undefined)?.phase ?? '', age(obj, ctx)],
};

/** An events.k8s.io/v1 Event read as the core/v1 Event the printer works on (the API server converts it so upstream). */
function asCoreEvent(obj: KubeObject): CoreEvent {
	if (obj.apiVersion !== 'events.k8s.io/v1') return obj as CoreEvent;
	const e = obj as KubeObject & Record<string, unknown>;
	const series = e.series as { count?: number; lastObservedTime?: string } | undefined;
	const event: CoreEvent = {
		...obj,
		apiVersion: 'v1',
		kind: 'Event',
		involvedObject: (e.regarding as CoreEvent['involvedObject']) ?? {},
		reason: e.reason as string | undefined,
		message: e.note as string | undefined,
		type: e.type as CoreEvent['type'],
		source: (e.deprecatedSource as CoreEvent['source']) ?? {},
		firstTimestamp: (e.deprecatedFirstTimestamp as string | undefined) ?? null,
		lastTimestamp: (e.deprecatedLastTimestamp as string | undefined) ?? null,
		count: e.deprecatedCount as number | undefined,
		eventTime: (e.eventTime as string | undefined) ?? null,
		reportingComponent: e.reportingController as string | undefined,
		reportingInstance: e.reportingInstance as string | undefined,
	};
	if (series) event.series = series;
	return event;
}

/** formatEventSource: `component, host`, each falling back to the reporting controller and instance. */
function formatEventSource(event: CoreEvent): string {
	const component = event.source?.component || event.reportingComponent || '';
	const instance = event.source?.host || event.reportingInstance || '';
	return instance ? `${component}, ${instance}` : component;
}

/** printEvent's LAST SEEN, FIRST SEEN and COUNT, with the series and eventTime fallbacks. */
function eventTimes(event: CoreEvent, nowMs: number): { lastSeen: string; firstSeen: string; count: number } {
	const firstSeen = event.firstTimestamp ? translateTimestampSince(event.firstTimestamp, nowMs) : translateTimestampSince(event.eventTime, nowMs);
	let lastSeen = event.lastTimestamp ? translateTimestampSince(event.lastTimestamp, nowMs) : firstSeen;
	let count = event.count ?? 0;
	if (event.series) {
		lastSeen = translateTimestampSince(event.series.lastObservedTime, nowMs);
		count = event.series.count ?? 0;
	} else if (count === 0) {
		// Singleton events of the new API carry no count.
		count = 1;
	}
	return { lastSeen, firstSeen, count };
}

/** `kubectl get events`: LAST SEEN TYPE REASON OBJECT MESSAGE, wide adds SUBOBJECT SOURCE (before MESSAGE) and FIRST SEEN COUNT NAME. */
export const EVENT_TABLE: TableDefinition = {
	columns: columns('Last Seen', 'Type', 'Reason', 'Object', 'Subobject*', 'Source*', 'Message', 'First Seen*', 'Count*', 'Name*'),
	row(obj, ctx) {
		const event = asCoreEvent(obj);
		const { lastSeen, firstSeen, count } = eventTimes(event, ctx.nowMs);
		const involved = event.involvedObject ?? {};
		const kind = (involved.kind ?? '').toLowerCase();
		const target = involved.name ? `${kind}/${involved.name}` : kind;
		return [lastSeen, event.type ?? '', event.reason ?? '', target, involved.fieldPath ?? '', formatEventSource(event), (event.message ?? '').trim(), firstSeen, String(count), event.metadata.name ?? ''];
	},
};

/** `kubectl get leases`: NAME HOLDER AGE. */
export const LEASE_TABLE: TableDefinition = {
	columns: columns('Name', 'Holder', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', (obj as Lease).spec?.holderIdentity ?? '', age(obj, ctx)],
};

/** `kubectl get pc`: NAME VALUE GLOBAL-DEFAULT AGE PREEMPTIONPOLICY (a default-priority column, filled because the server prints wide). */
export const PRIORITYCLASS_TABLE: TableDefinition = {
	columns: columns('Name', 'Value', 'Global-Default', 'Age', 'PreemptionPolicy'),
	row(obj, ctx) {
		const pc = obj as PriorityClass;
		return [pc.metadata.name ?? '', String(pc.value ?? 0), String(pc.globalDefault === true), age(pc, ctx), pc.preemptionPolicy ?? ''];
	},
};

/** `kubectl get cm`: NAME DATA AGE (data and binaryData keys). */
export const CONFIGMAP_TABLE: TableDefinition = {
	columns: columns('Name', 'Data', 'Age'),
	row(obj, ctx) {
		const cm = obj as ConfigMap;
		return [cm.metadata.name ?? '', String(Object.keys(cm.data ?? {}).length + Object.keys(cm.binaryData ?? {}).length), age(cm, ctx)];
	},
};

/** `kubectl get secrets`: NAME TYPE DATA AGE. */
export const SECRET_TABLE: TableDefinition = {
	columns: columns('Name', 'Type', 'Data', 'Age'),
	row(obj, ctx) {
		const secret = obj as Secret;
		return [secret.metadata.name ?? '', secret.type ?? '', String(Object.keys(secret.data ?? {}).length), age(secret, ctx)];
	},
};

/** `kubectl get sa`: NAME SECRETS AGE. */
export const SERVICEACCOUNT_TABLE: TableDefinition = {
	columns: columns('Name', 'Secrets', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', String(((obj as ServiceAccount).secrets ?? []).length), age(obj, ctx)],
};

/** rbac.SubjectsStrings: users, groups and `namespace/name` service accounts. */
function subjectsStrings(subjects: readonly Subject[] | undefined): { users: string[]; groups: string[]; serviceAccounts: string[] } {
	const out = { users: [] as string[], groups: [] as string[], serviceAccounts: [] as string[] };
	for (const s of subjects ?? []) {
		if (s.kind === 'ServiceAccount') out.serviceAccounts.push(`${s.namespace ?? ''}/${s.name}`);
		else if (s.kind === 'User') out.users.push(s.name);
		else if (s.kind === 'Group') out.groups.push(s.name);
	}
	return out;
}

/** `kubectl get rolebindings` / `clusterrolebindings`: NAME ROLE AGE, wide: USERS GROUPS SERVICEACCOUNTS. */
export const ROLEBINDING_TABLE: TableDefinition = {
	columns: columns('Name', 'Role', 'Age', 'Users*', 'Groups*', 'ServiceAccounts*'),
	row(obj, ctx) {
		const binding = obj as RoleBinding;
		const { users, groups, serviceAccounts } = subjectsStrings(binding.subjects);
		return [binding.metadata.name ?? '', `${binding.roleRef?.kind ?? ''}/${binding.roleRef?.name ?? ''}`, age(binding, ctx), users.join(', '), groups.join(', '), serviceAccounts.join(', ')];
	},
};

/** `kubectl get pdb`: NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE (`N/A` when unset). */
export const PODDISRUPTIONBUDGET_TABLE: TableDefinition = {
	columns: columns('Name', 'Min Available', 'Max Unavailable', 'Allowed Disruptions', 'Age'),
	row(obj, ctx) {
		const spec = (obj.spec ?? {}) as { minAvailable?: number | string; maxUnavailable?: number | string };
		const status = (obj.status ?? {}) as { disruptionsAllowed?: number };
		return [obj.metadata.name ?? '', spec.minAvailable !== undefined ? String(spec.minAvailable) : 'N/A', spec.maxUnavailable !== undefined ? String(spec.maxUnavailable) : 'N/A', String(status.disruptionsAllowed ?? 0), age(obj, ctx)];
	},
};
