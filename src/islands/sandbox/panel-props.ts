/**
 * What every sandbox panel receives from the sandbox island: the current
 * view of the cluster, a way to ask the simulation worker something, the UI
 * strings of the page's locale, and a way to open another panel (the map
 * opens the inspector on a click, for example).
 */
import type { ClusterView, Locale, Request, Response } from '../../sandbox/protocol.ts';

export type PanelId = 'map' | 'terminal' | 'timeline' | 'story' | 'faults' | 'why' | 'tasks' | 'yaml' | 'inspector';

/** What a click on the map (or a row of a table) asks the inspector to show. */
export interface InspectTarget {
	resource: string;
	namespace?: string;
	name: string;
	/** For the story panel: the origin (`input:7`) whose story to tell (then `resource` is 'story' and `name` the origin). */
	origin?: string;
}

export interface PanelProps {
	view: ClusterView;
	/** Sends a request to the worker; resolves with its answer (an `error` response on failure, never a rejection). */
	request: (request: Request) => Promise<Response>;
	/** UI strings of the page's locale (flat dotted keys, `sandbox.*`), with `{name}` placeholders. */
	t: (key: string, values?: Record<string, string | number>) => string;
	locale: Locale;
	/** What this panel was last opened on with `open(panel, target)` (the inspector's object, the pod of "why", the story's origin). */
	target?: InspectTarget;
	/** Shows a panel, optionally focused on an object. */
	open: (panel: PanelId, target?: InspectTarget) => void;
	/** Whether this sandbox has that panel (a button that would open a missing one is not shown). */
	has: (panel: PanelId) => boolean;
	/** Whether scripts run (false while the page is server-rendered for readers without JavaScript). */
	live: boolean;
}
