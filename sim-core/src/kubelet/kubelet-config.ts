/**
 * The kubelet's configuration file: the KubeletConfiguration its `--config`
 * flag names (kubeadm: /var/lib/kubelet/config.yaml, written by `kubeadm
 * init` and `join` from the kubelet-config ConfigMap). The kubelet reads it
 * at every start, so editing it and restarting the kubelet (`systemctl
 * restart kubelet`) changes how the node behaves, as on a real node.
 *
 * The fields read are the ones this kubelet models; the rest (cgroupDriver,
 * rotateCertificates, authentication...) are accepted and have no effect
 * here. clusterDNS and clusterDomain reach Pods through the runtime's
 * resolv.conf, which follows kubeadm's defaults for now.
 *
 * Mirrors staging/src/k8s.io/kubelet/config/v1beta1/types.go,
 * pkg/kubelet/apis/config/v1beta1/defaults.go, cmd/kubelet/app/server.go
 * (loadConfigFile).
 */
import { Quantity } from '../api/quantity.ts';
import { tryParseGoDurationMs } from '../golang/duration.ts';
import { parseYaml } from '../yaml/index.ts';
import type { KubeletConfig } from './kubelet.ts';

/** What a config file sets: the fields it names, or why it could not be loaded. */
interface KubeletConfigFile {
	config: Partial<KubeletConfig>;
	/** Why the file was refused (the kubelet then runs with its defaults: see loadKubeletConfigFile). */
	error?: string;
}

/** Duration fields of KubeletConfiguration (metav1.Duration, Go's duration text) and where they go. */
const DURATIONS: ReadonlyArray<[string, keyof KubeletConfig]> = [
	['nodeStatusUpdateFrequency', 'nodeStatusUpdateFrequencyMs'],
	['nodeStatusReportFrequency', 'nodeStatusReportFrequencyMs'],
	['fileCheckFrequency', 'fileCheckFrequencyMs'],
	['syncFrequency', 'syncFrequencyMs'],
];

/** The signals an eviction map may name (evictionapi's signals; containerfs.* follow nodefs here, as on a node with one disk). */
const EVICTION_SIGNALS = new Set(['memory.available', 'allocatableMemory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'containerfs.available', 'containerfs.inodesFree', 'pid.available']);

/** One of the eviction maps (map[string]string keyed by signal), or why the file is refused. */
function evictionMap(doc: Record<string, unknown>, field: string): { map?: Record<string, unknown>; error?: string } {
	const map = doc[field] as Record<string, unknown> | null | undefined;
	if (map === undefined || map === null) return {};
	if (typeof map !== 'object' || Array.isArray(map)) return { error: `failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.${field} of type map[string]string` };
	for (const [signal, value] of Object.entries(map)) {
		if (typeof value !== 'string') return { error: `failed to decode: json: cannot unmarshal ${JSON.stringify(value)} into Go struct field KubeletConfiguration.${field} of type string` };
		if (!EVICTION_SIGNALS.has(signal)) return { error: `invalid configuration: unsupported eviction signal ${signal}` };
	}
	return { map };
}

/**
 * evictionHard's or evictionSoft's thresholds, checked the way
 * parseThresholdStatement checks them: a percentage from 0% to 100% (`0%`
 * and `100%` turn the signal off) or a positive quantity.
 */
function evictionThresholds(doc: Record<string, unknown>, field: 'evictionHard' | 'evictionSoft'): { thresholds?: Record<string, string>; error?: string } {
	const { map, error } = evictionMap(doc, field);
	if (error || !map) return { error };
	const thresholds: Record<string, string> = {};
	for (const [signal, raw] of Object.entries(map)) {
		const value = raw as string;
		if (value.endsWith('%')) {
			if (value === '0%' || value === '100%') continue;
			const percent = Number(value.slice(0, -1));
			if (!Number.isFinite(percent) || value.slice(0, -1).trim() === '') return { error: `invalid configuration: failed to parse eviction threshold ${signal}<${value}` };
			if (percent < 0) return { error: `invalid configuration: eviction percentage threshold ${signal} must be >= 0%: ${value}` };
			if (percent > 100) return { error: `invalid configuration: eviction percentage threshold ${signal} must be <= 100%: ${value}` };
			thresholds[signal] = value;
			continue;
		}
		let quantity: Quantity;
		try {
			quantity = Quantity.parse(value);
		} catch {
			return { error: `invalid configuration: failed to parse eviction threshold ${signal}<${value}` };
		}
		if (quantity.sign() <= 0) return { error: `invalid configuration: eviction threshold ${signal} must be positive: ${quantity.toString()}` };
		thresholds[signal] = value;
	}
	return { thresholds };
}

/** The Linux kubelet's evictionHard when the config sets none (pkg/kubelet/eviction/defaults_linux.go; imagefs.inodesFree joined in v1.33). */
export const DEFAULT_EVICTION_HARD: Readonly<Record<string, string>> = { 'memory.available': '100Mi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%', 'imagefs.inodesFree': '5%' };

/** The eviction fields: the thresholds, the soft ones' grace periods, the maximum Pod grace, mergeDefaultEvictionSettings. */
function evictionConfig(doc: Record<string, unknown>, config: Partial<KubeletConfig>): string | undefined {
	const hard = evictionThresholds(doc, 'evictionHard');
	if (hard.error) return hard.error;
	const soft = evictionThresholds(doc, 'evictionSoft');
	if (soft.error) return soft.error;
	const graces = evictionMap(doc, 'evictionSoftGracePeriod');
	if (graces.error) return graces.error;
	if (doc.mergeDefaultEvictionSettings !== undefined && typeof doc.mergeDefaultEvictionSettings !== 'boolean') return `failed to decode: json: cannot unmarshal ${JSON.stringify(doc.mergeDefaultEvictionSettings)} into Go struct field KubeletConfiguration.mergeDefaultEvictionSettings of type bool`;
	// A file that sets evictionHard replaces the defaults, unless mergeDefaultEvictionSettings keeps the ones it does not name.
	if (hard.thresholds) config.evictionHard = doc.mergeDefaultEvictionSettings === true ? { ...DEFAULT_EVICTION_HARD, ...hard.thresholds } : hard.thresholds;
	if (soft.thresholds) config.evictionSoft = soft.thresholds;
	const periods: Record<string, number> = {};
	for (const [signal, value] of Object.entries(graces.map ?? {})) {
		const ms = tryParseGoDurationMs(value as string);
		if (ms === undefined || ms < 0) return `invalid configuration: failed to parse eviction grace period ${signal}=${String(value)}`;
		periods[signal] = ms;
	}
	if (graces.map) config.evictionSoftGracePeriodMs = periods;
	// parseThresholdConfig: every soft threshold needs its grace period.
	for (const signal of Object.keys(soft.thresholds ?? {})) if (periods[signal] === undefined) return `invalid configuration: grace period must be specified for the soft eviction threshold ${signal}`;
	if (doc.evictionMaxPodGracePeriod !== undefined) {
		if (!Number.isInteger(doc.evictionMaxPodGracePeriod)) return 'failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.evictionMaxPodGracePeriod of type int32';
		config.evictionMaxPodGracePeriodSeconds = doc.evictionMaxPodGracePeriod as number;
	}
	return undefined;
}

/**
 * Parses the file. A file that is not a KubeletConfiguration, or holds a
 * value of the wrong form, is refused with the reason the kubelet would
 * log (`failed to load kubelet config file, path: ..., error: ...`).
 */
export function loadKubeletConfigFile(text: string): KubeletConfigFile {
	let raw: unknown;
	try {
		raw = parseYaml(text);
	} catch (error) {
		return { config: {}, error: `failed to decode: ${error instanceof Error ? error.message : String(error)}` };
	}
	const doc = raw as Record<string, unknown> | null;
	if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { config: {}, error: "Object 'Kind' is missing in the config file" };
	if (doc.kind !== 'KubeletConfiguration') return { config: {}, error: `no kind "${String(doc.kind)}" is registered for version "${String(doc.apiVersion)}" in scheme "pkg/kubelet/apis/config/scheme/scheme.go:34"` };
	const config: Partial<KubeletConfig> = {};
	for (const [field, key] of DURATIONS) {
		if (doc[field] === undefined) continue;
		const ms = typeof doc[field] === 'string' ? tryParseGoDurationMs(doc[field]) : undefined;
		if (ms === undefined) return { config: {}, error: `failed to decode: json: cannot unmarshal ${JSON.stringify(doc[field])} into Go struct field KubeletConfiguration.${field} of type time.Duration` };
		(config as Record<string, number>)[key] = ms;
	}
	if (doc.nodeLeaseDurationSeconds !== undefined) {
		if (!Number.isInteger(doc.nodeLeaseDurationSeconds)) return { config: {}, error: 'failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.nodeLeaseDurationSeconds of type int32' };
		config.nodeLeaseDurationSeconds = doc.nodeLeaseDurationSeconds as number;
	}
	if (typeof doc.staticPodPath === 'string' && doc.staticPodPath !== '') config.staticPodPath = doc.staticPodPath;
	if (Array.isArray(doc.clusterDNS)) config.clusterDNS = doc.clusterDNS.map(String);
	if (typeof doc.clusterDomain === 'string') config.clusterDomain = doc.clusterDomain;
	if (typeof doc.resolvConf === 'string') config.resolvConf = doc.resolvConf;
	if (doc.registerNode !== undefined) {
		if (typeof doc.registerNode !== 'boolean') return { config: {}, error: `failed to decode: json: cannot unmarshal ${JSON.stringify(doc.registerNode)} into Go struct field KubeletConfiguration.registerNode of type bool` };
		config.registerNode = doc.registerNode;
	}
	const evictionError = evictionConfig(doc, config);
	if (evictionError) return { config: {}, error: evictionError };
	// ValidateKubeletConfiguration refuses periods that are not positive.
	for (const [field, key] of [...DURATIONS, ['nodeLeaseDurationSeconds', 'nodeLeaseDurationSeconds'] as const]) {
		const value = config[key];
		if (typeof value === 'number' && value <= 0) return { config: {}, error: `invalid configuration: ${field} must be greater than 0` };
	}
	return { config };
}
