/**
 * A chapter's text names only panels its sandbox shows ("open the Story
 * panel" on a page whose sandbox has no Story tab sends the reader looking
 * for nothing), and names them as the sandbox labels them in that locale.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScenario, type PanelName } from '@cluster-anatomy/sim-core';
import en from '../../src/content/i18n/en.json' with { type: 'json' };
import zh from '../../src/content/i18n/zh-CN.json' with { type: 'json' };
import { DEFAULT_PANELS } from '../../src/lib/sandbox.ts';
import { sandboxTabs } from '../../src/sandbox/tabs.ts';
import { CONTENT_DIR, LOCALES, pagesOf } from './book.ts';

const PANEL_NAMES: PanelName[] = ['map', 'terminal', 'tasks', 'faults', 'timeline', 'story', 'why', 'yaml', 'inspector'];
const labels = (catalogue: Record<string, string>) => new Map(PANEL_NAMES.map((p) => [catalogue[`sandbox.tab.${p}`]!, p]));
const LABELS = { en: labels(en), 'zh-cn': labels(zh) };

/** The panels each <Sandbox> of a page shows (its `panels` prop, else its scenario's, else all), with the tabs rule applied. */
function pagePanels(source: string): Set<PanelName> {
	const shown = new Set<PanelName>();
	for (const match of source.matchAll(/<Sandbox\b([^>]*)\/>/g)) {
		const attrs = match[1]!;
		const id = /\bscenario=["']([^"']+)["']/.exec(attrs)![1]!;
		const scenario = parseScenario(readFileSync(join(CONTENT_DIR, 'scenarios', `${id}.yaml`), 'utf8'), id);
		const prop = /\bpanels=["']([^"']+)["']/.exec(attrs)?.[1]?.split(/\s+/) as PanelName[] | undefined;
		const panels = prop ?? scenario.panels ?? [...DEFAULT_PANELS];
		if (panels.includes('map')) shown.add('map');
		for (const tab of sandboxTabs(panels, scenario.tasks?.length ?? 0)) shown.add(tab);
	}
	return shown;
}

/** Panels the text sends the reader to: "the Story panel", "the Faults tab"; “请求经过”面板, 故障面板 (and quoted names that are no label). */
function panelsNamed(source: string, locale: 'en' | 'zh-cn'): Array<{ label: string; panel?: PanelName }> {
	const prose = source.replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
	const found: Array<{ label: string; panel?: PanelName }> = [];
	if (locale === 'en') {
		for (const m of prose.matchAll(/\b([A-Z][A-Za-z]*) (?:panel|tab)\b/g)) found.push({ label: m[1]!, panel: LABELS.en.get(m[1]!) });
		return found;
	}
	for (const [label, panel] of LABELS['zh-cn']) {
		for (const _ of prose.matchAll(new RegExp(`${label}[”"]?(?:面板|标签页)`, 'g'))) found.push({ label, panel });
	}
	for (const m of prose.matchAll(/[“"]([^”"]{1,8})[”"](?:面板|标签页)/g)) if (!LABELS['zh-cn'].has(m[1]!)) found.push({ label: m[1]! });
	return found;
}

for (const locale of LOCALES) {
	describe(`${locale} pages`, () => {
		it.each(pagesOf(locale).map((p) => [p.slug, p] as const))('%s names only panels its sandbox shows, by their labels', (_slug, page) => {
			const shown = pagePanels(page.source);
			if (!shown.size) return;
			const named = panelsNamed(page.source, locale);
			expect(named.filter((n) => !n.panel).map((n) => n.label), 'names no sandbox panel has').toEqual([]);
			expect(named.filter((n) => n.panel && !shown.has(n.panel)).map((n) => n.label), 'panels this page\'s sandbox lacks').toEqual([]);
		});
	});
}

describe('the tabs rule', () => {
	it('adds the Inspector wherever the map is drawn, and Tasks only with tasks', () => {
		expect(sandboxTabs(['terminal', 'map', 'tasks'], 2)).toEqual(['terminal', 'tasks', 'inspector']);
		expect(sandboxTabs(['terminal', 'map', 'tasks'], 0)).toEqual(['terminal', 'inspector']);
		expect(sandboxTabs(['terminal', 'faults'], 1)).toEqual(['terminal', 'faults']);
	});
});
