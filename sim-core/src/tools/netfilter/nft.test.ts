/**
 * `nft list ...` on an nftables-mode node. The layouts are nft 1.0.9's
 * (src/rule.c table_print, chain_print_declaration, set_print_declaration:
 * tabs, `type ... hook ... priority ...; policy accept;`), the errors
 * src/erec.c's (`Error: ...`, the command echoed, `^` under the offending
 * word) with src/cmd.c's "did you mean" suggestion (src/misspell.c), and
 * a non-root user's failure is the cache's netlink error.
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext, Host } from '../../shell/types.ts';
import { emptyDataplane } from '../../host/netfilter/dataplane.ts';
import { emptyNftMemory, newKubeProxyTable, syncNftablesRules } from '../../network/nftables/proxier.ts';
import { CLUSTER_CIDR, fixture, NODE_IP } from '../../testing/network.ts';
import { createNft } from './nft.ts';

function node(mode: 'nftables' | 'iptables', user = 'root') {
	const dp = emptyDataplane();
	if (mode === 'nftables') {
		const { servicePorts, endpoints } = fixture();
		const config = { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, nodePortIPs: [NODE_IP], nodeIp: NODE_IP, serviceCIDRs: ['10.96.0.0/12'] };
		const v4 = newKubeProxyTable('ip');
		syncNftablesRules(v4, servicePorts, endpoints, config, emptyNftMemory(), { fullSync: true, changed: new Set(), nowMs: 0 });
		dp.nftables = [v4, newKubeProxyTable('ip6')];
	}
	const nft = createNft({ dataplane: () => dp, wallMs: () => 0 });
	const run = (line: string) => nft({ argv: line.split(' '), stdin: '', env: {}, host: { user } as Host, shell: undefined as never } satisfies CommandContext);
	return { dp, run };
}

describe('nft list', () => {
	it('lists the tables kube-proxy made', () => {
		expect(node('nftables').run('nft list tables')).toEqual({ stdout: 'table ip kube-proxy\ntable ip6 kube-proxy\n', stderr: '', exitCode: 0 });
	});

	it('lists one chain inside its table', () => {
		expect(node('nftables').run('nft list chain ip kube-proxy services').stdout).toBe(
			[
				'table ip kube-proxy {',
				'\tchain services {',
				'\t\tip daddr . meta l4proto . th dport vmap @service-ips',
				'\t\tip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports',
				'\t}',
				'}',
				'',
			].join('\n'),
		);
	});

	it('lists a map with one element to a line, continuation lines under the first element', () => {
		expect(node('nftables').run('nft list map ip kube-proxy service-ips').stdout).toBe(
			[
				'table ip kube-proxy {',
				'\tmap service-ips {',
				'\t\ttype ipv4_addr . inet_proto . inet_service : verdict',
				'\t\tcomment "ClusterIP, ExternalIP and LoadBalancer IP traffic"',
				'\t\telements = { 10.96.12.34 . tcp . 80 : goto service-PFISGYVC-default/web/tcp/,',
				'\t\t\t     10.96.40.5 . tcp . 80 : goto service-4OLDCMEK-default/web-np/tcp/http }',
				'\t}',
				'}',
				'',
			].join('\n'),
		);
	});

	it('lists the ruleset as every table in turn, and `list table kube-proxy` defaults to family ip', () => {
		const { run } = node('nftables');
		const v4 = run('nft list table kube-proxy').stdout;
		expect(v4.startsWith('table ip kube-proxy {\n\tcomment "rules for kube-proxy"\n')).toBe(true);
		expect(run('nft list ruleset').stdout.startsWith(v4)).toBe(true);
		expect(run('nft list ruleset').stdout).toContain('\ntable ip6 kube-proxy {\n');
	});

	it('prints nothing for the ruleset of a node whose kube-proxy runs another mode', () => {
		expect(node('iptables').run('nft list ruleset')).toEqual({ stdout: '', stderr: '', exitCode: 0 });
	});
});

describe('nft errors', () => {
	it.each([
		['nft list table ip kube-prox', 'Error: No such file or directory; did you mean table ‘kube-proxy’ in family ip?\nlist table ip kube-prox\n              ^^^^^^^^^\n'],
		['nft list table ip nat', 'Error: No such file or directory\nlist table ip nat\n              ^^^\n'],
		['nft list chain ip kube-proxy nope', 'Error: No such file or directory\nlist chain ip kube-proxy nope\n                         ^^^^\n'],
		['nft lst ruleset', 'Error: syntax error, unexpected string\nlst ruleset\n^^^\n'],
	])('%s', (line, stderr) => {
		expect(node('nftables').run(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('fails to fill its cache as a user other than root', () => {
		expect(node('nftables', 'vagrant').run('nft list ruleset')).toEqual({ stdout: '', stderr: 'netlink: Error: cache initialization failed: Operation not permitted\n', exitCode: 1 });
	});
});
