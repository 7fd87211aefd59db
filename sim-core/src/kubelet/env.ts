/**
 * A container's environment as the kubelet builds it: `envFrom` sources,
 * then `env` in declaration order (`$(VAR)` references expanded, values
 * from the downward API, ConfigMaps and Secrets), then the service
 * variables of the `kubernetes` Service. A missing ConfigMap or Secret (or
 * key) that is not optional stops the container with
 * CreateContainerConfigError.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables,
 * podFieldSelectorRuntimeValue), pkg/kubelet/envvars/envvars.go.
 */
import type { ConfigMap, Container, KubeObject, Pod, Secret } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';

type EnvResult = { ok: true; env: Array<{ name: string; value: string }> } | { ok: false; message: string };

/** Reads a ConfigMap or Secret from the API (undefined when it does not exist or cannot be read). */
type ObjectReader = (kind: 'ConfigMap' | 'Secret', namespace: string, name: string) => KubeObject | undefined;

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes base64 Secret data to text (UTF-8). */
export function decodeBase64(text: string): string {
	const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
	const bytes: number[] = [];
	for (let i = 0; i + 1 < clean.length; i += 4) {
		const n = [0, 1, 2, 3].map((k) => (i + k < clean.length ? B64.indexOf(clean[i + k]) : 0));
		const v = (n[0] << 18) | (n[1] << 12) | (n[2] << 6) | n[3];
		bytes.push((v >> 16) & 255);
		if (i + 2 < clean.length) bytes.push((v >> 8) & 255);
		if (i + 3 < clean.length) bytes.push(v & 255);
	}
	let out = '';
	for (let i = 0; i < bytes.length; i++) {
		const b = bytes[i];
		if (b < 0x80) out += String.fromCharCode(b);
		else if (b >= 0xc0 && b < 0xe0 && i + 1 < bytes.length) out += String.fromCharCode(((b & 31) << 6) | (bytes[++i] & 63));
		else if (b >= 0xe0 && i + 2 < bytes.length) out += String.fromCharCode(((b & 15) << 12) | ((bytes[++i] & 63) << 6) | (bytes[++i] & 63));
		else out += '\ufffd';
	}
	return out;
}

/** The service variables of the `kubernetes` Service (pkg/kubelet/envvars FromServices). */
function kubernetesServiceEnv(host: string, port = 443): Array<{ name: string; value: string }> {
	return [
		{ name: 'KUBERNETES_PORT', value: `tcp://${host}:${port}` },
		{ name: `KUBERNETES_PORT_${port}_TCP`, value: `tcp://${host}:${port}` },
		{ name: `KUBERNETES_PORT_${port}_TCP_ADDR`, value: host },
		{ name: `KUBERNETES_PORT_${port}_TCP_PORT`, value: String(port) },
		{ name: `KUBERNETES_PORT_${port}_TCP_PROTO`, value: 'tcp' },
		{ name: 'KUBERNETES_SERVICE_HOST', value: host },
		{ name: 'KUBERNETES_SERVICE_PORT', value: String(port) },
		{ name: 'KUBERNETES_SERVICE_PORT_HTTPS', value: String(port) },
	];
}

/** `$(VAR)` expansion (third_party/forked/golang/expansion): unknown references stay as written, `$$` escapes. */
export function expandEnv(value: string, lookup: (name: string) => string | undefined): string {
	return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
		if (m === '$$') return '$';
		const v = lookup(name as string);
		return v === undefined ? m : v;
	});
}

function fieldValue(pod: Pod, path: string, hostIp: string, podIp: string): string | undefined {
	const meta = pod.metadata;
	const label = /^metadata\.labels\['(.+)'\]$/.exec(path);
	if (label) return meta.labels?.[label[1]] ?? '';
	const annotation = /^metadata\.annotations\['(.+)'\]$/.exec(path);
	if (annotation) return meta.annotations?.[annotation[1]] ?? '';
	switch (path) {
		case 'metadata.name':
			return meta.name ?? '';
		case 'metadata.namespace':
			return meta.namespace ?? '';
		case 'metadata.uid':
			return meta.uid ?? '';
		case 'spec.nodeName':
			return pod.spec.nodeName ?? '';
		case 'spec.serviceAccountName':
			return pod.spec.serviceAccountName ?? '';
		case 'status.hostIP':
		case 'status.hostIPs':
			return hostIp;
		case 'status.podIP':
		case 'status.podIPs':
			return podIp;
	}
	return undefined;
}

function resourceValue(container: Container, resource: string, divisor: string | undefined, nodeAllocatable: Record<string, string>): string {
	const [kind, name] = resource.split('.');
	const raw = (kind === 'limits' ? container.resources?.limits?.[name] : container.resources?.requests?.[name]) ?? (kind === 'limits' ? nodeAllocatable[name] : undefined) ?? '0';
	try {
		const q = Quantity.parse(String(raw));
		const d = Quantity.parse(divisor ?? '1');
		if (name === 'cpu') return String(Math.ceil(q.milliValue() / Math.max(1, d.milliValue())));
		return String(Math.ceil(q.value() / Math.max(1, d.value())));
	} catch {
		return '0';
	}
}

function dataOf(obj: KubeObject): Record<string, string> {
	if (obj.kind === 'Secret') {
		const s = obj as Secret;
		const out: Record<string, string> = {};
		for (const [k, v] of Object.entries(s.data ?? {})) out[k] = decodeBase64(v);
		for (const [k, v] of Object.entries(s.stringData ?? {})) out[k] = v;
		return out;
	}
	return { ...((obj as ConfigMap).data ?? {}) };
}

/** Builds the environment of `container` in `pod`. */
/** A Service as the kubelet's service lister holds it, for the environment variables. */
export interface ServiceForEnv {
	name: string;
	namespace: string;
	clusterIP?: string;
	ports: Array<{ name?: string; port: number; protocol?: string }>;
}

const envName = (name: string) => name.toUpperCase().replace(/-/g, '_');

/**
 * The service variables of one Service (pkg/kubelet/envvars FromServices
 * and makeLinkVariables): `<NAME>_SERVICE_HOST`, `_SERVICE_PORT` (its first
 * port), `_SERVICE_PORT_<PORT NAME>` for named ports, and the Docker-link
 * variables `<NAME>_PORT`, `<NAME>_PORT_<port>_<PROTO>[_PROTO|_PORT|_ADDR]`.
 */
export function serviceEnv(service: ServiceForEnv): Array<{ name: string; value: string }> {
	const ip = service.clusterIP;
	if (!ip || ip === 'None' || service.ports.length === 0) return [];
	const prefix = envName(service.name);
	const out = [
		{ name: `${prefix}_SERVICE_HOST`, value: ip },
		{ name: `${prefix}_SERVICE_PORT`, value: String(service.ports[0].port) },
	];
	for (const p of service.ports) if (p.name) out.push({ name: `${prefix}_SERVICE_PORT_${envName(p.name)}`, value: String(p.port) });
	service.ports.forEach((p, i) => {
		const protocol = (p.protocol ?? 'TCP').toLowerCase();
		const url = `${protocol}://${ip}:${p.port}`;
		const portPrefix = `${prefix}_PORT_${p.port}_${protocol.toUpperCase()}`;
		if (i === 0) out.push({ name: `${prefix}_PORT`, value: url });
		out.push({ name: portPrefix, value: url }, { name: `${portPrefix}_PROTO`, value: protocol }, { name: `${portPrefix}_PORT`, value: String(p.port) }, { name: `${portPrefix}_ADDR`, value: ip });
	});
	return out;
}

/**
 * getServiceEnvVarMap: the Services whose variables a container gets: the
 * `kubernetes` Service of the default namespace always, and with
 * enableServiceLinks (the default) every Service of the Pod's namespace
 * that has a cluster IP, as it was when the container started.
 */
function servicesForPod(pod: Pod, services: readonly ServiceForEnv[]): ServiceForEnv[] {
	const links = (pod.spec as { enableServiceLinks?: boolean }).enableServiceLinks !== false;
	const ns = pod.metadata.namespace ?? 'default';
	const chosen = new Map<string, ServiceForEnv>();
	for (const s of services) {
		if (!s.clusterIP || s.clusterIP === 'None') continue;
		if (s.namespace === 'default' && s.name === 'kubernetes') {
			if (!chosen.has(s.name)) chosen.set(s.name, s);
		} else if (s.namespace === ns && links) chosen.set(s.name, s);
	}
	return [...chosen.values()].sort((a, b) => (a.name === 'kubernetes' ? -1 : b.name === 'kubernetes' ? 1 : a.name.localeCompare(b.name)));
}

export function containerEnv(pod: Pod, container: Container, ctx: { hostIp: string; podIp: string; kubernetesServiceHost: string; nodeAllocatable: Record<string, string>; read: ObjectReader; services?: readonly ServiceForEnv[] }): EnvResult {
	const namespace = pod.metadata.namespace ?? 'default';
	const out: Array<{ name: string; value: string }> = [];
	const values = new Map<string, string>();
	// Before the service lister has synced, the `kubernetes` Service's variables from the kubelet's flags.
	const service = ctx.services?.length ? servicesForPod(pod, ctx.services).flatMap(serviceEnv) : kubernetesServiceEnv(ctx.kubernetesServiceHost);
	const serviceMap = new Map(service.map((e) => [e.name, e.value]));
	const set = (name: string, value: string) => {
		const existing = out.findIndex((e) => e.name === name);
		if (existing >= 0) out.splice(existing, 1);
		out.push({ name, value });
		values.set(name, value);
	};
	const kindName = (kind: 'ConfigMap' | 'Secret') => (kind === 'ConfigMap' ? 'configmap' : 'secret');
	for (const from of container.envFrom ?? []) {
		const ref = (from.configMapRef ?? from.secretRef) as { name?: string; optional?: boolean } | undefined;
		if (!ref?.name) continue;
		const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
		const obj = ctx.read(kind, namespace, ref.name);
		if (!obj) {
			if (ref.optional) continue;
			return { ok: false, message: `${kindName(kind)} "${ref.name}" not found` };
		}
		const prefix = typeof from.prefix === 'string' ? from.prefix : '';
		for (const [k, v] of Object.entries(dataOf(obj))) set(prefix + k, v);
	}
	for (const e of container.env ?? []) {
		if (e.value !== undefined || !e.valueFrom) {
			set(e.name, expandEnv(e.value ?? '', (n) => values.get(n) ?? serviceMap.get(n)));
			continue;
		}
		const from = e.valueFrom as { fieldRef?: { fieldPath?: string }; resourceFieldRef?: { resource?: string; divisor?: string; containerName?: string }; configMapKeyRef?: { name?: string; key?: string; optional?: boolean }; secretKeyRef?: { name?: string; key?: string; optional?: boolean } };
		if (from.fieldRef?.fieldPath) {
			set(e.name, fieldValue(pod, from.fieldRef.fieldPath, ctx.hostIp, ctx.podIp) ?? '');
		} else if (from.resourceFieldRef?.resource) {
			const target = from.resourceFieldRef.containerName ? (pod.spec.containers.find((c) => c.name === from.resourceFieldRef?.containerName) ?? container) : container;
			set(e.name, resourceValue(target, from.resourceFieldRef.resource, from.resourceFieldRef.divisor, ctx.nodeAllocatable));
		} else {
			const ref = from.configMapKeyRef ?? from.secretKeyRef;
			const kind = from.configMapKeyRef ? 'ConfigMap' : 'Secret';
			if (!ref?.name || !ref.key) continue;
			const obj = ctx.read(kind, namespace, ref.name);
			if (!obj) {
				if (ref.optional) continue;
				return { ok: false, message: `${kindName(kind)} "${ref.name}" not found` };
			}
			const data = dataOf(obj);
			if (!Object.hasOwn(data, ref.key)) {
				if (ref.optional) continue;
				return { ok: false, message: `couldn't find key ${ref.key} in ${kind} ${namespace}/${ref.name}` };
			}
			set(e.name, data[ref.key]);
		}
	}
	for (const e of service) if (!values.has(e.name)) out.push(e);
	return { ok: true, env: out };
}
