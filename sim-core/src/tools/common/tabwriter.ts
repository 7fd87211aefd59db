/**
 * Go's text/tabwriter configured as etcd's help printer configures it
 * (minwidth 0, tabwidth 8, padding 1, padchar '\t'): tab-terminated cells of
 * consecutive lines form columns, and each cell is padded with tab
 * characters up to the column's width rounded to a multiple of 8. The writer
 * is ../../golang/tabwriter.ts.
 *
 * Mirrors etcd-io/etcd pkg/cobrautl/help.go, golang/go
 * src/text/tabwriter/tabwriter.go.
 */
import { TabWriter, type TabWriterConfig } from '../../golang/tabwriter.ts';

const ETCD_HELP_TABWRITER: Readonly<TabWriterConfig> = Object.freeze({ minwidth: 0, tabwidth: 8, padding: 1, padchar: '\t', flags: 0 });

/** Pads `text` the way tabwriter.NewWriter(w, 0, 8, 1, '\t', 0) would. */
export function tabwriteWithTabs(text: string): string {
	return new TabWriter(ETCD_HELP_TABWRITER).write(text).flush();
}
