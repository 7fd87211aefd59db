/**
 * `iptables` and `iptables-save` on an iptables-mode node. Expected listings
 * are written by hand from iptables 1.8.10's printf formats
 * (xshared.c print_header and print_rule_details: `%-9s ` target, a `!`/space
 * then `%-4s ` protocol, `-- ` options, `%-19s ` addresses each after a
 * `!`/space; print_ifaces' ` %-6s ` / `%-6s `; xtables_print_num's `%5llu `,
 * `%8llu ` with -x) and the extensions' print functions (libxt_comment
 * ` /* %s *\/`, libxt_tcp ` tcp dpt:`, libxt_statistic `%.11f`, libxt_mark
 * ` mark match !`, libxt_MARK ` MARK xor`, libxt_MASQUERADE ` random-fully`,
 * libxt_addrtype ` ADDRTYPE match dst-type`), and compared with listings
 * from kube-proxy nodes; errors are xtables_error's wording and exit codes
 * (PARAMETER_PROBLEM 2, VERSION_PROBLEM 3, RESOURCE_PROBLEM 4) and
 * xtables-standalone.c's `iptables: %s.` with nft_strerror's ENOENT text.
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext, Host } from '../../shell/types.ts';
import { emptyDataplane } from '../../host/netfilter/dataplane.ts';
import { syncIptablesRules } from '../../network/iptables/proxier.ts';
import { CLUSTER_CIDR, fixture, NODE, NODE_IP } from '../../testing/network.ts';
import { createIptables, createIptablesSave, ctime } from './iptables.ts';

/** 2026-11-30T08:00:00Z, a Monday. */
const WALL = 1_796_025_600_000;

function node(user = 'root') {
	const dp = emptyDataplane();
	const { servicePorts, endpoints } = fixture();
	syncIptablesRules(dp.iptables, servicePorts, endpoints, { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, localhostNodePorts: true, masqueradeAll: false, nodeIp: NODE_IP }, { fullSync: true, changed: new Set() });
	const deps = { dataplane: () => dp, wallMs: () => WALL, hostName: (ip: string) => (ip === NODE_IP ? NODE : undefined) };
	const host = { name: NODE, user } as Host;
	const iptables = createIptables(deps);
	const save = createIptablesSave(deps);
	const run = (line: string) => {
		const argv = line.split(' ');
		const ctx = { argv, stdin: '', env: {}, host, shell: undefined as never } satisfies CommandContext;
		return argv[0] === 'iptables-save' ? save(ctx) : iptables(ctx);
	};
	return { dp, run };
}

describe('iptables -L', () => {
	it('lists a service chain numerically (protocol numbers, as iptables 1.8.10 prints them with -n), with the kernel’s reading of the probabilities', () => {
		const r = node().run('iptables -t nat -L KUBE-SVC-LOLE4ISW44XBNF3G -n');
		expect(r).toEqual({
			stdout: [
				'Chain KUBE-SVC-LOLE4ISW44XBNF3G (1 references)',
				'target     prot opt source               destination         ',
				'KUBE-MARK-MASQ  6    -- !10.244.0.0/16        10.96.12.34          /* default/web cluster IP */ tcp dpt:80',
				'KUBE-SEP-6E6ODH4XAXYJOLUZ  0    --  0.0.0.0/0            0.0.0.0/0            /* default/web -> 10.244.1.10:80 */ statistic mode random probability 0.33333333349',
				'KUBE-SEP-MQ4W7Q2CV67URU6Q  0    --  0.0.0.0/0            0.0.0.0/0            /* default/web -> 10.244.1.2:80 */ statistic mode random probability 0.50000000000',
				'KUBE-SEP-7QE66YRUUVCO6FRM  0    --  0.0.0.0/0            0.0.0.0/0            /* default/web -> 10.244.2.3:80 */',
				'',
			].join('\n'),
			stderr: '',
			exitCode: 0,
		});
	});

	it('names addresses and ports without -n (`anywhere`, `dpt:http`)', () => {
		const r = node().run('iptables -t nat -L KUBE-SERVICES');
		expect(r.stdout.split('\n')).toEqual([
			'Chain KUBE-SERVICES (2 references)',
			'target     prot opt source               destination         ',
			'KUBE-SVC-2262UYG6EQJDKK3I  tcp  --  anywhere             10.96.40.5           /* default/web-np:http cluster IP */ tcp dpt:http',
			'KUBE-SVC-LOLE4ISW44XBNF3G  tcp  --  anywhere             10.96.12.34          /* default/web cluster IP */ tcp dpt:http',
			'KUBE-NODEPORTS  all  --  anywhere             anywhere             /* kubernetes service nodeports; NOTE: this must be the last rule in this chain */ ADDRTYPE match dst-type LOCAL',
			'',
		]);
	});

	it('prints the MARK, RETURN and MASQUERADE words of KUBE-POSTROUTING, with line numbers', () => {
		const r = node().run('iptables -t nat -nL KUBE-POSTROUTING --line-numbers');
		expect(r.stdout.split('\n')).toEqual([
			'Chain KUBE-POSTROUTING (1 references)',
			'num  target     prot opt source               destination         ',
			'1    RETURN     0    --  0.0.0.0/0            0.0.0.0/0            mark match ! 0x4000/0x4000',
			'2    MARK       0    --  0.0.0.0/0            0.0.0.0/0            MARK xor 0x4000',
			'3    MASQUERADE  0    --  0.0.0.0/0            0.0.0.0/0            /* kubernetes service traffic requiring SNAT */ random-fully',
			'',
		]);
	});

	it('adds counters and interfaces with -v, and the policy’s counters on a built-in chain', () => {
		const r = node().run('iptables -t nat -L OUTPUT -n -v');
		expect(r.stdout.split('\n')).toEqual([
			'Chain OUTPUT (policy ACCEPT 0 packets, 0 bytes)',
			' pkts bytes target     prot opt in     out     source               destination         ',
			'    0     0 KUBE-SERVICES  0    --  *      *       0.0.0.0/0            0.0.0.0/0            /* kubernetes service portals */',
			'',
		]);
	});

	it('widens the counter columns with -x (pkts %8s, bytes %10s in the header; %8llu in the rows)', () => {
		const r = node().run('iptables -t nat -L OUTPUT -nvx');
		expect(r.stdout.split('\n').slice(1, 3)).toEqual([
			'    pkts      bytes target     prot opt in     out     source               destination         ',
			'       0        0 KUBE-SERVICES  0    --  *      *       0.0.0.0/0            0.0.0.0/0            /* kubernetes service portals */',
		]);
	});

	it('lists every chain of the filter table by default, built-in chains first and a blank line between chains', () => {
		const out = node().run('iptables -L -n').stdout;
		const headers = out.split('\n').filter((l) => l.startsWith('Chain '));
		expect(headers).toEqual([
			'Chain INPUT (policy ACCEPT)',
			'Chain FORWARD (policy ACCEPT)',
			'Chain OUTPUT (policy ACCEPT)',
			'Chain KUBE-EXTERNAL-SERVICES (2 references)',
			'Chain KUBE-FIREWALL (2 references)',
			'Chain KUBE-FORWARD (1 references)',
			'Chain KUBE-KUBELET-CANARY (0 references)',
			'Chain KUBE-NODEPORTS (1 references)',
			'Chain KUBE-PROXY-FIREWALL (3 references)',
			'Chain KUBE-SERVICES (2 references)',
		]);
		expect(out).toContain('\n\nChain FORWARD (policy ACCEPT)\n');
		expect(out).toContain('REJECT     6    --  0.0.0.0/0            10.96.5.5            /* default/empty has no endpoints */ tcp dpt:80 reject-with icmp-port-unreachable\n');
	});
});

describe('iptables -S', () => {
	it('prints a chain as the commands that make it', () => {
		expect(node().run('iptables -t nat -S KUBE-SEP-7QE66YRUUVCO6FRM').stdout).toBe(
			[
				'-N KUBE-SEP-7QE66YRUUVCO6FRM',
				'-A KUBE-SEP-7QE66YRUUVCO6FRM -s 10.244.2.3/32 -m comment --comment "default/web" -j KUBE-MARK-MASQ',
				'-A KUBE-SEP-7QE66YRUUVCO6FRM -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.2.3:80',
				'',
			].join('\n'),
		);
	});

	it('prints -P for built-in chains, then -N for the others, then all rules', () => {
		// mangle holds only the kubelet's chains (kube-proxy's canary is its process's, not a sync's).
		const lines = node().run('iptables -t mangle -S').stdout.split('\n');
		expect(lines).toEqual(['-P PREROUTING ACCEPT', '-P INPUT ACCEPT', '-P FORWARD ACCEPT', '-P OUTPUT ACCEPT', '-P POSTROUTING ACCEPT', '-N KUBE-IPTABLES-HINT', '-N KUBE-KUBELET-CANARY', '']);
	});
});

describe('iptables-save', () => {
	it('dumps mangle, filter and nat, each between its banner lines', () => {
		const out = node().run('iptables-save').stdout;
		expect(out.split('\n').filter((l) => l.startsWith('#') || l.startsWith('*') || l === 'COMMIT')).toEqual([
			'# Generated by iptables-nft-save v1.8.10 on Mon Nov 30 08:00:00 2026',
			'*mangle',
			'COMMIT',
			'# Completed on Mon Nov 30 08:00:00 2026',
			'# Generated by iptables-nft-save v1.8.10 on Mon Nov 30 08:00:00 2026',
			'*filter',
			'COMMIT',
			'# Completed on Mon Nov 30 08:00:00 2026',
			'# Generated by iptables-nft-save v1.8.10 on Mon Nov 30 08:00:00 2026',
			'*nat',
			'COMMIT',
			'# Completed on Mon Nov 30 08:00:00 2026',
		]);
	});

	it('dumps one table with -t, with counters before each rule with -c', () => {
		const out = node().run('iptables-save -t nat -c').stdout;
		expect(out.startsWith('# Generated by iptables-nft-save v1.8.10 on Mon Nov 30 08:00:00 2026\n*nat\n:PREROUTING ACCEPT [0:0]\n')).toBe(true);
		expect(out).toContain('\n[0:0] -A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000\n');
	});

	it.each([
		[1_796_025_600_000, 'Mon Nov 30 08:00:00 2026'],
		// ctime pads a one-digit day with a space.
		[1_798_790_400_000, 'Fri Jan  1 08:00:00 2027'],
	])('writes the date of %i as ctime does: %s', (ms, text) => {
		expect(ctime(ms)).toBe(text);
	});
});

describe('errors', () => {
	it.each([
		['iptables -L NOPE', '', 'iptables: No chain/target/match by that name.\n', 1],
		['iptables -t nat -L KUBE-SVC-NOPE -n', '', 'iptables: No chain/target/match by that name.\n', 1],
		['iptables -L --bogus', '', "iptables v1.8.10 (nf_tables): unknown option \"--bogus\"\nTry `iptables -h' or 'iptables --help' for more information.\n", 2],
		['iptables -t bogus -L', '', "iptables v1.8.10 (nf_tables): table 'bogus' does not exist\nPerhaps iptables or your kernel needs to be upgraded.\n", 3],
		['iptables -n', '', "iptables v1.8.10 (nf_tables): no command specified\nTry `iptables -h' or 'iptables --help' for more information.\n", 2],
		['iptables -L -S', '', "iptables v1.8.10 (nf_tables): Can't use -S with -L\nTry `iptables -h' or 'iptables --help' for more information.\n", 2],
	])('%s', (line, stdout, stderr, exitCode) => {
		expect(node().run(line)).toEqual({ stdout, stderr, exitCode });
	});

	it('tells a user who is not root that the rule set cannot be read', () => {
		expect(node('vagrant').run('iptables -L')).toEqual({ stdout: '', stderr: 'iptables v1.8.10 (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n', exitCode: 4 });
		expect(node('vagrant').run('iptables-save').exitCode).toBe(4);
	});

	it('lists raw’s empty built-in chains (iptables knows the table) and is empty in other modes', () => {
		expect(node().run('iptables -t raw -S').stdout).toBe('-P PREROUTING ACCEPT\n-P OUTPUT ACCEPT\n');
		const fresh = emptyDataplane();
		const r = createIptables({ dataplane: () => fresh, wallMs: () => WALL })({ argv: ['iptables', '-t', 'nat', '-S'], stdin: '', env: {}, host: { user: 'root' } as Host, shell: undefined as never });
		// Only the kubelet's canary: kube-proxy in ipvs or nftables mode writes nothing here.
		expect(r.stdout).toBe('-P PREROUTING ACCEPT\n-P INPUT ACCEPT\n-P OUTPUT ACCEPT\n-P POSTROUTING ACCEPT\n-N KUBE-KUBELET-CANARY\n');
	});
});
