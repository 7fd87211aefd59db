import { describe, expect, it } from 'vitest';
import type { CommandContext, Host } from '../../shell/types.ts';
import type { ShellSession } from '../../shell/session.ts';
import { MemoryFs } from '../../host/fs.ts';
import type { ProcessEntry } from '../../host/proc.ts';
import { createPs } from './ps.ts';
import { createPgrep, createPidof } from './pgrep.ts';
import { columnOf, formatRow } from './format.ts';

/** 2026-11-30T09:00:00Z. */
const NOW = 1_796_029_200_000;
const host: Host = { name: 'node-1', fs: new MemoryFs(), commands: new Map(), user: 'root', home: '/root', kind: 'node' };
const ctx = (line: string, tty = false): CommandContext => ({ argv: line.split(' '), stdin: '', env: {}, host, shell: {} as unknown as ShellSession, tty });

function proc(p: Partial<ProcessEntry> & Pick<ProcessEntry, 'pid' | 'comm' | 'argv'>): ProcessEntry {
	return { ppid: 1, uid: 0, user: 'root', startWallMs: NOW - 3_600_000, cpuMs: 0, rssKb: 1_000, vszKb: 2_000, tty: '?', state: 'S', threads: 1, ...p };
}

const TABLE: ProcessEntry[] = [
	proc({ pid: 1, ppid: 0, comm: 'systemd', argv: ['/sbin/init'], sessionLeader: true, rssKb: 13_312, vszKb: 22_604, cpuMs: 36_000 }),
	proc({ pid: 2, ppid: 0, comm: 'kthreadd', argv: [], rssKb: 0, vszKb: 0 }),
	proc({ pid: 900, comm: 'kubelet', argv: ['/usr/bin/kubelet', '--config=/var/lib/kubelet/config.yaml'], threads: 13, sessionLeader: true, rssKb: 40_000, vszKb: 2_133_856, cpuMs: 72_000 }),
	proc({ pid: 1515, comm: 'systemd-resolve', user: 'systemd-resolve', uid: 991, argv: ['/usr/lib/systemd/systemd-resolved'] }),
	proc({ pid: 2000, ppid: 1999, comm: 'bash', argv: ['-bash'], tty: 'pts/0', sessionLeader: true, startWallMs: NOW - 60_000 }),
	proc({ pid: 2001, ppid: 2000, comm: 'ps', argv: ['ps'], tty: 'pts/0', state: 'R', foreground: true, startWallMs: NOW }),
];
const ps = createPs({ processes: () => TABLE.map((p) => ({ ...p })), nowWallMs: () => NOW, memTotalKb: () => 4_000_000 });

describe('ps', () => {
	it('lays out a row as show_one_proc: a value wider than its column pushes the rest right', () => {
		const cols = ['pid', 'vsz', 'rss', 'tty'].map((s) => columnOf(s)!);
		const values = ['7', '1238148', '6422', '?'].map((v) => () => v);
		expect(formatRow(cols, values, 1000)).toBe('      7 1238148 6422 ?');
	});

	it('ps aux: the user format, %CPU over the lifetime, STAT letters, kernel threads in brackets, names cut with +', () => {
		const out = ps(ctx('ps aux')).stdout.split('\n');
		expect(out[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
		expect(out[1]).toBe('root           1  1.0  0.3  22604 13312 ?        Ss   08:00   0:36 /sbin/init');
		expect(out[2]).toBe('root           2  0.0  0.0      0     0 ?        S    08:00   0:00 [kthreadd]');
		expect(out[3]).toBe('root         900  2.0  1.0 2133856 40000 ?       Ssl  08:00   1:12 /usr/bin/kubelet --config=/var/lib/kubelet/config.yaml');
		expect(out[4]).toMatch(/^systemd\+ {4}1515 /);
		expect(out[6]).toMatch(/ pts\/0 +R\+ +09:00 +0:00 ps$/);
	});

	it('plain ps shows this terminal’s processes in the SysV default; -e every process; -p and -C select', () => {
		expect(ps(ctx('ps')).stdout).toBe('    PID TTY          TIME CMD\n   2000 pts/0    00:00:00 bash\n   2001 pts/0    00:00:00 ps\n');
		expect(ps(ctx('ps -e')).stdout.split('\n')).toHaveLength(TABLE.length + 2);
		expect(ps(ctx('ps -p 900 -o pid=,comm=')).stdout).toBe('    900 kubelet\n');
		expect(ps(ctx('ps -C kubelet -o pid,nlwp')).stdout).toBe('    PID NLWP\n    900   13\n');
		expect(ps(ctx('ps -C nothing'))).toMatchObject({ exitCode: 1, stdout: '    PID TTY          TIME CMD\n' });
	});

	it('on a terminal the command is cut at 80 columns, 132 with w, nowhere with ww', () => {
		const wide = (line: string) => Math.max(...ps(ctx(line, true)).stdout.split('\n').map((l) => l.length));
		expect(wide('ps aux')).toBe(80);
		expect(wide('ps auxww')).toBeGreaterThan(80);
	});

	it('pgrep matches names (or command lines with -f) and never itself; pidof lists PIDs highest first', () => {
		const pgrep = createPgrep({ processes: () => [...TABLE, proc({ pid: 3000, comm: 'pgrep', argv: ['pgrep', 'kube'] })] });
		expect(pgrep(ctx('pgrep kube')).stdout).toBe('900\n');
		expect(pgrep(ctx('pgrep -a kube')).stdout).toBe('900 /usr/bin/kubelet --config=/var/lib/kubelet/config.yaml\n');
		expect(pgrep(ctx('pgrep -f config.yaml')).stdout).toBe('900\n');
		expect(pgrep(ctx('pgrep nothing')).exitCode).toBe(1);
		const pidof = createPidof({ processes: () => [...TABLE, proc({ pid: 950, comm: 'kubelet', argv: ['/usr/bin/kubelet'] })] });
		expect(pidof(ctx('pidof kubelet')).stdout).toBe('950 900\n');
	});
});
