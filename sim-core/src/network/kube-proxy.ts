/**
 * kube-proxy on one node: the `kube-proxy/<node>` process, running while
 * its DaemonSet Pod's container runs. It lists and watches Services and
 * EndpointSlices (without the `service.kubernetes.io/service-proxy-name` and
 * `service.kubernetes.io/headless` labels) and its own Node, and keeps the
 * node's kernel rules in step with them in the mode its configuration file
 * names: iptables (the default), ipvs (deprecated since v1.35: it logs an
 * error line and records an IPVSDeprecation Warning event at start) or
 * nftables. When it stops, the rules stay as they were.
 *
 * Syncs go through a BoundedFrequencyRunner: a change asks for a sync,
 * which runs at once unless one ran less than minSyncPeriod ago (1 s for
 * iptables and nftables, 0 for IPVS), then waits out the interval, so a
 * burst of changes costs one sync. With nothing to do it still syncs every
 * hour (proxyutil.FullSyncPeriod) in iptables and nftables mode and every
 * syncPeriod (30 s) in IPVS mode, and retries a failed sync after
 * syncPeriod. In iptables mode a sync rewrites only the chains of the
 * services that changed (a partial sync) unless a full one is due (the
 * first, one an hour, after a failure, or when its canary chain
 * KUBE-PROXY-CANARY vanished, which the iptables monitor checks every
 * syncPeriod); nftables does the same with its chains.
 *
 * Its health server (0.0.0.0:10256, /healthz and /livez) reports healthy
 * while no queued update is older than twice syncPeriod; /metrics
 * (127.0.0.1:10249) reports its sync times and /proxyMode its mode.
 *
 * Mirrors cmd/kube-proxy/app/server.go (Run),
 * cmd/kube-proxy/app/server_linux.go (createProxier),
 * pkg/proxy/config/config.go (the informer handlers),
 * pkg/proxy/runner/bounded_frequency_runner.go (BoundedFrequencyRunner),
 * pkg/proxy/healthcheck/proxy_health.go (ProxyHealthServer).
 */
import { cleanStaleEntries } from './conntrack-cleanup.ts';
import type { KubeObject, Node } from '../api/types.ts';
import { R, type ApiClient } from '../client/client.ts';
import { EventsV1Recorder, emptyEventsV1Recorder, type EventsV1RecorderState } from '../client/events-v1.ts';
import { Informer, emptyInformer, type InformerState } from '../client/informer.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { goTimeString } from '../golang/time.ts';
import { formatFloatG } from '../golang/strconv.ts';
import { klogRecord } from '../component-base/klog.ts';

/** The container's process is PID 1 in its namespace. */
const KUBE_PROXY_PID = 1;
import { defaultConfig, type KubeProxyConfig } from './config.ts';
import type { NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import { cleanupIptablesLeftovers, ensureCanary, isIptablesModeChain, KUBE_PROXY_CANARY, syncIptablesRules } from './iptables/proxier.ts';
import { cleanupIpvsLeftovers, isIpvsModeChain, syncIpvsRules } from './ipvs/proxier.ts';
import { emptyNftMemory, newKubeProxyTable, syncNftablesRules, type NftProxierMemory } from './nftables/proxier.ts';
import { buildEndpoints, buildServicePorts, servicePortsOf } from './service-map.ts';
import type { EndpointSlice, Service } from '../api/types.ts';
import { KUBERNETES_GIT_VERSION } from '../api/version.ts';

/** proxyutil.FullSyncPeriod: a full resync at least once an hour. */
const FULL_SYNC_PERIOD_MS = 3_600_000;
/** The health server's timeout is 2 × syncPeriod (server.go: NewProxyHealthServer(..., 2*config.SyncPeriod)). */
const HEALTH_TIMEOUT_FACTOR = 2;
/** Changed services remembered between syncs, at most; beyond that the next sync is a full one. */
const MAX_CHANGED = 1_000;
/** The informers' label selector (server.go: noProxyName and noHeadlessEndpoints requirements). */
const PROXY_LABEL_SELECTOR = '!service.kubernetes.io/service-proxy-name,!service.kubernetes.io/headless';
/** kube-proxy's version: the release every binary reports (../api/version.ts). */
const KUBE_PROXY_VERSION = KUBERNETES_GIT_VERSION;
/** The deprecation message of the IPVS proxier in v1.35 and v1.36 (server_linux.go createProxier, PR 134539). */
const IPVS_DEPRECATION_MESSAGE = "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.";

/** What the node gives its kube-proxy. */
interface KubeProxyDeps {
	nodeName: string;
	nodeIp: string;
	client: ApiClient;
	/** The node's kernel rules (durable, owned by the node). */
	dataplane: NodeDataplaneState;
	/** The configuration file as kube-proxy reads it at start (its ConfigMap, mounted at /var/lib/kube-proxy). */
	config(): KubeProxyConfig | undefined;
	/** The node's local addresses (for IPVS NodePorts: every address but kube-ipvs0's). */
	nodeAddresses(): string[];
	/**
	 * The service CIDRs kube-proxy learns from the ServiceCIDR objects (the
	 * default one mirrors the API server's --service-cluster-ip-range). This
	 * API server serves no ServiceCIDR yet, so the wiring passes the range.
	 */
	serviceCIDRs?(): string[];
	/** Writes one line to kube-proxy's container log (`kubectl logs`). */
	log?(stream: 'stdout' | 'stderr', text: string): void;
}

/** Volatile state: lost when the process stops. Plain JSON. */
interface KubeProxyState {
	startedMs: number;
	config: KubeProxyConfig;
	services: InformerState;
	slices: InformerState;
	nodes: InformerState;
	servicesSynced: boolean;
	slicesSynced: boolean;
	/** The node informer's cache is filled (logged once; the rules do not wait for it). */
	nodesSynced: boolean;
	needFullSync: boolean;
	lastFullSyncMs: number;
	/** `namespace/name` of services whose Service or slices changed since the last sync. */
	changed: string[];
	/** The runner: a queued run's instant, the end of the cool-down, the periodic timer's instant. */
	runner: { runAtMs: number | null; cooldownUntilMs: number; periodicAtMs: number | null };
	/** ProxyHealthServer: last successful sync and oldest pending update (virtual ms), or -1. */
	health: { lastUpdatedMs: number; lastQueuedMs: number };
	syncs: { total: number; full: number; partial: number; lastMs: number; lastDurationMs: number; natRules: number; filterRules: number };
	nodeLabels: Record<string, string> | null;
	/** The nftables proxiers' memory: the IPv4 one and its IPv6 twin. */
	nft: NftProxierMemory;
	nft6: NftProxierMemory;
	/** The events.k8s.io recorder's cache (absent in snapshots from before it; each start begins a new one). */
	events?: EventsV1RecorderState;
	logSeq: number;
}

export class KubeProxy extends ProcessBase<KubeProxyState> {
	private readonly client: ApiClient;
	private readonly services: Informer;
	private readonly slices: Informer;
	private readonly nodes: Informer;
	private readonly recorder: EventsV1Recorder;

	constructor(
		kernel: Kernel,
		private readonly deps: KubeProxyDeps,
	) {
		super(`kube-proxy/${deps.nodeName}`, kernel);
		this.client = deps.client;
		this.services = new Informer('services', kernel, this.id, this.client, { ...R.services, labelSelector: PROXY_LABEL_SELECTOR }, { onAdd: (o) => this.onService(undefined, o), onUpdate: (a, b) => this.onService(a, b), onDelete: (o) => this.onService(o, undefined) }, () => this.state.services);
		this.slices = new Informer('endpointslices', kernel, this.id, this.client, { ...R.endpointslices, labelSelector: PROXY_LABEL_SELECTOR }, { onAdd: (o) => this.onSlice(undefined, o), onUpdate: (a, b) => this.onSlice(a, b), onDelete: (o) => this.onSlice(o, undefined) }, () => this.state.slices);
		this.nodes = new Informer('nodes', kernel, this.id, this.client, { ...R.nodes, fieldSelector: `metadata.name=${deps.nodeName}` }, { onAdd: (o) => this.onNode(o), onUpdate: (_a, b) => this.onNode(b), onDelete: () => this.onNodeDeleted() }, () => this.state.nodes);
		// server.go: an events.k8s.io broadcaster's NewRecorder(scheme, "kube-proxy"), so reportingInstance is kube-proxy-<hostname> (the node's: host network).
		this.recorder = new EventsV1Recorder(kernel, this.client, 'kube-proxy', `kube-proxy-${deps.nodeName}`, () => (this.state.events ??= emptyEventsV1Recorder()));
	}

	freshState(): KubeProxyState {
		return {
			startedMs: 0,
			config: defaultConfig(),
			services: emptyInformer(),
			slices: emptyInformer(),
			nodes: emptyInformer(),
			servicesSynced: false,
			slicesSynced: false,
			nodesSynced: false,
			needFullSync: true,
			lastFullSyncMs: -1,
			changed: [],
			runner: { runAtMs: null, cooldownUntilMs: 0, periodicAtMs: null },
			health: { lastUpdatedMs: -1, lastQueuedMs: -1 },
			syncs: { total: 0, full: 0, partial: 0, lastMs: -1, lastDurationMs: 0, natRules: 0, filterRules: 0 },
			nodeLabels: null,
			nft: emptyNftMemory(),
			nft6: emptyNftMemory(),
			events: emptyEventsV1Recorder(),
			logSeq: 0,
		};
	}

	/** The mode this process runs in. */
	get mode(): KubeProxyConfig['mode'] {
		return this.state.config.mode;
	}

	// ---- lifecycle --------------------------------------------------------------------------

	onStart(): void {
		const s = this.state;
		s.startedMs = this.nowMs;
		s.config = this.deps.config() ?? defaultConfig();
		const mode = s.config.mode;
		if (s.config.modeAsWritten === '') this.log('I', 'server_linux.go:53', 'Using iptables proxy');
		this.log('I', 'server.go:550', 'Version info', { version: KUBE_PROXY_VERSION });
		this.log('I', 'server_linux.go:139', `Using ${mode} Proxier`);
		if (mode === 'ipvs') this.log('E', 'server_linux.go:190', IPVS_DEPRECATION_MESSAGE);
		// Rules of the other modes are removed (platformCleanup): iptables and ipvs under nftables, nftables under the others.
		this.cleanupOtherModes(mode);
		if (mode === 'iptables') {
			ensureCanary(this.deps.dataplane.iptables, KUBE_PROXY_CANARY);
			this.periodic(s.config.syncPeriodMs, 'canary-check');
		}
		if (mode === 'ipvs') this.deps.dataplane.ipvsModuleLoaded = true;
		this.emit({ action: 'start', msg: `kube-proxy ${KUBE_PROXY_VERSION} started on ${this.deps.nodeName} in ${mode} mode` });
		this.recorder.eventf(this.nodeRef(), undefined, 'Normal', 'Starting', 'StartKubeProxy', '');
		if (mode === 'ipvs') this.recorder.eventf(this.nodeRef(), undefined, 'Warning', 'IPVSDeprecation', 'StartKubeProxy', IPVS_DEPRECATION_MESSAGE);
		this.log('I', 'config.go:199', 'Starting service config controller');
		this.log('I', 'config.go:105', 'Starting endpoint slice config controller');
		this.log('I', 'config.go:329', 'Starting node config controller');
		this.services.start();
		this.slices.start();
		this.nodes.start();
		this.checkSynced();
	}

	onStop(): void {
		this.emit({ action: 'stop', msg: `kube-proxy on ${this.deps.nodeName} stopped; the node's ${this.mode} rules stay as they are` });
	}

	handle(event: QueuedEvent): void {
		try {
			if (this.services.handle(event) || this.slices.handle(event) || this.nodes.handle(event)) {
				this.checkSynced();
				return;
			}
			switch (event.kind) {
				case 'sync-run': {
					const { atMs } = event.payload as { atMs: number };
					if (this.state.runner.runAtMs !== atMs) return;
					this.state.runner.runAtMs = null;
					this.runSync();
					return;
				}
				case 'sync-periodic': {
					const { atMs } = event.payload as { atMs: number };
					if (this.state.runner.periodicAtMs !== atMs) return;
					this.state.runner.periodicAtMs = null;
					this.requestSync();
					return;
				}
				case 'canary-check':
					this.checkCanary();
					this.periodic(this.state.config.syncPeriodMs, 'canary-check');
					return;
			}
		} catch (error) {
			this.log('E', 'proxier.go:1', 'Unexpected error in kube-proxy', { err: error instanceof Error ? error.message : String(error) });
		}
	}

	private nodeRef(): KubeObject {
		// server.go: NodeRef with the node name as UID, as the kubelet's.
		return { apiVersion: 'v1', kind: 'Node', metadata: { name: this.deps.nodeName, uid: this.deps.nodeName } };
	}

	private log(severity: 'I' | 'W' | 'E', source: string, message: string, kv: Record<string, string | number | boolean> = {}): void {
		const seq = this.state.logSeq++;
		this.deps.log?.('stderr', klogRecord(severity, this.kernel.wallMs(), KUBE_PROXY_PID, source, message, kv, (seq * 53) % 1000));
	}

	/**
	 * platformCleanup: nftables mode removes what the iptables and IPVS
	 * proxiers left; iptables and IPVS modes remove kube-proxy's nftables
	 * tables. Between iptables and IPVS nothing is cleaned up (upstream asks
	 * for `kube-proxy --cleanup` or a reboot there).
	 */
	private cleanupOtherModes(mode: KubeProxyConfig['mode']): void {
		const dp = this.deps.dataplane;
		if (mode === 'nftables') {
			cleanupIptablesLeftovers(dp.iptables, (table, chain) => isIptablesModeChain(table, chain) || isIpvsModeChain(table, chain));
			cleanupIpvsLeftovers(dp.ipvs);
		} else {
			dp.nftables = dp.nftables.filter((t) => t.name !== 'kube-proxy');
		}
	}

	// ---- informer handlers --------------------------------------------------------------------

	private markChanged(key: string): void {
		const s = this.state;
		if (!s.changed.includes(key)) s.changed.push(key);
		if (s.changed.length > MAX_CHANGED) {
			s.changed = [];
			s.needFullSync = true;
		}
		if (this.initialized) this.requestSync();
	}

	/** ServiceChangeTracker.Update: only a change to what the proxier programs asks for a sync. */
	private onService(oldObj: KubeObject | undefined, newObj: KubeObject | undefined): void {
		const before = oldObj ? JSON.stringify(servicePortsOf(oldObj as Service)) : '[]';
		const after = newObj ? JSON.stringify(servicePortsOf(newObj as Service)) : '[]';
		if (before === after) return;
		const obj = (newObj ?? oldObj)!;
		this.markChanged(`${obj.metadata.namespace ?? 'default'}/${obj.metadata.name}`);
	}

	/** EndpointsChangeTracker.EndpointSliceUpdate: a slice's endpoints or ports changed. */
	private onSlice(oldObj: KubeObject | undefined, newObj: KubeObject | undefined): void {
		const relevant = (o: KubeObject | undefined) => {
			if (!o) return 'null';
			const slice = o as EndpointSlice;
			return JSON.stringify([slice.addressType, slice.ports ?? [], slice.endpoints ?? []]);
		};
		if (oldObj && newObj && relevant(oldObj) === relevant(newObj)) return;
		const obj = (newObj ?? oldObj)!;
		const service = obj.metadata.labels?.['kubernetes.io/service-name'];
		if (!service) return;
		this.markChanged(`${obj.metadata.namespace ?? 'default'}/${service}`);
	}

	/** OnNodeAdd/OnNodeUpdate: new node labels (topology) mean a full sync. */
	private onNode(obj: KubeObject): void {
		const node = obj as Node;
		const labels = node.metadata.labels ?? {};
		if (JSON.stringify(labels) === JSON.stringify(this.state.nodeLabels)) return;
		this.state.nodeLabels = { ...labels };
		this.state.needFullSync = true;
		if (this.initialized) this.requestSync();
	}

	private onNodeDeleted(): void {
		this.state.nodeLabels = null;
		this.state.needFullSync = true;
		if (this.initialized) this.requestSync();
	}

	private get initialized(): boolean {
		return this.state.servicesSynced && this.state.slicesSynced;
	}

	/** OnServiceSynced / OnEndpointSlicesSynced: once both caches are filled, sync (once per lifetime each). */
	private checkSynced(): void {
		const s = this.state;
		let newly = false;
		if (!s.servicesSynced && this.services.synced) {
			s.servicesSynced = true;
			this.log('I', 'shared_informer.go:357', 'Caches are synced', { controller: 'service config' });
			newly = true;
		}
		if (!s.slicesSynced && this.slices.synced) {
			s.slicesSynced = true;
			this.log('I', 'shared_informer.go:357', 'Caches are synced', { controller: 'endpoint slice config' });
			newly = true;
		}
		if (!s.nodesSynced && this.nodes.synced) {
			s.nodesSynced = true;
			this.log('I', 'shared_informer.go:357', 'Caches are synced', { controller: 'node config' });
		}
		if (newly && this.initialized) {
			// The first sync runs at once, outside the runner; the runner's loop starts after it.
			this.runSync();
		}
	}

	// ---- the runner -----------------------------------------------------------------------------

	/** Sync(): queue a run (the health server notes the queued update). */
	private requestSync(): void {
		const s = this.state;
		if (s.health.lastQueuedMs < 0 || s.health.lastQueuedMs <= s.health.lastUpdatedMs) s.health.lastQueuedMs = this.nowMs;
		if (s.runner.runAtMs !== null) return;
		const at = Math.max(this.nowMs, s.runner.cooldownUntilMs);
		s.runner.runAtMs = at;
		this.after(at - this.nowMs, 'sync-run', { atMs: at });
	}

	/** The iptables monitor: if the canary chain vanished (someone flushed the tables), resync everything. */
	private checkCanary(): void {
		const t = this.deps.dataplane.iptables;
		const present = (['mangle', 'nat', 'filter'] as const).every((name) => t[name].chains.some((c) => c.name === KUBE_PROXY_CANARY));
		if (present) return;
		this.log('I', 'iptables.go:539', 'Reloading after iptables flush');
		ensureCanary(t, KUBE_PROXY_CANARY);
		this.state.needFullSync = true;
		this.requestSync();
	}

	/** One run of the work function, then the next periodic instant and the cool-down. */
	private runSync(): void {
		const s = this.state;
		const ok = this.syncProxyRules();
		s.runner.cooldownUntilMs = this.nowMs + s.config.minSyncPeriodMs;
		const maxIntervalMs = s.config.mode === 'ipvs' ? s.config.syncPeriodMs : FULL_SYNC_PERIOD_MS;
		const next = ok ? maxIntervalMs : Math.min(s.config.syncPeriodMs, maxIntervalMs);
		const at = this.nowMs + next;
		s.runner.periodicAtMs = at;
		this.kernel.schedule(this.id, next, 'sync-periodic', { atMs: at }, { background: true, origin: `periodic:${this.id}:sync` });
	}

	/** syncProxyRules for the configured mode. */
	private syncProxyRules(): boolean {
		const s = this.state;
		if (!this.initialized) return true;
		const config = s.config;
		const dp = this.deps.dataplane;
		const servicePorts = buildServicePorts(this.services.list());
		const endpoints = buildEndpoints(this.slices.list(), this.deps.nodeName);
		const fullSync = s.needFullSync || s.lastFullSyncMs < 0 || this.nowMs - s.lastFullSyncMs >= FULL_SYNC_PERIOD_MS;
		const changed = new Set(s.changed);
		s.changed = [];
		const mark = 2 ** config.masqueradeBit;
		let msg = '';
		switch (config.mode) {
			case 'iptables': {
				const r = syncIptablesRules(dp.iptables, servicePorts, endpoints, { clusterCIDR: config.clusterCIDR, masqueradeMark: mark, localhostNodePorts: config.localhostNodePorts, masqueradeAll: config.masqueradeAll, nodeIp: this.deps.nodeIp }, { fullSync, changed });
				s.syncs.natRules = r.natRulesTotal;
				s.syncs.filterRules = r.filterRules;
				msg = `${fullSync ? 'full' : 'partial'} iptables sync: ${servicePorts.length} service ports, ${r.servicesWritten} written, ${r.natRules} nat and ${r.filterRules} filter rules${r.deletedChains ? `, ${r.deletedChains} stale chains deleted` : ''}`;
				break;
			}
			case 'ipvs': {
				const r = syncIpvsRules(dp.ipvs, dp.iptables, servicePorts, endpoints, { clusterCIDR: config.clusterCIDR, masqueradeMark: mark, masqueradeAll: config.masqueradeAll, scheduler: config.ipvsScheduler, nodeAddresses: this.deps.nodeAddresses() });
				msg = `ipvs sync: ${r.virtualServers} virtual servers, ${r.realServers} real servers`;
				break;
			}
			case 'nftables': {
				let v4 = dp.nftables.find((t) => t.family === 'ip' && t.name === 'kube-proxy');
				if (!v4) dp.nftables.push((v4 = newKubeProxyTable('ip')));
				let v6 = dp.nftables.find((t) => t.family === 'ip6' && t.name === 'kube-proxy');
				if (!v6) dp.nftables.push((v6 = newKubeProxyTable('ip6')));
				const primary = config.nodePortAddresses.includes('primary') ? [this.deps.nodeIp] : config.nodePortAddresses.filter((a) => /^\d+\.\d+\.\d+\.\d+$/.test(a.split('/')[0]));
				const nftConfig = { clusterCIDR: config.clusterCIDR, masqueradeMark: mark, masqueradeAll: config.masqueradeAll, nodePortIPs: primary, nodeIp: this.deps.nodeIp, serviceCIDRs: this.deps.serviceCIDRs?.() ?? [] };
				const memory = s.nft;
				const r = syncNftablesRules(v4, servicePorts, endpoints, nftConfig, memory, { fullSync, changed, nowMs: this.nowMs });
				// The IPv6 proxier of the dual-stack pair keeps its table too; it has no services in an IPv4 cluster.
				syncNftablesRules(v6, [], {}, { ...nftConfig, clusterCIDR: '', nodePortIPs: [], serviceCIDRs: [] }, s.nft6, { fullSync, changed, nowMs: this.nowMs });
				msg = `${fullSync ? 'full' : 'partial'} nftables sync: ${servicePorts.length} service ports, ${r.servicesWritten} written, ${r.chains} chains`;
				break;
			}
		}
		// conntrack.CleanStaleEntries: the UDP flows of endpoints that are gone.
		if (dp.conntrack) cleanStaleEntries(dp.conntrack, servicePorts, endpoints);
		if (fullSync) {
			s.lastFullSyncMs = this.nowMs;
			s.syncs.full++;
		} else s.syncs.partial++;
		s.needFullSync = false;
		s.syncs.total++;
		s.syncs.lastMs = this.nowMs;
		s.health.lastUpdatedMs = this.nowMs;
		s.health.lastQueuedMs = -1;
		this.emit({ action: 'sync', msg });
		return true;
	}

	// ---- health and metrics ----------------------------------------------------------------------

	/** ProxyHealthServer.Health: healthy unless an update has been queued for longer than the timeout. */
	healthy(nowMs: number): boolean {
		const s = this.state;
		const timeoutMs = HEALTH_TIMEOUT_FACTOR * s.config.syncPeriodMs;
		if (s.health.lastQueuedMs < 0) return true;
		return s.health.lastUpdatedMs >= s.health.lastQueuedMs || nowMs - s.health.lastQueuedMs < timeoutMs;
	}

	/**
	 * kube-proxy's own HTTP servers: /healthz and /livez on 10256 (every
	 * address), /metrics and /proxyMode on 10249 (127.0.0.1 only, `local`). The health
	 * body is upstream's, times printed as Go's time.Time.String() with the
	 * monotonic reading (`m=+12.345000001`) since the process started; Go's
	 * mux answers anything else `404 page not found`. Undefined: nothing
	 * listens on that port and address (connection refused).
	 */
	serveHttp(port: number, path: string, local: boolean, wallMs: number): { status: number; contentType: string; body: string; nosniff?: boolean } | undefined {
		const s = this.state;
		const clean = path.split('?')[0];
		if (port === s.config.healthzPort) {
			if (clean !== '/healthz' && clean !== '/livez') return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n', nosniff: true };
			const healthy = this.healthy(this.nowMs);
			const now = goTimeString(wallMs, this.nowMs - s.startedMs);
			const lastMs = s.health.lastUpdatedMs < 0 ? s.startedMs : s.health.lastUpdatedMs;
			// A healthy server reports now as lastUpdated (upstream keeps the old field's meaning this way).
			const last = healthy ? now : goTimeString(wallMs - (this.nowMs - lastMs), lastMs - s.startedMs);
			const body = `{"lastUpdated": ${JSON.stringify(last)},"currentTime": ${JSON.stringify(now)}, "nodeEligible": true}`;
			return { status: healthy ? 200 : 503, contentType: 'application/json', body, nosniff: true };
		}
		if (port === s.config.metricsPort && local) {
			// serveMetrics: /proxyMode answers the mode this process runs in, as plain text without a newline.
			if (clean === '/proxyMode') return { status: 200, contentType: 'text/plain; charset=utf-8', body: s.config.mode, nosniff: true };
			if (clean !== '/metrics') return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n', nosniff: true };
			return { status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body: this.metricsText(wallMs) };
		}
		return undefined;
	}

	/** A few of kube-proxy's metrics in the Prometheus text format (pkg/proxy/metrics). */
	private metricsText(wallMs: number): string {
		const s = this.state;
		const family = 'ip_family="IPv4"';
		const lastSync = s.syncs.lastMs < 0 ? 0 : (wallMs - (this.nowMs - s.syncs.lastMs)) / 1000;
		const lines = [
			'# HELP kubeproxy_sync_proxy_rules_last_timestamp_seconds [ALPHA] The last time proxy rules were successfully synced',
			'# TYPE kubeproxy_sync_proxy_rules_last_timestamp_seconds gauge',
			`kubeproxy_sync_proxy_rules_last_timestamp_seconds{${family}} ${formatFloatG(lastSync)}`,
			'# HELP kubeproxy_sync_full_proxy_rules_duration_seconds [ALPHA] SyncProxyRules latency in seconds for full resyncs',
			'# TYPE kubeproxy_sync_full_proxy_rules_duration_seconds histogram',
			`kubeproxy_sync_full_proxy_rules_duration_seconds_count{${family}} ${s.syncs.full}`,
			'# HELP kubeproxy_sync_partial_proxy_rules_duration_seconds [ALPHA] SyncProxyRules latency in seconds for partial resyncs',
			'# TYPE kubeproxy_sync_partial_proxy_rules_duration_seconds histogram',
			`kubeproxy_sync_partial_proxy_rules_duration_seconds_count{${family}} ${s.syncs.partial}`,
		];
		if (s.config.mode === 'iptables') {
			lines.push(
				'# HELP kubeproxy_sync_proxy_rules_iptables_total [ALPHA] Total number of iptables rules owned by kube-proxy',
				'# TYPE kubeproxy_sync_proxy_rules_iptables_total gauge',
				`kubeproxy_sync_proxy_rules_iptables_total{${family},table="filter"} ${s.syncs.filterRules}`,
				`kubeproxy_sync_proxy_rules_iptables_total{${family},table="nat"} ${s.syncs.natRules}`,
			);
		}
		return `${lines.join('\n')}\n`;
	}

	/** What the health and metrics servers need to answer. */
	status(): { startedMs: number; lastUpdatedMs: number; healthy: boolean; mode: string; syncs: KubeProxyState['syncs']; config: KubeProxyConfig } {
		const s = this.state;
		return { startedMs: s.startedMs, lastUpdatedMs: s.health.lastUpdatedMs, healthy: this.healthy(this.nowMs), mode: s.config.mode, syncs: { ...s.syncs }, config: s.config };
	}
}
