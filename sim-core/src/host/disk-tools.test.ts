import { describe, expect, it } from 'vitest';
import { busyboxDf, gnuDf, type DfMount } from './df.ts';
import { ext4Stats, tmpfsStats } from './filesystem-stats.ts';
import { ddCommand, fallocateCommand, parseSize } from './disk-fill.ts';
import { du } from './du.ts';

const GI = 1024 ** 3;
const root = ext4Stats(100 * GI, 84.8 * GI, 200_000);
const mounts: DfMount[] = [
	{ source: 'tmpfs', type: 'tmpfs', target: '/run', stats: tmpfsStats(400 * 1024 * 1024, 1_200 * 1024), device: 'run' },
	{ source: '/dev/sda1', type: 'ext4', target: '/', stats: root, device: 'sda1' },
	{ source: '/dev/sda1', type: 'ext4', target: '/etc/hosts', stats: root, device: 'sda1' },
];
const exists = (path: string) => path !== '/nope';

describe('df', () => {
	it('prints GNU df -h with rounded-up sizes, one line per device, and Use% over what a user can still write', () => {
		// 5% of the disk is root's: 84.8G used leaves 10.2G available, so Use% is 84.8 / 95 = 89.3%, shown as 90%.
		expect(gnuDf(mounts, ['-h'], exists).stdout).toBe(['Filesystem      Size  Used Avail Use% Mounted on', 'tmpfs           400M  1.2M  399M   1% /run', '/dev/sda1       100G   85G   11G  90% /', ''].join('\n'));
	});

	it('shows the file system holding each operand, and refuses a missing one', () => {
		expect(gnuDf(mounts, ['/var/lib/kubelet', '/nope'], exists)).toEqual({ stdout: 'Filesystem     1K-blocks     Used Available Use% Mounted on\n/dev/sda1      104857600 88919248  10695472  90% /\n', stderr: 'df: /nope: No such file or directory\n', exitCode: 1 });
	});

	it('counts inodes with -i', () => {
		expect(gnuDf(mounts, ['-i', '/'], exists).stdout).toBe('Filesystem      Inodes  IUsed   IFree IUse% Mounted on\n/dev/sda1      6553600 200000 6353600    4% /\n');
	});

	it('prints busybox df with every mount and its fixed columns', () => {
		expect(busyboxDf(mounts.slice(1), ['-h'], exists).stdout).toBe(['Filesystem                Size      Used Available Use% Mounted on', '/dev/sda1               100.0G     84.8G     10.2G  90% /', '/dev/sda1               100.0G     84.8G     10.2G  90% /etc/hosts', ''].join('\n'));
	});
});

describe('dd and fallocate', () => {
	it('read sizes with both suffix families', () => {
		expect([parseSize('1M'), parseSize('1MB'), parseSize('2G'), parseSize('512'), parseSize('1x')]).toEqual([1024 ** 2, 1000 ** 2, 2 * GI, 512, undefined]);
	});

	it('copy whole blocks and report them as GNU dd does', () => {
		expect(ddCommand(false, ['if=/dev/zero', 'of=/fill', 'bs=1M', 'count=100'], 0, Infinity)).toEqual({
			status: 0,
			stderr: ['100+0 records in', '100+0 records out', '104857600 bytes (105 MB, 100 MiB) copied, 0.0873813 s, 1.2 GB/s'],
			write: { path: '/fill', bytes: 104_857_600 },
			// At about 1.2 GB/s: a Pod's own dd holds its script that long before the file lands.
			durationMs: 87,
		});
	});

	it('stop at a full disk with ENOSPC, keeping what fitted', () => {
		const r = ddCommand(false, ['if=/dev/zero', 'of=/fill', 'bs=1G', 'count=50'], 0, 10.5 * GI);
		expect(r.status).toBe(1);
		expect(r.stderr[0]).toBe("dd: error writing '/fill': No space left on device");
		expect(r.stderr.slice(1, 3)).toEqual(['11+0 records in', '10+0 records out']);
		expect(r.write).toEqual({ path: '/fill', bytes: 10 * GI });
		expect(fallocateCommand(false, ['-l', '20G', '/big'], 10 * GI)).toEqual({ status: 1, stderr: ['fallocate: fallocate failed: No space left on device'] });
	});

	it('refuse operands they do not know, as each dialect words it', () => {
		expect(ddCommand(false, ['of=/x', 'size=3'], 0, Infinity)).toEqual({ status: 1, stderr: ["dd: unrecognized operand 'size=3'", "Try 'dd --help' for more information."] });
		expect(ddCommand(true, ['of=/x', 'size=3'], 0, Infinity)).toEqual({ status: 1, stderr: ["dd: invalid argument 'size=3'"] });
		expect(fallocateCommand(false, ['/big'], Infinity)).toEqual({ status: 1, stderr: ['fallocate: no length argument specified'] });
	});
});

describe('du', () => {
	const files: Record<string, number> = { '/data/a': 1024 ** 3, '/data/sub/b': 10 };
	const tree = {
		list: (path: string) => (path === '/data' ? ['a', 'sub'] : path === '/data/sub' ? ['b'] : undefined),
		fileBytes: (path: string) => files[path],
	};
	it('counts whole blocks, a directory one itself, listing directories after their contents', () => {
		expect(du(tree, ['/data'], (p) => p)).toEqual({ stdout: '8\t/data/sub\n1048588\t/data\n', stderr: '', exitCode: 0 });
	});
	it('rounds -h up in GNU and to the nearest tenth in busybox, and refuses what is not there', () => {
		expect(du(tree, ['-sh', '/data'], (p) => p).stdout).toBe('1.1G\t/data\n');
		expect(du(tree, ['-sh', '/data'], (p) => p, true).stdout).toBe('1.0G\t/data\n');
		expect(du(tree, ['-s', '/nope'], (p) => p)).toEqual({ stdout: '', stderr: "du: cannot access '/nope': No such file or directory\n", exitCode: 1 });
	});
});
