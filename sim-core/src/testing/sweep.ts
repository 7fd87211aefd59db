/**
 * The fault sweep: a cluster running a few workloads, a random schedule of
 * faults and reader actions over simulated minutes, the safety invariants
 * checked after every step, then every fault healed and the liveness
 * property checked: every workload reaches its desired state within five
 * simulated minutes.
 *
 * A schedule is plain data drawn from one seed, so a failing run is
 * replayed exactly from what it prints (`npm run sweep -- --replay FILE`,
 * or `runSweep(seed, { schedule })`). The fast sweep in the unit tests and
 * the long one behind `npm run sweep -- --seeds N` run the same code.
 *
 * Mirrors nothing upstream: the simulator's own property test; the
 * invariants are the guarantees Kubernetes' controllers and client-go's
 * leader election give (one binding per Pod, node capacity respected, one
 * leader per Lease since renewDeadline < leaseDuration, monotonic
 * resourceVersions, no acknowledged write lost), and, for the half of the
 * runs whose etcd is three members, Raft's (one leader per term, members
 * that applied as far hold the same revision).
 */
import { Quantity } from '../api/quantity.ts';
import { podRequests, resourceValue } from '../component-helpers/resource.ts';
import { isPodReady } from '../controllers/pod-util.ts';
import type { Pod } from '../api/types.ts';
import { Cluster } from '../cluster/cluster.ts';
import { Rng, deriveRngState } from '../sim/rng.ts';

/** One thing that happens to the cluster. */
export type SweepStep =
	| { kind: 'stop' | 'start'; component: string; node?: string }
	| { kind: 'partition' | 'heal' | 'powerOff' | 'powerOn'; node: string }
	| { kind: 'scale'; workload: string; replicas: number }
	| { kind: 'killPod'; index: number }
	| { kind: 'cordon' | 'uncordon'; node: string }
	/** A worker's clock set away from true time (0: back in step). */
	| { kind: 'setClock'; node: string; offsetMs: number }
	| { kind: 'advance'; seconds: number };

export interface SweepSchedule {
	/** Replicas of the scheduler and the controller manager (standbys on control-plane-2). */
	replicas: number;
	/** etcd members, stacked one per control-plane machine (absent: one). */
	etcdMembers?: number;
	steps: SweepStep[];
}

export interface SweepResult {
	seed: number;
	schedule: SweepSchedule;
	/** Steps applied before the first violation (all of them when none). */
	stepsRun: number;
	/** What broke, with the step it broke at; empty when the run passed. */
	violations: string[];
	/** Virtual time the run covered, ms. */
	simulatedMs: number;
}

const WORKERS = ['node-1', 'node-2'];
/** The workloads a scale step can resize, by name, with their resource. */
const SCALABLE: Record<string, 'deployments' | 'statefulsets'> = { web: 'deployments', api: 'deployments', db: 'statefulsets' };

/** The workloads every run starts with: what liveness is judged on. */
function workloadManifests(): string {
	const deployment = (name: string, replicas: number, cpu: string) =>
		`apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: ${name}}\n  template:\n    metadata:\n      labels: {app: ${name}}\n    spec:\n      containers:\n      - name: main\n        image: nginx:1.27\n        resources:\n          requests: {cpu: ${cpu}, memory: 64Mi}\n`;
	const daemonSet = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector:\n    matchLabels: {app: agent}\n  template:\n    metadata:\n      labels: {app: agent}\n    spec:\n      containers:\n      - name: agent\n        image: busybox:1.36\n        command: ["sh", "-c", "sleep 3600"]\n        resources:\n          requests: {cpu: 50m, memory: 16Mi}\n`;
	const statefulSet = `apiVersion: v1\nkind: Service\nmetadata:\n  name: db\nspec:\n  clusterIP: None\n  selector: {app: db}\n  ports:\n  - port: 80\n---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\nspec:\n  serviceName: db\n  replicas: 2\n  selector:\n    matchLabels: {app: db}\n  template:\n    metadata:\n      labels: {app: db}\n    spec:\n      containers:\n      - name: db\n        image: nginx:1.27\n        resources:\n          requests: {cpu: 100m, memory: 32Mi}\n`;
	const job = `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: batch\nspec:\n  completions: 4\n  parallelism: 2\n  backoffLimit: 20\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: work\n        image: busybox:1.36\n        command: ["sh", "-c", "sleep 20"]\n        resources:\n          requests: {cpu: 50m, memory: 16Mi}\n`;
	return [deployment('web', 3, '200m'), deployment('api', 2, '300m'), daemonSet, statefulSet, job].join('---\n');
}

/** Draws a schedule of `steps` steps from `seed`. */
export function drawSchedule(seed: number, steps: number): SweepSchedule {
	const rng = new Rng(deriveRngState(seed, 'sweep'));
	const pick = <T>(items: readonly T[]): T => items[rng.int(items.length)];
	const replicas = 1 + rng.int(2);
	// Half the runs keep etcd as three members (its own stream, so the other draws stay as they were).
	const etcdMembers = new Rng(deriveRngState(seed, 'sweep/etcd')).int(2) === 0 ? 1 : 3;
	const machines = controlPlaneMachines(replicas, etcdMembers);
	const members = machines.slice(0, etcdMembers);
	const drawn: SweepStep[] = [];
	for (let i = 0; i < steps; i++) {
		const roll = rng.int(100);
		if (roll < 30) drawn.push({ kind: 'advance', seconds: 1 + rng.int(90) });
		else if (roll < 42) drawn.push({ kind: pick(['stop', 'start'] as const), component: pick(['kube-scheduler', 'kube-controller-manager'] as const), node: pick(machines) });
		else if (roll < 48) {
			const kind = pick(['stop', 'start'] as const);
			const component = pick(['kube-apiserver', 'etcd'] as const);
			// With several members, a stop or start names one of them.
			drawn.push(component === 'etcd' && etcdMembers > 1 ? { kind, component, node: pick(members) } : { kind, component });
		}
		else if (roll < 60) drawn.push({ kind: pick(['stop', 'start'] as const), component: pick(['kubelet', 'container-runtime', 'kube-proxy'] as const), node: pick(WORKERS) });
		else if (roll < 68) drawn.push({ kind: pick(['partition', 'heal'] as const), node: pick([...WORKERS, ...machines.slice(1)]) });
		else if (roll < 74) drawn.push({ kind: pick(['powerOff', 'powerOn'] as const), node: pick(WORKERS) });
		else if (roll < 84) drawn.push({ kind: 'scale', workload: pick(Object.keys(SCALABLE)), replicas: rng.int(6) });
		else if (roll < 94) drawn.push({ kind: 'killPod', index: rng.int(1000) });
		else if (roll < 97) drawn.push({ kind: pick(['cordon', 'uncordon'] as const), node: pick(WORKERS) });
		// A day behind (before every certificate), an hour behind or a day ahead (still within them), or fixed.
		else drawn.push({ kind: 'setClock', node: pick(WORKERS), offsetMs: pick([-86_400_000, -3_600_000, 86_400_000, 0]) });
	}
	return etcdMembers > 1 ? { replicas, etcdMembers, steps: drawn } : { replicas, steps: drawn };
}

/** The control-plane machines a run has: one per replica or etcd member, whichever is more. */
function controlPlaneMachines(replicas: number, etcdMembers = 1): string[] {
	return ['control-plane', 'control-plane-2', 'control-plane-3'].slice(0, Math.max(replicas, etcdMembers));
}

/** Applies one step the way the reader (or bad luck) would. */
function apply(cluster: Cluster, step: SweepStep, expected: Map<string, number>): void {
	switch (step.kind) {
		case 'stop':
		case 'start':
			cluster.apply({ kind: step.kind, component: step.component, ...(step.node ? { node: step.node } : {}) });
			return;
		case 'partition':
		case 'heal':
		case 'powerOff':
		case 'powerOn':
			cluster.apply({ kind: step.kind, node: step.node });
			return;
		case 'setClock':
			cluster.apply({ kind: 'setClock', node: step.node, offsetMs: step.offsetMs });
			return;
		case 'scale':
			// Acknowledged only when kubectl says so (the API server may be down): only then must the write survive.
			if (cluster.exec(`kubectl scale ${SCALABLE[step.workload]} ${step.workload} --replicas=${step.replicas}`).exitCode === 0) expected.set(step.workload, step.replicas);
			return;
		case 'killPod': {
			const pods = cluster.list('pods', 'default').filter((p) => !p.metadata.deletionTimestamp);
			if (pods.length > 0) cluster.exec(`kubectl delete pod ${pods[step.index % pods.length].metadata.name} --wait=false`);
			return;
		}
		case 'cordon':
		case 'uncordon':
			cluster.exec(`kubectl ${step.kind} ${step.node}`);
			return;
		case 'advance':
			cluster.advance(step.seconds * 1000);
	}
}

/** What the safety checks remember between steps. */
interface Memory {
	bindings: Map<string, string>;
	resourceVersions: Map<string, number>;
	revision: number;
}

/** The safety invariants: every violation, in words. */
export function safetyViolations(cluster: Cluster, memory: Memory, expected: ReadonlyMap<string, number>): string[] {
	const out: string[] = [];
	const revision = cluster.etcdData.revision;
	if (revision < memory.revision) out.push(`etcd's revision went back from ${memory.revision} to ${revision}`);
	memory.revision = revision;
	const pods = cluster.list('pods') as Pod[];
	for (const pod of pods) {
		const uid = pod.metadata.uid!;
		const node = pod.spec.nodeName;
		const before = memory.bindings.get(uid);
		if (node && before !== undefined && node !== before) out.push(`pod ${pod.metadata.name} moved from ${before} to ${node}`);
		if (node) memory.bindings.set(uid, node);
		const rv = Number(pod.metadata.resourceVersion);
		if (rv < (memory.resourceVersions.get(uid) ?? 0)) out.push(`pod ${pod.metadata.name}'s resourceVersion went back to ${rv}`);
		memory.resourceVersions.set(uid, rv);
		const controllers = (pod.metadata.ownerReferences ?? []).filter((o) => o.controller);
		if (controllers.length > 1) out.push(`pod ${pod.metadata.name} has ${controllers.length} controller ownerReferences`);
	}
	// A Pod's sandbox runs on one machine at most.
	const sandboxes = new Map<string, string[]>();
	for (const [name, host] of cluster.hosts) {
		if (host.poweredOff) continue;
		for (const sandbox of Object.values(host.runtimeState.sandboxes)) {
			if (sandbox.state !== 'SANDBOX_READY') continue;
			sandboxes.set(sandbox.podUid, [...(sandboxes.get(sandbox.podUid) ?? []), name]);
		}
	}
	for (const [uid, nodes] of sandboxes) if (nodes.length > 1) out.push(`pod ${uid} has sandboxes on ${nodes.join(', ')}`);
	// Requests bound to a node never exceed what it can allocate.
	for (const node of cluster.list('nodes')) {
		const allocatable = (node.status as { allocatable?: Record<string, string> } | undefined)?.allocatable;
		if (!allocatable) continue;
		const name = node.metadata.name!;
		const active = pods.filter((p) => p.spec.nodeName === name && !['Succeeded', 'Failed'].includes((p.status as { phase?: string } | undefined)?.phase ?? ''));
		// PodRequests, as the scheduler and the kubelet's admission count them (init containers and overhead included).
		const requested = active.map((p) => podRequests(p.spec));
		const cpu = requested.reduce((sum, r) => sum + resourceValue(r, 'cpu'), 0);
		const memoryBytes = requested.reduce((sum, r) => sum + resourceValue(r, 'memory'), 0);
		if (cpu > Quantity.parse(allocatable.cpu).milliValue()) out.push(`${name}: ${cpu}m CPU requested over ${allocatable.cpu} allocatable`);
		if (memoryBytes > Quantity.parse(allocatable.memory).value()) out.push(`${name}: memory requested over ${allocatable.memory} allocatable`);
		if (active.length > Number(allocatable.pods)) out.push(`${name}: ${active.length} pods over ${allocatable.pods}`);
	}
	// etcd as a Raft cluster: one leader per term, and members that applied as far hold the same revision.
	const raft = cluster.etcdCluster;
	if (raft) {
		const leaders = new Map<number, string>();
		const revisionAt = new Map<number, { member: string; revision: number }>();
		for (const member of raft.memberNames()) {
			const facts = raft.raftFacts(member)!;
			if (facts.isLeader) {
				const other = leaders.get(facts.term);
				if (other) out.push(`etcd term ${facts.term} has two leaders: ${other} and ${member}`);
				leaders.set(facts.term, member);
			}
			const revision = raft.store(member)!.revision;
			const same = revisionAt.get(facts.appliedIndex);
			if (same && same.revision !== revision) out.push(`etcd members ${same.member} and ${member} applied to index ${facts.appliedIndex} but hold revisions ${same.revision} and ${revision}`);
			revisionAt.set(facts.appliedIndex, { member, revision });
		}
	}
	// One leader per Lease: among running replicas, at most one believes it leads, and it is the one the Lease names.
	for (const lease of ['kube-scheduler', 'kube-controller-manager']) {
		const leading = cluster.components().filter((c) => c.component === lease && c.running && c.leader);
		if (leading.length > 1) out.push(`Lease ${lease}: ${leading.map((c) => c.node).join(' and ')} both lead`);
	}
	// No acknowledged write lost: each scale kubectl confirmed is what etcd holds (nothing else writes spec.replicas here).
	for (const [name, replicas] of expected) {
		const resource = SCALABLE[name] ?? 'deployments';
		const stored = cluster.get(resource, 'default', name) as { kind?: string; spec?: { replicas?: number } } | undefined;
		const kind = resource === 'statefulsets' ? 'StatefulSet' : 'Deployment';
		if (!stored) out.push(`${kind} ${name} is gone`);
		else if (stored.spec?.replicas !== replicas) out.push(`${kind} ${name} has ${String(stored.spec?.replicas)} replicas, acknowledged ${replicas}`);
	}
	return out;
}

/** Heals every fault the schedule could have made. */
function healEverything(cluster: Cluster, machines: readonly string[]): void {
	for (const node of [...WORKERS, ...machines]) {
		if (cluster.isPoweredOff(node)) cluster.powerOn(node);
		cluster.heal(node);
		if (cluster.clockOffset(node) !== 0) cluster.setClock(node, 0);
	}
	for (const node of WORKERS) {
		for (const component of ['kubelet', 'container-runtime', 'kube-proxy']) cluster.apply({ kind: 'start', component, node });
	}
	for (const component of ['etcd', 'kube-apiserver']) cluster.apply({ kind: 'start', component });
	// Every further etcd member (a machine without one just has nothing to start).
	for (const node of machines.slice(1)) if (cluster.components().some((c) => c.component === 'etcd' && c.node === node)) cluster.apply({ kind: 'start', component: 'etcd', node });
	for (const node of machines) for (const component of ['kube-scheduler', 'kube-controller-manager']) cluster.apply({ kind: 'start', component, node });
	// kubectl needs the API server back before it can uncordon.
	cluster.settle({ maxMs: 120_000 });
	for (const node of WORKERS) cluster.exec(`kubectl uncordon ${node}`);
}

const DAEMON_TOLERATED = new Set(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/memory-pressure', 'node.kubernetes.io/pid-pressure', 'node.kubernetes.io/unschedulable']);

/** What is not yet as declared (empty once every workload has converged). */
export function livenessGaps(cluster: Cluster): string[] {
	const out: string[] = [];
	const pods = cluster.list('pods', 'default') as Pod[];
	const live = (p: Pod) => !p.metadata.deletionTimestamp && isPodReady(p);
	for (const d of cluster.list('deployments', 'default')) {
		const want = (d.spec as { replicas?: number }).replicas ?? 1;
		const status = (d.status ?? {}) as { readyReplicas?: number; updatedReplicas?: number; replicas?: number; observedGeneration?: number };
		if (status.observedGeneration !== d.metadata.generation) out.push(`Deployment ${d.metadata.name}: generation ${d.metadata.generation} not observed`);
		if ((status.readyReplicas ?? 0) !== want || (status.replicas ?? 0) !== want) out.push(`Deployment ${d.metadata.name}: ${status.readyReplicas ?? 0} ready of ${want}`);
	}
	for (const rs of cluster.list('replicasets', 'default')) {
		const want = (rs.spec as { replicas?: number }).replicas ?? 1;
		const owned = pods.filter((p) => live(p) && p.metadata.ownerReferences?.some((o) => o.uid === rs.metadata.uid && o.controller));
		if (owned.length !== want) out.push(`ReplicaSet ${rs.metadata.name}: ${owned.length} ready Pods of ${want}`);
	}
	for (const sts of cluster.list('statefulsets', 'default')) {
		const want = (sts.spec as { replicas?: number }).replicas ?? 1;
		const status = (sts.status ?? {}) as { readyReplicas?: number; replicas?: number; observedGeneration?: number };
		// Stable identities: exactly <name>-0 .. <name>-(want-1), each Ready.
		const names = pods.filter((p) => live(p) && p.metadata.ownerReferences?.some((o) => o.uid === sts.metadata.uid && o.controller)).map((p) => p.metadata.name).sort();
		const wanted = Array.from({ length: want }, (_, i) => `${sts.metadata.name}-${i}`).sort();
		if (status.observedGeneration !== sts.metadata.generation || (status.readyReplicas ?? 0) !== want || (status.replicas ?? 0) !== want || names.join() !== wanted.join()) {
			out.push(`StatefulSet ${sts.metadata.name}: ${status.readyReplicas ?? 0} ready of ${want} (${names.join(', ') || 'no Pods'})`);
		}
	}
	// A Job's desired state is an end: Complete (or Failed, its back-off limit spent by the faults), nothing left running.
	for (const job of cluster.list('jobs', 'default')) {
		const conditions = ((job.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);
		const active = (job.status as { active?: number } | undefined)?.active ?? 0;
		if (!(conditions.includes('Complete') || conditions.includes('Failed')) || active > 0) out.push(`Job ${job.metadata.name}: not finished (${conditions.join(', ') || 'no condition'}, ${active} active)`);
	}
	for (const ds of cluster.list('daemonsets', 'default')) {
		const status = (ds.status ?? {}) as { desiredNumberScheduled?: number; numberReady?: number };
		// The DaemonSet controller tolerates the node-condition and unschedulable taints by itself (daemon/util AddOrUpdateDaemonPodTolerations).
		const nodes = cluster.list('nodes').filter((n) => ((n.spec as { taints?: Array<{ key: string; effect: string }> } | undefined)?.taints ?? []).every((t) => DAEMON_TOLERATED.has(t.key) || t.effect === 'PreferNoSchedule'));
		if ((status.numberReady ?? 0) !== nodes.length || status.desiredNumberScheduled !== nodes.length) out.push(`DaemonSet ${ds.metadata.name}: ${status.numberReady ?? 0} ready of ${nodes.length} nodes`);
	}
	// Garbage: a Pod whose controller no longer exists is collected.
	const owners = new Set([...cluster.list('replicasets', 'default'), ...cluster.list('daemonsets', 'default'), ...cluster.list('statefulsets', 'default'), ...cluster.list('jobs', 'default')].map((o) => o.metadata.uid));
	for (const p of pods) {
		const controller = p.metadata.ownerReferences?.find((o) => o.controller);
		if (controller && !owners.has(controller.uid) && !p.metadata.deletionTimestamp) out.push(`pod ${p.metadata.name}: its owner ${controller.kind}/${controller.name} is gone`);
	}
	return out;
}

/** The budget for reaching the desired state once every fault is healed. */
export const LIVENESS_MS = 5 * 60_000;

/** One run: a cluster, the schedule, the checks. */
export function runSweep(seed: number, options: { steps?: number; schedule?: SweepSchedule; /** Sees the cluster at the end (to look into a failure). */ inspect?: (cluster: Cluster) => void } = {}): SweepResult {
	const schedule = options.schedule ?? drawSchedule(seed, options.steps ?? 16);
	const cluster = new Cluster({ seed, controlPlane: { schedulers: schedule.replicas, controllerManagers: schedule.replicas, ...(schedule.etcdMembers ? { etcdMembers: schedule.etcdMembers } : {}) } });
	const machines = controlPlaneMachines(schedule.replicas, schedule.etcdMembers);
	const start = cluster.now();
	const violations: string[] = [];
	const created = cluster.exec('kubectl apply -f -', { stdin: workloadManifests() });
	if (created.exitCode !== 0) return { seed, schedule, stepsRun: 0, violations: [`setup: ${created.stderr}`], simulatedMs: 0 };
	const expected = new Map<string, number>([
		['web', 3],
		['api', 2],
		['db', 2],
	]);
	cluster.settle({ maxMs: 120_000 });
	const memory: Memory = { bindings: new Map(), resourceVersions: new Map(), revision: 0 };
	let stepsRun = 0;
	for (const step of schedule.steps) {
		apply(cluster, step, expected);
		stepsRun++;
		const broken = safetyViolations(cluster, memory, expected);
		if (broken.length > 0) {
			violations.push(...broken.map((v) => `after step ${stepsRun} (${JSON.stringify(step)}): ${v}`));
			return { seed, schedule, stepsRun, violations, simulatedMs: cluster.now() - start };
		}
	}
	// The five minutes count from the moment the faults are healed, the settle that lets kubectl uncordon included.
	const healedAt = cluster.now();
	healEverything(cluster, machines);
	let gaps = livenessGaps(cluster);
	while (gaps.length > 0 && cluster.now() - healedAt < LIVENESS_MS) {
		cluster.advance('10s');
		const broken = safetyViolations(cluster, memory, expected);
		if (broken.length > 0) {
			violations.push(...broken.map((v) => `after healing: ${v}`));
			break;
		}
		gaps = livenessGaps(cluster);
	}
	if (gaps.length > 0) violations.push(...gaps.map((g) => `${LIVENESS_MS / 60_000} min after healing: ${g}`));
	options.inspect?.(cluster);
	return { seed, schedule, stepsRun, violations, simulatedMs: cluster.now() - start };
}
