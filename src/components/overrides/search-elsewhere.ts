/**
 * The search dialog's glue for src/search/other-locale.ts: under the results,
 * a line offering the same query in the other locale when that one is where
 * the answers are; and on arrival with `?search=…`, the dialog opened with
 * that query, so the link lands on results rather than on a page to search
 * again.
 *
 * Pagefind's UI is built by Starlight once the page is idle, inside
 * `#starlight__search`; both parts wait for its input to exist.
 *
 * Mirrors nothing upstream: the site's own search UI.
 */
import { localeOfPath, offerOtherLocale, otherLocaleSearchUrl, SEARCH_PARAM, showsQuery } from '../../search/other-locale.ts';

const BASE = import.meta.env.BASE_URL;

/** Resolves with the Pagefind search input once Starlight has built the UI. */
function searchInput(): Promise<HTMLInputElement> {
	const find = () => document.querySelector<HTMLInputElement>('#starlight__search input.pagefind-ui__search-input');
	return new Promise((resolve) => {
		const found = find();
		if (found) return resolve(found);
		const observer = new MutationObserver(() => {
			const input = find();
			if (!input) return;
			observer.disconnect();
			resolve(input);
		});
		observer.observe(document.body, { childList: true, subtree: true });
	});
}

/** How many results the UI shows that contain a word of the query, or undefined while it is still searching. */
function resultCount(container: Element, query: string): number | undefined {
	if (container.querySelector('.pagefind-ui__loading, .pagefind-ui__result--loading')) return undefined;
	if (!container.querySelector('.pagefind-ui__message')) return undefined;
	return [...container.querySelectorAll<HTMLElement>('.pagefind-ui__result')].filter((r) => showsQuery(r.textContent ?? '', query)).length;
}

export function offerSearchElsewhere(): void {
	const line = document.querySelector<HTMLElement>('.ca-search-elsewhere');
	if (!line) return;
	const locale = localeOfPath(location.pathname, BASE);
	void searchInput().then((input) => {
		const container = document.getElementById('starlight__search')!;
		container.after(line);
		const update = () => {
			const query = input.value;
			if (!offerOtherLocale(locale, query, resultCount(container, query))) {
				line.hidden = true;
				return;
			}
			const link = document.createElement('a');
			link.href = otherLocaleSearchUrl(location.pathname, BASE, query);
			link.hreflang = locale === 'en' ? 'zh-CN' : 'en';
			link.textContent = (line.dataset.link ?? '').replace('{query}', query.trim());
			// Chinese sets no space between sentences.
			const gap = locale === 'zh-cn' ? '' : ' ';
			line.replaceChildren(`${line.dataset.hint ?? ''}${gap}`, link);
			line.hidden = false;
		};
		input.addEventListener('input', update);
		// The result count changes after the input does: Pagefind answers asynchronously.
		new MutationObserver(update).observe(container, { childList: true, subtree: true });
	});
}

export function openSearchFromUrl(): void {
	const url = new URL(location.href);
	const query = url.searchParams.get(SEARCH_PARAM);
	if (!query) return;
	// Once used, the parameter goes: a reload or a shared copy of the address is the page itself.
	url.searchParams.delete(SEARCH_PARAM);
	history.replaceState(history.state, '', url);
	void searchInput().then((input) => {
		document.querySelector<HTMLButtonElement>('site-search button[data-open-modal]')?.click();
		input.value = query;
		input.dispatchEvent(new Event('input', { bubbles: true }));
		input.focus();
	});
}
