import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_YAML_LIMITS, parseYamlDocuments, YamlError } from './index.ts';

const MiB = 1024 * 1024;
const LINEAR_BOUND_MS = 2000;

/**
 * CPU milliseconds this process spent on the fastest of three runs. CPU time
 * rather than wall time, so other work on a shared machine does not count;
 * best of three, so a stray garbage collection does not either.
 */
function fastest(run: () => void): number {
	let best = Infinity;
	for (let i = 0; i < 3; i++) {
		const start = process.cpuUsage();
		run();
		const used = process.cpuUsage(start);
		best = Math.min(best, (used.user + used.system) / 1000);
	}
	return best;
}

/**
 * CPU time under which a refusal counts as quick. Expanding any of these
 * inputs would take seconds to hours (9^9 nodes, a 3 MiB scalar folded a
 * million times); a refusal takes about 10-20 ms alone and up to ~65 ms
 * while two cores run the whole suite, so 50 ms flaked. 500 ms still tells
 * the two apart by orders of magnitude.
 */
const QUICK_REFUSAL_MS = 500;

/** Asserts that parsing `text` fails with `reason`, quickly (see QUICK_REFUSAL_MS). */
function refusedQuickly(text: string, reason: string | RegExp) {
	let error: unknown;
	const ms = fastest(() => {
		try {
			parseYamlDocuments(text);
			error = undefined;
		} catch (e) {
			error = e;
		}
	});
	expect(error).toBeInstanceOf(YamlError);
	expect((error as YamlError).reason).toMatch(reason);
	expect(ms).toBeLessThan(QUICK_REFUSAL_MS);
}

// Nine anchors, each a list of nine aliases to the previous one: 9^9 nodes if expanded.
const laughs = (flow: boolean) => {
	const out = [flow ? 'a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]' : 'a0: &a0\n' + '  - lol\n'.repeat(9).trimEnd()];
	for (let i = 1; i < 10; i++) {
		out.push(flow ? `a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]` : `a${i}: &a${i}\n` + `  - *a${i - 1}\n`.repeat(9).trimEnd());
	}
	return out.join('\n') + '\n';
};

describe('alias bombs are refused before they expand', () => {
	it.each([
		['the classic flow-style billion laughs', laughs(true)],
		['a block-style billion laughs', laughs(false)],
		['a large anchor aliased many times', 'x: &x [' + Array(2000).fill('1').join(', ') + ']\n' + Array.from({ length: 10 }, (_, i) => `y${i}: *x`).join('\n')],
		['a scalar aliased more often than the limit', 'a: &a x\nlist:\n' + '- *a\n'.repeat(DEFAULT_YAML_LIMITS.maxAliasNodes + 1)],
		['merge keys pulling in a large map many times', 'b: &b {' + Array.from({ length: 3000 }, (_, i) => `k${i}: ${i}`).join(', ') + '}\n' + Array.from({ length: 5 }, (_, i) => `m${i}:\n  <<: *b`).join('\n')],
	])('refuses %s', (_name, text) => {
		refusedQuickly(text, 'document contains excessive aliasing');
	});

	it('counts aliases per document, so separate documents each get the full allowance', () => {
		const doc = 'x: &x [' + Array(999).fill('1').join(', ') + ']\n' + Array.from({ length: 9 }, (_, i) => `y${i}: *x`).join('\n');
		expect(parseYamlDocuments(`${doc}\n---\n${doc}`)).toHaveLength(2);
	});

	it.each([
		['a sequence holding its own alias', 'a: &x [*x]'],
		['a mapping holding its own alias', 'a: &x {b: *x}'],
		['a nested self-reference', 'a: &x\n  b:\n  - c: *x\n'],
	])('refuses %s', (_name, text) => {
		refusedQuickly(text, 'anchor "x" value contains itself');
	});
});

describe('nesting deeper than the limit is refused without exhausting the stack', () => {
	it.each([
		['100,000 opening brackets', '['.repeat(100_000)],
		['100,000 nested flow mappings', '{a: '.repeat(100_000)],
		['a deep block mapping', Array.from({ length: 1000 }, (_, i) => ' '.repeat(i) + 'a:').join('\n')],
		['a deep block sequence on one line', '- '.repeat(100_000) + 'x'],
		['a deep mix of block and flow', Array.from({ length: 60 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' ' + '['.repeat(60)],
		['an alias that nests a deep anchor inside another deep node', 'a: &a ' + '['.repeat(60) + ']'.repeat(60) + '\nb: ' + '['.repeat(60) + '*a' + ']'.repeat(60)],
	])('refuses %s', (_name, text) => {
		refusedQuickly(text, /^exceeded max depth of 100$/);
	});

	it('accepts nesting right at the limit', () => {
		const text = '['.repeat(100) + ']'.repeat(100);
		expect(() => parseYamlDocuments(text)).not.toThrow();
		expect(() => parseYamlDocuments('[' + text + ']')).toThrow('exceeded max depth of 100');
	});
});

describe('oversized input is refused', () => {
	const big = 'x'.repeat(MiB + 1);
	it.each([
		['a plain scalar', `a: ${big}`],
		['a plain scalar folded over many lines', 'a: ' + 'lorem ipsum dolor sit amet\n  '.repeat(MiB / 26)],
		['a single-quoted scalar folded over many lines', "a: '" + 'lorem ipsum dolor sit amet\n  '.repeat(MiB / 26) + "'"],
		['a double-quoted scalar folded over many lines', 'a: "' + 'lorem ipsum dolor sit amet\n  '.repeat(MiB / 26) + '"'],
		['a double-quoted scalar', `a: "${big}"`],
		['a single-quoted scalar', `a: '${big}'`],
		['a double-quoted scalar made of escapes', 'a: "' + '\\n'.repeat(MiB + 1) + '"'],
		['a literal block scalar', 'a: |\n' + '  xxxxxxxxxxxxxxx\n'.repeat(MiB / 16 + 1)],
		['a key', `${big}: 1`],
	])('refuses %s longer than 1 MiB', (_name, text) => {
		refusedQuickly(text, `scalar exceeds the maximum length of ${MiB} characters`);
	});

	it('refuses input longer than 3 MiB before scanning it', () => {
		refusedQuickly('a: 1\n'.repeat((3 * MiB) / 5 + 1), `input exceeds the maximum size of ${3 * MiB} characters`);
	});

	it.each([
		['empty documents', '---\n'.repeat(201)],
		['small documents', 'a: 1\n---\n'.repeat(201)],
	])('refuses more than 200 %s', (_name, text) => {
		refusedQuickly(text, 'stream contains more than 200 documents');
	});
});

describe('malformed input fails fast wherever the error is', () => {
	it.each([
		['an unterminated quote at the start of a large file', 'a: "\n' + 'b: 1\n'.repeat(150_000), 'found unexpected end of stream'],
		['a verbatim tag that never closes', 'a: !<' + 'x'.repeat(2 * MiB), "did not find the expected '>'"],
		['a NUL byte after a long prefix', 'a: 1\n'.repeat(400_000) + '\0', 'control characters are not allowed'],
	])('rejects %s', (_name, text, reason) => {
		refusedQuickly(text, reason);
	});
});

// Each case runs three times on inputs of about a megabyte: allow for a slow machine.
describe('inputs that could trigger quadratic work stay linear', { timeout: 30_000 }, () => {
	it.each([
		['a long run of spaces inside a quoted scalar', `a: "${' '.repeat(500_000)}x\n  y"`],
		['a long run of spaces between plain words', `a: x${' '.repeat(500_000)}y`],
		['a one-line flow mapping with 50,000 keys', '{' + Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`).join(', ') + '}'],
		['a one-line flow sequence of 150,000 items', '[' + 'ab, '.repeat(150_000) + ']'],
		['a one-line JSON document', JSON.stringify({ items: Array.from({ length: 30_000 }, (_, i) => ({ name: `n${i}`, v: i })) })],
		['200,000 comment lines', '# comment\n'.repeat(200_000) + 'a: 1\n'],
		['100,000 sequence items', 'items:\n' + '- x\n'.repeat(100_000)],
		['many distinct anchors', Array.from({ length: 25_000 }, (_, i) => `k${i}: &a${i} v`).join('\n')],
		['a long line of colons', 'a: ' + ':'.repeat(900_000) + 'x'],
	])('parses %s in linear time', (_name, text) => {
		// A quadratic algorithm would need minutes here; the bound leaves room for a busy machine.
		expect(fastest(() => parseYamlDocuments(text))).toBeLessThan(LINEAR_BOUND_MS);
	});

	it('finds an unclosed flow sequence spanning a large file in linear time', () => {
		const text = 'a: [\n' + '  x,\n'.repeat(200_000);
		const ms = fastest(() => expect(() => parseYamlDocuments(text)).toThrow("line 1, column 4: did not find expected ',' or ']'"));
		expect(ms).toBeLessThan(LINEAR_BOUND_MS);
	});

	it('finds a tab deep inside a large file in linear time', () => {
		const text = Array.from({ length: 50_000 }, (_, i) => `k${i}: 1`).join('\n') + '\nlast: "x"\n\tb: 2\n';
		const ms = fastest(() => expect(() => parseYamlDocuments(text)).toThrow('line 50002, column 1: found character that cannot start any token'));
		expect(ms).toBeLessThan(LINEAR_BOUND_MS);
	});

	it('finds a duplicate key after 50,000 keys in linear time', () => {
		const text = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`).join('\n') + '\nk0: 1\n';
		const ms = fastest(() => expect(() => parseYamlDocuments(text)).toThrow('line 50001, column 1: key "k0" already set in map'));
		expect(ms).toBeLessThan(LINEAR_BOUND_MS);
	});

	it('parses a 2.5 MiB manifest bundle in linear time', () => {
		const manifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-NAME
  labels: {app: web, tier: "front"}
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        args: ["--port=8080", '--verbose']
        command:
        - sh
        - -c
        - |
          echo starting
          exec nginx -g 'daemon off;'
`;
		const docs = Array.from({ length: 200 }, (_, i) => manifest.replace('NAME', String(i)) + `  padding: "${'p'.repeat(13_500)}"\n`);
		const text = docs.join('---\n');
		expect(text.length).toBeGreaterThan(2.5 * MiB);
		expect(fastest(() => parseYamlDocuments(text))).toBeLessThan(LINEAR_BOUND_MS);
		expect(parseYamlDocuments(text)).toHaveLength(200);
	});
});

describe('arbitrary text', () => {
	const piece = fc.constantFrom(
		'a', ' ', '  ', '\n', ':', ': ', '- ', '-', '[', ']', '{', '}', ',', '"', "'", '\\', '\\x', '#', '&a ', '*a', '!!int ',
		'!x ', '!<', '>', '|', '|-', '|2', '?', '%YAML 1.1', '@', '\t', '---', '...', '<<: ', '0x1', 'yes', '\r\n', '\uFEFF', '\u2028',
	);

	it('either parses or fails with a YamlError, never another exception', () => {
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }).map((p) => p.join('')), (text) => {
				try {
					parseYamlDocuments(text);
				} catch (e) {
					expect(e).toBeInstanceOf(YamlError);
				}
			}),
			{ numRuns: 3000 },
		);
	});
});
