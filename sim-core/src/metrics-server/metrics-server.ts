/**
 * metrics-server: the Metrics API's backend, one process for every
 * metrics-server container that runs (an instance each, keyed by its
 * container). Every `--metric-resolution` (15 s in the release manifest)
 * an instance lists the Nodes and scrapes each kubelet's
 * `/metrics/resource` at the address `--kubelet-preferred-address-types`
 * picks (InternalIP first) and the port the Node reports
 * (`--kubelet-use-node-status-port`). It verifies the kubelet's serving
 * certificate unless `--kubelet-insecure-tls` is set: on a kubeadm
 * cluster that certificate is the kubelet's own self-signed one, for its
 * host name only, so every scrape fails with `x509: cannot validate
 * certificate for <ip> because it doesn't contain any IP SANs`, the store
 * stays empty, /readyz fails (`no metrics to serve`), the Pod never
 * becomes Ready and the APIService never Available.
 *
 * With two points stored for something it serves NodeMetrics and
 * PodMetrics (metrics.k8s.io/v1beta1) to the aggregator: CPU as the rate
 * between the points in nanocores, memory as the working set in Ki.
 *
 * Mirrors kubernetes-sigs/metrics-server pkg/server/server.go (the scrape
 * loop, the probes), kubernetes-sigs/metrics-server pkg/scraper/scraper.go
 * ("Failed to scrape node"), kubernetes-sigs/metrics-server
 * pkg/scraper/client/resource/client.go (address and port selection, TLS),
 * kubernetes-sigs/metrics-server pkg/api/node.go,
 * kubernetes-sigs/metrics-server pkg/api/pod.go (the served objects),
 * kubernetes-sigs/metrics-server pkg/utils/address.go (NodeAddressResolver),
 * kubernetes-sigs/metrics-server cmd/metrics-server/app/options/options.go (the flags).
 */
import type { KubeObject, Node, Pod } from '../api/types.ts';
import type { ApiRequest, ApiResponse } from '../api/request.ts';
import { matches, parseLabelSelector, SelectorError } from '../api/labels.ts';
import { parseQuantity, Quantity } from '../api/quantity.ts';
import { ApiClient, R } from '../client/client.ts';
import type { ApiTransport } from '../client/transport.ts';
import { klogHeader, klogRecord } from '../component-base/klog.ts';
import { formatGoDurationMs, tryParseGoDurationMs } from '../golang/duration.ts';
import { formatRfc3339 } from '../golang/time.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { decodeBatch, type NodeBatch } from './decode.ts';
import { emptyStore, storeBatches, storeReady, usageOf, type MetricsStore, type Usage } from './storage.ts';

/** The process id (and its API identity's service account, kube-system/metrics-server). */
export const METRICS_SERVER = 'metrics-server';
const GROUP = 'metrics.k8s.io';
const VERSION = 'v1beta1';

/** The container an instance runs in. */
export interface MetricsServerContainer {
	containerId: string;
	node: string;
	namespace: string;
	podName: string;
	podIp: string;
	/** The container's argv (the flags). */
	argv: string[];
}

/** A kubelet's answer to a scrape, with the serving certificate it presented. */
export type ScrapeAnswer = { ok: true; text: string; cert: { ipSans: string[]; dnsNames: string[]; selfSigned: boolean } } | { ok: false; error: string };

export interface MetricsServerDeps {
	/** A TCP+TLS+HTTP GET from the instance's Pod to a kubelet; `error` as Go words a dial failure (`dial tcp ...: connect: connection refused`). */
	scrape(from: MetricsServerContainer, address: string, port: number, path: string): ScrapeAnswer;
	/** A line on the instance's container log (klog writes to stderr). */
	log(from: MetricsServerContainer, text: string): void;
	/** Where Pod-network DNS lookups go (CoreDNS's Service IP), for the hostname address type. */
	clusterDnsIp: string;
	/** Whether the instance's container still runs (its machine may have lost power without a stop hook). */
	alive(from: MetricsServerContainer): boolean;
}

/** The flags the simulation reads, with metrics-server's defaults. */
interface Flags {
	insecureTls: boolean;
	resolutionMs: number;
	preferredAddressTypes: string[];
	useNodeStatusPort: boolean;
	kubeletPort: number;
}

interface Instance {
	container: MetricsServerContainer;
	flags: Flags;
	store: MetricsStore;
	nodeLabels: Record<string, Record<string, string>>;
	podLabels: Record<string, Record<string, string>>;
	/** Incarnation of this instance's scrape chain (a restarted container starts a new one). */
	startedMs: number;
}

interface MetricsServerState {
	instances: Record<string, Instance>;
	/** The klog lines' sub-millisecond part, rising within one millisecond. */
	micros: number;
	microsAtMs: number;
}

/** Reads the flags as metrics-server's options do (defaults: 60 s resolution, Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP, port 10250). */
export function parseFlags(argv: string[]): Flags {
	const value = (name: string) => {
		const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
		if (i < 0) return undefined;
		const a = argv[i];
		return a.includes('=') ? a.slice(a.indexOf('=') + 1) : 'true';
	};
	const bool = (name: string) => {
		const v = value(name);
		return v !== undefined && v !== 'false';
	};
	return {
		insecureTls: bool('kubelet-insecure-tls'),
		resolutionMs: tryParseGoDurationMs(value('metric-resolution') ?? '60s') ?? 60_000,
		preferredAddressTypes: (value('kubelet-preferred-address-types') ?? 'Hostname,InternalDNS,InternalIP,ExternalDNS,ExternalIP').split(','),
		useNodeStatusPort: bool('kubelet-use-node-status-port'),
		kubeletPort: Number(value('kubelet-port') ?? 10250),
	};
}

const isIp = (text: string) => /^\d+\.\d+\.\d+\.\d+$/.test(text);

export class MetricsServer extends ProcessBase<MetricsServerState> {
	private readonly client: ApiClient;

	constructor(
		kernel: Kernel,
		transport: ApiTransport,
		private readonly deps: MetricsServerDeps,
	) {
		super(METRICS_SERVER, kernel);
		this.client = new ApiClient(transport, METRICS_SERVER);
	}

	freshState(): MetricsServerState {
		return { instances: {}, micros: 0, microsAtMs: -1 };
	}

	onStart(): void {
		this.emit({ action: 'start', msg: 'metrics-server started' });
	}

	handle(event: QueuedEvent): void {
		if (event.kind !== 'scrape') return;
		const { key, startedMs } = event.payload as { key: string; startedMs: number };
		const instance = this.state.instances[key];
		if (!instance || instance.startedMs !== startedMs) return;
		if (!this.deps.alive(instance.container)) {
			delete this.state.instances[key];
			return;
		}
		this.scrape(instance);
		this.periodic(instance.flags.resolutionMs, 'scrape', { key, startedMs });
	}

	/** The sub-millisecond part of the next line's time: rising within a millisecond. */
	private micros(): number {
		const wall = this.kernel.wallMs();
		this.state.micros = this.state.microsAtMs === wall ? Math.min(999, this.state.micros + 41 + this.rng.int(40)) : 100 + this.rng.int(400);
		this.state.microsAtMs = wall;
		return this.state.micros;
	}

	/** A structured klog record (InfoS/ErrorS). */
	private log(instance: Instance, severity: 'I' | 'E', fileLine: string, message: string, kv: Record<string, string | undefined> = {}): void {
		this.deps.log(instance.container, klogRecord(severity, this.kernel.wallMs(), 1, fileLine, message, kv, this.micros()));
	}

	/** A printf-style klog line (klog.Infof). */
	private logf(instance: Instance, fileLine: string, text: string): void {
		this.deps.log(instance.container, `${klogHeader('I', this.kernel.wallMs(), 1, fileLine, this.micros())}${text}`);
	}

	/** A metrics-server container started serving: a new instance, which scrapes at once and then every resolution. */
	containerStarted(container: MetricsServerContainer): void {
		if (!this.kernel.isRunning(this.id)) this.kernel.start(this.id);
		const flags = parseFlags(container.argv);
		const instance: Instance = { container, flags, store: emptyStore(), nodeLabels: {}, podLabels: {}, startedMs: this.nowMs };
		this.state.instances[container.containerId] = instance;
		const port = container.argv.find((a) => a.startsWith('--secure-port='))?.split('=')[1] ?? '10250';
		this.logf(instance, 'serving.go:380', 'Generated self-signed cert (/tmp/apiserver.crt, /tmp/apiserver.key)');
		this.logf(instance, 'handler.go:288', 'Adding GroupVersion metrics.k8s.io v1beta1 to ResourceManager');
		this.logf(instance, 'secure_serving.go:213', `Serving securely on [::]:${port}`);
		this.emit({ action: 'start', object: `pods/${container.namespace}/${container.podName}`, msg: `metrics-server in ${container.podName} on ${container.node}: resolution ${formatGoDurationMs(flags.resolutionMs)}, ${flags.insecureTls ? 'kubelet TLS not verified' : 'verifying kubelet serving certificates'}` });
		this.after(0, 'scrape', { key: container.containerId, startedMs: instance.startedMs }, { background: true });
	}

	/** Its container stopped: the instance and its store are gone. */
	containerStopped(containerId: string): void {
		delete this.state.instances[containerId];
	}

	/** The instance serving at a Pod IP, if any. */
	private instanceAt(podIp: string): Instance | undefined {
		return Object.values(this.state.instances).find((i) => i.container.podIp === podIp && this.deps.alive(i.container));
	}

	/** The instance in a node's container (probes come from that node's kubelet). */
	private instanceOn(node: string): Instance | undefined {
		return Object.values(this.state.instances).find((i) => i.container.node === node);
	}

	/** One scrape of every node (scraper.Scrape), then the store. */
	private scrape(instance: Instance): void {
		const nodes = this.client.list<Node>(R.nodes);
		if (!nodes.ok) {
			this.log(instance, 'E', 'scraper.go:120', 'Failed to list nodes', { err: nodes.message });
			return;
		}
		const pods = this.client.list<Pod>(R.pods);
		if (pods.ok) instance.podLabels = Object.fromEntries(pods.object.items.map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, { ...(p.metadata.labels ?? {}) }]));
		const batches: Record<string, NodeBatch> = {};
		instance.nodeLabels = {};
		let failed = 0;
		for (const node of nodes.object.items) {
			const name = node.metadata.name ?? '';
			instance.nodeLabels[name] = { ...(node.metadata.labels ?? {}) };
			const result = this.scrapeNode(instance, node);
			if (typeof result === 'string') {
				failed++;
				this.log(instance, 'E', 'scraper.go:149', 'Failed to scrape node', { err: result, node: name });
				continue;
			}
			batches[name] = result;
		}
		storeBatches(instance.store, batches, this.kernel.wallMs());
		this.emit({ action: 'scrape', object: `pods/${instance.container.namespace}/${instance.container.podName}`, msg: `scraped ${nodes.object.items.length - failed} of ${nodes.object.items.length} nodes${failed ? ` (${failed} failed)` : ''}` });
	}

	/** Scrapes one kubelet: its batch, or the error metrics-server logs. */
	private scrapeNode(instance: Instance, node: Node): NodeBatch | string {
		const name = node.metadata.name ?? '';
		const addresses = (node.status?.addresses ?? []) as Array<{ type: string; address: string }>;
		let address: { type: string; address: string } | undefined;
		for (const type of instance.flags.preferredAddressTypes) {
			address = addresses.find((a) => a.type === type && a.address);
			if (address) break;
		}
		if (!address) return `unable to extract connection information for node "${name}": node ${name} has no valid hostname and/or IP address: ${addresses.map((a) => a.address).join(' ')}`;
		const statusPort = (node.status as { daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } } | undefined)?.daemonEndpoints?.kubeletEndpoint?.Port;
		const port = instance.flags.useNodeStatusPort && statusPort ? statusPort : instance.flags.kubeletPort;
		const url = `https://${address.address}:${port}/metrics/resource`;
		if (!isIp(address.address)) return `Get "${url}": dial tcp: lookup ${address.address} on ${this.deps.clusterDnsIp}:53: no such host`;
		const answer = this.deps.scrape(instance.container, address.address, port, '/metrics/resource');
		if (!answer.ok) return `Get "${url}": ${answer.error}`;
		if (!instance.flags.insecureTls) {
			if (!answer.cert.ipSans.includes(address.address)) return `Get "${url}": tls: failed to verify certificate: x509: cannot validate certificate for ${address.address} because it doesn't contain any IP SANs`;
			if (answer.cert.selfSigned) return `Get "${url}": tls: failed to verify certificate: x509: certificate signed by unknown authority`;
		}
		return decodeBatch(answer.text);
	}

	/** An HTTP probe of the container on a node's kubelet: /readyz fails until the store holds two points. */
	probe(node: string, path: string): number | undefined {
		const instance = this.instanceOn(node);
		if (!instance || !this.kernel.isRunning(this.id)) return undefined;
		if (path.startsWith('/readyz')) {
			if (storeReady(instance.store)) return 200;
			this.log(instance, 'I', 'server.go:191', 'Failed probe', { probe: 'metric-storage-ready', err: 'no metrics to serve' });
			return 500;
		}
		return 200;
	}

	/** A request the aggregator forwarded to the instance at `podIp`; undefined when nothing serves there. */
	serve(podIp: string, request: ApiRequest): ApiResponse | undefined {
		const instance = this.kernel.isRunning(this.id) ? this.instanceAt(podIp) : undefined;
		if (!instance) return undefined;
		if (request.resource === '') return { code: 200, body: discovery() };
		let selector;
		try {
			selector = request.query?.labelSelector ? parseLabelSelector(request.query.labelSelector) : undefined;
		} catch (error) {
			if (error instanceof SelectorError) return status(400, 'BadRequest', error.message);
			throw error;
		}
		const now = formatRfc3339(this.kernel.wallMs());
		if (request.resource === 'nodes') {
			const items = Object.keys(instance.store.nodes)
				.sort()
				.flatMap((name) => {
					const usage = usageOf(instance.store.nodes[name]);
					const labels = instance.nodeLabels[name] ?? {};
					if (!usage || (selector && !matches(selector, labels))) return [];
					return [nodeMetrics(name, labels, usage, now)];
				});
			if (request.verb === 'get') {
				const found = items.find((i) => i.metadata.name === request.name);
				return found ? { code: 200, body: found } : notFound('nodemetrics', request.name ?? '');
			}
			return { code: 200, body: { kind: 'NodeMetricsList', apiVersion: `${GROUP}/${VERSION}`, metadata: {}, items } };
		}
		if (request.resource === 'pods') {
			const items = Object.keys(instance.store.pods)
				.sort()
				.flatMap((key) => {
					const [namespace, name] = key.split('/');
					if (request.namespace && namespace !== request.namespace) return [];
					const labels = instance.podLabels[key] ?? {};
					if (selector && !matches(selector, labels)) return [];
					const containers = Object.entries(instance.store.pods[key]).map(([c, p]) => [c, usageOf(p)] as const);
					// A Pod is served only when every container has a rate.
					if (containers.length === 0 || containers.some(([, u]) => !u)) return [];
					return [podMetrics(namespace, name, labels, containers as ReadonlyArray<readonly [string, Usage]>, now)];
				});
			if (request.verb === 'get') {
				const found = items.find((i) => i.metadata.name === request.name);
				return found ? { code: 200, body: found } : notFound('podmetrics', request.name ?? '');
			}
			return { code: 200, body: { kind: 'PodMetricsList', apiVersion: `${GROUP}/${VERSION}`, metadata: {}, items } };
		}
		return status(404, 'NotFound', 'the server could not find the requested resource');
	}
}

function status(code: number, reason: string, message: string, details?: Record<string, string>): ApiResponse {
	return { code, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code } };
}

function notFound(resource: string, name: string): ApiResponse {
	return status(404, 'NotFound', `${resource}.${GROUP} "${name}" not found`, { name, group: GROUP, kind: resource });
}

/** CPU in nanocores and memory in bytes as the API writes them (`156372514n`, `1718532Ki`). */
function usageList(u: Usage): { cpu: string; memory: string } {
	return { cpu: parseQuantity(`${u.cpuNanocores}n`).toString(), memory: Quantity.fromValue(u.memoryBytes, 'BinarySI').toString() };
}

function nodeMetrics(name: string, labels: Record<string, string>, u: Usage, now: string): KubeObject {
	return {
		kind: 'NodeMetrics',
		apiVersion: `${GROUP}/${VERSION}`,
		metadata: { name, creationTimestamp: now, labels },
		timestamp: formatRfc3339(u.timestampMs),
		window: formatGoDurationMs(u.windowMs),
		usage: usageList(u),
	} as KubeObject;
}

function podMetrics(namespace: string, name: string, labels: Record<string, string>, containers: ReadonlyArray<readonly [string, Usage]>, now: string): KubeObject {
	const first = containers[0][1];
	return {
		kind: 'PodMetrics',
		apiVersion: `${GROUP}/${VERSION}`,
		metadata: { name, namespace, creationTimestamp: now, labels },
		timestamp: formatRfc3339(first.timestampMs),
		window: formatGoDurationMs(first.windowMs),
		containers: containers.map(([c, u]) => ({ name: c, usage: usageList(u) })),
	} as KubeObject;
}

function discovery(): unknown {
	return {
		kind: 'APIResourceList',
		apiVersion: 'v1',
		groupVersion: `${GROUP}/${VERSION}`,
		resources: [
			{ name: 'nodes', singularName: '', namespaced: false, kind: 'NodeMetrics', verbs: ['get', 'list'] },
			{ name: 'pods', singularName: '', namespaced: true, kind: 'PodMetrics', verbs: ['get', 'list'] },
		],
	};
}
