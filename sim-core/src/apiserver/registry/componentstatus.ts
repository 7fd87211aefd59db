/**
 * ComponentStatuses (`kubectl get cs`): not stored, but probed on every
 * request. The API server asks the scheduler's and the controller
 * manager's secure healthz on its own machine and its etcd, and answers
 * each as a ComponentStatus with one Healthy condition; every answer
 * carries the v1.19 deprecation warning.
 *
 * Mirrors pkg/registry/core/componentstatus/rest.go (List, Get,
 * ToConditionStatus), pkg/registry/core/componentstatus/validator.go,
 * pkg/registry/core/rest/storage_core.go (the warning).
 */
import type { ApiResponse } from '../../api/request.ts';
import type { Strategy } from './strategy.ts';
import * as errors from '../errors.ts';

/** The warning every componentstatuses request is answered with. */
export const COMPONENTSTATUS_DEPRECATION_WARNING = 'v1 ComponentStatus is deprecated in v1.19+';

export const componentStatusStrategy: Strategy = { warnings: [COMPONENTSTATUS_DEPRECATION_WARNING] };

/** What the probes found: whether each local component answers its healthz. */
export interface ComponentHealth {
	scheduler: boolean;
	controllerManager: boolean;
	etcd: boolean;
}

/** The probed components, by name, with the URL a refused probe names. */
const PROBES: ReadonlyArray<{ name: string; key: keyof ComponentHealth; url?: string; port?: number }> = [
	{ name: 'scheduler', key: 'scheduler', url: 'https://127.0.0.1:10259/healthz', port: 10259 },
	{ name: 'controller-manager', key: 'controllerManager', url: 'https://127.0.0.1:10257/healthz', port: 10257 },
	{ name: 'etcd-0', key: 'etcd' },
];

/** A list item: no apiVersion or kind on the wire, and a null creationTimestamp (nothing stored it). */
type ComponentStatusItem = { metadata: { name: string; creationTimestamp: null }; conditions: Array<Record<string, string>> };

function componentStatus(probe: (typeof PROBES)[number], health: ComponentHealth): ComponentStatusItem {
	const healthy = health[probe.key];
	// httpprobe reports a refused connection as a failure whose output is the client's error (message, no error).
	const message = healthy ? 'ok' : probe.url ? `Get "${probe.url}": dial tcp 127.0.0.1:${probe.port}: connect: connection refused` : 'context deadline exceeded';
	return { metadata: { name: probe.name, creationTimestamp: null }, conditions: [{ type: 'Healthy', status: healthy ? 'True' : 'False', message }] };
}

/** GET /api/v1/componentstatuses[/<name>]: the list, or one of its items (404 for another name). */
export function serveComponentStatuses(name: string | undefined, health: ComponentHealth): ApiResponse {
	const items = PROBES.map((p) => componentStatus(p, health));
	if (name === undefined) return { code: 200, body: { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items } };
	const item = items.find((i) => i.metadata.name === name);
	if (!item) return errors.notFound('componentstatus', name, '', 'componentstatus');
	return { code: 200, body: { kind: 'ComponentStatus', apiVersion: 'v1', metadata: item.metadata, conditions: item.conditions } };
}
