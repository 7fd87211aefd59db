/**
 * Writes the files of a ConfigMap, Secret, downward API or projected
 * volume (its "payload") into the volume's directory on the node, and
 * rewrites it when the payload changes, removing files that are gone.
 *
 * Upstream writes each version into a hidden timestamped directory
 * (`..2026_11_30_08_00_00.123456789`), points a `..data` symlink at it and
 * makes every visible name a symlink through `..data`, so a container sees
 * the whole new version at once. The node's file system here has no
 * symlinks: files are written in place, once per change, inside one
 * kubelet step, so no container ever observes half a version either. `ls`
 * therefore shows the keys without the `..data` entries.
 *
 * Mirrors pkg/volume/util/atomic_writer.go (validatePayload, validatePath,
 * Write).
 */
import type { NodeDisk } from '../../host/disk.ts';
import { joinPath } from './paths.ts';

/** One file of a volume: its text and its mode bits (volume.FileProjection). */
interface FileProjection {
	data: string;
	/** Unix permission bits, e.g. 0o644: the file on the node gets them (and so does the container's view of it). */
	mode: number;
}

/** Relative path → file. */
export type Payload = Record<string, FileProjection>;

/** maxFileNameLength and maxPathLength (atomic_writer.go). */
const MAX_FILE_NAME_LENGTH = 255;
const MAX_PATH_LENGTH = 4096;
/** Bounds on what a writer looks at in one volume directory: files, and directory depth. */
const MAX_FILES_PER_VOLUME = 1_000;
const MAX_DEPTH = 16;

/** validatePath: a payload path must be relative, without `..` elements, within the length limits. */
export function validatePath(target: string): string | undefined {
	if (target === '') return `invalid path: must not be empty: ${JSON.stringify(target)}`;
	if (target.startsWith('/')) return `invalid path: must be relative path: ${target}`;
	if (target.length > MAX_PATH_LENGTH) return `invalid path: must be less than or equal to ${MAX_PATH_LENGTH} characters`;
	const items = target.split('/');
	for (const item of items) {
		if (item === '..') return `invalid path: must not contain '..': ${target}`;
		if (item.length > MAX_FILE_NAME_LENGTH) return `invalid path: filenames must be less than or equal to ${MAX_FILE_NAME_LENGTH} characters`;
	}
	if (items[0].startsWith('..') && items[0].length > 2) return `invalid path: must not start with '..': ${target}`;
	return undefined;
}

/** validatePayload: every path valid; paths are cleaned (`a//b/` → `a/b`). */
function validatePayload(payload: Payload): { ok: true; payload: Payload } | { ok: false; error: string } {
	const clean: Payload = {};
	for (const [path, file] of Object.entries(payload)) {
		const error = validatePath(path);
		if (error) return { ok: false, error };
		clean[path.split('/').filter((p) => p !== '' && p !== '.').join('/')] = file;
	}
	return { ok: true, payload: clean };
}

/** The files under `dir`, as relative paths → text (bounded). */
export function readTree(disk: NodeDisk, dir: string): Record<string, string> {
	const out: Record<string, string> = {};
	let seen = 0;
	const walk = (abs: string, rel: string, depth: number) => {
		if (depth > MAX_DEPTH) return;
		for (const name of disk.readDir(abs) ?? []) {
			if (++seen > MAX_FILES_PER_VOLUME) return;
			const childAbs = joinPath(abs, name);
			const childRel = rel ? `${rel}/${name}` : name;
			if (disk.isDir(childAbs)) walk(childAbs, childRel, depth + 1);
			else out[childRel] = disk.readFile(childAbs) ?? '';
		}
	};
	walk(dir, '', 0);
	return out;
}

/**
 * Write: makes `dir` hold exactly `payload`. Returns whether anything
 * changed on disk, or the error upstream's writer returns.
 */
export function writePayload(disk: NodeDisk, dir: string, payload: Payload): { ok: true; changed: boolean } | { ok: false; error: string } {
	const valid = validatePayload(payload);
	if (!valid.ok) return valid;
	if (!disk.mkdir(dir)) return { ok: false, error: `mkdir ${dir}: no space left on device` };
	const current = readTree(disk, dir);
	let changed = false;
	for (const path of Object.keys(current).sort()) {
		if (Object.hasOwn(valid.payload, path)) continue;
		disk.remove(joinPath(dir, path));
		changed = true;
	}
	for (const path of Object.keys(valid.payload).sort()) {
		const { data, mode } = valid.payload[path];
		const target = joinPath(dir, path);
		if (current[path] !== data) {
			if (!disk.writeFile(target, data)) return { ok: false, error: `write ${target}: no space left on device` };
			changed = true;
		}
		// A new defaultMode or item mode changes the file without changing its text.
		if (disk.mode(target) !== mode) {
			disk.chmod(target, mode);
			changed = true;
		}
	}
	// Directories emptied by removals go too (the old timestamped directory would).
	for (const sub of disk.readDir(dir) ?? []) {
		const abs = joinPath(dir, sub);
		if (disk.isDir(abs) && Object.keys(readTree(disk, abs)).length === 0 && !Object.keys(valid.payload).some((p) => p.startsWith(`${sub}/`))) disk.remove(abs);
	}
	return { ok: true, changed };
}
