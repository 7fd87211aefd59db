/**
 * Volume resolution, plugin by plugin, against upstream's wording and
 * layout (pkg/volume/configmap, secret, downwardapi, projected, hostpath,
 * emptydir and their tests): which files a volume holds, which errors fail
 * its set-up, where it lands on the node.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigMap, Pod, Secret, Volume } from '../../api/types.ts';
import { encodeBase64 } from '../../golang/base64.ts';
import { MemoryFs } from '../../host/fs.ts';
import { notFoundError, type ObjectLookup } from './lookup.ts';
import { nodeDiskFromFs } from '../../host/disk.ts';
import { setUpVolume, volumePayload, volumeSpecOf, type SetUpContext } from './plugins.ts';

const UID = '0b1c2d3e-0000-4000-8000-000000000001';

function pod(volumes: Volume[], extra: Partial<Pod['metadata']> = {}, containers: Pod['spec']['containers'] = [{ name: 'app', image: 'nginx:1.27' }]): Pod {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: UID, ...extra }, spec: { containers, volumes, serviceAccountName: 'default', nodeName: 'node-1' } };
}

function configMap(name: string, data: Record<string, string>, binaryData?: Record<string, string>): ConfigMap {
	return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data, ...(binaryData ? { binaryData } : {}) };
}

function secret(name: string, values: Record<string, string>): Secret {
	return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'default' }, type: 'Opaque', data: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, encodeBase64(v)])) };
}

/** A lookup over fixed objects; anything else is NotFound, as the kubelet's caches say it. */
function lookup(objects: Array<ConfigMap | Secret>): ObjectLookup {
	const find = (kind: string, ns: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.namespace === ns && o.metadata.name === name);
	return {
		configMap: (ns, name) => {
			const o = find('ConfigMap', ns, name);
			return o ? { ok: true, object: o as ConfigMap } : notFoundError('configmap', name);
		},
		secret: (ns, name) => {
			const o = find('Secret', ns, name);
			return o ? { ok: true, object: o as Secret } : notFoundError('secret', name);
		},
		persistentVolumeClaim: (_ns, name) => ({ ok: false, notFound: true, error: `persistentvolumeclaims "${name}" not found` }),
		persistentVolume: (name) => ({ ok: false, notFound: true, error: `persistentvolumes "${name}" not found` }),
	};
}

function context(objects: Array<ConfigMap | Secret>, fs?: MemoryFs): SetUpContext {
	return {
		lookup: lookup(objects),
		disk: fs ? nodeDiskFromFs(fs) : undefined,
		nodeAllocatable: { cpu: '2', memory: '4Gi' },
		token: (source) => ({ ok: true, token: `token-for-${source.audience || 'api'}-${source.expirationSeconds}` }),
	};
}

/** The files of a payload as path → text. */
function files(volume: Volume, objects: Array<ConfigMap | Secret>, p: Pod = pod([volume])): Record<string, string> | string {
	const result = volumePayload(volumeSpecOf(volume), p, context(objects));
	if (!result) return 'no payload';
	if (!result.ok) return result.error;
	return Object.fromEntries(Object.entries(result.payload).map(([k, v]) => [k, v.data]));
}

describe('configMap volumes (MakePayload)', () => {
	const web = configMap('web-content', { 'index.html': '<h1>hi</h1>\n', 'app.conf': 'x=1\n' });
	it.each([
		['every key becomes a file', { name: 'web-content' }, [web], { 'index.html': '<h1>hi</h1>\n', 'app.conf': 'x=1\n' }],
		['items choose keys and rename them', { name: 'web-content', items: [{ key: 'app.conf', path: 'conf/app.conf' }] }, [web], { 'conf/app.conf': 'x=1\n' }],
		['a missing ConfigMap fails the set-up, in the configmap manager words', { name: 'web-content' }, [], 'configmap "web-content" not found'],
		['an optional missing ConfigMap is an empty directory', { name: 'web-content', optional: true }, [], {}],
		['an item naming a missing key fails', { name: 'web-content', items: [{ key: 'missing', path: 'm' }] }, [web], 'configmap references non-existent config key: missing'],
		['an optional volume skips the missing key', { name: 'web-content', optional: true, items: [{ key: 'missing', path: 'm' }, { key: 'app.conf', path: 'a' }] }, [web], { a: 'x=1\n' }],
		['binaryData keys are written decoded', { name: 'bin' }, [configMap('bin', { text: 't' }, { blob: encodeBase64('raw bytes') })], { text: 't', blob: 'raw bytes' }],
	])('%s', (_name, source, objects, expected) => {
		expect(files({ name: 'content', configMap: source }, objects)).toEqual(expected);
	});

	it('uses defaultMode 0644 unless the volume or an item sets another', () => {
		const spec = volumeSpecOf({ name: 'c', configMap: { name: 'web-content', defaultMode: 0o400, items: [{ key: 'index.html', path: 'i', mode: 0o600 }, { key: 'app.conf', path: 'a' }] } });
		const result = volumePayload(spec, pod([]), context([web]));
		expect(result?.ok && Object.fromEntries(Object.entries(result.payload).map(([k, v]) => [k, v.mode]))).toEqual({ i: 0o600, a: 0o400 });
		const defaulted = volumePayload(volumeSpecOf({ name: 'c', configMap: { name: 'web-content' } }), pod([]), context([web]));
		expect(defaulted?.ok && defaulted.payload['index.html'].mode).toBe(0o644);
	});
});

describe('secret volumes', () => {
	const db = secret('db', { password: 's3cr3t', user: 'admin' });
	it.each([
		['values are written decoded', { secretName: 'db' }, [db], { password: 's3cr3t', user: 'admin' }],
		['items choose keys', { secretName: 'db', items: [{ key: 'password', path: 'pw' }] }, [db], { pw: 's3cr3t' }],
		['a missing Secret fails the set-up', { secretName: 'db' }, [], 'secret "db" not found'],
		['an optional missing Secret is an empty directory', { secretName: 'db', optional: true }, [], {}],
		['an item naming a missing key fails', { secretName: 'db', items: [{ key: 'token', path: 't' }] }, [db], 'references non-existent secret key: token'],
	])('%s', (_name, source, objects, expected) => {
		expect(files({ name: 'creds', secret: source }, objects)).toEqual(expected);
	});
});

describe('downwardAPI volumes (CollectData, FormatMap)', () => {
	const p = pod([], { labels: { tier: 'frontend', app: 'web' }, annotations: { note: 'say "hi"' } }, [{ name: 'app', image: 'nginx:1.27', resources: { limits: { memory: '128Mi' }, requests: { cpu: '250m' } } }]);
	it.each([
		['the pod name', { path: 'name', fieldRef: { fieldPath: 'metadata.name' } }, 'web'],
		['the namespace', { path: 'ns', fieldRef: { fieldPath: 'metadata.namespace' } }, 'default'],
		['the UID', { path: 'uid', fieldRef: { fieldPath: 'metadata.uid' } }, UID],
		['labels, sorted, one key="value" a line, no final newline', { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }, 'app="web"\ntier="frontend"'],
		['annotations, quoted the Go way', { path: 'annotations', fieldRef: { fieldPath: 'metadata.annotations' } }, 'note="say \\"hi\\""'],
		['one label by key', { path: 'tier', fieldRef: { fieldPath: "metadata.labels['tier']" } }, 'frontend'],
		['a memory limit in Mi', { path: 'mem', resourceFieldRef: { containerName: 'app', resource: 'limits.memory', divisor: '1Mi' } }, '128'],
		['a CPU request in millicores, rounded up', { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'requests.cpu', divisor: '1m' } }, '250'],
		['an unset CPU limit reads as the node allocatable', { path: 'cpu', resourceFieldRef: { containerName: 'app', resource: 'limits.cpu' } }, '2'],
	])('%s', (_name, item, expected) => {
		const result = files({ name: 'info', downwardAPI: { items: [item] } }, [], { ...p, spec: { ...p.spec, volumes: [] } });
		expect(typeof result === 'string' ? result : Object.values(result)[0]).toBe(expected);
	});

	it('fails on a field the downward API volume does not offer', () => {
		expect(files({ name: 'info', downwardAPI: { items: [{ path: 'ip', fieldRef: { fieldPath: 'status.podIP' } }] } }, [])).toBe('unsupported fieldPath: status.podIP');
	});
});

describe('projected volumes', () => {
	const kubeApiAccess: Volume = {
		name: 'kube-api-access-x7k2p',
		projected: {
			defaultMode: 0o644,
			sources: [
				{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
				{ configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
				{ downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
			],
		},
	};
	const rootCa = configMap('kube-root-ca.crt', { 'ca.crt': '-----BEGIN CERTIFICATE-----\n' });

	it('the kube-api-access volume holds token, ca.crt and namespace', () => {
		expect(files(kubeApiAccess, [rootCa])).toEqual({ token: 'token-for-api-3607', 'ca.crt': '-----BEGIN CERTIFICATE-----\n', namespace: 'default' });
	});

	it('fails when kube-root-ca.crt is missing, naming it as the configmap manager does', () => {
		expect(files(kubeApiAccess, [])).toBe('configmap "kube-root-ca.crt" not found');
	});

	it('aggregates the errors of several sources', () => {
		const volume: Volume = { name: 'p', projected: { sources: [{ configMap: { name: 'a' } }, { secret: { name: 'b' } }] } };
		expect(files(volume, [])).toBe('[configmap "a" not found, secret "b" not found]');
	});

	it('merges sources, a later one overwriting the same path', () => {
		const volume: Volume = { name: 'p', projected: { sources: [{ configMap: { name: 'a' } }, { secret: { name: 'b', items: [{ key: 'k', path: 'shared' }] } }] } };
		expect(files(volume, [configMap('a', { shared: 'from-configmap', only: 'cm' }), secret('b', { k: 'from-secret' })])).toEqual({ shared: 'from-secret', only: 'cm' });
	});
});

describe('where volumes land on the node', () => {
	it.each([
		['configMap', { name: 'content', configMap: { name: 'web-content' } }, `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~configmap/content/index.html`],
		['secret', { name: 'creds', secret: { secretName: 'db' } }, `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~secret/creds/password`],
		['downwardAPI', { name: 'info', downwardAPI: { items: [{ path: 'name', fieldRef: { fieldPath: 'metadata.name' } }] } }, `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~downward-api/info/name`],
		['projected', { name: 'p', projected: { sources: [{ configMap: { name: 'web-content' } }] } }, `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~projected/p/index.html`],
	])('%s volumes under kubernetes.io~<plugin>', (_name, volume, path) => {
		const fs = new MemoryFs();
		const result = setUpVolume(volumeSpecOf(volume as Volume), pod([volume as Volume]), context([configMap('web-content', { 'index.html': 'hi' }), secret('db', { password: 'pw' })], fs));
		expect(result).toEqual({ ok: true, changed: true });
		expect(fs.exists(path)).toBe(true);
	});

	it('an emptyDir (memory medium too) is an empty directory, and a remount never empties it', () => {
		const fs = new MemoryFs();
		const volume: Volume = { name: 'cache', emptyDir: { medium: 'Memory' } };
		const dir = `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~empty-dir/cache`;
		expect(setUpVolume(volumeSpecOf(volume), pod([volume]), context([], fs)).ok).toBe(true);
		expect(fs.list(dir)).toEqual([]);
		fs.writeFile(`${dir}/kept`, 'x');
		setUpVolume(volumeSpecOf(volume), pod([volume]), context([], fs));
		expect(fs.list(dir)).toEqual(['kept']);
	});

	it('a rewrite removes the keys that are gone and reports whether anything changed', () => {
		const fs = new MemoryFs();
		const volume: Volume = { name: 'content', configMap: { name: 'web-content' } };
		const dir = `/var/lib/kubelet/pods/${UID}/volumes/kubernetes.io~configmap/content`;
		setUpVolume(volumeSpecOf(volume), pod([volume]), context([configMap('web-content', { a: '1', b: '2' })], fs));
		expect(setUpVolume(volumeSpecOf(volume), pod([volume]), context([configMap('web-content', { a: '1', b: '2' })], fs))).toEqual({ ok: true, changed: false });
		expect(setUpVolume(volumeSpecOf(volume), pod([volume]), context([configMap('web-content', { a: '1' })], fs))).toEqual({ ok: true, changed: true });
		expect(fs.list(dir)).toEqual(['a']);
	});
});

describe('hostPath volumes (checkType)', () => {
	it.each([
		['no type: nothing is checked', undefined, '/nowhere', undefined],
		['DirectoryOrCreate creates a missing directory', 'DirectoryOrCreate', '/var/lib/etcd', undefined],
		['DirectoryOrCreate refuses a file', 'DirectoryOrCreate', '/etc/hostname', 'hostPath type check failed: /etc/hostname is not a directory'],
		['Directory must exist', 'Directory', '/nowhere', 'hostPath type check failed: /nowhere is not a directory'],
		['Directory accepts a directory', 'Directory', '/etc', undefined],
		['FileOrCreate creates an empty file', 'FileOrCreate', '/run/xtables.lock', undefined],
		['File must be a file', 'File', '/etc', 'hostPath type check failed: /etc is not a file'],
		['Socket fails on a text file', 'Socket', '/etc/hostname', 'hostPath type check failed: /etc/hostname is not a socket file'],
		['an unknown type', 'Pipe', '/etc', 'Pipe is an invalid volume type'],
	])('%s', (_name, type, path, error) => {
		const fs = new MemoryFs();
		fs.mkdir('/etc', true);
		fs.writeFile('/etc/hostname', 'node-1\n');
		const volume: Volume = { name: 'h', hostPath: { path, ...(type ? { type } : {}) } };
		const result = setUpVolume(volumeSpecOf(volume), pod([volume]), context([], fs));
		expect(result.ok ? undefined : result.error).toBe(error);
		if (type === 'DirectoryOrCreate' && !error) expect(fs.isDir(path)).toBe(true);
		if (type === 'FileOrCreate') expect(fs.readFile(path)).toBe('');
	});

	it('a path with .. is refused before any check', () => {
		const volume: Volume = { name: 'h', hostPath: { path: '/etc/../root' } };
		expect(setUpVolume(volumeSpecOf(volume), pod([volume]), context([], new MemoryFs()))).toEqual({ ok: false, error: "invalid HostPath `/etc/../root`: must not contain '..'" });
	});
});

describe('plugin selection (FindPluginBySpec)', () => {
	it.each([
		[{ name: 'a', configMap: { name: 'x' } }, 'kubernetes.io/configmap'],
		[{ name: 'a', secret: { secretName: 'x' } }, 'kubernetes.io/secret'],
		[{ name: 'a', projected: { sources: [] } }, 'kubernetes.io/projected'],
		[{ name: 'a', downwardAPI: { items: [] } }, 'kubernetes.io/downward-api'],
		[{ name: 'a', emptyDir: {} }, 'kubernetes.io/empty-dir'],
		[{ name: 'a' }, 'kubernetes.io/empty-dir'],
		[{ name: 'a', hostPath: { path: '/x' } }, 'kubernetes.io/host-path'],
		[{ name: 'a', persistentVolumeClaim: { claimName: 'data' } }, 'persistent-volume-claim'],
		[{ name: 'a', nfs: { server: 'x', path: '/' } }, 'unsupported'],
	])('%j is handled by %s', (volume, plugin) => {
		expect(volumeSpecOf(volume as Volume).plugin).toBe(plugin);
	});
});
