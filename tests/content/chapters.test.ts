/**
 * What every chapter promises its reader: the same page in both languages,
 * a live sandbox running a scenario of its own, at least one diagram, an
 * exercise the sandbox checks, and sources for its footnotes.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '@cluster-anatomy/sim-core';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { CONTENT_DIR, LOCALES, chaptersOf, codeBlocks, pagesOf, sandboxScenarios } from './book.ts';

const SCENARIO_DIR = join(CONTENT_DIR, 'scenarios');

function scenarioIds(): string[] {
	return readdirSync(SCENARIO_DIR, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && e.name.endsWith('.yaml'))
		.map((e) => join(e.parentPath, e.name).slice(SCENARIO_DIR.length + 1).replace(/\.yaml$/, ''))
		.sort();
}

describe('the two locales', () => {
	it('have the same pages', () => {
		expect(pagesOf('zh-cn').map((p) => p.slug)).toEqual(pagesOf('en').map((p) => p.slug));
	});

	it('embed the same scenarios on each page', () => {
		const zh = new Map(pagesOf('zh-cn').map((p) => [p.slug, sandboxScenarios(p.source)]));
		for (const page of pagesOf('en')) expect(zh.get(page.slug), page.slug).toEqual(sandboxScenarios(page.source));
	});
});

for (const locale of LOCALES) {
	describe(`every ${locale} chapter`, () => {
		const chapters = chaptersOf(locale);

		it.each(chapters.map((c) => [c.slug, c] as const))('%s has a sandbox with an exercise the sandbox checks', (_slug, chapter) => {
			const ids = sandboxScenarios(chapter.source);
			expect(ids.length, 'no <Sandbox scenario="..." /> on the page').toBeGreaterThan(0);
			expect(chapter.source).toMatch(/^import Sandbox from '~\/components\/Sandbox\.astro';$/m);
			let tasks = 0;
			for (const id of ids) {
				const file = join(SCENARIO_DIR, `${id}.yaml`);
				expect(existsSync(file), `content/scenarios/${id}.yaml`).toBe(true);
				const scenario = parseScenario(readFileSync(file, 'utf8'), id);
				tasks += (scenario.tasks ?? []).filter((t) => t.checks.length > 0).length;
			}
			expect(tasks, 'no task with checks in the page\'s scenarios').toBeGreaterThan(0);
		});

		it.each(chapters.map((c) => [c.slug, c] as const))('%s has a Mermaid diagram with an accessible title and description', (_slug, chapter) => {
			const diagrams = codeBlocks(chapter.source).filter((b) => b.lang === 'mermaid');
			expect(diagrams.length).toBeGreaterThan(0);
			for (const d of diagrams) {
				expect(d.body, `diagram at line ${d.line}`).toMatch(/^\s*accTitle:/m);
				expect(d.body, `diagram at line ${d.line}`).toMatch(/^\s*accDescr:/m);
			}
		});

		it.each(chapters.map((c) => [c.slug, c] as const))('%s defines every footnote it cites, and cites every one it defines', (_slug, chapter) => {
			const defined = new Set([...chapter.source.matchAll(/^\[\^([^\]]+)\]:/gm)].map((m) => m[1]));
			// A definition starts its line; anything else is a citation (even one followed by a colon).
			const cited = new Set([...chapter.source.matchAll(/(?<!^)\[\^([^\]]+)\]/gm)].map((m) => m[1]));
			expect([...cited].filter((c) => !defined.has(c)), 'cited, never defined').toEqual([]);
			expect([...defined].filter((d) => !cited.has(d)), 'defined, never cited').toEqual([]);
		});
	});
}

describe('the scenarios', () => {
	it('are each embedded by some page, so none is left behind', () => {
		const used = new Set(pagesOf('en').flatMap((p) => sandboxScenarios(p.source)));
		expect(scenarioIds().filter((id) => !used.has(id))).toEqual([]);
	});
});
