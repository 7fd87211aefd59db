/**
 * Bind mounts seen from inside containers: the node's files at the mount
 * path, hiding the image's; live updates; writes through a read-write
 * mount reaching the node and the pod's other containers; EROFS under a
 * read-only one, with the shells' and tools' own wording; nginx serving a
 * mounted index.html.
 */
import { describe, expect, it } from 'vitest';
import { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { parseRfc3339 } from '../golang/time.ts';
import { MemoryFs } from '../host/fs.ts';
import { ContainerRuntime, SANDBOX_SETUP_MS } from './container-runtime.ts';
import { emptyRuntimeHostState } from './host-state.ts';
import { isReadOnlyPath, mountAt, syncMounts, type Mount } from './mounts.ts';
import { nodeDiskFromFs } from '../host/disk.ts';
import { httpAnswer } from './behaviour.ts';
import { findImage } from './images.ts';
import type { CriEvent } from '../cri-api/cri.ts';

/** The node's files over a MemoryFs (what the cluster hands containerd). */
const hostFiles = (fs: MemoryFs) => nodeDiskFromFs(fs);

class Kubelet extends ProcessBase<{ events: CriEvent[] }> {
	freshState() {
		return { events: [] as CriEvent[] };
	}
	onStart() {}
	handle(event: { kind: string; payload?: unknown }) {
		if (event.kind === 'cri') this.state.events.push(event.payload as CriEvent);
	}
}

function setup() {
	const kernel = new Kernel(7, parseRfc3339('2026-11-30T08:00:00Z'));
	const fs = new MemoryFs();
	const runtime = new ContainerRuntime(kernel, 'node-1', { host: emptyRuntimeHostState('node-1', '192.168.56.11', '10.244.1.0/24'), hostFiles: hostFiles(fs) });
	const kubelet = new Kubelet('kubelet/node-1', kernel);
	kernel.register(kubelet);
	kernel.register(runtime);
	kernel.start(kubelet.id);
	kernel.start(runtime.id);
	runtime.preload('registry.k8s.io/pause:3.10.2');
	runtime.preload('nginx:1.27');
	runtime.preload('busybox:1.36');
	runtime.runPodSandbox({ podName: 'web', namespace: 'default', podUid: 'uid-1', attempt: 0, hostname: 'web', hostNetwork: false, labels: {}, annotations: {} }, kubelet.id);
	kernel.runUntil(SANDBOX_SETUP_MS);
	const ready = kubelet.state.events.find((e) => e.type === 'sandbox-ready');
	if (!ready || ready.type !== 'sandbox-ready' || !ready.ok) throw new Error('no sandbox');
	const start = (name: string, image: string, mounts: Mount[], command?: string[]) => {
		const created = runtime.createContainer(ready.sandboxId, { name, attempt: 0, image, command, env: [], labels: {}, annotations: {}, mounts });
		if (!created.ok) throw new Error('create failed');
		runtime.startContainer(created.value.containerId);
		return created.value.containerId;
	};
	const exec = (id: string, ...argv: string[]) => {
		const r = runtime.execSync(id, argv);
		return r.ok ? r.value : { exitCode: -1, stdout: '', stderr: JSON.stringify(r.error) };
	};
	return { kernel, fs, runtime, sandboxId: ready.sandboxId, start, exec };
}

const CONTENT = '/var/lib/kubelet/pods/uid-1/volumes/kubernetes.io~configmap/content';
const SHARED = '/var/lib/kubelet/pods/uid-1/volumes/kubernetes.io~empty-dir/shared';

describe('mountAt and isReadOnlyPath', () => {
	const mounts: Mount[] = [
		{ containerPath: '/etc', hostPath: '/h/etc', readonly: false },
		{ containerPath: '/etc/config', hostPath: '/h/config', readonly: true },
	];
	it.each([
		['/etc/config/a', '/etc/config', 'a', true],
		['/etc/config', '/etc/config', '', true],
		['/etc/configx', '/etc', 'configx', false],
		['/etc/hosts', '/etc', 'hosts', false],
	])('%s is under %s (%s), read-only: %s', (path, at, rel, ro) => {
		expect(mountAt(mounts, path)).toMatchObject({ mount: { containerPath: at }, rel });
		expect(isReadOnlyPath(mounts, path)).toBe(ro);
	});
	it('a path outside every mount is the image layer', () => {
		expect(mountAt(mounts, '/usr/bin')).toBeUndefined();
	});
});

describe('syncMounts', () => {
	it('projects the node directory, hides the image files under it, and drops writes under a read-only mount', () => {
		const fs = new MemoryFs();
		fs.mkdir(CONTENT, true);
		fs.writeFile(`${CONTENT}/index.html`, 'from the configmap');
		const files: Record<string, string | null> = { '/tmp/x': 'kept' };
		const mounts = [{ containerPath: '/usr/share/nginx/html', hostPath: CONTENT, readonly: true }];
		const projection = syncMounts(files, undefined, mounts, hostFiles(fs), ['/usr/share/nginx/html/index.html', '/usr/share/nginx/html/50x.html', '/etc/hosts']);
		expect(files).toEqual({ '/tmp/x': 'kept', '/usr/share/nginx/html/': '', '/usr/share/nginx/html/index.html': 'from the configmap', '/usr/share/nginx/html/50x.html': null });
		files['/usr/share/nginx/html/index.html'] = 'tampered';
		syncMounts(files, projection, mounts, hostFiles(fs), []);
		expect(fs.readFile(`${CONTENT}/index.html`)).toBe('from the configmap');
		expect(files['/usr/share/nginx/html/index.html']).toBe('from the configmap');
	});
});

describe('syncMounts and file modes', () => {
	it('brings the node\'s modes in, sends back only a mode the container changed, and leaves another container\'s chmod alone', () => {
		const fs = new MemoryFs();
		fs.mkdir('/vol', true);
		fs.writeFile('/vol/run.sh', 'echo hi');
		fs.chmod('/vol/run.sh', 0o600);
		const mounts = [{ containerPath: '/cache', hostPath: '/vol', readonly: false }];
		const a = { files: {} as Record<string, string | null>, modes: { current: {} as Record<string, number>, projected: undefined as Record<string, number> | undefined } };
		const b = { files: {} as Record<string, string | null>, modes: { current: {} as Record<string, number>, projected: undefined as Record<string, number> | undefined } };
		const lastA = syncMounts(a.files, undefined, mounts, hostFiles(fs), [], a.modes);
		const lastB = syncMounts(b.files, undefined, mounts, hostFiles(fs), [], b.modes);
		expect(a.modes.current).toEqual({ '/cache/run.sh': 0o600 });
		// A chmods the file; B still holds the mode it saw, which must not undo A's change.
		a.modes.current['/cache/run.sh'] = 0o755;
		syncMounts(a.files, lastA, mounts, hostFiles(fs), [], a.modes);
		expect(fs.stat('/vol/run.sh')?.mode).toBe(0o755);
		syncMounts(b.files, lastB, mounts, hostFiles(fs), [], b.modes);
		expect(fs.stat('/vol/run.sh')?.mode).toBe(0o755);
		expect(b.modes.current).toEqual({ '/cache/run.sh': 0o755 });
	});
});

describe('containers with mounts', () => {
	it('see the mounted files, live, and nginx serves the mounted index.html', () => {
		const s = setup();
		s.fs.mkdir(CONTENT, true);
		s.fs.writeFile(`${CONTENT}/index.html`, '<h1>v1</h1>\n');
		const id = s.start('nginx', 'nginx:1.27', [{ containerPath: '/usr/share/nginx/html', hostPath: CONTENT, readonly: true }]);
		expect(s.exec(id, 'cat', '/usr/share/nginx/html/index.html')).toMatchObject({ exitCode: 0, stdout: '<h1>v1</h1>\n' });
		// The image's own 50x.html is under the mount: hidden.
		expect(s.exec(id, 'ls', '/usr/share/nginx/html')).toMatchObject({ stdout: 'index.html\n' });
		s.fs.writeFile(`${CONTENT}/index.html`, '<h1>v2</h1>\n');
		expect(s.exec(id, 'cat', '/usr/share/nginx/html/index.html').stdout).toBe('<h1>v2</h1>\n');
		s.kernel.runUntil(s.kernel.nowMs + 1_000);
		expect(s.runtime.probeHttp(s.sandboxId, 80, '/')).toEqual({ ok: true, value: { kind: 'http', status: 200 } });
		const c = s.runtime.host.containers[id];
		const server = c.program?.serving?.server;
		expect(server && httpAnswer(findImage('nginx:1.27')!, c.ctx, c.files, server, '/', 1_000)).toEqual({ status: 200, bytes: 12, body: '<h1>v2</h1>\n' });
	});

	it('refuse writes under a read-only mount with EROFS, as dash and coreutils word it', () => {
		const s = setup();
		s.fs.mkdir(CONTENT, true);
		const id = s.start('nginx', 'nginx:1.27', [{ containerPath: '/etc/config', hostPath: CONTENT, readonly: true }]);
		expect(s.exec(id, 'sh', '-c', 'echo x > /etc/config/new')).toEqual({ exitCode: 2, stdout: '', stderr: 'sh: 1: cannot create /etc/config/new: Read-only file system\n' });
		expect(s.exec(id, 'touch', '/etc/config/new')).toMatchObject({ exitCode: 1, stderr: "touch: cannot touch '/etc/config/new': Read-only file system\n" });
		expect(s.fs.list(CONTENT)).toEqual([]);
	});

	it('share an emptyDir: what one container writes, the node and the other container read', () => {
		const s = setup();
		s.fs.mkdir(SHARED, true);
		const writer = s.start('writer', 'busybox:1.36', [{ containerPath: '/data', hostPath: SHARED, readonly: false }], ['sh', '-c', 'echo hello > /data/msg; sleep 3600']);
		const reader = s.start('reader', 'busybox:1.36', [{ containerPath: '/shared', hostPath: SHARED, readonly: false }], ['sleep', '3600']);
		void writer;
		expect(s.fs.readFile(`${SHARED}/msg`)).toBe('hello\n');
		expect(s.exec(reader, 'cat', '/shared/msg')).toMatchObject({ exitCode: 0, stdout: 'hello\n' });
		expect(s.exec(reader, 'sh', '-c', 'echo bye >> /shared/msg')).toMatchObject({ exitCode: 0 });
		expect(s.fs.readFile(`${SHARED}/msg`)).toBe('hello\nbye\n');
	});

	it('get a missing bind source created as a directory, as containerd does', () => {
		const s = setup();
		const id = s.start('app', 'busybox:1.36', [{ containerPath: '/modules', hostPath: '/lib/modules', readonly: true }], ['sleep', '3600']);
		expect(s.fs.isDir('/lib/modules')).toBe(true);
		expect(s.exec(id, 'ls', '/modules')).toMatchObject({ exitCode: 0, stdout: '' });
	});
});
