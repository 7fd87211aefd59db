/**
 * etcdctl and etcdutl against a simulated member. Expected outputs are
 * written by hand from etcd v3.6.10's printers and messages
 * (etcdctl/ctlv3/command/printer*.go, ep_command.go, snapshot_command.go,
 * client/v3/retry_interceptor.go, pkg/flags/flag.go, pkg/cobrautl) and
 * from the shapes in etcdctl/README.md; random values come from a stream
 * fixed at 0.5 so they can be computed by hand:
 * - log timestamps' microseconds: floor(0.5 × 1000) = 500;
 * - gRPC target pointer: 0xc000100000 + floor(0.5 × 0x1c000) × 64 = 0xc000480000;
 * - `took` of a health check: (1 + 0.5 × 11) ms = 6.5ms.
 */
import { describe, expect, it } from 'vitest';
import { MvccStore } from '../../store/mvcc.ts';
import { MemoryFs } from '../../host/fs.ts';
import { ShellSession } from '../../shell/session.ts';
import type { Host } from '../../shell/types.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { createApiHarness } from '../../testing/api-harness.ts';
import { createEtcdctl } from './etcdctl.ts';
import { createEtcdutl } from './etcdutl.ts';
import { clusterId, memberId } from './ids.ts';
import { kubeadmEtcdMember } from './kubeadm.ts';
import type { EtcdMemberFacts, EtcdctlDeps } from './types.ts';

const START = parseRfc3339('2026-11-30T08:00:00Z');
const PKI = '/etc/kubernetes/pki/etcd';
const TLS = `--cacert ${PKI}/ca.crt --cert ${PKI}/healthcheck-client.crt --key ${PKI}/healthcheck-client.key`;
const MEMBER = memberId(['https://192.168.56.10:2380']);
const CLUSTER = clusterId([MEMBER]);
const dec = (hex: string) => BigInt('0x' + hex).toString(10);

interface Fixture {
	shell: ShellSession;
	store: MvccStore;
	waited: number[];
	notified: () => number;
	setUp: (up: boolean) => void;
}

/** A kubeadm-like control plane: etcd on `control-plane`, its PKI files there, a worker and a workstation. */
function fixture(options: { store?: MvccStore; facts?: Partial<EtcdMemberFacts> } = {}): Fixture {
	const store = options.store ?? MvccStore.empty();
	const cp: Host = { name: 'control-plane', kind: 'node', user: 'root', home: '/root', fs: new MemoryFs(), commands: new Map() };
	const worker: Host = { name: 'node-1', kind: 'node', user: 'root', home: '/root', fs: new MemoryFs(), commands: new Map() };
	const ws: Host = { name: 'workstation', kind: 'workstation', user: 'user', home: '/home/user', fs: new MemoryFs(), commands: new Map() };
	for (const host of [cp, worker]) {
		host.fs.mkdir(PKI, true);
		for (const file of ['ca.crt', 'healthcheck-client.crt', 'healthcheck-client.key']) host.fs.writeFile(`${PKI}/${file}`, '-----BEGIN CERTIFICATE-----\n');
		host.fs.writeFile('/etc/kubernetes/pki/ca.crt', '-----BEGIN CERTIFICATE-----\n');
	}
	let wall = START;
	let up = true;
	let notifications = 0;
	const waited: number[] = [];
	const deps: EtcdctlDeps = {
		store: () => (up ? store : undefined),
		members: () => [{
			name: 'control-plane',
			memberId: MEMBER,
			clusterId: CLUSTER,
			peerUrls: ['https://192.168.56.10:2380'],
			clientUrls: ['https://192.168.56.10:2379'],
			listenClientUrls: ['https://127.0.0.1:2379', 'https://192.168.56.10:2379'],
			nodeName: 'control-plane',
			version: '3.6.10',
			raftTerm: 2,
			isLeader: true,
			...options.facts,
		}],
		notify: () => notifications++,
		wallMs: () => wall,
		random: () => 0.5,
		elapse: (ms) => {
			waited.push(ms);
			wall += ms;
		},
	};
	const etcdctl = createEtcdctl(deps);
	for (const host of [cp, worker]) {
		host.commands.set('etcdctl', etcdctl);
		host.commands.set('etcdutl', createEtcdutl());
	}
	const shell = new ShellSession([ws, cp, worker]);
	shell.exec('ssh control-plane');
	return { shell, store, waited, notified: () => notifications, setUp: (v) => (up = v) };
}

/** The retry interceptor's warning for a connection that never became ready. */
function deadlineWarning(ts: string, endpoint: string, method: string, desc: string, logger = 'etcd-client'): string {
	return (
		`{"level":"warn","ts":"${ts}","logger":"${logger}","caller":"v3/retry_interceptor.go:68","msg":"retrying of unary invoker failed",` +
		`"target":"etcd-endpoints://0xc000480000/${endpoint}","peer":"Peer{Addr: <nil>, LocalAddr: <nil>, AuthInfo: <nil>}","method":"${method}","attempt":0,` +
		`"error":"rpc error: code = DeadlineExceeded desc = latest balancer error: connection error: desc = \\"${desc}\\""}\n`
	);
}

describe('etcd member and cluster IDs', () => {
	it('derive the IDs a default single-member etcd reports', () => {
		// `etcd` with defaults (http://localhost:2380, token etcd-cluster) always shows member 8e9e05c52164694d in cluster cdf818194e3a8c32.
		expect(memberId(['http://localhost:2380'])).toBe('8e9e05c52164694d');
		expect(clusterId(['8e9e05c52164694d'])).toBe('cdf818194e3a8c32');
	});
});

describe('the member kubeadm creates', () => {
	it('is named after the node, with peer URL :2380, client URL :2379 and loopback listening', () => {
		expect(kubeadmEtcdMember('control-plane', '192.168.56.10')).toEqual({
			name: 'control-plane',
			memberId: memberId(['https://192.168.56.10:2380'], 'etcd-cluster'),
			clusterId: clusterId([memberId(['https://192.168.56.10:2380'])]),
			peerUrls: ['https://192.168.56.10:2380'],
			clientUrls: ['https://192.168.56.10:2379'],
			listenClientUrls: ['https://127.0.0.1:2379', 'https://192.168.56.10:2379'],
			nodeName: 'control-plane',
			version: '3.6.10',
			raftTerm: 2,
			isLeader: true,
		});
	});
});

describe('etcdctl without the client certificates kubeadm requires', () => {
	it('waits out the 5s command timeout and prints the retry warning and context deadline exceeded', () => {
		const f = fixture();
		const r = f.shell.exec('etcdctl get /registry/pods --prefix --keys-only');
		expect(r.stdout).toBe('');
		expect(r.stderr).toBe(deadlineWarning('2026-11-30T08:00:05.000500Z', '127.0.0.1:2379', '/etcdserverpb.KV/Range', 'error reading server preface: EOF') + 'Error: context deadline exceeded\n');
		expect(r.exitCode).toBe(1);
		expect(f.waited).toEqual([5000]);
	});

	it('warns that ETCDCTL_API is an unrecognized variable in 3.6, then behaves the same', () => {
		const f = fixture();
		const r = f.shell.exec('ETCDCTL_API=3 etcdctl get foo');
		expect(r.stderr.split('\n')[0]).toBe('{"level":"warn","ts":"2026-11-30T08:00:00.000500Z","caller":"flags/flag.go:94","msg":"unrecognized environment variable","environment-variable":"ETCDCTL_API=3"}');
		expect(r.stderr.endsWith('Error: context deadline exceeded\n')).toBe(true);
	});

	it.each([
		['https without --cacert: the etcd CA is not in the system roots', '--endpoints=https://127.0.0.1:2379 get foo', 'transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority'],
		['the cluster CA instead of the etcd CA', `--cacert /etc/kubernetes/pki/ca.crt --cert ${PKI}/healthcheck-client.crt --key ${PKI}/healthcheck-client.key get foo`, 'transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority'],
		['the CA but no client certificate: TLS 1.3 certificate_required alert', `--cacert ${PKI}/ca.crt get foo`, 'error reading server preface: remote error: tls: certificate required'],
		['--cacert with http:// drops TLS', `--endpoints=http://127.0.0.1:2379 ${TLS} get foo`, 'error reading server preface: EOF'],
	])('%s', (_name, args, desc) => {
		const f = fixture();
		const r = f.shell.exec(`etcdctl ${args}`);
		const endpoint = args.includes('--endpoints=') ? /--endpoints=(\S+)/.exec(args)![1].replace(/^\w+:\/\//, '') : '127.0.0.1:2379';
		expect(r.stderr).toBe(deadlineWarning('2026-11-30T08:00:05.000500Z', endpoint, '/etcdserverpb.KV/Range', desc) + 'Error: context deadline exceeded\n');
		expect(r.exitCode).toBe(1);
	});

	it.each([
		['a certificate file that does not exist', '--cacert /nope/ca.crt get foo', 'Error: open /nope/ca.crt: no such file or directory\n'],
		['--cert without --key', `--cert ${PKI}/healthcheck-client.crt get foo`, `Error: KeyFile and CertFile must both be present[key: , cert: ${PKI}/healthcheck-client.crt]\n`],
		['an empty --cacert', '--cacert= get foo', 'Error: empty string is passed to --cacert option\n'],
	])('exits 128 before dialing for %s', (_name, args, stderr) => {
		const r = fixture().shell.exec(`etcdctl ${args}`);
		expect(r).toMatchObject({ stdout: '', stderr, exitCode: 128 });
	});
});

describe('etcdctl with the member reachable', () => {
	function seeded(): Fixture {
		const store = MvccStore.empty();
		store.put('foo', 'bar'); // revision 2
		return fixture({ store });
	}

	it('gets a key in the simple, json and fields formats', () => {
		const f = seeded();
		expect(f.shell.exec(`etcdctl ${TLS} get foo`).stdout).toBe('foo\nbar\n');
		expect(f.shell.exec(`etcdctl ${TLS} get foo --print-value-only`).stdout).toBe('bar\n');
		// []byte fields are base64 ("foo" → Zm9v, "bar" → YmFy), IDs are decimal uint64s, zero fields omitted.
		expect(f.shell.exec(`etcdctl ${TLS} get foo -w json`).stdout).toBe(
			`{"header":{"cluster_id":${dec(CLUSTER)},"member_id":${dec(MEMBER)},"revision":2,"raft_term":2},"kvs":[{"key":"Zm9v","create_revision":2,"mod_revision":2,"version":1,"value":"YmFy"}],"count":1}\n`,
		);
		expect(f.shell.exec(`etcdctl ${TLS} get foo -w fields`).stdout).toBe(
			`"ClusterID" : ${dec(CLUSTER)}\n"MemberID" : ${dec(MEMBER)}\n"Revision" : 2\n"RaftTerm" : 2\n` +
				`"Key" : "foo"\n"CreateRevision" : 2\n"ModRevision" : 2\n"Version" : 1\n"Value" : "bar"\n"Lease" : 0\n"More" : false\n"Count" : 1\n`,
		);
	});

	it('reads the endpoints and TLS files from ETCDCTL_* variables', () => {
		const f = seeded();
		const r = f.shell.exec(`ETCDCTL_ENDPOINTS=https://127.0.0.1:2379 ETCDCTL_CACERT=${PKI}/ca.crt ETCDCTL_CERT=${PKI}/healthcheck-client.crt ETCDCTL_KEY=${PKI}/healthcheck-client.key etcdctl get foo`);
		expect(r).toMatchObject({ stdout: 'foo\nbar\n', stderr: '', exitCode: 0 });
	});

	it('prints keys with blank value lines for --keys-only, sorted, and honours --limit with More', () => {
		const f = seeded();
		f.store.put('/registry/pods/default/web-2', '{}');
		f.store.put('/registry/pods/default/web-1', '{}');
		expect(f.shell.exec(`etcdctl ${TLS} get /registry/pods --prefix --keys-only`).stdout).toBe('/registry/pods/default/web-1\n\n/registry/pods/default/web-2\n\n');
		const json = JSON.parse(f.shell.exec(`etcdctl ${TLS} get /registry/pods --prefix --keys-only --limit 1 -w json`).stdout);
		expect(json.more).toBe(true);
		expect(json.count).toBe(2);
		expect(json.kvs).toHaveLength(1);
	});

	it('rejects formats and flag combinations as etcdctl does', () => {
		const f = seeded();
		expect(f.shell.exec(`etcdctl ${TLS} get foo -w table`)).toMatchObject({ stderr: 'Error: table not supported as output format\n', exitCode: 4 });
		expect(f.shell.exec(`etcdctl ${TLS} get foo -w yaml`)).toMatchObject({ stderr: 'Error: unsupported output format\n', exitCode: 4 });
		expect(f.shell.exec(`etcdctl ${TLS} get foo --count-only`)).toMatchObject({ stderr: 'Error: --count-only is only for `--write-out=fields`\n', exitCode: 128 });
		expect(f.shell.exec(`etcdctl ${TLS} get`)).toMatchObject({ stderr: 'Error: get command needs one argument as key and an optional argument as range_end\n', exitCode: 128 });
		expect(f.shell.exec(`etcdctl ${TLS} get a --prefix --from-key`)).toMatchObject({ stderr: 'Error: `--prefix` and `--from-key` cannot be set at the same time, choose one\n', exitCode: 128 });
	});

	it('puts and deletes, telling the member about each write', () => {
		const f = seeded();
		expect(f.shell.exec(`etcdctl ${TLS} put greeting hello`)).toMatchObject({ stdout: 'OK\n', exitCode: 0 });
		expect(f.shell.exec(`etcdctl ${TLS} get greeting --print-value-only`).stdout).toBe('hello\n');
		expect(f.shell.exec(`echo -n piped | etcdctl ${TLS} put from-stdin`).stdout).toBe('OK\n');
		expect(f.store.range('from-stdin').kvs[0].value).toBe('piped');
		expect(f.shell.exec(`etcdctl ${TLS} del greeting --prev-kv`).stdout).toBe('1\ngreeting\nhello\n');
		expect(f.shell.exec(`etcdctl ${TLS} del nothing-here`).stdout).toBe('0\n');
		expect(f.notified()).toBe(3);
	});

	it('fails a write over quota with the NOSPACE wording, after the interceptor warning', () => {
		const store = MvccStore.empty(200);
		const f = fixture({ store });
		const r = f.shell.exec(`etcdctl ${TLS} put big ${'x'.repeat(300)}`);
		const warning = JSON.parse(r.stderr.split('\n')[0]);
		expect(warning).toMatchObject({ level: 'warn', msg: 'retrying of unary invoker failed', method: '/etcdserverpb.KV/Put', error: 'rpc error: code = ResourceExhausted desc = etcdserver: mvcc: database space exceeded' });
		expect(warning.peer).toMatch(/^Peer\{Addr: '127\.0\.0\.1:2379', LocalAddr: '127\.0\.0\.1:\d+', AuthInfo: 'tls'\}$/);
		expect(r.stderr.split('\n')[1]).toBe('Error: etcdserver: mvcc: database space exceeded');
		expect(r.exitCode).toBe(1);
		// The alarm stays until disarmed; `alarm list` prints the member ID in decimal, proto text style.
		expect(f.shell.exec(`etcdctl ${TLS} alarm list`).stdout).toBe(`memberID:${dec(MEMBER)} alarm:NOSPACE \n`);
		expect(f.shell.exec(`etcdctl ${TLS} endpoint health`)).toMatchObject({ stderr: '127.0.0.1:2379 is unhealthy: failed to commit proposal: Active Alarm(s): NOSPACE \nError: unhealthy cluster\n', exitCode: 1 });
		expect(f.shell.exec(`etcdctl ${TLS} alarm disarm`).stdout).toBe(`memberID:${dec(MEMBER)} alarm:NOSPACE \n`);
		expect(f.shell.exec(`etcdctl ${TLS} alarm list`).stdout).toBe('');
	});

	it('warns and waits 2 seconds before deleting a key range without --range', () => {
		const f = seeded();
		f.store.put('fob', 'x');
		const r = f.shell.exec(`etcdctl ${TLS} del foa foz`);
		expect(r.stderr).toBe('Warning: Keys between "foa" and "foz" will be deleted. Please interrupt the command within next 2 seconds to cancel. You can provide `--range` flag to avoid the delay.\n');
		expect(r.stdout).toBe('2\n');
		expect(f.waited).toEqual([2000]);
	});

	it('defragments, shrinking the backend to what is in use', () => {
		const f = seeded();
		f.store.put('foo', 'baz');
		f.store.compact(3);
		expect(f.store.state.sizeBytes).toBeGreaterThan(f.store.state.sizeInUseBytes);
		// took = (20 + 0.5 × 100) ms.
		expect(f.shell.exec(`etcdctl ${TLS} defrag`).stdout).toBe('Finished defragmenting etcd member[127.0.0.1:2379]. took 70ms\n');
		expect(f.store.state.sizeBytes).toBe(f.store.state.sizeInUseBytes);
	});

	it('compacts, then refuses reads of compacted revisions', () => {
		const f = seeded();
		f.store.put('foo', 'baz'); // revision 3
		f.store.put('foo', 'qux'); // revision 4
		expect(f.shell.exec(`etcdctl ${TLS} get foo --rev 2 --print-value-only`).stdout).toBe('bar\n');
		expect(f.shell.exec(`etcdctl ${TLS} compaction 3`).stdout).toBe('compacted revision 3\n');
		const r = f.shell.exec(`etcdctl ${TLS} get foo --rev 2`);
		expect(r.stderr.split('\n')[1]).toBe('Error: etcdserver: mvcc: required revision has been compacted');
		expect(JSON.parse(r.stderr.split('\n')[0]).error).toBe('rpc error: code = OutOfRange desc = etcdserver: mvcc: required revision has been compacted');
		expect(f.shell.exec(`etcdctl ${TLS} compaction 3`).stderr.split('\n')[1]).toBe('Error: etcdserver: mvcc: required revision has been compacted');
		expect(f.shell.exec(`etcdctl ${TLS} compaction abc`)).toMatchObject({ stderr: 'Error: strconv.ParseInt: parsing "abc": invalid syntax\n', exitCode: 1 });
	});

	it('replays history from --rev with watch, one event per revision', () => {
		const f = seeded();
		f.store.put('foo', 'baz'); // 3
		f.store.delete('foo'); // 4
		expect(f.shell.exec(`etcdctl ${TLS} watch foo --rev 2`).stdout).toBe('PUT\nfoo\nbar\nPUT\nfoo\nbaz\nDELETE\nfoo\n\n');
		expect(f.shell.exec(`etcdctl ${TLS} watch foo`).stdout).toBe('');
	});

	it('reports endpoint health, status and membership in each format', () => {
		const f = seeded();
		expect(f.shell.exec(`etcdctl ${TLS} endpoint health`).stdout).toBe('127.0.0.1:2379 is healthy: successfully committed proposal: took = 6.5ms\n');
		expect(f.shell.exec(`etcdctl ${TLS} endpoint health -w json`).stdout).toBe('[{"endpoint":"127.0.0.1:2379","health":true,"took":"6.5ms"}]\n');
		expect(f.shell.exec(`etcdctl ${TLS} endpoint health --cluster`).stdout).toBe('https://192.168.56.10:2379 is healthy: successfully committed proposal: took = 6.5ms\n');
		// One put of foo=bar: 70 bytes, one 4 KiB page on a 20 kB fresh file = 24576 B (25 kB); raft index = 4 boot entries + 1 write.
		expect(f.shell.exec(`etcdctl ${TLS} endpoint status`).stdout).toBe(`127.0.0.1:2379, ${MEMBER}, 3.6.10, 3.6.0, 25 kB, 25 kB, 0%, 2.1 GB, true, false, 2, 5, 5, , , false\n`);
		expect(f.shell.exec(`etcdctl ${TLS} endpoint status -w table`).stdout).toBe(
			[
				'+----------------+------------------+---------+-----------------+---------+--------+-----------------------+--------+-----------+------------+-----------+------------+--------------------+--------+--------------------------+-------------------+',
				'|    ENDPOINT    |        ID        | VERSION | STORAGE VERSION | DB SIZE | IN USE | PERCENTAGE NOT IN USE | QUOTA  | IS LEADER | IS LEARNER | RAFT TERM | RAFT INDEX | RAFT APPLIED INDEX | ERRORS | DOWNGRADE TARGET VERSION | DOWNGRADE ENABLED |',
				'+----------------+------------------+---------+-----------------+---------+--------+-----------------------+--------+-----------+------------+-----------+------------+--------------------+--------+--------------------------+-------------------+',
				`| 127.0.0.1:2379 | ${MEMBER} |  3.6.10 |           3.6.0 |   25 kB |  25 kB |                    0% | 2.1 GB |      true |      false |         2 |          5 |                  5 |        |                          |             false |`,
				'+----------------+------------------+---------+-----------------+---------+--------+-----------------------+--------+-----------+------------+-----------+------------+--------------------+--------+--------------------------+-------------------+',
				'',
			].join('\n'),
		);
		expect(JSON.parse(f.shell.exec(`etcdctl ${TLS} endpoint status -w json`).stdout)).toEqual([
			{
				Endpoint: '127.0.0.1:2379',
				Status: {
					header: { cluster_id: Number(dec(CLUSTER)), member_id: Number(dec(MEMBER)), revision: 2, raft_term: 2 },
					version: '3.6.10',
					dbSize: 24576,
					leader: Number(dec(MEMBER)),
					raftIndex: 5,
					raftTerm: 2,
					raftAppliedIndex: 5,
					dbSizeInUse: 24576,
					storageVersion: '3.6.0',
					dbSizeQuota: 2147483648,
					downgradeInfo: {},
				},
			},
		]);
		expect(f.shell.exec(`etcdctl ${TLS} member list`).stdout).toBe(`${MEMBER}, started, control-plane, https://192.168.56.10:2380, https://192.168.56.10:2379, false\n`);
		expect(f.shell.exec(`etcdctl ${TLS} member list -w table`).stdout).toBe(
			[
				'+------------------+---------+---------------+----------------------------+----------------------------+------------+',
				'|        ID        | STATUS  |     NAME      |         PEER ADDRS         |        CLIENT ADDRS        | IS LEARNER |',
				'+------------------+---------+---------------+----------------------------+----------------------------+------------+',
				`| ${MEMBER} | started | control-plane | https://192.168.56.10:2380 | https://192.168.56.10:2379 |      false |`,
				'+------------------+---------+---------------+----------------------------+----------------------------+------------+',
				'',
			].join('\n'),
		);
		expect(f.shell.exec(`etcdctl ${TLS} member list -w json`).stdout).toBe(
			`{"header":{"cluster_id":${dec(CLUSTER)},"member_id":${dec(MEMBER)},"raft_term":2},"members":[{"ID":${dec(MEMBER)},"name":"control-plane","peerURLs":["https://192.168.56.10:2380"],"clientURLs":["https://192.168.56.10:2379"]}]}\n`,
		);
	});

	it('cannot reach 127.0.0.1:2379 from a worker, but can reach the node IP', () => {
		const f = seeded();
		f.shell.exec('exit');
		f.shell.exec('ssh node-1');
		const refused = f.shell.exec(`etcdctl ${TLS} get foo`);
		expect(refused.stderr).toBe(deadlineWarning('2026-11-30T08:00:05.000500Z', '127.0.0.1:2379', '/etcdserverpb.KV/Range', 'transport: Error while dialing: dial tcp 127.0.0.1:2379: connect: connection refused') + 'Error: context deadline exceeded\n');
		expect(f.shell.exec(`etcdctl --endpoints https://192.168.56.10:2379 ${TLS} get foo --print-value-only`).stdout).toBe('bar\n');
	});

	it('reports a stopped member as connection refused, and endpoint status as a failure line', () => {
		const f = seeded();
		f.setUp(false);
		const health = f.shell.exec(`etcdctl ${TLS} endpoint health`);
		// endpoint health names its client logger "client" and measures the wait (5s plus a sub-millisecond remainder).
		expect(health.stderr).toBe(
			deadlineWarning('2026-11-30T08:00:05.000500Z', '127.0.0.1:2379', '/etcdserverpb.KV/Range', 'transport: Error while dialing: dial tcp 127.0.0.1:2379: connect: connection refused', 'client') +
				'127.0.0.1:2379 is unhealthy: failed to commit proposal: context deadline exceeded\nError: unhealthy cluster\n',
		);
		const status = f.shell.exec(`etcdctl ${TLS} endpoint status -w table`);
		expect(status.stderr.split('\n')[1]).toBe('Failed to get the status of endpoint 127.0.0.1:2379 (context deadline exceeded)');
		expect(status.stdout.split('\n')).toHaveLength(5); // rule, header, rule, rule, and the final newline: no rows
		expect(status.exitCode).toBe(1);
	});

	it('saves a snapshot whose size is the DB size plus the 32-byte checksum, which etcdutl reads back', () => {
		const f = seeded();
		const r = f.shell.exec(`etcdctl ${TLS} snapshot save snap.db`);
		expect(r.stdout).toBe('Snapshot saved at snap.db\nServer version 3.6.0\n');
		expect(r.stderr.split('\n').map((line) => (line ? JSON.parse(line).msg : ''))).toEqual(['created temporary db file', 'opened snapshot stream; downloading', 'fetching snapshot', 'completed snapshot read; closing', 'fetched snapshot', 'saved', '']);
		expect(JSON.parse(r.stderr.split('\n')[4])).toMatchObject({ level: 'info', caller: 'snapshot/v3_snapshot.go:111', endpoint: '127.0.0.1:2379', size: '25 kB', 'etcd-version': '3.6.0' });
		expect(JSON.parse(r.stderr.split('\n')[1])).toMatchObject({ logger: 'client', caller: 'v3/maintenance.go:236' });
		expect(f.shell.exec('wc -c snap.db').stdout).toBe('24608 snap.db\n');
		expect(f.shell.exec('ls snap.db.part').exitCode).not.toBe(0);
		const table = f.shell.exec('etcdutl snapshot status snap.db -w table').stdout.split('\n');
		expect(table[1]).toBe('|   HASH   | REVISION | TOTAL KEYS | TOTAL SIZE | VERSION |');
		expect(table[3]).toMatch(/^\| [0-9a-f]{1,8} \|        2 \|          1 \|      25 kB \|   3\.6\.0 \|$/);
		expect(JSON.parse(f.shell.exec('etcdutl snapshot status snap.db -w json').stdout)).toMatchObject({ revision: 2, totalKey: 1, totalSize: 24576, version: '3.6.0' });
		expect(f.shell.exec('etcdutl snapshot status nope.db')).toMatchObject({ stderr: 'Error: stat nope.db: no such file or directory\n', exitCode: 1 });
	});

	it('fails a snapshot larger than the free space with ENOSPC and removes the .part file', () => {
		const f = seeded();
		f.store.state.sizeBytes = 64 * 1024 * 1024;
		const r = f.shell.exec(`etcdctl ${TLS} snapshot save big.db`);
		expect(r.stderr.endsWith('Error: could not write snapshot: write big.db.part: no space left on device\n')).toBe(true);
		expect(r.exitCode).toBe(5);
		expect(f.shell.exec('ls').stdout).toBe('');
	});

	it('hangs in snapshot save without a reachable member (no timeout in 3.6); the simulation ends it like Ctrl-C, leaving the .part file', () => {
		const f = seeded();
		f.setUp(false);
		const r = f.shell.exec(`etcdctl ${TLS} snapshot save snap.db`);
		expect(r.exitCode).toBe(130);
		expect(f.shell.exec('ls snap.db.part').stdout).toBe('snap.db.part\n');
		const timed = f.shell.exec(`etcdctl ${TLS} --command-timeout=3s snapshot save other.db`);
		expect(timed).toMatchObject({ exitCode: 5 });
		expect(timed.stderr.endsWith('Error: context deadline exceeded\n')).toBe(true);
		expect(f.waited).toEqual([3000]);
	});
});

describe('etcdctl command lookup and help', () => {
	it('prints its version without contacting etcd', () => {
		expect(fixture().shell.exec('etcdctl version').stdout).toBe('etcdctl version: 3.6.10\nAPI version: 3.6\n');
	});

	it('suggests a command for a typo (cobra SuggestionsMinimumDistance 2)', () => {
		expect(fixture().shell.exec('etcdctl gett')).toMatchObject({ stdout: '', stderr: 'Error: unknown command "gett" for "etcdctl"\n\nDid you mean this?\n\tget\n\nRun \'etcdctl --help\' for usage.\n', exitCode: 1 });
	});

	it('matches commands by unique prefix (cobra.EnablePrefixMatching)', () => {
		expect(fixture().shell.exec('etcdctl vers').stdout).toBe('etcdctl version: 3.6.10\nAPI version: 3.6\n');
	});

	it('answers `snapshot status` (gone from etcdctl in 3.6) with the snapshot command help', () => {
		const r = fixture().shell.exec('etcdctl snapshot status snap.db');
		expect(r.exitCode).toBe(0);
		const lines = r.stdout.split('\n');
		expect(lines.slice(0, 9)).toEqual(['NAME:', '  snapshot - Manages etcd node snapshots', '', 'USAGE:', '  etcdctl snapshot <subcommand> [flags]', '', 'API VERSION:', '  3.6', '']);
		expect(lines).toContain('  save\tStores an etcd node backend snapshot to a given file');
		expect(lines).toContain('  -h, --help[=false]\thelp for snapshot');
		// tabwriter(0, 8, 1, '\t'): the widest first cell, "      --insecure-skip-tls-verify[=false]" (40), pads to 48 columns.
		expect(lines).toContain('      --insecure-skip-tls-verify[=false]\tskip server certificate verification (CAUTION: this option should be enabled only for testing purposes)');
		expect(lines).toContain('      --cacert=""\t\t\t\tverify certificates of TLS-enabled secure servers using this CA bundle');
		expect(lines).toContain('      --endpoints=[127.0.0.1:2379]\t\tgRPC endpoints');
	});

	it('prints the error then the usage for an unknown flag', () => {
		const r = fixture().shell.exec('etcdctl get --foo x');
		expect(r.stderr).toBe('Error: unknown flag: --foo\n\n');
		expect(r.stdout.split('\n').slice(0, 5)).toEqual(['NAME:', '  get - Gets the key or a range of keys', '', 'USAGE:', '  etcdctl get [options] <key> [range_end] [flags]']);
		expect(r.exitCode).toBe(1);
	});
});

describe('etcdctl over keys the API server wrote', () => {
	it('finds objects under /registry/<resource>/<namespace>/<name>, stored as JSON without resourceVersion', () => {
		const harness = createApiHarness();
		harness.advance(100);
		const client = harness.client('kubectl');
		client.create({ group: '', version: 'v1', resource: 'namespaces' }, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
		const created = client.create({ group: '', version: 'v1', resource: 'configmaps' }, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { color: 'blue' } });
		expect(created.ok).toBe(true);
		const f = fixture({ store: harness.etcd });
		expect(f.shell.exec(`etcdctl ${TLS} get /registry --prefix --keys-only`).stdout).toBe('/registry/configmaps/default/web\n\n/registry/namespaces/default\n\n');
		const value = JSON.parse(f.shell.exec(`etcdctl ${TLS} get /registry/configmaps/default/web --print-value-only`).stdout);
		// kube-apiserver clears metadata.resourceVersion before writing: it is etcd's mod revision.
		expect(value).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { color: 'blue' } });
		expect(value.metadata.resourceVersion).toBeUndefined();
		const kv = JSON.parse(f.shell.exec(`etcdctl ${TLS} get /registry/configmaps/default/web -w json`).stdout).kvs[0];
		expect(String(kv.mod_revision)).toBe((created as { object: { metadata: { resourceVersion: string } } }).object.metadata.resourceVersion);
	});
});
