/**
 * The parser: the YAML grammar over the scanner's tokens (stream, documents,
 * block and flow collections, anchors, aliases and tags). It follows
 * go-yaml's parserc.go, but as recursive descent that hands each node
 * straight to decode.ts instead of producing an event stream and a node
 * tree. Recursion depth is bounded by `maxDepth`, so deep nesting is refused
 * instead of overflowing the stack; alias copies are counted against
 * `maxAliasNodes`.
 *
 * Mirrors yaml/go-yaml parserc.go.
 */
import { copyAlias, decodeScalar, mergeInto, setPair, type MapKeys, type Obj } from './decode.ts';
import type { YamlLimits } from './limits.ts';
import type { Resolved } from './resolve.ts';
import type { Scanner } from './scanner.ts';
import {
	ALIAS,
	ANCHOR,
	BLOCK_END,
	BLOCK_MAP,
	DIRECTIVE,
	DOC_END,
	DOC_START,
	ENTRY,
	FLOW_ENTRY,
	FLOW_MAP,
	FLOW_MAP_END,
	FLOW_SEQ,
	FLOW_SEQ_END,
	KEY,
	SCALAR,
	STREAM_END,
	TAG,
	VALUE,
	failAt as fail,
	type Kind,
} from './tokens.ts';

/** Reads every document of the stream; `single` refuses a second one. */
export function parseStream({ peek, next }: Scanner, lim: YamlLimits, single: boolean): unknown[] {
	const depthError = `exceeded max depth of ${lim.maxDepth}`;
	let anchors = new Map<string, { v: unknown; n: number } | null>(); // null: still being read
	let copied = 0; // nodes copied by aliases in this document
	let nodes = 0; // nodes built so far, to size anchored values
	let last: Resolved | undefined; // typing of the scalar node just read (for keys)

	/** Reads one node; `d` is the depth of the collection it sits in. */
	function node(d: number, indentless: boolean): unknown {
		let t = peek();
		let anchor: string | undefined;
		let tag: string | undefined;
		while ((t.t === ANCHOR && anchor === undefined) || (t.t === TAG && tag === undefined)) {
			if (t.t === ANCHOR) anchor = t.v;
			else tag = t.v;
			next();
			t = peek();
		}
		if (anchor !== undefined) anchors.set(anchor, null);
		const before = nodes;
		let v: unknown;
		let res: Resolved | undefined;
		if (t.t === ALIAS && anchor === undefined && tag === undefined) {
			next();
			const a = anchors.get(t.v);
			if (a === undefined) fail(`found undefined alias ${JSON.stringify(t.v)}`, t);
			if (a === null) fail(`anchor ${JSON.stringify(t.v)} value contains itself`, t);
			// Count before copying so a "billion laughs" document is refused before it grows.
			if ((copied += a.n) > lim.maxAliasNodes) fail('document contains excessive aliasing', t);
			nodes += a.n;
			v = copyAlias(a.v, d, t, lim);
		} else if (t.t === SCALAR) {
			next();
			nodes++;
			v = (res = decodeScalar(t, tag))[1];
		} else if (t.t >= FLOW_SEQ || (indentless && t.t === ENTRY)) {
			if (d >= lim.maxDepth) fail(depthError, t);
			nodes++;
			v = t.t === FLOW_SEQ ? flowSeq(d + 1) : t.t === FLOW_MAP ? flowMap(d + 1) : t.t === BLOCK_MAP ? blockMap(d + 1) : blockSeq(d + 1, t.t === ENTRY);
		} else if (anchor !== undefined || tag !== undefined) {
			nodes++;
			v = (res = decodeScalar({ ...t, v: '', plain: true }, tag))[1];
		} else {
			fail('did not find expected node content', t);
		}
		if (anchor !== undefined) anchors.set(anchor, { v, n: nodes - before });
		last = res;
		return v;
	}

	// A node, or null when the next token cannot start one (`key:` with nothing after it).
	const optional = (d: number, indentless = false) => {
		const k = peek().t;
		return (k >= ALIAS && k <= BLOCK_MAP) || (indentless && k === ENTRY) ? node(d, indentless) : null;
	};

	/** Reads `key: value` into `obj`, following go-yaml v2 for merge keys: they are applied where they appear. */
	function pair(obj: Obj, d: number, block: boolean, explicit: MapKeys) {
		const kt = peek();
		if (!(kt.t >= ALIAS && kt.t <= BLOCK_MAP)) fail('null mapping keys are not supported', kt);
		const kv = node(d, false);
		const r = last;
		let v: unknown = null;
		if (peek().t === VALUE) {
			next();
			v = optional(d, block);
		}
		if (r?.[0] === 'merge') return mergeInto(obj, v, explicit, kt);
		setPair(obj, kv, r, v, explicit, kt);
	}

	function blockMap(d: number): Obj {
		next();
		const obj: Obj = {};
		const explicit = {};
		for (let t = peek(); t.t !== BLOCK_END; t = peek()) {
			if (t.t !== KEY) fail('did not find expected key', t);
			next();
			pair(obj, d, true, explicit);
		}
		next();
		return obj;
	}

	// Handles both a block sequence and the "indentless" one that shares its key's column.
	function blockSeq(d: number, indentless: boolean): unknown[] {
		if (!indentless) next();
		const arr: unknown[] = [];
		for (let t = peek(); t.t === ENTRY; t = peek()) {
			next();
			arr.push(optional(d));
		}
		if (!indentless) {
			if (peek().t !== BLOCK_END) fail("did not find expected '-' indicator", peek());
			next();
		}
		return arr;
	}

	// Walks `[a, b]` / `{a: b}` entries; `entry` reads one of them.
	function flowItems(close: Kind, what: string, entry: () => void) {
		const open = next();
		for (let first = true; ; first = false) {
			let t = peek();
			if (t.t !== close && !first) {
				if (t.t !== FLOW_ENTRY) fail(`did not find expected ',' or '${what}'`, t.t === STREAM_END ? open : t);
				next();
				t = peek();
			}
			if (t.t === close) break;
			if (t.t === STREAM_END) fail(`did not find expected ',' or '${what}'`, open);
			entry();
		}
		next();
	}

	function flowSeq(d: number): unknown[] {
		const arr: unknown[] = [];
		flowItems(FLOW_SEQ_END, ']', () => {
			if (peek().t !== KEY) return void arr.push(node(d, false));
			// `[a: 1]` is a sequence holding a one-pair mapping.
			next();
			const obj: Obj = {};
			pair(obj, d, false, {});
			arr.push(obj);
		});
		return arr;
	}

	function flowMap(d: number): Obj {
		const obj: Obj = {};
		const explicit = {};
		flowItems(FLOW_MAP_END, '}', () => {
			if (peek().t === KEY) next();
			pair(obj, d, false, explicit);
		});
		return obj;
	}

	const docs: unknown[] = [];
	let count = 0;
	for (let t = peek(); ; t = peek()) {
		while (t.t === DOC_END) {
			next();
			t = peek();
		}
		if (t.t === STREAM_END) break;
		if (++count > lim.maxDocuments) fail(`stream contains more than ${lim.maxDocuments} documents`, t);
		const explicit = t.t === DOC_START || t.t === DIRECTIVE;
		while (t.t === DIRECTIVE) {
			next();
			t = peek();
		}
		if (explicit && t.t !== DOC_START) fail('did not find expected <document start>', t);
		if (t.t === DOC_START) {
			next();
			t = peek();
		}
		anchors = new Map();
		copied = 0;
		// An explicit document may be empty (`---` then `---`); kubectl skips it.
		if (!explicit || (t.t >= ALIAS && t.t <= BLOCK_MAP)) {
			if (single && docs.length) fail('expected a single document but found more', t);
			docs.push(node(0, false));
		}
		t = peek();
		if (t.t === DOC_END) next();
		else if (t.t !== DOC_START && t.t !== STREAM_END) fail('did not find expected <document start>', t);
	}
	return docs;
}
