/**
 * cat and tee: concatenate files to stdout; copy stdin to files.
 *
 * Mirrors coreutils/coreutils src/cat.c, coreutils/coreutils src/tee.c.
 */
import { Out, fsErr, readAll, res, tool } from './common.ts';

/** cat [-n] [FILE]...: `-n` numbers every line as GNU does (`%6d\t`), continuing across files. */
export const cat = tool('cat', 'nu', 1, (ctx, o) => {
	const { ins, err } = readAll(ctx, o.a, 'cat'),
		out = new Out();
	let n = 0,
		bol = true;
	for (const { text } of ins) {
		if (!o.f.has('n')) out.add(text);
		else
			for (const part of text.split(/(?<=\n)/)) {
				if (!part) continue;
				out.add(bol ? `${String(++n).padStart(6)}\t${part}` : part);
				bol = part.endsWith('\n');
			}
	}
	return res(out.toString(), err, err ? 1 : 0);
});

/** tee [-a] [FILE]...: stdin to stdout and to each file (`-a` appends). */
export const tee = tool('tee', 'ai', 1, (ctx, o) => {
	let err = '';
	for (const f of o.a) {
		try {
			if (f !== '/dev/null') ctx.host.fs.writeFile(f, ctx.stdin, { append: o.f.has('a') });
		} catch (e) {
			err += fsErr('tee', f, e);
		}
	}
	return res(ctx.stdin, err, err ? 1 : 0);
});
