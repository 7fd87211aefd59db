/**
 * The KubeSchedulerConfiguration file format (kubescheduler.config.k8s.io/v1),
 * as a `--config` file holds it before defaulting: every field optional.
 * ./config.ts defaults and validates it into what the scheduler runs with.
 *
 * Mirrors staging/src/k8s.io/kube-scheduler/config/v1/types.go.
 */
/** A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1). */
export interface KubeSchedulerConfiguration {
	apiVersion?: string;
	kind?: string;
	parallelism?: number;
	percentageOfNodesToScore?: number;
	podInitialBackoffSeconds?: number;
	podMaxBackoffSeconds?: number;
	/** component-base LeaderElectionConfiguration: durations as Go strings ('15s'). */
	leaderElection?: { leaderElect?: boolean; leaseDuration?: string; renewDeadline?: string; retryPeriod?: string; resourceLock?: string; resourceName?: string; resourceNamespace?: string };
	profiles?: Array<{
		schedulerName?: string;
		/** Overrides the top-level percentageOfNodesToScore for this profile. */
		percentageOfNodesToScore?: number;
		plugins?: Record<string, { enabled?: Array<{ name: string; weight?: number }>; disabled?: Array<{ name: string }> }>;
		pluginConfig?: Array<{ name: string; args?: Record<string, unknown> }>;
	}>;
}

