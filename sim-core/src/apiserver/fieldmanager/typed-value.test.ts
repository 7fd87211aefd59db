/**
 * The field-path walks on their own: FieldsV1 written and read back, paths
 * printed as conflict messages print them, keyed lists merged in SMD's
 * item order, and what a comparison reports.
 */
import { describe, expect, it } from 'vitest';
import { FieldSet, pathString } from './field-set.ts';
import { rootType } from './merge-schema.ts';
import { compare, fieldSetOf, merge } from './typed-value.ts';

const POD = rootType('', 'v1', 'Pod');

describe('field sets', () => {
	it('round-trips FieldsV1, with "." on members that have children', () => {
		const fields = { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'f:spec': { 'f:containers': { 'k:{"name":"a"}': { '.': {}, 'f:image': {} } } } };
		const set = FieldSet.fromFieldsV1(fields);
		expect(set.has(['f:metadata', 'f:labels'])).toBe(true);
		expect(set.has(['f:metadata'])).toBe(false);
		expect(set.toFieldsV1()).toEqual(fields);
	});

	it('prints paths as SMD does', () => {
		expect(pathString(['f:spec', 'f:containers', 'k:{"name":"web"}', 'f:image'])).toBe('.spec.containers[name="web"].image');
		expect(pathString(['f:spec', 'f:ports', 'k:{"port":80,"protocol":"TCP"}'])).toBe('.spec.ports[port=80,protocol="TCP"]');
		expect(pathString(['f:metadata', 'f:finalizers', 'v:"a"'])).toBe('.metadata.finalizers[="a"]');
	});
});

describe('typed walks over a Pod', () => {
	it('owns what a configuration sets: map keys and list items, atomic lists whole, key defaults filled', () => {
		const config = { metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', command: ['sh', '-c'], ports: [{ containerPort: 80 }] }] } };
		expect(fieldSetOf(config, POD).toFieldsV1()).toEqual({
			'f:metadata': { 'f:labels': { 'f:app': {} } },
			'f:spec': { 'f:containers': { 'k:{"name":"c"}': { '.': {}, 'f:command': {}, 'f:name': {}, 'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } } } } },
		});
	});

	it('merges keyed lists item by item: live-only items keep their place, new ones come where the configuration puts them', () => {
		const live = { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'sidecar', image: 's:1' }, { name: 'b', image: 'b:1' }] } };
		const config = { spec: { containers: [{ name: 'b', image: 'b:2' }, { name: 'new', image: 'n:1' }, { name: 'a', image: 'a:2' }] } };
		const merged = merge(live, config, POD) as { spec: { containers: Array<{ name: string; image: string }> } };
		expect(merged.spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['sidecar=s:1', 'b=b:2', 'new=n:1', 'a=a:2']);
	});

	it('reports a replaced atomic list as one modified leaf, a new label map as added with its key', () => {
		const diff = compare({ spec: { containers: [{ name: 'c', command: ['a'] }] } }, { metadata: { labels: { x: 'y' } }, spec: { containers: [{ name: 'c', command: ['b'] }] } }, POD);
		expect(diff.modified.paths().map(pathString)).toEqual(['.spec.containers[name="c"].command']);
		expect(diff.added.paths().map(pathString)).toEqual(['.metadata', '.metadata.labels', '.metadata.labels.x']);
		expect(diff.removed.empty()).toBe(true);
	});
});
