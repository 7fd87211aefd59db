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

/** An eviction threshold's value: a percentage (0-100%) or a non-negative quantity. */
function validThreshold(value: string): boolean {
	const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
	if (percent) return Number(percent[1]) <= 100;
	try {
		return Quantity.parse(value).sign() >= 0;
	} catch {
		return false;
	}
}

/** What one of the eviction maps (map[string]string keyed by signal) holds for memory.available, or why the file is refused. */
function memoryAvailableEntry(doc: Record<string, unknown>, field: string): { value?: unknown; error?: string } {
	const map = doc[field] as Record<string, unknown> | null | undefined;
	if (map === undefined) return {};
	if (!map || typeof map !== 'object' || Array.isArray(map)) return { error: `failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.${field} of type map[string]string` };
	return { value: map['memory.available'] };
}

/** evictionHard's or evictionSoft's memory.available threshold, checked the way parseThresholdConfig checks it. */
function evictionThreshold(doc: Record<string, unknown>, field: 'evictionHard' | 'evictionSoft'): { value?: string; error?: string } {
	const { value, error } = memoryAvailableEntry(doc, field);
	if (error || value === undefined) return { error };
	if (typeof value !== 'string' || !validThreshold(value)) return { error: `invalid configuration: failed to parse eviction threshold memory.available${typeof value === 'string' ? `<${value}` : ''}` };
	return { value };
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
	const hard = evictionThreshold(doc, 'evictionHard');
	if (hard.error) return { config: {}, error: hard.error };
	if (hard.value !== undefined) config.evictionHardMemoryAvailable = hard.value;
	const soft = evictionThreshold(doc, 'evictionSoft');
	if (soft.error) return { config: {}, error: soft.error };
	if (soft.value !== undefined) config.evictionSoftMemoryAvailable = soft.value;
	const grace = memoryAvailableEntry(doc, 'evictionSoftGracePeriod');
	if (grace.error) return { config: {}, error: grace.error };
	if (grace.value !== undefined) {
		const ms = typeof grace.value === 'string' ? tryParseGoDurationMs(grace.value) : undefined;
		if (ms === undefined || ms < 0) return { config: {}, error: `invalid configuration: failed to parse eviction grace period memory.available=${String(grace.value)}` };
		config.evictionSoftGracePeriodMemoryMs = ms;
	}
	// parseThresholdConfig: every soft threshold needs its grace period.
	if (config.evictionSoftMemoryAvailable !== undefined && config.evictionSoftGracePeriodMemoryMs === undefined) return { config: {}, error: 'invalid configuration: grace period must be specified for the soft eviction threshold memory.available' };
	if (doc.evictionMaxPodGracePeriod !== undefined) {
		if (!Number.isInteger(doc.evictionMaxPodGracePeriod)) return { config: {}, error: 'failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.evictionMaxPodGracePeriod of type int32' };
		config.evictionMaxPodGracePeriodSeconds = doc.evictionMaxPodGracePeriod as number;
	}
	// ValidateKubeletConfiguration refuses periods that are not positive.
	for (const [field, key] of [...DURATIONS, ['nodeLeaseDurationSeconds', 'nodeLeaseDurationSeconds'] as const]) {
		const value = config[key];
		if (typeof value === 'number' && value <= 0) return { config: {}, error: `invalid configuration: ${field} must be greater than 0` };
	}
	return { config };
}
