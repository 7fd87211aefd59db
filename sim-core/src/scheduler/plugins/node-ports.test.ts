import { describe, expect, it } from 'vitest';
import type { ContainerPort, Pod } from '../../api/types.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { Code } from '../framework/status.ts';
import { makeNode, makePod, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ERR_REASON_NODE_PORTS, NodePorts } from './node-ports.ts';

/** newPod of node_ports_test.go: ports as "protocol/hostIP/hostPort". */
let n = 0;
function newPod(nodeName: string, ...ports: string[]): Pod {
	const list: ContainerPort[] = ports.map((p) => {
		const [protocol, hostIP, port] = p.split('/');
		return { containerPort: Number(port), hostPort: Number(port), protocol, hostIP };
	});
	return makePod(`p${++n}`, { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'c', ports: list }] });
}

// TestNodePorts (node_ports_test.go).
describe('NodePorts filter', () => {
	const conflict = { code: Code.Unschedulable, reasons: [ERR_REASON_NODE_PORTS] };
	it.each([
		{ name: 'nothing running', pod: newPod(''), existing: [] as Pod[], want: 'skip' },
		{ name: 'other port', pod: newPod('m1', 'UDP/127.0.0.1/8080'), existing: [newPod('m1', 'UDP/127.0.0.1/9090')], want: 'fits' },
		{ name: 'same udp port', pod: newPod('m1', 'UDP/127.0.0.1/8080'), existing: [newPod('m1', 'UDP/127.0.0.1/8080')], want: conflict },
		{ name: 'same tcp port', pod: newPod('m1', 'TCP/127.0.0.1/8080'), existing: [newPod('m1', 'TCP/127.0.0.1/8080')], want: conflict },
		{ name: 'different host ip', pod: newPod('m1', 'TCP/127.0.0.1/8080'), existing: [newPod('m1', 'TCP/127.0.0.2/8080')], want: 'fits' },
		{ name: 'different protocol', pod: newPod('m1', 'UDP/127.0.0.1/8080'), existing: [newPod('m1', 'TCP/127.0.0.1/8080')], want: 'fits' },
		{ name: 'second udp port conflict', pod: newPod('m1', 'UDP/127.0.0.1/8000', 'UDP/127.0.0.1/8080'), existing: [newPod('m1', 'UDP/127.0.0.1/8080')], want: conflict },
		{ name: 'first tcp port conflict', pod: newPod('m1', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8080'), existing: [newPod('m1', 'TCP/127.0.0.1/8001', 'UDP/127.0.0.1/8081')], want: conflict },
		{ name: 'first tcp port conflict due to 0.0.0.0 hostIP', pod: newPod('m1', 'TCP/0.0.0.0/8001'), existing: [newPod('m1', 'TCP/127.0.0.1/8001')], want: conflict },
		{ name: 'TCP hostPort conflict due to 0.0.0.0 hostIP', pod: newPod('m1', 'TCP/10.0.10.10/8001', 'TCP/0.0.0.0/8001'), existing: [newPod('m1', 'TCP/127.0.0.1/8001')], want: conflict },
		{ name: 'second tcp port conflict to 0.0.0.0 hostIP', pod: newPod('m1', 'TCP/127.0.0.1/8001'), existing: [newPod('m1', 'TCP/0.0.0.0/8001')], want: conflict },
		{ name: 'second different protocol', pod: newPod('m1', 'UDP/127.0.0.1/8001'), existing: [newPod('m1', 'TCP/0.0.0.0/8001')], want: 'fits' },
		{ name: 'UDP hostPort conflict due to 0.0.0.0 hostIP', pod: newPod('m1', 'UDP/127.0.0.1/8001'), existing: [newPod('m1', 'TCP/0.0.0.0/8001', 'UDP/0.0.0.0/8001')], want: conflict },
		{ name: 'an empty hostIP means 0.0.0.0 and an empty protocol means TCP', pod: newPod('m1', '//8001'), existing: [newPod('m1', 'TCP/127.0.0.1/8001')], want: conflict },
	])('$name', ({ pod, existing, want }) => {
		const plugin = new NodePorts();
		const cache = snapshotOf([makeNode('m1')], existing);
		const state = new CycleState();
		const pre = plugin.preFilter(state, pod);
		if (pre.status?.code === Code.Skip) {
			expect('skip').toBe(want);
			return;
		}
		const s = plugin.filter(state, pod, cache.get('m1')!);
		expect(s ? { code: s.code, reasons: s.allReasons() } : 'fits').toEqual(want);
	});
});
