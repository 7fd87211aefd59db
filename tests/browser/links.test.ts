import { describe, expect, it } from 'vitest';
import { builtPages, siteUrl } from './harness.ts';

/** href/src values of one page, with the element they came from. */
function references(html: string): string[] {
	const refs: string[] = [];
	for (const match of html.matchAll(/<(a|link|script|img|source|iframe)\b[^>]*?\s(href|src)="([^"]*)"/g)) refs.push(match[3].replace(/&amp;/g, '&'));
	return refs;
}

function ids(html: string): Set<string> {
	return new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
}

describe('internal links', () => {
	it('every internal link and asset of every page resolves, and every #fragment exists', async () => {
		const origin = new URL(siteUrl()).origin;
		const pageCache = new Map<string, { status: number; body: string }>();
		const fetchOnce = async (url: string) => {
			let hit = pageCache.get(url);
			if (!hit) {
				const response = await fetch(url);
				hit = { status: response.status, body: (response.headers.get('content-type') ?? '').includes('text/html') ? await response.text() : '' };
				pageCache.set(url, hit);
			}
			return hit;
		};
		const broken: string[] = [];
		let checked = 0;
		for (const path of builtPages()) {
			const pageUrl = siteUrl(path);
			const { body } = await fetchOnce(pageUrl);
			for (const ref of references(body)) {
				if (/^(mailto:|data:|javascript:)/.test(ref)) continue;
				const target = new URL(ref, pageUrl);
				if (target.origin !== origin) continue;
				checked++;
				const withoutHash = target.href.split('#')[0];
				const hit = await fetchOnce(withoutHash);
				if (hit.status !== 200) {
					broken.push(`${path || '/'} -> ${ref} (${hit.status})`);
					continue;
				}
				if (target.hash && target.hash.length > 1 && !ids(hit.body).has(decodeURIComponent(target.hash.slice(1)))) {
					broken.push(`${path || '/'} -> ${ref} (no element with that id)`);
				}
			}
		}
		expect(checked).toBeGreaterThan(20);
		expect(broken).toEqual([]);
	});
});
