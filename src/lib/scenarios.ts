/**
 * The sandbox scenarios of the book (content/scenarios/**\/*.yaml), read and
 * validated at build time: a scenario with a problem fails the build with
 * its file and the path of each problem in it.
 */
import { parseScenario, type Scenario } from '@cluster-anatomy/sim-core';

const files = import.meta.glob('/content/scenarios/**/*.yaml', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

/** Scenario id (path under content/scenarios, no extension) -> its source text. */
export const scenarioSources: Record<string, string> = Object.fromEntries(
	Object.entries(files).map(([path, text]) => [path.replace(/^\/content\/scenarios\//, '').replace(/\.yaml$/, ''), text]),
);

const cache = new Map<string, Scenario>();

/** The validated scenario `id`; throws with every problem listed. */
export function loadScenario(id: string): Scenario {
	let scenario = cache.get(id);
	if (!scenario) {
		const text = scenarioSources[id];
		if (text === undefined) throw new Error(`No scenario "${id}": expected content/scenarios/${id}.yaml (known: ${Object.keys(scenarioSources).sort().join(', ')})`);
		scenario = parseScenario(text, id);
		cache.set(id, scenario);
	}
	return scenario;
}
