/**
 * Test support for the controllers: a real etcd + kube-apiserver (see
 * ../../testing/api-harness.ts) with upstream-like registry strategies and
 * the two admission plugins the controllers' behaviour depends on, a
 * kube-controller-manager, and `FakeNodes`, a test process that plays the
 * scheduler and the kubelets through the API: it binds pending pods, marks
 * bound pods Running and Ready, finishes graceful deletions, and renews
 * node Leases, for the nodes that are "alive".
 *
 * The strategies and admission plugins here are small stand-ins written
 * for these tests (mirroring pkg/registry/apps/deployment/strategy.go,
 * replicaset, daemonset, core/pod, core/namespace strategies, and the
 * DefaultTolerationSeconds and NamespaceLifecycle admission plugins); the
 * API server's own ones live in apiserver/.
 *
 * Mirrors nothing upstream: the controller tests' harness, with small
 * stand-ins for the registry strategies and admission plugins.
 */
import type { KubeObject, Lease, Namespace, Node, Pod, PodCondition, Taint, Toleration } from '../../api/types.ts';
import type { AdmissionPlugin } from '../../apiserver/admission/plugin.ts';
import * as errors from '../../apiserver/errors.ts';
import { strategyKey, type Strategy, type StrategyRegistry } from '../../apiserver/registry/strategy.ts';
import { ApiClient, R, type ResourceRef } from '../../client/client.ts';
import type { QueuedEvent } from '../../sim/event-queue.ts';
import type { Kernel } from '../../sim/kernel.ts';
import { ProcessBase } from '../../sim/process-base.ts';
import { formatRfc3339, formatRfc3339Micro } from '../../golang/time.ts';
import { createApiHarness, type ApiHarness } from '../api-harness.ts';
import type { KernelState } from '../../sim/kernel.ts';
import type { MvccState } from '../../store/mvcc.ts';
import { KubeControllerManager, type KubeControllerManagerOptions } from '../../controllers/controller-manager.ts';
import { canonicalJson } from '../../controllers/hash.ts';
import { targetNodeName } from '../../controllers/daemonset.ts';
import { toleratesTaint } from '../../component-helpers/taints.ts';
import { statefulSetStrategy } from '../../apiserver/registry/statefulsets.ts';
import { controllerRevisionStrategy } from '../../apiserver/registry/controllerrevisions.ts';
import { deepCopy } from '../../golang/json.ts';
import { jobStrategy } from '../../apiserver/registry/jobs.ts';


/** Generation: 1 at creation, +1 when the spec (and, for Deployments, annotations) change. Status writes keep both. */
function workloadStrategy(opts: { annotationsBumpGeneration?: boolean; defaults?: (obj: KubeObject) => void } = {}): Strategy {
	return {
		hasStatusSubresource: true,
		defaults: opts.defaults,
		prepareForCreate(obj) {
			obj.metadata.generation = 1;
			obj.status = {};
		},
		prepareForUpdate(obj, old) {
			const specChanged = canonicalJson(obj.spec) !== canonicalJson(old.spec);
			const annotationsChanged = opts.annotationsBumpGeneration && canonicalJson(obj.metadata.annotations ?? {}) !== canonicalJson(old.metadata.annotations ?? {});
			obj.metadata.generation = (old.metadata.generation ?? 0) + (specChanged || annotationsChanged ? 1 : 0);
		},
		prepareForStatusUpdate(obj, old) {
			// deploymentStatusStrategy: spec and labels from the stored object; the rest (annotations) as sent.
			obj.spec = deepCopy(old.spec);
			obj.metadata.labels = old.metadata.labels ? deepCopy(old.metadata.labels) : undefined;
			if (!obj.metadata.labels) delete obj.metadata.labels;
			obj.metadata.generation = old.metadata.generation;
		},
	};
}

/** SetDefaults_Deployment and the pod template defaults the tests rely on. */
function deploymentDefaults(obj: KubeObject): void {
	const spec = obj.spec as Record<string, unknown> & { template?: { spec?: Record<string, unknown> }; strategy?: Record<string, unknown> };
	spec.replicas ??= 1;
	spec.strategy ??= { type: 'RollingUpdate' };
	spec.strategy.type ??= 'RollingUpdate';
	if (spec.strategy.type === 'RollingUpdate') spec.strategy.rollingUpdate = { maxUnavailable: '25%', maxSurge: '25%', ...((spec.strategy.rollingUpdate as object) ?? {}) };
	spec.revisionHistoryLimit ??= 10;
	spec.progressDeadlineSeconds ??= 600;
	if (spec.template?.spec) spec.template.spec.terminationGracePeriodSeconds ??= 30;
}

/** The strategies the controller tests run with. */
function testStrategies(): StrategyRegistry {
	return {
		[strategyKey('apps', 'deployments')]: workloadStrategy({ annotationsBumpGeneration: true, defaults: deploymentDefaults }),
		[strategyKey('apps', 'replicasets')]: workloadStrategy(),
		[strategyKey('apps', 'daemonsets')]: workloadStrategy({
			defaults(obj) {
				const spec = obj.spec as { updateStrategy?: { type?: string; rollingUpdate?: object } };
				spec.updateStrategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } };
			},
		}),
		// The API server's own StatefulSet and ControllerRevision strategies (defaults and validation as upstream).
		[strategyKey('apps', 'statefulsets')]: statefulSetStrategy,
		[strategyKey('apps', 'controllerrevisions')]: controllerRevisionStrategy,
		[strategyKey('', 'pods')]: {
			hasStatusSubresource: true,
			defaults(obj) {
				(obj.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ??= 30;
			},
			prepareForCreate(obj) {
				obj.status = { phase: 'Pending' };
			},
			// podStrategy.CheckGracefulDelete: the requested period, else terminationGracePeriodSeconds; 0 when unscheduled or finished.
			gracePeriodSeconds(obj, requested) {
				const pod = obj as Pod;
				let period = requested ?? pod.spec.terminationGracePeriodSeconds ?? 30;
				if (!pod.spec.nodeName) period = 0;
				if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') period = 0;
				return period;
			},
		},
		// The real Job strategy: defaults and the generated selector and Pod labels.
		[strategyKey('batch', 'jobs')]: jobStrategy,
		[strategyKey('', 'nodes')]: { hasStatusSubresource: true, allowStatusOnCreate: true },
		[strategyKey('', 'namespaces')]: {
			hasStatusSubresource: true,
			prepareForCreate(obj) {
				obj.spec = { finalizers: ['kubernetes'] };
				obj.status = { phase: 'Active' };
			},
		},
	};
}

/** DefaultTolerationSeconds: not-ready and unreachable NoExecute tolerations for 300 s, unless the pod has its own. */
export const defaultTolerationSeconds: AdmissionPlugin = {
	name: 'DefaultTolerationSeconds',
	admit(a) {
		if (a.operation !== 'CREATE' || a.info.resource !== 'pods' || a.subresource) return undefined;
		const spec = (a.object as Pod).spec;
		const tolerations = spec.tolerations ?? [];
		const has = (key: string) => tolerations.some((t) => (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'));
		const added: Toleration[] = [];
		for (const key of ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']) if (!has(key)) added.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
		if (added.length) spec.tolerations = [...tolerations, ...added];
		return undefined;
	},
};

/** NamespaceLifecycle: nothing new in a namespace that is being terminated. */
export const namespaceLifecycle: AdmissionPlugin = {
	name: 'NamespaceLifecycle',
	admit(a, ctx) {
		if (a.operation !== 'CREATE' || !a.namespace || !a.info.namespaced) return undefined;
		const ns = ctx.get('', 'namespaces', undefined, a.namespace) as Namespace | undefined;
		if (ns?.metadata.deletionTimestamp) {
			const message = `unable to create new content in namespace ${a.namespace} because it is being terminated`;
			const refused = errors.forbidden(a.info.group ? `${a.info.resource}.${a.info.group}` : a.info.resource, a.name || undefined, message, a.info.group);
			const body = refused.body as { details?: { causes?: Array<{ reason?: string; message?: string; field?: string }> } };
			body.details = { ...(body.details ?? {}), causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }] };
			return refused;
		}
		return undefined;
	},
};

interface FakeNodesOptions {
	/** How often the fake scheduler and kubelets look (ms). */
	tickMs: number;
	/** How long after binding a pod becomes Running and Ready (ms). */
	readyAfterMs: number;
	/** How long a kubelet takes to finish a graceful deletion (ms). */
	terminateAfterMs: number;
	/** Node Lease renew interval (kubelet: 0.25 x 40 s). */
	leaseRenewMs: number;
}

interface FakeNodesState {
	alive: Record<string, boolean>;
	/** When each pod was bound or seen terminating (virtual ms), by uid. */
	seen: Record<string, number>;
	nextNode: number;
	lastRenewMs: number;
}

/** Plays kube-scheduler and the kubelets of `nodes`, through the API only. */
class FakeNodes extends ProcessBase<FakeNodesState> {
	readonly client: ApiClient;
	readonly options: FakeNodesOptions;

	constructor(
		kernel: Kernel,
		client: ApiClient,
		readonly nodes: string[],
		options: Partial<FakeNodesOptions> = {},
	) {
		super('fake-nodes', kernel);
		this.client = client;
		this.options = { tickMs: 250, readyAfterMs: 1000, terminateAfterMs: 500, leaseRenewMs: 10_000, ...options };
	}

	freshState(): FakeNodesState {
		return { alive: Object.fromEntries(this.nodes.map((n) => [n, true])), seen: {}, nextNode: 0, lastRenewMs: -1 };
	}

	onStart(): void {
		const now = formatRfc3339(this.kernel.wallMs());
		for (const name of this.nodes) {
			const node: Node = {
				apiVersion: 'v1',
				kind: 'Node',
				metadata: { name, labels: { 'kubernetes.io/hostname': name } },
				spec: {},
				status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now, lastTransitionTime: now }] },
			};
			this.client.create(R.nodes, undefined, node);
		}
		this.renewLeases();
		this.after(this.options.tickMs, 'tick', undefined, { background: true });
	}

	/** The kubelet of `node` stops (no heartbeats, no pod work) or comes back. */
	setAlive(node: string, alive: boolean): void {
		this.state.alive[node] = alive;
	}

	private renewLeases(): void {
		this.state.lastRenewMs = this.nowMs;
		const renewTime = formatRfc3339Micro(this.kernel.wallMs());
		for (const name of this.nodes) {
			if (!this.state.alive[name]) continue;
			const got = this.client.get<Lease>(R.leases, 'kube-node-lease', name);
			if (got.ok) {
				const lease = deepCopy(got.object);
				lease.spec.renewTime = renewTime;
				this.client.update(R.leases, lease);
			} else {
				this.client.create(R.leases, 'kube-node-lease', { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace: 'kube-node-lease' }, spec: { holderIdentity: name, leaseDurationSeconds: 40, renewTime } });
			}
		}
	}

	handle(event: QueuedEvent): void {
		if (event.kind !== 'tick') return;
		if (this.nowMs - this.state.lastRenewMs >= this.options.leaseRenewMs) this.renewLeases();
		this.work();
		this.after(this.options.tickMs, 'tick', undefined, { background: true });
	}

	/** Like kube-scheduler, it knows nothing of dead kubelets until the node's taints say so. */
	private schedulable(nodes: Node[], pod: Pod): Node[] {
		return nodes.filter((n) => {
			const taints: Taint[] = (n.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
			return taints.every((t) => (pod.spec.tolerations ?? []).some((tol) => toleratesTaint(tol, t)));
		});
	}

	private work(): void {
		const listed = this.client.list<Pod>(R.pods);
		const nodes = this.client.list<Node>(R.nodes);
		if (!listed.ok || !nodes.ok) return;
		const now = this.nowMs;
		// A kubelet that is (back) up posts Ready=True.
		for (const node of nodes.object.items) {
			const name = node.metadata.name ?? '';
			if (!this.state.alive[name]) continue;
			const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
			if (ready?.status === 'True') continue;
			const at = formatRfc3339(this.kernel.wallMs());
			const updated = deepCopy(node);
			const others = (updated.status?.conditions ?? []).filter((c) => c.type === 'Ready').length ? (updated.status?.conditions ?? []).filter((c) => c.type !== 'Ready') : updated.status?.conditions ?? [];
			updated.status = { ...(updated.status ?? {}), conditions: [...others, { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: at, lastTransitionTime: at }] };
			this.client.updateStatus(R.nodes, updated);
		}
		for (const pod of listed.object.items) {
			const uid = pod.metadata.uid ?? '';
			const ns = pod.metadata.namespace;
			const name = pod.metadata.name ?? '';
			if (pod.metadata.deletionTimestamp) {
				// The kubelet of the pod's node stops its containers, then deletes it for good.
				if (!pod.spec.nodeName || !this.state.alive[pod.spec.nodeName]) continue;
				const since = (this.state.seen[`term/${uid}`] ??= now);
				if (now - since >= this.options.terminateAfterMs) {
					this.client.delete(R.pods, ns, name, { gracePeriodSeconds: 0 });
					delete this.state.seen[`term/${uid}`];
					delete this.state.seen[uid];
				}
				continue;
			}
			if (!pod.spec.nodeName) {
				const pinned = targetNodeName(pod);
				const candidates = this.schedulable(nodes.object.items, pod);
				let target: string | undefined;
				if (pinned) target = candidates.some((n) => n.metadata.name === pinned) ? pinned : undefined;
				else if (candidates.length) target = candidates[this.state.nextNode++ % candidates.length].metadata.name;
				if (target) {
					this.client.bind(ns ?? 'default', name, target);
					this.state.seen[uid] = now;
				}
				continue;
			}
			if (!this.state.alive[pod.spec.nodeName]) continue;
			// A finished pod stays finished (tests finish pods by writing their status).
			if (pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed') continue;
			this.state.seen[uid] ??= now;
			if (pod.status?.phase !== 'Running' && now - this.state.seen[uid] >= this.options.readyAfterMs) {
				const ready = deepCopy(pod);
				const at = formatRfc3339(this.kernel.wallMs());
				const conditions: PodCondition[] = [
					{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at },
					{ type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: at },
					{ type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: at },
					{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: at },
				];
				ready.status = { ...(ready.status ?? {}), phase: 'Running', conditions, startTime: at };
				this.client.updateStatus(R.pods, ready);
			}
		}
	}
}

export interface ControllerHarness {
	h: ApiHarness;
	kernel: Kernel;
	kcm: KubeControllerManager;
	nodes: FakeNodes;
	/** A client acting as kubectl. */
	kubectl: ApiClient;
	advance(ms: number): void;
	/** Objects of a resource (optionally one namespace), read through the API. */
	list<T extends KubeObject>(ref: ResourceRef, namespace?: string): T[];
	/** Objects as etcd holds them now (no API request, so no trace), for checks after every step. */
	stored<T extends KubeObject>(resource: string, namespace?: string): T[];
	/** Everything needed to bring this harness back (createControllerHarness({ restore })). */
	snapshot(): ControllerHarnessSnapshot;
}

/** What a controller harness snapshot holds: the kernel (every process's memory) and etcd's data. */
interface ControllerHarnessSnapshot {
	kernel: KernelState;
	etcd: MvccState;
}

export function createControllerHarness(
	options: { nodes?: string[]; kcm?: Partial<KubeControllerManagerOptions>; fakeNodes?: Partial<FakeNodesOptions>; startNodes?: boolean; seed?: number; restore?: ControllerHarnessSnapshot } = {},
): ControllerHarness {
	const deps = { strategies: testStrategies(), admission: [namespaceLifecycle, defaultTolerationSeconds] };
	const h = options.restore ? createApiHarness({ restore: options.restore, deps }) : createApiHarness({ seed: options.seed ?? 7, deps });
	h.transport.enroll('kube-controller-manager', { username: 'system:kube-controller-manager', groups: ['system:authenticated'] });
	h.transport.enroll('kubectl', { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] });
	const kubectl = h.client('kubectl');
	const kcm = new KubeControllerManager(h.kernel, h.transport, options.kcm);
	const nodes = new FakeNodes(h.kernel, h.client('fake-nodes'), options.nodes ?? ['node-1', 'node-2', 'node-3'], options.fakeNodes);
	h.kernel.register(kcm);
	h.kernel.register(nodes);
	if (options.restore) {
		h.kernel.restoreProcesses(deepCopy(options.restore.kernel));
		h.apiServer.restoreCache();
	} else {
		for (const ns of ['default', 'kube-system', 'kube-node-lease']) kubectl.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
		if (options.startNodes !== false) h.kernel.start('fake-nodes');
		h.kernel.start('kube-controller-manager');
	}
	return {
		snapshot: () => ({ kernel: h.kernel.snapshot(), etcd: deepCopy(h.etcd.state) }),
		h,
		kernel: h.kernel,
		kcm,
		nodes,
		kubectl,
		advance: (ms) => h.advance(ms),
		list<T extends KubeObject>(ref: ResourceRef, namespace?: string): T[] {
			const listed = kubectl.list<T>(ref, namespace);
			return listed.ok ? listed.object.items : [];
		},
		stored<T extends KubeObject>(resource: string, namespace?: string): T[] {
			const prefix = namespace ? `/registry/${resource}/${namespace}/` : `/registry/${resource}/`;
			return h.etcd.range(prefix, { prefix: true }).kvs.map((kv) => JSON.parse(kv.value) as T);
		},
	};
}
