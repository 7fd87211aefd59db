/**
 * A YAML reader for pasted Kubernetes manifests that behaves like the one
 * Kubernetes uses (sigs.k8s.io/yaml on go-yaml v2, itself a port of
 * libyaml). This file holds the entry points (go-yaml's Unmarshal) and the
 * reader's input checks (BOM, line breaks, control characters).
 *
 * Design: two layers, both written to be linear in the input.
 *
 * 1. The scanner (scanner.ts, scannerc.go) turns characters into tokens
 *    (tokens.ts, yamlh.go), produced on demand.
 * 2. A recursive-descent parser over those tokens (parser.ts, parserc.go)
 *    builds plain JS values directly through decode.ts (decode.go), with no
 *    event stream and no node tree in between.
 *
 * Borrowing libyaml's token model is what makes the error reasons and
 * positions match what `kubectl apply` prints for the usual mistakes.
 *
 * Known, deliberate differences from go-yaml v2: explicit `? ` keys, null
 * keys and non-scalar keys are refused; U+0085/U+2028/U+2029 are ordinary
 * characters rather than line breaks (YAML 1.2); a plain scalar in a flow
 * collection does not end at `?`; `\uD800`-style surrogate escapes are
 * accepted (so JSON-style pairs work); the limits in limits.ts apply.
 *
 * Mirrors kubernetes-sigs/yaml yaml.go (Unmarshal), yaml/go-yaml yaml.go
 * (Unmarshal), yaml/go-yaml readerc.go.
 */
import { DEFAULT_YAML_LIMITS, type YamlLimits } from './limits.ts';
import { parseStream } from './parser.ts';
import { scanner } from './scanner.ts';
import { YamlError } from './tokens.ts';

export { YamlError };

function read(text: string, limits: Partial<YamlLimits> | undefined, single: boolean): unknown[] {
	const lim: YamlLimits = { ...DEFAULT_YAML_LIMITS, ...limits };
	if (text.length > lim.maxInputLength) throw new YamlError(`input exceeds the maximum size of ${lim.maxInputLength} characters`, 1, 1);
	const src = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
	// go-yaml's reader refuses C0/C1 control characters (tab and newline aside).
	const bad = /[\0-\x08\v\f\x0e-\x1f\x7f-\x84\x86-\x9f\ufffe\uffff]/.exec(src);
	if (bad) {
		const before = src.slice(0, bad.index).split('\n');
		throw new YamlError('control characters are not allowed', before.length, before[before.length - 1].length + 1);
	}
	return parseStream(scanner(src, lim), lim, single);
}

/**
 * Parses a stream of YAML documents the way `kubectl apply -f` reads a
 * manifest file (sigs.k8s.io/yaml over go-yaml v2): one plain JSON-like value
 * per document, empty documents skipped, every map key a string, aliases and
 * merges copied (never shared). Integers beyond 2^53 become the nearest JS
 * number; `.inf` and `.nan` become Infinity and NaN (which kubectl itself
 * would then fail to turn into JSON). Throws {@link YamlError}.
 */
export function parseYamlDocuments(text: string, limits?: Partial<YamlLimits>): unknown[] {
	return read(text, limits, false);
}

/**
 * Parses YAML holding at most one document, like sigs.k8s.io/yaml.Unmarshal
 * (null for an empty input). Unlike go-yaml, a second document is an error
 * rather than silently ignored. Throws {@link YamlError}.
 */
export function parseYaml(text: string, limits?: Partial<YamlLimits>): unknown {
	return read(text, limits, true)[0] ?? null;
}
