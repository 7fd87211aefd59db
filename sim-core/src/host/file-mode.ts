/**
 * Permission bits as the tools print them. `ls -l` writes the type and
 * nine rwx letters, folding setuid, setgid and sticky into the x places
 * (`s`/`S`, `t`/`T`); Go's os.FileMode.String (what agnhost mounttest
 * prints) puts those as letters before the nine instead (`dtrwxrwxrwx`).
 * `chmod` takes octal modes and the symbolic `[ugoa]*[+-=][rwxXst]*` forms.
 *
 * Mirrors coreutils/coreutils src/ls.c (filemodestring via gnulib
 * lib/filemode.c), golang/go src/io/fs/fs.go (FileMode.String),
 * coreutils/coreutils src/chmod.c (mode parsing via gnulib lib/modechange.c).
 */

const RWX = 'rwxrwxrwx';

/** `ls -l`'s mode column: `-rw-r--r--`, `drwxrwxrwt`. */
export function lsModeString(isDir: boolean, mode: number): string {
	const chars = [...RWX].map((c, i) => (mode & (1 << (8 - i)) ? c : '-'));
	const special = (index: number, bit: number, set: string) => {
		if (mode & bit) chars[index] = chars[index] === 'x' ? set : set.toUpperCase();
	};
	special(2, 0o4000, 's');
	special(5, 0o2000, 's');
	special(8, 0o1000, 't');
	return (isDir ? 'd' : '-') + chars.join('');
}

/** os.FileMode.String: type and special letters (`d`, `u`, `g`, `t`), or `-`, then the nine permissions. */
export function goFileModeString(isDir: boolean, mode: number): string {
	let prefix = isDir ? 'd' : '';
	if (mode & 0o4000) prefix += 'u';
	if (mode & 0o2000) prefix += 'g';
	if (mode & 0o1000) prefix += 't';
	return (prefix || '-') + [...RWX].map((c, i) => (mode & (1 << (8 - i)) ? c : '-')).join('');
}

/**
 * The mode `chmod MODE` gives a file that had `current`: an octal number,
 * or comma-separated symbolic clauses (no `who` means all, less the umask
 * 022 for `+` and `=`, as chmod does). Undefined for a mode chmod refuses.
 */
export function applyChmod(spec: string, current: number, isDir: boolean): number | undefined {
	if (/^[0-7]{1,4}$/.test(spec)) return parseInt(spec, 8);
	let mode = current;
	for (const clause of spec.split(',')) {
		const m = /^([ugoa]*)([-+=])([rwxXst]*)$/.exec(clause);
		if (!m) return undefined;
		const [, who, op, perms] = m;
		const whoMask = who === '' ? 0o7777 & ~0o022 : [...who].reduce((acc, w) => acc | ({ u: 0o4700, g: 0o2070, o: 0o1007, a: 0o7777 } as Record<string, number>)[w], 0);
		let bits = 0;
		for (const p of perms) {
			if (p === 'r') bits |= 0o444;
			else if (p === 'w') bits |= 0o222;
			else if (p === 'x' || (p === 'X' && (isDir || current & 0o111))) bits |= 0o111;
			else if (p === 's') bits |= 0o6000;
			else if (p === 't') bits |= 0o1000;
		}
		bits &= whoMask;
		if (op === '+') mode |= bits;
		else if (op === '-') mode &= ~bits;
		else mode = (mode & ~(who === '' ? 0o7777 : whoMask)) | bits;
	}
	return mode;
}
