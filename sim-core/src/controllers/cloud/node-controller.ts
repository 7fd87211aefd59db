/**
 * cloud-node-controller: initializes the Nodes a kubelet with
 * `--cloud-provider=external` registered. Such a Node carries the taint
 * `node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule`, so
 * nothing that does not tolerate it is scheduled there; the controller asks
 * the cloud about the instance, then in one update sets `spec.providerID`,
 * the instance-type, zone and region labels (the stable
 * `node.kubernetes.io/instance-type`, `topology.kubernetes.io/zone` and
 * `topology.kubernetes.io/region`, and their beta twins) and removes the
 * taint; it then writes the addresses the cloud reports into the Node's
 * status and records `Synced` ("Node synced successfully'). Every
 * `--node-status-update-frequency` (5 minutes) it refreshes the addresses
 * of the initialized Nodes.
 *
 * Mirrors staging/src/k8s.io/cloud-provider/controllers/node/node_controller.go
 * (syncNode, getNodeModifiersFromCloudProvider, UpdateNodeStatus,
 * updateNodeAddress), staging/src/k8s.io/cloud-provider/config/v1alpha1/defaults.go
 * (NodeStatusUpdateFrequency 5m).
 */
import type { KubeObject, Node } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { deepCopy } from '../../golang/json.ts';
import { TaintKeys } from '../../component-helpers/taints.ts';
import { ControllerBase, type ControllerHost, type SyncError } from '../controller-context.ts';
import type { CloudProvider } from './cloud.ts';

/** --node-status-update-frequency of cloud-controller-manager (default 5m). */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 5 * 60_000;

function cloudTainted(node: KubeObject): boolean {
	return ((node as Node).spec?.taints ?? []).some((t) => t.key === TaintKeys.ExternalCloudProvider);
}

function sameAddresses(a: Array<{ type: string; address: string }> | undefined, b: Array<{ type: string; address: string }>): boolean {
	return JSON.stringify(a ?? []) === JSON.stringify(b);
}

export class CloudNodeController extends ControllerBase<Record<string, never>> {
	readonly name = 'cloud-node-controller';
	readonly sub = 'cloud-node';
	readonly resources = ['nodes'] as const;

	constructor(
		host: ControllerHost,
		private readonly cloud: CloudProvider,
	) {
		super(host);
	}

	freshState(): Record<string, never> {
		return {};
	}

	override onLeading(): void {
		this.host.timer(this.sub, 'update-node-status', NODE_STATUS_UPDATE_FREQUENCY_MS, undefined, true);
	}

	override onAdd(_resource: string, obj: KubeObject): void {
		if (cloudTainted(obj)) this.enqueue(obj.metadata.name ?? '');
	}

	override onUpdate(_resource: string, _old: KubeObject, obj: KubeObject): void {
		if (cloudTainted(obj)) this.enqueue(obj.metadata.name ?? '');
	}

	override onTimer(timer: string): void {
		if (timer !== 'update-node-status') return;
		this.updateNodeStatus();
		this.host.timer(this.sub, 'update-node-status', NODE_STATUS_UPDATE_FREQUENCY_MS, undefined, true);
	}

	/** syncNode: initialize a tainted Node. */
	sync(key: string): SyncError {
		const cached = this.host.informer('nodes').get(key) as Node | undefined;
		if (!cached || !cloudTainted(cached)) return undefined;
		this.trace('sync', `nodes/${key}`, `Initializing node ${key} with cloud provider`);
		const metadata = this.cloud.instanceMetadata(cached);
		if (typeof metadata === 'string') return `failed to get instance metadata for node ${key}: ${metadata}`;
		const node: Node = deepCopy(cached);
		node.spec ??= {};
		if (!node.spec.providerID) node.spec.providerID = metadata.providerID;
		const labels = (node.metadata.labels ??= {});
		labels['beta.kubernetes.io/instance-type'] = metadata.instanceType;
		labels['node.kubernetes.io/instance-type'] = metadata.instanceType;
		labels['failure-domain.beta.kubernetes.io/zone'] = metadata.zone;
		labels['topology.kubernetes.io/zone'] = metadata.zone;
		labels['failure-domain.beta.kubernetes.io/region'] = metadata.region;
		labels['topology.kubernetes.io/region'] = metadata.region;
		node.spec.taints = (node.spec.taints ?? []).filter((t) => t.key !== TaintKeys.ExternalCloudProvider);
		if (node.spec.taints.length === 0) delete node.spec.taints;
		const updated = this.host.client.update<Node>(R.nodes, node);
		if (!updated.ok) return `failed to update node ${key}: ${updated.message}`;
		// Right after: the cloud's addresses, so users see no delay in them.
		this.updateNodeAddress(updated.object, metadata.nodeAddresses);
		this.trace('sync', `nodes/${key}`, `Successfully initialized node ${key} with cloud provider`);
		this.host.recorder('cloud-node-controller').record(updated.object, 'Normal', 'Synced', 'Node synced successfully');
		return undefined;
	}

	/** UpdateNodeStatus: the addresses of every initialized Node, from the cloud. */
	private updateNodeStatus(): void {
		for (const obj of this.host.informer('nodes').list()) {
			const node = obj as Node;
			if (cloudTainted(node)) continue;
			const metadata = this.cloud.instanceMetadata(node);
			if (typeof metadata === 'string') continue;
			this.updateNodeAddress(node, metadata.nodeAddresses);
		}
	}

	private updateNodeAddress(node: Node, addresses: Array<{ type: string; address: string }>): void {
		if (sameAddresses(node.status?.addresses, addresses)) return;
		const patched = this.host.client.patch(R.nodes, undefined, (node.metadata.name ?? ''), { status: { addresses } }, 'application/strategic-merge-patch+json', 'status');
		if (!patched.ok) this.trace('error', `nodes/${node.metadata.name}`, `failed to update node addresses: ${patched.message}`);
	}
}
