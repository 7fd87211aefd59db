/**
 * go-humanize's `Bytes` (SI sizes, dustin/go-humanize v1.0.1 bytes.go,
 * which etcdctl 3.6 uses).
 *
 * Mirrors dustin/go-humanize bytes.go (Bytes).
 */
import { goFixed } from '../../golang/strconv.ts';

/**
 * go-humanize v1.0.1 `Bytes`: SI units with a space, one decimal below 10
 * (`20 kB`, `5.3 MB`, `2.1 GB`, `7 B`). etcdctl prints DB SIZE, IN USE and
 * QUOTA with it, and the snapshot lines' `size`.
 */
export function humanizeBytes(bytes: number): string {
	if (bytes < 10) return `${bytes} B`;
	const sizes = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
	const e = Math.floor(Math.log(bytes) / Math.log(1000));
	const value = Math.floor((bytes / Math.pow(1000, e)) * 10 + 0.5) / 10;
	return `${goFixed(value, value < 10 ? 1 : 0)} ${sizes[e]}`;
}
