import { describe, expect, it } from 'vitest';
import type { Node } from '../api/types.ts';
import { isMirrorPod, mirrorPodFor, staticPodFromManifest } from './static-pods.ts';

const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: etcd
  namespace: kube-system
  labels:
    component: etcd
    tier: control-plane
spec:
  hostNetwork: true
  priorityClassName: system-node-critical
  containers:
  - name: etcd
    image: registry.k8s.io/etcd:3.6.10-0
    command: ["etcd", "--data-dir=/var/lib/etcd"]
`;
const SEEN = '2026-11-30T08:00:00.123000000Z';

describe('static pods from manifest files (config/file.go, config/common.go)', () => {
	it('names the pod after the node, derives its UID from the manifest, and annotates it', () => {
		const r = staticPodFromManifest({ path: '/etc/kubernetes/manifests/etcd.yaml', text: manifest }, 'control-plane', SEEN);
		expect(r.ok).toBe(true);
		const pod = (r as { pod: import('../api/types.ts').Pod }).pod;
		expect(pod.metadata.name).toBe('etcd-control-plane');
		expect(pod.metadata.namespace).toBe('kube-system');
		expect(pod.metadata.uid).toMatch(/^[0-9a-f]{32}$/);
		expect(pod.metadata.annotations).toEqual({ 'kubernetes.io/config.hash': pod.metadata.uid, 'kubernetes.io/config.seen': SEEN, 'kubernetes.io/config.source': 'file' });
		expect(pod.spec.nodeName).toBe('control-plane');
		expect(pod.spec.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute' }]);
		expect(pod.spec.restartPolicy).toBe('Always');
	});

	it('keeps the UID while the manifest is the same and changes it when the content changes', () => {
		const a = staticPodFromManifest({ path: '/m/etcd.yaml', text: manifest }, 'cp', SEEN);
		const b = staticPodFromManifest({ path: '/m/etcd.yaml', text: manifest }, 'cp', '2026-11-30T09:00:00Z');
		const c = staticPodFromManifest({ path: '/m/etcd.yaml', text: manifest.replace('3.6.10-0', '3.6.11-0') }, 'cp', SEEN);
		const other = staticPodFromManifest({ path: '/m/etcd.yaml', text: manifest }, 'cp-2', SEEN);
		const uid = (x: typeof a) => (x.ok ? x.pod.metadata.uid : '');
		expect(uid(b)).toBe(uid(a));
		expect(uid(c)).not.toBe(uid(a));
		expect(uid(other)).not.toBe(uid(a));
	});

	it.each([
		['apiVersion: v1\nkind: Service\nmetadata:\n  name: x\n', '/m/x.yaml: not a v1 Pod manifest'],
		['kind: Pod\nmetadata: [', 'could not parse /m/x.yaml:'],
	])('refuses a file that is not a pod: %j', (text, error) => {
		const r = staticPodFromManifest({ path: '/m/x.yaml', text }, 'cp', SEEN);
		expect(r.ok).toBe(false);
		expect(!r.ok && r.error.startsWith(error)).toBe(true);
	});

	it('mirrors a static pod as a pod owned by the Node, marked with the config hash', () => {
		const r = staticPodFromManifest({ path: '/m/etcd.yaml', text: manifest }, 'cp', SEEN);
		const pod = (r as { pod: import('../api/types.ts').Pod }).pod;
		const node: Node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'cp', uid: 'node-uid' }, spec: {} };
		const mirror = mirrorPodFor(pod, node);
		expect(mirror.metadata).toEqual({
			name: 'etcd-cp',
			namespace: 'kube-system',
			labels: { component: 'etcd', tier: 'control-plane' },
			annotations: { ...pod.metadata.annotations, 'kubernetes.io/config.mirror': pod.metadata.uid },
			ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'cp', uid: 'node-uid', controller: true }],
		});
		expect(isMirrorPod(mirror)).toBe(true);
		expect(isMirrorPod(pod)).toBe(false);
	});
});
