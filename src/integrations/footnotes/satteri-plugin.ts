/**
 * Localizes the GFM footnotes section, which the chapters use for their
 * sources: the processor's footnote strings are global, but a zh-cn page
 * must say "资料来源", not "Footnotes", to sighted and screen-reader users
 * alike. Runs before Starlight's heading-anchor plugin, so the anchor label
 * uses the localized heading too.
 */
import type { HastPluginDefinition, PluginFactoryContext } from 'satteri';

interface FootnoteStrings {
	heading: string;
	backLabel(reference: string): string;
}

const STRINGS: Record<'en' | 'zh-cn', FootnoteStrings> = {
	en: { heading: 'Sources', backLabel: (n) => `Back to reference ${n}` },
	'zh-cn': { heading: '资料来源', backLabel: (n) => `返回引用 ${n}` },
};

/** The locale of a content file, from its path under content/. */
export function localeOfFile(url: URL | undefined): 'en' | 'zh-cn' {
	return url && /\/content\/(docs\/)?zh-cn\//.test(url.pathname) ? 'zh-cn' : 'en';
}

export function localizedFootnotes() {
	return ({ fileURL }: PluginFactoryContext): HastPluginDefinition => {
		const strings = STRINGS[localeOfFile(fileURL)];
		// Footnotes are numbered in order of first back-link; a second
		// reference to the same note reads "1-2", as the default label does.
		const ordinals = new Map<string, number>();
		return {
			name: 'cluster-anatomy-footnotes-i18n',
			element: [
				{
					filter: ['h2'],
					visit(node) {
						if (node.properties?.['id'] !== 'footnote-label') return;
						return { ...node, children: [{ type: 'text', value: strings.heading }] };
					},
				},
				{
					filter: ['a'],
					visit(node, ctx) {
						const props = node.properties ?? {};
						if (!('dataFootnoteBackref' in props) && !('data-footnote-backref' in props)) return;
						const href = String(props['href'] ?? '');
						const rerun = ctx.textContent(node).match(/\d+/)?.[0];
						const base = rerun ? href.replace(new RegExp(`-${rerun}$`), '') : href;
						if (!ordinals.has(base)) ordinals.set(base, ordinals.size + 1);
						const ordinal = ordinals.get(base)!;
						ctx.setProperty(node, 'ariaLabel', strings.backLabel(rerun ? `${ordinal}-${rerun}` : String(ordinal)));
					},
				},
			],
		};
	};
}
