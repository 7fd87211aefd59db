/**
 * How `kubectl logs deploy/nginx` and `kubectl exec deploy/nginx` pick one
 * pod from a workload: the pods its selector matches, sorted so that the
 * most useful one comes first, and the container a command defaults to.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/polymorphichelpers/helpers.go
 * (GetFirstPod, SelectorsForObject),
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/logsforobject.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/attachablepodforobject.go,
 * staging/src/k8s.io/kubectl/pkg/util/podutils/podutils.go (ByLogging,
 * ActivePods), staging/src/k8s.io/kubectl/pkg/cmd/util/podcmd/podcmd.go.
 */
import type { KubeList, KubeObject, LabelSelector, Pod } from '../../api/types.ts';
import { formatLabelSelector } from '../../api/labels.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { R } from '../../client/client.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { callError, plain, type KubectlError } from './check-err.ts';

/** `kubectl.kubernetes.io/default-container` (podcmd.DefaultContainerAnnotationName). */
export const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

const ready = (pod: Pod) => (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
const readyTime = (pod: Pod) => {
	const c = (pod.status?.conditions ?? []).find((x) => x.type === 'Ready' && x.status === 'True');
	return c?.lastTransitionTime ? parseRfc3339(c.lastTransitionTime) : NaN;
};
const maxRestarts = (pod: Pod) => Math.max(0, ...(pod.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));
const created = (pod: Pod) => (pod.metadata.creationTimestamp ? parseRfc3339(pod.metadata.creationTimestamp) : NaN);
/** afterOrZero(t1, t2): t1 is after t2, or t1 is the zero time. */
const afterOrZero = (t1: number, t2: number) => (Number.isNaN(t1) || Number.isNaN(t2) ? Number.isNaN(t1) : t1 > t2);

/** podutils.ByLogging: the pod whose logs are most worth reading first. */
export function byLogging(a: Pod, b: Pod): number {
	const less = (x: Pod, y: Pod): boolean => {
		const nx = x.spec?.nodeName ?? '';
		const ny = y.spec?.nodeName ?? '';
		if (nx !== ny && (!nx || !ny)) return nx.length > 0;
		const rank: Record<string, number> = { Running: 0, Unknown: 1, Pending: 2 };
		const px = rank[x.status?.phase ?? ''] ?? 0;
		const py = rank[y.status?.phase ?? ''] ?? 0;
		if (px !== py) return px < py;
		if (ready(x) !== ready(y)) return ready(x);
		if (ready(x) && ready(y) && readyTime(x) !== readyTime(y)) return afterOrZero(readyTime(y), readyTime(x));
		if (maxRestarts(x) !== maxRestarts(y)) return maxRestarts(x) > maxRestarts(y);
		if (created(x) !== created(y)) return afterOrZero(created(y), created(x));
		return false;
	};
	return less(a, b) ? -1 : less(b, a) ? 1 : 0;
}

/** podutils.ActivePods reversed (attachablePodForObject): running, ready, long-ready pods first. */
export function byActivity(a: Pod, b: Pod): number {
	const less = (x: Pod, y: Pod): boolean => {
		// ActivePods.Less: "less active" first; reversed below.
		const nx = x.spec?.nodeName ?? '';
		const ny = y.spec?.nodeName ?? '';
		if (nx !== ny && (!nx || !ny)) return nx.length === 0;
		const rank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
		const px = rank[x.status?.phase ?? ''] ?? 0;
		const py = rank[y.status?.phase ?? ''] ?? 0;
		if (px !== py) return px < py;
		if (ready(x) !== ready(y)) return !ready(x);
		if (ready(x) && ready(y) && readyTime(x) !== readyTime(y)) return readyTime(x) > readyTime(y);
		if (maxRestarts(x) !== maxRestarts(y)) return maxRestarts(x) > maxRestarts(y);
		if (created(x) !== created(y)) return created(x) > created(y);
		return false;
	};
	return less(a, b) ? 1 : less(b, a) ? -1 : 0;
}

/** SelectorsForObject: the label selector of a workload or Service. */
function selectorFor(obj: KubeObject): string | KubectlError {
	const spec = (obj.spec ?? {}) as { selector?: LabelSelector | Record<string, string> };
	switch (obj.kind) {
		case 'Service':
		case 'ReplicationController': {
			const selector = (spec.selector ?? {}) as Record<string, string>;
			if (Object.keys(selector).length === 0) return plain(`invalid service '${obj.metadata.name}': Service is defined without a selector`);
			return Object.keys(selector)
				.sort()
				.map((k) => `${k}=${selector[k]}`)
				.join(',');
		}
		case 'Deployment':
		case 'ReplicaSet':
		case 'DaemonSet':
		case 'StatefulSet':
		case 'Job': {
			const text = formatLabelSelector(spec.selector as LabelSelector | undefined);
			return text === '<none>' ? '' : text;
		}
		default:
			return plain(`selector for ${obj.kind} not implemented`);
	}
}

/**
 * The pod a command acts on for an object: the pod itself, or the first of
 * the workload's pods in `order`, with the `Found 3 pods, using pod/x`
 * note upstream prints to stderr (logs only).
 */
export function podForObject(inv: KubectlInvocation, obj: KubeObject, order: (a: Pod, b: Pod) => number, verb: 'logs' | 'attach'): { pod: Pod; stderr: string } | { error: KubectlError } {
	if (obj.kind === 'Pod') return { pod: obj as Pod, stderr: '' };
	const selector = selectorFor(obj);
	if (typeof selector !== 'string') return { error: plain(`cannot ${verb === 'logs' ? 'get the logs from' : 'attach to'} *v1.${obj.kind}: ${selector.kind === 'plain' ? selector.message : ''}`) };
	const listed = inv.client.list<Pod>(R.pods, obj.metadata.namespace, selector ? { labelSelector: selector } : {});
	if (!listed.ok) return { error: callError(listed, inv.env.serverUrl) };
	const pods = [...(listed.object as KubeList<Pod>).items].sort(order);
	if (pods.length === 0) return { error: plain('timed out waiting for the condition') };
	const note = verb === 'logs' && pods.length > 1 ? `Found ${pods.length} pods, using pod/${pods[0].metadata.name}\n` : '';
	return { pod: { ...pods[0], apiVersion: 'v1', kind: 'Pod' } as Pod, stderr: note };
}

/** podcmd.AllContainerNames: `a, b, c (ephem), d (init)`. */
export function allContainerNames(pod: Pod): string {
	const spec = pod.spec ?? ({} as Pod['spec']);
	return [
		...(spec.containers ?? []).map((c) => c.name),
		...((spec as { ephemeralContainers?: Array<{ name: string }> }).ephemeralContainers ?? []).map((c) => `${c.name} (ephem)`),
		...(spec.initContainers ?? []).map((c) => `${c.name} (init)`),
	].join(', ');
}

/** podcmd.FindContainerByName: a container, init container or ephemeral container of that name. */
export function hasContainer(pod: Pod, name: string): boolean {
	const spec = pod.spec ?? ({} as Pod['spec']);
	return [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...((spec as { ephemeralContainers?: Array<{ name: string }> }).ephemeralContainers ?? [])].some((c) => c.name === name);
}

/**
 * The container a command uses when none is named: the annotated default,
 * else the first one, with `Defaulted container "x" out of: ...` on stderr
 * when there was a choice (podcmd.FindOrDefaultContainerByName).
 */
export function defaultContainer(pod: Pod, name: string, quiet: boolean): { container: string; stderr: string } | { error: KubectlError } {
	const spec = pod.spec ?? ({} as Pod['spec']);
	if (!(spec.containers ?? []).length) return { error: plain(`pod ${pod.metadata.namespace}/${pod.metadata.name} does not have any containers`) };
	const wanted = name || pod.metadata.annotations?.[DEFAULT_CONTAINER_ANNOTATION] || '';
	if (wanted) {
		if (!hasContainer(pod, wanted)) return { error: plain(`container ${wanted} is not valid for pod ${pod.metadata.name} out of: ${allContainerNames(pod)}`) };
		return { container: wanted, stderr: '' };
	}
	const first = spec.containers[0].name;
	const choice = spec.containers.length > 1 || (spec.initContainers ?? []).length > 0 || ((spec as { ephemeralContainers?: unknown[] }).ephemeralContainers ?? []).length > 0;
	return { container: first, stderr: !quiet && choice ? `Defaulted container ${JSON.stringify(first)} out of: ${allContainerNames(pod)}\n` : '' };
}
