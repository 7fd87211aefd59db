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

/**
 * Parses the file. A file that is not a KubeletConfiguration, or holds a
 * value of the wrong form, is refused with the reason the kubelet would
 * log (`failed to load kubelet config file, path: ..., error: ...`).
 */
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
	if (doc.evictionHard !== undefined) {
		const hard = doc.evictionHard as Record<string, unknown> | null;
		if (!hard || typeof hard !== 'object' || Array.isArray(hard)) return { config: {}, error: 'failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.evictionHard of type map[string]string' };
		const memory = hard['memory.available'];
		if (memory !== undefined) {
			if (typeof memory !== 'string' || !validThreshold(memory)) return { config: {}, error: `invalid configuration: failed to parse eviction threshold memory.available${typeof memory === 'string' ? `<${memory}` : ''}` };
			config.evictionHardMemoryAvailable = memory;
		}
	}
	if (doc.evictionSoft !== undefined) {
		const soft = doc.evictionSoft as Record<string, unknown> | null;
		if (!soft || typeof soft !== 'object' || Array.isArray(soft)) return { config: {}, error: 'failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.evictionSoft of type map[string]string' };
		const memory = soft['memory.available'];
		if (memory !== undefined) {
			if (typeof memory !== 'string' || !validThreshold(memory)) return { config: {}, error: `invalid configuration: failed to parse eviction threshold memory.available${typeof memory === 'string' ? `<${memory}` : ''}` };
			config.evictionSoftMemoryAvailable = memory;
		}
	}
	if (doc.evictionSoftGracePeriod !== undefined) {
		const grace = doc.evictionSoftGracePeriod as Record<string, unknown> | null;
		if (!grace || typeof grace !== 'object' || Array.isArray(grace)) return { config: {}, error: 'failed to decode: json: cannot unmarshal into Go struct field KubeletConfiguration.evictionSoftGracePeriod of type map[string]string' };
		const memory = grace['memory.available'];
		if (memory !== undefined) {
			const ms = typeof memory === 'string' ? tryParseGoDurationMs(memory) : undefined;
			if (ms === undefined || ms < 0) return { config: {}, error: `invalid configuration: failed to parse eviction grace period memory.available=${String(memory)}` };
			config.evictionSoftGracePeriodMemoryMs = ms;
		}
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
