/**
 * The OOM score adjustment the kubelet gives each container (CRI
 * linux.resources.oom_score_adj), which the kernel adds to a process's
 * share of memory when it must kill one: Guaranteed containers and
 * system-node-critical Pods -997 (the last to go), BestEffort 1000 (the first),
 * Burstable in between by how much of the machine they request:
 * 1000 − 1000 × request / capacity, kept within 3..999 so a Burstable
 * container always ranks after a Guaranteed one and before a BestEffort
 * one. (The kubelet and kube-proxy themselves run at -999.)
 *
 * Mirrors pkg/kubelet/qos/policy.go (GetContainerOOMScoreAdjust).
 */
import type { Container, Pod } from '../api/types.ts';
import { computePodQOS } from '../component-helpers/qos.ts';
import { parseQuantityOrZero } from '../component-helpers/resource.ts';

const GUARANTEED_OOM_SCORE_ADJ = -997;
const BESTEFFORT_OOM_SCORE_ADJ = 1000;

/** GetContainerOOMScoreAdjust for `container` of `pod` on a machine of `memoryCapacity` bytes. */
export function containerOomScoreAdj(pod: Pod, container: Container, memoryCapacity: number): number {
	// IsNodeCriticalPod: a critical Pod of the system-node-critical class (kubeadm's static Pods, kube-proxy).
	if (pod.spec.priorityClassName === 'system-node-critical') return GUARANTEED_OOM_SCORE_ADJ;
	const qos = computePodQOS(pod.spec);
	if (qos === 'Guaranteed') return GUARANTEED_OOM_SCORE_ADJ;
	if (qos === 'BestEffort') return BESTEFFORT_OOM_SCORE_ADJ;
	const request = parseQuantityOrZero(container.resources?.requests?.memory as string | number | undefined).value();
	const adjust = memoryCapacity > 0 ? 1000 - Math.trunc((1000 * request) / memoryCapacity) : 1000;
	if (adjust < 1000 + GUARANTEED_OOM_SCORE_ADJ) return 1000 + GUARANTEED_OOM_SCORE_ADJ;
	if (adjust === BESTEFFORT_OOM_SCORE_ADJ) return adjust - 1;
	return adjust;
}
