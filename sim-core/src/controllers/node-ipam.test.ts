import { describe, it, expect } from 'vitest';
import type { Node } from '../api/types.ts';
import { R } from '../client/client.ts';
import { CidrSet } from './node-ipam.ts';
import { createControllerHarness } from '../testing/controllers/harness.ts';
import { get } from '../testing/controllers/builders.ts';

describe('CidrSet', () => {
	it('cuts 10.244.0.0/16 into 256 /24 blocks handed out in order, skipping used ones and wrapping round', () => {
		const set = new CidrSet('10.244.0.0/16', 24);
		expect(set.maxCidrs).toBe(256);
		const state = { used: [1], nextCandidate: 0 };
		expect(set.allocateNext(state)).toBe('10.244.0.0/24');
		expect(set.allocateNext(state)).toBe('10.244.2.0/24');
		expect(set.index('10.244.255.0/24')).toBe(255);
		expect(set.index('10.245.0.0/24')).toBeUndefined();
	});

	it('runs out when every block is taken', () => {
		const set = new CidrSet('10.0.0.0/23', 24);
		const state = { used: [], nextCandidate: 1 };
		expect([set.allocateNext(state), set.allocateNext(state), set.allocateNext(state)]).toEqual(['10.0.1.0/24', '10.0.0.0/24', undefined]);
	});
});

describe('the node IPAM controller', () => {
	it('gives each node the next /24 of the cluster CIDR, keeps existing ones, and frees a deleted node\'s block', () => {
		const c = createControllerHarness({ nodes: ['node-a', 'node-b'] });
		c.advance(100);
		const cidr = (name: string) => get<Node>(c, R.nodes, undefined, name)?.spec;
		expect(cidr('node-a')).toEqual({ podCIDR: '10.244.0.0/24', podCIDRs: ['10.244.0.0/24'] });
		expect(cidr('node-b')).toEqual({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
		c.kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-c' }, spec: { podCIDR: '10.244.7.0/24', podCIDRs: ['10.244.7.0/24'] } });
		c.kubectl.delete(R.nodes, undefined, 'node-a');
		c.advance(100);
		c.kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-d' }, spec: {} });
		c.advance(100);
		// Allocation goes on from after the last block handed out, skipping the ones in use.
		expect(cidr('node-d')?.podCIDRs).toEqual(['10.244.2.0/24']);
		expect(cidr('node-c')?.podCIDRs).toEqual(['10.244.7.0/24']);
		expect(c.kcm.state.controllers.nodeipam).toEqual({ used: [1, 7, 2], nextCandidate: 3 });
	});
});
