/**
 * ImageLocality: upstream's TestImageLocalityPriority
 * (pkg/scheduler/framework/plugins/imagelocality/image_locality_test.go),
 * replayed through the public API. The score scales each image by the share
 * of the cluster's nodes that have it, so every case runs on a cluster of
 * exactly its nodes (isolation 'own'); the nodes are built with the images
 * (NodeOptions.images) and their kubelets report them in the Node's status,
 * next to the pause image every node has.
 */
import { pod, scoreOnly, type PublicTable } from './table.ts';
import type { NodeOptions } from '../../../index.ts';

const mb = 1024 * 1024;
/** Node images in MiB, as upstream's tests list them (shared with the plugin's own table test). */
const images = (...list: Array<[string[], number]>) => list.map(([names, size]) => ({ names, sizeBytes: size * mb }));
const imageNode = (name: string, nodeImages: NodeOptions['images']): NodeOptions => ({ name, cpu: '2', memory: '4Gi', ...(nodeImages?.length ? { images: nodeImages } : {}) });

export const node403002000 = images([['gcr.io/40:latest', 'gcr.io/40:v1', 'gcr.io/40:v1'], 40], [['gcr.io/300:latest', 'gcr.io/300:v1'], 300], [['gcr.io/2000:latest'], 2000]);
export const node25010 = images([['gcr.io/250:latest'], 250], [['gcr.io/10:latest', 'gcr.io/10:v1'], 10]);
export const node60040900 = images([['gcr.io/600:latest'], 600], [['gcr.io/40:latest'], 40], [['gcr.io/900:latest'], 900]);
export const node300600900 = images([['gcr.io/300:latest'], 300], [['gcr.io/600:latest'], 600], [['gcr.io/900:latest'], 900]);
export const node400030 = images([['gcr.io/4000:latest'], 4000], [['gcr.io/30:latest'], 30]);
export const node203040 = images([['gcr.io/20:latest'], 20], [['gcr.io/30:latest'], 30], [['gcr.io/40:latest'], 40]);
export const nodeWithNoImages: NodeOptions['images'] = [];

export const imageLocalityPriority: PublicTable = {
	test: 'TestImageLocalityPriority',
	source: 'imagelocality/image_locality_test.go',
	isolation: 'own',
	plugin: 'ImageLocality',
	profiles: [scoreOnly('image-locality', 'ImageLocality')],
	defaultProfile: 'image-locality',
	cases: [
		{ name: 'two images spread on two nodes, prefer the larger image one', nodes: [imageNode('node1', node403002000), imageNode('node2', node25010)], pod: pod('il-1', { images: ['gcr.io/40', 'gcr.io/250'] }), expect: { scores: { node1: 0, node2: 5 } } },
		{ name: 'two images on one node, prefer this node', nodes: [imageNode('node1', node403002000), imageNode('node2', node25010)], pod: pod('il-2', { images: ['gcr.io/40', 'gcr.io/300'] }), expect: { scores: { node1: 7, node2: 0 } } },
		{ name: 'if exceed limit, use limit', nodes: [imageNode('node1', node400030), imageNode('node2', node25010)], pod: pod('il-3', { images: ['gcr.io/10', 'gcr.io/4000'] }), expect: { scores: { node1: 100, node2: 0 } } },
		{
			name: 'if exceed limit, use limit (with node which has no images present)',
			nodes: [imageNode('node1', node400030), imageNode('node2', node25010), imageNode('node3', nodeWithNoImages)],
			pod: pod('il-4', { images: ['gcr.io/10', 'gcr.io/4000'] }),
			expect: { scores: { node1: 66, node2: 0, node3: 0 } },
		},
		{
			name: 'pod with multiple large images, node2 is preferred',
			nodes: [imageNode('node1', node60040900), imageNode('node2', node300600900), imageNode('node3', nodeWithNoImages)],
			pod: pod('il-5', { images: ['gcr.io/300', 'gcr.io/600', 'gcr.io/900'] }),
			expect: { scores: { node1: 32, node2: 36, node3: 0 } },
		},
		{ name: 'pod with multiple small images', nodes: [imageNode('node1', node203040), imageNode('node2', node400030)], pod: pod('il-6', { images: ['gcr.io/30', 'gcr.io/40'] }), expect: { scores: { node1: 1, node2: 0 } } },
		{
			name: 'include InitContainers: two images spread on two nodes, prefer the larger image one',
			nodes: [imageNode('node1', node403002000), imageNode('node2', node203040)],
			pod: pod('il-7', { images: ['gcr.io/30'], initImages: ['gcr.io/300'] }),
			expect: { scores: { node1: 6, node2: 0 } },
		},
	],
	notExpressible: [],
};
