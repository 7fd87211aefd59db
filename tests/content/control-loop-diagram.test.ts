/**
 * The control loop in "Start here" is read the way it runs: from the top,
 * observe, then compare, then act, then wait, with only the arrow that
 * closes the loop going back up. The layout engine decides where a cycle
 * starts from the shape of the graph, not from the order of the lines, so
 * this renders the diagram with the site's own renderer and reads the node
 * positions from the SVG.
 */
import { describe, expect, it } from 'vitest';
import { renderDiagram } from '../../src/integrations/mermaid/render.ts';
import { codeBlocks, pagesOf, type Locale } from './book.ts';

/** The loop's steps, in the order a controller runs them. */
const STEPS = ['observe', 'compare', 'act', 'idle'];

/** The vertical position of each node of a rendered diagram (a box's top, the start dot's centre), by its Mermaid id (the renderer prefixes ids with the diagram's own: "d1a2b3c4d5-observe"). */
function nodeTops(svg: string): Map<string, number> {
	const tops = new Map<string, number>();
	for (const match of svg.matchAll(/<g class="node" data-id="d[0-9a-f]+-([^"]+)"[^>]*><(?:rect\b[^>]*?\sy|circle\b[^>]*?\scy)="(-?[\d.]+)"/g)) {
		tops.set(match[1]!, Number(match[2]));
	}
	return tops;
}

async function controlLoop(locale: Locale): Promise<string> {
	const page = pagesOf(locale).find((p) => p.slug === 'start/start-here')!;
	const block = codeBlocks(page.source).find((b) => b.lang === 'mermaid' && /accTitle: (The control loop|控制循环)/.test(b.body));
	expect(block, `${page.file}: the control-loop diagram`).toBeDefined();
	return renderDiagram(block!.body, { file: page.file, line: block!.line });
}

describe('the control-loop diagram', () => {
	for (const locale of ['en', 'zh-cn'] as const) {
		it(`reads top-down in ${locale}: each step of the loop sits below the one before it`, async () => {
			const tops = nodeTops(await controlLoop(locale));
			const ys = STEPS.map((step) => tops.get(step));
			expect(ys.every((y) => y !== undefined), `nodes found: ${[...tops.keys()].join(', ')}`).toBe(true);
			for (let i = 1; i < STEPS.length; i++) {
				expect(ys[i]!, `${STEPS[i]} below ${STEPS[i - 1]}`).toBeGreaterThan(ys[i - 1]!);
			}
			// The start marker comes first of all.
			expect(tops.get('_start')!).toBeLessThan(ys[0]!);
		});
	}
});
