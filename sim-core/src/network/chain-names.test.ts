/**
 * Chain names as upstream computes them. The KUBE-SVC names of the
 * `kubernetes` and `kube-dns` Services are the ones every kubeadm cluster
 * shows (and countless published iptables-save dumps); the nftables bases
 * are the examples in pkg/proxy/nftables/proxier.go's comments; base32
 * follows the RFC 4648 §10 test vectors.
 */
import { describe, expect, it } from 'vitest';
import { base32, iptablesEndpointChain, iptablesServiceChains, nftEndpointChainBase, nftServiceChainBase, servicePortNameString } from './chain-names.ts';

const bytes = (text: string) => [...text].map((c) => c.charCodeAt(0));

describe('chain names', () => {
	it.each([
		['', ''],
		['f', 'MY======'],
		['fo', 'MZXQ===='],
		['foo', 'MZXW6==='],
		['foob', 'MZXW6YQ='],
		['fooba', 'MZXW6YTB'],
		['foobar', 'MZXW6YTBOI======'],
	])('base32(%j) is %s (RFC 4648 §10)', (input, expected) => {
		expect(base32(bytes(input))).toBe(expected);
	});

	it.each([
		['default', 'kubernetes', 'https', 'tcp', 'KUBE-SVC-NPX46M4PTMTKRN6Y'],
		['kube-system', 'kube-dns', 'dns', 'udp', 'KUBE-SVC-TCOU7JCQXEZGVUNU'],
		['kube-system', 'kube-dns', 'dns-tcp', 'tcp', 'KUBE-SVC-ERIFXISQEP7F7OF4'],
		['kube-system', 'kube-dns', 'metrics', 'tcp', 'KUBE-SVC-JD5MR3NA4I4DYORP'],
	])('names %s/%s:%s (%s) %s, as on every kubeadm cluster', (ns, name, port, protocol, chain) => {
		expect(iptablesServiceChains(servicePortNameString(ns, name, port), protocol).cluster).toBe(chain);
	});

	it('shares the service hash between KUBE-SVC, KUBE-SVL, KUBE-EXT and KUBE-FW', () => {
		expect(iptablesServiceChains('default/kubernetes:https', 'tcp')).toEqual({ cluster: 'KUBE-SVC-NPX46M4PTMTKRN6Y', local: 'KUBE-SVL-NPX46M4PTMTKRN6Y', external: 'KUBE-EXT-NPX46M4PTMTKRN6Y', firewall: 'KUBE-FW-NPX46M4PTMTKRN6Y' });
	});

	it('hashes the endpoint into KUBE-SEP names', () => {
		// sha256("default/webtcp10.244.1.2:80"), base32, 16 characters (Python hashlib/base64).
		expect(iptablesEndpointChain('default/web', 'tcp', '10.244.1.2:80')).toBe('KUBE-SEP-MQ4W7Q2CV67URU6Q');
	});

	it('leaves the port name out of an unnamed port', () => {
		expect(servicePortNameString('default', 'web', '')).toBe('default/web');
		expect(servicePortNameString('default', 'web', 'http')).toBe('default/web:http');
	});

	it('names nftables chains HASH-namespace/name/protocol/port and ...__ip/port, as upstream’s examples', () => {
		expect(nftServiceChainBase('ns1', 'svc1', 'tcp', 'p80')).toBe('ULMVA6XW-ns1/svc1/tcp/p80');
		expect(nftEndpointChainBase('ns1', 'svc1', 'tcp', 'p80', '10.180.0.1:80')).toBe('5OJB2KTY-ns1/svc1/tcp/p80__10.180.0.1/80');
	});
});
