/**
 * The text and file utilities every host has, by command name.
 *
 * Mirrors nothing upstream: the table of the utilities every simulated host
 * has.
 */
import type { CommandHandler } from '../types.ts';
import { awk } from './awk.ts';
import { cat, tee } from './cat.ts';
import { chmod, cp, ls, mkdir, mv, rm, touch } from './files.ts';
import { grep } from './grep.ts';
import { sed } from './sed.ts';
import { base64, column, cut, head, seq, sort, tail, tr, uniq, wc } from './text.ts';
import { xargs } from './xargs.ts';

/** Utility name → handler. */
export const UTILS: Array<[string, CommandHandler]> = [
	['cat', cat],
	['tee', tee],
	['ls', ls],
	['mkdir', mkdir],
	['chmod', chmod],
	['rm', rm],
	['touch', touch],
	['cp', cp],
	['mv', mv],
	['grep', grep],
	['egrep', (c) => grep({ ...c, argv: ['grep', '-E', ...c.argv.slice(1)] })],
	['fgrep', (c) => grep({ ...c, argv: ['grep', '-F', ...c.argv.slice(1)] })],
	['head', head],
	['tail', tail],
	['wc', wc],
	['sort', sort],
	['uniq', uniq],
	['cut', cut],
	['tr', tr],
	['column', column],
	['seq', seq],
	['base64', base64],
	['awk', awk],
	['sed', sed],
	['xargs', xargs],
];
