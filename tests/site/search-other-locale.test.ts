/**
 * When the search dialog offers the other locale, and where its link goes
 * (src/search/other-locale.ts), with the site at the root and under a sub-path.
 */
import { describe, expect, it } from 'vitest';
import { localeOfPath, offerOtherLocale, otherLocaleSearchUrl, showsQuery } from '../../src/search/other-locale.ts';

describe('offerOtherLocale', () => {
	it('offers the Chinese pages for a query with Chinese characters on an English page, results or not', () => {
		expect(offerOtherLocale('en', '控制面', 0)).toBe(true);
		expect(offerOtherLocale('en', 'kubelet 心跳', 3)).toBe(true);
		expect(offerOtherLocale('en', '控制面', undefined)).toBe(true);
	});

	it('says nothing for an English query on an English page, or for an empty one', () => {
		expect(offerOtherLocale('en', 'kube-scheduler', 0)).toBe(false);
		expect(offerOtherLocale('en', '   ', 0)).toBe(false);
	});

	it('offers the English pages on a Chinese page only once a query found nothing', () => {
		expect(offerOtherLocale('zh-cn', 'frobnicate', 0)).toBe(true);
		expect(offerOtherLocale('zh-cn', 'kubelet', 4)).toBe(false);
		expect(offerOtherLocale('zh-cn', 'frobnicate', undefined)).toBe(false);
		expect(offerOtherLocale('zh-cn', 'x', 0)).toBe(false);
	});
});

describe('showsQuery', () => {
	it('counts a result that shows a whole word of the query, not one that shows its first letter', () => {
		expect(showsQuery('kube-proxy 与 Service 一个连接的路径 - 链，它用 -m statistic', 'meanwhile')).toBe(false);
		expect(showsQuery('节点 Kubelet 每 10 秒', 'kubelet lease')).toBe(true);
	});
});

describe('otherLocaleSearchUrl', () => {
	it('goes to the same chapter in the other locale with the query', () => {
		expect(otherLocaleSearchUrl('/start/overview/', '/', ' 控制面 ')).toBe('/zh-cn/start/overview/?search=%E6%8E%A7%E5%88%B6%E9%9D%A2');
		expect(otherLocaleSearchUrl('/zh-cn/start/overview/', '/', 'kube proxy')).toBe('/start/overview/?search=kube%20proxy');
	});

	it('keeps the landing pages and a sub-path base', () => {
		expect(otherLocaleSearchUrl('/', '/', 'a&b')).toBe('/zh-cn/?search=a%26b');
		expect(otherLocaleSearchUrl('/zh-cn/', '/', 'etcd')).toBe('/?search=etcd');
		expect(otherLocaleSearchUrl('/docs/node/kubelet/', '/docs/', '节点')).toBe('/docs/zh-cn/node/kubelet/?search=%E8%8A%82%E7%82%B9');
		expect(otherLocaleSearchUrl('/docs/zh-cn/node/kubelet/', '/docs', 'x')).toBe('/docs/node/kubelet/?search=x');
	});

	it('tells the locale of a path', () => {
		expect(localeOfPath('/zh-cn/', '/')).toBe('zh-cn');
		expect(localeOfPath('/zh-cn', '/')).toBe('zh-cn');
		expect(localeOfPath('/zh-cnx/', '/')).toBe('en');
		expect(localeOfPath('/docs/zh-cn/a/', '/docs/')).toBe('zh-cn');
	});
});
