/**
 * The DNS chapter's sandbox in Chromium, as its reader uses it: look up a
 * Service name from the busybox 1.28 Pod the chapter talks about and read
 * the answer CoreDNS gave, through the search list, the kube-dns Service
 * and the kubernetes plugin.
 */
import { describe, expect, it } from 'vitest';
import { run, useStartedSandbox } from './sandbox-helpers.ts';

// The chapter's DNS sandbox (the page's second; the first is the HPA walkthrough's).
const s = useStartedSandbox({ path: 'addons/dns/', scenario: 'addons/dns' });

describe('the DNS sandbox', () => {
	it('resolves kubernetes.default from a Pod through CoreDNS, as the debugging steps do', async () => {
		const answer = await run(s.sandbox, 'kubectl exec old -- nslookup kubernetes.default');
		expect(answer).toMatch(/^Server:\s+10\.96\.0\.10$/m);
		expect(answer).toMatch(/^Address 1: 10\.96\.0\.10 kube-dns\.kube-system\.svc\.cluster\.local$/m);
		expect(answer).toMatch(/^Address 1: 10\.96\.0\.1 kubernetes\.default\.svc\.cluster\.local$/m);
		expect(await run(s.sandbox, 'kubectl exec bb -- cat /etc/resolv.conf')).toMatch(/search default\.svc\.cluster\.local svc\.cluster\.local cluster\.local\s+nameserver 10\.96\.0\.10\s+options ndots:5/);
		expect(s.problems).toEqual([]);
	});
});
