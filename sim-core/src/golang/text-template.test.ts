import { describe, expect, it } from 'vitest';
import { executeTemplate, parseTemplate, sprintf, TemplateError, TemplateFuncError, type TemplateValue } from './text-template.ts';

/** JSON data as kubectl hands it to the engine. */
const data: TemplateValue = {
	kind: 'List',
	items: [
		{ metadata: { name: 'a', labels: { run: 'web' } }, status: { podIP: '10.244.1.2' } },
		{ metadata: { name: 'b' }, status: { podIP: '10.244.2.3' } },
	],
	SI: [3, 4, 5],
	SIEmpty: [],
	MSI: { one: 1, two: 2, three: 3 },
	MSIEmpty: {},
	n: 3,
	f: 0.5,
	big: 1_000_000,
	nul: null,
	s: 'hello',
};

const funcs = {
	upper: (v: TemplateValue) => String(v).toUpperCase(),
	fails: () => {
		throw new TemplateFuncError('it broke');
	},
};

function run(text: string, options: { missingKey?: 'default' | 'error' } = {}): { output: string; error?: string } {
	return executeTemplate(parseTemplate('output', text, funcs), data, options);
}

function parseError(text: string): string {
	try {
		parseTemplate('output', text, funcs);
	} catch (e) {
		if (e instanceof TemplateError) return e.message;
		throw e;
	}
	return 'parsed';
}

describe('Go text/template: output', () => {
	it.each([
		// Fields, missing keys, nil.
		['{{.kind}}', 'List'],
		['{{.missing}}|{{.missing.deeper}}|{{.nul}}', '<no value>|<no value>|<no value>'],
		['{{.SI}} {{.MSI}} {{.MSIEmpty}}', '[3 4 5] map[one:1 three:3 two:2] map[]'],
		['{{.n}} {{.f}} {{.big}} {{1.0}} {{1e6}} {{0x1F}} {{0o17}} {{1_000}} {{\'a\'}} {{-3}}', '3 0.5 1000000 1 1e+06 31 15 1000 97 -3'],
		['{{"a\\tb"}}|{{`raw\\n`}}', 'a\tb|raw\\n'],
		// Range, with variables, maps in key order, else, break and continue, integers.
		['{{range .items}}{{.status.podIP}}{{"\\n"}}{{end}}', '10.244.1.2\n10.244.2.3\n'],
		['{{range $i, $e := .items}}<{{$i}}={{$e.metadata.name}}>{{end}}', '<0=a><1=b>'],
		['{{range $x := .SI}}<{{$x}}>{{end}}', '<3><4><5>'],
		['{{range .MSI}}-{{.}}-{{end}} {{range $k, $v := .MSI}}{{$k}}{{end}}', '-1--3--2- onethreetwo'],
		['{{range .SIEmpty}}x{{else}}EMPTY{{end}}{{range .missing}}x{{else}}NONE{{end}}', 'EMPTYNONE'],
		['{{range .SI}}{{if eq . 4}}{{continue}}{{end}}{{if eq . 5}}{{break}}{{end}}{{.}}{{end}}', '3'],
		['{{range 3}}{{.}}{{end}}', '012'],
		['{{range .items}}{{$.kind}}{{end}}', 'ListList'],
		// if / else if / with / else with.
		['{{if eq 1 3}}1{{else if eq 2 3}}2{{else if eq 3 3}}3{{end}}', '3'],
		['{{if .SIEmpty}}Y{{else}}N{{end}}{{if .MSI}}Y{{end}}{{if .missing}}Y{{else}}N{{end}}{{if not .missing}}Z{{end}}', 'NYNZ'],
		['{{with .items}}{{len .}}{{end}} {{with .missing}}x{{else with .s}}{{.}}{{end}}', '2 hello'],
		['{{if $x := true}}{{with $x := .n}}{{$x}},{{end}}{{$x}}{{end}}', '3,true'],
		// Variables.
		['{{$x := 5}}{{$x}} {{$x = 6}}{{$x}}', '5 6'],
		['{{with $x := $}}{{$y := $.s}}{{$y}}{{end}}', 'hello'],
		// Pipelines and parentheses.
		['{{.s | printf "%s!"}} {{.s | upper}} {{printf "%d %d" (len .SI) (index .SI 1)}}', 'hello! HELLO 3 4'],
		['{{(index .items 0).metadata.name}} {{(.MSI).one}}', 'a 1'],
		// Builtins.
		['{{len .s}} {{len .SI}} {{len .MSI}}', '5 3 3'],
		['{{index .SI 0}} {{index .MSI "two"}} {{index .MSI "XXX"}} {{index .items 0 "metadata" "name"}}', '3 2 <no value> a'],
		['{{slice .s 1 3}} {{slice .SI 1}} {{slice .s}}', 'el [4 5] hello'],
		['{{print "hello, print"}} {{print 1 2 3}} {{print nil}} {{print "a" 1 2 "b"}}', 'hello, print 1 2 3 <nil> a1 2b'],
		['{{println 1 2 3}}', '1 2 3\n'],
		['{{printf "%04x" 127}} {{printf "%g" 3.5}} {{printf "%5.2f|%-4s|%q|%v|%t" .f "ab" .s .SI true}}', '007f 3.5  0.50|ab  |"hello"|[3 4 5]|true'],
		['{{printf "%d" "x"}} {{printf "%s"}} {{printf "%s" "a" "b"}}', '%!d(string=x) %!s(MISSING) a%!(EXTRA string=b)'],
		['{{html "<script>alert(\\"XSS\\");</script>"}}', '&lt;script&gt;alert(&#34;XSS&#34;);&lt;/script&gt;'],
		["{{js \"It'd be <nice>.\"}}", "It\\'d be \\u003Cnice\\u003E."],
		['{{"http://www.example.org/"|urlquery}}', 'http%3A%2F%2Fwww.example.org%2F'],
		['{{not true}} {{not false}}', 'false true'],
		['{{and false 0}} {{and 1 0}} {{and 0 true}} {{and 1 1}}', 'false 0 0 1'],
		['{{or 0 0}} {{or 1 0}} {{or 0 true}} {{or 1 1}} {{or .SIEmpty "slice is empty"}}', '0 1 true 1 slice is empty'],
		['{{eq .s "hello"}} {{eq .n 1 2 3}} {{ne .s "x"}} {{eq .missing "x"}} {{lt 1 2}} {{le 2 2}} {{gt "b" "a"}} {{ge 1.5 2.5}}', 'true true true false true true true false'],
		// Trim markers and comments.
		['{{- range $i, $e := .items -}} {{$i}}={{$e.metadata.name}} {{ end -}} !', '0=a 1=b !'],
		['a {{- /* a comment */ -}} b{{/* another */}}c', 'abc'],
		['{{ .s -}}  \n  x {{- 3}}', 'hellox3'],
		// define, template, block.
		['{{define "T"}}[{{.}}]{{end}}{{template "T" .s}}{{template "T"}}{{block "B" .n}}<{{.}}>{{end}}', '[hello][<no value>]<3>'],
	])('%s', (text, expected) => {
		expect(run(text)).toEqual({ output: expected });
	});
});

describe('Go text/template: parse errors', () => {
	it.each([
		['{{.x', 'template: output:1: unclosed action'],
		['{{end}}', 'template: output:1: unexpected {{end}}'],
		['{{else}}', 'template: output:1: unexpected {{else}}'],
		['{{range .items}}', 'template: output:1: unexpected EOF'],
		['{{foo}}', 'template: output:1: function "foo" not defined'],
		['{{if}}{{end}}', 'template: output:1: missing value for if'],
		['{{$y}}', 'template: output:1: undefined variable "$y"'],
		['{{range .a}}{{$e := 1}}{{end}}{{$e}}', 'template: output:1: undefined variable "$e"'],
		['{{.a}', "template: output:1: bad character U+007D '}'"],
		['{{"abc}}', 'template: output:1: unterminated quoted string'],
		['{{#}}', "template: output:1: unrecognized character in action: U+0023 '#'"],
		['{{break}}', 'template: output:1: {{break}} outside {{range}}'],
		['{{/* open', 'template: output:1: unclosed comment'],
		['{{.a | 3}}', 'template: output:1: non executable command in pipeline stage 2'],
		['line1\n{{(.a}}', 'template: output:2: unclosed left paren'],
		['{{.a)}}', 'template: output:1: unexpected right paren'],
		['{{3x}}', 'template: output:1: bad number syntax: "3x"'],
	])('%s', (text, expected) => {
		expect(parseError(text)).toBe(expected);
	});
});

describe('Go text/template: execution errors', () => {
	it.each([
		['{{.s.foo}}', 'template: output:1:2: executing "output" at <.s.foo>: can\'t evaluate field foo in type interface {}'],
		['{{(.SI).kind}}', 'template: output:1:2: executing "output" at <(.SI).kind>: can\'t evaluate field kind in type []interface {}'],
		['{{$x := .s}}{{$x.foo}}', 'template: output:1:14: executing "output" at <$x.foo>: can\'t evaluate field foo in type string'],
		['{{.nul.x}}', 'template: output:1:2: executing "output" at <.nul.x>: nil pointer evaluating interface {}.x'],
		['{{index .SI 10}}', 'template: output:1:2: executing "output" at <index>: error calling index: index out of range: 10'],
		['{{eq 1 "a"}}', 'template: output:1:2: executing "output" at <eq>: error calling eq: incompatible types for comparison'],
		['{{range .s}}{{end}}', 'template: output:1:8: executing "output" at <{{range .s}}{{end}}>: range can\'t iterate over hello'],
		['{{len 3}}', 'template: output:1:2: executing "output" at <len>: error calling len: len of type int64'],
		['{{not}}', 'template: output:1:2: executing "output" at <not>: wrong number of args for not: want 1 got 0'],
		['a\n{{.s | .n}}', 'template: output:2:7: executing "output" at <.n>: n is not a method but has arguments'],
		['{{3 2}}', 'template: output:1:2: executing "output" at <3>: can\'t give argument to non-function 3'],
		['{{if nil}}x{{end}}', 'template: output:1:5: executing "output" at <nil>: nil is not a command'],
		['{{fails}}', 'template: output:1:2: executing "output" at <fails>: error calling fails: it broke'],
		['{{template "nope"}}', 'template: output:1:11: executing "output" at <{{template "nope"}}>: template "nope" not defined'],
	])('%s', (text, expected) => {
		expect(run(text).error).toBe(expected);
	});

	it('keeps what was written before the failure', () => {
		expect(run('{{.s}} and {{.s.x}}')).toEqual({ output: 'hello and ', error: 'template: output:1:13: executing "output" at <.s.x>: can\'t evaluate field x in type interface {}' });
	});

	it('with missingkey=error, a missing key is an error', () => {
		expect(run('{{.kind}}{{.missing}}', { missingKey: 'error' })).toEqual({ output: 'List', error: 'template: output:1:11: executing "output" at <.missing>: map has no entry for key "missing"' });
		expect(run('{{.missing.deeper}}', { missingKey: 'error' }).error).toBe('template: output:1:2: executing "output" at <.missing.deeper>: map has no entry for key "missing"');
	});

	it('counts columns in bytes and truncates the context at 20 characters', () => {
		expect(run('héllo {{.s.x}}').error).toMatch(/^template: output:1:9: /);
		expect(run('{{range .s}}{{.}}{{.}}{{end}}').error).toBe('template: output:1:8: executing "output" at <{{range .s}}{{.}}{{....>: range can\'t iterate over hello');
	});

	it('stops a runaway loop with a bounded error', () => {
		expect(run('{{range 2000000}}{{end}}').error).toMatch(/steps in this simulated kubectl$/);
	});
});

describe('fmt.Sprintf', () => {
	it('pads, signs and reports bad verbs as fmt does', () => {
		expect(sprintf('%5d|%-5d|%05d|%+d|%x|%X|%#x|%o|%b|%c|%%', [42, 42, 42, 42, 255, 255, 255, 8, 5, 65])).toBe('   42|42   |00042|+42|ff|FF|0xff|10|101|A|%');
		expect(sprintf('%.3s|%8.3f|%e|%v', ['abcdef', 3.14159, 1234.5678, null])).toBe('abc|   3.142|1.234568e+03|<nil>');
		expect(sprintf('%t', ['x'])).toBe('%!t(string=x)');
	});
});
