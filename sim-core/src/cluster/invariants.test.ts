/**
 * Property tests over many seeds and random sequences of what a reader (and
 * bad luck) can do: create, scale and delete Deployments with resource
 * requests, delete pods, cordon nodes, stop and start components, cut nodes
 * off, let time pass. After every step the cluster's invariants must hold;
 * once every fault is healed and the cluster is quiet, the desired state
 * must be reached; and the same seed with the same inputs must give the
 * same trace, as must a snapshot restored mid-run.
 *
 * A failing run prints its seed and the shortest sequence fast-check found:
 * replay it with `fc.assert(..., { seed, path })`.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { KubeObject, Pod } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';
import { Cluster } from './cluster.ts';
import { restoreCluster } from '../index.ts';

/** One thing that happens to the cluster. */
type Action =
	| { kind: 'create'; name: string; replicas: number; cpu: string; memory: string; image: string }
	| { kind: 'scale'; name: string; replicas: number }
	| { kind: 'delete-deployment'; name: string }
	| { kind: 'delete-pods'; name: string }
	| { kind: 'cordon' | 'uncordon'; node: string }
	| { kind: 'stop' | 'start'; component: 'kube-scheduler' | 'kube-controller-manager' }
	| { kind: 'stop-node' | 'start-node'; component: 'kubelet' | 'container-runtime'; node: string }
	| { kind: 'partition' | 'heal'; node: string }
	| { kind: 'power-off' | 'power-on'; node: string }
	| { kind: 'advance'; seconds: number };

const NAMES = ['web', 'api', 'batch'];
const WORKERS = ['node-1', 'node-2'];

const action: fc.Arbitrary<Action> = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), name: fc.constantFrom(...NAMES), replicas: fc.integer({ min: 0, max: 6 }), cpu: fc.constantFrom('100m', '250m', '500m', '900m'), memory: fc.constantFrom('64Mi', '256Mi', '1Gi'), image: fc.constantFrom('nginx:1.27', 'busybox:1.36', 'nginxx:9') }) },
	{ weight: 3, arbitrary: fc.record({ kind: fc.constant('scale' as const), name: fc.constantFrom(...NAMES), replicas: fc.integer({ min: 0, max: 8 }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-deployment' as const), name: fc.constantFrom(...NAMES) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('delete-pods' as const), name: fc.constantFrom(...NAMES) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('cordon' as const, 'uncordon' as const), node: fc.constantFrom(...WORKERS) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('stop' as const, 'start' as const), component: fc.constantFrom('kube-scheduler' as const, 'kube-controller-manager' as const) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('stop-node' as const, 'start-node' as const), component: fc.constantFrom('kubelet' as const, 'container-runtime' as const), node: fc.constantFrom(...WORKERS) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('partition' as const, 'heal' as const), node: fc.constantFrom(...WORKERS) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('power-off' as const, 'power-on' as const), node: fc.constantFrom(...WORKERS) }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 90 }) }) },
);

function apply(cluster: Cluster, a: Action): void {
	switch (a.kind) {
		case 'create': {
			const command = a.image.startsWith('busybox') ? '\n        command: ["sh", "-c", "sleep 20; exit 1"]' : '';
			cluster.exec('kubectl apply -f -', {
				stdin: `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${a.name}\nspec:\n  replicas: ${a.replicas}\n  selector:\n    matchLabels:\n      app: ${a.name}\n  template:\n    metadata:\n      labels:\n        app: ${a.name}\n    spec:\n      containers:\n      - name: main\n        image: ${a.image}${command}\n        resources:\n          requests:\n            cpu: ${a.cpu}\n            memory: ${a.memory}\n`,
			});
			return;
		}
		case 'scale':
			cluster.exec(`kubectl scale deployment ${a.name} --replicas=${a.replicas}`);
			return;
		case 'delete-deployment':
			cluster.exec(`kubectl delete deployment ${a.name} --wait=false`);
			return;
		case 'delete-pods':
			cluster.exec(`kubectl delete pods -l app=${a.name} --wait=false`);
			return;
		case 'cordon':
		case 'uncordon':
			cluster.exec(`kubectl ${a.kind} ${a.node}`);
			return;
		case 'stop':
		case 'start':
			if (a.kind === 'stop') cluster.stop(a.component);
			else cluster.start(a.component);
			return;
		case 'stop-node':
		case 'start-node':
			if (a.kind === 'stop-node') cluster.stop(a.component, a.node);
			else cluster.start(a.component, a.node);
			return;
		case 'partition':
			cluster.partition(a.node);
			return;
		case 'heal':
			cluster.heal(a.node);
			return;
		case 'power-off':
			cluster.powerOff(a.node);
			return;
		case 'power-on':
			cluster.powerOn(a.node);
			return;
		case 'advance':
			cluster.advance(a.seconds * 1000);
			return;
	}
}

function phase(p: KubeObject): string {
	return (p.status as { phase?: string } | undefined)?.phase ?? '';
}

/** What the invariants remember between steps. */
interface Memory {
	bindings: Map<string, string>;
	resourceVersions: Map<string, number>;
	revision: number;
}

/** The invariants that hold after every step, whatever happened. */
function checkInvariants(cluster: Cluster, memory: Memory): void {
	// etcd's revision only grows.
	expect(cluster.etcdData.revision).toBeGreaterThanOrEqual(memory.revision);
	memory.revision = cluster.etcdData.revision;
	const pods = cluster.list('pods') as Pod[];
	for (const pod of pods) {
		const uid = pod.metadata.uid!;
		// A pod is bound to one node at most, and never moves.
		const node = pod.spec.nodeName;
		if (node) {
			const before = memory.bindings.get(uid);
			if (before !== undefined) expect(node, `pod ${pod.metadata.name} moved`).toBe(before);
			memory.bindings.set(uid, node);
		}
		// An object's resourceVersion only grows.
		const rv = Number(pod.metadata.resourceVersion);
		expect(rv).toBeGreaterThanOrEqual(memory.resourceVersions.get(uid) ?? 0);
		memory.resourceVersions.set(uid, rv);
	}
	// No two running containers of one pod, on one node or across nodes.
	const runningByPod = new Map<string, string[]>();
	for (const [name, host] of cluster.hosts) {
		for (const sandbox of Object.values(host.runtimeState.sandboxes)) {
			if (sandbox.state !== 'SANDBOX_READY') continue;
			const list = runningByPod.get(sandbox.podUid) ?? [];
			list.push(name);
			runningByPod.set(sandbox.podUid, list);
		}
	}
	for (const [uid, nodes] of runningByPod) expect(nodes.length, `pod ${uid} has sandboxes on ${nodes.join(', ')}`).toBeLessThanOrEqual(1);
	// Requests admitted on a node never exceed what it can allocate.
	for (const nodeObj of cluster.list('nodes')) {
		const allocatable = (nodeObj.status as { allocatable?: Record<string, string> } | undefined)?.allocatable;
		if (!allocatable) continue;
		const name = nodeObj.metadata.name!;
		const active = pods.filter((p) => p.spec.nodeName === name && !['Succeeded', 'Failed'].includes(phase(p)));
		let cpuMilli = 0;
		let memoryBytes = 0;
		for (const p of active) {
			for (const c of p.spec.containers) {
				const requests = c.resources?.requests ?? {};
				if (requests.cpu !== undefined) cpuMilli += Quantity.parse(String(requests.cpu)).milliValue();
				if (requests.memory !== undefined) memoryBytes += Quantity.parse(String(requests.memory)).value();
			}
		}
		expect(cpuMilli, `cpu requested on ${name}`).toBeLessThanOrEqual(Quantity.parse(allocatable.cpu).milliValue());
		expect(memoryBytes, `memory requested on ${name}`).toBeLessThanOrEqual(Quantity.parse(allocatable.memory).value());
		expect(active.length, `pods on ${name}`).toBeLessThanOrEqual(Number(allocatable.pods));
	}
}

/** Heals every fault, then lets the cluster settle. */
function healEverything(cluster: Cluster): void {
	for (const node of WORKERS) {
		if (cluster.isPoweredOff(node)) cluster.powerOn(node);
		cluster.heal(node);
		cluster.start('kubelet', node);
		cluster.start('container-runtime', node);
		cluster.exec(`kubectl uncordon ${node}`);
	}
	cluster.start('kube-scheduler');
	cluster.start('kube-controller-manager');
	// Leader leases expire (15 s), nodes report again, taint evictions finish, pods start.
	cluster.advance('8m');
}

/**
 * Once quiet, every ReplicaSet owns exactly `replicas` live pods. (A
 * Deployment may rightly hold more pods than its replicas: a rollout to an
 * image that cannot be pulled stays stuck with old and new pods, as it
 * would on a real cluster; each ReplicaSet is still exactly right.)
 */
function checkDesiredState(cluster: Cluster): void {
	const pods = cluster.list('pods', 'default') as Pod[];
	for (const rs of cluster.list('replicasets', 'default')) {
		const want = (rs.spec as { replicas?: number }).replicas ?? 1;
		const owned = pods.filter((p) => !p.metadata.deletionTimestamp && p.metadata.ownerReferences?.some((o) => o.uid === rs.metadata.uid && o.controller));
		expect(owned.length, `ReplicaSet ${rs.metadata.name} wants ${want}`).toBe(want);
	}
	// Every Deployment's newest ReplicaSet has been given the Deployment's replicas, or is rolling towards it.
	for (const d of cluster.list('deployments', 'default')) {
		const status = d.status as { observedGeneration?: number } | undefined;
		expect(status?.observedGeneration, `Deployment ${d.metadata.name} observed`).toBe(d.metadata.generation);
	}
}

const RUNS = Number(process.env.INVARIANT_RUNS ?? 12);

describe('cluster invariants under random actions and faults', () => {
	it('hold after every step, and the desired state is reached once faults heal', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.array(action, { minLength: 3, maxLength: 14 }), (seed, actions) => {
				const cluster = new Cluster({ seed });
				const memory: Memory = { bindings: new Map(), resourceVersions: new Map(), revision: 0 };
				for (const a of actions) {
					apply(cluster, a);
					checkInvariants(cluster, memory);
				}
				healEverything(cluster);
				checkInvariants(cluster, memory);
				checkDesiredState(cluster);
			}),
			{ numRuns: RUNS, seed: Number(process.env.INVARIANT_SEED ?? 20261130) },
		);
	}, 600_000);

	it('the same seed and inputs give the same trace, and a snapshot restored mid-run continues identically', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.array(action, { minLength: 2, maxLength: 10 }), fc.nat(), (seed, actions, cut) => {
				const first = new Cluster({ seed });
				const second = new Cluster({ seed });
				const at = actions.length ? cut % actions.length : 0;
				let restored: Cluster | undefined;
				actions.forEach((a, index) => {
					if (index === at) restored = restoreCluster(JSON.parse(JSON.stringify(first.snapshot())));
					apply(first, a);
					apply(second, a);
					if (restored) apply(restored, a);
				});
				first.advance('30s');
				second.advance('30s');
				restored?.advance('30s');
				expect(second.fingerprint()).toBe(first.fingerprint());
				if (restored) expect(restored.fingerprint()).toBe(first.fingerprint());
			}),
			{ numRuns: Math.max(4, Math.floor(RUNS / 2)), seed: Number(process.env.INVARIANT_SEED ?? 20261130) },
		);
	}, 600_000);
});
