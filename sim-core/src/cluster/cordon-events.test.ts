/**
 * The kubelet notices its node being cordoned and uncordoned at its next
 * status pass (every 10 s) and says so on the Node: NodeNotSchedulable,
 * then NodeSchedulable, worded `Node <name> status is now: <reason>`
 * (kubelet_node_status.go recordNodeSchedulableEvent, the last of the
 * status setters).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const kubeletEvents = (describeOutput: string) =>
	describeOutput
		.split('Events:')[1]
		.split('\n')
		.filter((l) => / kubelet /.test(l) && /Schedulable/.test(l))
		.map((l) => l.trim().replace(/\s{2,}\S+\s{2,}kubelet\s{2,}/, ' | '));

describe('cordon and uncordon as the kubelet reports them', () => {
	it('records NodeNotSchedulable, then NodeSchedulable, once each', () => {
		const cluster = createCluster({ seed: 2 });
		expect(kubeletEvents(cluster.exec('kubectl describe node node-1').stdout)).toEqual([]);
		cluster.exec('kubectl cordon node-1');
		cluster.advance('15s');
		cluster.exec('kubectl uncordon node-1');
		cluster.advance('15s');
		cluster.advance('1m');
		expect(kubeletEvents(cluster.exec('kubectl describe node node-1').stdout)).toEqual([
			'Normal  NodeNotSchedulable | Node node-1 status is now: NodeNotSchedulable',
			'Normal  NodeSchedulable | Node node-1 status is now: NodeSchedulable',
		]);
	});
});
