/**
 * Upstream's scheduler plugin test tables, replayed through the public API:
 * a cluster booted with createCluster() (nodes as NodeOptions, the tables'
 * profiles in its KubeSchedulerConfiguration), pods applied with kubectl,
 * virtual time run, and the plugin's row of `cluster.explain()` compared
 * with upstream's expected numbers. The tables are in
 * ./testdata/public-tables/; each test is named after the upstream test
 * function and case.
 *
 * A boot costs far more than a case, so cases share clusters as their
 * table's `isolation` allows (see table.ts). Every cluster carries every
 * table's profiles. Before the first case the cluster's own pods leave the
 * workers (kube-proxy's DaemonSet and CoreDNS's Deployment are deleted):
 * upstream's nodes hold only the test's pods, and a pod without requests
 * counts 100m / 200Mi in NodeResourcesFit's scores. After each case its
 * pods are force-deleted.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster, type KubeObject, type NodeOptions } from '../index.ts';
import type { Expectation, FilterVerdict, Profile, PublicTable, TableCase } from './testdata/public-tables/table.ts';
import { TABLES } from './testdata/public-tables/index.ts';

const ALL_PROFILES: Profile[] = (() => {
	const seen = new Map<string, Profile>();
	for (const table of TABLES)
		for (const p of table.profiles) {
			if (seen.has(p.schedulerName!)) throw new Error(`profile ${p.schedulerName} defined twice`);
			seen.set(p.schedulerName!, p);
		}
	return [...seen.values()];
})();

/** A node's options but its name: nodes equal in these are interchangeable. */
const nodeKey = (n: NodeOptions) => JSON.stringify({ ...n, name: undefined });

/** Where a case runs: its cluster (key), and upstream's node names mapped to the cluster's. */
interface Placement {
	clusterKey: string;
	names: Map<string, string>;
}

/** Clusters by key: their nodes (known before the first boot) and the cluster once booted. */
const clusterNodes = new Map<string, NodeOptions[]>();
const clusters = new Map<string, Cluster>();
const placements = new Map<TableCase, Placement>();

/** Lays out every table's cases on clusters (see Isolation in table.ts). */
function layOut(): void {
	const slots = new Map<string, Map<string, string>>(); // cluster key -> (node key#occurrence -> cluster node name)
	for (const table of TABLES) {
		for (const c of table.cases) {
			const all = [...c.nodes, ...(c.failedNodes ?? [])];
			if (table.isolation === 'own') {
				const key = `own:${JSON.stringify(c.nodes)}`;
				if (c.failedNodes?.length) throw new Error(`${table.test}/${c.name}: failedNodes need isolation 'cordon'`);
				clusterNodes.set(key, c.nodes);
				placements.set(c, { clusterKey: key, names: new Map(c.nodes.map((n) => [n.name, n.name])) });
				continue;
			}
			const key = `shared:${table.clusterGroup ?? table.test}`;
			const nodes = clusterNodes.get(key) ?? [];
			clusterNodes.set(key, nodes);
			const bySlot = slots.get(key) ?? new Map<string, string>();
			slots.set(key, bySlot);
			const seen = new Map<string, number>();
			const names = new Map<string, string>();
			for (const n of all) {
				const k = nodeKey(n);
				const i = seen.get(k) ?? 0;
				seen.set(k, i + 1);
				const slot = `${k}#${i}`;
				let name = bySlot.get(slot);
				if (!name) {
					const taken = new Set(nodes.map((x) => x.name));
					name = n.name;
					for (let suffix = 2; taken.has(name); suffix++) name = `${n.name}-${suffix}`;
					bySlot.set(slot, name);
					nodes.push({ ...n, name });
				}
				names.set(n.name, name);
			}
			placements.set(c, { clusterKey: key, names });
		}
	}
}
layOut();

function clusterFor(key: string): Cluster {
	let cluster = clusters.get(key);
	if (!cluster) {
		cluster = createCluster({ seed: 1, nodes: clusterNodes.get(key)!, scheduler: { profiles: ALL_PROFILES } });
		emptyTheWorkers(cluster);
		clusters.set(key, cluster);
	}
	return cluster;
}

function run(cluster: Cluster, line: string, stdin?: string): string {
	const r = cluster.exec(line, stdin === undefined ? {} : { stdin });
	if (r.exitCode !== 0) throw new Error(`${line}: ${r.output}`);
	return r.stdout;
}

interface NodeView {
	metadata: { name: string };
	spec?: { unschedulable?: boolean; taints?: Array<{ key: string }> };
}
const nodesOf = (cluster: Cluster) => cluster.list('nodes') as unknown as NodeView[];

/** kube-proxy and CoreDNS leave; the control-plane node keeps its static pods (and its NoSchedule taint). */
function emptyTheWorkers(cluster: Cluster): void {
	run(cluster, 'kubectl -n kube-system delete daemonset kube-proxy');
	run(cluster, 'kubectl -n kube-system delete deployment coredns');
	const controlPlane = cluster.nodeNames()[0];
	for (let i = 0; i < 120; i++) {
		cluster.advance(500);
		if (cluster.list('pods').every((p) => (p as { spec?: { nodeName?: string } }).spec?.nodeName === controlPlane)) return;
	}
	throw new Error('kube-proxy and CoreDNS pods did not go');
}

/** Cordons every node but `open`, uncordons those, and waits for the node lifecycle controller's unschedulable taints to follow. */
function cordonAllBut(cluster: Cluster, open: Set<string>): void {
	const nodes = nodesOf(cluster);
	const toCordon = nodes.filter((n) => !open.has(n.metadata.name) && !n.spec?.unschedulable).map((n) => n.metadata.name);
	const toOpen = nodes.filter((n) => open.has(n.metadata.name) && n.spec?.unschedulable).map((n) => n.metadata.name);
	if (toCordon.length) run(cluster, `kubectl cordon ${toCordon.join(' ')}`);
	if (toOpen.length) run(cluster, `kubectl uncordon ${toOpen.join(' ')}`);
	const settled = () => nodesOf(cluster).every((n) => open.has(n.metadata.name) === !(n.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unschedulable'));
	for (let i = 0; i < 50 && !settled(); i++) cluster.advance(100);
	if (!settled()) throw new Error('the unschedulable taints did not follow the cordons');
}

const namespaceOf = (o: KubeObject) => o.metadata.namespace ?? 'default';

/** The pod with upstream's node names replaced by the cluster's (spec.nodeName only). */
function placed(p: KubeObject, names: Map<string, string>): KubeObject {
	const copy = structuredClone(p) as KubeObject & { spec: { nodeName?: string } };
	if (copy.spec.nodeName) copy.spec.nodeName = names.get(copy.spec.nodeName) ?? copy.spec.nodeName;
	return copy;
}

function runCase(table: PublicTable, c: TableCase): { explanation: ReturnType<Cluster['explain']>; names: Map<string, string> } {
	const { clusterKey, names } = placements.get(c)!;
	const cluster = clusterFor(clusterKey);
	if (table.isolation === 'cordon') cordonAllBut(cluster, new Set(c.nodes.map((n) => names.get(n.name)!)));
	const incoming = placed(c.pod, names) as KubeObject & { spec: Record<string, unknown> };
	incoming.spec.schedulerName = c.profile ?? table.defaultProfile;
	const existing = (c.existingPods ?? []).map((p) => placed(p, names));
	try {
		for (const o of c.objects ?? []) run(cluster, 'kubectl apply -f -', JSON.stringify(o));
		for (const p of existing) run(cluster, 'kubectl create -f -', JSON.stringify(p));
		// The scheduler's cache has them once its informer saw them (their kubelets start them meanwhile).
		if (existing.length) cluster.advance(100);
		run(cluster, 'kubectl create -f -', JSON.stringify(incoming));
		const key = `${namespaceOf(incoming)}/${incoming.metadata.name}`;
		for (let i = 0; i < 100 && !cluster.explain(key); i++) cluster.advance(10);
		return { explanation: cluster.explain(key), names };
	} finally {
		const namespaces = new Set([incoming, ...existing].map(namespaceOf));
		for (const ns of namespaces) run(cluster, `kubectl -n ${ns} delete pods --all --force --grace-period=0`);
		for (const o of c.objects ?? []) if (o.kind !== 'Namespace') run(cluster, `kubectl -n ${namespaceOf(o)} delete ${o.kind.toLowerCase()} ${o.metadata.name}`);
		cluster.advance(100);
	}
}

type Explanation = NonNullable<ReturnType<Cluster['explain']>>;

/** What explain says about the plugin, in the expectation's shape (upstream's node names). */
function observed(table: PublicTable, e: Explanation, want: Expectation, names: Map<string, string>): unknown {
	const rows = new Map(e.nodes.map((n) => [n.node, n]));
	const rowOf = (upstream: string) => rows.get(names.get(upstream) ?? upstream);
	if ('scores' in want) {
		const got: Record<string, number | string> = {};
		for (const name of Object.keys(want.scores)) {
			const row = rowOf(name);
			const score = row?.scores?.find((s) => s.plugin === table.plugin);
			got[name] = score ? score.normalized : !row ? 'not examined' : !row.feasible ? `rejected by ${row.rejectedBy}: ${row.reasons?.join(', ')}` : `no ${table.plugin} score (${e.result}${e.message ? `: ${e.message}` : ''})`;
		}
		return { scores: got };
	}
	if ('preScore' in want) return { preScore: e.preScore.find((o) => o.plugin === table.plugin)?.code ?? 'not run' };
	if ('preFilter' in want) {
		const outcome = e.preFilter.find((o) => o.plugin === table.plugin);
		return { preFilter: outcome ? { code: outcome.code, message: outcome.message } : 'not run' };
	}
	const got: Record<string, FilterVerdict | string> = {};
	for (const name of Object.keys(want.filter)) {
		const row = rowOf(name);
		const verdict = row?.filters.find((f) => f.plugin === table.plugin);
		got[name] = verdict ? { code: verdict.code as FilterVerdict['code'], reasons: verdict.reasons } : !row ? 'not examined' : `not run (rejected by ${row.rejectedBy} first)`;
	}
	return { filter: got };
}

for (const table of TABLES) {
	describe(`${table.test} (${table.source})`, () => {
		it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
			const { explanation, names } = runCase(table, c);
			expect(explanation, 'the scheduler explained nothing for the pod').toBeDefined();
			if (table.isolation === 'cordon') {
				// Exactly the case's nodes were feasible (a pod that tolerates the unschedulable taint would defeat the cordons).
				const open = new Set(c.nodes.map((n) => names.get(n.name)!));
				expect(explanation!.nodes.filter((n) => n.feasible && !open.has(n.node)).map((n) => n.node)).toEqual([]);
			}
			expect(observed(table, explanation!, c.expect, names)).toEqual(c.expect);
		});
	});
}
