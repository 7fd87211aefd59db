import { describe, expect, it } from 'vitest';
import {
	EVERYTHING,
	NOTHING,
	SelectorError,
	fieldSelectorToString,
	formatLabelSelector,
	formatLabels,
	isDNS1035Label,
	isDNS1123Label,
	isDNS1123Subdomain,
	isEmptySelector,
	isQualifiedName,
	isValidLabelValue,
	labelSelectorFromObject,
	matches,
	matchesFields,
	newRequirement,
	parseFieldSelector,
	parseLabelSelector,
	selectorFromSet,
	selectorToString,
	type MetaLabelSelector,
} from './labels.ts';

// Upstream message texts (apimachinery util/validation and validate/content), written out in full.
const DNS1123_LABEL =
	"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1123_SUBDOMAIN =
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035_LABEL =
	"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const KEY_NAME =
	"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const KEY_SLASHES =
	"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";
const LABEL_VALUE =
	"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('name and label validation', () => {
	it.each([
		['a', []],
		['my-name', []],
		['123-abc', []],
		['a'.repeat(63), []],
		['', [DNS1123_LABEL]],
		['My-name', [DNS1123_LABEL]],
		['-a', [DNS1123_LABEL]],
		['a-', [DNS1123_LABEL]],
		['a_b', [DNS1123_LABEL]],
		['a.b', ['must not contain dots']],
		['a'.repeat(64), ['must be no more than 63 characters']],
		['A'.repeat(64), ['must be no more than 63 characters', DNS1123_LABEL]],
	])('IsDNS1123Label(%j)', (value, errors) => {
		expect(isDNS1123Label(value)).toEqual(errors);
	});

	it.each([
		['example.com', []],
		['a', []],
		['a.b-c.d', []],
		['1.2.3.4', []],
		[`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`, []],
		['', [DNS1123_SUBDOMAIN]],
		['Example.com', [DNS1123_SUBDOMAIN]],
		['a..b', [DNS1123_SUBDOMAIN]],
		['a.', [DNS1123_SUBDOMAIN]],
		['a_b.com', [DNS1123_SUBDOMAIN]],
		['a'.repeat(254), ['must be no more than 253 characters']],
	])('IsDNS1123Subdomain(%j)', (value, errors) => {
		expect(isDNS1123Subdomain(value)).toEqual(errors);
	});

	it.each([
		['my-service', []],
		['a1', []],
		['1abc', [DNS1035_LABEL]],
		['abc-', [DNS1035_LABEL]],
		['a.b', [DNS1035_LABEL]],
		['a'.repeat(64), ['must be no more than 63 characters']],
	])('IsDNS1035Label(%j)', (value, errors) => {
		expect(isDNS1035Label(value)).toEqual(errors);
	});

	it.each([
		['simple', []],
		['1-starts-with-num', []],
		['Uppercase_Is_OK_123', []],
		['example.com/Uppercase_Is_OK_123', []],
		['app.kubernetes.io/name', []],
		['1.2.3.4/5678', []],
		['a'.repeat(63), []],
		[`${'a'.repeat(253)}/${'b'.repeat(63)}`, []],
		['nospecialchars%^=@', [KEY_NAME]],
		['cantendwithadash-', [KEY_NAME]],
		['only/one/slash', [KEY_SLASHES]],
		['Example.com/abc', [`prefix part ${DNS1123_SUBDOMAIN}`]],
		['example_com/abc', [`prefix part ${DNS1123_SUBDOMAIN}`]],
		['example.com/', ['name part must be non-empty', KEY_NAME]],
		['/simple', ['prefix part must be non-empty']],
		['', ['name part must be non-empty', KEY_NAME]],
		// Label keys use validate/content, whose length message says bytes.
		['a'.repeat(64), ['name part must be no more than 63 bytes']],
		[`${'a'.repeat(254)}/abc`, ['prefix part must be no more than 253 bytes']],
	])('IsQualifiedName(%j)', (value, errors) => {
		expect(isQualifiedName(value)).toEqual(errors);
	});

	it.each([
		['', []],
		['simple', []],
		['end-with-num-1', []],
		['1234', []],
		['a'.repeat(63), []],
		['-starts-with-dash', [LABEL_VALUE]],
		['has space', [LABEL_VALUE]],
		['a'.repeat(64), ['must be no more than 63 bytes']],
		// 32 two-byte characters are 64 bytes: too long, and not in the alphabet.
		['é'.repeat(32), ['must be no more than 63 bytes', LABEL_VALUE]],
	])('IsValidLabelValue(%j)', (value, errors) => {
		expect(isValidLabelValue(value)).toEqual(errors);
	});
});

describe('parsing label selector strings', () => {
	it.each([
		['app=nginx', 'app=nginx'],
		['app==nginx', 'app==nginx'],
		['tier!=frontend', 'tier!=frontend'],
		['env in (prod, staging)', 'env in (prod,staging)'],
		['env in (staging,prod,prod)', 'env in (prod,staging)'],
		['env notin (dev)', 'env notin (dev)'],
		['key', 'key'],
		['!key', '!key'],
		['b=2,a=1', 'a=1,b=2'],
		['  app = nginx ,\ttier in(web)\n', 'app=nginx,tier in (web)'],
		['x in (a,,b)', 'x in (,a,b)'],
		['x in (,a)', 'x in (,a)'],
		['x in (a,)', 'x in (,a)'],
		['x in ()', 'x in ()'],
		['x=', 'x='],
		['x=,y', 'x=,y'],
		['x in (in,notin)', 'x in (in,notin)'],
		['in=notin', 'in=notin'],
		['replicas>2', 'replicas>2'],
		['replicas<10', 'replicas<10'],
		['example.com/tier=web,app.kubernetes.io/name=shop', 'app.kubernetes.io/name=shop,example.com/tier=web'],
		['a=1,a=2', 'a=1,a=2'],
		['', ''],
		['   ', ''],
	])('parses %j and prints %j', (text, canonical) => {
		expect(selectorToString(parseLabelSelector(text))).toBe(canonical);
	});

	it.each([
		['a b', "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"],
		['a !b', "unable to parse requirement: found '!', expected: in, notin, =, ==, !=, gt, lt"],
		['!', "unable to parse requirement: found '', expected: identifier"],
		['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
		['app in', "unable to parse requirement: found '' expected: '('"],
		['app in prod', "unable to parse requirement: found 'prod' expected: '('"],
		['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
		['x in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
		['x in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
		['x in (a,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
		['x=(a)', "unable to parse requirement: found '(', expected: identifier"],
		['a=b=c', "found '=', expected: ',' or 'end of string'"],
		['!a=b', "found '=', expected: ',' or 'end of string'"],
		['a=1,', "found '', expected: identifier after ','"],
		['a=1,=', "found '=', expected: identifier after ','"],
		[',a', "found ',', expected: !, identifier, or 'end of string'"],
		['-bad=1', `unable to parse requirement: <nil>: Invalid value: "-bad": ${KEY_NAME}`],
		[`app=${'a'.repeat(64)}`, `unable to parse requirement: values[0][app]: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`],
		['app=-x', `unable to parse requirement: values[0][app]: Invalid value: "-x": ${LABEL_VALUE}`],
		['x in (-a,-b)', `unable to parse requirement: [values[0][x]: Invalid value: "-a": ${LABEL_VALUE}, values[1][x]: Invalid value: "-b": ${LABEL_VALUE}]`],
		['x>abc', `unable to parse requirement: values[0]: Invalid value: "abc": for 'Gt', 'Lt' operators, the value must be an integer`],
	])('rejects %j', (text, message) => {
		expect(() => parseLabelSelector(text)).toThrow(new SelectorError(message));
	});
});

describe('matching labels', () => {
	const labels = { app: 'web', tier: 'frontend', env: 'prod', replicas: '3' };
	it.each([
		['app=web', true],
		['app==web', true],
		['app=db', false],
		['tier!=frontend', false],
		['tier!=backend', true],
		['missing!=x', true],
		['env in (prod,staging)', true],
		['env in (dev)', false],
		['env notin (prod)', false],
		['missing notin (x)', true],
		['missing in (x)', false],
		['missing=', false],
		['app', true],
		['missing', false],
		['!app', false],
		['!missing', true],
		['replicas>2', true],
		['replicas>3', false],
		['replicas<3', false],
		['replicas<4', true],
		['app>1', false],
		['missing<1', false],
		['app=web,env=prod', true],
		['app=web,env=dev', false],
		['', true],
	])('%j matches: %s', (text, expected) => {
		expect(matches(parseLabelSelector(text), labels)).toBe(expected);
	});

	it('tells Everything (matches all) from Nothing (matches none)', () => {
		expect(matches(EVERYTHING, {})).toBe(true);
		expect(matches(EVERYTHING, labels)).toBe(true);
		expect(matches(NOTHING, labels)).toBe(false);
		expect(matches(NOTHING, {})).toBe(false);
		expect([isEmptySelector(EVERYTHING), isEmptySelector(NOTHING), isEmptySelector(parseLabelSelector('a'))]).toEqual([true, false, false]);
		expect([selectorToString(EVERYTHING), selectorToString(NOTHING)]).toEqual(['', '']);
	});

	it('treats missing labels as an empty set and ignores inherited properties', () => {
		expect(matches(parseLabelSelector('!app'), undefined)).toBe(true);
		expect(matches(parseLabelSelector('toString'), {})).toBe(false);
		expect(matches(parseLabelSelector('constructor notin (x)'), {})).toBe(true);
	});
});

describe('converting a metav1.LabelSelector', () => {
	it.each<[MetaLabelSelector | null | undefined, string, string]>([
		[null, '', '<none>'],
		[undefined, '', '<none>'],
		[{}, '', '<none>'],
		[{ matchLabels: {}, matchExpressions: [] }, '', '<none>'],
		[{ matchLabels: { app: 'nginx' } }, 'app=nginx', 'app=nginx'],
		[
			{
				matchLabels: { tier: 'web', app: 'nginx' },
				matchExpressions: [
					{ key: 'env', operator: 'In', values: ['staging', 'prod'] },
					{ key: 'canary', operator: 'DoesNotExist' },
				],
			},
			'app=nginx,!canary,env in (prod,staging),tier=web',
			'app=nginx,!canary,env in (prod,staging),tier=web',
		],
		[{ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['dev'] }, { key: 'gpu', operator: 'Exists' }] }, 'env notin (dev),gpu', 'env notin (dev),gpu'],
		[{ matchLabels: { app: '-x' } }, '<error>', '<error>'],
	])('%j prints as %j (describe: %j)', (object, text, described) => {
		if (text !== '<error>') expect(selectorToString(labelSelectorFromObject(object))).toBe(text);
		expect(formatLabelSelector(object)).toBe(described);
	});

	it('matches nothing for a nil selector and everything for an empty one', () => {
		expect(matches(labelSelectorFromObject(null), { app: 'x' })).toBe(false);
		expect(matches(labelSelectorFromObject({}), { app: 'x' })).toBe(true);
		expect(matches(labelSelectorFromObject({ matchLabels: { app: 'x' } }), { app: 'x', other: 'y' })).toBe(true);
	});

	it.each<[MetaLabelSelector, string]>([
		[{ matchExpressions: [{ key: 'a', operator: 'Foo', values: ['x'] }] }, '"Foo" is not a valid label selector operator'],
		[{ matchExpressions: [{ key: 'a', operator: 'In', values: [] }] }, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
		[{ matchExpressions: [{ key: 'a', operator: 'NotIn' }] }, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
		[{ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] }, 'values: Invalid value: ["x"]: values set must be empty for exists and does not exist'],
		[{ matchExpressions: [{ key: 'bad key', operator: 'Exists' }] }, `key: Invalid value: "bad key": ${KEY_NAME}`],
		[{ matchLabels: { app: '-x' } }, `values[0][app]: Invalid value: "-x": ${LABEL_VALUE}`],
		[{ matchLabels: { '-k': '-v' } }, `[key: Invalid value: "-k": ${KEY_NAME}, values[0][-k]: Invalid value: "-v": ${LABEL_VALUE}]`],
	])('rejects %j', (object, message) => {
		expect(() => labelSelectorFromObject(object)).toThrow(new SelectorError(message));
	});

	it('validates requirements built directly', () => {
		expect(newRequirement('app', 'in', ['b', 'a'])).toEqual({ key: 'app', operator: 'in', values: ['b', 'a'] });
		expect(() => newRequirement('app', '=', ['a', 'b'])).toThrow('values: Invalid value: ["a","b"]: exact-match compatibility requires one single value');
		expect(() => newRequirement('app', 'gt', [])).toThrow("values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required");
	});
});

describe('formatting label sets', () => {
	it('sorts whole k=v strings for FormatLabels but keys for a selector', () => {
		const set = { a: '2', 'a.b': '1' };
		// '.' (0x2E) sorts before '=' (0x3D), so "a.b=1" comes first as a string...
		expect(formatLabels(set)).toBe('a.b=1,a=2');
		// ...while requirements are sorted by key, and "a" < "a.b".
		expect(selectorToString(selectorFromSet(set))).toBe('a=2,a.b=1');
	});

	it.each([
		[{}, '<none>'],
		[null, '<none>'],
		[{ tier: 'web', app: 'nginx' }, 'app=nginx,tier=web'],
		[{ 'node-role.kubernetes.io/control-plane': '' }, 'node-role.kubernetes.io/control-plane='],
	])('FormatLabels(%j) is %j', (set, text) => {
		expect(formatLabels(set)).toBe(text);
	});

	it('makes an Everything selector from an empty set', () => {
		expect(selectorFromSet({})).toEqual(EVERYTHING);
		expect(matches(selectorFromSet({ app: 'x' }), { app: 'x' })).toBe(true);
		expect(matches(selectorFromSet({ app: 'x' }), { app: 'y' })).toBe(false);
	});
});

describe('field selectors', () => {
	it.each([
		['metadata.name=x,spec.nodeName=node-1,status.phase!=Running', 'metadata.name=x,spec.nodeName=node-1,status.phase!=Running'],
		['status.phase!=Running,metadata.name=x', 'metadata.name=x,status.phase!=Running'],
		['spec.nodeName==node-1', 'spec.nodeName=node-1'],
		['a=x\\,y', 'a=x\\,y'],
		['a=x\\=y\\\\z', 'a=x\\=y\\\\z'],
		['a=1,,b=2', 'a=1,b=2'],
		['a=', 'a='],
		['', ''],
	])('parses %j and prints %j', (text, canonical) => {
		expect(fieldSelectorToString(parseFieldSelector(text))).toBe(canonical);
	});

	it('unescapes values', () => {
		expect(parseFieldSelector('a=x\\,y').terms).toEqual([{ field: 'a', operator: '=', value: 'x,y' }]);
	});

	it.each([
		['abc', "invalid selector: 'abc'; can't understand 'abc'"],
		['a=1,b', "invalid selector: 'a=1,b'; can't understand 'b'"],
		['a=b=c', 'invalid field selector: unescaped character in value: 61'],
		['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
		['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
	])('rejects %j', (text, message) => {
		expect(() => parseFieldSelector(text)).toThrow(new SelectorError(message));
	});

	const fields = { 'metadata.name': 'web-1', 'metadata.namespace': 'default', 'spec.nodeName': 'node-1', 'status.phase': 'Running' };
	it.each([
		['spec.nodeName=node-1', true],
		['spec.nodeName==node-2', false],
		['status.phase!=Running', false],
		['status.phase!=Pending', true],
		['spec.nodeName=', false],
		['spec.missing=', true],
		['spec.missing!=x', true],
		['metadata.name=web-1,status.phase=Running', true],
		['metadata.name=web-1,status.phase=Failed', false],
		['', true],
	])('%j matches: %s', (text, expected) => {
		expect(matchesFields(parseFieldSelector(text), fields)).toBe(expected);
	});
});
