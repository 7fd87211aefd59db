/**
 * Makes one built HTML page safe under a hash-only Content-Security-Policy:
 *
 * - every inline <script> and <style> is hashed (SHA-256) into the policy;
 * - every inline `style="..."` attribute becomes a class whose rule lives in
 *   one site-wide stylesheet. The rules are unlayered, so, as inline styles
 *   did, they win over Starlight's layered styles, and a script that later
 *   sets `element.style` still wins over them;
 * - inline event handlers and `javascript:` URLs fail the build, since only
 *   'unsafe-inline' or 'unsafe-hashes' could allow them.
 *
 * The one exception to "hashes only" is Pagefind's 'wasm-unsafe-eval': its
 * search index is WebAssembly, which the browser must compile.
 */
import { createHash } from 'node:crypto';
import { scanTags } from './html-scan.ts';

/** Script types the browser executes (and CSP therefore governs). */
const EXECUTABLE_SCRIPT_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript']);

export class CspError extends Error {
	constructor(file: string, message: string) {
		super(`${file}: ${message}`);
		this.name = 'CspError';
	}
}

export function sha256(text: string): string {
	return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The class that carries one inline style's declarations. */
function classForStyle(declarations: string): string {
	return 'ca-i-' + createHash('sha256').update(declarations).digest('hex').slice(0, 8);
}

function normalizeDeclarations(style: string): string {
	return style
		.split(';')
		.map((d) => d.trim())
		.filter(Boolean)
		.join(';');
}

export interface SecuredPage {
	html: string;
	/** class name -> declarations, for the site-wide stylesheet. */
	styleRules: Map<string, string>;
}

export interface PolicyOptions {
	/** URL path of the stylesheet that will hold the converted style attributes. */
	attributeStylesheetHref: string;
}

export function buildPolicy(scriptHashes: Iterable<string>, styleHashes: Iterable<string>): string {
	const scripts = [...new Set(scriptHashes)].sort().join(' ');
	const styles = [...new Set(styleHashes)].sort().join(' ');
	return [
		"default-src 'self'",
		`script-src 'self' 'wasm-unsafe-eval'${scripts ? ' ' + scripts : ''}`,
		`style-src 'self'${styles ? ' ' + styles : ''}`,
		"img-src 'self' data:",
		"font-src 'self'",
		"connect-src 'self'",
		// The sandbox runs its simulation in a Web Worker from this origin.
		"worker-src 'self'",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
	].join('; ');
}

/** Rewrites one page; see the module comment. */
export function securePage(html: string, file: string, options: PolicyOptions): SecuredPage {
	const tags = scanTags(html);
	const styleRules = new Map<string, string>();
	const scriptHashes: string[] = [];
	const styleHashes: string[] = [];
	const edits: Array<{ start: number; end: number; text: string }> = [];
	let headInsertAt = -1;

	for (const tag of tags) {
		if (tag.name === 'meta' && tag.attributes.some((a) => a.name === 'http-equiv' && a.value.toLowerCase() === 'content-security-policy')) {
			throw new CspError(file, 'the page already carries a Content-Security-Policy; only this integration may write one.');
		}
		if (tag.name === 'meta' && tag.attributes.some((a) => a.name === 'charset')) headInsertAt = tag.end;
		if (tag.name === 'head' && headInsertAt === -1) headInsertAt = tag.end;

		for (const attribute of tag.attributes) {
			if (/^on[a-z]+$/.test(attribute.name)) {
				throw new CspError(file, `<${tag.name} ${attribute.name}="..."> is an inline event handler; attach listeners from a script instead.`);
			}
			if ((attribute.name === 'href' || attribute.name === 'src') && /^\s*javascript:/i.test(attribute.value)) {
				throw new CspError(file, `<${tag.name} ${attribute.name}="javascript:..."> cannot run under the policy.`);
			}
		}

		const style = tag.attributes.find((a) => a.name === 'style');
		if (style) {
			const declarations = normalizeDeclarations(style.value);
			const existingClass = tag.attributes.find((a) => a.name === 'class');
			if (declarations) {
				const className = classForStyle(declarations);
				styleRules.set(className, declarations);
				if (existingClass) {
					edits.push({ start: style.start, end: style.end, text: '' });
					edits.push({ start: existingClass.start, end: existingClass.end, text: ` class="${existingClass.value ? existingClass.value + ' ' : ''}${className}"` });
				} else {
					edits.push({ start: style.start, end: style.end, text: ` class="${className}"` });
				}
			} else {
				edits.push({ start: style.start, end: style.end, text: '' });
			}
		}

		if (tag.rawText) {
			const isExternal = tag.attributes.some((a) => a.name === 'src');
			if (tag.name === 'script' && !isExternal) {
				const type = (tag.attributes.find((a) => a.name === 'type')?.value ?? '').trim().toLowerCase();
				if (EXECUTABLE_SCRIPT_TYPES.has(type)) scriptHashes.push(sha256(tag.rawText.text));
			}
			if (tag.name === 'style') styleHashes.push(sha256(tag.rawText.text));
		}
	}

	if (headInsertAt === -1) throw new CspError(file, 'no <head> to put the policy in.');
	const policy = buildPolicy(scriptHashes, styleHashes);
	// The policy must precede every script and style it governs.
	edits.push({ start: headInsertAt, end: headInsertAt, text: `<meta http-equiv="content-security-policy" content="${policy}">` });
	if (styleRules.size) {
		const headEnd = html.indexOf('</head>');
		if (headEnd === -1) throw new CspError(file, 'no </head> to put the attribute stylesheet before.');
		edits.push({ start: headEnd, end: headEnd, text: `<link rel="stylesheet" href="${options.attributeStylesheetHref}">` });
	}

	// Apply edits from the end so earlier offsets stay valid; two insertions
	// at one offset keep their order (the later one is applied first).
	const ordered = edits.map((edit, index) => ({ ...edit, index }));
	ordered.sort((a, b) => b.start - a.start || b.end - a.end || b.index - a.index);
	let out = html;
	for (const edit of ordered) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
	return { html: out, styleRules };
}

/** The stylesheet holding every converted style attribute of the site. */
export function attributeStylesheet(rules: Map<string, string>): string {
	return [...rules].sort(([a], [b]) => a.localeCompare(b)).map(([cls, decl]) => `.${cls}{${decl}}`).join('\n') + '\n';
}
