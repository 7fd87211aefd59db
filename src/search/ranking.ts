/**
 * How the site's search ranks its results, in one place: Starlight passes it
 * to Pagefind in every reader's browser, and the search test
 * (tests/browser/search-chapters.test.ts) ranks with the same weights, so the
 * test finds what a reader finds.
 *
 * These are Starlight's own defaults, written out so they cannot drift
 * between the two (Pagefind's raw defaults rank differently). Note that
 * stemming makes "controller" match "control" at full weight, whatever
 * termSimilarity says: a page that must win a query needs the words in its
 * title, as the overview's "control plane" does.
 */
export const searchRanking = {
	pageLength: 0.1,
	termFrequency: 0.1,
	termSaturation: 2,
	termSimilarity: 9,
	diacriticSimilarity: 0.8,
} as const;
