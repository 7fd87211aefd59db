/**
 * How the site's search ranks its results, in one place: Starlight passes it
 * to Pagefind in every reader's browser, and the search test
 * (tests/browser/search-chapters.test.ts) ranks with the same weights, so the
 * test finds what a reader finds.
 *
 * These are Starlight's own defaults, written out so they cannot drift
 * between the two. termSimilarity 9 is the one that matters most: a query
 * word matches a longer word ("control" in "controller") at a steep
 * discount, so the page about the control plane outranks the pages that say
 * "controller" fifty times.
 */
export const searchRanking = {
	pageLength: 0.1,
	termFrequency: 0.1,
	termSaturation: 2,
	termSimilarity: 9,
	diacriticSimilarity: 0.8,
} as const;
