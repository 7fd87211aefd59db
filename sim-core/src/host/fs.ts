/**
 * MemoryFs: a small in-memory POSIX-like file system, one per simulated host.
 * Text files and directories only, with permission bits (no links or
 * owners): files are created 0644 and directories 0755, as under root's
 * umask 022, until chmod changes them. Errors carry
 * the strerror text real tools print (`cat: x: No such file or directory`),
 * and hard limits keep a page's memory bounded whatever the reader does.
 *
 * Mirrors nothing upstream: an in-memory stand-in for a machine's Linux file
 * system, with the kernel's error texts.
 */
import { bracket } from './posix-bracket.ts';
import { utf8Length } from '../golang/utf8.ts';
import { contentBytes, isZeroFilled, visibleText } from './zero-filled.ts';

/** errno names MemoryFs can fail with. */
type FsCode = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY' | 'ENOSPC' | 'ENAMETOOLONG' | 'EINVAL';

const TEXT: Record<FsCode, string> = {
	ENOENT: 'No such file or directory',
	EISDIR: 'Is a directory',
	ENOTDIR: 'Not a directory',
	EEXIST: 'File exists',
	ENOTEMPTY: 'Directory not empty',
	ENOSPC: 'No space left on device',
	ENAMETOOLONG: 'File name too long',
	EINVAL: 'Invalid argument',
};

/** A failed file-system call; `message` is the strerror(3) text tools print after `tool: path: `. */
export class FsError extends Error {
	constructor(readonly code: FsCode) {
		super(TEXT[code]);
	}
}

/** What `stat` would tell: enough for `ls -l`, `wc` and `test`-like checks. */
interface FsStat {
	path: string;
	isDir: boolean;
	/** Bytes (UTF-8) for files; 4096 for directories, as ext4 shows them. */
	size: number;
	/** Virtual epoch milliseconds of the last write. */
	mtime: number;
	/** Permission bits (0o644 for a new file, 0o755 for a new directory). */
	mode: number;
}

/** The permission bits a file or directory gets when it is created (umask 022). */
export const DEFAULT_FILE_MODE = 0o644;
export const DEFAULT_DIR_MODE = 0o755;

/** Hard limits (total bytes, entries, path length) so that no input can exhaust the browser tab. */
interface FsLimits {
	maxBytes: number;
	maxFiles: number;
	maxPath: number;
}

/** Plain-JSON form of a MemoryFs: entries as [path, content or null for a directory, mtime, mode when not the default], parents before children. */
export interface FsJSON {
	v: 1;
	e: Array<[string, string | null, number] | [string, string | null, number, number]>;
	/** tmpfs mount points, when there are any. */
	t?: string[];
}

interface Node {
	c: string | null;
	s: number;
	m: number;
	/** Permission bits, when chmod set other than the default. */
	p?: number;
	k?: Set<string>;
}

const parentOf = (abs: string) => abs.slice(0, abs.lastIndexOf('/')) || '/';
const baseOf = (abs: string) => abs.slice(abs.lastIndexOf('/') + 1);

/** In-memory file system of one host. Paths may be absolute, relative to `cwd`, or start with `~` (meaning `home`). */
export class MemoryFs {
	/** Working directory for relative paths; the shell keeps it in step with its own cwd on this host. */
	cwd = '/';
	/** What `~` means. */
	home = '/root';
	/** Clock for modification times; the session wires it to the virtual clock. */
	now: () => number = () => 0;
	readonly limits: FsLimits;
	#t = new Map<string, Node>();
	#used = 0;
	/** Directories a tmpfs is mounted on (the kubelet's memory-backed volumes). */
	#tmpfs = new Set<string>();

	constructor(limits: Partial<FsLimits> = {}) {
		this.limits = { maxBytes: 8 << 20, maxFiles: 10_000, maxPath: 4096, ...limits };
		this.#t.set('/', { c: null, s: 0, m: 0, k: new Set() });
	}

	/** Absolute, normalised form of a path (`.`, `..`, `~`, repeated slashes), lexically like `realpath -m`. */
	resolve(path: string): string {
		if (!path) throw new FsError('ENOENT');
		let base = path[0] === '/' ? '' : this.cwd;
		if (path === '~' || path.startsWith('~/')) {
			base = this.home;
			path = path.slice(1);
		}
		const out: string[] = [];
		for (const seg of `${base}/${path}`.split('/')) {
			if (seg === '..') out.pop();
			else if (seg && seg !== '.') {
				if (seg.length > 255) throw new FsError('ENAMETOOLONG');
				out.push(seg);
			}
		}
		const abs = '/' + out.join('/');
		if (abs.length > this.limits.maxPath) throw new FsError('ENAMETOOLONG');
		return abs;
	}

	/** Why looking up `abs` failed: a file where a directory was needed (ENOTDIR) or a missing component (ENOENT). */
	#miss(abs: string): FsError {
		for (let i = abs.indexOf('/', 1); i > 0; i = abs.indexOf('/', i + 1)) {
			const n = this.#t.get(abs.slice(0, i));
			if (!n) break;
			if (n.c !== null) return new FsError('ENOTDIR');
		}
		return new FsError('ENOENT');
	}

	#get(abs: string): Node {
		const n = this.#t.get(abs);
		if (!n) throw this.#miss(abs);
		return n;
	}

	#dir(abs: string): Node {
		const n = this.#get(abs);
		if (n.c !== null) throw new FsError('ENOTDIR');
		return n;
	}

	#add(abs: string, n: Node): void {
		const p = this.#dir(parentOf(abs));
		if (this.#t.size >= this.limits.maxFiles) throw new FsError('ENOSPC');
		p.k?.add(baseOf(abs));
		this.#t.set(abs, n);
	}

	/** stat(2): null when the path does not exist. */
	stat(path: string): FsStat | null {
		const abs = this.resolve(path),
			n = this.#t.get(abs);
		return n ? { path: abs, isDir: n.c === null, size: n.c === null ? 4096 : isZeroFilled(n.c) ? contentBytes(n.c) : n.s, mtime: n.m, mode: n.p ?? (n.c === null ? DEFAULT_DIR_MODE : DEFAULT_FILE_MODE) } : null;
	}

	/** chmod(2): sets the permission bits (and setuid, setgid, sticky) of a file or directory. */
	chmod(path: string, mode: number): void {
		const n = this.#get(this.resolve(path));
		const bits = mode & 0o7777;
		if (bits === (n.c === null ? DEFAULT_DIR_MODE : DEFAULT_FILE_MODE)) delete n.p;
		else n.p = bits;
	}

	/** Whether the path names a file or directory. */
	exists(path: string): boolean {
		return this.stat(path) !== null;
	}

	/** Whether the path names a directory. */
	isDir(path: string): boolean {
		return this.stat(path)?.isDir === true;
	}

	/** Contents of a file (a zero-filled one reads as empty text); EISDIR for a directory, ENOENT/ENOTDIR when it is missing. */
	readFile(path: string): string {
		const n = this.#get(this.resolve(path));
		if (n.c === null) throw new FsError('EISDIR');
		return visibleText(n.c);
	}

	/** Creates or replaces a file (or appends, like `>>`). The parent must exist; ENOSPC past the byte or entry limit, leaving the file as it was. */
	writeFile(path: string, data: string, opts: { append?: boolean } = {}): void {
		const abs = this.resolve(path);
		let n = this.#t.get(abs);
		if (n?.c === null) throw new FsError('EISDIR');
		const len = utf8Length(data),
			delta = opts.append ? len : len - (n ? n.s : 0);
		if (this.#used + delta > this.limits.maxBytes) throw new FsError('ENOSPC');
		if (!n) this.#add(abs, (n = { c: '', s: 0, m: 0 }));
		n.c = opts.append ? n.c + data : data;
		n.s += delta;
		n.m = this.now();
		this.#used += delta;
	}

	/** mkdir(2), or `mkdir -p` with `parents` (existing directories are then fine). */
	mkdir(path: string, parents = false): void {
		const abs = this.resolve(path),
			n = this.#t.get(abs);
		if (n) {
			if (parents && n.c === null) return;
			throw new FsError('EEXIST');
		}
		if (parents && !this.#t.has(parentOf(abs))) this.mkdir(parentOf(abs), true);
		this.#add(abs, { c: null, s: 0, m: this.now(), k: new Set() });
	}

	/** mount -t tmpfs on an existing directory (its files stay; the model keeps one file system). */
	mountTmpfs(path: string): void {
		this.#dir(this.resolve(path));
		this.#tmpfs.add(this.resolve(path));
	}

	/** The type of the file system holding `path`: the deepest tmpfs mount above it, else the disk's ext4. */
	fsType(path: string): 'tmpfs' | 'ext4' {
		const abs = this.resolve(path);
		for (const point of this.#tmpfs) if (abs === point || abs.startsWith(`${point}/`)) return 'tmpfs';
		return 'ext4';
	}

	/** Names in a directory, sorted bytewise as `ls` does in the C locale. */
	list(path: string): string[] {
		return [...(this.#dir(this.resolve(path)).k ?? [])].sort();
	}

	/** unlink(2)/rmdir(2); with `recursive`, a whole tree like `rm -r`. `/` itself survives (only its contents go). */
	remove(path: string, recursive = false): void {
		const abs = this.resolve(path),
			n = this.#get(abs);
		if (n.k?.size && !recursive) throw new FsError('ENOTEMPTY');
		for (const name of [...(n.k ?? [])]) this.remove(`${abs === '/' ? '' : abs}/${name}`, true);
		if (abs === '/') return;
		// Removing a mount point unmounts it (the kubelet's teardown).
		this.#tmpfs.delete(abs);
		this.#t.delete(abs);
		this.#used -= n.s;
		this.#t.get(parentOf(abs))?.k?.delete(baseOf(abs));
	}

	/** rename(2): moves a file or a whole directory; replaces a file or an empty directory at the destination. */
	rename(from: string, to: string): void {
		const a = this.resolve(from),
			b = this.resolve(to),
			n = this.#get(a);
		if (a === b) return;
		if (b.startsWith(a + '/') || a === '/') throw new FsError('EINVAL');
		const d = this.#t.get(b);
		if (d) {
			if (d.c === null && n.c !== null) throw new FsError('EISDIR');
			if (d.c !== null && n.c === null) throw new FsError('ENOTDIR');
			this.remove(b);
		}
		const dest = this.#dir(parentOf(b));
		for (const p of this.walk(a)) {
			const x = this.#t.get(p) as Node;
			this.#t.delete(p);
			this.#t.set(b + p.slice(a.length), x);
		}
		this.#t.get(parentOf(a))?.k?.delete(baseOf(a));
		dest.k?.add(baseOf(b));
	}

	/** A path and everything under it, parents first, sorted (for `cp -r`, `grep -r`). */
	walk(path: string): string[] {
		const abs = this.resolve(path),
			out: string[] = [];
		const go = (p: string) => {
			const n = this.#get(p);
			out.push(p);
			for (const k of [...(n.k ?? [])].sort()) go(`${p === '/' ? '' : p}/${k}`);
		};
		go(abs);
		return out;
	}

	/** Bytes in use, for `df`-like displays. */
	usage(): { bytes: number; files: number } {
		return { bytes: this.#used, files: this.#t.size };
	}

	/**
	 * What `du` counts under `path`: the 4 KiB blocks its files take (a
	 * zero-filled file counts its full size, ./zero-filled.ts) and one per
	 * directory, and its inodes (one per file and directory).
	 * Nothing there: zero.
	 */
	diskUsage(path = '/'): { bytes: number; inodes: number } {
		const abs = this.resolve(path);
		const prefix = abs === '/' ? '/' : `${abs}/`;
		let bytes = 0;
		let inodes = 0;
		for (const [p, n] of this.#t) {
			if (p !== abs && !p.startsWith(prefix)) continue;
			inodes++;
			bytes += n.c === null ? 4096 : Math.ceil(contentBytes(n.c) / 4096) * 4096;
		}
		return { bytes, inodes };
	}

	/**
	 * Pathname expansion (glob(7)) for the shell: `*`, `?` and `[...]` per
	 * segment, a leading `.` matched only explicitly; a backslash quotes the next
	 * character. Relative patterns give relative results. Sorted; empty when
	 * nothing matches (bash then keeps the word as typed).
	 */
	glob(pattern: string): string[] {
		const segs = pattern.split('/');
		let found: string[] = [segs[0] === '' ? '/' : ''];
		if (segs[0] === '') segs.shift();
		for (const [i, seg] of segs.entries()) {
			if (!seg) continue;
			const last = i === segs.length - 1,
				toks = globSeg(seg),
				next: string[] = [];
			for (const pre of found) {
				const dir = pre || '.';
				if (!toks) {
					const name = seg.replace(/\\(.)/g, '$1'),
						p = pre + name;
					if (this.exists(p) && (last || this.isDir(p))) next.push(last ? p : p + '/');
					continue;
				}
				if (!this.isDir(dir)) continue;
				for (const name of this.list(dir))
					if ((name[0] !== '.' || seg[0] === '.') && wild(toks, name) && (last || this.isDir(pre + name))) next.push(last ? pre + name : pre + name + '/');
			}
			found = next;
		}
		return found.filter((p) => p && p !== '/').sort();
	}

	/** Plain-JSON snapshot (contents and mtimes; limits, cwd and clock belong to the owner). */
	toJSON(): FsJSON {
		const e: FsJSON['e'] = [];
		for (const [p, n] of [...this.#t].sort((x, y) => (x[0] < y[0] ? -1 : 1))) if (p !== '/') e.push(n.p === undefined ? [p, n.c, n.m] : [p, n.c, n.m, n.p]);
		return this.#tmpfs.size ? { v: 1, e, t: [...this.#tmpfs].sort() } : { v: 1, e };
	}

	/** Replaces the contents with a snapshot from toJSON(), in place (holders of this object see the new files). */
	load(json: FsJSON): void {
		if (json?.v !== 1 || !Array.isArray(json.e)) throw new Error('MemoryFs.load: not a MemoryFs snapshot (v1)');
		this.#t = new Map([['/', { c: null, s: 0, m: 0, k: new Set() }]]);
		this.#used = 0;
		this.#tmpfs = new Set();
		const now = this.now;
		try {
			for (const [p, c, m, mode] of json.e) {
				this.now = () => m;
				if (c === null) this.mkdir(p, true);
				else this.writeFile(p, String(c));
				if (mode !== undefined) this.chmod(p, mode);
			}
		} finally {
			this.now = now;
		}
		for (const point of json.t ?? []) if (this.isDir(point)) this.#tmpfs.add(point);
	}

	/** A new MemoryFs holding a snapshot from toJSON(). */
	static fromJSON(json: FsJSON, limits?: Partial<FsLimits>): MemoryFs {
		const fs = new MemoryFs(limits);
		fs.load(json);
		return fs;
	}
}

type GlobTok = ((c: string) => boolean) | null;

/** Compiles one glob segment into single-character tests and stars (null); undefined when it has no wildcard. */
function globSeg(seg: string): GlobTok[] | undefined {
	const toks: GlobTok[] = [];
	let magic = false;
	for (let i = 0; i < seg.length; i++) {
		const c = seg[i];
		if (c === '\\' && i + 1 < seg.length) {
			const d = seg[++i];
			toks.push((x) => x === d);
		} else if (c === '*') {
			magic = true;
			toks.push(null);
		} else if (c === '?') {
			magic = true;
			toks.push(() => true);
		} else if (c === '[' && bracket(seg, i + 1, '!^')) {
			const b = bracket(seg, i + 1, '!^') as { test: (c: string) => boolean; end: number };
			magic = true;
			toks.push(b.test);
			i = b.end - 1;
		} else toks.push((x) => x === c);
	}
	return magic ? toks : undefined;
}

/** Wildcard match in linear-ish time (one star backtrack point), so no pattern can stall the page. */
function wild(toks: GlobTok[], s: string): boolean {
	let i = 0,
		j = 0,
		star = -1,
		mark = 0;
	while (j < s.length) {
		const t = toks[i];
		if (i < toks.length && t !== null && t(s[j])) {
			i++;
			j++;
		} else if (i < toks.length && t === null) {
			star = i++;
			mark = j;
		} else if (star >= 0) {
			i = star + 1;
			j = ++mark;
		} else return false;
	}
	while (toks[i] === null) i++;
	return i === toks.length;
}
