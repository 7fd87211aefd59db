/**
 * `kubectl top node|pod`: usage figures from the metrics.k8s.io API, which
 * only metrics-server serves (kubeadm does not install it). kubectl first
 * asks discovery for the group: while no APIService serves it, or it is
 * not Available, that is `error: Metrics API not available`. An empty
 * answer is `error: metrics not available yet` (for pods only while some
 * Pod is younger than two minutes; an older one without figures is
 * `Metrics not available for pod <ns>/<name>, age: <age>`). The table:
 * NAME CPU(cores) CPU(%) MEMORY(bytes) MEMORY(%) for nodes (the
 * percentages of allocatable, or of capacity with --show-capacity; a node
 * without figures shows `<unknown>`), NAME CPU(cores) MEMORY(bytes) for
 * pods (NAMESPACE first with -A, POD then the container with
 * --containers), CPU in millicores and memory in MiB, sorted by name or
 * by --sort-by cpu|memory (largest first).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/top/top.go
 * (SupportedMetricsAPIVersionAvailable),
 * staging/src/k8s.io/kubectl/pkg/cmd/top/top_node.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/top/top_pod.go (verifyEmptyMetrics,
 * checkPodAge), staging/src/k8s.io/kubectl/pkg/metricsutil/metrics_printer.go.
 */
import type { KubeList, KubeObject, Node, Pod } from '../../api/types.ts';
import { parseQuantity, type Quantity } from '../../api/quantity.ts';
import { R, type CallResult } from '../../client/client.ts';
import { formatGoDurationMs } from '../../golang/duration.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { formatTable } from '../printers/tabwriter.ts';
import { errorText } from '../resource-args.ts';
import { discoveryReachable } from './api-resources.ts';
import { callError, checkErr, plain, usageError } from './check-err.ts';
import { unionFlags, type Subcommand } from './subcommand.ts';
import { runParent } from './help.ts';

/** The API group metrics-server registers (with the APIService v1beta1.metrics.k8s.io). */
const METRICS_GROUP = 'metrics.k8s.io';
const METRICS_VERSION = 'v1beta1';
const NODE_METRICS = { group: METRICS_GROUP, version: METRICS_VERSION, resource: 'nodes' };
const POD_METRICS = { group: METRICS_GROUP, version: METRICS_VERSION, resource: 'pods' };
/** metricsCreationDelay: a Pod younger than this may simply not have been scraped yet. */
const METRICS_CREATION_DELAY_MS = 2 * 60_000;

const COMMON: FlagSpec[] = [
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'sort-by', kind: 'string' },
	{ name: 'no-headers', kind: 'bool' },
	{ name: 'use-protocol-buffers', kind: 'bool' },
	{ name: 'show-swap', kind: 'bool' },
];
const NODE_FLAGS: FlagSpec[] = [...COMMON, { name: 'show-capacity', kind: 'bool' }];
const POD_FLAGS: FlagSpec[] = [...COMMON, { name: 'all-namespaces', short: 'A', kind: 'bool' }, { name: 'containers', kind: 'bool' }, { name: 'sum', kind: 'bool' }, { name: 'field-selector', kind: 'string' }];

interface Usage {
	cpu: Quantity;
	memory: Quantity;
}

const zero = () => parseQuantity('0');
const quantity = (text: unknown) => {
	try {
		return parseQuantity(String(text ?? '0'));
	} catch {
		return zero();
	}
};

type NodeMetrics = KubeObject & { usage?: { cpu?: string; memory?: string } };
type PodMetrics = KubeObject & { containers?: Array<{ name: string; usage?: { cpu?: string; memory?: string } }> };

/** printSingleResourceUsage: CPU as `<milli>m`, memory as `<MiB>Mi`. */
const cpuCell = (q: Quantity) => `${q.milliValue()}m`;
const memoryCell = (q: Quantity) => `${Math.trunc(q.value() / (1024 * 1024))}Mi`;
/** The share of what is available, truncated: `int64(float64(used.MilliValue()) / float64(available.MilliValue()) * 100)`. */
const percentCell = (used: Quantity, available: Quantity | undefined) => {
	const a = available?.milliValue() ?? 0;
	return `${a === 0 ? 0 : Math.trunc((used.milliValue() / a) * 100)}%`;
};

/** Discovery: whether an Available APIService serves metrics.k8s.io/v1beta1 (undefined), or the error to stop with. */
function metricsApiError(inv: KubectlInvocation): CommandResult | undefined {
	const unreachable = discoveryReachable(inv);
	if (unreachable) return { stdout: '', stderr: errorText([unreachable.replace(/^error: /, '')]), exitCode: 1 };
	const discovered = inv.client.raw({ verb: 'get', group: METRICS_GROUP, version: METRICS_VERSION, resource: '' });
	if ('failure' in discovered || discovered.code !== 200) return checkErr(plain('Metrics API not available'));
	return undefined;
}

/** The common argument checks of both subcommands (Validate). */
function validate(inv: KubectlInvocation, use: string): { name?: string; error?: CommandResult } {
	const positionals = inv.args.positionals;
	if (positionals.length > 1) return { error: checkErr(usageError(`kubectl top ${use}`, use === 'node' ? 'kubectl top node [NAME | -l label]' : 'kubectl top pod [NAME | -l label]')) };
	const sortBy = inv.args.flags['sort-by'];
	if (typeof sortBy === 'string' && sortBy !== '' && sortBy !== 'cpu' && sortBy !== 'memory') return { error: checkErr(plain('--sort-by accepts only cpu or memory')) };
	const name = positionals[0];
	if (name && typeof inv.args.flags.selector === 'string' && inv.args.flags.selector !== '') return { error: checkErr(plain('only one of NAME or --selector can be provided')) };
	return { name };
}

function sortByUsage<T>(items: T[], usage: (t: T) => Usage, sortBy: string, byName: (a: T, b: T) => number): T[] {
	const key = (t: T) => (sortBy === 'cpu' ? usage(t).cpu.milliValue() : usage(t).memory.value());
	return [...items].sort((a, b) => (sortBy === 'cpu' || sortBy === 'memory' ? key(b) - key(a) || byName(a, b) : byName(a, b)));
}

function topNode(inv: KubectlInvocation): CommandResult {
	const checked = validate(inv, 'node');
	if (checked.error) return checked.error;
	const apiError = metricsApiError(inv);
	if (apiError) return apiError;
	const selector = typeof inv.args.flags.selector === 'string' ? inv.args.flags.selector : '';
	const query = selector ? { labelSelector: selector } : {};
	const url = inv.env.serverUrl;
	let metrics: NodeMetrics[];
	if (checked.name) {
		const got = inv.client.get<NodeMetrics>(NODE_METRICS, undefined, checked.name);
		if (!got.ok) return checkErr(callError(got, url));
		metrics = [got.object];
	} else {
		const listed = inv.client.list<NodeMetrics>(NODE_METRICS, undefined, query);
		if (!listed.ok) return checkErr(callError(listed, url));
		metrics = listed.object.items ?? [];
	}
	if (metrics.length === 0) return checkErr(plain('metrics not available yet'));
	let nodes: Node[];
	if (checked.name) {
		const got = inv.client.get<Node>(R.nodes, undefined, checked.name);
		if (!got.ok) return checkErr(callError(got, url));
		nodes = [got.object];
	} else {
		const listed = inv.client.list<Node>(R.nodes, undefined, query) as CallResult<KubeList<Node>>;
		if (!listed.ok) return checkErr(callError(listed, url));
		nodes = listed.object.items ?? [];
	}
	const available = new Map(nodes.map((n) => [n.metadata.name ?? '', (inv.args.flags['show-capacity'] === true ? n.status?.capacity : n.status?.allocatable) as Record<string, string> | undefined]));
	const usageOf = (m: NodeMetrics): Usage => ({ cpu: quantity(m.usage?.cpu), memory: quantity(m.usage?.memory) });
	const sortBy = String(inv.args.flags['sort-by'] ?? '');
	const rows: string[][] = [];
	if (inv.args.flags['no-headers'] !== true) rows.push(['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']);
	const seen = new Set<string>();
	for (const m of sortByUsage(metrics, usageOf, sortBy, (a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1))) {
		const name = m.metadata.name ?? '';
		seen.add(name);
		const u = usageOf(m);
		const avail = available.get(name);
		rows.push(avail ? [name, cpuCell(u.cpu), percentCell(u.cpu, quantity(avail.cpu)), memoryCell(u.memory), percentCell(u.memory, quantity(avail.memory))] : [name, cpuCell(u.cpu), memoryCell(u.memory)]);
	}
	// Nodes the metrics do not cover (their kubelet could not be scraped).
	for (const name of [...available.keys()].filter((n) => !seen.has(n)).sort()) rows.push([name, '<unknown>', '<unknown>', '<unknown>', '<unknown>']);
	return { stdout: formatTable(rows), stderr: '', exitCode: 0 };
}

function topPod(inv: KubectlInvocation): CommandResult {
	const checked = validate(inv, 'pod');
	if (checked.error) return checked.error;
	const apiError = metricsApiError(inv);
	if (apiError) return apiError;
	const flags = inv.args.flags;
	const all = flags['all-namespaces'] === true;
	const namespace = all ? undefined : inv.namespace;
	const selector = typeof flags.selector === 'string' ? flags.selector : '';
	const fieldSelector = typeof flags['field-selector'] === 'string' ? flags['field-selector'] : '';
	const query: { labelSelector?: string; fieldSelector?: string } = {};
	if (selector) query.labelSelector = selector;
	if (fieldSelector) query.fieldSelector = fieldSelector;
	const url = inv.env.serverUrl;
	let metrics: PodMetrics[];
	if (checked.name) {
		const got = inv.client.get<PodMetrics>(POD_METRICS, inv.namespace, checked.name);
		if (!got.ok) return checkErr(callError(got, url));
		metrics = [got.object];
	} else {
		const listed = inv.client.list<PodMetrics>(POD_METRICS, namespace, query);
		if (!listed.ok) return checkErr(callError(listed, url));
		metrics = listed.object.items ?? [];
	}
	let stderr = '';
	if (metrics.length === 0) {
		// verifyEmptyMetrics: young Pods have not been scraped yet; an old one should have been.
		const listed = inv.client.list<Pod>(R.pods, namespace, query);
		if (!listed.ok) return checkErr(callError(listed, url));
		const pods = listed.object.items ?? [];
		if (pods.length > 0) {
			for (const pod of pods) {
				const ageMs = inv.env.wallMs() - parseRfc3339(pod.metadata.creationTimestamp ?? '');
				if (ageMs > METRICS_CREATION_DELAY_MS) return checkErr(plain(`Metrics not available for pod ${pod.metadata.namespace}/${pod.metadata.name}, age: ${formatGoDurationMs(ageMs)}`));
			}
			return checkErr(plain('metrics not available yet'));
		}
		stderr = all ? 'No resources found\n' : `No resources found in ${inv.namespace} namespace.\n`;
		return { stdout: '', stderr, exitCode: 0 };
	}
	const containers = flags.containers === true;
	const usageOf = (m: PodMetrics): Usage => {
		let cpu = zero();
		let memory = zero();
		for (const c of m.containers ?? []) {
			cpu = cpu.add(quantity(c.usage?.cpu));
			memory = memory.add(quantity(c.usage?.memory));
		}
		return { cpu, memory };
	};
	const sortBy = String(flags['sort-by'] ?? '');
	const byName = (a: PodMetrics, b: PodMetrics) => {
		if (all && a.metadata.namespace !== b.metadata.namespace) return (a.metadata.namespace ?? '') < (b.metadata.namespace ?? '') ? -1 : 1;
		return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
	};
	const rows: string[][] = [];
	if (flags['no-headers'] !== true) rows.push([...(all ? ['NAMESPACE'] : []), ...(containers ? ['POD'] : []), 'NAME', 'CPU(cores)', 'MEMORY(bytes)']);
	let total: Usage = { cpu: zero(), memory: zero() };
	for (const m of sortByUsage(metrics, usageOf, sortBy, byName)) {
		const u = usageOf(m);
		total = { cpu: total.cpu.add(u.cpu), memory: total.memory.add(u.memory) };
		const lead = all ? [m.metadata.namespace ?? ''] : [];
		if (containers) {
			const cs = [...(m.containers ?? [])].map((c) => ({ name: c.name, usage: { cpu: quantity(c.usage?.cpu), memory: quantity(c.usage?.memory) } }));
			const sorted = sortByUsage(cs, (c) => c.usage, sortBy, (a, b) => (a.name < b.name ? -1 : 1));
			for (const c of sorted) rows.push([...lead, m.metadata.name ?? '', c.name, cpuCell(c.usage.cpu), memoryCell(c.usage.memory)]);
		} else {
			rows.push([...lead, m.metadata.name ?? '', cpuCell(u.cpu), memoryCell(u.memory)]);
		}
	}
	if (flags.sum === true) {
		const width = 3 + (all ? 1 : 0) + (containers ? 1 : 0);
		rows.push([...Array(width - 2).fill(''), '________', '________']);
		rows.push([...Array(width - 3).fill(''), '', cpuCell(total.cpu), memoryCell(total.memory)]);
	}
	return { stdout: formatTable(rows), stderr, exitCode: 0 };
}

const SUBCOMMANDS: Subcommand[] = [
	{ name: 'node', aliases: ['nodes', 'no'], summary: 'Display resource (CPU/memory) usage of nodes', usage: 'kubectl top node [NAME | -l label]', flags: NODE_FLAGS, run: topNode },
	{ name: 'pod', aliases: ['pods', 'po'], summary: 'Display resource (CPU/memory) usage of pods', usage: 'kubectl top pod [NAME | -l label]', flags: POD_FLAGS, run: topPod },
];

export const topCommand: KubectlCommand = {
	name: 'top',
	summary: 'Display resource (CPU/memory) usage',
	usage: 'kubectl top [flags] [options]',
	subcommands: SUBCOMMANDS.map((s) => s.name),
	flags: unionFlags(NODE_FLAGS, POD_FLAGS),
	handlesHelp: true,
	run: (inv) =>
		runParent(
			inv,
			{
				name: 'top',
				long: 'Display resource (CPU/memory) usage.\n\n The top command allows you to see the resource consumption for nodes or pods.\n\n This command requires Metrics Server to be correctly configured and working on the server.',
				usage: 'kubectl top [flags] [options]',
				flags: topCommand.flags,
				bare: 'help-on-stderr',
			},
			SUBCOMMANDS,
		),
};
