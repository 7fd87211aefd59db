import { describe, expect, it } from 'vitest';
import { parseYaml, parseYamlDocuments, YamlError } from './index.ts';

/** Parses and returns the error, failing the test if there is none. */
function errorOf(text: string): YamlError {
	try {
		parseYamlDocuments(text);
	} catch (e) {
		if (e instanceof YamlError) return e;
		throw e;
	}
	throw new Error(`expected a YamlError for ${JSON.stringify(text)}`);
}

describe('plain scalars resolve like go-yaml v2 (YAML 1.1)', () => {
	it.each([
		['~', null],
		['null', null],
		['Null', null],
		['NULL', null],
		['', null],
		['true', true],
		['True', true],
		['TRUE', true],
		['false', false],
		['y', true],
		['Y', true],
		['yes', true],
		['Yes', true],
		['YES', true],
		['n', false],
		['N', false],
		['no', false],
		['No', false],
		['NO', false],
		['on', true],
		['On', true],
		['ON', true],
		['off', false],
		['Off', false],
		['OFF', false],
		['yES', 'yES'],
		['nULL', 'nULL'],
		['0', 0],
		['42', 42],
		['-17', -17],
		['+12', 12],
		['1_000_000', 1000000],
		['0x1F', 31],
		['-0x1F', -31],
		['0b101', 5],
		['0755', 493],
		['0o17', 15],
		['08', 8],
		['09.5', 9.5],
		['0x', '0x'],
		['0b12', '0b12'],
		['1.5', 1.5],
		['-1e3', -1000],
		['1e+06', 1000000],
		['.5', 0.5],
		['1.', 1],
		['.inf', Infinity],
		['-.Inf', -Infinity],
		['+.INF', Infinity],
		['.nan', NaN],
		['1e400', '1e400'],
		['12345678901234567890', 12345678901234567890],
		['2024-01-15', '2024-01-15'],
		['2024-01-15T10:00:00Z', '2024-01-15T10:00:00Z'],
		['1:20', '1:20'],
		['nginx:1.25', 'nginx:1.25'],
		['-x', '-x'],
		['.', '.'],
		['<<', '<<'],
	])('reads %j as %j', (text, expected) => {
		expect(parseYaml(`v: ${text}`)).toEqual({ v: expected });
	});

	it('never types quoted or block scalars', () => {
		expect(parseYaml('a: "123"\nb: \'true\'\nc: |-\n  null\nd: >-\n  0x10\n')).toEqual({ a: '123', b: 'true', c: 'null', d: '0x10' });
	});
});

describe('mapping keys always become strings, as sigs.k8s.io/yaml converts them for JSON', () => {
	it.each([
		['1', '1'],
		['0x10', '16'],
		['0755', '493'],
		['1.5', '1.5'],
		['1.0', '1'],
		['1e6', '1e+06'],
		['0.1', '0.1'],
		['true', 'true'],
		['y', 'true'],
		['yes', 'true'],
		['n', 'false'],
		['off', 'false'],
		['"yes"', 'yes'],
		['.inf', '.inf'],
		['18446744073709551615', '18446744073709551615'],
		['2024-01-15', '2024-01-15'],
	])('turns the key %s into %j', (key, expected) => {
		expect(Object.keys(parseYaml(`${key}: v`) as object)).toEqual([expected]);
	});

	it('keeps constructor and prototype as ordinary own keys without touching prototypes', () => {
		const v = parseYaml('constructor: 1\nprototype: 2\ntoString: 3\n') as Record<string, unknown>;
		expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
		expect(Object.keys(v)).toEqual(['constructor', 'prototype', 'toString']);
		expect(v.constructor).toBe(1);
		expect(({} as Record<string, unknown>).prototype).toBeUndefined();
	});
});

describe('block structure', () => {
	it('reads a typical Pod manifest with compact sequences under their keys', () => {
		const text = `apiVersion: v1
kind: Pod
metadata:
  name: nginx
  labels:
    app: web
spec:
  containers:
  - name: nginx
    image: nginx:1.25
    ports:
    - containerPort: 80
      protocol: TCP
    env:
      - name: MODE
        value: "production"
`;
		expect(parseYaml(text)).toEqual({
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'nginx', labels: { app: 'web' } },
			spec: {
				containers: [
					{
						name: 'nginx',
						image: 'nginx:1.25',
						ports: [{ containerPort: 80, protocol: 'TCP' }],
						env: [{ name: 'MODE', value: 'production' }],
					},
				],
			},
		});
	});

	it.each([
		['nested sequences', '- - a\n  - b\n- c\n', [['a', 'b'], 'c']],
		['empty sequence items', '- \n- a\n-\n', [null, 'a', null]],
		['empty values', 'a:\nb: ~\nc: ""\n', { a: null, b: null, c: '' }],
		['a mapping inside a compact sequence inside a sequence item', 'a:\n- b:\n  - c\n  d: e\n', { a: [{ b: ['c'], d: 'e' }] }],
		['spaces before the colon', 'a   : 1\n', { a: 1 }],
		['a key without a space after the colon as a plain scalar', 'name:nginx\n', 'name:nginx'],
		['colons and hashes inside plain scalars', 'url: http://x:80/a?b=c#frag\nd: e#f\n', { url: 'http://x:80/a?b=c#frag', d: 'e#f' }],
		['a tab after the colon as a separator', 'a:\tb\n', { a: 'b' }],
		['a top-level scalar', 'hello world\n', 'hello world'],
	])('reads %s', (_name, text, expected) => {
		expect(parseYaml(text)).toEqual(expected);
	});

	it('skips comments wherever they may appear', () => {
		const text = '# top\na: 1 # after a value\nb: # after a key\n  - x # after an item\n  # indented\nc: "q" # after a quote\n# bottom';
		expect(parseYaml(text)).toEqual({ a: 1, b: ['x'], c: 'q' });
	});

	it('reports positions in Windows-style input as an editor shows them', () => {
		expect(() => parseYaml('a: 1\r\nb: c: d\r\n')).toThrow('yaml: line 2, column 5: mapping values are not allowed in this context');
	});

	it('treats U+2028 and U+0085 in the input as ordinary characters (YAML 1.2), not as line breaks', () => {
		expect(parseYaml('a: x\u2028y\u0085z')).toEqual({ a: 'x\u2028y\u0085z' });
	});

	it('accepts Windows line endings and a leading byte order mark', () => {
		expect(parseYaml('\uFEFFa: 1\r\nb:\r\n  - x\r\nc: |\r\n  l1\r\n  l2\r\n')).toEqual({ a: 1, b: ['x'], c: 'l1\nl2\n' });
	});
});

describe('flow collections', () => {
	it.each([
		['a flow mapping with a nested sequence', '{a: 1, b: [x, z]}', { a: 1, b: ['x', 'z'] }],
		['JSON', '{"a":1, "b": [true, null, "x", 1.5]}', { a: 1, b: [true, null, 'x', 1.5] }],
		['a flow collection spread over lines with a trailing comma', 'args: [\n  "a",\n  b,\n]\n', { args: ['a', 'b'] }],
		['keys without values', '{a, b: 2}', { a: null, b: 2 }],
		['a one-pair mapping inside a sequence', '[a: 1, b]', [{ a: 1 }, 'b']],
		['empty collections', 'a: []\nb: {}\n', { a: [], b: {} }],
		['a colon without a space inside a plain flow scalar', '[a:b, "c":d]', ['a:b', { c: 'd' }]],
	])('reads %s', (_name, text, expected) => {
		expect(parseYaml(text)).toEqual(expected);
	});
});

describe('multi-line scalars', () => {
	it.each([
		['a plain scalar folded over lines', 'd: this is\n  a long text\n\n  new para\nnext: 1\n', { d: 'this is a long text\nnew para', next: 1 }],
		['a double-quoted scalar folded over lines', 'a: "one\n  two\n\n  three \\\n  four"\n', { a: 'one two\nthree four' }],
		['a single-quoted scalar folded over lines', "a: 'x\n\n  y'\n", { a: 'x\ny' }],
		['trailing blanks before a quoted line break', 'a: "x   \n  y"\n', { a: 'x y' }],
		['an escaped space kept before a line break', 'a: "x\\ \n  y"\n', { a: 'x  y' }],
	])('reads %s', (_name, text, expected) => {
		expect(parseYaml(text)).toEqual(expected);
	});

	it.each([
		['literal, clipped', 'a: |\n  x\n  y\n\nb: 1', 'x\ny\n'],
		['literal, stripped', 'a: |-\n  x\n\nb: 1', 'x'],
		['literal, kept', 'a: |+\n  x\n\n\nb: 1', 'x\n\n\n'],
		['literal with an indentation indicator', 'a: |2\n    two more\n  base\n', '  two more\nbase\n'],
		['literal with indicators in the other order', 'a: |-2\n   x\n', ' x'],
		['literal with a comment on the header line', 'a: | # note\n  x\n', 'x\n'],
		['literal keeping inner blank lines and hashes', 'a: |\n  x\n\n  # not a comment\n', 'x\n\n# not a comment\n'],
		['literal ending without a final newline', 'a: |\n  x', 'x'],
		['empty literal', 'a: |\nb: 1', ''],
		['folded, lines joined with spaces', 'a: >\n  fold\n  me\n\n  para\n', 'fold me\npara\n'],
		['folded, more-indented lines kept', 'a: >-\n  fold\n    kept\n  back\n', 'fold\n  kept\nback'],
		['literal as a sequence item', '- |\n  x\n- y', 'x\n'],
		['literal as the whole document', '--- |\n  top\n', 'top\n'],
	])('reads a block scalar: %s', (_name, text, expected) => {
		const v = parseYamlDocuments(text)[0];
		expect(Array.isArray(v) ? v[0] : typeof v === 'string' ? v : (v as { a: unknown }).a).toBe(expected);
	});

	it('decodes every double-quoted escape', () => {
		expect(parseYaml('a: "\\x41\\u00e9\\U0001F600\\t\\"\\\\\\/\\N\\_\\L\\P\\0\\a\\b\\v\\f\\r\\e\\ \\\t"')).toEqual({
			a: 'A\u00e9\u{1F600}\t"\\/\x85\xa0\u2028\u2029\0\x07\b\v\f\r\x1b \t',
		});
	});

	it("reads '' inside single quotes as one quote and a backslash as itself", () => {
		expect(parseYaml("a: 'it''s'\nb: 'C:\\dir\\ x'")).toEqual({ a: "it's", b: 'C:\\dir\\ x' });
	});
});

describe('documents and directives', () => {
	it.each([
		['several documents', 'a: 1\n---\nb: 2\n', [{ a: 1 }, { b: 2 }]],
		['empty documents, skipped as kubectl does', '---\n---\n# only a comment\n---\na: 1\n---\n', [{ a: 1 }]],
		['an empty stream', '', []],
		['a stream of comments only', '# nothing\n# here\n', []],
		['content on the document start line', '--- {a: 1}\n--- "s"\n', [{ a: 1 }, 's']],
		['document end markers', 'a: 1\n...\n---\nb: 2\n...\n', [{ a: 1 }, { b: 2 }]],
		['%YAML and %TAG directives, ignored', '%YAML 1.1\n%TAG ! tag:example.com,2000:\n---\na: 1\n', [{ a: 1 }]],
		['an explicit null document, kept', '--- null\n', [null]],
	])('reads %s', (_name, text, expected) => {
		expect(parseYamlDocuments(text)).toEqual(expected);
	});

	it('forgets anchors at the end of each document', () => {
		expect(() => parseYamlDocuments('a: &x 1\n---\nb: *x\n')).toThrow('line 3, column 4: found undefined alias "x"');
	});

	it('parseYaml returns null for an empty input and refuses a second document', () => {
		expect(parseYaml('# nothing')).toBeNull();
		expect(() => parseYaml('a: 1\n---\nb: 2\n')).toThrow('line 3, column 1: expected a single document but found more');
	});
});

describe('anchors, aliases and merge keys', () => {
	it('copies aliased values instead of sharing them', () => {
		const v = parseYaml('a: &x {list: [1]}\nb: *x\nc: *x\n') as Record<string, { list: number[] }>;
		expect(v.b).toEqual({ list: [1] });
		v.b.list.push(2);
		expect(v.a.list).toEqual([1]);
		expect(v.c.list).toEqual([1]);
	});

	it('reads an alias used as a key and an anchor on a compact sequence', () => {
		expect(parseYaml('k: &k name\n*k : v\nl: &l\n- 1\nm: *l\n')).toEqual({ k: 'name', name: 'v', l: [1], m: [1] });
	});

	it.each([
		['a single merged map, overridden by later keys', 'b: &b {x: 1, z: 1}\nc:\n  <<: *b\n  z: 2\n', { x: 1, z: 2 }],
		['a list of merged maps where earlier maps win', 'p: &p {x: 1}\nq: &q {x: 2, w: 2}\nc:\n  <<: [*p, *q]\n', { x: 1, w: 2 }],
		['an inline merged map', 'c:\n  <<: {x: 1}\n  w: 2\n', { x: 1, w: 2 }],
		// go-yaml v2 applies a merge where it stands, so it overrides keys written before it.
		['a merge after an explicit key, which it overrides', 'b: &b {x: 1}\nc:\n  x: 0\n  <<: *b\n', { x: 1 }],
		['a quoted << as an ordinary key', 'c:\n  "<<": {x: 1}\n', { '<<': { x: 1 } }],
	])('merges %s', (_name, text, expected) => {
		expect((parseYaml(text) as { c: unknown }).c).toEqual(expected);
	});

	it('does not share merged values between mappings', () => {
		const v = parseYaml('b: &b {l: [1]}\nc:\n  <<: *b\nd:\n  <<: *b\n') as Record<string, { l: number[] }>;
		v.c.l.push(2);
		expect(v.d.l).toEqual([1]);
		expect(v.b.l).toEqual([1]);
	});
});

describe('tags', () => {
	it.each([
		['!!str 123', '123'],
		['!!int "7"', 7],
		['!!float 1', 1],
		['!!bool "yes"', true],
		['!!null ""', null],
		['!!binary aGVsbG8=', 'aGVsbG8='],
		['!<tag:yaml.org,2002:int> "42"', 42],
		['!custom 12', '12'],
		['!!str', ''],
		['!!map {a: 1}', { a: 1 }],
		['!!seq [1]', [1]],
	])('reads %s', (text, expected) => {
		expect(parseYaml(`v: ${text}`)).toEqual({ v: expected });
	});

	it('refuses a value its tag cannot hold', () => {
		expect(errorOf('v: !!int abc').reason).toBe('cannot decode !!str `abc` as a !!int');
	});
});

describe('errors name the go-yaml reason and the offending position', () => {
	it.each([
		['a key indented less than its siblings', 'metadata:\n  name: x\n labels: y\n', 'did not find expected key', 3, 2],
		['a key indented more than its siblings', 'metadata:\n  name: x\n    labels: y\n', 'mapping values are not allowed in this context', 3, 11],
		['a second colon on one line', 'a: b: c\n', 'mapping values are not allowed in this context', 1, 5],
		['a tab used for indentation', 'a:\n\tb: 1\n', 'found character that cannot start any token', 2, 1],
		['a tab after a dash', '-\tb\n', 'found character that cannot start any token', 1, 2],
		['an unterminated double quote', 'a: "abc\nb: 1\n', 'found unexpected end of stream', 1, 4],
		['an unterminated single quote', "a: 'abc", 'found unexpected end of stream', 1, 4],
		['an unclosed flow sequence at the end', 'a: [1, 2', "did not find expected ',' or ']'", 1, 4],
		['an unclosed flow sequence before more keys', 'a: [1, 2\nb: 3\n', "did not find expected ',' or ']'", 2, 2],
		['an unclosed flow mapping', 'a: {x: 1', "did not find expected ',' or '}'", 1, 4],
		['a stray dash item inside a mapping', 'metadata:\n  name: x\n  - foo\n', 'did not find expected key', 3, 3],
		['a dash item after a top-level mapping', 'a: 1\n- b\n', 'did not find expected key', 2, 1],
		['a key inside a sequence', 'items:\n  - a\n  b: 1\n', "did not find expected '-' indicator", 3, 3],
		['a line without a colon in a mapping', 'a: 1\nb\nc: 2\n', "could not find expected ':'", 2, 1],
		['a sequence on the key line', 'key: - a\n', 'block sequence entries are not allowed in this context', 1, 6],
		['content after the document start on a mapping line', '--- a: b\n', 'mapping values are not allowed in this context', 1, 6],
		['a duplicate key', 'a: 1\nb: 2\na: 3\n', 'key "a" already set in map', 3, 1],
		['a duplicate key spelled differently', 'true: 1\nyes: 2\n', 'key "true" already set in map', 2, 1],
		['the __proto__ key', 'x:\n  __proto__: {polluted: 1}\n', 'key "__proto__" is not allowed', 2, 3],
		['an undefined alias', 'a: *x\n', 'found undefined alias "x"', 1, 4],
		['a self-referencing anchor', 'a: &x [*x]\n', 'anchor "x" value contains itself', 1, 8],
		['an explicit key', '? a\n: b\n', 'explicit mapping keys ("? ") are not supported', 1, 1],
		['a flow sequence as a key', '[a, b]: c\n', 'complex (non-scalar) mapping keys are not supported', 1, 1],
		['a null key', '~: 1\n', 'null mapping keys are not supported', 1, 1],
		['a merge of a sequence of scalars', 'a: &a [1]\nb:\n  <<: *a\n', 'map merge requires map or sequence of maps as the value', 3, 3],
		['an unknown escape', 'a: "\\q"\n', 'found unknown escape character', 1, 5],
		['a short hex escape', 'a: "\\x4"\n', 'did not find expected hexdecimal number', 1, 5],
		['a document marker inside a quoted scalar', 'a: "x\n---\n"', 'found unexpected document indicator', 2, 1],
		['a control character', 'a: b\x01\n', 'control characters are not allowed', 1, 5],
		['an indentation indicator of zero', 'a: |0\n  x\n', 'found an indentation indicator equal to 0', 1, 5],
		['text after a block scalar header', 'a: |x\n', 'did not find expected comment or line break', 1, 5],
		['a reserved indicator', 'a: @x\n', 'found character that cannot start any token', 1, 4],
		['a bad anchor name', 'a: &[x]\n', 'did not find expected alphabetic or numeric character', 1, 5],
		['a stray closing bracket', ']\n', 'did not find expected node content', 1, 1],
		['content after the root node', '"a"\n]\n', 'did not find expected <document start>', 2, 1],
		['a closing bracket after a mapping', 'a: 1\n]\n', 'did not find expected key', 2, 1],
	])('reports %s', (_name, text, reason, line, column) => {
		const e = errorOf(text);
		expect({ reason: e.reason, line: e.line, column: e.column }).toEqual({ reason, line, column });
		expect(e.message).toBe(`yaml: line ${line}, column ${column}: ${reason}`);
		expect(e).toBeInstanceOf(Error);
	});
});

describe('limits', () => {
	it('takes partial limits and keeps the defaults for the rest', () => {
		expect(() => parseYamlDocuments('a: [[1]]', { maxDepth: 2 })).toThrow('exceeded max depth of 2');
		expect(parseYamlDocuments('a: [1]', { maxDepth: 2 })).toEqual([{ a: [1] }]);
		expect(() => parseYamlDocuments('a: xxxxx', { maxScalarLength: 4 })).toThrow('scalar exceeds the maximum length of 4 characters');
		expect(() => parseYamlDocuments('a\n---\nb\n---\nc', { maxDocuments: 2 })).toThrow('line 4, column 1: stream contains more than 2 documents');
	});
});
