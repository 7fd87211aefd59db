/**
 * VolumeBinding: a Pod that mounts PersistentVolumeClaims goes only where
 * its volumes can follow.
 *
 * PreFilter: every claim must exist and not be being deleted, and a claim
 * of an Immediate class (or of none) must already be bound: the PV
 * controller binds those, and until it does the Pod waits with `pod has
 * unbound immediate PersistentVolumeClaims` (the most common reason a Pod
 * with storage stays Pending). Filter: a bound claim's volume, if it has
 * node affinity (a `local` volume), must allow the node: `node(s) had
 * volume node affinity conflict`; a claim of a WaitForFirstConsumer class
 * is bound here instead, to an Available volume that fits it and the
 * node, else `node(s) didn't find available persistent volumes to bind`
 * (no provisioner runs in this cluster). PreBind reserves that volume for
 * the claim; the PV controller binds them, and the kubelet mounts the
 * volume once the claim is Bound.
 *
 * Claims and volumes come from the scheduler's informers; a claim, volume
 * or StorageClass added or changed moves waiting Pods back to the queue.
 *
 * Mirrors pkg/scheduler/framework/plugins/volumebinding/volume_binding.go
 * (PreFilter, Filter, PreBind, the ErrReason strings),
 * pkg/scheduler/framework/plugins/volumebinding/binder.go
 * (FindPodVolumes, checkBoundClaims, findMatchingVolumes, BindPodVolumes).
 */
import type { KubeObject, Node, NodeSelectorTerm, Pod } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { bySmallestCapacity, claimClass, volumeMismatch, type ClaimNeeds, type VolumeOffer } from '../../component-helpers/storage.ts';
import { NodeSelectorMatcher } from '../../component-helpers/node-affinity.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import { ACTION_UPDATE, ActionType, type ClusterEventWithHint } from '../framework/events.ts';
import type { EnqueueExtensions, FilterPlugin, Handle, PreBindPlugin, PreFilterPlugin, PreFilterResult, VolumeListers } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import type { NodeInfo } from '../framework/types.ts';
import { Names } from './names.ts';

export const ERR_REASON_BIND_CONFLICT = "node(s) didn't find available persistent volumes to bind";
export const ERR_REASON_NODE_CONFLICT = 'node(s) had volume node affinity conflict';
export const ERR_REASON_PV_NOT_EXIST = 'node(s) unavailable due to one or more pvc(s) bound to non-existent pv(s)';
const UNBOUND_IMMEDIATE = 'pod has unbound immediate PersistentVolumeClaims';

const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
const STATE_KEY = 'PreFilter' + Names.VolumeBinding;

interface Claim extends ClaimNeeds {
	spec: ClaimNeeds['spec'] & { volumeName?: string };
}

interface Volume extends VolumeOffer {
	spec: VolumeOffer['spec'] & {
		claimRef?: { namespace?: string; name?: string; uid?: string } | null;
		nodeAffinity?: { required?: { nodeSelectorTerms?: NodeSelectorTerm[] } };
	};
	status?: { phase?: string };
}

class PodVolumes implements StateData {
	constructor(
		readonly bound: Claim[],
		/** Claims of WaitForFirstConsumer classes, to be bound on the chosen node. */
		readonly delayed: Claim[],
		/** node name -> the volumes chosen for the delayed claims, in their order. */
		readonly chosen: Map<string, Volume[]> = new Map(),
	) {}
	clone(): StateData {
		return new PodVolumes(this.bound, this.delayed, new Map(this.chosen));
	}
}

function nodeAllows(volume: Volume, node: Node): boolean {
	const terms = volume.spec.nodeAffinity?.required?.nodeSelectorTerms;
	return !terms || new NodeSelectorMatcher(terms).match(node);
}

/** The claim's needs met by an unreserved, Available volume (findMatchingVolumes, without the PV controller's pre-bound cases). */
function fits(volume: Volume, claim: Claim): boolean {
	if (volume.spec.claimRef || volume.metadata.deletionTimestamp || (volume.status?.phase && volume.status.phase !== 'Available')) return false;
	return volumeMismatch(volume, claim) === undefined;
}

export class VolumeBinding implements PreFilterPlugin, FilterPlugin, PreBindPlugin, EnqueueExtensions {
	readonly name = Names.VolumeBinding;

	constructor(private readonly handle: Handle) {}

	private get listers(): VolumeListers | undefined {
		return this.handle.listers.volumes;
	}

	preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } {
		const names = (pod.spec.volumes ?? []).flatMap((v) => {
			const claim = (v as { persistentVolumeClaim?: { claimName?: string } }).persistentVolumeClaim?.claimName;
			return claim !== undefined ? [claim] : [];
		});
		const listers = this.listers;
		if (names.length === 0 || !listers) return { status: new Status(Code.Skip) };
		const bound: Claim[] = [];
		const delayed: Claim[] = [];
		for (const name of names) {
			const claim = listers.claim(pod.metadata.namespace ?? 'default', name) as Claim | undefined;
			if (!claim) return { status: new Status(Code.UnschedulableAndUnresolvable, [`persistentvolumeclaim ${JSON.stringify(name)} not found`]) };
			if (claim.metadata.deletionTimestamp) return { status: new Status(Code.UnschedulableAndUnresolvable, [`persistentvolumeclaim ${JSON.stringify(name)} is being deleted`]) };
			if (claim.spec.volumeName) {
				bound.push(claim);
				continue;
			}
			const storageClass = listers.storageClass(claimClass(claim)) as (KubeObject & { volumeBindingMode?: string }) | undefined;
			if (storageClass?.volumeBindingMode !== 'WaitForFirstConsumer') return { status: new Status(Code.UnschedulableAndUnresolvable, [UNBOUND_IMMEDIATE]) };
			delayed.push(claim);
		}
		state.write(STATE_KEY, new PodVolumes(bound, delayed));
		return {};
	}

	filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const podVolumes = state.read<PodVolumes>(STATE_KEY);
		const listers = this.listers;
		if (!podVolumes || !listers) return undefined;
		const node = nodeInfo.node;
		if (!node) return new Status(Code.Error, ['node not found']);
		for (const claim of podVolumes.bound) {
			const volume = listers.volume(claim.spec.volumeName ?? '') as Volume | undefined;
			if (!volume) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_PV_NOT_EXIST]);
			if (!nodeAllows(volume, node)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_NODE_CONFLICT]);
		}
		if (podVolumes.delayed.length === 0) return undefined;
		// Each delayed claim takes the smallest fitting volume this node can reach, one volume per claim.
		const taken = new Set<string>();
		const chosen: Volume[] = [];
		for (const claim of podVolumes.delayed) {
			const candidates = (listers.volumes() as Volume[]).filter((v) => !taken.has(v.metadata.name ?? '') && fits(v, claim) && nodeAllows(v, node));
			candidates.sort(bySmallestCapacity);
			const volume = candidates[0];
			if (!volume) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_BIND_CONFLICT]);
			taken.add(volume.metadata.name ?? '');
			chosen.push(volume);
		}
		podVolumes.chosen.set(nodeInfo.name, chosen);
		return undefined;
	}

	/**
	 * BindPodVolumes: each chosen volume is reserved for its claim (its
	 * claimRef, what the scheduler may write); the PV controller sees the
	 * reservation at once and binds the pair. Upstream the binding cycle then
	 * waits until the claim is bound; this one goes on, and the kubelet's
	 * volume manager waits instead (quietly, retrying every 100 ms) until
	 * the claim is Bound, which is milliseconds later.
	 */
	preBind(state: CycleState, _pod: Pod, nodeName: string): Status | undefined {
		const podVolumes = state.read<PodVolumes>(STATE_KEY);
		const chosen = podVolumes?.chosen.get(nodeName);
		if (!podVolumes || !chosen) return undefined;
		for (let i = 0; i < chosen.length; i++) {
			const claim = podVolumes.delayed[i];
			const volume = structuredClone(chosen[i]);
			volume.spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion } as Volume['spec']['claimRef'];
			volume.metadata.annotations = { ...(volume.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
			const reserved = this.handle.client.update(R.persistentvolumes, volume);
			if (!reserved.ok) return new Status(Code.Error, [`binding volumes: ${reserved.message}`]);
		}
		return undefined;
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{ event: { resource: 'PersistentVolumeClaim', actionType: ActionType.Add | ACTION_UPDATE } },
			{ event: { resource: 'PersistentVolume', actionType: ActionType.Add | ACTION_UPDATE } },
			{ event: { resource: 'StorageClass', actionType: ActionType.Add | ACTION_UPDATE } },
			{ event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
		];
	}
}
