import { describe, expect, it } from 'vitest';
import { DiagramError, renderDiagram } from '../../src/integrations/mermaid/render.ts';

const at = { file: 'content/example.mdx', line: 10 };

describe('build-time Mermaid diagrams', () => {
	it('renders a flowchart to an inline SVG figure with an accessible title and description', async () => {
		const html = await renderDiagram('flowchart LR\n  accTitle: Request path\n  accDescr: kubectl talks to the API server.\n  a[kubectl] --> b[kube-apiserver]\n', at);
		expect(html.startsWith('<figure class="ca-diagram not-content"><svg')).toBe(true);
		expect(html).toMatch(/role="img" aria-labelledby="(d[0-9a-f]+)-title \1-desc"/);
		expect(html).toContain('<title id="');
		expect(html).toContain('>Request path</title>');
		expect(html).toContain('>kubectl talks to the API server.</desc>');
		expect(html).toContain('kube-apiserver');
	});

	it('leaves no style element, style attribute, outside host or blank line in the SVG', async () => {
		const html = await renderDiagram('flowchart TB\n  accTitle: T\n  accDescr: D\n  subgraph s [Group]\n    a --> b\n  end\n', at);
		expect(html).not.toMatch(/<style|\sstyle=|@import|fonts\.googleapis|\n/);
	});

	it('gives every diagram its own marker ids, so two diagrams on one page do not collide', async () => {
		const one = await renderDiagram('flowchart LR\n  accTitle: One\n  accDescr: D\n  a --> b\n', at);
		const two = await renderDiagram('flowchart LR\n  accTitle: Two\n  accDescr: D\n  a --> c\n', at);
		const ids = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
		expect(ids(one).some((id) => ids(two).includes(id))).toBe(false);
		expect(one).toMatch(/marker-end="url\(#d[0-9a-f]+-arrowhead\)"/);
	});

	it('fails with the file and the line of a syntax error', async () => {
		await expect(renderDiagram('flowchart LR\n  accTitle: T\n  accDescr: D\n  a -->> b[\n', at)).rejects.toThrow(/^content\/example\.mdx:14: Mermaid diagram: Parse error/);
	});

	it('requires an accessible title and description', async () => {
		await expect(renderDiagram('flowchart LR\n  accDescr: D\n  a --> b\n', at)).rejects.toThrow('content/example.mdx:10: Mermaid diagram: add an `accTitle: ...` line');
		await expect(renderDiagram('flowchart LR\n  accTitle: T\n  a --> b\n', at)).rejects.toThrow(DiagramError);
	});

	it('rejects diagram types it cannot draw without a browser', async () => {
		await expect(renderDiagram('pie title Pets\n  "Dogs" : 3\n', at)).rejects.toThrow(/content\/example\.mdx:11: .*not a diagram type this site renders/);
	});

	it('reads a multi-line accDescr block', async () => {
		const html = await renderDiagram('sequenceDiagram\n  accTitle: Hello\n  accDescr {\n    kubectl asks,\n    the server answers.\n  }\n  kubectl->>apiserver: GET /api/v1/pods\n', at);
		expect(html).toContain('>kubectl asks, the server answers.</desc>');
	});
});
