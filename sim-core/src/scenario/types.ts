/**
 * A scenario: the declarative file (content/scenarios/<path>.yaml) behind
 * one sandbox on one page. It says which cluster to build, what to do before
 * the reader arrives, which faults fire later, what state the scenario must
 * reach (checked by the tests), and the tasks offered to the reader.
 *
 * Authors write it; `validateScenario` checks it with clear errors at build
 * time; `startScenario` plays it on a cluster.
 *
 * Mirrors nothing upstream: the site's scenario file format.
 */
import type { NodeOptions, KubeSchedulerConfiguration } from '../cluster/options.ts';

/** Text in both locales. */
export interface LocalizedText {
	en: string;
	'zh-cn': string;
}

/** Components a fault may stop or start. */
export type ComponentName = 'kube-apiserver' | 'etcd' | 'kube-scheduler' | 'kube-controller-manager' | 'cloud-controller-manager' | 'kubelet' | 'kube-proxy' | 'container-runtime';

/** One step: what a reader could do, done by the scenario. */
export type ScenarioStep =
	| { run: string }
	| { apply: string }
	| { writeFile: { path: string; content: string } }
	| { advance: string }
	| { settle: string }
	| { stop: ComponentName; node?: string }
	| { start: ComponentName; node?: string }
	| { partition: string }
	| { heal: string }
	/** Cut a node's power (every process on it stops at once) and power it on again (it boots). */
	| { powerOff: string }
	| { powerOn: string }
	/** Set a node's clock `offset` away from true time (a Go duration, negative behind: `-24h`; `0s` back in step). */
	| { setClock: string; offset: string };

/** A fault scheduled at a virtual time after the scenario starts. */
export type ScheduledFault = { at: string } & ({ stop: ComponentName; node?: string } | { start: ComponentName; node?: string } | { partition: string } | { heal: string } | { powerOff: string } | { powerOn: string } | { setClock: string; offset: string });

/**
 * A check of the cluster's state, read without side effects: the objects of
 * `resource` (optionally one `name`, a namespace, a label selector), a
 * JSONPath into each, and what it must be.
 */
export interface StateCheck {
	resource: string;
	namespace?: string;
	name?: string;
	selector?: string;
	/** A kubectl-style JSONPath, e.g. `{.status.phase}`; omitted: the object count is checked. */
	path?: string;
	/** Every matching object must give this value (or, without `path`, the count must equal it). */
	equals?: string | number;
	/** At least `count` objects must match (with `path`/`equals`, must satisfy them). */
	atLeast?: number;
	/** Exactly `count` objects. */
	count?: number;
	/** The value must not be this. */
	notEquals?: string;
	/** The value must contain this text. */
	contains?: string;
	/** The object must not exist. */
	absent?: boolean;
}

export interface ScenarioTask {
	id: string;
	title: LocalizedText;
	/** What the reader should achieve, in a sentence or two. */
	goal: LocalizedText;
	/** Hints, revealed one by one. */
	hints?: LocalizedText[];
	/**
	 * The answer: the explanation, the terminal commands shown to the reader,
	 * and, when the answer needs more than the terminal (a component started
	 * in the Faults panel, the clock moved), the whole solution as steps.
	 * The content tests play `steps` when present, else `commands`, and
	 * require the task's checks to hold afterwards.
	 */
	reveal?: { text: LocalizedText; commands?: string[]; steps?: ScenarioStep[] };
	/** Done when every check holds. */
	checks: StateCheck[];
}

export type PanelName = 'map' | 'terminal' | 'timeline' | 'story' | 'faults' | 'why' | 'tasks' | 'yaml' | 'inspector';

export interface Scenario {
	/** Path under content/scenarios without extension, e.g. 'control-plane/apiserver'. Set by the loader. */
	id: string;
	title: LocalizedText;
	/** What the live sandbox lets the reader do; shown as is without JavaScript. */
	summary: LocalizedText;
	cluster?: {
		seed?: number;
		nodes?: NodeOptions[];
		scheduler?: KubeSchedulerConfiguration;
		kubeProxyMode?: 'iptables' | 'ipvs' | 'nftables';
		/** `registerNode: false`: the control plane runs but is not a Node, as on managed clusters. */
		controlPlane?: {
			registerNode?: boolean;
			/** Replicas of kube-scheduler / kube-controller-manager (1-3): each further one on its own machine, control-plane-2, -3. */
			schedulers?: number;
			controllerManagers?: number;
			/** etcd members (1-5) in a Raft cluster, stacked one per control-plane machine. */
			etcdMembers?: number;
		};
		/** The Pod network add-on (default flannel); `none` boots as `kubeadm init` leaves a cluster before one is applied. */
		cni?: 'flannel' | 'calico' | 'none';
		/** kubeadm's certificate periods (`certificateValidityPeriod: 2h` lets the certificates expire within a session). */
		kubeadm?: { certificateValidityPeriod?: string; caCertificateValidityPeriod?: string };
		/** A simulated cloud and its cloud-controller-manager (`true`, or `{ configureCloudRoutes: true }` for its route controller too). */
		cloud?: boolean | { configureCloudRoutes?: boolean };
	};
	/** Done before the reader arrives, in order. */
	setup?: ScenarioStep[];
	/** Faults that fire while the reader watches. */
	faults?: ScheduledFault[];
	/** The state the scenario must reach (after setup and within `within`); checked by the content tests. */
	expect?: { within: string; checks: StateCheck[] };
	/**
	 * When the reader takes over: once the `expect` state holds (`expected`,
	 * the default: the cluster is as the summary describes), or right after
	 * the setup (`after-setup`: the scenario starts in the middle of
	 * something the reader should watch happen).
	 */
	readerArrives?: 'expected' | 'after-setup';
	tasks?: ScenarioTask[];
	/** Panels shown by default (the page may override). */
	panels?: PanelName[];
	/** A command typed in the terminal, waiting for the reader to press Enter. */
	suggestedCommand?: string;
}
