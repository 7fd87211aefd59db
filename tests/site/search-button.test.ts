/**
 * The search-button fix (src/components/overrides/search-button.ts) on
 * Starlight's markup as the build writes it and as `astro dev` writes it
 * (with its data-astro-source-* attributes): the inline style goes, the
 * hint keys get spaces, and markup it does not know fails loudly.
 */
import { describe, expect, it } from 'vitest';
import { fixSearchButton } from '../../src/components/overrides/search-button.ts';

const built = '<span>Search</span><kbd class="sl-hidden md:sl-flex astro-b5kgnn7o" style="display: none;"><kbd class="astro-b5kgnn7o">Ctrl</kbd><kbd class="astro-b5kgnn7o">K</kbd></kbd></button>';
const dev = '<span>Search</span><kbd class="sl-hidden md:sl-flex astro-b5kgnn7o" style="display: none;" data-astro-source-file="/x/Search.astro" data-astro-source-loc="40:3"><kbd class="astro-b5kgnn7o">Ctrl</kbd><kbd class="astro-b5kgnn7o">K</kbd></kbd></button>';

describe('fixSearchButton', () => {
	it('replaces the inline style with a class and spaces the keys (build output)', () => {
		expect(fixSearchButton(built)).toBe('<span>Search</span> <kbd class="sl-hidden md:sl-flex astro-b5kgnn7o ca-shortcut-pending"><kbd class="astro-b5kgnn7o">Ctrl</kbd> <kbd class="astro-b5kgnn7o">K</kbd></kbd></button>');
	});

	it('keeps the dev server’s extra attributes', () => {
		const fixed = fixSearchButton(dev);
		expect(fixed).not.toContain('style=');
		expect(fixed).toContain('ca-shortcut-pending" data-astro-source-file="/x/Search.astro" data-astro-source-loc="40:3">');
		expect(fixed).toContain('>Ctrl</kbd> <kbd');
	});

	it('fails on markup it does not know', () => {
		expect(() => fixSearchButton('<button>Search</button>')).toThrow("Starlight's search button markup changed");
	});
});
