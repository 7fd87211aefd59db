/**
 * The default plugin set of a profile and how a profile's own `plugins`
 * section is merged into it.
 *
 * Upstream's default MultiPoint list, in order, with score weights:
 * SchedulingGates, PrioritySort, NodeUnschedulable, NodeName,
 * TaintToleration (3), NodeAffinity (2), NodePorts, NodeResourcesFit (1),
 * VolumeRestrictions, NodeVolumeLimits, VolumeBinding, VolumeZone,
 * PodTopologySpread (2), InterPodAffinity (2), [DynamicResources,]
 * DefaultPreemption, NodeResourcesBalancedAllocation (1), ImageLocality (1),
 * DefaultBinder. Of the volume and DRA plugins only VolumeBinding is
 * simulated; the others are left out (see ../plugins/registry.ts).
 *
 * Mirrors pkg/scheduler/apis/config/v1/default_plugins.go
 * (getDefaultPlugins, mergePlugins, mergePluginSet).
 */
import { EXTENSION_POINTS, type PluginRef, type PluginSet, type PluginsConfig } from '../framework/runtime.ts';
import { Names } from '../plugins/names.ts';
import { NOT_SIMULATED } from '../plugins/registry.ts';

/** Upstream's default MultiPoint list (default_plugins.go), including the plugins not simulated. */
export const UPSTREAM_DEFAULT_MULTIPOINT: readonly PluginRef[] = [
	{ name: Names.SchedulingGates },
	{ name: Names.PrioritySort },
	{ name: Names.NodeUnschedulable },
	{ name: Names.NodeName },
	{ name: Names.TaintToleration, weight: 3 },
	{ name: Names.NodeAffinity, weight: 2 },
	{ name: Names.NodePorts },
	{ name: Names.NodeResourcesFit, weight: 1 },
	{ name: Names.VolumeRestrictions },
	{ name: Names.NodeVolumeLimits },
	{ name: Names.VolumeBinding },
	{ name: Names.VolumeZone },
	{ name: Names.PodTopologySpread, weight: 2 },
	{ name: Names.InterPodAffinity, weight: 2 },
	// DynamicResources sits here when the DynamicResourceAllocation gate is on (it is, since DRA went GA in v1.34).
	{ name: Names.DynamicResources },
	{ name: Names.DefaultPreemption },
	{ name: Names.NodeResourcesBalancedAllocation, weight: 1 },
	{ name: Names.ImageLocality, weight: 1 },
	{ name: Names.DefaultBinder },
];

function emptyPluginSet(): PluginSet {
	return { enabled: [], disabled: [] };
}

export function emptyPluginsConfig(): PluginsConfig {
	const out = { multiPoint: emptyPluginSet() } as PluginsConfig;
	for (const point of EXTENSION_POINTS) out[point] = emptyPluginSet();
	return out;
}

/** getDefaultPlugins, without the plugins the simulator does not implement. */
export function getDefaultPlugins(): PluginsConfig {
	const plugins = emptyPluginsConfig();
	plugins.multiPoint.enabled = UPSTREAM_DEFAULT_MULTIPOINT.filter((p) => !NOT_SIMULATED.has(p.name)).map((p) => ({ ...p }));
	return plugins;
}

/**
 * mergePluginSet: the custom set's disabled plugins (or `*`) drop defaults;
 * a default the custom set enables again is replaced in place (keeping the
 * default order, taking the custom weight); the remaining custom plugins
 * are appended.
 */
function mergePluginSet(defaults: PluginSet, custom: PluginSet): PluginSet {
	const disabled = [...custom.disabled.map((p) => ({ name: p.name })), ...defaults.disabled.map((p) => ({ name: p.name }))];
	const disabledNames = new Set(disabled.map((p) => p.name));
	const customIndex = new Map<string, number>();
	custom.enabled.forEach((p, i) => customIndex.set(p.name, i));
	const replaced = new Set<number>();
	const enabled: PluginRef[] = [];
	if (!disabledNames.has('*')) {
		for (const def of defaults.enabled) {
			if (disabledNames.has(def.name)) continue;
			const i = customIndex.get(def.name);
			if (i !== undefined) {
				enabled.push({ ...custom.enabled[i] });
				replaced.add(i);
			} else {
				enabled.push({ ...def });
			}
		}
	}
	custom.enabled.forEach((p, i) => {
		if (!replaced.has(i)) enabled.push({ ...p });
	});
	return { enabled, disabled };
}

/** mergePlugins: every extension point (and MultiPoint) merged. */
export function mergePlugins(defaults: PluginsConfig, custom: PluginsConfig | undefined): PluginsConfig {
	if (!custom) return defaults;
	const out = emptyPluginsConfig();
	for (const point of [...EXTENSION_POINTS, 'multiPoint'] as const) out[point] = mergePluginSet(defaults[point], custom[point]);
	return out;
}
