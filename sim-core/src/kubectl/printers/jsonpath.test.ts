import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../golang/json.ts';
import { JsonPathError, customColumns, executeJsonPath, findJsonPathResults, parseJsonPath, relaxedJsonPathExpression } from './jsonpath.ts';

const podList: JsonObject = {
	apiVersion: 'v1',
	kind: 'List',
	metadata: { resourceVersion: '' },
	items: [
		{
			metadata: { name: 'web-1', labels: { app: 'web', 'app.kubernetes.io/name': 'shop' }, annotations: { note: 'a<b&c' } },
			spec: {
				nodeName: 'node-1',
				priority: 100,
				hostNetwork: false,
				nullable: null,
				containers: [
					{ name: 'nginx', image: 'nginx:1.25' },
					{ name: 'envoy', image: 'envoy:1.30' },
				],
			},
			status: {
				phase: 'Running',
				score: 0.5,
				ratio: 1234567.5,
				conditions: [
					{ type: 'Ready', status: 'True' },
					{ type: 'PodScheduled', status: 'True' },
				],
			},
		},
		{
			metadata: { name: 'web-2', labels: { app: 'web' } },
			spec: { nodeName: 'node-2', priority: 5, containers: [{ name: 'nginx', image: 'nginx:1.25' }] },
			status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False' }] },
		},
		{
			metadata: { name: 'db-0', labels: { app: 'db' } },
			spec: { priority: 1000, containers: [{ name: 'pg', image: 'postgres:16' }] },
			status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
		},
	],
};

const firstPod = (podList.items as JsonObject[])[0];
const run = (template: string, data: JsonValue = podList) => executeJsonPath(template, data);

describe('selecting fields', () => {
	it.each([
		['{.kind}', 'List'],
		['{$.kind}', 'List'],
		['{@.kind}', 'List'],
		['{.items[0].metadata.name}', 'web-1'],
		['{.items[*].metadata.name}', 'web-1 web-2 db-0'],
		['{.items[*].spec.containers[*].name}', 'nginx envoy nginx pg'],
		['{.items[0].spec.containers[*].image}', 'nginx:1.25 envoy:1.30'],
		// db-0 has no nodeName: missing keys print nothing.
		['{.items[*].spec.nodeName}', 'node-1 node-2'],
		['{.items[0].spec.missing}', ''],
		['{.nothing.at.all}', ''],
		['{.items[0].metadata.labels.app\\.kubernetes\\.io/name}', 'shop'],
		// A quoted key is re-read as a path, so it cannot hold a dotted key.
		["{.items[0]['metadata.name']}", 'web-1'],
		["{.items[0].metadata['name']}", 'web-1'],
		['{.items[0].metadata.labels.*}', 'web shop'],
		// Wildcard over a string yields its bytes, as Go indexes strings.
		['{.kind.*}', '76 105 115 116'],
	])('%s prints %j', (template, out) => {
		expect(run(template)).toBe(out);
	});
});

describe('array indexes and slices', () => {
	it.each([
		['{.items[0].metadata.name}', 'web-1'],
		['{.items[-1].metadata.name}', 'db-0'],
		['{.items[-2].metadata.name}', 'web-2'],
		['{.items[-1:].metadata.name}', 'db-0'],
		['{.items[1:3].metadata.name}', 'web-2 db-0'],
		['{.items[:2].metadata.name}', 'web-1 web-2'],
		['{.items[0:3:2].metadata.name}', 'web-1 db-0'],
		['{.items[::2].metadata.name}', 'web-1 db-0'],
		['{.items[*].metadata.name}', 'web-1 web-2 db-0'],
		// Asking for zero elements is not an error.
		['{.items[3:]}', ''],
		['{.items[1:1]}', ''],
		['{.items[0,2].metadata.name}', 'web-1 db-0'],
		["{.items[*]['metadata.name', 'status.phase']}", 'web-1 web-2 db-0 Running Pending Running'],
		["{.items[0].spec.containers[*]['name','image']}", 'nginx envoy nginx:1.25 envoy:1.30'],
	])('%s prints %j', (template, out) => {
		expect(run(template)).toBe(out);
	});
});

describe('recursive descent', () => {
	it('visits maps depth first with keys in sorted order', () => {
		expect(run('{..name}')).toBe('web-1 nginx envoy web-2 nginx db-0 pg');
		expect(run('{.items[0]..image}')).toBe('nginx:1.25 envoy:1.30');
		expect(run('{..status}', { a: { status: 'x' }, b: [{ status: 'y' }] })).toBe('x y');
	});
});

describe('filters', () => {
	it.each([
		['{.items[?(@.status.phase=="Running")].metadata.name}', 'web-1 db-0'],
		['{.items[?(@.status.phase!="Running")].metadata.name}', 'web-2'],
		["{.items[?(@.status.phase=='Pending')].metadata.name}", 'web-2'],
		['{.items[?( @.status.phase == "Pending" )].metadata.name}', 'web-2'],
		['{.items[0].status.conditions[?(@.type=="Ready")].status}', 'True'],
		['{.items[*].status.conditions[?(@.status=="False")].type}', 'PodScheduled'],
		['{.items[?(@.spec.priority>50)].metadata.name}', 'web-1 db-0'],
		['{.items[?(@.spec.priority<=100)].metadata.name}', 'web-1 web-2'],
		['{.items[?(@.spec.priority>=1000)].metadata.name}', 'db-0'],
		['{.items[?(@.spec.priority<6)].metadata.name}', 'web-2'],
		['{.items[?(@.spec.priority==-5)].metadata.name}', ''],
		['{.items[?(@.metadata.name<"web")].metadata.name}', 'db-0'],
		['{.items[?(@.spec.hostNetwork==false)].metadata.name}', 'web-1'],
		['{.items[?(@.status.score==0.5)].metadata.name}', 'web-1'],
		// Existence tests.
		['{.items[?(@.spec.nodeName)].metadata.name}', 'web-1 web-2'],
		['{.items[?(@.status.score)].metadata.name}', 'web-1'],
		// Upstream quirk: an out-of-range index inside an existence test still "exists".
		['{.items[?(@.spec.containers[1])].metadata.name}', 'web-1 web-2 db-0'],
	])('%s prints %j', (template, out) => {
		expect(run(template)).toBe(out);
	});
});

describe('range, literals and printing', () => {
	it.each([
		['{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}', 'web-1\tRunning\nweb-2\tPending\ndb-0\tRunning\n'],
		['{range .items[*]}{.metadata.name}:{range .spec.containers[*]}[{.image}]{end}{"\\n"}{end}', 'web-1:[nginx:1.25][envoy:1.30]\nweb-2:[nginx:1.25]\ndb-0:[postgres:16]\n'],
		['{range .items[?(@.status.phase=="Failed")]}{.metadata.name}{end}none', 'none'],
		['{range .items[*]}{.metadata.name}{" "}{end}|{.kind}', 'web-1 web-2 db-0 |List'],
		// Without {end} the body runs per item and then once more on the root.
		['{range .items[*]}{.metadata.name},', 'web-1,web-2,db-0,,'],
		['name: {.items[0].metadata.name}!', 'name: web-1!'],
		['{.items[0].metadata.name}{.items[1].metadata.name}', 'web-1web-2'],
		['a\\nb {.kind}', 'a\\nb List'],
		['{"a\\tb"}', 'a\tb'],
		["{'it\\'s'}", "it's"],
		['{"say \\"hi\\""}', 'say "hi"'],
		['{"\\u00e9\\x41\\101"}', 'éAA'],
		['{.items[0].spec.priority}', '100'],
		['{.items[0].status.score}', '0.5'],
		// Floats print with Go's %v: exponent form from 1e6 up.
		['{.items[0].status.ratio}', '1.2345675e+06'],
		['{1.5} {1000000.0} {3} {-2} {true}', '1.5 1e+06 3 -2 true'],
		// A literal has no fields.
		['{1.5 .value}{"x" .length}', ''],
		['{.items[0].spec.hostNetwork}', 'false'],
		['{.items[0].spec.nullable}', 'null'],
		['{.metadata}', '{"resourceVersion":""}'],
		['{.items[*].metadata.labels}', '{"app":"web","app.kubernetes.io/name":"shop"} {"app":"web"} {"app":"db"}'],
		['{.items[0].spec.containers[0]}', '{"image":"nginx:1.25","name":"nginx"}'],
		// Maps print through json.Marshal (HTML-escaped), strings raw.
		['{.items[0].metadata.annotations}', '{"note":"a\\u003cb\\u0026c"}'],
		['{.items[0].metadata.annotations.note}', 'a<b&c'],
		['{}', '{"a":[1,2]}'],
	])('%s prints %j', (template, out) => {
		expect(run(template, template === '{}' ? { a: [1, 2] } : podList)).toBe(out);
	});

	it('prints each result list as an indented JSON array for jsonpath-as-json', () => {
		expect(executeJsonPath('{.items[*].metadata.name}', podList, { outputJson: true })).toBe('[\n    "web-1",\n    "web-2",\n    "db-0"\n]\n');
	});

	it('returns raw result lists', () => {
		expect(findJsonPathResults(parseJsonPath('{.items[*].spec.priority}{"x"}{2.5}'), podList)).toEqual([[100, 5, 1000], ['x'], [2.5]]);
		expect(() => findJsonPathResults(parseJsonPath('{.x}'), {}, { allowMissingKeys: false })).toThrow(new JsonPathError('x is not found'));
	});
});

describe('evaluation errors', () => {
	it.each([
		['{.items[5]}', 'array index out of bounds: index 5, length 3'],
		['{.items[-4]}', 'array index out of bounds: index -1, length 3'],
		['{.items[1:5]}', 'array index out of bounds: index 4, length 3'],
		['{.items[2:1]}', 'starting index 2 is greater than ending index 1'],
		['{.items[0:3:0]}', 'step must be > 0'],
		['{.metadata[0]}', 'map[string]interface {} is not array or slice'],
		['{.kind[0]}', 'string is not array or slice'],
		['{.metadata[?(@.x)]}', 'map[resourceVersion:] is not array or slice and cannot be filtered'],
		['{.items[?(@.spec.priority>1.5)]}', 'incompatible types for comparison'],
		['{.items[?(@.metadata.name==5)]}', 'incompatible types for comparison'],
		['{.items[?(@.spec.hostNetwork<true)]}', 'invalid type for comparison'],
		['{.items[?(@.spec.nullable=="x")]}', 'invalid type for comparison'],
		['{.items[?(@.spec.containers[*].name=="nginx")]}', 'can only compare one element at a time'],
		['{.items[?(@.status.phase=<"Running")]}', 'unrecognized filter operator =<'],
		['{end}', 'not in range, nothing to end'],
		['{range .items[*]}{.metadata.name}{end}{end}', 'not in range, nothing to end'],
		['{foo}', 'unrecognized identifier foo'],
		['{metadata.name}', 'unrecognized identifier metadata'],
	])('%s fails with %j even when missing keys are allowed', (template, reason) => {
		let error: unknown;
		try {
			run(template);
		} catch (e) {
			error = e;
		}
		expect(error).toBeInstanceOf(JsonPathError);
		expect((error as JsonPathError).reason).toBe(reason);
		expect((error as JsonPathError).message.startsWith(`error executing jsonpath "${template.replaceAll('"', '\\"')}": Error executing template: ${reason}. `)).toBe(true);
	});

	it('reports a missing key only in strict mode, and only when no input has it', () => {
		expect(executeJsonPath('{.items[*].spec.nodeName}', podList, { allowMissingKeys: false })).toBe('node-1 node-2');
		expect(() => executeJsonPath('{.items[2].spec.nodeName}', podList, { allowMissingKeys: false })).toThrow(JsonPathError);
	});

	it('formats the strict-mode error exactly as cli-runtime does, with a %#v dump of the object', () => {
		const data = { kind: 'Pod', spec: { n: 2, f: 0.5, tags: ['a', 'b'], none: null, ok: true } };
		expect(() => executeJsonPath('{.spec.missing}', data, { allowMissingKeys: false })).toThrow(
			new JsonPathError(
				'error executing jsonpath "{.spec.missing}": Error executing template: missing is not found. Printing more information for debugging the template:\n' +
					'\ttemplate was:\n\t\t{.spec.missing}\n' +
					'\tobject given to jsonpath engine was:\n' +
					'\t\tmap[string]interface {}{"kind":"Pod", "spec":map[string]interface {}{"f":0.5, "n":2, "none":interface {}(nil), "ok":true, "tags":[]interface {}{"a", "b"}}}\n\n\n',
				'missing is not found',
			),
		);
	});
});

describe('parse errors', () => {
	it.each([
		['{.items[*].metadata.name', 'unclosed action'],
		['{', 'unclosed action'],
		['{.a\n}', 'unclosed action'],
		['{.items[0}', 'unterminated array'],
		['{.a[?(@.x=="y"}', 'unterminated filter'],
		['{.a[?(@.x=="y")}', 'unclosed array expect ]'],
		['{"abc}', 'unterminated quoted string'],
		['{#}', "unrecognized character in action: U+0023 '#'"],
		['{.a|\t}', 'unrecognized character in action: U+0009'],
		['{.a[x]}', 'invalid array index x'],
		['{.a["x"]}', 'invalid array index "x"'],
		['{.a[-]}', 'array index - is not a number'],
		['{....a}', 'invalid multiple recursive descent'],
		['{1.2.3}', 'cannot parse number 1.2.3'],
		['{"\\q"}', 'unquote string "\\q" error invalid syntax'],
		['{.a[0,x]}', 'invalid array index x'],
		// A filter ends at the first `)` outside its one quoted string, so filters cannot nest.
		['{.items[?(@.spec.containers[?(@.name=="pg")])]}', 'unterminated filter'],
	])('%j fails with %j', (template, reason) => {
		expect(() => parseJsonPath(template)).toThrow(new JsonPathError(`error parsing jsonpath ${template}, ${reason}`, reason));
		let seen: string | undefined;
		try {
			executeJsonPath(template, podList);
		} catch (e) {
			seen = (e as JsonPathError).reason;
		}
		expect(seen).toBe(reason);
	});

	it('reads the FACTS.md example as kubectl prints it after "error: "', () => {
		expect(() => run('{.items[*].metadata.name')).toThrow('error parsing jsonpath {.items[*].metadata.name, unclosed action');
	});
});

describe('custom columns', () => {
	it('prints headers as given and <none> for missing values, aligned like kubectl get', () => {
		const out = customColumns('NAME:.metadata.name,NODE:.spec.nodeName', podList);
		expect(out).toBe(['NAME'.padEnd(8) + 'NODE', 'web-1'.padEnd(8) + 'node-1', 'web-2'.padEnd(8) + 'node-2', 'db-0'.padEnd(8) + '<none>', ''].join('\n'));
	});

	it('joins several matches with commas and accepts every relaxed path spelling', () => {
		const out = customColumns('NAME:metadata.name,IMAGES:{.spec.containers[*].image},PHASE:{status.phase}', podList, { noHeaders: true });
		// NAME: 5 + 3 = 8; IMAGES: 21 + 3 = 24.
		expect(out).toBe(
			['web-1'.padEnd(8) + 'nginx:1.25,envoy:1.30'.padEnd(24) + 'Running', 'web-2'.padEnd(8) + 'nginx:1.25'.padEnd(24) + 'Pending', 'db-0'.padEnd(8) + 'postgres:16'.padEnd(24) + 'Running', ''].join('\n'),
		);
	});

	it("prints values with Go's %v: maps as map[...], null as <nil>", () => {
		expect(customColumns('LABELS:.metadata.labels', podList)).toBe('LABELS\nmap[app:web app.kubernetes.io/name:shop]\nmap[app:web]\nmap[app:db]\n');
		expect(customColumns('N:.spec.nullable,P:.spec.priority,C:.spec.containers[0]', firstPod)).toBe(`${'N'.padEnd(8)}${'P'.padEnd(6)}C\n${'<nil>'.padEnd(8)}${'100'.padEnd(6)}map[image:nginx:1.25 name:nginx]\n`);
		expect(customColumns('X:', { a: 1 })).toBe('X\n<none>\n');
	});

	it('escapes terminal control characters in values', () => {
		expect(customColumns('NAME:.metadata.name', { metadata: { name: 'evil\x1b[31m\r' } }, { noHeaders: true })).toBe('evil^[[31m\\r\n');
	});

	it.each([
		['', 'custom-columns format specified but no custom columns given'],
		['NAME', 'unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>'],
		['NAME:.a,B', 'unexpected custom-columns spec: B, expected <header>:<json-path-expr>'],
		['A:{{x}}', "unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'"],
		['A:.items[0', 'unterminated array'],
		['A:.items[9]', 'array index out of bounds: index 9, length 0'],
	])('rejects %j with %j', (spec, message) => {
		expect(() => customColumns(spec, { items: [{ items: [] }] })).toThrow(new JsonPathError(message));
	});

	it.each([
		['metadata.name', '{.metadata.name}'],
		['.metadata.name', '{.metadata.name}'],
		['{metadata.name}', '{.metadata.name}'],
		['{.metadata.name}', '{.metadata.name}'],
		['', ''],
	])('relaxes %j to %j', (expression, template) => {
		expect(relaxedJsonPathExpression(expression)).toBe(template);
	});
});
