/**
 * `kubeadm init`, the part that talks to the API server: once the control
 * plane's static pods answer, it uploads its configuration, publishes
 * `cluster-info`, creates its RBAC rules and the kube-proxy and CoreDNS
 * add-ons, and marks the control-plane node (label and NoSchedule taint) as
 * soon as that node has registered. Then it exits, as the real command does.
 * (The certificates and static pod manifests it writes before that are
 * files, laid out by ./files.ts.)
 *
 * It runs kubeadm's init phases upload-config, bootstrap-token,
 * mark-control-plane and addon; on a cluster whose control-plane kubelet
 * registers no Node, mark-control-plane is skipped (`--skip-phases`), as
 * it would wait for a Node that never comes.
 *
 * Mirrors cmd/kubeadm/app/cmd/phases/init/uploadconfig.go,
 * cmd/kubeadm/app/cmd/phases/init/bootstraptoken.go,
 * cmd/kubeadm/app/cmd/phases/init/markcontrolplane.go,
 * cmd/kubeadm/app/cmd/phases/init/addons.go,
 * cmd/kubeadm/app/phases/markcontrolplane/markcontrolplane.go.
 */
import type { KubeObject, Node } from '../api/types.ts';
import { resourceForKind } from '../api/resources.ts';
import { ApiClient, R, refOf } from '../client/client.ts';
import type { ApiTransport } from '../client/transport.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';

interface KubeadmInitState {
	/** Objects still to create, by index into `objects`. */
	next: number;
	controlPlaneMarked: boolean;
	attempts: number;
	/** Whether the further control-plane machines were told to join (`kubeadm join --control-plane`, once init is done). */
	joined?: boolean;
}

/** kubeadm retries API calls every 500 ms (constants.KubernetesAPICallRetryInterval). */
const RETRY_MS = 500;
/** It gives up after 4 minutes (ControlPlaneComponentHealthCheckTimeout); so do we. */
const MAX_ATTEMPTS = 480;

export class KubeadmInit extends ProcessBase<KubeadmInitState> {
	private readonly client: ApiClient;

	constructor(
		kernel: Kernel,
		transport: ApiTransport,
		/**
		 * The control-plane Nodes to mark: the init node, then those that joined
		 * with --control-plane (each join runs mark-control-plane too); none
		 * skips the phase (their kubelets register no Node).
		 */
		private readonly controlPlaneNodes: readonly string[],
		private readonly objects: () => KubeObject[],
		/**
		 * Brings the further control-plane machines up once init has done its
		 * part, as `kubeadm join --control-plane` runs on them after `kubeadm
		 * init`: their replicas find the first machine's already leading.
		 */
		private readonly joinControlPlane?: () => void,
	) {
		super('kubeadm', kernel);
		this.client = new ApiClient(transport, 'kubeadm');
	}

	freshState(): KubeadmInitState {
		return { next: 0, controlPlaneMarked: false, attempts: 0 };
	}

	onStart(): void {
		this.emit({ action: 'start', msg: 'kubeadm init: waiting for the control plane to answer' });
		this.after(RETRY_MS, 'step');
	}

	handle(event: QueuedEvent): void {
		if (event.kind !== 'step') return;
		if (this.step()) {
			this.emit({ action: 'done', msg: `kubeadm init finished: configuration uploaded, add-ons installed${this.controlPlaneNodes.length === 0 ? '' : this.controlPlaneNodes.length === 1 ? ', control-plane node marked' : `, control-plane nodes marked (${this.controlPlaneNodes.join(', ')})`}` });
			this.kernel.stop(this.id);
			return;
		}
		if (++this.state.attempts >= MAX_ATTEMPTS) {
			this.emit({ action: 'error', msg: 'kubeadm init gave up waiting for the control plane' });
			this.kernel.stop(this.id);
			return;
		}
		this.after(RETRY_MS, 'step');
	}

	/** One attempt at the remaining work; true when everything is done. */
	private step(): boolean {
		const objects = this.objects();
		while (this.state.next < objects.length) {
			const obj = objects[this.state.next];
			const info = resourceForKind(obj.apiVersion, obj.kind);
			if (!info) {
				this.state.next++;
				continue;
			}
			const created = this.client.create(refOf(info), info.namespaced ? obj.metadata.namespace : undefined, obj);
			if (!created.ok && created.code !== 409) return false;
			this.state.next++;
		}
		if (!this.state.controlPlaneMarked && this.controlPlaneNodes.length > 0) {
			// Marking twice changes nothing, so a retry after a partial pass simply marks them all again.
			for (const [i, name] of this.controlPlaneNodes.entries()) {
				// The joining machines' Nodes come once they are up: after the first is marked.
				if (i === 1) this.join();
				const node = this.client.get<Node>(R.nodes, undefined, name);
				if (!node.ok) return false;
				const taints = node.object.spec?.taints ?? [];
				const marked = this.client.patch(R.nodes, undefined, name, {
					metadata: { labels: { 'node-role.kubernetes.io/control-plane': '', 'node.kubernetes.io/exclude-from-external-load-balancers': '' } },
					spec: { taints: [...taints.filter((t) => t.key !== 'node-role.kubernetes.io/control-plane'), { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] },
				});
				if (!marked.ok) return false;
			}
			this.state.controlPlaneMarked = true;
		}
		this.join();
		return true;
	}

	/** Starts the control-plane joins, once. */
	private join(): void {
		if (this.state.joined || !this.joinControlPlane) return;
		this.state.joined = true;
		this.emit({ action: 'join', msg: 'kubeadm join --control-plane: the further control-plane machines join' });
		this.joinControlPlane();
	}
}
