/**
 * A Sätteri (Astro 7's Markdown processor) plugin: every ```mermaid fence in
 * a Markdown or MDX page becomes an inline SVG figure at build time. An
 * invalid diagram fails the build with the file and line.
 */
import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import type { MdastPluginDefinition } from 'satteri';
import { renderDiagram } from './render.ts';

export function mermaidDiagrams(): MdastPluginDefinition {
	return {
		name: 'cluster-anatomy-mermaid',
		options: { position: true },
		async code(node, ctx) {
			if (node.lang !== 'mermaid') return;
			const file = ctx.fileURL ? relative(process.cwd(), fileURLToPath(ctx.fileURL)) : '<unknown file>';
			const html = await renderDiagram(node.value, { file, line: node.position?.start.line ?? 0 });
			return { raw: html, mdxExpressions: false };
		},
	};
}
