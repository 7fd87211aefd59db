/** @jsxImportSource preact */
/**
 * The panels built in ./panels/ (map, inspector, timeline, story, why, YAML
 * editor), found by file name. The map is bundled with the island and
 * rendered on the server (it is the picture readers without JavaScript
 * see); every other panel is fetched the first time it is opened, so the
 * code that loads when the sandbox scrolls into view stays small.
 *
 * The pragma above is for the dev server's dependency scan, which reads
 * this file with esbuild's React default because of its import.meta.glob
 * calls and would otherwise look for react/jsx-dev-runtime.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { PanelId, PanelProps } from './panel-props.ts';

type PanelModule = { default: ComponentType<PanelProps> };

const eager = import.meta.glob<PanelModule>('./panels/ClusterMap.tsx', { eager: true });
const lazy = import.meta.glob<PanelModule>(['./panels/*.tsx', '!./panels/ClusterMap.tsx', '!./panels/*.test.tsx']);

/** Which file holds which panel. */
const FILES: Partial<Record<PanelId, string>> = {
	inspector: './panels/Inspector.tsx',
	timeline: './panels/Timeline.tsx',
	story: './panels/Story.tsx',
	why: './panels/Why.tsx',
	yaml: './panels/YamlEditor.tsx',
};

/** The cluster map, or undefined if it is not built. */
export const ClusterMap: ComponentType<PanelProps> | undefined = eager['./panels/ClusterMap.tsx']?.default;

/** Whether a panel other than the map exists. */
export function hasLazyPanel(id: PanelId): boolean {
	const file = FILES[id];
	return file !== undefined && file in lazy;
}

const loaded = new Map<PanelId, ComponentType<PanelProps>>();

/** A panel fetched on first use; shows `loading` meanwhile and `failed` if its code cannot be fetched. */
export function LazyPanel(props: PanelProps & { id: PanelId; loading: string; failed: string }) {
	const { id, loading, failed, ...panelProps } = props;
	const [Panel, setPanel] = useState<ComponentType<PanelProps> | undefined>(() => loaded.get(id));
	const [error, setError] = useState(false);
	useEffect(() => {
		if (Panel) return;
		const file = FILES[id];
		const load = file ? lazy[file] : undefined;
		if (!load) {
			setError(true);
			return;
		}
		let cancelled = false;
		load().then(
			(module) => {
				loaded.set(id, module.default);
				if (!cancelled) setPanel(() => module.default);
			},
			() => !cancelled && setError(true),
		);
		return () => {
			cancelled = true;
		};
	}, [id]);
	if (Panel) return <Panel {...panelProps} />;
	return <p class="ca-sbx-note">{error ? failed : loading}</p>;
}
