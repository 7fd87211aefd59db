/**
 * The framework runtime of one profile: instantiates the profile's plugins
 * from the registry, orders them per extension point (including MultiPoint
 * expansion), and runs them.
 *
 * Upstream runs Filter and Score over nodes in parallel (16 goroutines);
 * here everything runs in node order, which gives the same results because
 * each node's verdict and score depend only on that node and the cycle
 * state. The runtime also returns the details the scheduler's explanation
 * records: every filter verdict, and each Score plugin's raw and
 * normalized scores with its weight.
 *
 * Mirrors pkg/scheduler/framework/runtime/framework.go (NewFramework,
 * expandMultiPointPlugins, getScoreWeights and the Run*Plugins functions).
 */
import type { Pod } from '../../api/types.ts';
import { CycleState } from './cycle-state.ts';
import type { ClusterEventWithHint } from './events.ts';
import { NodeToStatus } from './fit-error.ts';
import {
	MAX_NODE_SCORE,
	MIN_NODE_SCORE,
	mergePreFilterResults,
	type BindPlugin,
	type EnqueueExtensions,
	type FilterPlugin,
	type FrameworkRunner,
	type Handle,
	type NodeScore,
	type PermitPlugin,
	type Plugin,
	type PluginFactory,
	type PostBindPlugin,
	type PostFilterPlugin,
	type PostFilterResult,
	type PreBindPlugin,
	type PreEnqueuePlugin,
	type PreFilterPlugin,
	type PreFilterResult,
	type PreScorePlugin,
	type QueueSortPlugin,
	type QueuedPodInfoView,
	type ReservePlugin,
	type ScorePlugin,
} from './interface.ts';
import { Code, isRejected, isSkip, isSuccess, Status } from './status.ts';
import { podPriority, type NodeInfo, type PodInfo } from './types.ts';

/** One plugin in an extension point's configuration (config.Plugin). */
export interface PluginRef {
	name: string;
	weight?: number;
}

/** config.PluginSet. `disabled: [{name: '*'}]` disables every default of the point. */
export interface PluginSet {
	enabled: PluginRef[];
	disabled: Array<{ name: string }>;
}

/**
 * The extension points a profile configures (config.Plugins), in upstream's
 * field names, in the order frameworkImpl.getExtensionPoints walks them
 * (which decides which error a bad configuration reports first).
 */
export const EXTENSION_POINTS = ['preFilter', 'filter', 'postFilter', 'reserve', 'preScore', 'score', 'preBind', 'bind', 'postBind', 'permit', 'preEnqueue', 'queueSort'] as const;
type ExtensionPoint = (typeof EXTENSION_POINTS)[number];

/** config.Plugins: one PluginSet per extension point, plus MultiPoint. */
export type PluginsConfig = Record<ExtensionPoint | 'multiPoint', PluginSet>;

/** The upstream Go interface name of each extension point, used in configuration errors. */
const INTERFACE_NAMES: Record<ExtensionPoint, string> = {
	preEnqueue: 'PreEnqueuePlugin',
	queueSort: 'QueueSortPlugin',
	preFilter: 'PreFilterPlugin',
	filter: 'FilterPlugin',
	postFilter: 'PostFilterPlugin',
	preScore: 'PreScorePlugin',
	score: 'ScorePlugin',
	reserve: 'ReservePlugin',
	permit: 'PermitPlugin',
	preBind: 'PreBindPlugin',
	bind: 'BindPlugin',
	postBind: 'PostBindPlugin',
};

/** The method that marks a plugin as implementing an extension point. */
const METHOD_OF: Record<ExtensionPoint, string> = {
	preEnqueue: 'preEnqueue',
	queueSort: 'less',
	preFilter: 'preFilter',
	filter: 'filter',
	postFilter: 'postFilter',
	preScore: 'preScore',
	score: 'score',
	reserve: 'reserve',
	permit: 'permit',
	preBind: 'preBind',
	bind: 'bind',
	postBind: 'postBind',
};

function implementsPoint(plugin: Plugin, point: ExtensionPoint): boolean {
	return typeof (plugin as unknown as Record<string, unknown>)[METHOD_OF[point]] === 'function';
}

function isEnqueueExtensions(plugin: Plugin): plugin is EnqueueExtensions {
	return typeof (plugin as Partial<EnqueueExtensions>).eventsToRegister === 'function';
}

/** A configuration error, worded as upstream's NewFramework errors. */
export class FrameworkConfigError extends Error {
	override name = 'FrameworkConfigError';
}

/** One filter plugin's verdict on one node, for the explanation. */
export interface FilterVerdict {
	plugin: string;
	code: Code;
	reasons: string[];
}

/** One Score plugin's work over the scored nodes, for the explanation. */
interface ScoreDetail {
	plugin: string;
	weight: number;
	/** Raw Score() results, in node order. */
	raw: number[];
	/** After NormalizeScore (equal to raw for plugins without one). */
	normalized: number[];
}

/** fwk.NodePluginScores: one node's weighted score per plugin and the total. */
export interface NodePluginScores {
	name: string;
	scores: Array<{ name: string; score: number }>;
	totalScore: number;
}

/** One PreFilter or PreScore plugin's outcome, for the explanation. */
export interface PluginOutcome {
	plugin: string;
	code: Code;
	message: string;
}

/** What the runtime needs to build a profile's framework. */
interface FrameworkOptions {
	profileName: string;
	plugins: PluginsConfig;
	/** Plugin name -> args (already defaulted). */
	pluginArgs: Map<string, unknown>;
	registry: Map<string, PluginFactory>;
	handle: Handle;
	percentageOfNodesToScore?: number;
}

/** frameworkImpl: a profile's plugins, ordered per extension point. */
export class Framework implements FrameworkRunner {
	readonly profileName: string;
	readonly percentageOfNodesToScore?: number;
	readonly handle: Handle;
	readonly pluginsMap = new Map<string, Plugin>();
	readonly scorePluginWeight = new Map<string, number>();
	readonly preEnqueuePlugins: PreEnqueuePlugin[] = [];
	readonly queueSortPlugins: QueueSortPlugin[] = [];
	readonly preFilterPlugins: PreFilterPlugin[] = [];
	readonly filterPlugins: FilterPlugin[] = [];
	readonly postFilterPlugins: PostFilterPlugin[] = [];
	readonly preScorePlugins: PreScorePlugin[] = [];
	readonly scorePlugins: ScorePlugin[] = [];
	readonly reservePlugins: ReservePlugin[] = [];
	readonly permitPlugins: PermitPlugin[] = [];
	readonly preBindPlugins: PreBindPlugin[] = [];
	readonly bindPlugins: BindPlugin[] = [];
	readonly postBindPlugins: PostBindPlugin[] = [];
	/** Events each plugin registered (EnqueueExtensions), for the queue's hints. */
	readonly enqueueExtensions: Array<{ plugin: string; events: ClusterEventWithHint[] }> = [];

	constructor(options: FrameworkOptions) {
		this.profileName = options.profileName;
		this.percentageOfNodesToScore = options.percentageOfNodesToScore;
		this.handle = options.handle;
		const plugins = options.plugins;

		// Every plugin named anywhere is instantiated once (pluginsNeeded).
		const needed = new Set<string>();
		for (const point of [...EXTENSION_POINTS, 'multiPoint'] as const) for (const p of plugins[point].enabled) needed.add(p.name);
		for (const name of needed) {
			const factory = options.registry.get(name);
			if (!factory) continue;
			try {
				this.pluginsMap.set(name, factory(options.pluginArgs.get(name), options.handle));
			} catch (e) {
				throw new FrameworkConfigError(`initializing plugin "${name}": ${e instanceof Error ? e.message : String(e)}`);
			}
		}

		const lists = this.lists();
		for (const point of EXTENSION_POINTS) {
			const seen = new Set<string>();
			for (const ref of plugins[point].enabled) {
				const plugin = this.pluginsMap.get(ref.name);
				if (!plugin) throw new FrameworkConfigError(`${INTERFACE_NAMES[point]} "${ref.name}" does not exist`);
				if (!implementsPoint(plugin, point)) throw new FrameworkConfigError(`plugin "${ref.name}" does not extend ${INTERFACE_NAMES[point]} plugin`);
				if (seen.has(ref.name)) throw new FrameworkConfigError(`plugin "${ref.name}" already registered as "${INTERFACE_NAMES[point]}"`);
				seen.add(ref.name);
				lists[point].push(plugin);
			}
		}
		if (plugins.multiPoint.enabled.length > 0) this.expandMultiPoint(plugins, lists);
		this.setScoreWeights([...plugins.score.enabled, ...plugins.multiPoint.enabled]);

		for (const plugin of this.pluginsMap.values()) {
			if (isEnqueueExtensions(plugin)) this.enqueueExtensions.push({ plugin: plugin.name, events: plugin.eventsToRegister() });
		}
		if (this.queueSortPlugins.length !== 1) throw new FrameworkConfigError(`one queue sort plugin required for profile with scheduler name "${this.profileName}"`);
		if (this.bindPlugins.length === 0) throw new FrameworkConfigError(`at least one bind plugin is needed for profile with scheduler name "${this.profileName}"`);
	}

	private lists(): Record<ExtensionPoint, Plugin[]> {
		return {
			preEnqueue: this.preEnqueuePlugins,
			queueSort: this.queueSortPlugins,
			preFilter: this.preFilterPlugins,
			filter: this.filterPlugins,
			postFilter: this.postFilterPlugins,
			preScore: this.preScorePlugins,
			score: this.scorePlugins,
			reserve: this.reservePlugins,
			permit: this.permitPlugins,
			preBind: this.preBindPlugins,
			bind: this.bindPlugins,
			postBind: this.postBindPlugins,
		};
	}

	/**
	 * expandMultiPointPlugins: a MultiPoint plugin joins every extension
	 * point it implements, unless disabled there; a plugin also configured
	 * at the point itself keeps that position (an override). Final order:
	 * overrides, then MultiPoint plugins, then the point's other plugins.
	 */
	private expandMultiPoint(plugins: PluginsConfig, lists: Record<ExtensionPoint, Plugin[]>): void {
		for (const point of EXTENSION_POINTS) {
			const set = plugins[point];
			const enabled = set.enabled.map((p) => p.name);
			const disabled = new Set(set.disabled.map((p) => p.name));
			if (disabled.has('*')) continue;
			const multiPointEnabled: string[] = [];
			const overrides = new Set<string>();
			for (const ref of plugins.multiPoint.enabled) {
				const plugin = this.pluginsMap.get(ref.name);
				if (!plugin) throw new FrameworkConfigError(`${INTERFACE_NAMES[point]} "${ref.name}" does not exist`);
				if (!implementsPoint(plugin, point)) continue;
				if (disabled.has(ref.name)) continue;
				if (enabled.includes(ref.name)) {
					overrides.add(ref.name);
					continue;
				}
				if (multiPointEnabled.includes(ref.name)) throw new FrameworkConfigError(`plugin "${ref.name}" already registered as "${INTERFACE_NAMES[point]}"`);
				multiPointEnabled.push(ref.name);
			}
			const ordered = [...enabled.filter((n) => overrides.has(n)), ...multiPointEnabled, ...enabled.filter((n) => !overrides.has(n))];
			lists[point].length = 0;
			for (const name of ordered) lists[point].push(this.pluginsMap.get(name)!);
		}
	}

	/** getScoreWeights: the Score point's own weight wins over MultiPoint's; 0 or unset means 1. */
	private setScoreWeights(refs: PluginRef[]): void {
		for (const ref of refs) {
			const plugin = this.pluginsMap.get(ref.name);
			if (!plugin || !implementsPoint(plugin, 'score')) continue;
			if (this.scorePluginWeight.has(ref.name)) continue;
			this.scorePluginWeight.set(ref.name, ref.weight && ref.weight > 0 ? ref.weight : 1);
		}
	}

	// ---- queue ---------------------------------------------------------------

	/** QueueSortFunc: the one QueueSort plugin's Less. */
	less(a: QueuedPodInfoView, b: QueuedPodInfoView): boolean {
		return this.queueSortPlugins[0].less(a, b);
	}

	/** Runs PreEnqueue plugins in order; the first that does not succeed gates the pod. */
	runPreEnqueuePlugins(pod: Pod, first?: string): Status | undefined {
		const ordered = first ? [...this.preEnqueuePlugins.filter((p) => p.name === first), ...this.preEnqueuePlugins.filter((p) => p.name !== first)] : this.preEnqueuePlugins;
		for (const plugin of ordered) {
			const status = plugin.preEnqueue(pod);
			if (!isSuccess(status)) return status!.withPlugin(plugin.name);
		}
		return undefined;
	}

	// ---- filtering -----------------------------------------------------------

	/**
	 * RunPreFilterPlugins. An UnschedulableAndUnresolvable stops at once; an
	 * Unschedulable is remembered while the others still run (so preemption
	 * has their state); Skip removes the plugin's Filter from this cycle.
	 */
	runPreFilterPlugins(state: CycleState, pod: Pod, nodes: NodeInfo[], outcomes?: PluginOutcome[]): { result?: PreFilterResult; status?: Status; unschedulablePlugins: Set<string> } {
		let result: PreFilterResult | undefined;
		let returnStatus: Status | undefined;
		const pluginsWithNodes: string[] = [];
		const unschedulablePlugins = new Set<string>();
		state.skipFilterPlugins = new Set();
		for (const plugin of this.preFilterPlugins) {
			const { result: r, status } = plugin.preFilter(state, pod, nodes);
			outcomes?.push({ plugin: plugin.name, code: status?.code ?? Code.Success, message: status?.message() ?? '' });
			if (isSkip(status)) {
				state.skipFilterPlugins.add(plugin.name);
				continue;
			}
			if (!isSuccess(status)) {
				status!.withPlugin(plugin.name);
				if (status!.code === Code.UnschedulableAndUnresolvable) {
					unschedulablePlugins.add(plugin.name);
					return { status, unschedulablePlugins };
				}
				if (status!.code === Code.Unschedulable) {
					unschedulablePlugins.add(plugin.name);
					returnStatus = status;
					continue;
				}
				return { status: Status.asError(`running PreFilter plugin "${plugin.name}": ${status!.message()}`).withPlugin(plugin.name), unschedulablePlugins };
			}
			if (r?.nodeNames) pluginsWithNodes.push(plugin.name);
			result = mergePreFilterResults(result, r);
			if (result?.nodeNames && result.nodeNames.size === 0) {
				const msg = pluginsWithNodes.length === 1 ? `node(s) didn't satisfy plugin ${pluginsWithNodes[0]}` : `node(s) didn't satisfy plugin(s) [${pluginsWithNodes.join(' ')}] simultaneously`;
				return { result, status: new Status(Code.UnschedulableAndUnresolvable, [msg]), unschedulablePlugins: new Set(pluginsWithNodes) };
			}
		}
		for (const name of pluginsWithNodes) unschedulablePlugins.add(name);
		return { result, status: returnStatus, unschedulablePlugins };
	}

	/** RunFilterPlugins: the first rejection ends the node's evaluation; `verdicts` collects each plugin's answer. */
	runFilterPlugins(state: CycleState, pod: Pod, nodeInfo: NodeInfo, verdicts?: FilterVerdict[]): Status | undefined {
		for (const plugin of this.filterPlugins) {
			if (state.skipFilterPlugins.has(plugin.name)) continue;
			let status = plugin.filter(state, pod, nodeInfo);
			if (!isSuccess(status)) {
				if (!isRejected(status)) status = Status.asError(`running "${plugin.name}" filter plugin: ${status!.message()}`);
				status!.withPlugin(plugin.name);
				verdicts?.push({ plugin: plugin.name, code: status!.code, reasons: status!.allReasons() });
				return status;
			}
			verdicts?.push({ plugin: plugin.name, code: Code.Success, reasons: [] });
		}
		return undefined;
	}

	/**
	 * RunFilterPluginsWithNominatedPods: if pods of equal or higher priority
	 * are nominated to this node, the filters run first as if they were
	 * there, and (if that passes) again without them.
	 */
	runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo, verdicts?: FilterVerdict[]): Status | undefined {
		let status: Status | undefined;
		let podsAdded = false;
		for (let i = 0; i < 2; i++) {
			let stateToUse = state;
			let nodeInfoToUse = nodeInfo;
			if (i === 0) {
				const added = this.addGENominatedPods(pod, state, nodeInfo);
				if ('error' in added) return added.error;
				podsAdded = added.podsAdded;
				stateToUse = added.state;
				nodeInfoToUse = added.nodeInfo;
			} else if (!podsAdded || !isSuccess(status)) {
				break;
			}
			if (verdicts) verdicts.length = 0;
			status = this.runFilterPlugins(stateToUse, pod, nodeInfoToUse, verdicts);
			if (!isSuccess(status) && !isRejected(status)) return status;
		}
		return status;
	}

	private addGENominatedPods(pod: Pod, state: CycleState, nodeInfo: NodeInfo): { podsAdded: boolean; state: CycleState; nodeInfo: NodeInfo } | { error: Status } {
		const nominated = this.handle.nominator.nominatedPodsForNode(nodeInfo.name);
		if (nominated.length === 0) return { podsAdded: false, state, nodeInfo };
		let nodeInfoOut: NodeInfo | undefined;
		let stateOut: CycleState | undefined;
		for (const pi of nominated) {
			if (podPriority(pi.pod) >= podPriority(pod) && pi.pod.metadata.uid !== pod.metadata.uid) {
				nodeInfoOut ??= nodeInfo.clone();
				stateOut ??= state.clone();
				nodeInfoOut.addPodInfo(pi);
				const status = this.runPreFilterExtensionAddPod(stateOut, pod, pi, nodeInfoOut);
				if (!isSuccess(status)) return { error: status! };
			}
		}
		if (!nodeInfoOut || !stateOut) return { podsAdded: false, state, nodeInfo };
		return { podsAdded: true, state: stateOut, nodeInfo: nodeInfoOut };
	}

	runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined {
		for (const plugin of this.preFilterPlugins) {
			const ext = plugin.preFilterExtensions?.();
			if (!ext || state.skipFilterPlugins.has(plugin.name)) continue;
			const status = ext.addPod(state, podToSchedule, podInfoToAdd, nodeInfo);
			if (!isSuccess(status)) return Status.asError(`running AddPod on PreFilter plugin "${plugin.name}": ${status!.message()}`);
		}
		return undefined;
	}

	runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined {
		for (const plugin of this.preFilterPlugins) {
			const ext = plugin.preFilterExtensions?.();
			if (!ext || state.skipFilterPlugins.has(plugin.name)) continue;
			const status = ext.removePod(state, podToSchedule, podInfoToRemove, nodeInfo);
			if (!isSuccess(status)) return Status.asError(`running RemovePod on PreFilter plugin "${plugin.name}": ${status!.message()}`);
		}
		return undefined;
	}

	/**
	 * RunPostFilterPlugins: the first success or UnschedulableAndUnresolvable
	 * ends it; otherwise the reasons of all (Unschedulable) plugins are
	 * joined and the first rejector is named.
	 */
	runPostFilterPlugins(state: CycleState, pod: Pod, filteredNodeStatusMap: NodeToStatus): { result?: PostFilterResult; status: Status } {
		let result: PostFilterResult | undefined;
		const reasons: string[] = [];
		let rejector = '';
		for (const plugin of this.postFilterPlugins) {
			const { result: r, status } = plugin.postFilter(state, pod, filteredNodeStatusMap);
			if (isSuccess(status)) return { result: r, status: status ?? new Status(Code.Success) };
			if (status.code === Code.UnschedulableAndUnresolvable) return { result: r, status: status.withPlugin(plugin.name) };
			if (!isRejected(status)) return { status: Status.asError(status.message()).withPlugin(plugin.name) };
			if (r?.nominatingInfo && r.nominatingInfo.mode !== 'Noop') result = r;
			reasons.push(...status.allReasons());
			if (!rejector) rejector = plugin.name;
		}
		return { result, status: new Status(Code.Unschedulable, reasons).withPlugin(rejector) };
	}

	// ---- scoring ---------------------------------------------------------------

	/** RunPreScorePlugins: Skip removes the plugin's Score from this cycle. */
	runPreScorePlugins(state: CycleState, pod: Pod, nodes: NodeInfo[], outcomes?: PluginOutcome[]): Status | undefined {
		state.skipScorePlugins = new Set();
		for (const plugin of this.preScorePlugins) {
			const status = plugin.preScore(state, pod, nodes);
			outcomes?.push({ plugin: plugin.name, code: status?.code ?? Code.Success, message: status?.message() ?? '' });
			if (isSkip(status)) {
				state.skipScorePlugins.add(plugin.name);
				continue;
			}
			if (!isSuccess(status)) return Status.asError(`running PreScore plugin "${plugin.name}": ${status!.message()}`).withPlugin(plugin.name);
		}
		return undefined;
	}

	/**
	 * RunScorePlugins: each plugin scores every node, normalizes, and its
	 * results (which must lie in 0..100) are multiplied by its weight and
	 * summed per node.
	 */
	runScorePlugins(state: CycleState, pod: Pod, nodes: NodeInfo[]): { scores: NodePluginScores[]; details: ScoreDetail[]; status?: Status } {
		const plugins = this.scorePlugins.filter((p) => !state.skipScorePlugins.has(p.name));
		const details: ScoreDetail[] = [];
		const perPlugin: NodeScore[][] = [];
		for (const plugin of plugins) {
			const list: NodeScore[] = [];
			for (const nodeInfo of nodes) {
				const { score, status } = plugin.score(state, pod, nodeInfo);
				if (!isSuccess(status)) return { scores: [], details, status: Status.asError(`plugin "${plugin.name}" failed with: ${status!.message()}`).withPlugin(plugin.name) };
				list.push({ name: nodeInfo.name, score });
			}
			const raw = list.map((s) => s.score);
			const ext = plugin.scoreExtensions?.();
			if (ext) {
				const status = ext.normalizeScore(state, pod, list);
				if (!isSuccess(status)) return { scores: [], details, status: Status.asError(`plugin "${plugin.name}" failed with: ${status!.message()}`).withPlugin(plugin.name) };
			}
			for (const s of list) {
				if (s.score > MAX_NODE_SCORE || s.score < MIN_NODE_SCORE) {
					return { scores: [], details, status: Status.asError(`plugin "${plugin.name}" returns an invalid score ${s.score}, it should in the range of [${MIN_NODE_SCORE}, ${MAX_NODE_SCORE}] after normalizing`) };
				}
			}
			perPlugin.push(list);
			details.push({ plugin: plugin.name, weight: this.scorePluginWeight.get(plugin.name) ?? 1, raw, normalized: list.map((s) => s.score) });
		}
		const scores: NodePluginScores[] = nodes.map((nodeInfo, i) => {
			const entry: NodePluginScores = { name: nodeInfo.name, scores: [], totalScore: 0 };
			plugins.forEach((plugin, j) => {
				const weighted = perPlugin[j][i].score * (this.scorePluginWeight.get(plugin.name) ?? 1);
				entry.scores.push({ name: plugin.name, score: weighted });
				entry.totalScore += weighted;
			});
			return entry;
		});
		return { scores, details };
	}

	// ---- reserve, permit, bind -----------------------------------------------

	runReservePluginsReserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
		for (const plugin of this.reservePlugins) {
			const status = plugin.reserve(state, pod, nodeName);
			if (!isSuccess(status)) {
				if (isRejected(status)) return status!.withPlugin(plugin.name);
				return Status.asError(`running Reserve plugin "${plugin.name}": ${status!.message()}`).withPlugin(plugin.name);
			}
		}
		return undefined;
	}

	/** RunReservePluginsUnreserve: in reverse order. */
	runReservePluginsUnreserve(state: CycleState, pod: Pod, nodeName: string): void {
		for (let i = this.reservePlugins.length - 1; i >= 0; i--) this.reservePlugins[i].unreserve(state, pod, nodeName);
	}

	/** RunPermitPlugins. Waiting is not modelled: a Wait is treated as a rejection (no in-tree plugin waits). */
	runPermitPlugins(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
		for (const plugin of this.permitPlugins) {
			const { status } = plugin.permit(state, pod, nodeName);
			if (!isSuccess(status)) {
				if (isRejected(status)) return status!.withPlugin(plugin.name);
				return Status.asError(`running Permit plugin "${plugin.name}": ${status!.message()}`).withPlugin(plugin.name);
			}
		}
		return undefined;
	}

	runPreBindPlugins(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
		for (const plugin of this.preBindPlugins) {
			const status = plugin.preBind(state, pod, nodeName);
			if (!isSuccess(status)) {
				if (status!.code === Code.UnschedulableAndUnresolvable) return status!.withPlugin(plugin.name);
				return Status.asError(`running PreBind plugin "${plugin.name}": ${status!.message()}`).withPlugin(plugin.name);
			}
		}
		return undefined;
	}

	/** RunBindPlugins: the first plugin that does not Skip binds. */
	runBindPlugins(state: CycleState, pod: Pod, nodeName: string): Status | undefined {
		let status: Status | undefined = new Status(Code.Skip);
		for (const plugin of this.bindPlugins) {
			status = plugin.bind(state, pod, nodeName);
			if (isSkip(status)) continue;
			if (!isSuccess(status)) {
				if (status!.code === Code.UnschedulableAndUnresolvable) return status!.withPlugin(plugin.name);
				return Status.asError(`running Bind plugin "${plugin.name}": ${status!.message()}`).withPlugin(plugin.name);
			}
			return status;
		}
		return status;
	}

	runPostBindPlugins(state: CycleState, pod: Pod, nodeName: string): void {
		for (const plugin of this.postBindPlugins) plugin.postBind(state, pod, nodeName);
	}

	hasFilterPlugins(): boolean {
		return this.filterPlugins.length > 0;
	}

	hasScorePlugins(): boolean {
		return this.scorePlugins.length > 0;
	}

	hasPostFilterPlugins(): boolean {
		return this.postFilterPlugins.length > 0;
	}

	/** A new, empty CycleState (framework.NewCycleState). */
	newCycleState(): CycleState {
		return new CycleState();
	}
}
