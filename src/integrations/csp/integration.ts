/**
 * An Astro integration that, after the build, gives every page a
 * Content-Security-Policy with hashes only (see policy.ts). It runs on the
 * final HTML, so it covers what Astro, Starlight, Expressive Code and our
 * own components write alike.
 */
import type { AstroIntegration } from 'astro';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile, mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attributeStylesheet, securePage } from './policy.ts';

const HREF_PLACEHOLDER = '__CA_ATTRIBUTE_STYLESHEET__';

async function htmlFiles(dir: string): Promise<string[]> {
	const entries = await readdir(dir, { withFileTypes: true, recursive: true });
	return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => join(e.parentPath, e.name));
}

export function strictCsp(): AstroIntegration {
	let base = '/';
	return {
		name: 'cluster-anatomy:strict-csp',
		hooks: {
			'astro:config:done': ({ config }) => {
				base = config.base.endsWith('/') ? config.base : `${config.base}/`;
			},
			'astro:build:done': async ({ dir, logger }) => {
				const root = fileURLToPath(dir);
				const files = await htmlFiles(root);
				const allRules = new Map<string, string>();
				const pages: Array<{ file: string; html: string }> = [];
				for (const file of files) {
					const source = await readFile(file, 'utf8');
					const secured = securePage(source, relative(root, file), { attributeStylesheetHref: HREF_PLACEHOLDER });
					for (const [cls, decl] of secured.styleRules) allRules.set(cls, decl);
					pages.push({ file, html: secured.html });
				}
				const css = attributeStylesheet(allRules);
				const name = `ca-attribute-styles.${createHash('sha256').update(css).digest('hex').slice(0, 8)}.css`;
				await mkdir(join(root, '_astro'), { recursive: true });
				await writeFile(join(root, '_astro', name), css);
				const href = `${base}_astro/${name}`;
				for (const page of pages) await writeFile(page.file, page.html.replaceAll(HREF_PLACEHOLDER, href));
				logger.info(`Content-Security-Policy written to ${pages.length} pages (${allRules.size} style attributes moved to ${name}).`);
			},
		},
	};
}
