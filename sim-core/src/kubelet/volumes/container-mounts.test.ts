/**
 * The bind mounts a container gets (kubelet_pods.go makeMounts): host
 * paths under /var/lib/kubelet/pods, read-only forced for the API-data
 * volumes, subPath prepared as upstream does it, and makeMounts' errors.
 */
import { describe, expect, it } from 'vitest';
import type { Container, Pod, Volume } from '../../api/types.ts';
import { MemoryFs } from '../../host/fs.ts';
import { expandSubPathExpr, makeMounts } from './container-mounts.ts';
import { nodeDiskFromFs } from '../../host/disk.ts';

const UID = 'uid-1';
const VOLUMES = `/var/lib/kubelet/pods/${UID}/volumes`;

function pod(volumes: Volume[]): Pod {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: UID }, spec: { containers: [], volumes } };
}

function container(mounts: Array<Record<string, unknown>>): Container {
	return { name: 'nginx', image: 'nginx:1.27', volumeMounts: mounts as Container['volumeMounts'] };
}

const volumes: Volume[] = [
	{ name: 'content', configMap: { name: 'web-content' } },
	{ name: 'data', emptyDir: {} },
	{ name: 'logs', hostPath: { path: '/var/log/web', type: 'DirectoryOrCreate' } },
	{ name: 'creds', secret: { secretName: 'db' } },
];

describe('makeMounts', () => {
	it.each([
		['a configMap volume, read-only even when the mount does not ask', { name: 'content', mountPath: '/usr/share/nginx/html' }, { containerPath: '/usr/share/nginx/html', hostPath: `${VOLUMES}/kubernetes.io~configmap/content`, readonly: true }],
		['a secret volume, read-only', { name: 'creds', mountPath: '/etc/creds' }, { containerPath: '/etc/creds', hostPath: `${VOLUMES}/kubernetes.io~secret/creds`, readonly: true }],
		['an emptyDir, read-write', { name: 'data', mountPath: '/data' }, { containerPath: '/data', hostPath: `${VOLUMES}/kubernetes.io~empty-dir/data`, readonly: false }],
		['an emptyDir the mount makes read-only', { name: 'data', mountPath: '/data', readOnly: true }, { containerPath: '/data', hostPath: `${VOLUMES}/kubernetes.io~empty-dir/data`, readonly: true }],
		['a hostPath, the node path itself', { name: 'logs', mountPath: '/var/log/nginx' }, { containerPath: '/var/log/nginx', hostPath: '/var/log/web', readonly: false }],
	])('%s', (_name, mount, expected) => {
		expect(makeMounts(pod(volumes), container([mount]), { env: [] })).toEqual({ ok: true, mounts: [expected] });
	});

	it('prepares a configMap subPath as a copy in volume-subpaths: later versions of the file do not reach it', () => {
		const fs = new MemoryFs();
		fs.mkdir(`${VOLUMES}/kubernetes.io~configmap/content`, true);
		fs.writeFile(`${VOLUMES}/kubernetes.io~configmap/content/default.conf`, 'v1');
		const result = makeMounts(pod(volumes), container([{ name: 'content', mountPath: '/etc/nginx/nginx.conf', subPath: 'missing-dir' }, { name: 'content', mountPath: '/etc/nginx/conf.d/default.conf', subPath: 'default.conf' }]), { disk: nodeDiskFromFs(fs), env: [] });
		const prepared = `/var/lib/kubelet/pods/${UID}/volume-subpaths/content/nginx/1`;
		expect(result).toEqual({
			ok: true,
			mounts: [
				{ containerPath: '/etc/nginx/nginx.conf', hostPath: `/var/lib/kubelet/pods/${UID}/volume-subpaths/content/nginx/0`, readonly: true },
				{ containerPath: '/etc/nginx/conf.d/default.conf', hostPath: prepared, readonly: true },
			],
		});
		fs.writeFile(`${VOLUMES}/kubernetes.io~configmap/content/default.conf`, 'v2');
		expect(fs.readFile(prepared)).toBe('v1');
		// A missing subPath becomes an empty directory.
		expect(fs.isDir(`/var/lib/kubelet/pods/${UID}/volume-subpaths/content/nginx/0`)).toBe(true);
	});

	it('points an emptyDir subPath at the live path, creating it', () => {
		const fs = new MemoryFs();
		const result = makeMounts(pod(volumes), container([{ name: 'data', mountPath: '/var/cache/nginx', subPath: 'nginx/cache' }]), { disk: nodeDiskFromFs(fs), env: [] });
		expect(result).toEqual({ ok: true, mounts: [{ containerPath: '/var/cache/nginx', hostPath: `${VOLUMES}/kubernetes.io~empty-dir/data/nginx/cache`, readonly: false }] });
		expect(fs.isDir(`${VOLUMES}/kubernetes.io~empty-dir/data/nginx/cache`)).toBe(true);
	});

	it.each([
		['an unknown volume', { name: 'nope', mountPath: '/x' }, 'cannot find volume "nope" to mount into container "nginx"'],
		['an absolute subPath', { name: 'data', mountPath: '/x', subPath: '/etc' }, 'error SubPath `/etc` must not be an absolute path'],
		['a subPath climbing out', { name: 'data', mountPath: '/x', subPath: 'a/../../etc' }, "unable to provision SubPath `a/../../etc`: must not contain '..'"],
		['a subPathExpr with an unset variable', { name: 'data', mountPath: '/x', subPathExpr: '$(POD_NAME)/$(MISSING)' }, 'missing value for MISSING'],
	])('fails for %s', (_name, mount, error) => {
		expect(makeMounts(pod(volumes), container([mount]), { env: [{ name: 'POD_NAME', value: 'web' }] })).toEqual({ ok: false, error });
	});
});

describe('subPathExpr (ExpandContainerVolumeMounts)', () => {
	it('expands from the container environment', () => {
		expect(expandSubPathExpr('logs/$(POD_NAME)', [{ name: 'POD_NAME', value: 'web-1' }])).toEqual({ ok: true, path: 'logs/web-1' });
		expect(expandSubPathExpr('$(A)$(B)', [{ name: 'A', value: '' }])).toEqual({ ok: false, error: 'missing value for A, B' });
	});
});
