/**
 * ImageLocality: favours nodes that already have the pod's images, weighted
 * by image size and by how widely the image is spread (an image on every
 * node says little). Sum over containers and init containers of `int(size ×
 * nodesWithImage / allNodes)`, clamped to [23 MiB, 1000 MiB × containers],
 * then scaled to 0..100. Image names without a tag get `:latest`.
 *
 * Mirrors pkg/scheduler/framework/plugins/imagelocality/image_locality.go.
 */
import type { Pod } from '../../api/types.ts';
import type { CycleState } from '../framework/cycle-state.ts';
import { MAX_NODE_SCORE, type Handle, type ScorePlugin } from '../framework/interface.ts';
import type { Status } from '../framework/status.ts';
import type { ImageStateSummary, NodeInfo } from '../framework/types.ts';
import { Names } from './names.ts';

const MB = 1024 * 1024;
/** minThreshold: 23 MiB, the size of a small image. */
const MIN_THRESHOLD = 23 * MB;
/** maxContainerThreshold: 1000 MiB per container. */
const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** normalizedImageName: append `:latest` when the name carries no tag (nor digest). */
export function normalizedImageName(name: string): string {
	if (name.lastIndexOf(':') <= name.lastIndexOf('/')) return `${name}:latest`;
	return name;
}

/** scaledImageScore: the image size scaled by the share of nodes that have it. */
function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
	const spread = state.numNodes / totalNumNodes;
	return Math.trunc(state.size * spread);
}

/** sumImageScores over init containers and containers. */
function sumImageScores(nodeInfo: NodeInfo, pod: Pod, totalNumNodes: number): number {
	let sum = 0;
	for (const c of [...(pod.spec.initContainers ?? []), ...(pod.spec.containers ?? [])]) {
		const state = nodeInfo.imageStates.get(normalizedImageName(c.image ?? ''));
		if (state) sum += scaledImageScore(state, totalNumNodes);
	}
	return sum;
}

/** calculatePriority: clamp to [min, max] and scale to 0..100. */
function calculatePriority(sumScores: number, numContainers: number): number {
	const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
	let sum = sumScores;
	if (sum < MIN_THRESHOLD) sum = MIN_THRESHOLD;
	else if (sum > maxThreshold) sum = maxThreshold;
	return Math.trunc((MAX_NODE_SCORE * (sum - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

export class ImageLocality implements ScorePlugin {
	readonly name = Names.ImageLocality;

	constructor(private readonly handle: Handle) {}

	score(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		const totalNumNodes = this.handle.snapshot.list().length;
		const sum = sumImageScores(nodeInfo, pod, totalNumNodes);
		return { score: calculatePriority(sum, (pod.spec.initContainers?.length ?? 0) + (pod.spec.containers?.length ?? 0)) };
	}
}
