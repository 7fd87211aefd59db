import { describe, expect, it } from 'vitest';
import type { CommandContext, Host } from '../../shell/types.ts';
import type { ShellSession } from '../../shell/session.ts';
import { MemoryFs } from '../../host/fs.ts';
import type { SocketEntry } from '../../host/proc.ts';
import { createSs } from './ss.ts';

const host: Host = { name: 'node-1', fs: new MemoryFs(), commands: new Map(), user: 'root', home: '/root', kind: 'node' };
const ctx = (line: string, env: Record<string, string> = {}): CommandContext => ({ argv: line.split(' '), stdin: '', env, host, shell: {} as unknown as ShellSession });

const listen = (proto: 'tcp' | 'udp', localIp: string, localPort: number, comm: string, pid: number, extra: Partial<SocketEntry> = {}): SocketEntry => ({
	proto, state: proto === 'tcp' ? 'LISTEN' : 'UNCONN', localIp, localPort, peerIp: localIp === '*' ? '*' : '0.0.0.0', peerPort: 0, recvQ: 0, sendQ: proto === 'tcp' ? 4096 : 0, users: [{ comm, pid, fd: 3 }], ...extra,
});
const SOCKETS: SocketEntry[] = [
	listen('tcp', '0.0.0.0', 22, 'sshd', 575),
	listen('tcp', '*', 10250, 'kubelet', 900),
	listen('udp', '127.0.0.53', 53, 'systemd-resolve', 515, { localIface: 'lo' }),
	{ proto: 'tcp', state: 'ESTAB', localIp: '192.168.56.11', localPort: 40000, peerIp: '192.168.56.10', peerPort: 6443, recvQ: 0, sendQ: 0, users: [{ comm: 'kubelet', pid: 900, fd: 20 }] },
];
const ss = createSs({ sockets: () => SOCKETS });

describe('ss', () => {
	it('off a terminal, iproute2 6.1 sizes each column to its content and pads them all, the last one too', () => {
		expect(ss(ctx('ss -tlnp')).stdout).toBe(
			[
				'State  Recv-Q Send-Q Local Address:Port  Peer Address:PortProcess                          ',
				'LISTEN 0      4096         0.0.0.0:22         0.0.0.0:*    users:(("sshd",pid=575,fd=3))   ',
				'LISTEN 0      4096               *:10250            *:*    users:(("kubelet",pid=900,fd=3))',
				'',
			].join('\n'),
		);
	});

	it('names well-known ports without -n, shows Netid with two protocols, and only connected sockets without -a or -l', () => {
		expect(ss(ctx('ss -tl')).stdout).toContain('0.0.0.0:ssh');
		const both = ss(ctx('ss -tuln')).stdout.split('\n');
		expect(both[0]).toMatch(/^Netid State +Recv-Q/);
		expect(both[1]).toMatch(/^udp +UNCONN 0 +0 +127\.0\.0\.53%lo:53 /);
		// The empty Process column is padded too.
		expect(ss(ctx('ss -tn')).stdout.split('\n').slice(1)).toEqual(['ESTAB 0      0      192.168.56.11:40000 192.168.56.10:6443       ', '']);
		expect(ss(ctx('ss -tnH')).stdout.split('\n')[0]).toMatch(/^ESTAB/);
	});

	it('on a terminal the spare width is spread over the columns', () => {
		const lines = ss({ ...ctx('ss -tln'), tty: true }).stdout.split('\n').slice(0, -1);
		for (const l of lines) expect(l.length).toBe(80);
	});

	it('rejects an unknown letter as getopt does, with the usage, exit 255', () => {
		const r = ss(ctx('ss -k'));
		expect(r.exitCode).toBe(255);
		expect(r.stderr.split('\n').slice(0, 2)).toEqual(["ss: invalid option -- 'k'", 'Usage: ss [ OPTIONS ]']);
	});
});
