/**
 * kube-scheduler's configuration: a KubeSchedulerConfiguration (v1, as in a
 * `--config` file; its shape is ./types.ts) defaulted and validated into
 * what the scheduler runs with.
 *
 * Defaults (kubernetes/kube-scheduler config/v1/types.go, component-base
 * config/v1alpha1/defaults.go): parallelism 16, percentageOfNodesToScore 0
 * (adaptive), podInitialBackoffSeconds 1, podMaxBackoffSeconds 10, one
 * profile `default-scheduler` with the default plugins, leader election on
 * a Lease kube-system/kube-scheduler with leaseDuration 15s, renewDeadline
 * 10s, retryPeriod 2s.
 *
 * Mirrors pkg/scheduler/apis/config/v1/defaults.go,
 * pkg/scheduler/apis/config/validation/validation.go (the parts that apply
 * here).
 */
import type { KubeSchedulerConfiguration } from './types.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { EXTENSION_POINTS, type PluginSet, type PluginsConfig } from '../framework/runtime.ts';
import { NOT_SIMULATED } from '../plugins/registry.ts';
import { emptyPluginsConfig, getDefaultPlugins, mergePlugins } from './default-plugins.ts';

/** v1.DefaultSchedulerName. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** DefaultParallelism (config/v1/defaults.go); informational here, the simulation runs plugins in order. */
const DEFAULT_PARALLELISM = 16;
/** DefaultPercentageOfNodesToScore: 0 means the adaptive formula. */
const DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE = 0;
/** podInitialBackoffSeconds default: 1 s. */
export const DEFAULT_POD_INITIAL_BACKOFF_SECONDS = 1;
/** podMaxBackoffSeconds default: 10 s. */
export const DEFAULT_POD_MAX_BACKOFF_SECONDS = 10;
/** Leader election defaults (component-base config/v1alpha1 RecommendedDefaultLeaderElectionConfiguration). */
const DEFAULT_LEASE_DURATION = '15s';
const DEFAULT_RENEW_DEADLINE = '10s';
const DEFAULT_RETRY_PERIOD = '2s';

/** One profile, defaulted (config.KubeSchedulerProfile). */
export interface ProfileConfig {
	schedulerName: string;
	percentageOfNodesToScore?: number;
	plugins: PluginsConfig;
	/** Plugin name -> args as written in pluginConfig (each plugin applies its own defaults). */
	pluginArgs: Map<string, unknown>;
}

/** The whole configuration, defaulted (config.KubeSchedulerConfiguration). */
export interface SchedulerConfig {
	parallelism: number;
	percentageOfNodesToScore: number;
	podInitialBackoffMs: number;
	podMaxBackoffMs: number;
	leaderElection: { leaderElect: boolean; leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number; resourceName: string; resourceNamespace: string };
	profiles: ProfileConfig[];
	/** Things the scheduler should say at start (e.g. plugins not simulated). */
	warnings: string[];
}

/** A configuration the scheduler refuses to start with. */
export class ConfigError extends Error {
	override name = 'ConfigError';
}

const KNOWN_POINTS = new Set<string>([...EXTENSION_POINTS, 'multiPoint']);

function toPluginsConfig(raw: Record<string, { enabled?: Array<{ name: string; weight?: number }>; disabled?: Array<{ name: string }> }> | undefined, profile: string, warnings: string[]): PluginsConfig | undefined {
	if (!raw) return undefined;
	const out = emptyPluginsConfig();
	for (const [point, set] of Object.entries(raw)) {
		if (!KNOWN_POINTS.has(point)) throw new ConfigError(`profiles[${profile}].plugins: unknown field "${point}"`);
		const target: PluginSet = out[point as keyof PluginsConfig];
		for (const p of set?.enabled ?? []) {
			if (NOT_SIMULATED.has(p.name)) {
				warnings.push(`profile "${profile}": plugin ${p.name} is not simulated and was left out of ${point}`);
				continue;
			}
			target.enabled.push(p.weight === undefined ? { name: p.name } : { name: p.name, weight: p.weight });
		}
		for (const p of set?.disabled ?? []) target.disabled.push({ name: p.name });
	}
	return out;
}

function durationMs(text: string | undefined, fallback: string, field: string): number {
	try {
		return parseGoDurationMs(text ?? fallback);
	} catch (e) {
		throw new ConfigError(`${field}: ${e instanceof Error ? e.message : String(e)}`);
	}
}

/**
 * SetDefaults_KubeSchedulerConfiguration followed by validation; throws
 * ConfigError with upstream-worded messages for what it checks.
 */
export function completeConfig(input: KubeSchedulerConfiguration | undefined): SchedulerConfig {
	const raw = input ?? {};
	const warnings: string[] = [];
	const percentage = raw.percentageOfNodesToScore ?? DEFAULT_PERCENTAGE_OF_NODES_TO_SCORE;
	const initial = raw.podInitialBackoffSeconds ?? DEFAULT_POD_INITIAL_BACKOFF_SECONDS;
	const max = raw.podMaxBackoffSeconds ?? DEFAULT_POD_MAX_BACKOFF_SECONDS;
	const errors: string[] = [];
	if (percentage < 0 || percentage > 100) errors.push(`percentageOfNodesToScore: Invalid value: ${percentage}: not in valid range [0-100]`);
	if (initial <= 0) errors.push(`podInitialBackoffSeconds: Invalid value: ${initial}: must be greater than 0`);
	if (max < initial) errors.push(`podMaxBackoffSeconds: Invalid value: ${max}: must be greater than or equal to PodInitialBackoffSeconds`);
	const le = raw.leaderElection ?? {};
	const leaderElection = {
		leaderElect: le.leaderElect ?? true,
		leaseDurationMs: durationMs(le.leaseDuration, DEFAULT_LEASE_DURATION, 'leaderElection.leaseDuration'),
		renewDeadlineMs: durationMs(le.renewDeadline, DEFAULT_RENEW_DEADLINE, 'leaderElection.renewDeadline'),
		retryPeriodMs: durationMs(le.retryPeriod, DEFAULT_RETRY_PERIOD, 'leaderElection.retryPeriod'),
		resourceName: le.resourceName ?? 'kube-scheduler',
		resourceNamespace: le.resourceNamespace ?? 'kube-system',
	};
	if (leaderElection.leaderElect && leaderElection.leaseDurationMs <= leaderElection.renewDeadlineMs) errors.push('leaderElection.leaseDuration: Invalid value: "' + (le.leaseDuration ?? DEFAULT_LEASE_DURATION) + '": LeaseDuration must be greater than RenewDeadline');

	const rawProfiles = raw.profiles && raw.profiles.length > 0 ? raw.profiles : [{}];
	const names = new Set<string>();
	const profiles: ProfileConfig[] = rawProfiles.map((p, i) => {
		const schedulerName = p.schedulerName ?? DEFAULT_SCHEDULER_NAME;
		if (!schedulerName) errors.push(`profiles[${i}].schedulerName: Required value`);
		if (names.has(schedulerName)) errors.push(`profiles[${i}].schedulerName: Duplicate value: "${schedulerName}"`);
		names.add(schedulerName);
		if (p.percentageOfNodesToScore !== undefined && (p.percentageOfNodesToScore < 0 || p.percentageOfNodesToScore > 100)) errors.push(`profiles[${i}].percentageOfNodesToScore: Invalid value: ${p.percentageOfNodesToScore}: not in valid range [0-100]`);
		const plugins = mergePlugins(getDefaultPlugins(), toPluginsConfig(p.plugins, schedulerName, warnings));
		const pluginArgs = new Map<string, unknown>();
		(p.pluginConfig ?? []).forEach((pc, j) => {
			if (pluginArgs.has(pc.name)) errors.push(`profiles[${i}].pluginConfig[${j}]: Duplicate value: "${pc.name}"`);
			pluginArgs.set(pc.name, pc.args);
		});
		return { schedulerName, percentageOfNodesToScore: p.percentageOfNodesToScore, plugins, pluginArgs };
	});
	if (errors.length) throw new ConfigError(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
	const skipped = ['VolumeRestrictions', 'NodeVolumeLimits', 'VolumeZone', 'DynamicResources'];
	warnings.unshift(`the default profile's ${skipped.join(', ')} plugins are not simulated (no CSI drivers, zones or DRA in this cluster)`);
	return { parallelism: raw.parallelism ?? DEFAULT_PARALLELISM, percentageOfNodesToScore: percentage, podInitialBackoffMs: initial * 1000, podMaxBackoffMs: max * 1000, leaderElection, profiles, warnings };
}
