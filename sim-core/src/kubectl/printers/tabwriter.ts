/**
 * The tabwriter settings kubectl's printers use, over Go's text/tabwriter
 * (../../golang/tabwriter.ts).
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/printers/tabwriter.go
 * (GetNewTabWriter).
 */
import { REMEMBER_WIDTHS, TabWriter, type TabWriterConfig } from '../../golang/tabwriter.ts';


/** `kubectl get` tables: cli-runtime pkg/printers/tabwriter.go (minwidth 6, tabwidth 4, padding 3, ' ', RememberWidths). */
export const KUBECTL_GET_TABWRITER: Readonly<TabWriterConfig> = Object.freeze({ minwidth: 6, tabwidth: 4, padding: 3, padchar: ' ', flags: REMEMBER_WIDTHS });
/** `kubectl describe` sections: kubectl pkg/describe/describe.go tabbedString (minwidth 0, tabwidth 8, padding 2, ' ', no flags). */
export const KUBECTL_DESCRIBE_TABWRITER: Readonly<TabWriterConfig> = Object.freeze({ minwidth: 0, tabwidth: 8, padding: 2, padchar: ' ', flags: 0 });

/**
 * Formats rows the way kubectl's printers feed the tabwriter: cells joined
 * with `\t`, each row ended by `\n` (cli-runtime tableprinter.go printRows),
 * so the last column is unpadded. Defaults to the `kubectl get` settings.
 */
export function formatTable(rows: readonly (readonly string[])[], config: Readonly<TabWriterConfig> = KUBECTL_GET_TABWRITER): string {
	const writer = new TabWriter(config);
	for (const row of rows) writer.write(row.join('\t') + '\n');
	return writer.flush();
}
