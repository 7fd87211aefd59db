/**
 * For tests of one component at a time: a kernel with etcd and a real
 * kube-apiserver (authorization AlwaysAllow, no admission, strategies as
 * given), and clients acting as any process. Tests play the other
 * components' parts by writing objects through the API, as upstream's
 * integration tests do.
 *
 * Mirrors nothing upstream: a test harness; upstream's integration tests
 * start a real API server the same way (test/integration/framework).
 */
import { Kernel, type KernelState } from '../sim/kernel.ts';
import { MvccStore, type MvccState } from '../store/mvcc.ts';
import { deepCopy } from '../golang/json.ts';
import { EtcdMember } from '../store/etcd.ts';
import { KubeApiServer, type ApiServerDeps } from '../apiserver/apiserver.ts';
import { alwaysAllow } from '../apiserver/auth/always-allow.ts';
import { ApiClient } from '../client/client.ts';
import { ClusterTransport } from '../cluster/transport.ts';
import { parseRfc3339 } from '../golang/time.ts';

export interface ApiHarness {
	kernel: Kernel;
	etcd: MvccStore;
	apiServer: KubeApiServer;
	transport: ClusterTransport;
	/** A client acting as `processId`. */
	client(processId: string): ApiClient;
	/** Runs virtual time forward. */
	advance(ms: number): void;
	/** Cuts a node off from the API server (or reconnects it). */
	setPartitioned(node: string, cut: boolean): void;
}

/**
 * A harness, fresh or brought back from a snapshot (`restore`: the saved
 * kernel and etcd data; the processes are registered by the caller, then
 * restored, so nothing is started here).
 */
export function createApiHarness(options: { seed?: number; deps?: Partial<ApiServerDeps>; restore?: { kernel: KernelState; etcd: MvccState } } = {}): ApiHarness {
	const saved = options.restore ? deepCopy(options.restore) : undefined;
	const kernel = saved ? new Kernel(saved.kernel.seed, saved.kernel.epochMs, saved.kernel) : new Kernel(options.seed ?? 1, parseRfc3339('2026-11-30T08:00:00Z'));
	const data = saved ? new MvccStore(saved.etcd) : MvccStore.empty();
	const etcd = new EtcdMember(kernel, data);
	const partitioned = new Set<string>();
	const transport: ClusterTransport = new ClusterTransport(kernel, () => server, '192.168.56.10:6443', (node) => partitioned.has(node));
	const server: KubeApiServer = new KubeApiServer(kernel, {
		etcd: { store: () => etcd.store(), watch: (id) => etcd.addWatcher(id), notify: () => etcd.announce() },
		strategies: {},
		admission: [],
		authorizers: [alwaysAllow],
		decode: () => ({ errors: [], warnings: [] }),
		...options.deps,
	});
	kernel.register(etcd);
	kernel.register(server);
	if (!saved) {
		kernel.start('etcd');
		kernel.start('kube-apiserver');
	}
	return {
		kernel,
		etcd: data,
		apiServer: server,
		transport,
		client: (id) => new ApiClient(transport, id),
		advance: (ms) => kernel.runUntil(kernel.nowMs + ms),
		setPartitioned: (node, cut) => (cut ? partitioned.add(node) : partitioned.delete(node)),
	};
}
