/**
 * kubectl's human-readable printer for server tables: upper-cased headers,
 * wide columns only with `-o wide`, the NAMESPACE column for `-A`, label
 * columns (`-L`, `--show-labels`), `kind/` name prefixes when several kinds
 * are printed, the EVENT column of `--output-watch-events`, and headers
 * printed once per run of identical columns (which is what makes `get -w`
 * print bare rows).
 *
 * It returns tab-separated text; callers feed it to one TabWriter with the
 * `kubectl get` settings, so widths carry across calls as upstream's
 * RememberWidths writer does.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/printers/tableprinter.go
 * (HumanReadablePrinter, decorateTable, printTable, addColumns,
 * formatLabelHeaders, appendLabelCells).
 */
import type { KubeObject } from '../../api/types.ts';
import { formatLabels } from '../../api/labels.ts';
import type { TableColumn, TableContext, TableDefinition } from './table-columns.ts';

/** A table as the API server answers it: columns, and one row of cells per object. */
interface ServerTable {
	columns: readonly TableColumn[];
	rows: Array<{ cells: string[]; object: KubeObject }>;
}

/** printers.PrintOptions as `kubectl get` sets them. */
interface TablePrintOptions {
	/** `-o wide`: show priority-1 columns. */
	wide: boolean;
	/** `--no-headers`. */
	noHeaders: boolean;
	/** `-A` on a namespaced resource: a NAMESPACE column first. */
	withNamespace: boolean;
	/** `kind.group` (lower case) to prefix names with, when several kinds are printed or `--show-kind` is set. */
	kindPrefix?: string;
	/** `-L key`: one column per label key. */
	columnLabels: readonly string[];
	/** `--show-labels`: a LABELS column last. */
	showLabels: boolean;
}

/** Builds the server's table for some objects (TableConvertor.ConvertToTable, always with the wide cells). */
export function buildTable(definition: TableDefinition, objects: readonly KubeObject[], ctx: TableContext): ServerTable {
	return { columns: definition.columns, rows: objects.map((object) => ({ cells: definition.row(object, ctx), object })) };
}

/** printers.EscapeTerminal: ESC and CR made harmless. */
export function escapeTerminal(text: string): string {
	return text.replaceAll('\x1b', '^[').replaceAll('\r', '\\r');
}

/** tableprinter.go formatEventType: watch event types padded to the width of MODIFIED. */
function formatEventType(type: string): string {
	const padded: Record<string, string> = { ADDED: 'ADDED   ', MODIFIED: 'MODIFIED', DELETED: 'DELETED ', ERROR: 'ERROR   ' };
	return Object.hasOwn(padded, type) ? padded[type] : type;
}

/** formatLabelHeaders: a label key's last path segment, upper-cased. */
function labelHeader(key: string): string {
	const parts = key.split('/');
	return parts[parts.length - 1].toUpperCase();
}

const sameColumns = (a: readonly TableColumn[] | undefined, b: readonly TableColumn[]) =>
	a !== undefined && a.length === b.length && a.every((c, i) => c.name === b[i].name && c.priority === b[i].priority);

/** One printer per resource type, as `kubectl get` creates one per REST mapping; it remembers the columns it printed headers for. */
export class HumanReadablePrinter {
	private lastColumns: readonly TableColumn[] | undefined;
	private printedHeaders = false;

	constructor(private readonly options: TablePrintOptions) {}

	/** Prints a table (`eventType` set for a watch event with `--output-watch-events`); returns tab-separated lines. */
	print(table: ServerTable, eventType?: string): string {
		let noHeaders = this.options.noHeaders;
		if (this.printedHeaders && sameColumns(this.lastColumns, table.columns)) noHeaders = true;
		if (!sameColumns(this.lastColumns, table.columns)) {
			this.lastColumns = table.columns;
			this.printedHeaders = false;
		}
		if (table.rows.length > 0) this.printedHeaders = true;

		const { columns, rows } = this.decorate(table);
		const allColumns: TableColumn[] = eventType ? [{ name: 'Event', priority: 0 }, ...columns] : columns;
		const allRows = eventType ? rows.map((cells) => [formatEventType(eventType), ...cells]) : rows;
		if (allRows.length === 0) return '';
		const visible = allColumns.map((c) => this.options.wide || c.priority === 0);
		let out = '';
		if (!noHeaders) {
			out += allColumns
				.filter((_, i) => visible[i])
				.map((c) => c.name.toUpperCase())
				.join('\t');
			out += '\n';
		}
		for (const cells of allRows) {
			const shown: string[] = [];
			cells.forEach((cell, i) => {
				if (i >= allColumns.length || !visible[i]) return;
				// A cell is cut at its first line break, which the tabwriter would read as a new row.
				const breakAt = cell.search(/[\f\n\r]/);
				shown.push(breakAt >= 0 ? `${escapeTerminal(cell.slice(0, breakAt))}...` : escapeTerminal(cell));
			});
			out += `${shown.join('\t')}\n`;
		}
		return out;
	}

	/** decorateTable: the NAMESPACE column, label columns and the kind prefix of names. */
	private decorate(table: ServerTable): { columns: TableColumn[]; rows: string[][] } {
		const { withNamespace, kindPrefix, columnLabels, showLabels } = this.options;
		const columns: TableColumn[] = [];
		if (withNamespace) columns.push({ name: 'Namespace', priority: 0 });
		columns.push(...table.columns);
		for (const key of columnLabels) columns.push({ name: labelHeader(key), priority: 0 });
		if (showLabels) columns.push({ name: 'Labels', priority: 0 });
		const nameColumn = kindPrefix ? table.columns.findIndex((c) => c.isName) : -1;
		const rows = table.rows.map(({ cells, object }) => {
			const row = [...cells];
			if (nameColumn >= 0) row[nameColumn] = `${kindPrefix}/${row[nameColumn]}`;
			if (withNamespace) row.unshift(object.metadata.namespace ?? '');
			const labels = object.metadata.labels ?? {};
			for (const key of columnLabels) row.push(Object.hasOwn(labels, key) ? labels[key] : '');
			if (showLabels) row.push(formatLabels(labels));
			return row;
		});
		return { columns, rows };
	}
}
