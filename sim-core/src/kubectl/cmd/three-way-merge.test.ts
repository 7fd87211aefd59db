import { describe, it, expect } from 'vitest';
import type { JsonObject } from '../../golang/json.ts';
import { createThreeWayMergePatch, lookupPatchMeta } from './three-way-merge.ts';

/** A Deployment wrapper around a pod spec fragment. */
const deploy = (podSpec: JsonObject): JsonObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template: { spec: podSpec } } });

describe('createThreeWayMergePatch (strategicpatch.CreateThreeWayMergePatch, overwrite=true)', () => {
	const cases: Array<{ name: string; kind: string; original: JsonObject | undefined; modified: JsonObject; current: JsonObject; expected: JsonObject }> = [
		{
			name: 'is empty when the manifest is unchanged, whatever the server added',
			kind: 'ConfigMap',
			original: { data: { a: '1' } },
			modified: { data: { a: '1' } },
			current: { data: { a: '1' }, metadata: { uid: 'u', resourceVersion: '7' } },
			expected: {},
		},
		{
			name: 'carries a changed value',
			kind: 'ConfigMap',
			original: { data: { a: '1' } },
			modified: { data: { a: '2' } },
			current: { data: { a: '1' } },
			expected: { data: { a: '2' } },
		},
		{
			name: 'deletes a key removed from the manifest with null',
			kind: 'ConfigMap',
			original: { data: { a: '1', c: '3' } },
			modified: { data: { a: '1' } },
			current: { data: { a: '1', c: '3' } },
			expected: { data: { c: null } },
		},
		{
			name: 'still sends the deletion when someone already removed the key',
			kind: 'ConfigMap',
			original: { data: { a: '1', c: '3' } },
			modified: { data: { a: '1' } },
			current: { data: { a: '1' } },
			expected: { data: { c: null } },
		},
		{
			name: 'never deletes what only the live object has',
			kind: 'ConfigMap',
			original: undefined,
			modified: { data: { a: '1' } },
			current: { data: { a: '1', fromController: 'x' } },
			expected: {},
		},
		{
			name: 'replaces a list without a merge key (container args) whole',
			kind: 'Deployment',
			original: deploy({ containers: [{ name: 'c', args: ['a'] }] }),
			modified: deploy({ containers: [{ name: 'c', args: ['b'] }] }),
			current: deploy({ containers: [{ name: 'c', args: ['a'] }] }),
			expected: { spec: { template: { spec: { $setElementOrder$containers: [{ name: 'c' }], containers: [{ name: 'c', args: ['b'] }] } } } },
		},
		{
			name: 'removes a scalar from a merge list of primitives with $deleteFromPrimitiveList',
			kind: 'ConfigMap',
			original: { metadata: { finalizers: ['f1', 'f2'] } },
			modified: { metadata: { finalizers: ['f1'] } },
			current: { metadata: { finalizers: ['f1', 'f2', 'f3'] } },
			expected: { metadata: { $deleteFromPrimitiveList$finalizers: ['f2'], $setElementOrder$finalizers: ['f1'] } },
		},
		{
			name: 'adds a Service port by its merge key and keeps the manifest order',
			kind: 'Service',
			original: { spec: { ports: [{ port: 80 }] } },
			modified: { spec: { ports: [{ port: 80 }, { port: 443 }] } },
			current: { spec: { ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] } },
			expected: { spec: { $setElementOrder$ports: [{ port: 80 }, { port: 443 }], ports: [{ port: 443 }] } },
		},
		{
			name: 'lists the remaining keys of a retainKeys field (Deployment spec.strategy)',
			kind: 'Deployment',
			original: { spec: { strategy: { type: 'RollingUpdate' } } },
			modified: { spec: { strategy: { type: 'Recreate' } } },
			current: { spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } } },
			expected: { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
		},
	];
	// `$setElementOrder/x` keys are written with `$` instead of `/` above, to keep the table readable.
	const unslash = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.map(unslash);
		if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/^\$(setElementOrder|deleteFromPrimitiveList)\$/, '$$$1/'), unslash(v)]));
		return value;
	};
	for (const c of cases) {
		it(c.name, () => {
			expect(createThreeWayMergePatch(c.original, c.modified, c.current, c.kind)).toEqual(unslash(c.expected));
		});
	}

	it('deletes a container removed from the manifest with a $patch: delete directive and updates the one kept', () => {
		const original = deploy({ containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] });
		const current = deploy({ containers: [{ name: 'a', image: 'x', imagePullPolicy: 'IfNotPresent' }, { name: 'b', image: 'y' }] });
		const modified = deploy({ containers: [{ name: 'a', image: 'x2' }] });
		const patch = createThreeWayMergePatch(original, modified, current, 'Deployment') as { spec: { template: { spec: Record<string, unknown> } } };
		const spec = patch.spec.template.spec;
		expect(spec['$setElementOrder/containers']).toEqual([{ name: 'a' }]);
		const containers = [...(spec.containers as Array<Record<string, unknown>>)].sort((x, y) => String(x.name).localeCompare(String(y.name)));
		expect(containers).toEqual([
			{ name: 'a', image: 'x2' },
			{ name: 'b', $patch: 'delete' },
		]);
	});
});

describe('lookupPatchMeta (k8s.io/api patch tags)', () => {
	it.each([
		[['spec', 'template', 'spec', 'containers'], 'Deployment', { strategy: 'merge', mergeKey: 'name', retainKeys: false }],
		[['spec', 'template', 'spec', 'volumes'], 'Deployment', { strategy: 'merge', mergeKey: 'name', retainKeys: true }],
		[['spec', 'containers', 'ports'], 'Pod', { strategy: 'merge', mergeKey: 'containerPort', retainKeys: false }],
		[['spec', 'ports'], 'Service', { strategy: 'merge', mergeKey: 'port', retainKeys: false }],
		[['spec', 'taints'], 'Node', {}],
		[['spec', 'template', 'spec', 'tolerations'], 'Deployment', {}],
	] as const)('gives %j of a %s its upstream strategy', (path, kind, expected) => {
		expect(lookupPatchMeta(path, kind)).toEqual(expected);
	});
});
