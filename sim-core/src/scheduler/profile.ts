/**
 * Profiles: one framework per `profiles[].schedulerName`, built from the
 * defaulted configuration and the in-tree registry. As upstream's NewMap
 * checks, every profile needs one QueueSort plugin, the same across
 * profiles, because all profiles share one queue.
 *
 * Mirrors pkg/scheduler/profile/profile.go (NewMap).
 */
import type { Handle, PluginFactory } from './framework/interface.ts';
import { Framework, FrameworkConfigError } from './framework/runtime.ts';
import type { ProfileConfig } from './config/config.ts';
import { ArgsError } from './plugins/args-validation.ts';

export class ProfileError extends Error {
	override name = 'ProfileError';
}

/** NewMap: a framework per profile; throws ProfileError with upstream-shaped messages. */
export function newProfileMap(profiles: ProfileConfig[], registry: Map<string, PluginFactory>, handleFor: (profileName: string) => Handle): Map<string, Framework> {
	const map = new Map<string, Framework>();
	for (const profile of profiles) {
		const handle = handleFor(profile.schedulerName);
		let fw: Framework;
		try {
			fw = new Framework({ profileName: profile.schedulerName, plugins: profile.plugins, pluginArgs: profile.pluginArgs, registry, handle, percentageOfNodesToScore: profile.percentageOfNodesToScore });
		} catch (e) {
			const detail = e instanceof FrameworkConfigError || e instanceof ArgsError ? e.message : e instanceof Error ? e.message : String(e);
			throw new ProfileError(`creating profile for scheduler name ${profile.schedulerName}: ${detail}`);
		}
		handle.framework = fw;
		map.set(profile.schedulerName, fw);
	}
	const sorts = [...map.values()].map((fw) => fw.queueSortPlugins.map((p) => p.name).join(','));
	if (new Set(sorts).size > 1) throw new ProfileError('profiles: queueSort plugins must be the same for all profiles');
	return map;
}
