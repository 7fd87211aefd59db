/**
 * Upstream's scheduler plugin test tables, replayed through the public API:
 * a cluster booted with createCluster() (nodes as NodeOptions, the tables'
 * profiles in its KubeSchedulerConfiguration), pods applied with kubectl,
 * virtual time run, and the plugin's row of `cluster.explain()` compared
 * with upstream's expected numbers and verdicts. The tables are in
 * ./testdata/public-tables/; each test is named after the upstream test
 * function and case, and every upstream case a table leaves out is listed
 * there with the reason.
 *
 * A boot costs far more than a case, so cases share clusters as their
 * table's `isolation` allows ('none', 'relabel', 'exact', 'own': see
 * table.ts). Every cluster carries every table's profiles. The
 * control-plane machine registers no Node (controlPlane.registerNode:
 * false), so a cluster's Nodes are the table's; before the first case the
 * cluster's own pods leave them (kube-proxy's DaemonSet and CoreDNS's
 * Deployment are deleted): upstream's nodes hold only the test's pods, and
 * a pod without requests counts 100m / 200Mi in NodeResourcesFit's scores.
 * After each case its pods are force-deleted.
 *
 * DEBUG_TABLES=1 prints each case's explanation.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, type Cluster, type KubeObject, type NodeOptions } from '../index.ts';
import { EVICTION_RESERVED_MEMORY, type Expectation, type FilterVerdict, type Profile, type PublicTable, type TableCase } from './testdata/public-tables/table.ts';
import { TABLES } from './testdata/public-tables/index.ts';

/** Every table's profiles, and the default one (upstream's default plugins). */
const ALL_PROFILES: Profile[] = (() => {
	const seen = new Map<string, Profile>([['default-scheduler', { schedulerName: 'default-scheduler' }]]);
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

/** A Node's name must be a DNS-1123 subdomain: upstream's nodeA is nodea here. */
const nodeName = (upstream: string) => upstream.toLowerCase();

/** Lays out every table's cases on clusters (see Isolation in table.ts). */
function layOut(): void {
	const slots = new Map<string, Map<string, string>>(); // cluster key -> (node key#occurrence -> cluster node name)
	for (const table of TABLES) {
		for (const c of table.cases) {
			if (c.failedNodes?.length && table.isolation !== 'relabel' && table.isolation !== 'exact') throw new Error(`${table.test}/${c.name}: failedNodes need isolation 'relabel' or 'exact'`);
			const all = [...c.nodes, ...(c.failedNodes ?? [])];
			if (table.isolation === 'own') {
				const key = `own:${JSON.stringify(c.nodes)}`;
				clusterNodes.set(key, c.nodes);
				placements.set(c, { clusterKey: key, names: new Map(c.nodes.map((n) => [n.name, n.name])) });
				continue;
			}
			if (table.isolation === 'exact') {
				// Exactly the case's nodes (by name and size); cases naming the same nodes share the cluster and relabel them.
				const sized = all.map((n) => ({ name: nodeName(n.name), cpu: n.cpu, memory: n.memory, ...(n.pods ? { pods: n.pods } : {}) })).sort((a, b) => (a.name < b.name ? -1 : 1));
				const key = `exact:${JSON.stringify(sized)}`;
				clusterNodes.set(key, sized);
				placements.set(c, { clusterKey: key, names: new Map(all.map((n) => [n.name, nodeName(n.name)])) });
				continue;
			}
			const key = `${table.isolation}:${table.clusterGroup ?? table.test}`;
			const nodes = clusterNodes.get(key) ?? [];
			clusterNodes.set(key, nodes);
			if (table.isolation === 'relabel') {
				// One node per name, its size from the first case that names it (labels and taints come per case).
				for (const n of all) {
					const known = nodes.find((x) => x.name === nodeName(n.name));
					if (!known) nodes.push({ name: nodeName(n.name), cpu: n.cpu, memory: n.memory, ...(n.pods ? { pods: n.pods } : {}) });
					else if (known.cpu !== n.cpu || known.memory !== n.memory || known.pods !== n.pods) throw new Error(`${table.test}/${c.name}: node ${n.name} differs in size from an earlier case's; 'relabel' can only change labels and taints`);
					if (n.images?.length) throw new Error(`${table.test}/${c.name}: node ${n.name} has images; 'relabel' cannot set them`);
				}
				placements.set(c, { clusterKey: key, names: new Map(all.map((n) => [n.name, nodeName(n.name)])) });
				continue;
			}
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
		// node() adds the 100Mi the kubelet keeps back for memory.available<100Mi; these clusters turn that threshold off
		// (installBridgeNetwork), and with it the reservation, so the machines get exactly the tables' memory.
		const nodes = clusterNodes.get(key)!.map((n) => (/^\d+$/.test(n.memory) && Number(n.memory) >= EVICTION_RESERVED_MEMORY ? { ...n, memory: String(Number(n.memory) - EVICTION_RESERVED_MEMORY) } : n));
		cluster = createCluster({ seed: 1, nodes, controlPlane: { registerNode: false }, scheduler: { profiles: ALL_PROFILES }, cni: 'none' });
		installBridgeNetwork(cluster, nodes.map((n) => n.name));
		const registered = new Set(cluster.list('nodes').map((n) => n.metadata.name));
		const missing = nodes.filter((n) => !registered.has(n.name)).map((n) => n.name);
		if (missing.length) throw new Error(`nodes ${missing.join(', ')} did not register`);
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
	metadata: { name: string; labels?: Record<string, string> };
	spec?: { unschedulable?: boolean; taints?: TaintView[] };
}
const nodesOf = (cluster: Cluster) => cluster.list('nodes') as unknown as NodeView[];

/**
 * A Pod network written by hand on each node (the bridge plugin with
 * host-local addresses, as in containerd's example conflist) instead of an
 * add-on's DaemonSet: the tables' nodes are sized for their cases (some have
 * no room at all), so no network Pod may need a place on them; their
 * eviction threshold is turned off for the same reason. Waits until every
 * node is Ready and carries no taint.
 */
const BRIDGE_CONFLIST = JSON.stringify({
	cniVersion: '1.0.0',
	name: 'bridge',
	plugins: [{ type: 'bridge', bridge: 'cni0', isGateway: true, ipMasq: true, ipam: { type: 'host-local', ranges: [[{ subnet: 'usePodCidr' }]] } }],
});
function installBridgeNetwork(cluster: Cluster, nodes: string[]): void {
	for (const node of nodes) {
		run(cluster, `ssh ${node}`);
		run(cluster, `echo '${BRIDGE_CONFLIST}' > /etc/cni/net.d/10-bridge.conflist`);
		// The tables size nodes down to a few bytes of memory, less than their own daemons use: with the kubelet's
		// default memory.available<100Mi they would all be under memory pressure (and tainted). Turn the threshold off.
		run(cluster, "echo 'evictionHard:' >> /var/lib/kubelet/config.yaml");
		run(cluster, `echo '  memory.available: "0%"' >> /var/lib/kubelet/config.yaml`);
		// A file's evictionHard replaces the defaults: keep nodefs.available<10% (ephemeral-storage allocatable stays 90Gi).
		run(cluster, `echo '  nodefs.available: "10%"' >> /var/lib/kubelet/config.yaml`);
		run(cluster, 'systemctl restart kubelet');
		run(cluster, 'exit');
	}
	for (let i = 0; i < 240; i++) {
		const ready = nodesOf(cluster).every((n) => !n.spec?.taints?.length && (n as { status?: { conditions?: Array<{ type: string; status: string }> } }).status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
		if (ready && nodesOf(cluster).length === nodes.length) return;
		cluster.advance(500);
	}
	throw new Error('nodes did not become Ready on the bridge network');
}

/** kube-proxy and CoreDNS leave the nodes (the control-plane machine registers no Node: its static pods are no Pods here). */
function emptyTheWorkers(cluster: Cluster): void {
	run(cluster, 'kubectl -n kube-system delete daemonset kube-proxy');
	run(cluster, 'kubectl -n kube-system delete deployment coredns');
	for (let i = 0; i < 120; i++) {
		cluster.advance(500);
		if (cluster.list('pods').length === 0) return;
	}
	throw new Error('kube-proxy and CoreDNS pods did not go');
}

type TaintView = { key: string; value?: string; effect?: string };
const UNSCHEDULABLE_TAINT: TaintView = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
const taintText = (t: TaintView) => `${t.key}=${t.value ?? ''}:${t.effect ?? ''}`;
const sameSet = (a: string[], b: string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
const labelTexts = (labels: Record<string, string>) => Object.entries(labels).map(([k, v]) => `${k}=${v}`);

/** Each cluster's Nodes' labels as their kubelets registered them (kubernetes.io/hostname, os, arch). */
const kubeletLabels = new Map<Cluster, Map<string, Record<string, string>>>();

/** The labels a case wants on a node: the kubelet's own, but those the case removes, and the case's. */
function labelsFor(cluster: Cluster, clusterName: string, n: NodeOptions, removed: string[] = []): Record<string, string> {
	let byNode = kubeletLabels.get(cluster);
	if (!byNode) {
		byNode = new Map(nodesOf(cluster).map((node) => [node.metadata.name, { ...(node.metadata.labels ?? {}) }]));
		kubeletLabels.set(cluster, byNode);
	}
	const labels: Record<string, string> = { ...byNode.get(clusterName)!, ...(n.labels ?? {}), ...(n.zone ? { 'topology.kubernetes.io/zone': n.zone } : {}) };
	for (const key of removed) delete labels[key];
	return labels;
}

/**
 * Gives the case's nodes its labels and taints and uncordons them (failed
 * nodes: cordoned), cordons every other node, and waits until the Nodes
 * say so. The node lifecycle controller's unschedulable taint is written
 * with the cordon, as it would add it.
 */
function relabel(cluster: Cluster, c: TableCase, names: Map<string, string>): void {
	const wanted = new Map<string, { labels: Record<string, string>; taints: TaintView[]; cordoned: boolean }>();
	for (const [n, cordoned] of [...c.nodes.map((x) => [x, false] as const), ...(c.failedNodes ?? []).map((x) => [x, true] as const)]) {
		const name = names.get(n.name)!;
		wanted.set(name, { labels: labelsFor(cluster, name, n, c.removeLabels?.[n.name]), taints: [...(n.taints ?? []), ...(cordoned ? [UNSCHEDULABLE_TAINT] : [])], cordoned });
	}
	const isSettled = (node: NodeView) => {
		const w = wanted.get(node.metadata.name);
		if (!w) return node.spec?.unschedulable === true;
		return sameSet(labelTexts(node.metadata.labels ?? {}), labelTexts(w.labels)) && sameSet((node.spec?.taints ?? []).map(taintText), w.taints.map(taintText)) && (node.spec?.unschedulable === true) === w.cordoned;
	};
	for (const node of nodesOf(cluster)) {
		if (isSettled(node)) continue;
		const w = wanted.get(node.metadata.name);
		const patch = w
			? {
					metadata: { labels: { ...Object.fromEntries(Object.keys(node.metadata.labels ?? {}).map((k) => [k, null])), ...w.labels } },
					spec: { unschedulable: w.cordoned ? true : null, taints: w.taints.length ? w.taints : null },
				}
			: { spec: { unschedulable: true, taints: [...(node.spec?.taints ?? []).filter((t) => t.key !== UNSCHEDULABLE_TAINT.key), UNSCHEDULABLE_TAINT] } };
		const text = JSON.stringify(patch);
		if (text.includes("'")) throw new Error(`a quote in ${text}`);
		run(cluster, `kubectl patch node ${node.metadata.name} --type=merge -p '${text}'`);
	}
	const settled = () => nodesOf(cluster).every(isSettled);
	for (let i = 0; i < 50 && !settled(); i++) cluster.advance(100);
	if (!settled()) throw new Error(`the nodes did not take the labels and taints of ${c.name}`);
	// The scheduler's informer sees the updates.
	cluster.advance(50);
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
	if (table.isolation === 'relabel' || table.isolation === 'exact') relabel(cluster, c, names);
	const incoming = placed(c.pod, names) as KubeObject & { spec: Record<string, unknown> };
	incoming.spec.schedulerName = c.profile ?? table.defaultProfile;
	const existing = (c.existingPods ?? []).map((p) => placed(p, names));
	try {
		for (const o of c.objects ?? []) run(cluster, 'kubectl apply -f -', JSON.stringify(o));
		// A new namespace takes pods once its ServiceAccount controller made the default ServiceAccount.
		for (const ns of (c.objects ?? []).filter((o) => o.kind === 'Namespace').map((o) => o.metadata.name!)) {
			for (let i = 0; i < 50 && !cluster.get('serviceaccounts', ns, 'default'); i++) cluster.advance(100);
		}
		for (const p of existing) run(cluster, 'kubectl create -f -', JSON.stringify(p));
		// The scheduler's cache has them once its informer saw them (their kubelets start them meanwhile).
		if (existing.length) cluster.advance(100);
		// Pods the case wants terminating: deleted, and kept by their finalizer.
		for (const name of c.terminating ?? []) run(cluster, `kubectl delete pod ${name} --wait=false`);
		if (c.terminating?.length) cluster.advance(100);
		run(cluster, 'kubectl create -f -', JSON.stringify(incoming));
		const key = `${namespaceOf(incoming)}/${incoming.metadata.name}`;
		for (let i = 0; i < 100 && !cluster.explain(key); i++) cluster.advance(10);
		return { explanation: cluster.explain(key), names };
	} finally {
		for (const p of existing.filter((x) => (x.metadata as { finalizers?: string[] }).finalizers?.length)) run(cluster, `kubectl -n ${namespaceOf(p)} patch pod ${p.metadata.name} --type=merge -p '{"metadata":{"finalizers":null}}'`);
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
	if ('filterCodes' in want) {
		const codes: Record<string, string> = {};
		for (const name of Object.keys(want.filterCodes)) {
			const row = rowOf(name);
			const verdict = row?.filters.find((f) => f.plugin === table.plugin);
			codes[name] = verdict ? verdict.code : !row ? 'not examined' : `not run (rejected by ${row.rejectedBy} first)`;
		}
		return { filterCodes: codes };
	}
	const got: Record<string, FilterVerdict | string> = {};
	for (const name of Object.keys(want.filter)) {
		const row = rowOf(name);
		const verdict = row?.filters.find((f) => f.plugin === table.plugin);
		got[name] = verdict ? { code: verdict.code as FilterVerdict['code'], reasons: verdict.reasons } : !row ? 'not examined' : `not run (rejected by ${row.rejectedBy} first)`;
	}
	return { filter: got };
}

for (const table of TABLES.filter((t) => t.cases.length > 0)) {
	describe(`${table.test} (${table.source})`, () => {
		it.each(table.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
			const { explanation, names } = runCase(table, c);
			expect(explanation, 'the scheduler explained nothing for the pod').toBeDefined();
			if (process.env.DEBUG_TABLES) console.log(JSON.stringify(explanation, null, 1));
			if ((table.isolation === 'relabel' || table.isolation === 'exact') && 'scores' in c.expect) {
				// Exactly the case's nodes were feasible (a pod that tolerates the unschedulable taint would defeat the cordons).
				const open = new Set(c.nodes.map((n) => names.get(n.name)!));
				expect(explanation!.nodes.filter((n) => n.feasible && !open.has(n.node)).map((n) => n.node)).toEqual([]);
			}
			expect(observed(table, explanation!, c.expect, names)).toEqual(c.expect);
		});
	});
}

describe('the upstream cases not replayed', () => {
	it.each(TABLES.map((t) => [t.test, t] as const))('%s: each says why, and none is also replayed', (_test, table) => {
		const replayed = new Set(table.cases.map((c) => c.name));
		for (const n of table.notExpressible) {
			expect(n.why.length, n.name).toBeGreaterThan(20);
			expect(replayed.has(n.name), n.name).toBe(false);
		}
		expect(new Set([...replayed, ...table.notExpressible.map((n) => n.name)]).size).toBe(table.cases.length + table.notExpressible.length);
	});
});
