/**
 * How journal entries are printed: journalctl's output modes (short,
 * short-iso, short-precise, short-full, short-unix, cat, with-unit) and the
 * catalog explanations `-x` adds under systemd's messages.
 *
 * Mirrors systemd/systemd src/shared/logs-show.c (output_short, output_cat),
 * systemd/systemd catalog/systemd.catalog.in (the Ubuntu build sets the
 * Support URL to http://www.ubuntu.com/support).
 */
import type { CatalogKind, JournalRecord } from '../../host/systemd/journal.ts';
import { fullTimestamp, isoTimestamp, shortPreciseTimestamp, shortTimestamp } from '../../host/systemd/time.ts';

export const OUTPUT_MODES = ['short', 'short-iso', 'short-iso-precise', 'short-precise', 'short-full', 'short-monotonic', 'short-unix', 'cat', 'with-unit'] as const;
export type OutputMode = (typeof OUTPUT_MODES)[number];

/** One entry in an output mode; `hostname` is the node's (journald's _HOSTNAME). */
export function formatRecord(record: JournalRecord, mode: OutputMode, hostname: string, showHostname = true): string {
	if (mode === 'cat') return record.message;
	const ident = mode === 'with-unit' && record.identifier !== 'systemd' ? record.unit : record.identifier;
	const source = `${showHostname ? hostname + ' ' : ''}${ident}[${record.pid}]: ${record.message}`;
	switch (mode) {
		case 'short-iso':
			return `${isoTimestamp(record.wallMs)} ${source}`;
		case 'short-iso-precise':
			return `${isoTimestamp(record.wallMs).replace('+00:00', `.${String(record.wallMs % 1000).padStart(3, '0')}000+00:00`)} ${source}`;
		case 'short-precise':
			return `${shortPreciseTimestamp(record.wallMs)} ${source}`;
		case 'short-full':
		case 'with-unit':
			return `${fullTimestamp(record.wallMs)} ${source}`;
		case 'short-unix':
			return `${Math.floor(record.wallMs / 1000)}.${String(record.wallMs % 1000).padStart(3, '0')}000 ${source}`;
		default:
			return `${shortTimestamp(record.wallMs)} ${source}`;
	}
}

const SUPPORT = 'http://www.ubuntu.com/support';

/** The catalog text for an entry (`journalctl -x`), each line prefixed with `░░ `, or undefined. */
export function catalogText(record: JournalRecord): string | undefined {
	const c = record.catalog;
	if (!c) return undefined;
	const unit = record.unit;
	const entries: Record<CatalogKind, { subject: string; body: string[] }> = {
		'start-begun': { subject: `A start job for unit ${unit} has begun execution`, body: [`A start job for unit ${unit} has begun execution.`, '', `The job identifier is ${c.job}.`] },
		'start-done': { subject: `A start job for unit ${unit} has finished successfully`, body: [`A start job for unit ${unit} has finished successfully.`, '', `The job identifier is ${c.job}.`] },
		'stop-begun': { subject: `A stop job for unit ${unit} has begun execution`, body: [`A stop job for unit ${unit} has begun execution.`, '', `The job identifier is ${c.job}.`] },
		'stop-done': { subject: `A stop job for unit ${unit} has finished`, body: [`A stop job for unit ${unit} has finished.`, '', `The job identifier is ${c.job} and the job result is done.`] },
		succeeded: { subject: 'Unit succeeded', body: [`The unit ${unit} has successfully entered the 'dead' state.`] },
		resources: { subject: 'Resources consumed by unit runtime', body: [`The unit ${unit} completed and consumed the indicated resources.`] },
	};
	const e = entries[c.kind];
	return [`Subject: ${e.subject}`, 'Defined-By: systemd', `Support: ${SUPPORT}`, '', ...e.body].map((l) => `░░ ${l}`).join('\n');
}
