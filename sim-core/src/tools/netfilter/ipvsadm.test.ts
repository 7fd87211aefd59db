/**
 * `ipvsadm` on an IPVS-mode node and on a node of another mode. Expected
 * text is written by hand from ipvsadm 1.31's ipvsadm.c: list_all's version
 * line, print_title's two layouts (`%-33s %8s %8s %8s %8s %8s` for
 * --stats), print_service_entry (`%s  %s` protocol and address, `  -> %-28s
 * %-7s %-6d %-10u %-10u`, `%-33s` then print_largenum's `%9llu` columns),
 * and its failure paths (fail(2, ...) when the IPVS channel cannot open,
 * popt's `unknown option`, libipvs' `No such service`).
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext, Host } from '../../shell/types.ts';
import { emptyDataplane } from '../../host/netfilter/dataplane.ts';
import { syncIpvsRules } from '../../network/ipvs/proxier.ts';
import { CLUSTER_CIDR, fixture, NODE_ADDRESSES } from '../../testing/network.ts';
import { createIpvsadm } from './ipvsadm.ts';

function node(mode: 'ipvs' | 'iptables', user = 'root') {
	const dp = emptyDataplane();
	if (mode === 'ipvs') {
		const { servicePorts, endpoints } = fixture();
		syncIpvsRules(dp.ipvs, dp.iptables, servicePorts, endpoints, { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, scheduler: 'rr', nodeAddresses: NODE_ADDRESSES });
	}
	const ipvsadm = createIpvsadm({ dataplane: () => dp, wallMs: () => 0 });
	const run = (line: string) => ipvsadm({ argv: line.split(' '), stdin: '', env: {}, host: { user } as Host, shell: undefined as never } satisfies CommandContext);
	return { dp, run };
}

describe('ipvsadm', () => {
	it('shows one virtual service with -t, without the version line', () => {
		expect(node('ipvs').run('ipvsadm -Ln -t 10.96.12.34:80')).toEqual({
			stdout: [
				'Prot LocalAddress:Port Scheduler Flags',
				'  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
				'TCP  10.96.12.34:80 rr',
				'  -> 10.244.1.2:80                Masq    1      0          0         ',
				'  -> 10.244.1.10:80               Masq    1      0          0         ',
				'  -> 10.244.2.3:80                Masq    1      0          0         ',
				'',
			].join('\n'),
			stderr: '',
			exitCode: 0,
		});
	});

	it('names ports from /etc/services without -n, and the node itself by its host name', () => {
		const dp = emptyDataplane();
		const { servicePorts, endpoints } = fixture();
		syncIpvsRules(dp.ipvs, dp.iptables, servicePorts, endpoints, { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, scheduler: 'rr', nodeAddresses: NODE_ADDRESSES });
		const ipvsadm = createIpvsadm({ dataplane: () => dp, wallMs: () => 0, hostName: (ip) => (ip === '10.244.1.2' ? 'node-1' : undefined) });
		const out = ipvsadm({ argv: ['ipvsadm', '-L', '-t', '10.96.12.34:80'], stdin: '', env: {}, host: { user: 'root' } as Host, shell: undefined as never }).stdout.split('\n');
		// `  -> %-28s %-7s %-6d %-10u %-10u`
		const dest = (name: string) => `  -> ${name.padEnd(28)} Masq    1      0          0         `;
		expect(out.slice(2, 5)).toEqual(['TCP  10.96.12.34:http rr', dest('node-1:http'), dest('10.244.1.10:http')]);
	});

	it('prints the statistics layout with --stats', () => {
		const lines = node('ipvs').run('ipvsadm -Ln --stats').stdout.split('\n');
		expect(lines.slice(0, 8)).toEqual([
			'IP Virtual Server version 1.2.1 (size=4096)',
			'Prot LocalAddress:Port               Conns   InPkts  OutPkts  InBytes OutBytes',
			'  -> RemoteAddress:Port',
			'TCP  10.96.5.5:80                        0        0        0        0        0',
			'TCP  10.96.12.34:80                      0        0        0        0        0',
			'  -> 10.244.1.2:80                       0        0        0        0        0',
			'  -> 10.244.1.10:80                      0        0        0        0        0',
			'  -> 10.244.2.3:80                       0        0        0        0        0',
		]);
	});

	it('lists an empty table on a node whose kube-proxy runs another mode, and loads ip_vs doing so', () => {
		const { dp, run } = node('iptables');
		expect(dp.ipvsModuleLoaded).toBe(false);
		expect(run('ipvsadm -Ln').stdout).toBe('IP Virtual Server version 1.2.1 (size=4096)\nProt LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n');
		expect(dp.ipvsModuleLoaded).toBe(true);
	});

	it.each([
		['ipvsadm -Ln -t 10.96.99.99:80', 'No such service\n', 1],
		['ipvsadm --bogus', '--bogus: unknown option\n', 255],
		['ipvsadm -L extra', 'unexpected argument extra\n', 2],
	])('%s fails as ipvsadm does', (line, stderr, exitCode) => {
		expect(node('ipvs').run(line)).toEqual({ stdout: '', stderr, exitCode });
	});

	it('cannot open the IPVS channel as a user other than root', () => {
		expect(node('ipvs', 'vagrant').run('ipvsadm -Ln')).toEqual({ stdout: '', stderr: "Can't initialize ipvs: Permission denied (you must be root)\nAre you sure that IP Virtual Server is built in the kernel or as module?\n", exitCode: 2 });
	});
});
