/**
 * kube-proxy's configuration file (`--config=/var/lib/kube-proxy/config.conf`,
 * the `config.conf` key of kubeadm's kube-proxy ConfigMap), read with the
 * defaults kube-proxy applies: an empty `mode` means iptables on Linux,
 * sync periods default to 30 s, the iptables and nftables minimum sync
 * periods to 1 s and IPVS's to 0, the masquerade bit to 14, and in
 * nftables mode NodePorts answer only on the node's primary IP.
 *
 * Mirrors pkg/proxy/apis/config/v1alpha1/defaults.go
 * (SetDefaults_KubeProxyConfiguration),
 * pkg/proxy/apis/config/v1alpha1/conversion.go (the per-mode sync periods),
 * cmd/kube-proxy/app/server_linux.go (platformApplyDefaults).
 */
import { parseGoDurationMs } from '../golang/duration.ts';
import { parseYaml } from '../yaml/index.ts';

export type ProxyMode = 'iptables' | 'ipvs' | 'nftables';

/** What kube-proxy runs with, after defaulting. Plain JSON. */
export interface KubeProxyConfig {
	mode: ProxyMode;
	/** The mode as the file wrote it ('' when unset). */
	modeAsWritten: string;
	clusterCIDR: string;
	syncPeriodMs: number;
	minSyncPeriodMs: number;
	masqueradeBit: number;
	masqueradeAll: boolean;
	localhostNodePorts: boolean;
	/** '' or 'primary' or CIDRs; nftables mode defaults to ['primary']. */
	nodePortAddresses: string[];
	ipvsScheduler: string;
	/** healthzBindAddress (0.0.0.0:10256) and metricsBindAddress (127.0.0.1:10249): ports.ProxyHealthzPort and ProxyStatusPort. */
	healthzPort: number;
	metricsPort: number;
}

/** ports.ProxyHealthzPort and ports.ProxyStatusPort (pkg/cluster/ports/ports.go). */
const PROXY_HEALTHZ_PORT = 10256;
const PROXY_METRICS_PORT = 10249;
/** iptables.syncPeriod / ipvs.syncPeriod / nftables.syncPeriod default: 30 s. */
const DEFAULT_SYNC_PERIOD_MS = 30_000;
/** iptables.minSyncPeriod and nftables.minSyncPeriod default: 1 s (IPVS keeps 0). */
const DEFAULT_MIN_SYNC_PERIOD_MS = 1_000;
/** iptables.masqueradeBit default 14: the mark 0x4000. */
const DEFAULT_MASQUERADE_BIT = 14;

type Section = { syncPeriod?: string; minSyncPeriod?: string; masqueradeBit?: number | null; masqueradeAll?: boolean; localhostNodePorts?: boolean | null; scheduler?: string };

function duration(text: unknown): number {
	if (typeof text !== 'string' || text === '') return 0;
	const ms = parseGoDurationMs(text);
	return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** The defaults when no file can be read (kubeadm's ConfigMap with `mode: fallback`). */
export function defaultConfig(mode: ProxyMode | '' = '', clusterCIDR = ''): KubeProxyConfig {
	return configFrom({ mode, clusterCIDR });
}

function configFrom(raw: Record<string, unknown>): KubeProxyConfig {
	const written = typeof raw.mode === 'string' ? raw.mode : '';
	const mode: ProxyMode = written === 'ipvs' || written === 'nftables' ? written : 'iptables';
	const section = ((mode === 'ipvs' ? raw.ipvs : mode === 'nftables' ? raw.nftables : raw.iptables) ?? {}) as Section;
	const iptables = (raw.iptables ?? {}) as Section;
	const nodePortAddresses = Array.isArray(raw.nodePortAddresses) ? raw.nodePortAddresses.map(String) : [];
	return {
		mode,
		modeAsWritten: written,
		clusterCIDR: typeof raw.clusterCIDR === 'string' ? raw.clusterCIDR : '',
		syncPeriodMs: duration(section.syncPeriod) || DEFAULT_SYNC_PERIOD_MS,
		minSyncPeriodMs: duration(section.minSyncPeriod) || (mode === 'ipvs' ? 0 : DEFAULT_MIN_SYNC_PERIOD_MS),
		masqueradeBit: typeof section.masqueradeBit === 'number' ? section.masqueradeBit : typeof iptables.masqueradeBit === 'number' ? iptables.masqueradeBit : DEFAULT_MASQUERADE_BIT,
		masqueradeAll: section.masqueradeAll === true,
		localhostNodePorts: iptables.localhostNodePorts !== false,
		nodePortAddresses: nodePortAddresses.length === 0 && mode === 'nftables' ? ['primary'] : nodePortAddresses,
		ipvsScheduler: mode === 'ipvs' && typeof (raw.ipvs as Section | undefined)?.scheduler === 'string' && (raw.ipvs as Section).scheduler ? (raw.ipvs as Section).scheduler! : 'rr',
		healthzPort: PROXY_HEALTHZ_PORT,
		metricsPort: PROXY_METRICS_PORT,
	};
}

/** Parses config.conf; undefined when the text is not a KubeProxyConfiguration (kube-proxy would exit). */
export function parseKubeProxyConfig(text: string): KubeProxyConfig | undefined {
	try {
		const raw = parseYaml(text) as Record<string, unknown> | null;
		if (!raw || typeof raw !== 'object' || raw.kind !== 'KubeProxyConfiguration') return undefined;
		return configFrom(raw);
	} catch {
		return undefined;
	}
}
