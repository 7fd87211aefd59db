import { describe, expect, it } from 'vitest';
import type { KubeSchedulerConfiguration } from './types.ts';
import type { Framework } from '../framework/runtime.ts';
import type { NodeResourcesFit } from '../plugins/node-resources-fit.ts';
import { newInTreeRegistry } from '../plugins/registry.ts';
import { newProfileMap } from '../profile.ts';
import { fakeHandle, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { completeConfig } from './config.ts';
import { UPSTREAM_DEFAULT_MULTIPOINT } from './default-plugins.ts';

function frameworks(config?: KubeSchedulerConfiguration): Map<string, Framework> {
	return newProfileMap(completeConfig(config).profiles, newInTreeRegistry(), () => fakeHandle(snapshotOf([])));
}
const names = (list: Array<{ name: string }>) => list.map((p) => p.name);
const weights = (fw: Framework) => fw.scorePlugins.map((p) => `${p.name}:${fw.scorePluginWeight.get(p.name)}`);

describe('the default profile', () => {
	const fw = frameworks().get('default-scheduler')!;

	it('lists upstream v1.36 default plugins in MultiPoint order with their weights', () => {
		expect(UPSTREAM_DEFAULT_MULTIPOINT.map((p) => (p.weight ? `${p.name}:${p.weight}` : p.name))).toEqual([
			'SchedulingGates',
			'PrioritySort',
			'NodeUnschedulable',
			'NodeName',
			'TaintToleration:3',
			'NodeAffinity:2',
			'NodePorts',
			'NodeResourcesFit:1',
			'VolumeRestrictions',
			'NodeVolumeLimits',
			'VolumeBinding',
			'VolumeZone',
			'PodTopologySpread:2',
			'InterPodAffinity:2',
			'DynamicResources',
			'DefaultPreemption',
			'NodeResourcesBalancedAllocation:1',
			'ImageLocality:1',
			'DefaultBinder',
		]);
	});

	it.each([
		['preEnqueue', ['SchedulingGates']],
		['queueSort', ['PrioritySort']],
		['preFilter', ['NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeBinding', 'PodTopologySpread', 'InterPodAffinity']],
		['filter', ['NodeUnschedulable', 'NodeName', 'TaintToleration', 'NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeBinding', 'PodTopologySpread', 'InterPodAffinity']],
		['postFilter', ['DefaultPreemption']],
		['preScore', ['TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'PodTopologySpread', 'InterPodAffinity', 'NodeResourcesBalancedAllocation']],
		['score', ['TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'PodTopologySpread', 'InterPodAffinity', 'NodeResourcesBalancedAllocation', 'ImageLocality']],
		['bind', ['DefaultBinder']],
		['reserve', []],
		['permit', []],
		['preBind', ['VolumeBinding']],
		['postBind', []],
	])('expands MultiPoint into %s: %j', (point, expected) => {
		const lists: Record<string, Array<{ name: string }>> = {
			preEnqueue: fw.preEnqueuePlugins,
			queueSort: fw.queueSortPlugins,
			preFilter: fw.preFilterPlugins,
			filter: fw.filterPlugins,
			postFilter: fw.postFilterPlugins,
			preScore: fw.preScorePlugins,
			score: fw.scorePlugins,
			bind: fw.bindPlugins,
			reserve: fw.reservePlugins,
			permit: fw.permitPlugins,
			preBind: fw.preBindPlugins,
			postBind: fw.postBindPlugins,
		};
		expect(names(lists[point])).toEqual(expected);
	});

	it('weights the score plugins TaintToleration 3, NodeAffinity 2, PodTopologySpread 2, InterPodAffinity 2, the rest 1', () => {
		expect(weights(fw)).toEqual(['TaintToleration:3', 'NodeAffinity:2', 'NodeResourcesFit:1', 'PodTopologySpread:2', 'InterPodAffinity:2', 'NodeResourcesBalancedAllocation:1', 'ImageLocality:1']);
	});

	it('has the upstream defaults for the knobs', () => {
		const c = completeConfig(undefined);
		expect({ parallelism: c.parallelism, percentageOfNodesToScore: c.percentageOfNodesToScore, podInitialBackoffMs: c.podInitialBackoffMs, podMaxBackoffMs: c.podMaxBackoffMs }).toEqual({ parallelism: 16, percentageOfNodesToScore: 0, podInitialBackoffMs: 1000, podMaxBackoffMs: 10_000 });
		expect(c.leaderElection).toEqual({ leaderElect: true, leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000, resourceName: 'kube-scheduler', resourceNamespace: 'kube-system' });
		expect(c.profiles.map((p) => p.schedulerName)).toEqual(['default-scheduler']);
		expect(c.warnings[0]).toContain('VolumeRestrictions, NodeVolumeLimits, VolumeZone, DynamicResources');
	});
});

describe('customizing a profile', () => {
	it('disables a default plugin at one extension point', () => {
		const fw = frameworks({ profiles: [{ plugins: { score: { disabled: [{ name: 'ImageLocality' }] } } }] }).get('default-scheduler')!;
		expect(names(fw.scorePlugins)).not.toContain('ImageLocality');
		expect(names(fw.filterPlugins)).toContain('NodeResourcesFit');
	});

	it('re-weights a plugin at the Score point; it moves first, as an override of MultiPoint', () => {
		const fw = frameworks({ profiles: [{ plugins: { score: { enabled: [{ name: 'NodeResourcesFit', weight: 5 }] } } }] }).get('default-scheduler')!;
		expect(weights(fw)).toEqual(['NodeResourcesFit:5', 'TaintToleration:3', 'NodeAffinity:2', 'PodTopologySpread:2', 'InterPodAffinity:2', 'NodeResourcesBalancedAllocation:1', 'ImageLocality:1']);
	});

	it('re-weights a plugin in MultiPoint in place', () => {
		const fw = frameworks({ profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'ImageLocality', weight: 10 }] } } }] }).get('default-scheduler')!;
		expect(weights(fw).at(-1)).toBe('ImageLocality:10');
	});

	it('disables every default with * and enables its own list', () => {
		const fw = frameworks({
			profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'PrioritySort' }, { name: 'NodeResourcesFit' }, { name: 'DefaultBinder' }], disabled: [{ name: '*' }] } } }],
		}).get('default-scheduler')!;
		expect(names(fw.filterPlugins)).toEqual(['NodeResourcesFit']);
		expect(weights(fw)).toEqual(['NodeResourcesFit:1']);
	});

	it('passes pluginConfig args to the plugin (NodeResourcesFit MostAllocated)', () => {
		const fw = frameworks({ profiles: [{ pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }] }] }).get('default-scheduler')!;
		expect((fw.pluginsMap.get('NodeResourcesFit') as NodeResourcesFit).args.scoringStrategy).toEqual({ type: 'MostAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] });
	});

	it('serves several profiles, each with its own plugins and percentage', () => {
		const map = frameworks({ profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'no-scoring', percentageOfNodesToScore: 50, plugins: { score: { disabled: [{ name: '*' }] } } }] });
		expect([...map.keys()]).toEqual(['default-scheduler', 'no-scoring']);
		expect(map.get('no-scoring')!.scorePlugins).toEqual([]);
		expect(map.get('no-scoring')!.percentageOfNodesToScore).toBe(50);
	});

	it('leaves out, with a warning, a plugin the simulator does not implement', () => {
		const c = completeConfig({ profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'VolumeZone' }] } } }] });
		expect(c.warnings).toContain('profile "default-scheduler": plugin VolumeZone is not simulated and was left out of multiPoint');
		expect(c.profiles[0].plugins.multiPoint.enabled.map((p) => p.name)).not.toContain('VolumeZone');
	});
});

describe('rejecting a bad configuration', () => {
	it.each([
		{ name: 'percentageOfNodesToScore above 100', config: { percentageOfNodesToScore: 101 }, error: 'percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]' },
		{ name: 'a max back-off below the initial one', config: { podInitialBackoffSeconds: 5, podMaxBackoffSeconds: 2 }, error: 'podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds' },
		{ name: 'two profiles with one name', config: { profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] }, error: 'profiles[1].schedulerName: Duplicate value: "a"' },
		{ name: 'an unknown extension point', config: { profiles: [{ plugins: { scoring: { enabled: [] } } }] }, error: 'profiles[default-scheduler].plugins: unknown field "scoring"' },
		{ name: 'a bad leaseDuration', config: { leaderElection: { leaseDuration: '15' } }, error: 'leaderElection.leaseDuration: time: missing unit in duration "15"' },
	] as Array<{ name: string; config: KubeSchedulerConfiguration; error: string }>)('$name', ({ config, error }) => {
		expect(() => completeConfig(config)).toThrow(error);
	});

	it.each([
		{ name: 'an unknown plugin', config: { profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'MyPlugin' }] } } }] }, error: 'creating profile for scheduler name default-scheduler: PreFilterPlugin "MyPlugin" does not exist' },
		{ name: 'a plugin at a point it does not extend', config: { profiles: [{ plugins: { bind: { enabled: [{ name: 'ImageLocality' }] } } }] }, error: 'creating profile for scheduler name default-scheduler: plugin "ImageLocality" does not extend BindPlugin plugin' },
		{ name: 'bad plugin args', config: { profiles: [{ pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'Biggest' } } }] }] }, error: 'initializing plugin "NodeResourcesFit": scoringStrategy.type: Unsupported value: "Biggest": supported values: "LeastAllocated", "MostAllocated", "RequestedToCapacityRatio"' },
		{ name: 'no queue sort plugin', config: { profiles: [{ plugins: { queueSort: { disabled: [{ name: '*' }] } } }] }, error: 'one queue sort plugin required for profile with scheduler name "default-scheduler"' },
	] as Array<{ name: string; config: KubeSchedulerConfiguration; error: string }>)('$name', ({ config, error }) => {
		expect(() => frameworks(config)).toThrow(error);
	});
});
