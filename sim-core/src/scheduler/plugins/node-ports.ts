/**
 * NodePorts: a pod asking for host ports fits only on nodes where no pod
 * already holds the same protocol/port on a conflicting address.
 *
 * Mirrors pkg/scheduler/framework/plugins/nodeports/node_ports.go.
 */
import type { Pod } from '../../api/types.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import type { EnqueueExtensions, FilterPlugin, PreFilterPlugin, PreFilterResult } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import { type NodeInfo } from '../framework/types.ts';
import { getHostPorts, HostPortInfo, type HostPort } from '../../component-helpers/host-ports.ts';
import { Names } from './names.ts';

/** ErrReason. */
export const ERR_REASON_NODE_PORTS = "node(s) didn't have free ports for the requested pod ports";

const PRE_FILTER_KEY = `PreFilter${Names.NodePorts}`;

class PreFilterState implements StateData {
	constructor(readonly ports: HostPort[]) {}
	clone(): StateData {
		return this;
	}
}

/** fitsPorts: none of the wanted ports conflicts with the node's used ports. */
function fitsPorts(wanted: HostPort[], used: HostPortInfo): boolean {
	return !wanted.some((p) => used.checkConflict(p.hostIP, p.protocol, p.hostPort));
}

export class NodePorts implements PreFilterPlugin, FilterPlugin, EnqueueExtensions {
	readonly name = Names.NodePorts;

	preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } {
		const ports = getHostPorts(pod.spec);
		if (ports.length === 0) return { status: new Status(Code.Skip) };
		state.write(PRE_FILTER_KEY, new PreFilterState(ports));
		return {};
	}

	filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const wanted = state.read<PreFilterState>(PRE_FILTER_KEY)?.ports ?? getHostPorts(pod.spec);
		return fitsPorts(wanted, nodeInfo.usedPorts) ? undefined : new Status(Code.Unschedulable, [ERR_REASON_NODE_PORTS]);
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{
				event: { resource: 'Pod', actionType: ActionType.Delete },
				// Queue when the deleted, bound pod held a port this pod wants.
				hint: (pod, old) => {
					const deleted = old as Pod | undefined;
					if (!deleted?.spec.nodeName) return QueueingHint.QueueSkip;
					const used = new HostPortInfo();
					for (const p of getHostPorts(deleted.spec)) used.add(p.hostIP, p.protocol, p.hostPort);
					return fitsPorts(getHostPorts(pod.spec), used) ? QueueingHint.QueueSkip : QueueingHint.Queue;
				},
			},
			{ event: { resource: 'Node', actionType: ActionType.Add } },
		];
	}
}
