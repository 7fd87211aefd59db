/**
 * Static pods: pods the kubelet runs from manifest files in
 * /etc/kubernetes/manifests, without the API server. This is how kubeadm
 * boots the control plane: the kubelet starts etcd and kube-apiserver from
 * files, and once the API server answers it publishes a read-only "mirror
 * pod" for each so `kubectl get pods -n kube-system` shows them.
 *
 * The kubelet names a static pod `<name>-<nodeName>`, derives its UID from
 * a hash of the manifest, the node and the file, and records it in the
 * `kubernetes.io/config.hash` annotation; the mirror pod repeats it in
 * `kubernetes.io/config.mirror` and is owned by the Node.
 *
 * The hash here is FNV-based, not md5: only its role (changes when the
 * manifest changes) matters.
 *
 * Mirrors pkg/kubelet/config/file.go, pkg/kubelet/config/common.go
 * (applyDefaults), pkg/kubelet/pod/mirror_client.go.
 */
import type { Node, Pod } from '../api/types.ts';
import { parseYamlDocuments } from '../yaml/parse.ts';
import { deepCopy } from '../golang/json.ts';

const CONFIG_HASH_ANNOTATION = 'kubernetes.io/config.hash';
export const CONFIG_MIRROR_ANNOTATION = 'kubernetes.io/config.mirror';
const CONFIG_SOURCE_ANNOTATION = 'kubernetes.io/config.source';
const CONFIG_SEEN_ANNOTATION = 'kubernetes.io/config.seen';

/** The kubelet's staticPodPath on a kubeadm node. */
export const STATIC_POD_PATH = '/etc/kubernetes/manifests';
/** fileCheckFrequency default: the manifest directory is re-read every 20 s. */
export const FILE_CHECK_FREQUENCY_MS = 20_000;

/** A manifest file as the node's filesystem holds it. */
export interface ManifestFile {
	path: string;
	text: string;
}

/** 32 hex digits from `text` (four FNV-1a lanes). */
export function hash128(text: string): string {
	let out = '';
	for (let lane = 0; lane < 4; lane++) {
		let h = (0x811c9dc5 ^ Math.imul(lane + 7, 0x9e3779b1)) >>> 0;
		for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
		h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
		h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
		out += ((h ^ (h >>> 16)) >>> 0).toString(16).padStart(8, '0');
	}
	return out;
}

/** A deterministic JSON text (keys sorted) for hashing. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value && typeof value === 'object') {
		return `{${Object.keys(value as object)
			.sort()
			.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value);
}

export type ManifestResult = { ok: true; pod: Pod } | { ok: false; error: string };

/**
 * Reads one manifest into the static pod the kubelet will run: name
 * suffixed with the node name, UID from the hash, default namespace,
 * `spec.nodeName`, the config annotations, and the toleration of every
 * NoExecute taint that static pods get.
 */
export function staticPodFromManifest(file: ManifestFile, nodeName: string, seen: string): ManifestResult {
	let docs: unknown[];
	try {
		docs = parseYamlDocuments(file.text);
	} catch (error) {
		return { ok: false, error: `could not parse ${file.path}: ${error instanceof Error ? error.message : String(error)}` };
	}
	const doc = docs.find((d) => d && typeof d === 'object') as Pod | undefined;
	if (!doc || doc.kind !== 'Pod' || doc.apiVersion !== 'v1' || !doc.metadata?.name || !Array.isArray(doc.spec?.containers)) {
		return { ok: false, error: `${file.path}: not a v1 Pod manifest` };
	}
	const pod: Pod = deepCopy(doc);
	const uid = hash128(`${canonical(pod)}|host:${nodeName}|file:${file.path}`);
	pod.metadata.name = `${pod.metadata.name}-${nodeName}`;
	pod.metadata.namespace = pod.metadata.namespace || 'default';
	pod.metadata.uid = uid;
	pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [CONFIG_HASH_ANNOTATION]: uid, [CONFIG_SEEN_ANNOTATION]: seen, [CONFIG_SOURCE_ANNOTATION]: 'file' };
	pod.spec.nodeName = nodeName;
	pod.spec.restartPolicy = pod.spec.restartPolicy ?? 'Always';
	pod.spec.terminationGracePeriodSeconds = pod.spec.terminationGracePeriodSeconds ?? 30;
	pod.spec.tolerations = [...(pod.spec.tolerations ?? []), { operator: 'Exists', effect: 'NoExecute' }];
	return { ok: true, pod };
}

/** The mirror pod the kubelet creates for a static pod, owned by its Node. */
export function mirrorPodFor(pod: Pod, node: Node): Pod {
	const meta = pod.metadata;
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: {
			name: meta.name,
			namespace: meta.namespace,
			...(meta.labels ? { labels: { ...meta.labels } } : {}),
			annotations: { ...(meta.annotations ?? {}), [CONFIG_MIRROR_ANNOTATION]: meta.uid ?? '' },
			ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: node.metadata.name ?? '', uid: node.metadata.uid ?? '', controller: true }],
		},
		spec: deepCopy(pod.spec),
	};
}

/** Whether an API pod is a mirror pod (the kubelet does not run those: it runs their static pod). */
export function isMirrorPod(pod: Pod): boolean {
	return pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] !== undefined;
}
