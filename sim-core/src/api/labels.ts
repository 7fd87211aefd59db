/**
 * Label selectors, field selectors and the name/label validators of
 * k8s.io/apimachinery.
 *
 * Validators return a list of messages, empty when the value is valid.
 * Note the two length wordings of v1.36: object-name validators
 * (util/validation) say "must be no more than 63 characters", while label
 * keys and values (validate/content, used since v1.35) say "... bytes".
 * Lengths are Go `len()`, i.e. UTF-8 bytes.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/labels/selector.go,
 * staging/src/k8s.io/apimachinery/pkg/labels/labels.go,
 * staging/src/k8s.io/apimachinery/pkg/fields/selector.go,
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go,
 * staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go,
 * staging/src/k8s.io/apimachinery/pkg/api/validate/content/kube.go.
 */
import { compactJson, compareGoStrings, goQuote } from '../golang/json.ts';
import { utf8Length } from '../golang/utf8.ts';

// ---------------------------------------------------------------------------
// Validation

/** util/validation MaxLenError (object names). */
const maxLenCharacters = (n: number) => `must be no more than ${n} characters`;
/** validate/content MaxLenError (label keys and values). */
const maxLenBytes = (n: number) => `must be no more than ${n} bytes`;
const EMPTY_ERROR = 'must be non-empty';

/** util/validation RegexError: the message, examples quoted with upstream's odd `',  or '` spacing, and the regex. */
function regexError(message: string, regex: string, ...examples: string[]): string {
	if (examples.length === 0) return `${message} (regex used for validation is '${regex}')`;
	return `${message} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${regex}')`;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const whole = (fmt: string) => new RegExp(`^${fmt}$`);
const DNS1123_LABEL_RE = whole(DNS1123_LABEL_FMT);
const DNS1123_SUBDOMAIN_RE = whole(DNS1123_SUBDOMAIN_FMT);
const DNS1035_LABEL_RE = whole(DNS1035_LABEL_FMT);
const LABEL_KEY_RE = whole(LABEL_KEY_FMT);
const LABEL_VALUE_RE = whole(LABEL_VALUE_FMT);
const DNS1123_LABEL_MSG =
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MSG =
	"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

function dns1123Label(value: string, maxLen: (n: number) => string): string[] {
	const errs: string[] = [];
	if (utf8Length(value) > 63) errs.push(maxLen(63));
	if (!DNS1123_LABEL_RE.test(value)) {
		// A valid subdomain that is not a valid label can only be failing on dots.
		errs.push(DNS1123_SUBDOMAIN_RE.test(value) ? 'must not contain dots' : regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
	}
	return errs;
}

function dns1123Subdomain(value: string, maxLen: (n: number) => string): string[] {
	const errs: string[] = [];
	if (utf8Length(value) > 253) errs.push(maxLen(253));
	if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
	return errs;
}

/** validation.IsDNS1123Label (util/validation/validation.go): names of namespaces, many objects; ≤ 63 characters. */
export function isDNS1123Label(value: string): string[] {
	return dns1123Label(value, maxLenCharacters);
}

/** validation.IsDNS1123Subdomain (util/validation/validation.go): most object names; ≤ 253 characters. */
export function isDNS1123Subdomain(value: string): string[] {
	return dns1123Subdomain(value, maxLenCharacters);
}

/** validation.IsDNS1035Label (util/validation/validation.go): Service names; must start with a letter. */
export function isDNS1035Label(value: string): string[] {
	const errs: string[] = [];
	if (utf8Length(value) > 63) errs.push(maxLenCharacters(63));
	if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
	return errs;
}

/**
 * content.IsLabelKey, alias IsQualifiedName (api/validate/content/kube.go):
 * an optional DNS-1123 subdomain prefix and `/`, then a name of at most 63
 * bytes matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
 */
export function isQualifiedName(value: string): string[] {
	const errs: string[] = [];
	const parts = value.split('/');
	if (parts.length > 2) {
		return [`a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`];
	}
	const name = parts[parts.length - 1];
	if (parts.length === 2) {
		const prefix = parts[0];
		if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
		else errs.push(...dns1123Subdomain(prefix, maxLenBytes).map((m) => `prefix part ${m}`));
	}
	if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
	else if (utf8Length(name) > 63) errs.push(`name part ${maxLenBytes(63)}`);
	if (!LABEL_KEY_RE.test(name)) errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
	return errs;
}

/** content.IsLabelValue (api/validate/content/kube.go): empty, or ≤ 63 bytes of the label-name alphabet. */
export function isValidLabelValue(value: string): string[] {
	const errs: string[] = [];
	if (utf8Length(value) > 63) errs.push(maxLenBytes(63));
	if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
	return errs;
}

// ---------------------------------------------------------------------------
// Label selectors

/** selection.Operator values as labels.Requirement holds them (apimachinery pkg/selection/operator.go). */
export type SelectorOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'gt' | 'lt' | 'exists' | '!';
const BINARY_OPERATORS: readonly SelectorOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const ALL_OPERATORS: readonly SelectorOperator[] = [...BINARY_OPERATORS, 'exists', '!'];

/** labels.Requirement: one `key op values` clause. */
export interface Requirement {
	readonly key: string;
	readonly operator: SelectorOperator;
	readonly values: readonly string[];
}

/**
 * labels.Selector. `requirements: []` is labels.Everything() (what an empty
 * metav1.LabelSelector `{}` converts to: it matches every object);
 * `nothing` is labels.Nothing() (what a nil selector converts to: it
 * matches no object). Requirements are kept sorted by key.
 */
export type Selector = { readonly nothing: true } | { readonly nothing?: false; readonly requirements: readonly Requirement[] };

/** labels.Everything(). */
export const EVERYTHING: Selector = Object.freeze({ requirements: Object.freeze([]) });
/** labels.Nothing(). */
export const NOTHING: Selector = Object.freeze({ nothing: true });

/** metav1.LabelSelector as it appears in API objects (apimachinery pkg/apis/meta/v1/types.go). */
export interface MetaLabelSelector {
	matchLabels?: Readonly<Record<string, string>> | null;
	matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] | null }[] | null;
}

/** A selector that fails to parse or validate; the message is upstream's error text. */
export class SelectorError extends Error {
	override name = 'SelectorError';
}

/** A field.Error rendered as field.Error.Error(): `<path>: Invalid value: <value>: <detail>`. */
const invalid = (path: string, badValue: string, detail: string) => `${path}: Invalid value: ${badValue}: ${detail}`;

/** utilerrors aggregate Error(): one message alone, several deduplicated inside brackets. */
function aggregate(messages: string[]): string {
	const unique = [...new Set(messages)];
	return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/**
 * labels.NewRequirement: validates the key, the value count for the
 * operator and each value; throws SelectorError with upstream's aggregated
 * field errors. `nilValues` renders an absent value list as `null`, as Go
 * does for a nil slice.
 */
export function newRequirement(key: string, operator: SelectorOperator, values: readonly string[], nilValues = false): Requirement {
	const errs: string[] = [];
	const keyErrs = isQualifiedName(key);
	if (keyErrs.length) errs.push(invalid('key', goQuote(key), keyErrs.join('; ')));
	const badValues = nilValues && values.length === 0 ? 'null' : compactJson([...values]);
	switch (operator) {
		case 'in':
		case 'notin':
			if (values.length === 0) errs.push(invalid('values', badValues, "for 'in', 'notin' operators, values set can't be empty"));
			break;
		case '=':
		case '==':
		case '!=':
			if (values.length !== 1) errs.push(invalid('values', badValues, 'exact-match compatibility requires one single value'));
			break;
		case 'exists':
		case '!':
			if (values.length !== 0) errs.push(invalid('values', badValues, 'values set must be empty for exists and does not exist'));
			break;
		case 'gt':
		case 'lt':
			if (values.length !== 1) errs.push(invalid('values', badValues, "for 'Gt', 'Lt' operators, exactly one value is required"));
			values.forEach((v, i) => {
				if (parseInt64(v) === undefined) errs.push(invalid(`values[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
			});
			break;
		default:
			errs.push(`operator: Unsupported value: ${goQuote(operator)}: supported values: ${ALL_OPERATORS.map((o) => goQuote(o)).join(', ')}`);
	}
	values.forEach((v, i) => {
		const valueErrs = isValidLabelValue(v);
		if (valueErrs.length) errs.push(invalid(`values[${i}][${key}]`, goQuote(v), valueErrs.join('; ')));
	});
	if (errs.length) throw new SelectorError(aggregate(errs));
	return { key, operator, values: [...values] };
}

/** strconv.ParseInt(s, 10, 64), or undefined. */
function parseInt64(text: string): bigint | undefined {
	if (!/^[+-]?\d+$/.test(text)) return undefined;
	const n = BigInt(text);
	return n >= -(1n << 63n) && n < 1n << 63n ? n : undefined;
}

const byKey = (a: Requirement, b: Requirement) => compareGoStrings(a.key, b.key);
const withRequirements = (requirements: Requirement[]): Selector => ({ requirements: requirements.sort(byKey) });

/** Requirement.Matches (labels/selector.go). */
export function requirementMatches(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
	const has = Object.hasOwn(labels, r.key);
	const value = has ? labels[r.key] : '';
	switch (r.operator) {
		case 'in':
		case '=':
		case '==':
			return has && r.values.includes(value);
		case 'notin':
		case '!=':
			return !has || !r.values.includes(value);
		case 'exists':
			return has;
		case '!':
			return !has;
		case 'gt':
		case 'lt': {
			const actual = has ? parseInt64(value) : undefined;
			const bound = r.values.length === 1 ? parseInt64(r.values[0]) : undefined;
			if (actual === undefined || bound === undefined) return false;
			return r.operator === 'gt' ? actual > bound : actual < bound;
		}
	}
}

/** Selector.Matches: every requirement matches; Nothing matches nothing, Everything everything. */
export function matches(selector: Selector, labels: Readonly<Record<string, string>> | null | undefined): boolean {
	if (selector.nothing) return false;
	return selector.requirements.every((r) => requirementMatches(r, labels ?? {}));
}

/** Selector.Empty: true for Everything (no requirements), false for Nothing. */
export function isEmptySelector(selector: Selector): boolean {
	return !selector.nothing && selector.requirements.length === 0;
}

/** Requirement.String: `key=v`, `key in (a,b)` with values sorted, `!key`, `key`. */
function requirementToString(r: Requirement): string {
	const values = r.values.length === 1 ? r.values[0] : [...r.values].sort(compareGoStrings).join(',');
	switch (r.operator) {
		case 'exists':
			return r.key;
		case '!':
			return `!${r.key}`;
		case 'in':
		case 'notin':
			return `${r.key} ${r.operator} (${values})`;
		case 'gt':
			return `${r.key}>${values}`;
		case 'lt':
			return `${r.key}<${values}`;
		default:
			return `${r.key}${r.operator}${values}`;
	}
}

/**
 * Selector.String: requirements (sorted by key) joined with `,`, e.g.
 * `app=nginx,tier in (backend,cache)`; Nothing and Everything both print
 * `""`. This is the `kubectl get rs -o wide` SELECTOR text.
 */
export function selectorToString(selector: Selector): string {
	return selector.nothing ? '' : selector.requirements.map(requirementToString).join(',');
}

/**
 * metav1.LabelSelectorAsSelector (apis/meta/v1/helpers.go): null/undefined →
 * Nothing; `{}` → Everything; otherwise matchLabels as `=` requirements
 * plus matchExpressions (In, NotIn, Exists, DoesNotExist), sorted by key.
 * Throws SelectorError for invalid keys, values or operators.
 */
export function labelSelectorFromObject(selector: MetaLabelSelector | null | undefined): Selector {
	if (selector === null || selector === undefined) return NOTHING;
	const labels = selector.matchLabels ?? {};
	const expressions = selector.matchExpressions ?? [];
	if (Object.keys(labels).length + expressions.length === 0) return EVERYTHING;
	// Go visits matchLabels in random map order and then sorts by key; walking them sorted keeps ties deterministic.
	const requirements = Object.keys(labels)
		.sort(compareGoStrings)
		.map((k) => newRequirement(k, '=', [labels[k]]));
	const ops: Record<string, SelectorOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };
	for (const e of expressions) {
		const op = Object.hasOwn(ops, e.operator) ? ops[e.operator] : undefined;
		if (!op) throw new SelectorError(`${goQuote(e.operator)} is not a valid label selector operator`);
		requirements.push(newRequirement(e.key, op, e.values ?? [], !e.values || e.values.length === 0));
	}
	return withRequirements(requirements);
}

/** metav1.FormatLabelSelector: the Selector string, `<none>` when empty, `<error>` when invalid (kubectl describe `Selector:`). */
export function formatLabelSelector(selector: MetaLabelSelector | null | undefined): string {
	try {
		return selectorToString(labelSelectorFromObject(selector)) || '<none>';
	} catch (e) {
		if (e instanceof SelectorError) return '<error>';
		throw e;
	}
}

/**
 * labels.FormatLabels (labels/labels.go): `k=v` pairs sorted as whole
 * strings (so `a.b=1` sorts before `a=2`), joined with `,`; `<none>` if empty.
 */
export function formatLabels(labels: Readonly<Record<string, string>> | null | undefined): string {
	const pairs = Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`);
	return pairs.sort(compareGoStrings).join(',') || '<none>';
}

/** labels.SelectorFromSet: `=` requirements for each label (unvalidated), sorted by key; empty → Everything. */
export function selectorFromSet(labels: Readonly<Record<string, string>> | null | undefined): Selector {
	return withRequirements(Object.entries(labels ?? {}).map(([key, v]) => ({ key, operator: '=' as const, values: [v] })));
}

// Lexer and parser for selector strings (labels/selector.go Lexer, Parser).

type Token = 'error' | 'eos' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';
const SYMBOL_TOKENS = new Set<string>([')', ',', '!', '==', '=', '>', '<', '!=', '(']);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSymbol = (c: string) => '=!(),><'.includes(c);

function lex(input: string): { tok: Token; lit: string }[] {
	const items: { tok: Token; lit: string }[] = [];
	let pos = 0;
	for (;;) {
		while (pos < input.length && isSpace(input[pos])) pos++;
		if (pos >= input.length) {
			items.push({ tok: 'eos', lit: '' });
			return items;
		}
		const start = pos;
		if (isSymbol(input[pos])) {
			// Longest run of symbols that still forms a token: `!=` but `=(` → `=`.
			let lit = '';
			while (pos < input.length && isSymbol(input[pos]) && SYMBOL_TOKENS.has(input.slice(start, pos + 1))) lit = input.slice(start, ++pos);
			items.push({ tok: lit as Token, lit });
		} else {
			while (pos < input.length && !isSymbol(input[pos]) && !isSpace(input[pos])) pos++;
			const lit = input.slice(start, pos);
			items.push({ tok: lit === 'in' || lit === 'notin' ? lit : 'id', lit });
		}
	}
}

/**
 * labels.Parse: the selector string syntax `app=nginx,tier!=web,env in
 * (prod, staging),!canary,track`. Whitespace (space, tab, CR, LF) separates
 * tokens. Returns requirements sorted by key; an empty string is
 * Everything. Throws SelectorError with upstream's messages, e.g.
 * `unable to parse requirement: found '', expected: identifier`.
 */
export function parseLabelSelector(text: string): Selector {
	const items = lex(text);
	let position = 0;
	// In value position the keywords `in`/`notin` are plain identifiers.
	const peek = (values = true) => {
		const { tok, lit } = items[position];
		return { tok: values && (tok === 'in' || tok === 'notin') ? ('id' as Token) : tok, lit };
	};
	const next = (values = true) => {
		const item = peek(values);
		position++;
		return item;
	};
	const fail = (message: string): never => {
		throw new SelectorError(message);
	};

	const parseRequirement = (): Requirement => {
		let operator: SelectorOperator | undefined;
		let { tok, lit } = next();
		if (tok === '!') {
			operator = '!';
			({ tok, lit } = next());
		}
		if (tok !== 'id') fail(`found '${lit}', expected: identifier`);
		const key = lit;
		const keyErrs = isQualifiedName(key);
		if (keyErrs.length) fail(invalid('<nil>', goQuote(key), keyErrs.join('; ')));
		const after = peek().tok;
		if (after === 'eos' || after === ',') return newRequirement(key, operator ?? 'exists', []);
		if (operator === '!') return newRequirement(key, '!', []);
		const opItem = next(false);
		const op = ({ in: 'in', notin: 'notin', '=': '=', '==': '==', '!=': '!=', '>': 'gt', '<': 'lt' } as Partial<Record<Token, SelectorOperator>>)[opItem.tok];
		if (!op) return fail(`found '${opItem.lit}', expected: ${BINARY_OPERATORS.join(', ')}`);
		const values = new Set<string>();
		if (op === 'in' || op === 'notin') {
			const open = next();
			if (open.tok !== '(') fail(`found '${open.lit}' expected: '('`);
			const first = peek();
			if (first.tok === ')') {
				next();
				values.add('');
			} else if (first.tok === 'id' || first.tok === ',') {
				parseIdentifierList(values);
				if (next().tok !== ')') fail(`found '${first.lit}', expected: ')'`);
			} else fail(`found '${first.lit}', expected: ',', ')' or identifier`);
		} else {
			const value = peek();
			if (value.tok === 'eos' || value.tok === ',') values.add('');
			else if (next().tok === 'id') values.add(value.lit);
			else fail(`found '${value.lit}', expected: identifier`);
		}
		// sets.String.List(): sorted and deduplicated.
		return newRequirement(key, op, [...values].sort(compareGoStrings));
	};

	// A comma-separated list inside parentheses; empty items are the empty value.
	const parseIdentifierList = (values: Set<string>): void => {
		for (;;) {
			const { tok, lit } = next();
			if (tok === 'id') {
				values.add(lit);
				const after = peek();
				if (after.tok === ')') return;
				if (after.tok !== ',') fail(`found '${after.lit}', expected: ',' or ')'`);
			} else if (tok === ',') {
				if (values.size === 0) values.add('');
				const after = peek().tok;
				if (after === ')') {
					values.add('');
					return;
				}
				if (after === ',') values.add('');
			} else fail(`found '${lit}', expected: ',', or identifier`);
		}
	};

	const requirements: Requirement[] = [];
	for (;;) {
		const { tok, lit } = peek();
		if (tok === 'eos') break;
		if (tok !== 'id' && tok !== '!') fail(`found '${lit}', expected: !, identifier, or 'end of string'`);
		try {
			requirements.push(parseRequirement());
		} catch (e) {
			if (e instanceof SelectorError) fail(`unable to parse requirement: ${e.message}`);
			throw e;
		}
		const sep = next();
		if (sep.tok === 'eos') break;
		if (sep.tok !== ',') fail(`found '${sep.lit}', expected: ',' or 'end of string'`);
		const after = peek();
		if (after.tok !== 'id' && after.tok !== '!') fail(`found '${after.lit}', expected: identifier after ','`);
	}
	return withRequirements(requirements);
}

// ---------------------------------------------------------------------------
// Field selectors (fields/selector.go)

/** One field selector term; `==` is stored as `=` (upstream keeps it as a hasTerm). */
interface FieldTerm {
	readonly field: string;
	readonly operator: '=' | '!=';
	readonly value: string;
}

/** fields.Selector: terms ANDed together, in upstream's order (the raw terms sorted as strings). */
export interface FieldSelector {
	readonly terms: readonly FieldTerm[];
}

/**
 * fields.ParseSelector: `metadata.name=x,spec.nodeName==node-1,status.phase!=Running`.
 * Values may escape `\`, `,` and `=` with a backslash. Throws SelectorError
 * with upstream's messages.
 */
export function parseFieldSelector(text: string): FieldSelector {
	const parts: string[] = [];
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		if (text[i] === '\\') i++;
		else if (text[i] === ',') {
			parts.push(text.slice(start, i));
			start = i + 1;
		}
	}
	if (text.length > 0) parts.push(text.slice(start));
	const terms: FieldTerm[] = [];
	for (const part of parts.sort(compareGoStrings)) {
		if (part === '') continue;
		const m = /!=|==|=/.exec(part);
		if (!m) throw new SelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
		terms.push({ field: part.slice(0, m.index), operator: m[0] === '!=' ? '!=' : '=', value: unescapeFieldValue(part.slice(m.index + m[0].length)) });
	}
	return { terms };
}

/** fields.UnescapeValue. */
function unescapeFieldValue(text: string): string {
	let out = '';
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '\\') {
			const n = text[++i];
			if (n === undefined) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
			if (n !== '\\' && n !== ',' && n !== '=') throw new SelectorError(`invalid field selector: invalid escape sequence: \\${String.fromCodePoint(text.codePointAt(i) ?? 0)}`);
			out += n;
		} else if (c === ',' || c === '=') {
			// Upstream formats the rune with %v, i.e. as its number.
			throw new SelectorError(`invalid field selector: unescaped character in value: ${c.charCodeAt(0)}`);
		} else out += c;
	}
	return out;
}

/** Selector.Matches over a flat map of field values; a missing field reads as `""`, like fields.Set.Get. */
export function matchesFields(selector: FieldSelector, fields: Readonly<Record<string, string>>): boolean {
	return selector.terms.every((t) => ((Object.hasOwn(fields, t.field) ? fields[t.field] : '') === t.value) === (t.operator === '='));
}

/** Selector.String: terms joined with `,`, values re-escaped. */
export function fieldSelectorToString(selector: FieldSelector): string {
	return selector.terms.map((t) => `${t.field}${t.operator}${t.value.replace(/[\\,=]/g, '\\$&')}`).join(',');
}
