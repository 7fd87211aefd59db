/**
 * Turns one ```mermaid fence into a static, accessible SVG figure at build
 * time, so diagrams cost no JavaScript, show without it and never shift the
 * layout.
 *
 * Two libraries split the work: mermaid's own parser decides whether the
 * source is valid (it is the grammar authors learn from the Mermaid docs),
 * and beautiful-mermaid draws the SVG without a browser. The SVG is then
 * cleaned so that it is safe to inline many times in one page under a strict
 * Content-Security-Policy: no outside font request, no global style rules,
 * no inline style attributes, ids unique per diagram.
 */
import { renderMermaidSVG } from 'beautiful-mermaid';
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';

/** Where a diagram sits in its source file, for error messages. */
export interface DiagramLocation {
	file: string;
	/** 1-based line of the opening fence. */
	line: number;
}

export class DiagramError extends Error {
	constructor(location: DiagramLocation, lineInDiagram: number | undefined, message: string) {
		const line = lineInDiagram === undefined ? location.line : location.line + lineInDiagram;
		super(`${location.file}:${line}: Mermaid diagram: ${message}`);
		this.name = 'DiagramError';
	}
}

/** Diagram types beautiful-mermaid can draw (see ../shared/TOOLCHAIN.md). */
const SUPPORTED_HEADERS = /^(graph|flowchart|sequenceDiagram|stateDiagram(-v2)?|classDiagram|erDiagram|xychart-beta)\b/;

/** SVG presentation attributes that may replace an inline style declaration. */
const PRESENTATION_PROPERTIES = new Set([
	'fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'color', 'opacity',
	'fill-opacity', 'stroke-opacity', 'font-weight', 'font-size', 'font-style',
]);

interface ParseVerdict {
	ok: boolean;
	message?: string;
	/** 1-based line inside the diagram, when the parser knows it. */
	line?: number;
}

let parser: { worker: Worker; pending: Map<number, (v: ParseVerdict) => void>; nextId: number } | undefined;

/** Asks mermaid's real grammar (in a worker, see parse-worker.mjs) whether `source` is valid. */
function parseWithMermaid(source: string): Promise<ParseVerdict> {
	if (!parser) {
		const worker = new Worker(new URL('./parse-worker.mjs', import.meta.url));
		// The build must be able to exit while the worker idles.
		worker.unref();
		const pending = new Map<number, (v: ParseVerdict) => void>();
		worker.on('message', (reply: ParseVerdict & { id: number }) => {
			pending.get(reply.id)?.(reply);
			pending.delete(reply.id);
		});
		worker.on('error', (error) => {
			for (const resolve of pending.values()) resolve({ ok: false, message: `the Mermaid parser failed to start: ${error.message}` });
			pending.clear();
			parser = undefined;
		});
		parser = { worker, pending, nextId: 0 };
	}
	const current = parser;
	const id = current.nextId++;
	return new Promise((resolve) => {
		current.pending.set(id, resolve);
		current.worker.postMessage({ id, source });
	});
}

interface Accessibility {
	title: string;
	description: string;
	/** The source with accTitle/accDescr lines removed (beautiful-mermaid does not know them). */
	body: string;
}

/** Reads `accTitle:` and `accDescr:` (single-line or `accDescr { ... }`). */
function extractAccessibility(source: string, location: DiagramLocation): Accessibility {
	const lines = source.split('\n');
	let title = '';
	let description = '';
	const kept: string[] = [];
	for (let i = 0; i < lines.length; i++) {
		const trimmed = lines[i].trim();
		const titleMatch = /^accTitle\s*:\s*(.+)$/.exec(trimmed);
		const descMatch = /^accDescr\s*:\s*(.+)$/.exec(trimmed);
		if (titleMatch) {
			title = titleMatch[1].trim();
			kept.push('');
		} else if (descMatch) {
			description = descMatch[1].trim();
			kept.push('');
		} else if (/^accDescr\s*\{/.test(trimmed)) {
			const parts: string[] = [trimmed.replace(/^accDescr\s*\{/, '')];
			kept.push('');
			while (!parts[parts.length - 1].includes('}') && i + 1 < lines.length) {
				i++;
				parts.push(lines[i].trim());
				kept.push('');
			}
			description = parts.join(' ').replace(/\}\s*$/, '').trim();
		} else {
			kept.push(lines[i]);
		}
	}
	if (!title) throw new DiagramError(location, undefined, 'add an `accTitle: ...` line; every diagram needs an accessible title.');
	if (!description) throw new DiagramError(location, undefined, 'add an `accDescr: ...` line; every diagram needs an accessible description.');
	return { title, description, body: kept.join('\n') };
}

function escapeXml(text: string): string {
	return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Replaces `style="a: b; c: d"` with presentation attributes, or fails. */
function inlineStylesToAttributes(svg: string, location: DiagramLocation): string {
	return svg.replace(/\sstyle="([^"]*)"/g, (_whole, declarations: string) => {
		const attributes: string[] = [];
		for (const declaration of declarations.split(';')) {
			if (!declaration.trim()) continue;
			const colon = declaration.indexOf(':');
			const property = declaration.slice(0, colon).trim().toLowerCase();
			const value = declaration.slice(colon + 1).trim();
			if (!PRESENTATION_PROPERTIES.has(property)) {
				throw new DiagramError(location, undefined, `the style "${property}" cannot be drawn without an inline style; use fill, stroke, color or font properties.`);
			}
			attributes.push(` ${property}="${escapeXml(value)}"`);
		}
		return attributes.join('');
	});
}

/** The attribute `name` of an element's markup, as a number (NaN when absent). */
function numberAttr(markup: string, name: string): number {
	const m = new RegExp(`\\s${name}="(-?[\\d.]+)"`).exec(markup);
	return m ? Number(m[1]) : Number.NaN;
}

/**
 * Grows the viewBox to cover everything drawn: beautiful-mermaid sometimes
 * sizes it a little short (a subgraph's border or a cylinder's base gets
 * clipped).
 */
function fitViewBox(svg: string): string {
	const viewBox = /viewBox="([\d.\s-]+)"/.exec(svg);
	if (!viewBox) return svg;
	const [x0, y0, w0, h0] = viewBox[1].trim().split(/\s+/).map(Number);
	let maxX = x0 + w0;
	let maxY = y0 + h0;
	for (const [element] of svg.matchAll(/<(rect|ellipse|circle|line|text)\b[^>]*>/g)) {
		const x = numberAttr(element, 'x'), y = numberAttr(element, 'y'), w = numberAttr(element, 'width'), h = numberAttr(element, 'height');
		const cx = numberAttr(element, 'cx'), cy = numberAttr(element, 'cy'), rx = numberAttr(element, 'rx') || numberAttr(element, 'r'), ry = numberAttr(element, 'ry') || numberAttr(element, 'r');
		const x2 = numberAttr(element, 'x2'), y2 = numberAttr(element, 'y2');
		if (!Number.isNaN(x) && !Number.isNaN(w)) maxX = Math.max(maxX, x + w);
		if (!Number.isNaN(y) && !Number.isNaN(h)) maxY = Math.max(maxY, y + h);
		if (!Number.isNaN(cx) && !Number.isNaN(rx)) maxX = Math.max(maxX, cx + rx);
		if (!Number.isNaN(cy) && !Number.isNaN(ry)) maxY = Math.max(maxY, cy + ry);
		if (!Number.isNaN(x2)) maxX = Math.max(maxX, x2);
		if (!Number.isNaN(y2)) maxY = Math.max(maxY, y2);
	}
	const margin = 8;
	const width = Math.ceil(maxX - x0 + (maxX > x0 + w0 ? margin : 0));
	const height = Math.ceil(maxY - y0 + (maxY > y0 + h0 ? margin : 0));
	return svg
		.replace(viewBox[0], `viewBox="${x0} ${y0} ${width} ${height}"`)
		.replace(/^(<svg[^>]*?)\swidth="[\d.]+"/, `$1 width="${width}"`)
		.replace(/^(<svg[^>]*?)\sheight="[\d.]+"/, `$1 height="${height}"`);
}

/** Renders a validated diagram to the HTML that replaces the fence. */
export async function renderDiagram(source: string, location: DiagramLocation): Promise<string> {
	const firstLine = source.split('\n').find((l) => l.trim() && !l.trim().startsWith('%%'))?.trim() ?? '';
	if (!SUPPORTED_HEADERS.test(firstLine)) {
		throw new DiagramError(location, 1, `"${firstLine}" is not a diagram type this site renders at build time (flowchart, sequenceDiagram, stateDiagram-v2, classDiagram, erDiagram, xychart-beta).`);
	}

	const verdict = await parseWithMermaid(source);
	if (!verdict.ok) {
		throw new DiagramError(location, verdict.line, (verdict.message ?? 'invalid diagram').split('\n').join(' | '));
	}
	// beautiful-mermaid does not know accTitle/accDescr; they become <title>
	// and <desc>. Their lines stay, blank, so line numbers still match.
	const { title, description, body } = extractAccessibility(source, location);
	let svg: string;
	try {
		svg = renderMermaidSVG(body, { bg: 'var(--ca-diagram-bg)', fg: 'var(--ca-diagram-fg)', transparent: true });
	} catch (error) {
		throw new DiagramError(location, undefined, (error as Error).message);
	}

	// One id per diagram, stable across builds: derived from the source.
	const id = 'd' + createHash('sha256').update(source).digest('hex').slice(0, 10);
	svg = svg
		// The style element brings an outside font and page-wide rules; the
		// site stylesheet (src/styles/diagrams.css) carries the same variables,
		// scoped to diagrams.
		.replace(/<style>[\s\S]*?<\/style>\s*/, '')
		// The colours arrive through CSS custom properties set by the site.
		.replace(/^<svg([^>]*?)\sstyle="[^"]*"/, '<svg$1')
		// Marker ids repeat in every diagram; make them unique to this one.
		.replace(/id="([^"]+)"/g, `id="${id}-$1"`)
		.replace(/url\(#([^)]+)\)/g, `url(#${id}-$1)`)
		// One line: the figure is spliced back into Markdown, where a blank
		// line ends a raw HTML block and indented lines read as code.
		.replace(/>\s*\n\s*</g, '><')
		.replace(/\s*\n\s*/g, ' ');
	svg = fitViewBox(inlineStylesToAttributes(svg, location));
	if (/@import|https?:\/\/(?!www\.w3\.org)/.test(svg)) {
		throw new DiagramError(location, undefined, 'the rendered SVG refers to another host.');
	}

	const titleId = `${id}-title`;
	const descId = `${id}-desc`;
	svg = svg.replace(
		/^<svg([^>]*)>/,
		`<svg$1 role="img" aria-labelledby="${titleId} ${descId}"><title id="${titleId}">${escapeXml(title)}</title><desc id="${descId}">${escapeXml(description)}</desc>`,
	);
	return `<figure class="ca-diagram not-content">${svg}</figure>`;
}
