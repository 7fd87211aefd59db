/**
 * Makes every Markdown table reachable from the keyboard. Starlight lets a
 * table wider than the page scroll sideways inside itself; a reader without
 * a mouse can only scroll what can take focus, so each table gets
 * `tabindex="0"` (axe's scrollable-region-focusable, WCAG 2.1.1). Which
 * tables overflow depends on the reader's font and window, not on the page,
 * so the rule cannot be met by making today's tables narrower.
 */
import type { HastPluginDefinition } from 'satteri';

export function focusableTables() {
	return (): HastPluginDefinition => ({
		name: 'cluster-anatomy-focusable-tables',
		element: [
			{
				filter: ['table'],
				visit(node, ctx) {
					ctx.setProperty(node, 'tabIndex', 0);
				},
			},
		],
	});
}
