/**
 * The code map's check, run in-process: every module of sim-core/src ends
 * its header with a Mirrors line that parses, and the table in
 * sim-core/README.md is what scripts/code-map.ts would write now.
 */
import { describe, expect, it } from 'vitest';
import { checkCodeMap, listModules, readModule, renderCodeMap, upstreamUrl } from '../scripts/code-map.ts';

describe('the code map', () => {
	it('finds a Mirrors line in every module and the README table up to date (npm run code-map refreshes it)', () => {
		expect(listModules().length).toBeGreaterThan(400);
		expect(checkCodeMap()).toEqual([]);
	});

	it('reads a header into links at the versions followed, and names what is wrong with a bad one', () => {
		const entry = readModule(
			'kubelet/example.ts',
			['/**', ' * The pod workers. More prose.', ' *', ' * Mirrors pkg/kubelet/pod_workers.go (UpdatePod),', ' * staging/src/k8s.io/client-go/tools/cache/reflector.go, etcd-io/etcd', ' * server/storage/mvcc/kvstore.go.', ' */', ''].join('\n'),
		);
		expect(entry.problems).toEqual([]);
		expect(entry.models).toBe('The pod workers.');
		expect(entry.upstream.map(upstreamUrl)).toEqual([
			'https://github.com/kubernetes/kubernetes/blob/v1.36.3/pkg/kubelet/pod_workers.go',
			'https://github.com/kubernetes/kubernetes/blob/v1.36.3/staging/src/k8s.io/client-go/tools/cache/reflector.go',
			'https://github.com/etcd-io/etcd/blob/v3.6.10/server/storage/mvcc/kvstore.go',
		]);
		expect(renderCodeMap([entry])).toContain('[k8s.io/client-go/tools/cache/reflector.go](');

		expect(readModule('sim/x.ts', '/**\n * A thing.\n *\n * Mirrors nothing upstream: the simulator\'s own.\n */\n').nothing).toBe("the simulator's own");
		expect(readModule('sim/x.ts', '/**\n * A thing. Mirrors pkg/x.go.\n */\n').problems).toEqual(['the header has no sentence saying what the module models before its Mirrors line', 'the header does not end with a "Mirrors ..." paragraph']);
		expect(readModule('sim/x.ts', 'export const x = 1;\n').problems).toEqual(['does not start with a TSDoc comment (/** ... */)']);
		expect(readModule('sim/x.ts', '/**\n * A thing.\n *\n * Mirrors someone/else file.go.\n */\n').problems[0]).toMatch(/unknown repository someone\/else/);
	});
});
