/**
 * The writer every `kubectl describe` output goes through: text indented by
 * two spaces per level into one tabwriter (minwidth 0, tabwidth 8, padding
 * 2), terminal escapes neutralised.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go (prefixWriter,
 * tabbedString, LEVEL_0..LEVEL_4).
 */
import { TabWriter } from '../../golang/tabwriter.ts';
import { KUBECTL_DESCRIBE_TABWRITER } from '../printers/tabwriter.ts';
import { escapeTerminal } from '../printers/table-printer.ts';

export const LEVEL_0 = 0;
export const LEVEL_1 = 1;
export const LEVEL_2 = 2;
export const LEVEL_3 = 3;

/** describe.PrefixWriter over a tabwriter, collecting the output in memory. */
export class PrefixWriter {
	private readonly writer = new TabWriter(KUBECTL_DESCRIBE_TABWRITER);
	private out = '';

	/** PrefixWriter.Write: `text` indented by `level` × two spaces. */
	write(level: number, text: string): void {
		this.writer.write(escapeTerminal('  '.repeat(level) + text));
	}

	/** PrefixWriter.WriteLine: the parts joined by spaces, then a newline (fmt.Sprintln). */
	writeLine(...parts: string[]): void {
		this.writer.write(escapeTerminal(`${parts.join(' ')}\n`));
	}

	/** PrefixWriter.Flush: formats what is buffered, so what follows aligns on its own. */
	flush(): void {
		this.out += this.writer.flush();
	}

	/** tabbedString: everything written, formatted. */
	toString(): string {
		this.flush();
		return this.out;
	}
}
