/**
 * For the node tools' tests: one node (containerd and the kubelet) against
 * a real etcd and kube-apiserver (testing/api-harness.ts), a shell session
 * on that node, and the crictl pull sink. Tests play the scheduler by
 * creating pods with spec.nodeName set, as the kubelet's own tests do.
 *
 * Mirrors nothing upstream: a one-node rig for the node tools' tests.
 */
import { createApiHarness, type ApiHarness } from './api-harness.ts';
import { ContainerRuntime } from '../runtime/container-runtime.ts';
import { emptyRuntimeHostState, type RuntimeHostState } from '../runtime/host-state.ts';
import { Kubelet } from '../kubelet/kubelet.ts';
import { emptyKubeletUnitRecord, type KubeletUnitRecord } from '../host/systemd/records.ts';
import type { Strategy } from '../apiserver/registry/strategy.ts';
import { R } from '../client/client.ts';
import { ShellSession, type Host } from '../shell/index.ts';
import { MemoryFs } from '../host/fs.ts';
import { CrictlPullSink } from '../tools/crictl/pull-sink.ts';

/** The parts of the pod registry the kubelet relies on (as kubelet.integration.test.ts sets them up). */
const podStrategy: Strategy = {
	hasStatusSubresource: true,
	fields: (o) => ({ 'spec.nodeName': (o.spec as { nodeName?: string }).nodeName ?? '' }),
	gracePeriodSeconds: (o, requested) => requested ?? o.metadata.deletionGracePeriodSeconds ?? (o.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30,
};

export const NODE = 'node-1';
export const NODE_IP = '192.168.56.11';

export interface NodeRig {
	h: ApiHarness;
	runtime: ContainerRuntime;
	kubelet: Kubelet;
	runtimeHost: RuntimeHostState;
	kubeletHost: KubeletUnitRecord;
	sink: CrictlPullSink;
	host: Host;
	shell: ShellSession;
	createPod(name: string, spec: Record<string, unknown>, namespace?: string): void;
}

/** A booted node with containerd and the kubelet running and a root shell on it (no tools registered yet). */
export function nodeRig(files: Record<string, string> = {}): NodeRig {
	const h = createApiHarness({ deps: { strategies: { '/pods': podStrategy, '/nodes': { hasStatusSubresource: true, allowStatusOnCreate: true } } } });
	h.transport.enroll(`kubelet/${NODE}`, { username: `system:node:${NODE}`, groups: ['system:nodes', 'system:authenticated'] }, NODE);
	const runtimeHost = emptyRuntimeHostState(NODE, NODE_IP, '10.244.1.0/24');
	const kubeletHost = emptyKubeletUnitRecord();
	const runtime = new ContainerRuntime(h.kernel, NODE, { host: runtimeHost });
	const kubelet = new Kubelet(h.kernel, { nodeName: NODE, nodeIp: NODE_IP, podCidr: '10.244.1.0/24', capacity: { cpu: '2', memory: '4Gi' }, runtime, client: h.client(`kubelet/${NODE}`), host: kubeletHost });
	const sink = new CrictlPullSink(h.kernel, NODE);
	for (const p of [runtime, kubelet, sink]) h.kernel.register(p);
	for (const p of [runtime, kubelet, sink]) h.kernel.start(p.id);
	const fs = new MemoryFs();
	for (const [path, text] of Object.entries(files)) {
		fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', true);
		fs.writeFile(path, text);
	}
	fs.mkdir('/root', true);
	fs.home = '/root';
	fs.cwd = '/root';
	const host: Host = { name: NODE, fs, commands: new Map(), user: 'root', home: '/root', kind: 'node' };
	const shell = new ShellSession([host]);
	shell.clock = () => h.kernel.wallMs();
	shell.onSleep = (ms) => h.kernel.runUntil(h.kernel.nowMs + ms);
	const tester = h.client('tester');
	return {
		h,
		runtime,
		kubelet,
		runtimeHost,
		kubeletHost,
		sink,
		host,
		shell,
		createPod(name, spec, namespace = 'default') {
			const created = tester.create(R.pods, namespace, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { nodeName: NODE, ...spec } });
			if (!created.ok) throw new Error(`creating pod ${name} failed`);
		},
	};
}
