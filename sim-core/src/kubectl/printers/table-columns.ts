/**
 * The server-side table printing of `kubectl get`: for each resource, its
 * columns and how one object becomes one row, as the API server's
 * TableConvertor computes them (always with the wide cells). Resources
 * without a printer get the generic convertor's `NAME CREATED AT`.
 *
 * The per-resource printers live in table-pods.ts, table-workloads.ts,
 * table-services.ts, table-cluster.ts, table-autoscaling.ts,
 * table-storage.ts, table-networking.ts and table-extensions.ts, gathered
 * by table-registry.ts;
 * table-printer.ts lays rows out the way kubectl's HumanReadablePrinter
 * does.
 *
 * Mirrors pkg/printers/storage/storage.go (the TableConvertor, always wide),
 * pkg/printers/internalversion/printers.go (AddHandlers: the columns),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/table.go
 * (DefaultTableConvertor).
 */
import type { Container, KubeObject, PodTemplateSpec } from '../../api/types.ts';
import { humanDuration } from '../../api/duration.ts';
import { parseRfc3339 } from '../../golang/time.ts';

/** One column of a server table (metav1.TableColumnDefinition). */
export interface TableColumn {
	/** As upstream writes it (`Up-to-date`, `Nominated Node`); kubectl upper-cases it for the header. */
	name: string;
	/** 0: always shown; 1: only with `-o wide`. */
	priority: 0 | 1;
	/** The column holding the object's name (Format "name"), which `kind/` prefixes when several kinds are printed. */
	isName?: boolean;
}

/** What a row printer may read besides the object. */
export interface TableContext {
	/** The wall-clock-looking now, epoch ms (AGE is measured against it). */
	nowMs: number;
}

/** The columns of a resource and the printer of one row (all cells, wide ones included). */
export interface TableDefinition {
	columns: readonly TableColumn[];
	row(obj: KubeObject, ctx: TableContext): string[];
}

/** Shorthand for a list of column definitions: `'Name'` is the name column; a trailing `*` marks a wide-only column. */
export function columns(...specs: string[]): TableColumn[] {
	return specs.map((spec) => {
		const wide = spec.endsWith('*');
		const name = wide ? spec.slice(0, -1) : spec;
		const column: TableColumn = { name, priority: wide ? 1 : 0 };
		if (name === 'Name') column.isName = true;
		return column;
	});
}

/** printers.go translateTimestampSince: HumanDuration since `timestamp`, `<unknown>` when unset. */
export function translateTimestampSince(timestamp: string | null | undefined, nowMs: number): string {
	if (!timestamp) return '<unknown>';
	const at = parseRfc3339(timestamp);
	if (Number.isNaN(at)) return '<unknown>';
	return humanDuration(nowMs - at);
}

/** printers.go layoutContainerCells: container names and images, comma-joined. */
export function layoutContainerCells(containers: readonly Container[] | undefined): [string, string] {
	const list = containers ?? [];
	return [list.map((c) => c.name).join(','), list.map((c) => c.image ?? '').join(',')];
}

/** The containers of a pod template, tolerating a missing template. */
export function templateContainers(template: PodTemplateSpec | undefined): Container[] {
	return template?.spec?.containers ?? [];
}

/** Go's `%d` of an optional int32: 0 when absent. */
export function int(value: unknown): string {
	return typeof value === 'number' ? String(Math.trunc(value)) : '0';
}

/** The table for resources upstream has no printer for: the generic convertor's Name and Created At (RFC 3339). */
export const DEFAULT_TABLE: TableDefinition = {
	columns: columns('Name', 'Created At'),
	row: (obj) => [obj.metadata.name ?? '', obj.metadata.creationTimestamp ?? ''],
};
