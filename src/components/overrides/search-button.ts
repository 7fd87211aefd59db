/**
 * Two fixes to Starlight's search button:
 *
 * - Content-Security-Policy: the keyboard-shortcut hint is hidden until a
 *   script knows the platform's key, with an inline `style`, which a
 *   hash-only policy cannot allow. A class does the same job; the script in
 *   Search.astro removes it.
 * - Accessibility (WCAG 2.5.3, label in name): once the hint shows, the
 *   button's visible text is "Search Ctrl K" while its accessible name is
 *   "Search". The script in Search.astro extends the name with the hint, so
 *   what a voice-control user reads on screen is what they can say.
 *
 * If Starlight's markup changes, this fails the build instead of silently
 * shipping the old problem.
 */
// In `astro dev` elements carry extra attributes (data-astro-source-file...): keep them.
const SHORTCUT_HINT = /<kbd class="([^"]*)" style="display: none;"([^>]*)>/;

export function fixSearchButton(html: string): string {
	if (!SHORTCUT_HINT.test(html)) {
		throw new Error("src/components/overrides/search-button.ts: Starlight's search button markup changed; update fixSearchButton().");
	}
	// Spaces between the label and the keys make the visible text read
	// "Search Ctrl K" rather than "SearchCtrlK" (the button and the hint are
	// flex rows, so the spaces change nothing on screen).
	return html
		.replace(SHORTCUT_HINT, ' <kbd class="$1 ca-shortcut-pending"$2>')
		.replace(/(ca-shortcut-pending"[^>]*>\s*<kbd[^>]*>[^<]*<\/kbd>)(<kbd)/, '$1 $2');
}
