import { describe, expect, it } from 'vitest';
import { attributeStylesheet, CspError, securePage, sha256 } from '../../src/integrations/csp/policy.ts';
import { scanTags } from '../../src/integrations/csp/html-scan.ts';

const options = { attributeStylesheetHref: '/_astro/attrs.css' };

function policyOf(html: string): string {
	return /<meta http-equiv="content-security-policy" content="([^"]*)">/.exec(html)![1];
}

describe('the strict Content-Security-Policy', () => {
	it('hashes every inline script and style, and only those', () => {
		const page = '<html><head><meta charset="utf-8"><script>a()</script><script type="module">b()</script><script type="application/json">{"x":1}</script><script src="/x.js"></script><style>p{}</style></head><body></body></html>';
		const { html } = securePage(page, 'index.html', options);
		const policy = policyOf(html);
		expect(policy).toContain(`script-src 'self' 'wasm-unsafe-eval' ${[sha256('a()'), sha256('b()')].sort().join(' ')}`);
		expect(policy).toContain(`style-src 'self' ${sha256('p{}')}`);
		expect(policy).not.toContain(sha256('{"x":1}'));
		expect(policy).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'unsafe-hashes'/);
	});

	it('puts the policy before every script and style it governs', () => {
		const { html } = securePage('<html><head><meta charset="utf-8"><style>p{}</style></head></html>', 'a.html', options);
		expect(html.indexOf('content-security-policy')).toBeLessThan(html.indexOf('<style>'));
	});

	it('moves style attributes into classes of one stylesheet, keeping existing classes', () => {
		const { html, styleRules } = securePage('<html><head><meta charset="utf-8"></head><body><svg class="icon" style="--size: 1em;"></svg><div style="padding:0"></div></body></html>', 'a.html', options);
		expect(html).not.toContain('style=');
		expect(html).toMatch(/<svg class="icon ca-i-[0-9a-f]{8}">/);
		expect(html).toMatch(/<div class="ca-i-[0-9a-f]{8}">/);
		expect([...styleRules.values()].sort()).toEqual(['--size: 1em', 'padding:0']);
		expect(html).toContain('<link rel="stylesheet" href="/_astro/attrs.css"></head>');
		expect(attributeStylesheet(styleRules)).toMatch(/^\.ca-i-[0-9a-f]{8}\{--size: 1em\}\n\.ca-i-[0-9a-f]{8}\{padding:0\}\n$/);
	});

	it('fails the build on an inline event handler or a javascript: URL', () => {
		expect(() => securePage('<html><head></head><body><button onclick="x()">x</button></body></html>', 'a.html', options)).toThrow(CspError);
		expect(() => securePage('<html><head></head><body><a href="javascript:void(0)">x</a></body></html>', 'b.html', options)).toThrow('b.html: <a href="javascript:..."> cannot run under the policy.');
	});

	it('refuses a page that already has a policy of its own', () => {
		expect(() => securePage('<html><head><meta http-equiv="Content-Security-Policy" content="x"></head></html>', 'c.html', options)).toThrow(/only this integration may write one/);
	});
});

describe('the HTML scanner', () => {
	it('reads quoted attributes with > inside and skips comments and script bodies', () => {
		const tags = scanTags('<!-- <b style="x"> --><a title="1 > 0" href=x>t</a><script>if (a < b) {"<i>"}</script><i>');
		expect(tags.map((t) => t.name)).toEqual(['a', 'script', 'i']);
		expect(tags[0].attributes.map((a) => [a.name, a.value])).toEqual([['title', '1 > 0'], ['href', 'x']]);
		expect(tags[1].rawText!.text).toBe('if (a < b) {"<i>"}');
	});
});
