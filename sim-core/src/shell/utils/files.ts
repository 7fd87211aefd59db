/**
 * File management: ls, mkdir, rm, touch, cp, mv, with coreutils' messages.
 *
 * Mirrors coreutils/coreutils src/ls.c, coreutils/coreutils src/mkdir.c,
 * coreutils/coreutils src/rm.c, coreutils/coreutils src/touch.c,
 * coreutils/coreutils src/cp.c, coreutils/coreutils src/mv.c.
 */
import { strftime } from '../date.ts';
import { applyChmod, lsModeString } from '../../host/file-mode.ts';
import { FsError, type MemoryFs } from '../../host/fs.ts';
import type { CommandContext } from '../types.ts';
import { fsErr, res, tool, usage } from './common.ts';

const baseOf = (p: string) => p.replace(/\/+$/, '').replace(/^.*\//, '') || p;
const join = (d: string, n: string) => (d.endsWith('/') ? d + n : `${d}/${n}`);

/** Human-readable size as `ls -h` prints it: one decimal below 10, rounded up. */
function human(n: number): string {
	let u = 0,
		x = n;
	while (x >= 1024 && u < 4) {
		x /= 1024;
		u++;
	}
	if (!u) return String(n);
	const s = x < 10 ? (Math.ceil(x * 10) / 10).toFixed(1) : String(Math.ceil(x));
	return s + 'KMGT'[u - 1];
}

/** Names in columns down then across, as GNU ls prints to an 80-column terminal. */
function columns(names: string[]): string {
	for (let cols = Math.min(names.length, 40); cols > 1; cols--) {
		const rows = Math.ceil(names.length / cols),
			w: number[] = [];
		names.forEach((n, i) => (w[Math.floor(i / rows)] = Math.max(w[Math.floor(i / rows)] ?? 0, n.length)));
		if (w.reduce((a, b) => a + b + 2, -2) > 80) continue;
		let out = '';
		for (let r = 0; r < rows; r++) {
			const row: string[] = [];
			for (let c = 0; c < w.length; c++) {
				const n = names[c * rows + r];
				if (n !== undefined) row.push(c + 1 < w.length && names[(c + 1) * rows + r] !== undefined ? n.padEnd(w[c] + 2) : n);
			}
			out += row.join('') + '\n';
		}
		return out;
	}
	return names.map((n) => n + '\n').join('');
}

/** ls [-l] [-a] [-A] [-1] [-d] [-h] [FILE]... */
export const ls = tool('ls', 'laA1dh', 2, (ctx, o) => {
	const fs = ctx.host.fs,
		has = (c: string) => o.f.has(c),
		targets = o.a.length ? o.a : ['.'];
	let err = '',
		status = 0;
	const files: string[] = [],
		dirs: string[] = [];
	for (const t of targets) {
		const st = fs.stat(t);
		if (!st) {
			err += `ls: cannot access '${t}': No such file or directory\n`;
			status = 2;
		} else (st.isDir && !has('d') ? dirs : files).push(t);
	}
	const show = (entries: Array<{ name: string; path: string }>): string => {
		if (!has('l')) {
			const names = entries.map((e) => e.name);
			return ctx.tty && !has('1') ? columns(names) : names.map((n) => n + '\n').join('');
		}
		return long(ctx, fs, entries, has('h'));
	};
	let out = show(files.sort().map((f) => ({ name: f, path: f })));
	for (const d of dirs.sort()) {
		const names = fs.list(d).filter((n) => n[0] !== '.' || has('a') || has('A'));
		if (has('a')) names.unshift('.', '..');
		const entries = names.map((name) => ({ name, path: join(d, name) }));
		const body = has('l') ? `total ${entries.reduce((t, e) => t + blocks(fs, e.path), 0)}\n` + show(entries) : show(entries);
		if (targets.length > 1) out += (out ? '\n' : '') + `${d}:\n`;
		out += body;
	}
	return res(out, err, status);
});

const blocks = (fs: MemoryFs, p: string) => {
	const st = fs.stat(p);
	return st ? Math.ceil(st.size / 4096) * 4 : 0;
};

/** `ls -l` lines: mode, links, owner, group, size, mtime, name, columns aligned like GNU. */
function long(ctx: CommandContext, fs: MemoryFs, entries: Array<{ name: string; path: string }>, h: boolean): string {
	const home = ctx.host.home;
	const rows = entries.map(({ name, path }) => {
		const st = fs.stat(path);
		if (!st) return [];
		const owner = ctx.host.user !== 'root' && (st.path === home || st.path.startsWith(home + '/')) ? ctx.host.user : 'root';
		const links = st.isDir ? 2 + fs.list(path).filter((n) => fs.isDir(join(path, n))).length : 1;
		return [lsModeString(st.isDir, st.mode), String(links), owner, owner, h ? human(st.size) : String(st.size), strftime('%b %e %H:%M', st.mtime), name];
	});
	const w = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
	return rows
		.filter((r) => r.length)
		.map((r) => `${r[0]} ${r[1].padStart(w[1])} ${r[2].padEnd(w[2])} ${r[3].padEnd(w[3])} ${r[4].padStart(w[4])} ${r[5]} ${r[6]}\n`)
		.join('');
}

/** chmod [-R] MODE FILE...: octal or symbolic modes, as GNU chmod takes them. */
export const chmod = tool('chmod', 'R', 1, (ctx, o) => {
	const fs = ctx.host.fs;
	const [spec, ...targets] = o.a;
	if (!spec) return usage('chmod', 'missing operand');
	if (!targets.length) return usage('chmod', `missing operand after '${spec}'`);
	let err = '';
	for (const t of targets) {
		const st = fs.stat(t);
		if (!st) {
			err += `chmod: cannot access '${t}': No such file or directory\n`;
			continue;
		}
		for (const p of o.f.has('R') && st.isDir ? fs.walk(t) : [fs.resolve(t)]) {
			const cur = fs.stat(p)!;
			const mode = applyChmod(spec, cur.mode, cur.isDir);
			if (mode === undefined) return res('', `chmod: invalid mode: '${spec}'\nTry 'chmod --help' for more information.\n`, 1);
			fs.chmod(p, mode);
		}
	}
	return res('', err, err ? 1 : 0);
});

/** mkdir [-p] DIR... */
export const mkdir = tool('mkdir', 'p', 1, (ctx, o) => {
	if (!o.a.length) return usage('mkdir', 'missing operand');
	let err = '';
	for (const d of o.a) {
		try {
			ctx.host.fs.mkdir(d, o.f.has('p'));
		} catch (e) {
			err += fsErr('mkdir', `cannot create directory '${d}'`, e);
		}
	}
	return res('', err, err ? 1 : 0);
});

/** rm [-r] [-f] FILE... (refuses `/` recursively, like GNU's --preserve-root). */
export const rm = tool('rm', 'rRf', 1, (ctx, o) => {
	const fs = ctx.host.fs,
		rec = o.f.has('r') || o.f.has('R'),
		force = o.f.has('f');
	if (!o.a.length) return force ? res() : usage('rm', 'missing operand');
	let err = '';
	for (const f of o.a) {
		const st = fs.stat(f);
		if (!st) {
			if (!force) err += `rm: cannot remove '${f}': No such file or directory\n`;
		} else if (st.isDir && st.path === '/' && rec)
			err += "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n";
		else if (/(^|\/)\.\.?\/*$/.test(f)) err += `rm: refusing to remove '.' or '..' directory: skipping '${f}'\n`;
		else if (st.isDir && !rec) err += `rm: cannot remove '${f}': Is a directory\n`;
		else fs.remove(f, true);
	}
	return res('', err, err ? 1 : 0);
});

/** touch FILE...: creates empty files or updates their modification time. */
export const touch = tool('touch', '', 1, (ctx, o) => {
	if (!o.a.length) return usage('touch', 'missing file operand');
	let err = '';
	for (const f of o.a) {
		try {
			if (!ctx.host.fs.isDir(f)) ctx.host.fs.writeFile(f, '', { append: true });
		} catch (e) {
			err += fsErr('touch', `cannot touch '${f}'`, e);
		}
	}
	return res('', err, err ? 1 : 0);
});

/** Shared by cp and mv: SRC DEST, or SRC... DIR. Returns the (source, destination) pairs or an error result. */
function pairs(fs: MemoryFs, name: string, a: string[]): Array<[string, string]> | string {
	if (a.length < 2) return a.length ? `${name}: missing destination file operand after '${a[0]}'\n` : `${name}: missing file operand\n`;
	const dest = a[a.length - 1],
		srcs = a.slice(0, -1),
		isDir = fs.isDir(dest);
	if (srcs.length > 1 && !isDir) return `${name}: target '${dest}' is not a directory\n`;
	return srcs.map((s) => [s, isDir ? join(dest, baseOf(s)) : dest]);
}

/** cp [-r] SRC DEST | cp [-r] SRC... DIR */
export const cp = tool('cp', 'rRaf', 1, (ctx, o) => {
	const fs = ctx.host.fs,
		ps = pairs(fs, 'cp', o.a);
	if (typeof ps === 'string') return res('', ps + "Try 'cp --help' for more information.\n", 1);
	let err = '';
	for (const [s, d] of ps) {
		try {
			const st = fs.stat(s);
			if (!st) err += `cp: cannot stat '${s}': No such file or directory\n`;
			else if (!st.isDir) fs.writeFile(d, fs.readFile(s));
			else if (!(o.f.has('r') || o.f.has('R') || o.f.has('a'))) err += `cp: -r not specified; omitting directory '${s}'\n`;
			else {
				const root = st.path,
					to = fs.resolve(d);
				if (to === root || to.startsWith(root + '/')) throw new FsError('EINVAL');
				for (const p of fs.walk(s)) {
					const q = to + p.slice(root.length);
					if (fs.isDir(p)) fs.mkdir(q, true);
					else fs.writeFile(q, fs.readFile(p));
				}
			}
		} catch (e) {
			err += fsErr('cp', `cannot copy '${s}' to '${d}'`, e);
		}
	}
	return res('', err, err ? 1 : 0);
});

/** mv SRC DEST | mv SRC... DIR */
export const mv = tool('mv', 'f', 1, (ctx, o) => {
	const fs = ctx.host.fs,
		ps = pairs(fs, 'mv', o.a);
	if (typeof ps === 'string') return res('', ps + "Try 'mv --help' for more information.\n", 1);
	let err = '';
	for (const [s, d] of ps) {
		try {
			if (!fs.exists(s)) err += `mv: cannot stat '${s}': No such file or directory\n`;
			else fs.rename(s, d);
		} catch (e) {
			err += fsErr('mv', `cannot move '${s}' to '${d}'`, e);
		}
	}
	return res('', err, err ? 1 : 0);
});
