/**
 * What `kubectl explain` says about a type and its fields, written for this
 * project in its own words (upstream's API documentation is not copied).
 * Defaults and limits stated here follow v1.36's API types and their
 * defaulting (k8s.io/api v0.36.3, pkg/apis/<group>/v1/defaults.go). Types
 * and fields without an entry print what upstream's template prints for an
 * undocumented schema: `<empty>` and `<no description>`.
 *
 * The descriptions live in ./explain-descriptions/, one module per area
 * (pods, containers, workloads, services, storage...); this module merges
 * them and adds the fields every object has.
 *
 * Mirrors nothing upstream: the simulator's own descriptions.
 */

import { ACCESS_FIELDS, ACCESS_TYPES } from './explain-descriptions/access.ts';
import { AUTOSCALING_FIELDS, AUTOSCALING_TYPES } from './explain-descriptions/autoscaling.ts';
import { BATCH_FIELDS, BATCH_TYPES } from './explain-descriptions/batch.ts';
import { CLUSTER_FIELDS, CLUSTER_TYPES } from './explain-descriptions/cluster.ts';
import { CONFIG_FIELDS, CONFIG_TYPES } from './explain-descriptions/config.ts';
import { CONTAINER_FIELDS, CONTAINER_TYPES } from './explain-descriptions/containers.ts';
import { EXTENSION_FIELDS, EXTENSION_TYPES } from './explain-descriptions/extensions.ts';
import { META_FIELDS, META_TYPES } from './explain-descriptions/meta.ts';
import { NETWORKING_FIELDS, NETWORKING_TYPES } from './explain-descriptions/networking.ts';
import { PLATFORM_FIELDS, PLATFORM_TYPES } from './explain-descriptions/platform.ts';
import { POD_FIELDS, POD_TYPES } from './explain-descriptions/pods.ts';
import { SCHEDULING_FIELDS, SCHEDULING_TYPES } from './explain-descriptions/scheduling.ts';
import { SECURITY_FIELDS, SECURITY_TYPES } from './explain-descriptions/security.ts';
import { SERVICE_FIELDS, SERVICE_TYPES } from './explain-descriptions/services.ts';
import { STORAGE_FIELDS, STORAGE_TYPES } from './explain-descriptions/storage.ts';
import { VOLUME_FIELDS, VOLUME_TYPES } from './explain-descriptions/volumes.ts';
import { WORKLOAD_FIELDS, WORKLOAD_TYPES } from './explain-descriptions/workloads.ts';

/** Fields every object has, by name. */
const COMMON_FIELDS: Readonly<Record<string, string>> = {
	apiVersion: 'The versioned schema of this object, as group/version (or just the version for the core group). The API server converts between the versions it serves.',
	kind: 'The type of this object, in CamelCase. Together with apiVersion it tells clients and the server which schema applies.',
	metadata: "Standard object metadata: name, namespace, labels, annotations, owners, and the fields the server sets (uid, resourceVersion, creationTimestamp).",
	spec: 'The desired state: what the user asks for. Controllers work to make the observed state match it.',
	status: "The observed state, written by the system (controllers, the kubelet). Users do not set it; it may lag behind the spec.",
};

/** A type's description, by schema type key. */
export const TYPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
	...META_TYPES,
	...POD_TYPES,
	...CONTAINER_TYPES,
	...SECURITY_TYPES,
	...SCHEDULING_TYPES,
	...VOLUME_TYPES,
	...WORKLOAD_TYPES,
	...BATCH_TYPES,
	...SERVICE_TYPES,
	...NETWORKING_TYPES,
	...STORAGE_TYPES,
	...CLUSTER_TYPES,
	...CONFIG_TYPES,
	...ACCESS_TYPES,
	...AUTOSCALING_TYPES,
	...EXTENSION_TYPES,
	...PLATFORM_TYPES,
};

/** A field's description, by `TypeKey.field`. */
const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
	...META_FIELDS,
	...POD_FIELDS,
	...CONTAINER_FIELDS,
	...SECURITY_FIELDS,
	...SCHEDULING_FIELDS,
	...VOLUME_FIELDS,
	...WORKLOAD_FIELDS,
	...BATCH_FIELDS,
	...SERVICE_FIELDS,
	...NETWORKING_FIELDS,
	...STORAGE_FIELDS,
	...CLUSTER_FIELDS,
	...CONFIG_FIELDS,
	...ACCESS_FIELDS,
	...AUTOSCALING_FIELDS,
	...EXTENSION_FIELDS,
	...PLATFORM_FIELDS,
};

/** What explain says about `field` of the type `typeKey`, if anything. */
export function fieldDescription(typeKey: string, field: string): string | undefined {
	return FIELD_DESCRIPTIONS[`${typeKey}.${field}`] ?? COMMON_FIELDS[field];
}
