import { describe, expect, it } from 'vitest';
import type { Container, NodeStatus } from '../../api/types.ts';
import { fakeHandle, makeBareNode, makePod, runScore, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ImageLocality, normalizedImageName } from './image-locality.ts';

const mb = 1024 * 1024;
const containers = (...images: string[]): Container[] => images.map((image, i) => ({ name: `c${i}`, image }));
const images = (...list: Array<[string[], number]>): NodeStatus['images'] => list.map(([names, size]) => ({ names, sizeBytes: size * mb }));

const node403002000 = images([['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], 40], [['gcr.io/300:latest', 'gcr.io/300:v1'], 300], [['gcr.io/2000:latest'], 2000]);
const node25010 = images([['gcr.io/250:latest'], 250], [['gcr.io/10:latest', 'gcr.io/10:v1'], 10]);
const node60040900 = images([['gcr.io/600:latest'], 600], [['gcr.io/40:latest'], 40], [['gcr.io/900:latest'], 900]);
const node300600900 = images([['gcr.io/300:latest'], 300], [['gcr.io/600:latest'], 600], [['gcr.io/900:latest'], 900]);
const node400030 = images([['gcr.io/4000:latest'], 4000], [['gcr.io/30:latest'], 30]);
const node203040 = images([['gcr.io/20:latest'], 20], [['gcr.io/30:latest'], 30], [['gcr.io/40:latest'], 40]);
const nodeWithNoImages: NodeStatus['images'] = [];

// TestImageLocalityPriority (image_locality_test.go): maxThreshold is 1000 MiB per container.
describe('ImageLocality score', () => {
	it.each([
		{ name: 'two images spread on two nodes, prefer the larger image one', pod: containers('gcr.io/40', 'gcr.io/250'), nodes: [node403002000, node25010], expected: [0, 5] },
		{ name: 'two images on one node, prefer this node', pod: containers('gcr.io/40', 'gcr.io/300'), nodes: [node403002000, node25010], expected: [7, 0] },
		{ name: 'if exceed limit, use limit', pod: containers('gcr.io/10', 'gcr.io/4000'), nodes: [node400030, node25010], expected: [100, 0] },
		{ name: 'if exceed limit, use limit (with node which has no images present)', pod: containers('gcr.io/10', 'gcr.io/4000'), nodes: [node400030, node25010, nodeWithNoImages], expected: [66, 0, 0] },
		{ name: 'pod with multiple large images, node2 is preferred', pod: containers('gcr.io/300', 'gcr.io/600', 'gcr.io/900'), nodes: [node60040900, node300600900, nodeWithNoImages], expected: [32, 36, 0] },
		{ name: 'pod with multiple small images', pod: containers('gcr.io/30', 'gcr.io/40'), nodes: [node203040, node400030], expected: [1, 0] },
		{ name: 'include InitContainers: two images spread on two nodes, prefer the larger image one', pod: containers('gcr.io/30'), init: containers('gcr.io/300'), nodes: [node403002000, node203040], expected: [6, 0] },
	])('$name', ({ pod, init, nodes, expected }) => {
		const cache = snapshotOf(nodes.map((imgs, i) => makeBareNode(`node${i + 1}`, { images: imgs })));
		const result = runScore(new ImageLocality(fakeHandle(cache)), makePod('p', { containers: pod, ...(init ? { initContainers: init } : {}) }), cache);
		expect(Array.isArray(result) && result.map((s) => s.score)).toEqual(expected);
	});
});

// TestNormalizedImageName.
describe('normalizedImageName', () => {
	it.each([
		{ name: 'add :latest postfix 1', input: 'root', output: 'root:latest' },
		{ name: 'add :latest postfix 2', input: 'gcr.io:5000/root', output: 'gcr.io:5000/root:latest' },
		{ name: 'keep it as is 1', input: 'root:tag', output: 'root:tag' },
		{ name: 'keep it as is 2', input: 'root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2', output: 'root@sha256:4813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2' },
	])('$name', ({ input, output }) => {
		expect(normalizedImageName(input)).toBe(output);
	});
});
