/**
 * The scheduler cache: for each node, the pods on it and what they use,
 * including pods the scheduler has *assumed* there (decided, bind under way)
 * before the API server's answer comes back through the pod informer.
 *
 * The cache is derived data: it is rebuilt from the informers' caches and
 * the assumed pods, which are in the process state (so a snapshot restore
 * rebuilds it). Assumed pods do not expire here: upstream stopped expiring
 * them (an assumed pod waits until the informer confirms or the bind
 * fails).
 *
 * Mirrors pkg/scheduler/backend/cache/cache.go (AssumePod, FinishBinding,
 * ForgetPod, AddPod confirming an assumed pod, image states),
 * pkg/scheduler/backend/cache/snapshot.go (the node list in node-tree order,
 * the lists of nodes with affinity pods).
 */
import type { Node, Pod } from '../../api/types.ts';
import type { NodeInfoLister } from '../framework/interface.ts';
import { NodeInfo, PodInfo, podKey, type ImageStateSummary } from '../framework/types.ts';
import { NodeTree } from './node-tree.ts';

/** An assumed pod as the process state keeps it. */
export interface AssumedPod {
	node: string;
	pod: Pod;
	/** FinishBinding was called (the bind request returned). */
	bindingFinished: boolean;
}

export class SchedulerCache implements NodeInfoLister {
	private readonly nodes = new Map<string, NodeInfo>();
	/** Where each known pod is: key -> node name. */
	private readonly podNode = new Map<string, string>();
	private readonly tree = new NodeTree();
	/** image name -> the shared summary and the nodes that have it. */
	private readonly images = new Map<string, { summary: ImageStateSummary; nodes: Set<string> }>();
	private listCache?: NodeInfo[];
	/** How many placed pods have pod (anti-)affinity, and required anti-affinity. */
	private affinityPods = 0;
	private antiAffinityPods = 0;

	constructor(private readonly assumed: () => Record<string, AssumedPod>) {}

	// ---- nodes -------------------------------------------------------------

	private nodeInfo(name: string): NodeInfo {
		let info = this.nodes.get(name);
		if (!info) {
			info = new NodeInfo();
			this.nodes.set(name, info);
		}
		return info;
	}

	addNode(node: Node): void {
		const name = node.metadata.name ?? '';
		const info = this.nodeInfo(name);
		if (info.node) {
			this.updateNode(info.node, node);
			return;
		}
		info.setNode(node);
		this.tree.add(node);
		this.addImages(node, info);
		this.listCache = undefined;
	}

	updateNode(oldNode: Node, newNode: Node): void {
		const name = newNode.metadata.name ?? '';
		const info = this.nodeInfo(name);
		if (!info.node) {
			this.addNode(newNode);
			return;
		}
		this.removeImages(info.node);
		info.setNode(newNode);
		this.tree.update(oldNode, newNode);
		this.addImages(newNode, info);
		this.listCache = undefined;
	}

	/** RemoveNode: the node goes from the list; its NodeInfo stays while pods still point at it. */
	removeNode(node: Node): void {
		const name = node.metadata.name ?? '';
		const info = this.nodes.get(name);
		if (!info?.node) return;
		this.removeImages(info.node);
		this.tree.remove(info.node);
		info.node = undefined;
		if (info.pods.length === 0) this.nodes.delete(name);
		this.listCache = undefined;
	}

	private addImages(node: Node, info: NodeInfo): void {
		const summaries = new Map<string, ImageStateSummary>();
		const name = node.metadata.name ?? '';
		for (const image of node.status?.images ?? []) {
			for (const imageName of image.names ?? []) {
				let state = this.images.get(imageName);
				if (!state) {
					state = { summary: { size: image.sizeBytes, numNodes: 0 }, nodes: new Set() };
					this.images.set(imageName, state);
				}
				state.nodes.add(name);
				state.summary.numNodes = state.nodes.size;
				summaries.set(imageName, state.summary);
			}
		}
		info.imageStates = summaries;
	}

	private removeImages(node: Node): void {
		const name = node.metadata.name ?? '';
		for (const image of node.status?.images ?? []) {
			for (const imageName of image.names ?? []) {
				const state = this.images.get(imageName);
				if (!state) continue;
				state.nodes.delete(name);
				state.summary.numNodes = state.nodes.size;
				if (state.nodes.size === 0) this.images.delete(imageName);
			}
		}
	}

	// ---- pods --------------------------------------------------------------

	private place(pod: Pod, nodeName: string): void {
		const key = podKey(pod);
		this.unplace(key);
		const pi = new PodInfo(pod);
		this.nodeInfo(nodeName).addPodInfo(pi);
		this.podNode.set(key, nodeName);
		if (pi.hasAffinity) this.affinityPods++;
		if (pi.requiredAntiAffinityTerms.length > 0) this.antiAffinityPods++;
	}

	private unplace(key: string): void {
		const nodeName = this.podNode.get(key);
		if (nodeName === undefined) return;
		const info = this.nodes.get(nodeName);
		const pi = info?.pods.find((p) => p.key === key);
		if (pi?.hasAffinity) this.affinityPods--;
		if (pi && pi.requiredAntiAffinityTerms.length > 0) this.antiAffinityPods--;
		info?.removePod(key);
		if (info && !info.node && info.pods.length === 0) this.nodes.delete(nodeName);
		this.podNode.delete(key);
	}

	/** AssumePod: count the pod on its chosen node now, before the bind is confirmed. */
	assumePod(pod: Pod): void {
		const key = podKey(pod);
		const nodeName = pod.spec.nodeName ?? '';
		this.assumed()[key] = { node: nodeName, pod, bindingFinished: false };
		this.place(pod, nodeName);
	}

	/** FinishBinding: the bind request returned. */
	finishBinding(key: string): void {
		const a = this.assumed()[key];
		if (a) a.bindingFinished = true;
	}

	/** ForgetPod: the bind failed; the assumed pod leaves its node. */
	forgetPod(key: string): void {
		if (!this.assumed()[key]) return;
		delete this.assumed()[key];
		this.unplace(key);
	}

	isAssumedPod(key: string): boolean {
		return !!this.assumed()[key];
	}

	/** AddPod: a bound pod seen by the informer (confirming an assumed one, perhaps on another node). */
	addPod(pod: Pod): void {
		const key = podKey(pod);
		delete this.assumed()[key];
		this.place(pod, pod.spec.nodeName ?? '');
	}

	updatePod(_oldPod: Pod, newPod: Pod): void {
		this.addPod(newPod);
	}

	removePod(pod: Pod): void {
		const key = podKey(pod);
		delete this.assumed()[key];
		this.unplace(key);
	}

	/** Where a pod is counted, if anywhere. */
	nodeOf(key: string): string | undefined {
		return this.podNode.get(key);
	}

	// ---- the snapshot lister -----------------------------------------------------

	/** The nodes (with a Node object) in node-tree order. */
	list(): NodeInfo[] {
		this.listCache ??= this.tree
			.list()
			.map((name) => this.nodes.get(name))
			.filter((info): info is NodeInfo => !!info?.node);
		return this.listCache;
	}

	get(nodeName: string): NodeInfo | undefined {
		const info = this.nodes.get(nodeName);
		return info?.node ? info : undefined;
	}

	havePodsWithAffinityList(): NodeInfo[] {
		// Most clusters have no affinity pods at all: skip the walk then.
		if (this.affinityPods === 0) return [];
		return this.list().filter((n) => n.podsWithAffinity.length > 0);
	}

	havePodsWithRequiredAntiAffinityList(): NodeInfo[] {
		if (this.antiAffinityPods === 0) return [];
		return this.list().filter((n) => n.podsWithRequiredAntiAffinity.length > 0);
	}

	get numNodes(): number {
		return this.list().length;
	}
}
