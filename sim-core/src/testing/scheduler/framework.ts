/**
 * A profile's framework over a test snapshot, as upstream's tests build one
 * with runtime.NewFramework and a fake handle. Test-only helper.
 *
 * Mirrors pkg/scheduler/testing/framework/framework_helpers.go.
 */
import type { ApiRequest } from '../../api/request.ts';
import type { KubeSchedulerConfiguration } from '../../scheduler/config/types.ts';
import type { SchedulerCache } from '../../scheduler/cache/cache.ts';
import { completeConfig } from '../../scheduler/config/config.ts';
import type { Listers } from '../../scheduler/framework/interface.ts';
import type { Framework } from '../../scheduler/framework/runtime.ts';
import type { PodInfo } from '../../scheduler/framework/types.ts';
import { newInTreeRegistry } from '../../scheduler/plugins/registry.ts';
import { newProfileMap } from '../../scheduler/profile.ts';
import { fakeHandle, listersOf } from './wrappers.ts';

export function newTestFramework(cache: SchedulerCache, options: { config?: KubeSchedulerConfiguration; listers?: Listers; nominated?: Record<string, PodInfo[]>; random?: (n: number) => number; requests?: ApiRequest[] } = {}): Framework {
	const config = completeConfig(options.config);
	const map = newProfileMap(config.profiles, newInTreeRegistry(), () => {
		const handle = fakeHandle(cache, options.listers ?? listersOf(), options.nominated ?? {}, options.requests ?? []);
		if (options.random) handle.random = options.random;
		return handle;
	});
	return [...map.values()][0];
}
