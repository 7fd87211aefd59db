/**
 * Search in the other language. Pagefind keeps one index per page language
 * and searches only the one of the page it runs on, so a Chinese query typed
 * on an English page finds nothing, with nothing to say that the Chinese
 * pages would answer it. These rules decide when the search dialog offers
 * the same query in the other locale, and build the link that does it: the
 * same chapter in that locale, which opens its search with the query
 * (see Search.astro).
 *
 * Mirrors nothing upstream: the site's own search UI.
 */

export type SiteLocale = 'en' | 'zh-cn';

/** The URL parameter that opens the search dialog with a query on arrival. */
export const SEARCH_PARAM = 'search';

const HAN = /\p{Script=Han}/u;

/**
 * Whether to offer the query in the other locale. On an English page, a
 * query with Chinese characters in it: the English index has none of them.
 * On a Chinese page, a query that found nothing (English words the
 * translation does not use), once it is long enough to mean something;
 * `results` counts only results that show a word of the query
 * (`showsQuery`), because the Chinese index, segmenting by character,
 * answers an English word it lacks with pages that merely contain its
 * first letter.
 */
export function offerOtherLocale(locale: SiteLocale, query: string, results: number | undefined): boolean {
	const q = query.trim();
	if (!q) return false;
	if (locale === 'en') return HAN.test(q);
	return results === 0 && q.length >= 2;
}

/** Whether a result's visible text (title and excerpt) contains a whole word of the query, ignoring case. */
export function showsQuery(text: string, query: string): boolean {
	const haystack = text.toLowerCase();
	return query
		.toLowerCase()
		.split(/\s+/)
		.filter(Boolean)
		.some((word) => haystack.includes(word));
}

/** The other locale of the two. */
export function otherLocale(locale: SiteLocale): SiteLocale {
	return locale === 'en' ? 'zh-cn' : 'en';
}

/** The locale a page path belongs to, under the site's base (`/` or `/sub/`). */
export function localeOfPath(pathname: string, base: string): SiteLocale {
	const rest = stripBase(pathname, base);
	return rest === 'zh-cn' || rest.startsWith('zh-cn/') ? 'zh-cn' : 'en';
}

/**
 * The same page in the other locale, opening its search with `query`. Both
 * locales have every chapter (tests/content/chapters.test.ts checks it), so
 * the counterpart exists.
 */
export function otherLocaleSearchUrl(pathname: string, base: string, query: string): string {
	const root = base.endsWith('/') ? base : `${base}/`;
	const rest = stripBase(pathname, base);
	const counterpart = localeOfPath(pathname, base) === 'zh-cn' ? rest.replace(/^zh-cn\/?/, '') : `zh-cn/${rest}`;
	return `${root}${counterpart}?${SEARCH_PARAM}=${encodeURIComponent(query.trim())}`;
}

function stripBase(pathname: string, base: string): string {
	const root = base.endsWith('/') ? base : `${base}/`;
	const path = pathname.startsWith(root) ? pathname.slice(root.length) : pathname.replace(/^\//, '');
	return path;
}
