/**
 * The text `kubectl get -o yaml` prints. kubectl marshals an object to JSON,
 * reads that back with go-yaml v2 and marshals it again (sigs.k8s.io/yaml),
 * so the output is go-yaml v2's emitter (a port of libyaml) fed with maps,
 * lists, strings, numbers, booleans and nulls. This file reproduces that
 * emitter's choices for exactly those inputs: key order, indentation, which
 * strings need quotes and which quotes, literal blocks, and folding at 80
 * columns. The small state machine below (column, "only indentation so far",
 * "last thing written was whitespace") mirrors libyaml's so that folding and
 * line breaks land on the same characters.
 *
 * Mirrors yaml/go-yaml emitterc.go, yaml/go-yaml encode.go,
 * kubernetes-sigs/yaml yaml.go (Marshal, JSONToYAML).
 */
import { formatGoFloat, resolvePlain } from './resolve.ts';
import { utf8Length } from '../golang/utf8.ts';

const WIDTH = 80; // go-yaml v2 never changes libyaml's default best width
// Strings like `1:20` were base-60 numbers in YAML 1.1; go-yaml quotes them for older readers.
const BASE60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const ESCAPES: Record<string, string> = {
	'\0': '0', '\x07': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '\x1b': 'e',
	'"': '"', '\\': '\\', '\x85': 'N', '\u2028': 'L', '\u2029': 'P',
};
const PLAIN = 0;
const SINGLE = 1;
const DOUBLE = 2;
const LITERAL = 3;

/**
 * libyaml writes a character raw only if it is "printable": no C0/C1
 * controls except the line feed, no tab, no BOM, and nothing outside the
 * Basic Multilingual Plane (so emoji come out as `\U0001F600`, as kubectl
 * shows them). Deliberate deviation: U+2028/U+2029 also count as unprintable
 * here, so they get `\L`/`\P` escapes instead of libyaml's raw line breaks,
 * which our parser (like YAML 1.2) would read as ordinary characters.
 */
const printable = (cp: number) =>
	cp === 10 || (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff && cp !== 0x2028 && cp !== 0x2029) || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);

/** Which styles libyaml allows for a string in block context (its `analyze_scalar`). */
function analyze(s: string) {
	const cs = Array.from(s);
	let indicator = /^(?:---|\.\.\.)/.test(s);
	let special = false;
	let breaks = false;
	let spaceBreak = false; // a space right before a line break
	let breakSpace = false; // a space right after a line break
	let prev = '';
	for (let i = 0; i < cs.length; i++) {
		const c = cs[i];
		const spaceNext = i + 1 === cs.length || cs[i + 1] === ' ' || cs[i + 1] === '\t';
		if (i === 0) {
			if ('#,[]{}&*!|>\'"%@`'.includes(c) || ('?:-'.includes(c) && spaceNext)) indicator = true;
		} else if ((c === ':' && spaceNext) || (c === '#' && /[ \t\n\r\x85\u2028\u2029\0]/.test(prev))) {
			indicator = true;
		}
		if (!printable(c.codePointAt(0) ?? 0)) special = true;
		if (c === ' ' && prev === '\n') breakSpace = true;
		if (c === '\n') {
			breaks = true;
			if (prev === ' ') spaceBreak = true;
		}
		prev = c;
	}
	const edges = /^[ \n]|[ \n]$/.test(s);
	return {
		plain: !(edges || breaks || breakSpace || spaceBreak || special || indicator),
		single: !(breakSpace || spaceBreak || special),
		literal: s !== '' && !s.endsWith(' ') && !(spaceBreak || special),
	};
}

/**
 * go-yaml v2's map key order (`keyList.Less`) for string keys. Keys are
 * compared character by character. At the first difference: two letters
 * compare by code point; a letter against anything else puts the non-letter
 * first; otherwise the runs of digits starting there are read as numbers and
 * the smaller number wins (then the shorter run, then the code point). A zero
 * that follows other digits counts as a real digit rather than padding, so
 * `a100` still sorts after `a12`. When one key is a prefix of the other the
 * shorter comes first. Digit runs longer than 15 digits lose precision here
 * (Go wraps at 64 bits instead); such keys do not occur in Kubernetes objects.
 */
function keyLess(a: string[], b: string[]): boolean {
	const letter = (c: string) => /\p{L}/u.test(c);
	const digit = (c: string | undefined) => c !== undefined && /\p{Nd}/u.test(c);
	const run = (r: string[], i: number, n: number): [number, number] => {
		for (; digit(r[i]); i++) n = n * 10 + ((r[i].codePointAt(0) ?? 0) - 48);
		return [n, i];
	};
	for (let i = 0; i < a.length && i < b.length; i++) {
		if (a[i] === b[i]) continue;
		const al = letter(a[i]);
		const bl = letter(b[i]);
		if (al && bl) return (a[i].codePointAt(0) ?? 0) < (b[i].codePointAt(0) ?? 0);
		if (al || bl) return bl;
		let seed = 0;
		if (a[i] === '0' || b[i] === '0') {
			for (let j = i - 1; j >= 0 && digit(a[j]); j--) {
				if (a[j] !== '0') {
					seed = 1;
					break;
				}
			}
		}
		const [an, ae] = run(a, i, seed);
		const [bn, be] = run(b, i, seed);
		if (an !== bn) return an < bn;
		if (ae !== be) return ae < be;
		return (a[i].codePointAt(0) ?? 0) < (b[i].codePointAt(0) ?? 0);
	}
	return a.length < b.length;
}

/** Sorts map keys in place the way go-yaml v2 orders them on output. */
export function sortYamlKeys(keys: string[]): string[] {
	const runes = new Map(keys.map((k) => [k, Array.from(k)]));
	const at = (k: string) => runes.get(k) ?? [];
	return keys.sort((x, y) => (keyLess(at(x), at(y)) ? -1 : keyLess(at(y), at(x)) ? 1 : 0));
}

// A JS number as JSON would carry it and go-yaml would then print it:
// integers that fit int64/uint64 in full, everything else in Go's %g form.
const formatNumber = (n: number) => (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 64 ? String(n) : formatGoFloat(n));

// undefined, functions and symbols are dropped from objects, as JSON.stringify does.
const skipped = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/**
 * Serialises JSON-compatible data exactly as `kubectl get -o yaml` would
 * print it (go-yaml v2 Marshal behind sigs.k8s.io/yaml): sorted keys, 2-space
 * indentation, sequences not indented under their key, YAML 1.1-aware
 * quoting, literal blocks for multi-line strings, folding past column 80.
 * Output ends with a newline. Throws a TypeError on circular structures.
 */
export function stringifyYaml(value: unknown): string {
	let out = '';
	let col = 0; // characters on the current line
	let ws = true; // the last thing written was whitespace (or nothing)
	let atIndent = true; // the current line holds only indentation so far
	const ancestors = new Set<object>();

	const put = (s: string) => {
		out += s;
		col += s.length;
	};
	const newline = () => {
		out += '\n';
		col = 0;
	};
	// Moves to column n, starting a new line unless still inside the indentation.
	const indentTo = (n: number) => {
		if (!atIndent || col > n || (col === n && !ws)) newline();
		if (col < n) put(' '.repeat(n - col));
		ws = atIndent = true;
	};
	const mark = (s: string, spaceBefore: boolean, keepsIndent = false) => {
		if (spaceBefore && !ws) put(' ');
		put(s);
		ws = false;
		atIndent &&= keepsIndent;
	};

	// Writes a string scalar whose continuation lines sit at column `ind`.
	function scalar(s: string, ind: number, simpleKey: boolean) {
		const a = analyze(s);
		let style = s.includes('\n') ? LITERAL : resolvePlain(s)[0] === 'str' && !BASE60.test(s) ? PLAIN : DOUBLE;
		if (style === PLAIN && !a.plain) style = SINGLE;
		if (style === SINGLE && !a.single) style = DOUBLE;
		if (style === LITERAL && (!a.literal || simpleKey)) style = DOUBLE;
		const fold = !simpleKey; // keys are never folded
		if (style === LITERAL) {
			mark('|', true);
			if (s[0] === ' ' || s[0] === '\n') mark('2', false); // content starting with a space needs an explicit indentation
			const chomp = !s.endsWith('\n') ? '-' : s === '\n' || s.endsWith('\n\n') ? '+' : '';
			if (chomp) mark(chomp, false);
			newline();
			ws = atIndent = true;
			s.split('\n').forEach((text, i) => {
				if (i) {
					newline();
					atIndent = true;
				}
				if (text) {
					indentTo(ind);
					put(text);
					atIndent = false;
				}
			});
			return;
		}
		if (style === PLAIN) {
			if (!ws) put(' ');
		} else mark(style === SINGLE ? "'" : '"', true);
		const cs = Array.from(s);
		let spaces = false;
		cs.forEach((c, i) => {
			const cp = c.codePointAt(0) ?? 0;
			if (style === DOUBLE && (!printable(cp) || c === '"' || c === '\\' || c === '\n')) {
				const hex = (w: number) => cp.toString(16).toUpperCase().padStart(w, '0');
				put('\\' + (ESCAPES[c] ?? (cp <= 0xff ? 'x' + hex(2) : cp <= 0xffff ? 'u' + hex(4) : 'U' + hex(8))));
				spaces = false;
			} else if (c === ' ') {
				// Past the width, a lone space between words becomes a line break.
				const last = i === cs.length - 1;
				if (fold && !spaces && col > WIDTH && (style === DOUBLE ? i > 0 && !last : style === PLAIN ? cs[i + 1] !== ' ' : i > 0 && !last && cs[i + 1] !== ' ')) {
					indentTo(ind);
					if (style === DOUBLE && cs[i + 1] === ' ') put('\\'); // keep the next space: `\ `
				} else put(c);
				spaces = true;
			} else {
				put(style === SINGLE && c === "'" ? "''" : c);
				spaces = false;
			}
		});
		if (style === PLAIN) {
			ws = atIndent = false;
		} else mark(style === SINGLE ? "'" : '"', false);
	}

	// `parent` is the indentation of the enclosing collection (-1 at the root);
	// `inMap` says the node is a mapping value, where sequences are not indented.
	function node(v: unknown, parent: number, inMap: boolean): void {
		if (typeof v === 'string') return scalar(v, parent < 0 ? 2 : parent + 2, false);
		if (v === null || typeof v !== 'object') {
			// null, booleans and numbers are always plain.
			if (!ws) put(' ');
			put(typeof v === 'number' ? formatNumber(v) : v === null || skipped(v) ? 'null' : String(v));
			ws = atIndent = false;
			return;
		}
		const obj = v as Record<string, unknown>;
		if (ancestors.has(obj)) throw new TypeError('stringifyYaml: cannot serialise a circular structure');
		ancestors.add(obj);
		if (Array.isArray(v)) {
			if (!v.length) mark('[]', true);
			const ind = parent < 0 ? 0 : inMap && !atIndent ? parent : parent + 2;
			for (const item of v) {
				indentTo(ind);
				mark('-', true, true);
				node(skipped(item) ? null : item, ind, false);
			}
		} else {
			const keys = sortYamlKeys(Object.keys(obj).filter((k) => !skipped(obj[k])));
			if (!keys.length) mark('{}', true);
			const ind = parent < 0 ? 0 : parent + 2;
			for (const k of keys) {
				indentTo(ind);
				// libyaml writes `key:` only for keys up to 128 bytes on one line;
				// others get the explicit `? key` / `: value` form.
				if (utf8Length(k) <= 128 && !k.includes('\n')) {
					scalar(k, ind + 2, true);
					mark(':', false);
				} else {
					mark('?', true, true);
					scalar(k, ind + 2, false);
					indentTo(ind);
					mark(':', true, true);
				}
				node(obj[k], ind, true);
			}
		}
		ancestors.delete(obj);
	}

	node(value, -1, false);
	indentTo(0);
	return out;
}
