/**
 * A reader who searches for a component by its name finds its chapter near
 * the top, in both languages. Queries go through the built site's own
 * Pagefind index and its JavaScript API, on a page of the reader's language
 * (Pagefind picks the index from the page's `lang`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openWatched, siteUrl } from './harness.ts';
import { searchRanking } from '../../src/search/ranking.ts';

/** How far down the results a chapter may be and still count as found. */
const TOP = 3;

/** What a reader would type to find each chapter: its component's name, or the idea it teaches. */
const QUERIES: Record<string, { en: string[]; 'zh-cn': string[] }> = {
	'start/start-here': { en: ['desired state'], 'zh-cn': ['期望状态'] },
	'start/overview': { en: ['control plane'], 'zh-cn': ['集群全景'] },
	'control-plane/kube-apiserver': { en: ['kube-apiserver', 'admission'], 'zh-cn': ['kube-apiserver', '准入'] },
	'control-plane/etcd': { en: ['etcd'], 'zh-cn': ['etcd'] },
	'control-plane/kube-controller-manager': { en: ['kube-controller-manager', 'garbage collector'], 'zh-cn': ['控制器管理器', '控制器'] },
	'node/kubelet': { en: ['kubelet'], 'zh-cn': ['kubelet'] },
	'node/container-runtime': { en: ['container runtime', 'containerd'], 'zh-cn': ['容器运行时', 'containerd'] },
	'node/cni': { en: ['Pod networking', 'CNI'], 'zh-cn': ['Pod 网络', 'CNI'] },
	'addons/dns': { en: ['ndots', 'Corefile'], 'zh-cn': ['ndots', '搜索列表'] },
	'journeys/deployment': { en: ['journey of a Deployment'], 'zh-cn': ['Deployment 的旅程'] },
	'failures/component-failures': { en: ['component fails'], 'zh-cn': ['组件出故障'] },
	'failures/troubleshooting': { en: ['troubleshooting'], 'zh-cn': ['故障排查'] },
	'reference/glossary': { en: ['glossary'], 'zh-cn': ['术语表'] },
	'reference/metrics-server': { en: ['metrics-server'], 'zh-cn': ['metrics-server'] },
	'reference/workload-controllers': { en: ['workload controllers'], 'zh-cn': ['工作负载控制器'] },
};

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

/** Runs the queries on `page` with the site's Pagefind; returns each query's result paths, best first. */
async function searchAll(page: Page, queries: string[]): Promise<Record<string, string[]>> {
	// Passed as source text: Vitest would otherwise rewrite the dynamic import for Node.
	// Ranked with the site's own weights, as the search dialog ranks them.
	const script = `(async ({ queries, base, ranking }) => {
		const pagefind = await import(new URL('pagefind/pagefind.js', base).href);
		await pagefind.options({ baseUrl: new URL(base).pathname, ranking });
		await pagefind.init();
		const out = {};
		for (const q of queries) {
			const found = await pagefind.search(q);
			const data = await Promise.all(found.results.slice(0, 10).map((r) => r.data()));
			out[q] = data.map((d) => new URL(d.url, base).pathname);
		}
		return out;
	})(${JSON.stringify({ queries, base: siteUrl(''), ranking: searchRanking })})`;
	return page.evaluate(script) as Promise<Record<string, string[]>>;
}

describe.each([
	['en', ''],
	['zh-cn', 'zh-cn/'],
] as const)('searching in %s', (locale, prefix) => {
	it(`finds every chapter within the top ${TOP} results by its component's name`, async () => {
		const { page, problems, context } = await openWatched(browser, prefix);
		const queries = Object.values(QUERIES).flatMap((q) => q[locale]);
		const results = await searchAll(page, queries);
		await context.close();
		const misses: string[] = [];
		for (const [slug, q] of Object.entries(QUERIES)) {
			const expected = new URL(`${prefix}${slug}/`, siteUrl('')).pathname;
			for (const query of q[locale]) {
				const top = results[query]!.slice(0, TOP);
				if (!top.includes(expected)) misses.push(`"${query}" → ${top.join(', ') || 'nothing'} (wanted ${expected})`);
			}
		}
		expect(misses).toEqual([]);
		expect(problems).toEqual([]);
	});
});
