/**
 * How kubectl names objects in its messages: `deployment.apps/nginx`,
 * `pod/web-1`, `service/kube-dns` (the lower-case kind, qualified by group
 * for non-core groups), as printers.NamePrinter and the operation messages
 * (`created`, `configured`, `deleted`) print them.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/printers/name.go (NamePrinter).
 */
import type { KubeObject } from '../api/types.ts';
import { RESOURCES, type ResourceInfo } from '../api/resources.ts';

/** `deployment.apps` or `pod`: kind in lower case, with the group when not core. */
export function kindQualifier(info: Pick<ResourceInfo, 'kind' | 'group'>): string {
	return info.group ? `${info.kind.toLowerCase()}.${info.group}` : info.kind.toLowerCase();
}

/** `deployment.apps/nginx` for an object (falls back to its kind when the resource is unknown). */
export function objectRefName(obj: Pick<KubeObject, 'apiVersion' | 'kind' | 'metadata'>): string {
	const group = obj.apiVersion.includes('/') ? obj.apiVersion.split('/')[0] : '';
	const info = RESOURCES.find((r) => r.kind === obj.kind && r.group === group);
	return `${kindQualifier(info ?? { kind: obj.kind, group })}/${obj.metadata.name}`;
}
