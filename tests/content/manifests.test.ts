/**
 * Every Kubernetes manifest a chapter shows can be copied into the sandbox:
 * `kubectl apply` accepts it, with no error and no warning, in the order
 * the page shows them (a later manifest may use the namespace an earlier
 * one created), as a reader following the page would. Fragments (a
 * few fields to look at, no apiVersion and kind) and configuration files
 * read by a component rather than served by the API (kubeconfig,
 * KubeletConfiguration...) are not manifests.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '@cluster-anatomy/sim-core';
import { LOCALES, chaptersOf, codeBlocks } from './book.ts';

/** API groups of files that components read from disk; the API server does not serve them. */
const COMPONENT_CONFIG = /^(v1\s*\n?kind:\s*Config$|kubelet\.config\.k8s\.io|kubeadm\.k8s\.io|apiserver\.config\.k8s\.io|kubescheduler\.config\.k8s\.io|kubeproxy\.config\.k8s\.io|audit\.k8s\.io)/;

interface Manifest {
	where: string;
	text: string;
}

interface PageManifests {
	page: string;
	manifests: Manifest[];
}

function isManifest(body: string): boolean {
	const docs = body.split(/^---\s*$/m).filter((d) => d.trim());
	return docs.length > 0 && docs.every((d) => /^apiVersion:\s*\S+/m.test(d) && /^kind:\s*\S+/m.test(d));
}

function isComponentConfig(body: string): boolean {
	const apiVersion = /^apiVersion:\s*(\S+)/m.exec(body)?.[1] ?? '';
	const kind = /^kind:\s*(\S+)/m.exec(body)?.[1] ?? '';
	return COMPONENT_CONFIG.test(apiVersion) || (apiVersion === 'v1' && kind === 'Config');
}

const pages: PageManifests[] = LOCALES.flatMap((locale) =>
	chaptersOf(locale).map((chapter) => ({
		page: `${locale}/${chapter.slug}.mdx`,
		manifests: codeBlocks(chapter.source)
			.filter((b) => (b.lang === 'yaml' || b.lang === 'yml') && isManifest(b.body) && !isComponentConfig(b.body))
			.map((b) => ({ where: `${locale}/${chapter.slug}.mdx:${b.line}`, text: b.body })),
	})),
).filter((p) => p.manifests.length > 0);

describe('the manifests shown in chapters', () => {
	it('include the ones the chapters are built around', () => {
		// The journey applies a Namespace, a Deployment and a Service; start-here a Deployment.
		expect(pages.map((p) => p.page)).toEqual(expect.arrayContaining(['en/journeys/deployment.mdx', 'zh-cn/journeys/deployment.mdx', 'en/start/start-here.mdx']));
	});

	it.each(pages.map((p) => [p.page, p] as const))('%s: each applies cleanly in the sandbox, in page order', (_page, page) => {
		const cluster = createCluster();
		for (const manifest of page.manifests) {
			const result = cluster.exec('kubectl apply -f -', { stdin: manifest.text });
			expect(result.stderr, manifest.where).toBe('');
			expect(result.exitCode, manifest.where).toBe(0);
			expect(result.stdout, manifest.where).toMatch(/ (created|configured|unchanged)$/m);
			cluster.settle({ maxMs: 30_000 });
		}
	});
});
