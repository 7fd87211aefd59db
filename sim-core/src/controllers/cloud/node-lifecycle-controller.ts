/**
 * cloud-node-lifecycle-controller: every `--node-monitor-period` (5 s) it
 * looks at the Nodes that are not Ready and asks the cloud about their
 * instances. A Node whose instance no longer exists is deleted (event
 * `DeletingNode`: "Deleting node <name> because it does not exist in the
 * cloud provider'); a Node whose instance is stopped gets the taint
 * `node.cloudprovider.kubernetes.io/shutdown:NoSchedule`, removed again when
 * the Node is Ready.
 *
 * Mirrors staging/src/k8s.io/cloud-provider/controllers/nodelifecycle/node_lifecycle_controller.go
 * (MonitorNodes, ShutdownTaint), staging/src/k8s.io/cloud-provider/config/v1alpha1/defaults.go
 * (NodeMonitorPeriod 5s).
 */
import type { Node, Taint } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { deepCopy } from '../../golang/json.ts';
import { TaintKeys } from '../../component-helpers/taints.ts';
import { ControllerBase, type ControllerHost, type SyncError } from '../controller-context.ts';
import type { CloudProvider } from './cloud.ts';

/** --node-monitor-period (KubeCloudShared default 5s). */
export const CLOUD_NODE_MONITOR_PERIOD_MS = 5_000;

const SHUTDOWN_TAINT: Taint = { key: TaintKeys.NodeShutdown, effect: 'NoSchedule' };

export class CloudNodeLifecycleController extends ControllerBase<Record<string, never>> {
	readonly name = 'cloud-node-lifecycle-controller';
	readonly sub = 'cloud-node-lifecycle';
	readonly resources = ['nodes'] as const;

	constructor(
		host: ControllerHost,
		private readonly cloud: CloudProvider,
		private readonly monitorPeriodMs = CLOUD_NODE_MONITOR_PERIOD_MS,
	) {
		super(host);
	}

	freshState(): Record<string, never> {
		return {};
	}

	override onLeading(): void {
		this.host.timer(this.sub, 'monitor', this.monitorPeriodMs, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer !== 'monitor') return;
		this.monitorNodes();
		this.host.timer(this.sub, 'monitor', this.monitorPeriodMs, undefined, true);
	}

	sync(): SyncError {
		return undefined;
	}

	/** MonitorNodes. */
	private monitorNodes(): void {
		for (const obj of this.host.informer('nodes').list()) {
			const node = obj as Node;
			const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown';
			const tainted = (node.spec?.taints ?? []).some((t) => t.key === SHUTDOWN_TAINT.key);
			if (ready === 'True') {
				if (tainted) this.setShutdownTaint(node, false);
				continue;
			}
			if (!this.cloud.instanceExists(node)) {
				this.trace('delete', `nodes/${node.metadata.name}`, `deleting node since it is no longer present in cloud provider: ${node.metadata.name}`);
				const recorder = this.host.recorder('cloud-node-lifecycle-controller');
				recorder.record(node, 'Normal', 'DeletingNode', `Deleting node ${node.metadata.name} because it does not exist in the cloud provider`);
				const deleted = this.host.client.delete(R.nodes, undefined, (node.metadata.name ?? ''));
				if (!deleted.ok && deleted.code !== 404) recorder.record(node, 'Warning', 'DeletingNodeFailed', `Error deleting node ${node.metadata.name}: ${deleted.message}`);
				continue;
			}
			if (!tainted && this.cloud.instanceShutdown(node)) this.setShutdownTaint(node, true);
		}
	}

	private setShutdownTaint(cached: Node, on: boolean): void {
		const node: Node = deepCopy(cached);
		node.spec ??= {};
		const others = (node.spec.taints ?? []).filter((t) => t.key !== SHUTDOWN_TAINT.key);
		node.spec.taints = on ? [...others, { ...SHUTDOWN_TAINT }] : others;
		if (node.spec.taints.length === 0) delete node.spec.taints;
		const updated = this.host.client.update(R.nodes, node);
		if (!updated.ok) this.trace('error', `nodes/${node.metadata.name}`, on ? `failed to apply shutdown taint to node ${node.metadata.name}, it may have been deleted.` : `error patching node taints: ${updated.message}`);
		else this.trace('taint', `nodes/${node.metadata.name}`, on ? `instance of ${node.metadata.name} is shut down: tainted ${SHUTDOWN_TAINT.key}:NoSchedule` : `removed ${SHUTDOWN_TAINT.key} from ${node.metadata.name}`);
	}
}
