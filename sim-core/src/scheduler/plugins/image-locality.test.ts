import { describe, expect, it } from 'vitest';
import type { Container } from '../../api/types.ts';
import { fakeHandle, makeBareNode, makePod, runScore, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ImageLocality, normalizedImageName } from './image-locality.ts';
// The nodes of TestImageLocalityPriority, the same ones the public-API replay builds clusters from.
import { node203040, node25010, node300600900, node400030, node403002000, node60040900, nodeWithNoImages } from '../testdata/public-tables/imagelocality.ts';

const containers = (...images: string[]): Container[] => images.map((image, i) => ({ name: `c${i}`, image }));

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
