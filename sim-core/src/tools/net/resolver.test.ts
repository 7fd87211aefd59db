/** The stub resolver's search rule, as glibc applies it inside a Pod (ndots:5) and on a node (ndots:1). */
import { describe, expect, it } from 'vitest';
import { parseResolvConf, searchCandidates } from './resolver.ts';

const POD = 'search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n';

describe('the search list', () => {
	it('tries a short name with every search domain first, and the name as given last', () => {
		expect(searchCandidates('web', parseResolvConf(POD))).toEqual(['web.default.svc.cluster.local.', 'web.svc.cluster.local.', 'web.cluster.local.', 'web.']);
	});
	it('with ndots:5 even example.com goes through the search domains first; a trailing dot skips them', () => {
		expect(searchCandidates('example.com', parseResolvConf(POD))[0]).toBe('example.com.default.svc.cluster.local.');
		expect(searchCandidates('example.com.', parseResolvConf(POD))).toEqual(['example.com.']);
	});
	it("reads resolv.conf's defaults: ndots 1, timeout 5, attempts 2, the loopback without a nameserver line", () => {
		expect(parseResolvConf('')).toEqual({ nameservers: ['127.0.0.1'], search: [], ndots: 1, timeoutS: 5, attempts: 2 });
		expect(searchCandidates('example.com', parseResolvConf('nameserver 1.1.1.1\nsearch lan\n'))).toEqual(['example.com.', 'example.com.lan.']);
	});
});
