import { describe, expect, it } from 'vitest';
import { builtPages, brokenLinks, siteUrl } from './harness.ts';

describe('internal links', () => {
	it('every internal link and asset of every page resolves, and every #fragment exists', async () => {
		const { broken, checked } = await brokenLinks(builtPages(), (path) => siteUrl(path));
		expect(checked).toBeGreaterThan(20);
		expect(broken).toEqual([]);
	});
});
