import { describe, expect, it } from 'vitest';
import type { KubeObject, Pod } from '../api/types.ts';
import { containerEnv, decodeBase64, expandEnv } from './env.ts';

const pod: Pod = {
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: { name: 'web', namespace: 'shop', uid: 'u-1', labels: { app: 'web' } },
	spec: {
		nodeName: 'node-1',
		containers: [
			{
				name: 'app',
				image: 'busybox',
				resources: { limits: { memory: '64Mi' } },
				env: [
					{ name: 'GREETING', value: 'hello' },
					{ name: 'MESSAGE', value: '$(GREETING) world, $(UNKNOWN) stays, $$(ESCAPED)' },
					{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
					{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
					{ name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
					{ name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
					{ name: 'COLOR', valueFrom: { configMapKeyRef: { name: 'settings', key: 'color' } } },
					{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
				],
			},
		],
	},
};

const objects: Record<string, KubeObject> = {
	'ConfigMap/shop/settings': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { color: 'blue' } },
	'Secret/shop/creds': { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' }, data: { password: 'czNjcjN0' } },
};

const ctx = { hostIp: '192.168.56.11', podIp: '10.244.1.9', kubernetesServiceHost: '10.96.0.1', nodeAllocatable: {}, read: (kind: 'ConfigMap' | 'Secret', ns: string, name: string) => objects[`${kind}/${ns}/${name}`] };

describe('a container environment (makeEnvironmentVariables)', () => {
	it('resolves values, references and sources in order, then the kubernetes service variables', () => {
		const r = containerEnv(pod, pod.spec.containers[0], ctx);
		expect(r.ok).toBe(true);
		const env = (r as { env: Array<{ name: string; value: string }> }).env;
		expect(env.slice(0, 8)).toEqual([
			{ name: 'GREETING', value: 'hello' },
			{ name: 'MESSAGE', value: 'hello world, $(UNKNOWN) stays, $(ESCAPED)' },
			{ name: 'POD_NAME', value: 'web' },
			{ name: 'POD_IP', value: '10.244.1.9' },
			{ name: 'APP', value: 'web' },
			{ name: 'MEM', value: '64' },
			{ name: 'COLOR', value: 'blue' },
			{ name: 'PASSWORD', value: 's3cr3t' },
		]);
		expect(env.slice(8).map((e) => `${e.name}=${e.value}`)).toEqual([
			'KUBERNETES_PORT=tcp://10.96.0.1:443',
			'KUBERNETES_PORT_443_TCP=tcp://10.96.0.1:443',
			'KUBERNETES_PORT_443_TCP_ADDR=10.96.0.1',
			'KUBERNETES_PORT_443_TCP_PORT=443',
			'KUBERNETES_PORT_443_TCP_PROTO=tcp',
			'KUBERNETES_SERVICE_HOST=10.96.0.1',
			'KUBERNETES_SERVICE_PORT=443',
			'KUBERNETES_SERVICE_PORT_HTTPS=443',
		]);
	});

	it.each([
		[{ configMapKeyRef: { name: 'missing', key: 'x' } }, 'configmap "missing" not found'],
		[{ secretKeyRef: { name: 'missing', key: 'x' } }, 'secret "missing" not found'],
		[{ configMapKeyRef: { name: 'settings', key: 'size' } }, "couldn't find key size in ConfigMap shop/settings"],
	])('fails the container config when %j is missing: %s', (valueFrom, message) => {
		const c = { name: 'app', image: 'busybox', env: [{ name: 'X', valueFrom }] };
		expect(containerEnv(pod, c, ctx)).toEqual({ ok: false, message });
	});

	it('skips an optional missing source', () => {
		const c = { name: 'app', image: 'busybox', env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'missing', key: 'x', optional: true } } }] };
		const r = containerEnv(pod, c, ctx);
		expect(r.ok && r.env.some((e) => e.name === 'X')).toBe(false);
	});

	it('decodes base64 and expands $(VAR) like upstream', () => {
		expect(decodeBase64('aGVsbG8gd29ybGQ=')).toBe('hello world');
		expect(decodeBase64('w6k=')).toBe('é');
		expect(expandEnv('$(A)-$(B)-$$(A)', (n) => ({ A: '1' })[n])).toBe('1-$(B)-$(A)');
	});
});
