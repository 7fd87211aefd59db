import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createCluster } from '@cluster-anatomy/sim-core';
import { documentStartLines, fieldPathsOf, indentAfter, lineOfField, lineOfParseError, problemOfApply, tokenizeYaml } from '../../src/sandbox/panels/yaml-highlight.ts';
import { YAML_TEMPLATES } from '../../src/sandbox/panels/yaml-templates.ts';

/** `kind:text` of each token of one line, spaces left out. */
function kinds(line: string): string[] {
	return tokenizeYaml(line)[0]
		.filter((t) => t.t !== 'space')
		.map((t) => `${t.t}:${t.v}`);
}

describe('the YAML colouring tokenizer', () => {
	it('gives back exactly the text it was given, line by line (the colours sit on the very characters typed)', () => {
		fc.assert(
			fc.property(fc.string({ unit: fc.constantFrom(...'ab: -#"\'|>[]{},&*!\n\t 0.9'.split('')), maxLength: 200 }), (text) => {
				const lines = tokenizeYaml(text);
				expect(lines.map((tokens) => tokens.map((t) => t.v).join('')).join('\n')).toBe(text);
			}),
			{ numRuns: 500 },
		);
	});

	it('tells keys, strings, numbers, keywords and comments apart', () => {
		expect(kinds('  replicas: 3 # three')).toEqual(['key:replicas', 'punct::', 'number:3', 'comment:# three']);
		expect(kinds('- name: "web: 1"')).toEqual(['punct:-', 'key:name', 'punct::', 'string:"web: 1"']);
		expect(kinds('enabled: true')).toEqual(['key:enabled', 'punct::', 'keyword:true']);
		expect(kinds('image: nginx:1.27')).toEqual(['key:image', 'punct::', 'text:nginx:1.27']);
		expect(kinds('args: [a, "b", 3]')).toEqual(['key:args', 'punct::', 'punct:[', 'text:a', 'punct:,', 'string:"b"', 'punct:,', 'number:3', 'punct:]']);
		expect(kinds('url: http://x#y')).toEqual(['key:url', 'punct::', 'text:http://x#y']);
		expect(kinds('---')).toEqual(['doc:---']);
	});

	it('colours a block scalar as one string until the indentation comes back', () => {
		const lines = tokenizeYaml('data:\n  script: |\n    echo a: b\n    # not a comment\n  next: 1');
		expect(lines[2].map((t) => t.t)).toEqual(['string']);
		expect(lines[3].map((t) => t.t)).toEqual(['string']);
		expect(lines[4].filter((t) => t.t !== 'space').map((t) => t.t)).toEqual(['key', 'punct', 'number']);
	});

	it('carries a quoted string over a line break', () => {
		const lines = tokenizeYaml('a: "one\n  two" # c');
		expect(lines[1].map((t) => t.t)).toEqual(['string', 'space', 'comment']);
	});
});

describe('where an error points', () => {
	const cluster = createCluster({});
	const apply = (yaml: string) => cluster.exec('kubectl apply -f -', { stdin: yaml }).output;

	it("marks the line of kubectl's YAML parse error", () => {
		const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   labels: {a: b}\n';
		const output = apply(text);
		expect(output).toContain('yaml: line 5');
		expect(lineOfParseError(output, text)).toEqual({ line: 5, message: 'mapping values are not allowed in this context' });
	});

	it('finds the line in a later document when only that document is long enough', () => {
		const text = 'apiVersion: v1\nkind: ConfigMap\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: y\n  bad: [1, 2\n';
		const output = apply(text);
		expect(documentStartLines(text)).toEqual([1, 4]);
		expect(lineOfParseError(output, text)?.line).toBe(8);
	});

	it('marks the line of the field a strict-decoding error names', () => {
		const text = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containerz:\n  - name: a\n    image: nginx\n';
		const output = apply(text);
		expect(output).toContain('unknown field "spec.containerz"');
		expect(problemOfApply(output, text)?.line).toBe(6);
	});

	it('follows a field path through sequences', () => {
		const text = ['spec:', '  containers:', '  - name: a', '    image: x', '    ports:', '    - containerPort: 80', '  - name: b', '    imagez: y'].join('\n');
		expect(lineOfField(text, 'spec.containers[1].imagez')).toBe(8);
		expect(lineOfField(text, 'spec.containers[0].ports[0].containerPort')).toBe(6);
		expect(lineOfField(text, 'spec.containers[1].name')).toBe(7);
		// The deepest part that exists, when the rest is missing.
		expect(lineOfField(text, 'spec.containers[1].resources.limits')).toBe(7);
		expect(lineOfField(text, 'status.phase')).toBeUndefined();
	});

	it('reads field paths out of API errors', () => {
		expect(fieldPathsOf('The Pod "x" is invalid: spec.containers[0].image: Required value')).toEqual(['spec.containers[0].image']);
	});
});

describe('typing help', () => {
	it('indents a new line like the one before, and deeper after a key that opens a block', () => {
		expect(indentAfter('spec:')).toBe('  ');
		expect(indentAfter('  containers:')).toBe('    ');
		expect(indentAfter('  - name: web')).toBe('    ');
		expect(indentAfter('  - name:')).toBe('      ');
		expect(indentAfter('    image: nginx # latest')).toBe('    ');
		expect(indentAfter('  script: |')).toBe('    ');
	});
});

describe('the templates', () => {
	const cluster = createCluster({});
	it.each(YAML_TEMPLATES.map((t) => [t.id, t.yaml] as const))('%s applies cleanly', (_id, yaml) => {
		const result = cluster.exec('kubectl apply -f -', { stdin: yaml });
		expect(result.output).toMatch(/created/);
		expect(result.exitCode).toBe(0);
	});
});
