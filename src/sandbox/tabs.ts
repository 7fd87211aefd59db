/**
 * Which tabs a sandbox shows, from the panels its page asks for: the map
 * is drawn beside the tabs, not in one; Tasks only when the scenario has
 * tasks; and wherever the map is drawn, the Inspector too, because the
 * map's legend promises that a click on anything inspects it (a click that
 * opened a tab the page does not have would hide every panel).
 *
 * Pure, so the island and the content tests (a chapter's text names only
 * panels its sandbox has) use the same rule.
 */
import type { PanelName } from '@cluster-anatomy/sim-core';

export function sandboxTabs(panels: readonly PanelName[], taskCount: number): PanelName[] {
	const tabs = panels.filter((p) => p !== 'map' && (p !== 'tasks' || taskCount > 0));
	if (panels.includes('map') && !tabs.includes('inspector')) tabs.push('inspector');
	return tabs;
}
