/**
 * The objects of `kubectl create ingress` and `kubectl create quota`.
 *
 * An ingress rule is `host/path=service:port[,tls[=secret]]`: rules of one
 * host share one rule entry, each path its own; a path ending in `*` is a
 * Prefix path (the star dropped), any other an Exact one; a port that is a
 * number is a port number, otherwise a port name; `,tls` puts the host in
 * a TLS entry (with the secret, if named), each host once, hosts of one
 * secret together. A quota is `--hard=resource=quantity,...` and
 * `--scopes=A,B`, the quantities checked as the API server parses them.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_ingress.go
 * (ruleRegex, Validate, buildIngressSpec, buildTLSRules, buildIngressRules,
 * buildHTTPIngressPath, parseServiceBackendPort),
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_quota.go
 * (populateResourceListV1, parseScopes).
 */
import type { KubeObject } from '../../api/types.ts';
import { parseQuantity, QuantityParseError } from '../../api/quantity.ts';
import { plain, type KubectlError } from './check-err.ts';
import type { Generated } from './create-generators.ts';


/** ruleRegex: host, a path from `/`, `=svc:port`, then an optional `,tls[=secret]`. */
const RULE = /^[\w*.-]*\/[^,=\n]*=[\w-]+:[\w-]+(,tls=?[\w-]+)?$/;

interface Backend {
	service: { name: string; port: { number?: number; name?: string } };
}

/** buildIngressBackendSvc / parseServiceBackendPort. */
function backendOf(service: string): Backend {
	const [name, port] = service.split(':');
	return { service: { name, port: /^-?\d+$/.test(port) ? { number: Number(port) } : { name: port } } };
}

/** Validate: enough to build an ingress, each rule and annotation well formed. */
export function ingressProblem(rules: readonly string[], annotations: readonly string[], defaultBackend: string): KubectlError | undefined {
	if (!defaultBackend && rules.length === 0) return plain('not enough information provided: every ingress has to either specify a default-backend (which catches all traffic) or a list of rules (which catch specific paths)');
	const bad = rules.find((r) => !RULE.test(r));
	if (bad !== undefined) return plain(`rule ${bad} is invalid and should be in format host/path=svcname:svcport[,tls[=secret]]`);
	const badAnnotation = annotations.find((a) => !a.includes('='));
	if (badAnnotation !== undefined) return plain(`annotation ${badAnnotation} is invalid and should be in format key=[value]`);
	if (defaultBackend && defaultBackend.split(':').length !== 2) return plain('default-backend should be in format servicename:serviceport');
	return undefined;
}

/** The Ingress `kubectl create ingress NAME` builds. */
export function ingress(name: string, namespace: string | undefined, o: { ingressClass: string; rules: readonly string[]; annotations: readonly string[]; defaultBackend: string }): Generated {
	const metadata: Record<string, unknown> = { name };
	if (namespace) metadata.namespace = namespace;
	const annotations = Object.fromEntries(o.annotations.map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]));
	if (Object.keys(annotations).length) metadata.annotations = annotations;
	const spec: Record<string, unknown> = {};
	if (o.ingressClass) spec.ingressClassName = o.ingressClass;
	if (o.defaultBackend) spec.defaultBackend = backendOf(o.defaultBackend);
	const tls: Array<{ hosts?: string[]; secretName?: string }> = [];
	const tlsHosts = new Set<string>();
	for (const rule of o.rules) {
		const parts = rule.split(',');
		if (parts.length !== 2) continue;
		const host = rule.split('/')[0];
		const secret = parts[1].split('=')[1] ?? '';
		if (tlsHosts.has(host)) continue;
		tlsHosts.add(host);
		const same = tls.find((t) => (t.secretName ?? '') === secret);
		if (same) {
			(same.hosts ??= []).push(host);
			continue;
		}
		const entry: { hosts?: string[]; secretName?: string } = {};
		if (host) entry.hosts = [host];
		if (secret) entry.secretName = secret;
		if (entry.hosts || entry.secretName) tls.push(entry);
	}
	if (tls.length) spec.tls = tls;
	const rules: Array<{ host?: string; http: { paths: unknown[] } }> = [];
	for (const rule of o.rules) {
		const withoutTls = rule.split(',')[0];
		const slash = withoutTls.indexOf('/');
		const host = withoutTls.slice(0, slash);
		const [rest, service] = withoutTls.slice(slash + 1).split('=');
		let path = `/${rest}`;
		let pathType = 'Exact';
		if (path.endsWith('*')) {
			pathType = 'Prefix';
			path = path.slice(0, -1);
		}
		const entry = { path, pathType, backend: backendOf(service) };
		const existing = rules.find((r) => (r.host ?? '') === host);
		if (existing) existing.http.paths.push(entry);
		else rules.push({ ...(host ? { host } : {}), http: { paths: [entry] } });
	}
	if (rules.length) spec.rules = rules;
	return { object: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: metadata as KubeObject['metadata'], spec, status: { loadBalancer: {} } } };
}

/** The ResourceQuota `kubectl create quota NAME` builds. */
export function quota(name: string, namespace: string | undefined, hard: string, scopes: string): Generated {
	const spec: Record<string, unknown> = {};
	if (hard) {
		const list: Record<string, string> = {};
		for (const statement of hard.split(',')) {
			const parts = statement.split('=');
			if (parts.length !== 2) return { error: plain(`Invalid argument syntax ${statement}, expected <resource>=<value>`) };
			try {
				list[parts[0]] = parseQuantity(parts[1]).toString();
			} catch (error) {
				if (error instanceof QuantityParseError) return { error: plain(error.message) };
				throw error;
			}
		}
		spec.hard = list;
	}
	if (scopes) {
		const list = scopes.split(',');
		if (list.some((s) => s === '')) return { error: plain('invalid resource quota scope ""') };
		spec.scopes = list;
	}
	const metadata: Record<string, unknown> = { name };
	if (namespace) metadata.namespace = namespace;
	return { object: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: metadata as KubeObject['metadata'], spec, status: {} } };
}
