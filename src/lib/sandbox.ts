/**
 * Build-time side of <Sandbox>: checks the component's props, runs the
 * scenario in Node to get its starting view (the picture readers without
 * JavaScript see, and the island's first frame), and picks the `sandbox.*`
 * UI strings the island needs. Anything wrong fails the build with the page
 * and the problem named.
 */
import { PANELS, startScenario, type PanelName } from '@cluster-anatomy/sim-core';
import type { ClusterView } from '../sandbox/protocol.ts';
import { buildView } from '../sandbox/view.ts';
import { loadScenario } from './scenarios.ts';

export type SandboxHeight = 'short' | 'medium' | 'tall';
export const SANDBOX_HEIGHTS: readonly SandboxHeight[] = ['short', 'medium', 'tall'];

/** Panels shown when neither the page nor the scenario says (the inspector opens from the map). */
export const DEFAULT_PANELS: readonly PanelName[] = ['map', 'terminal', 'tasks', 'faults', 'timeline', 'story', 'why', 'yaml', 'inspector'];

export interface SandboxProps {
	scenario: string;
	panels?: PanelName[];
	height?: SandboxHeight;
}

export class SandboxPropsError extends Error {
	constructor(page: string, problem: string) {
		super(`<Sandbox> on ${page}: ${problem}`);
		this.name = 'SandboxPropsError';
	}
}

/** Checks the props an author wrote; returns them with defaults filled in. */
export function checkSandboxProps(props: Record<string, unknown>, page: string): { scenario: string; panels?: PanelName[]; height: SandboxHeight } {
	const known = new Set(['scenario', 'panels', 'height']);
	for (const key of Object.keys(props)) if (!known.has(key)) throw new SandboxPropsError(page, `unknown prop "${key}" (known: scenario, panels, height)`);
	if (typeof props.scenario !== 'string' || !props.scenario) throw new SandboxPropsError(page, 'the "scenario" prop is required: a path under content/scenarios without .yaml, e.g. scenario="start/overview"');
	let panels: PanelName[] | undefined;
	if (props.panels !== undefined) {
		const list = typeof props.panels === 'string' ? props.panels.split(/[\s,]+/).filter(Boolean) : props.panels;
		if (!Array.isArray(list) || !list.length) throw new SandboxPropsError(page, `"panels" must list panels (${PANELS.join(', ')})`);
		for (const p of list) if (!PANELS.includes(p as PanelName)) throw new SandboxPropsError(page, `unknown panel "${String(p)}" in "panels" (known: ${PANELS.join(', ')})`);
		panels = list as PanelName[];
	}
	const height = props.height ?? 'medium';
	if (!SANDBOX_HEIGHTS.includes(height as SandboxHeight)) throw new SandboxPropsError(page, `"height" must be one of ${SANDBOX_HEIGHTS.join(', ')} (got ${JSON.stringify(height)})`);
	return { scenario: props.scenario, panels, height: height as SandboxHeight };
}

const views = new Map<string, ClusterView>();

/** The scenario's starting view, computed once per scenario; a scenario whose setup fails breaks the build. */
export function startingView(id: string): ClusterView {
	let view = views.get(id);
	if (!view) {
		const scenario = loadScenario(id);
		const run = startScenario(scenario);
		if (run.problems.length) throw new Error(`Scenario "${id}" (content/scenarios/${id}.yaml) cannot start:\n  - ${run.problems.join('\n  - ')}`);
		// The same view the worker's session gives before the reader does anything.
		view = buildView(run.cluster, { playing: false, speed: 1, earliestMs: run.startMs, latestMs: run.startMs, tasks: scenario.tasks });
		views.set(id, view);
	}
	return view;
}

/** The `sandbox.*` subset of a locale's UI strings (the island carries no other catalogue). */
export function sandboxStrings(all: Record<string, string>): Record<string, string> {
	return Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith('sandbox.')));
}
