import { describe, expect, it } from 'vitest';
import { FsError, MemoryFs } from './fs.ts';

const code = (f: () => unknown) => {
	try {
		f();
	} catch (e) {
		return e instanceof FsError ? `${e.code}: ${e.message}` : String(e);
	}
	return 'ok';
};

describe('MemoryFs', () => {
	it('resolves paths like realpath -m', () => {
		const fs = new MemoryFs();
		fs.cwd = '/home/user';
		fs.home = '/home/user';
		expect(['a', './a', 'a/../b', '/x//y/', '..', '../../..', '~', '~/k', '~x', '/a/./b/../c'].map((p) => fs.resolve(p))).toEqual([
			'/home/user/a',
			'/home/user/a',
			'/home/user/b',
			'/x/y',
			'/home',
			'/',
			'/home/user',
			'/home/user/k',
			'/home/user/~x',
			'/a/c',
		]);
	});

	it('reads, writes, appends, lists, removes', () => {
		const fs = new MemoryFs();
		fs.mkdir('/etc/kubernetes/manifests', true);
		fs.writeFile('/etc/kubernetes/admin.conf', 'apiVersion: v1\n');
		fs.writeFile('/etc/kubernetes/admin.conf', 'kind: Config\n', { append: true });
		expect(fs.readFile('/etc/kubernetes/admin.conf')).toBe('apiVersion: v1\nkind: Config\n');
		expect(fs.list('/etc/kubernetes')).toEqual(['admin.conf', 'manifests']);
		expect(fs.stat('/etc/kubernetes/admin.conf')).toEqual({ path: '/etc/kubernetes/admin.conf', isDir: false, size: 28, mtime: 0, mode: 0o644 });
		expect(fs.stat('/etc')?.isDir).toBe(true);
		expect(fs.exists('/nope')).toBe(false);
		fs.remove('/etc/kubernetes', true);
		expect(fs.list('/etc')).toEqual([]);
		expect(fs.usage()).toEqual({ bytes: 0, files: 2 });
	});

	it('fails with POSIX errors', () => {
		const fs = new MemoryFs();
		fs.writeFile('/f', 'x');
		fs.mkdir('/d');
		fs.writeFile('/d/x', '1');
		expect(code(() => fs.readFile('/nope.yaml'))).toBe('ENOENT: No such file or directory');
		expect(code(() => fs.readFile('/d'))).toBe('EISDIR: Is a directory');
		expect(code(() => fs.readFile('/f/x'))).toBe('ENOTDIR: Not a directory');
		expect(code(() => fs.writeFile('/a/b', ''))).toBe('ENOENT: No such file or directory');
		expect(code(() => fs.writeFile('/f/b', ''))).toBe('ENOTDIR: Not a directory');
		expect(code(() => fs.writeFile('/d', ''))).toBe('EISDIR: Is a directory');
		expect(code(() => fs.mkdir('/d'))).toBe('EEXIST: File exists');
		expect(code(() => fs.mkdir('/f', true))).toBe('EEXIST: File exists');
		expect(code(() => fs.mkdir('/f/g', true))).toBe('ENOTDIR: Not a directory');
		expect(code(() => fs.list('/f'))).toBe('ENOTDIR: Not a directory');
		expect(code(() => fs.remove('/d'))).toBe('ENOTEMPTY: Directory not empty');
		expect(code(() => fs.rename('/d', '/d/x/y'))).toBe('EINVAL: Invalid argument');
		expect(code(() => fs.resolve('/' + 'a'.repeat(256)))).toBe('ENAMETOOLONG: File name too long');
		expect(code(() => fs.resolve('/a'.repeat(3000)))).toBe('ENAMETOOLONG: File name too long');
	});

	it('renames files and trees', () => {
		const fs = new MemoryFs();
		fs.mkdir('/a/b', true);
		fs.writeFile('/a/b/c', 'C');
		fs.rename('/a', '/z');
		expect(fs.walk('/')).toEqual(['/', '/z', '/z/b', '/z/b/c']);
		fs.writeFile('/f', 'F');
		fs.rename('/f', '/z/b/c');
		expect(fs.readFile('/z/b/c')).toBe('F');
		expect(fs.exists('/f')).toBe(false);
	});

	it('enforces size and entry limits, leaving files intact', () => {
		const fs = new MemoryFs({ maxBytes: 10, maxFiles: 4 });
		fs.writeFile('/a', '12345');
		expect(code(() => fs.writeFile('/b', '123456'))).toBe('ENOSPC: No space left on device');
		expect(code(() => fs.writeFile('/a', '678901', { append: true }))).toBe('ENOSPC: No space left on device');
		expect(fs.readFile('/a')).toBe('12345');
		fs.writeFile('/a', 'é'.repeat(5));
		expect(fs.usage().bytes).toBe(10);
		fs.writeFile('/b', '');
		fs.writeFile('/c', '');
		expect(code(() => fs.writeFile('/d', ''))).toBe('ENOSPC: No space left on device');
	});

	it('globs per segment, hiding dot files, sorted', () => {
		const fs = new MemoryFs();
		for (const p of ['/m/a.yaml', '/m/b.yaml', '/m/.h.yaml', '/m/c.txt', '/m/sub/d.yaml', '/n/e.yaml']) {
			fs.mkdir(p.slice(0, p.lastIndexOf('/')), true);
			fs.writeFile(p, '');
		}
		fs.cwd = '/m';
		expect(fs.glob('/m/*.yaml')).toEqual(['/m/a.yaml', '/m/b.yaml']);
		expect(fs.glob('*.yaml')).toEqual(['a.yaml', 'b.yaml']);
		expect(fs.glob('.*.yaml')).toEqual(['.h.yaml']);
		expect(fs.glob('/*/*.yaml')).toEqual(['/m/a.yaml', '/m/b.yaml', '/n/e.yaml']);
		expect(fs.glob('/m/*/*.yaml')).toEqual(['/m/sub/d.yaml']);
		expect(fs.glob('[ab].yaml')).toEqual(['a.yaml', 'b.yaml']);
		expect(fs.glob('[!a]?yaml')).toEqual(['b.yaml']);
		expect(fs.glob('\\*.yaml')).toEqual([]);
		expect(fs.glob('*/')).toEqual(['sub/']);
		expect(fs.glob('*.none')).toEqual([]);
		expect(fs.glob('*a*a*a*a*a*a*a*a*a*a*b')).toEqual([]);
	});

	it('snapshots to plain JSON and back', () => {
		const fs = new MemoryFs();
		let t = 1;
		fs.now = () => t++;
		fs.mkdir('/etc/kubernetes', true);
		fs.writeFile('/etc/kubernetes/kubelet.conf', 'x: 1\n');
		fs.mkdir('/empty');
		const json = JSON.parse(JSON.stringify(fs.toJSON()));
		expect(json).toEqual({
			v: 1,
			e: [
				['/empty', null, 4],
				['/etc', null, 1],
				['/etc/kubernetes', null, 2],
				['/etc/kubernetes/kubelet.conf', 'x: 1\n', 3],
			],
		});
		const back = MemoryFs.fromJSON(json);
		expect(back.toJSON()).toEqual(json);
		expect(back.usage()).toEqual(fs.usage());
		expect(() => MemoryFs.fromJSON({ v: 2 } as never)).toThrow(/not a MemoryFs snapshot/);
	});

	it('keeps permission bits and tmpfs mount points through chmod, rename and a snapshot', () => {
		const fs = new MemoryFs();
		fs.mkdir('/vol/secret', true);
		fs.writeFile('/vol/secret/key', 'k');
		expect(fs.stat('/vol/secret')?.mode).toBe(0o755);
		fs.chmod('/vol/secret/key', 0o400);
		fs.mountTmpfs('/vol/secret');
		fs.rename('/vol/secret/key', '/vol/secret/key2');
		expect(fs.stat('/vol/secret/key2')?.mode).toBe(0o400);
		// Writing again keeps the mode, as open(O_TRUNC) does.
		fs.writeFile('/vol/secret/key2', 'k2');
		expect(fs.stat('/vol/secret/key2')?.mode).toBe(0o400);
		expect(fs.fsType('/vol/secret/key2')).toBe('tmpfs');
		expect(fs.fsType('/vol')).toBe('ext4');
		const back = MemoryFs.fromJSON(JSON.parse(JSON.stringify(fs.toJSON())));
		expect(back.stat('/vol/secret/key2')?.mode).toBe(0o400);
		expect(back.fsType('/vol/secret/key2')).toBe('tmpfs');
		// Removing the mount point unmounts it.
		back.remove('/vol/secret', true);
		back.mkdir('/vol/secret');
		expect(back.fsType('/vol/secret')).toBe('ext4');
		expect(() => fs.mountTmpfs('/vol/secret/key2')).toThrow('Not a directory');
	});
});
