/**
 * Files whose content is all zero bytes (what `dd if=/dev/zero` and
 * `fallocate` make) kept as their size alone. A reader who fills a disk
 * writes gigabytes; the simulation keeps a short marker in the file's
 * place, counts the size it stands for wherever disk usage is measured
 * (the container's writable layer, an emptyDir on the node, the node's
 * root file system), and shows the file as empty text when it is read:
 * zero bytes print nothing on a terminal.
 *
 * Mirrors nothing upstream: a storage shortcut for the simulated file
 * systems.
 */
import { utf8Length } from '../golang/utf8.ts';

/** NUL cannot appear in the text files the simulation otherwise holds, so the marker is unambiguous. */
const MARKER = '\u0000zero-filled:';

/** The content that stands for `bytes` zero bytes. */
export function zeroFilled(bytes: number): string {
	return `${MARKER}${Math.max(0, Math.floor(bytes))}`;
}

/** The bytes a file's content occupies: the size a marker stands for, or the text's UTF-8 length. */
export function contentBytes(content: string): number {
	if (!content.startsWith(MARKER)) return utf8Length(content);
	const n = Number(content.slice(MARKER.length));
	return Number.isFinite(n) ? n : 0;
}

/** Whether the content is a zero-filled marker. */
export function isZeroFilled(content: string): boolean {
	return content.startsWith(MARKER);
}

/** What reading the file shows: a zero-filled file prints nothing. */
export function visibleText(content: string): string {
	return isZeroFilled(content) ? '' : content;
}
