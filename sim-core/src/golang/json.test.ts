import { describe, expect, it } from 'vitest';
import { compactJson, compareGoStrings, deepCopy, goQuote, goSortedKeys, isJsonObject, jsonClone, jsonEqual, stringifyJsonLikeKubectl, type JsonValue } from './json.ts';
import { utf8Length, utf8Encode } from './utf8.ts';

describe('kubectl get -o json text', () => {
	it('indents by four spaces, sorts keys, keeps empty containers inline and ends with a newline', () => {
		const pod = {
			kind: 'Pod',
			apiVersion: 'v1',
			metadata: { name: 'web-1', labels: {} },
			spec: { containers: [{ name: 'nginx', args: [], ports: [{ containerPort: 80 }] }], priority: 0, ratio: 1.5, hostNetwork: false, nodeName: null },
		};
		expect(stringifyJsonLikeKubectl(pod)).toBe(
			[
				'{',
				'    "apiVersion": "v1",',
				'    "kind": "Pod",',
				'    "metadata": {',
				'        "labels": {},',
				'        "name": "web-1"',
				'    },',
				'    "spec": {',
				'        "containers": [',
				'            {',
				'                "args": [],',
				'                "name": "nginx",',
				'                "ports": [',
				'                    {',
				'                        "containerPort": 80',
				'                    }',
				'                ]',
				'            }',
				'        ],',
				'        "hostNetwork": false,',
				'        "nodeName": null,',
				'        "priority": 0,',
				'        "ratio": 1.5',
				'    }',
				'}',
				'',
			].join('\n'),
		);
	});

	it('prints scalars and empty containers at the top level', () => {
		expect([stringifyJsonLikeKubectl({}), stringifyJsonLikeKubectl([]), stringifyJsonLikeKubectl('x'), stringifyJsonLikeKubectl(null)]).toEqual(['{}\n', '[]\n', '"x"\n', 'null\n']);
	});

	it('escapes <, > and & as json.MarshalIndent does', () => {
		expect(stringifyJsonLikeKubectl({ note: 'a<b>&c' })).toBe('{\n    "note": "a\\u003cb\\u003e\\u0026c"\n}\n');
	});
});

describe('compact JSON like json.Marshal', () => {
	it.each<[JsonValue, string]>([
		[{ b: 1, a: [true, null, 'x'] }, '{"a":[true,null,"x"],"b":1}'],
		[{ 'app.kubernetes.io/name': 'shop', app: 'web' }, '{"app":"web","app.kubernetes.io/name":"shop"}'],
		['<script>&</script>', '"\\u003cscript\\u003e\\u0026\\u003c/script\\u003e"'],
		['quote " backslash \\ slash /', '"quote \\" backslash \\\\ slash /"'],
		['\b\f\n\r\t', '"\\b\\f\\n\\r\\t"'],
		['\u0000\u0001\u001f\u007f', '"\\u0000\\u0001\\u001f\u007f"'],
		['line\u2028para\u2029', '"line\\u2028para\\u2029"'],
		['é 名 😀', '"é 名 😀"'],
		['lone \ud800 surrogate', '"lone \\ufffd surrogate"'],
		[1e21, '1e+21'],
		[1e20, '100000000000000000000'],
		[1e-7, '1e-7'],
		[0.000001, '0.000001'],
		[-0, '0'],
		[123456789012, '123456789012'],
		[0.1, '0.1'],
	])('encodes %j as %s', (value, text) => {
		expect(compactJson(value)).toBe(text);
	});

	it('sorts keys by UTF-8 bytes, not UTF-16 units', () => {
		// U+FFFD sorts before U+1F600 in Go; JS's default sort puts the surrogate pair first.
		const object = { '😀': 1, '\ufffd': 2, é: 3, b: 4, a: 5, B: 6 };
		expect(compactJson(object)).toBe('{"B":6,"a":5,"b":4,"é":3,"\ufffd":2,"😀":1}');
	});

	it('has no trailing newline (the last-applied-configuration annotation adds one)', () => {
		expect(compactJson({ a: 1 })).toBe('{"a":1}');
	});

	it('refuses NaN and infinities like encoding/json', () => {
		expect(() => compactJson(Number.NaN)).toThrow('json: unsupported value: NaN');
		expect(() => compactJson({ x: Number.POSITIVE_INFINITY })).toThrow('json: unsupported value: +Inf');
	});
});

describe('cloning and comparing JSON values', () => {
	it('clones deeply', () => {
		const original = { a: [1, { b: 'c' }], d: null };
		const copy = jsonClone(original);
		expect(copy).toEqual(original);
		(copy.a[1] as { b: string }).b = 'changed';
		expect(original.a[1]).toEqual({ b: 'c' });
	});

	it('copies a "__proto__" key as data without touching any prototype', () => {
		const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as JsonValue;
		const copy = jsonClone(parsed) as Record<string, JsonValue>;
		expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
		expect(Object.hasOwn(copy, '__proto__')).toBe(true);
		expect(copy['__proto__']).toEqual({ polluted: true });
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		expect(jsonEqual(parsed, copy)).toBe(true);
		expect(compactJson(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
	});

	it.each<[string, unknown]>([
		['undefined members and functions', { a: 1, b: undefined, f: () => 1, nested: { c: undefined, d: 'x' } }],
		['holes in arrays', [1, undefined, () => 2, Symbol('s')]],
		['non-finite numbers', { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, list: [Number.NEGATIVE_INFINITY] }],
		['toJSON', { custom: { toJSON: () => ({ as: 'json' }) }, inList: [{ toJSON: () => 'text' }] }],
		['integer-like keys', { b: 1, 2: 'two', 1: 'one', a: 0 }],
		['a __proto__ key', JSON.parse('{"__proto__": {"polluted": true}, "a": [1]}')],
		['scalars', ['s', 0, -0, true, false, null]],
	])('deepCopy keeps what a JSON round trip keeps: %s', (_, value) => {
		const copy = deepCopy(value);
		expect(JSON.stringify(copy)).toBe(JSON.stringify(JSON.parse(JSON.stringify(value))));
		expect(({} as Record<string, unknown>).polluted).toBeUndefined();
		if (value && typeof value === 'object') expect(copy).not.toBe(value);
	});

	it('deepCopy shares nothing with the original', () => {
		const original = { spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } };
		const copy = deepCopy(original);
		copy.spec.containers[0].ports[0].containerPort = 8080;
		copy.spec.containers.push({ name: 'd', ports: [] });
		expect(original).toEqual({ spec: { containers: [{ name: 'c', ports: [{ containerPort: 80 }] }] } });
	});

	it.each<[JsonValue, JsonValue, boolean]>([
		[1, 1, true],
		[1, '1', false],
		[null, null, true],
		[null, {}, false],
		[{}, [], false],
		[[1, 2], [1, 2], true],
		[[1, 2], [2, 1], false],
		[[1], [1, 1], false],
		[{ a: 1, b: [2] }, { b: [2], a: 1 }, true],
		[{ a: null }, {}, false],
		[{ a: 1 }, { b: 1 }, false],
		[{ a: { b: { c: 'x' } } }, { a: { b: { c: 'y' } } }, false],
	])('jsonEqual(%j, %j) is %s', (a, b, expected) => {
		expect(jsonEqual(a, b)).toBe(expected);
		expect(jsonEqual(b, a)).toBe(expected);
	});

	it('does not mistake an inherited __proto__ for an own key', () => {
		const own = JSON.parse('{"__proto__": 1}') as JsonValue;
		expect(jsonEqual(own, {})).toBe(false);
		expect(jsonEqual({}, own)).toBe(false);
	});
});

describe('Go string helpers', () => {
	it.each([
		['abc', '"abc"'],
		['a"b\\c', '"a\\"b\\\\c"'],
		['tab\tnl\n', '"tab\\tnl\\n"'],
		['\x07\x0b', '"\\a\\v"'],
		['\x00\x7f', '"\\x00\\x7f"'],
		['é名😀', '"é名😀"'],
		['\u00a0', '"\\u00a0"'],
		['\u{e0001}', '"\\U000e0001"'],
	])('strconv.Quote(%j) is %s', (text, quoted) => {
		expect(goQuote(text)).toBe(quoted);
	});

	it.each([
		['a', 1],
		['é', 2],
		['名', 3],
		['😀', 4],
		['ab名😀', 9],
	])('len(%j) is %d bytes', (text, n) => {
		expect(utf8Length(text)).toBe(n);
		expect(utf8Encode(text)).toHaveLength(n);
	});

	it('encodes UTF-8 bytes', () => {
		expect(utf8Encode('aé😀')).toEqual([0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80]);
	});

	it('orders strings as Go does', () => {
		expect(['b', 'a', 'ab', '', '😀', '\ufffd', 'B'].sort(compareGoStrings)).toEqual(['', 'B', 'a', 'ab', 'b', '\ufffd', '😀']);
		expect(goSortedKeys({ z: 1, a: 2 })).toEqual(['a', 'z']);
		expect([isJsonObject({}), isJsonObject([]), isJsonObject(null)]).toEqual([true, false, false]);
	});
});
