import { describe, expect, it } from 'vitest';
import { isUrl, readUrl } from './url-visitor.ts';

describe('kubectl -f URL', () => {
	it('serves the curated upstream manifests under each of their addresses', () => {
		for (const url of [
			'https://k8s.io/examples/application/php-apache.yaml',
			'https://kubernetes.io/examples/application/php-apache.yaml',
			'https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/application/php-apache.yaml',
			'http://k8s.io/examples/application/php-apache.yaml',
		]) {
			const read = readUrl(url);
			expect(read.ok && read.text.includes('image: registry.k8s.io/hpa-example')).toBe(true);
		}
		const components = readUrl('https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml');
		expect(components.ok && components.text).toContain('- --metric-resolution=15s');
		expect(components.ok && components.text).toContain('name: v1beta1.metrics.k8s.io');
		for (const path of ['admin/dns/dnsutils.yaml', 'service/networking/run-my-nginx.yaml', 'service/networking/nginx-svc.yaml', 'application/deployment.yaml', 'application/deployment-update.yaml']) {
			expect(readUrl(`https://k8s.io/examples/${path}`).ok).toBe(true);
		}
	});

	it('answers 404 for another file on those hosts, and a name-resolution failure for any other host', () => {
		expect(readUrl('https://k8s.io/examples/pods/nothing.yaml')).toEqual({ ok: false, error: 'unable to read URL "https://k8s.io/examples/pods/nothing.yaml", server reported 404 Not Found, status code=404' });
		expect(readUrl('https://example.com/app.yaml')).toEqual({ ok: false, error: 'Get "https://example.com/app.yaml": dial tcp: lookup example.com on 127.0.0.53:53: no such host' });
		expect(isUrl('https://k8s.io/x')).toBe(true);
		expect(isUrl('x.yaml')).toBe(false);
	});
});
