/**
 * A whole simulated cluster, wired the way kubeadm wires a real one: etcd
 * and kube-apiserver on the control-plane node, every other component a
 * client of the API server. This file only connects the parts; each part
 * lives in the folder named after the component it models.
 */
import { Kernel, type KernelState } from '../sim/kernel.ts';
import { parseRfc3339 } from '../sim/clock.ts';
import { MvccStore, type MvccState } from '../store/mvcc.ts';
import { EtcdMember } from '../store/etcd.ts';
import { KubeApiServer } from '../apiserver/apiserver.ts';
import { alwaysAllow } from '../apiserver/auth/always-allow.ts';
import { ApiClient } from '../client/client.ts';
import { ClusterTransport } from './transport.ts';
import {
	DEFAULT_KUBERNETES_VERSION,
	DEFAULT_SEED,
	DEFAULT_START_TIME,
	NETWORK,
	nodeIp,
	resolveNodes,
	type ClusterOptions,
	type NodeOptions,
} from './options.ts';

/** Everything a snapshot holds: plain JSON. */
export interface ClusterSnapshot {
	format: 'cluster-anatomy/snapshot@1';
	options: ClusterOptions;
	kernel: KernelState;
	etcd: MvccState;
	partitions: string[];
}

export class Cluster {
	readonly kernel: Kernel;
	readonly options: Required<Pick<ClusterOptions, 'seed' | 'kubernetesVersion' | 'startTime'>> & ClusterOptions;
	readonly nodes: NodeOptions[];
	readonly etcdData: MvccStore;
	readonly etcd: EtcdMember;
	readonly apiServer: KubeApiServer;
	readonly transport: ClusterTransport;
	private readonly partitions = new Set<string>();

	constructor(options: ClusterOptions = {}, restore?: ClusterSnapshot) {
		this.options = {
			...options,
			seed: options.seed ?? DEFAULT_SEED,
			kubernetesVersion: options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION,
			startTime: options.startTime ?? DEFAULT_START_TIME,
		};
		this.nodes = resolveNodes(options.nodes);
		const epochMs = parseRfc3339(this.options.startTime);
		if (Number.isNaN(epochMs)) throw new Error(`startTime "${this.options.startTime}" is not an RFC 3339 time`);
		this.kernel = new Kernel(this.options.seed, epochMs, restore?.kernel);
		this.etcdData = restore ? new MvccStore(JSON.parse(JSON.stringify(restore.etcd))) : MvccStore.empty();
		for (const node of restore?.partitions ?? []) this.partitions.add(node);

		const controlPlane = this.nodes[0];
		const apiAddress = `${nodeIp(0)}:${NETWORK.apiServerPort}`;
		this.etcd = new EtcdMember(this.kernel, this.etcdData, 'etcd', controlPlane.name, nodeIp(0));
		this.transport = new ClusterTransport(this.kernel, () => this.apiServer, apiAddress, (node) => this.partitions.has(node));
		this.apiServer = new KubeApiServer(this.kernel, {
			etcd: {
				store: () => this.etcd.store(),
				watch: (id) => this.etcd.addWatcher(id),
				notify: () => this.etcd.announce(),
			},
			strategies: {},
			admission: [],
			authorizers: [alwaysAllow],
			decode: () => ({ errors: [], warnings: [] }),
		});
		this.kernel.register(this.etcd);
		this.kernel.register(this.apiServer);

		if (restore) {
			this.kernel.restoreProcesses(restore.kernel);
			this.apiServer.restoreCache();
		} else {
			this.kernel.start('etcd');
			this.kernel.start('kube-apiserver');
		}
	}

	/** A client acting as `processId` (used by tools and tests). */
	client(processId: string): ApiClient {
		return new ApiClient(this.transport, processId);
	}

	now(): number {
		return this.kernel.nowMs;
	}

	/** Runs the simulation for `ms` of virtual time. */
	advance(ms: number): void {
		this.kernel.runUntil(this.kernel.nowMs + ms);
	}

	snapshot(): ClusterSnapshot {
		return {
			format: 'cluster-anatomy/snapshot@1',
			options: JSON.parse(JSON.stringify(this.options)),
			kernel: this.kernel.snapshot(),
			etcd: JSON.parse(JSON.stringify(this.etcdData.state)),
			partitions: [...this.partitions],
		};
	}
}
