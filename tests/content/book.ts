/**
 * The book as the content tests see it: every page in content/, per locale,
 * with the parts the tests check (sandboxes, diagrams, YAML manifests).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const CONTENT_DIR = join(import.meta.dirname, '../../content');
export const LOCALES = ['en', 'zh-cn'] as const;
export type Locale = (typeof LOCALES)[number];

export interface BookPage {
	locale: Locale;
	/** The page's path under its locale, without extension: 'control-plane/etcd', 'index'. */
	slug: string;
	file: string;
	source: string;
	title: string;
}

export interface CodeBlock {
	lang: string;
	meta: string;
	body: string;
	/** 1-based line of the opening fence, for messages. */
	line: number;
}

function mdxFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, withFileTypes: true })
		.filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
		.map((e) => join(e.parentPath, e.name));
}

/** Every page of one locale, sorted by slug. */
export function pagesOf(locale: Locale): BookPage[] {
	const root = locale === 'en' ? CONTENT_DIR : join(CONTENT_DIR, locale);
	return mdxFiles(root)
		.filter((file) => locale !== 'en' || !relative(CONTENT_DIR, file).startsWith(`zh-cn${sep}`))
		.map((file) => {
			const source = readFileSync(file, 'utf8');
			const slug = relative(root, file).split(sep).join('/').replace(/\.mdx?$/, '');
			const title = /^title:\s*(.+)$/m.exec(source)?.[1]?.replace(/^["']|["']$/g, '') ?? '';
			return { locale, slug, file, source, title };
		})
		.sort((a, b) => a.slug.localeCompare(b.slug));
}

/** The pages that are chapters (everything but the landing page). */
export function chaptersOf(locale: Locale): BookPage[] {
	return pagesOf(locale).filter((p) => p.slug !== 'index');
}

/** Fenced code blocks of a page (``` fences at the start of a line). */
export function codeBlocks(source: string): CodeBlock[] {
	const blocks: CodeBlock[] = [];
	const lines = source.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const open = /^(\s*)(`{3,})(\S*)\s*(.*)$/.exec(lines[i]!);
		if (!open) continue;
		const [, indent, fence, lang, meta] = open;
		const body: string[] = [];
		let j = i + 1;
		for (; j < lines.length; j++) {
			if (lines[j]!.trimStart().startsWith(fence!) && lines[j]!.trim() === fence) break;
			body.push(lines[j]!.startsWith(indent!) ? lines[j]!.slice(indent!.length) : lines[j]!);
		}
		blocks.push({ lang: lang!, meta: meta!, body: body.join('\n'), line: i + 1 });
		i = j;
	}
	return blocks;
}

/** The scenario ids a page embeds with <Sandbox scenario="..." />. */
export function sandboxScenarios(source: string): string[] {
	return [...source.matchAll(/<Sandbox\b[^>]*\bscenario=["']([^"']+)["']/g)].map((m) => m[1]!);
}
