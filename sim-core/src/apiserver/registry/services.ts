/**
 * The Service strategy: defaults, ClusterIP and NodePort allocation, IP
 * family fields, validation (ports, selector, type, traffic policies,
 * cluster IPs) and the immutability of allocated values on update.
 *
 * The simulated cluster is IPv4 single-stack, as a default kubeadm cluster.
 *
 * Mirrors pkg/registry/core/service/strategy.go,
 * pkg/registry/core/service/storage/alloc.go, pkg/apis/core/v1/defaults.go
 * (SetDefaults_Service), pkg/apis/core/validation/validation.go
 * (ValidateService, ValidateServiceUpdate).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy, StrategyContext } from './strategy.ts';
import { asArray, asRecord, asStringMap, child, duplicate, forbidden, jsonIntOrString, jsonStringSlice, index, invalid, notSupported, required, type FieldError } from './field.ts';
import { goQuote } from '../../golang/json.ts';
import { metaErrors, nameIsDNS1035Label, validateDNS1123Label, validateDNS1123Subdomain, validateIP, validateLabels, validateObjectMetaUpdate, validatePortNumOrName, validateQualifiedName, isValidPortNum } from './objectmeta.ts';
import { allocateClusterIP, allocateNodePort, clusterIPProblem, nodePortProblem } from './service-allocation.ts';

type Json = Record<string, unknown>;

const specOf = (obj: KubeObject) => (asRecord(obj.spec) ?? (obj.spec = {})) as Json;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** service.ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs. */
function externallyAccessible(spec: Json): boolean {
	return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && asArray(spec.externalIPs).length > 0);
}

/** Whether the Service's ports get node ports. */
function needsNodePorts(spec: Json): boolean {
	return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

/** apiservice.NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
function needsHealthCheck(spec: Json): boolean {
	return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

function isHeadless(spec: Json): boolean {
	const ips = asArray<string>(spec.clusterIPs);
	return ips.length === 1 && ips[0] === 'None';
}

/** SetDefaults_Service. */
function defaultService(obj: KubeObject): void {
	const spec = specOf(obj);
	if (!spec.sessionAffinity) spec.sessionAffinity = 'None';
	if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
	if (spec.sessionAffinity === 'ClientIP') {
		const timeout = asRecord(asRecord(asRecord(spec.sessionAffinityConfig)?.clientIP))?.timeoutSeconds;
		// v1.DefaultClientIPServiceAffinitySeconds = 10800 (3 hours).
		if (timeout === undefined) spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: 10800 } };
	}
	if (!spec.type) spec.type = 'ClusterIP';
	for (const p of asArray<Json>(spec.ports)) {
		if (!p) continue;
		if (!p.protocol) p.protocol = 'TCP';
		if (p.targetPort === undefined || p.targetPort === 0 || p.targetPort === '') p.targetPort = p.port;
	}
	if (externallyAccessible(spec) && !spec.externalTrafficPolicy) spec.externalTrafficPolicy = 'Cluster';
	if (spec.internalTrafficPolicy === undefined && ['NodePort', 'LoadBalancer', 'ClusterIP'].includes(str(spec.type))) spec.internalTrafficPolicy = 'Cluster';
	if (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) spec.allocateLoadBalancerNodePorts = true;
}

/** Keeps clusterIP and clusterIPs in step: whichever the user set fills the other (strategy normalizeClusterIPs). */
function normalizeClusterIPs(spec: Json, old?: Json): void {
	const ip = str(spec.clusterIP);
	const ips = asArray<string>(spec.clusterIPs);
	if (old && ip !== str(old.clusterIP) && JSON.stringify(ips) === JSON.stringify(asArray(old.clusterIPs))) {
		// Only clusterIP changed: carry the change into clusterIPs so validation sees it.
		if (ip) spec.clusterIPs = [ip, ...ips.slice(1)];
		else delete spec.clusterIPs;
		return;
	}
	if (ip && ips.length === 0) spec.clusterIPs = [ip];
	if (!ip && ips.length > 0) spec.clusterIP = ips[0];
}

/** initIPFamilyFields (alloc.go) for a single-stack IPv4 cluster. */
function initIPFamilies(spec: Json): void {
	if (spec.type === 'ExternalName') return;
	if (!spec.ipFamilyPolicy) {
		// A headless Service without a selector is dual-stack when the cluster is; here that means IPv4 only.
		spec.ipFamilyPolicy = isHeadless(spec) && !asRecord(spec.selector) ? 'RequireDualStack' : 'SingleStack';
	}
	if (asArray(spec.ipFamilies).length === 0) spec.ipFamilies = ['IPv4'];
}

/** Allocates the cluster IP (when none was asked for) and the node ports. */
function allocate(obj: KubeObject, ctx: StrategyContext): void {
	const spec = specOf(obj);
	if (spec.type === 'ExternalName') return;
	initIPFamilies(spec);
	if (!str(spec.clusterIP)) {
		const ip = allocateClusterIP(ctx, obj);
		if (ip) {
			spec.clusterIP = ip;
			spec.clusterIPs = [ip];
		}
	}
	allocateNodePorts(obj, ctx);
}

/** Node ports for every port without one; ports sharing a number share the node port (one per protocol). */
function allocateNodePorts(obj: KubeObject, ctx: StrategyContext): void {
	const spec = specOf(obj);
	if (!needsNodePorts(spec)) return;
	const taken = new Set<number>();
	const byPort = new Map<number, number>();
	for (const p of asArray<Json>(spec.ports)) {
		if (typeof p?.nodePort === 'number' && p.nodePort) {
			taken.add(p.nodePort);
			byPort.set(Number(p.port), p.nodePort);
		}
	}
	for (const p of asArray<Json>(spec.ports)) {
		if (!p || (typeof p.nodePort === 'number' && p.nodePort)) continue;
		const shared = byPort.get(Number(p.port));
		const port = shared ?? allocateNodePort(ctx, obj, taken);
		if (port === undefined) continue;
		p.nodePort = port;
		taken.add(port);
		byPort.set(Number(p.port), port);
	}
	if (needsHealthCheck(spec) && !spec.healthCheckNodePort) {
		const port = allocateNodePort(ctx, obj, taken);
		if (port !== undefined) spec.healthCheckNodePort = port;
	}
}

/** The duplicate-port key, an internal core.ServicePort, as json.Marshal writes it: no json tags, so Go's field names. */
function servicePortKeyJson(protocol: string, port: number): string {
	return `{"Name":"","Protocol":${goQuote(protocol)},"AppProtocol":null,"Port":${port},"TargetPort":${jsonIntOrString(0)},"NodePort":0}`;
}

function validateServicePort(p: Json, requireName: boolean, names: Set<string>, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const name = str(p.name);
	if (requireName && !name) errs.push(required(child(path, 'name')));
	else if (name) {
		errs.push(...validateDNS1123Label(name, child(path, 'name')));
		if (names.has(name)) errs.push(duplicate(child(path, 'name'), name));
		else names.add(name);
	}
	for (const m of isValidPortNum(Number(p.port ?? 0))) errs.push(invalid(child(path, 'port'), p.port ?? 0, m));
	const protocol = str(p.protocol);
	if (!protocol) errs.push(required(child(path, 'protocol')));
	else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(notSupported(child(path, 'protocol'), protocol, ['SCTP', 'TCP', 'UDP']));
	errs.push(...validatePortNumOrName(p.targetPort, child(path, 'targetPort')));
	if (typeof p.appProtocol === 'string') errs.push(...validateQualifiedName(p.appProtocol, child(path, 'appProtocol')));
	return errs;
}

/** ValidateServiceClusterIPsRelatedFields. */
function validateClusterIPFields(spec: Json): FieldError[] {
	if (spec.type === 'ExternalName') return [];
	const errs: FieldError[] = [];
	const ip = str(spec.clusterIP);
	const ips = asArray<string>(spec.clusterIPs);
	if (ip) {
		if (ips.length === 0) errs.push(required('spec.clusterIPs'));
		else if (ips[0] !== ip) errs.push(invalid('spec.clusterIPs', ips, 'first value must match `clusterIP`', jsonStringSlice(ips)));
	} else if (ips.length) errs.push(invalid('spec.clusterIPs', ips, 'must be empty when `clusterIP` is not specified', jsonStringSlice(ips)));
	const seen = new Set<string>();
	asArray<string>(spec.ipFamilies).forEach((f, i) => {
		if (f !== 'IPv4' && f !== 'IPv6') errs.push(notSupported(`spec.ipFamilies[${i}]`, f, ['IPv4', 'IPv6']));
		if (seen.has(f)) errs.push(duplicate(`spec.ipFamilies[${i}]`, f));
		seen.add(f);
	});
	const policy = spec.ipFamilyPolicy;
	if (policy !== undefined && !['PreferDualStack', 'RequireDualStack', 'SingleStack'].includes(str(policy))) {
		errs.push(notSupported('spec.ipFamilyPolicy', policy, ['PreferDualStack', 'RequireDualStack', 'SingleStack']));
	}
	let badIPs = false;
	ips.forEach((value, i) => {
		if (i === 0 && value === 'None') {
			if (ips.length > 1) {
				badIPs = true;
				errs.push(invalid('spec.clusterIPs', ips, "'None' must be the first and only value", jsonStringSlice(ips)));
			}
			return;
		}
		const e = validateIP(value, `spec.clusterIPs[${i}]`);
		if (e.length) badIPs = true;
		errs.push(...e);
	});
	if (ips.length > 2) errs.push(invalid('spec.clusterIPs', ips, 'may only hold up to 2 values', jsonStringSlice(ips)));
	if (badIPs) return errs;
	if (ips.length > 1) errs.push(invalid('spec.clusterIPs', ips, 'may specify no more than one IP for each IP family', jsonStringSlice(ips)));
	return errs;
}

/** ValidateService. */
function validateService(obj: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	const errs = metaErrors(obj, true, nameIsDNS1035Label);
	const type = str(spec.type);
	const ports = asArray<Json>(spec.ports);
	const headless = isHeadless(spec);
	if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required('spec.ports'));
	if (type === 'LoadBalancer' && headless) errs.push(invalid('spec.clusterIPs[0]', 'None', "may not be set to 'None' for LoadBalancer services"));
	if (type === 'NodePort' && headless) errs.push(invalid('spec.clusterIPs[0]', 'None', "may not be set to 'None' for NodePort services"));
	if (type === 'ExternalName') {
		if (asArray(spec.clusterIPs).length) errs.push(forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
		if (asArray(spec.ipFamilies).length) errs.push(forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
		if (spec.ipFamilyPolicy !== undefined) errs.push(forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
		const cname = str(spec.externalName).replace(/\.$/, '');
		if (cname) errs.push(...validateDNS1123Subdomain(cname, 'spec.externalName'));
		else errs.push(required('spec.externalName'));
	}
	const names = new Set<string>();
	ports.forEach((p, i) => errs.push(...validateServicePort(p ?? {}, ports.length > 1, names, index('spec.ports', i))));
	if (spec.selector !== undefined) errs.push(...validateLabels(asStringMap(spec.selector), 'spec.selector'));
	const affinity = str(spec.sessionAffinity);
	if (!affinity) errs.push(required('spec.sessionAffinity'));
	else if (affinity !== 'ClientIP' && affinity !== 'None') errs.push(notSupported('spec.sessionAffinity', affinity, ['ClientIP', 'None']));
	errs.push(...validateClusterIPFields(spec));
	asArray<string>(spec.externalIPs).forEach((ip, i) => errs.push(...validateIP(ip, `spec.externalIPs[${i}]`)));
	const types = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
	if (!type) errs.push(required('spec.type'));
	else if (!types.includes(type)) errs.push(notSupported('spec.type', type, types));
	if (type === 'ClusterIP') {
		ports.forEach((p, i) => {
			if (p?.nodePort) errs.push(forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
		});
	}
	const nodePorts = new Set<string>();
	const portKeys = new Set<string>();
	ports.forEach((p, i) => {
		if (p?.nodePort) {
			const k = `${str(p.protocol)}/${p.nodePort}`;
			if (nodePorts.has(k)) errs.push(duplicate(`spec.ports[${i}].nodePort`, p.nodePort));
			nodePorts.add(k);
		}
		const k = `${str(p?.protocol)}/${p?.port}`;
		if (portKeys.has(k)) errs.push(duplicate(`spec.ports[${i}]`, k, servicePortKeyJson(str(p?.protocol), Number(p?.port))));
		portKeys.add(k);
	});
	if (spec.allocateLoadBalancerNodePorts !== undefined && type !== 'LoadBalancer') {
		errs.push(forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
	}
	if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) errs.push(required('allocateLoadBalancerNodePorts'));
	const etp = str(spec.externalTrafficPolicy);
	if (!externallyAccessible(spec)) {
		if (etp) errs.push(invalid('spec.externalTrafficPolicy', etp, 'may only be set for externally-accessible services'));
	} else if (!etp) errs.push(required('spec.externalTrafficPolicy'));
	else if (etp !== 'Cluster' && etp !== 'Local') errs.push(notSupported('spec.externalTrafficPolicy', etp, ['Cluster', 'Local']));
	if (!needsHealthCheck(spec)) {
		if (spec.healthCheckNodePort) errs.push(invalid('spec.healthCheckNodePort', spec.healthCheckNodePort, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
	}
	const itp = spec.internalTrafficPolicy;
	if (itp === undefined) {
		if (['NodePort', 'LoadBalancer', 'ClusterIP'].includes(type)) errs.push(required('spec.internalTrafficPolicy'));
	} else if (itp !== 'Cluster' && itp !== 'Local') errs.push(notSupported('spec.internalTrafficPolicy', itp, ['Cluster', 'Local']));
	return errs;
}

/** The allocation errors of requested cluster IPs and node ports (alloc.go), checked against the other Services. */
function allocationErrors(obj: KubeObject, ctx: StrategyContext, old?: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	const oldSpec = asRecord(old?.spec) ?? {};
	const errs: FieldError[] = [];
	const ips = asArray<string>(spec.clusterIPs);
	if (spec.type !== 'ExternalName' && ips.length && ips[0] !== 'None' && ips[0] !== asArray<string>(oldSpec.clusterIPs)[0]) {
		const problem = clusterIPProblem(ctx, obj, ips[0]);
		if (problem) errs.push(invalid('spec.clusterIPs', ips, `failed to allocate IP ${ips[0]}: ${problem}`, jsonStringSlice(ips)));
	}
	const oldNodePorts = new Set(asArray<Json>(oldSpec.ports).map((p) => p?.nodePort));
	asArray<Json>(spec.ports).forEach((p, i) => {
		if (typeof p?.nodePort !== 'number' || !p.nodePort || oldNodePorts.has(p.nodePort)) return;
		const problem = nodePortProblem(ctx, obj, p.nodePort);
		if (problem) errs.push(invalid(`spec.ports[${i}].nodePort`, p.nodePort, problem));
	});
	return errs;
}

/** validateUpgradeDowngradeClusterIPs for a single-stack cluster: the primary cluster IP is fixed once set. */
function clusterIPUpdateErrors(spec: Json, oldSpec: Json): FieldError[] {
	if (spec.type === 'ExternalName' || oldSpec.type === 'ExternalName') return [];
	if (isHeadless(spec) && isHeadless(oldSpec)) return [];
	const ips = asArray<string>(spec.clusterIPs);
	const oldIPs = asArray<string>(oldSpec.clusterIPs);
	const errs: FieldError[] = [];
	if (oldIPs.length === ips.length) {
		oldIPs.forEach((ip, i) => {
			if (ip !== ips[i]) errs.push(invalid(`spec.clusterIPs[${i}]`, ips, 'may not change once set', jsonStringSlice(ips)));
		});
	} else if (oldIPs.length > ips.length) {
		if (ips.length === 0) errs.push(invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset', jsonStringSlice(ips)));
		else if (ips[0] !== oldIPs[0]) errs.push(invalid('spec.clusterIPs[0]', ips, 'may not change once set', jsonStringSlice(ips)));
	} else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
		errs.push(invalid('spec.clusterIPs[0]', ips, 'may not change once set', jsonStringSlice(ips)));
	}
	return errs;
}

/** patchAllocatedValues and dropTypeDependentFields (storage.go): an update that omits allocated values keeps them. */
function carryAllocatedValues(spec: Json, oldSpec: Json): void {
	if (spec.type !== 'ExternalName' && oldSpec.type !== 'ExternalName') {
		if (!str(spec.clusterIP) && asArray(spec.clusterIPs).length === 0) {
			if (oldSpec.clusterIP !== undefined) spec.clusterIP = oldSpec.clusterIP;
			if (oldSpec.clusterIPs !== undefined) spec.clusterIPs = oldSpec.clusterIPs;
		}
		if (spec.ipFamilies === undefined && oldSpec.ipFamilies !== undefined) spec.ipFamilies = oldSpec.ipFamilies;
		if (spec.ipFamilyPolicy === undefined && oldSpec.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = oldSpec.ipFamilyPolicy;
	}
	if (spec.type === 'ExternalName' && oldSpec.type !== 'ExternalName') {
		// Switching to ExternalName drops the allocated fields the user did not change.
		if (spec.clusterIP === oldSpec.clusterIP) delete spec.clusterIP;
		if (JSON.stringify(spec.clusterIPs) === JSON.stringify(oldSpec.clusterIPs)) delete spec.clusterIPs;
		if (JSON.stringify(spec.ipFamilies) === JSON.stringify(oldSpec.ipFamilies)) delete spec.ipFamilies;
		if (spec.ipFamilyPolicy === oldSpec.ipFamilyPolicy) delete spec.ipFamilyPolicy;
	}
	if (needsNodePorts(spec) && needsNodePorts(oldSpec)) {
		const oldPorts = asArray<Json>(oldSpec.ports);
		for (const p of asArray<Json>(spec.ports)) {
			if (!p || p.nodePort) continue;
			const match = oldPorts.find((o) => o?.port === p.port && (o?.protocol ?? 'TCP') === (p.protocol ?? 'TCP'));
			if (match?.nodePort) p.nodePort = match.nodePort;
		}
	} else if (!needsNodePorts(spec) && needsNodePorts(oldSpec)) {
		const oldPorts = asArray<Json>(oldSpec.ports);
		for (const p of asArray<Json>(spec.ports)) {
			const match = oldPorts.find((o) => o?.port === p?.port && o?.nodePort === p?.nodePort);
			if (p && match) delete p.nodePort;
		}
	}
	if (needsHealthCheck(spec) && needsHealthCheck(oldSpec) && !spec.healthCheckNodePort) spec.healthCheckNodePort = oldSpec.healthCheckNodePort;
	if (!needsHealthCheck(spec) && spec.healthCheckNodePort === oldSpec.healthCheckNodePort) delete spec.healthCheckNodePort;
}

export const serviceStrategy: Strategy = {
	hasStatusSubresource: true,
	defaults: defaultService,
	prepareForCreate(obj, ctx) {
		const spec = specOf(obj);
		normalizeClusterIPs(spec);
		// PrepareForCreate clears status: it serializes as `status: {loadBalancer: {}}`.
		obj.status = { loadBalancer: {} };
		allocate(obj, ctx);
	},
	prepareForUpdate(obj, old, ctx) {
		const spec = specOf(obj);
		const oldSpec = asRecord(old.spec) ?? {};
		normalizeClusterIPs(spec, oldSpec);
		carryAllocatedValues(spec, oldSpec);
		if (spec.type !== 'ExternalName') {
			initIPFamilies(spec);
			if (oldSpec.type === 'ExternalName' && !str(spec.clusterIP)) allocate(obj, ctx);
			else allocateNodePorts(obj, ctx);
		}
	},
	validate(obj, ctx) {
		const allocation = allocationErrors(obj, ctx);
		return allocation.length ? allocation : validateService(obj);
	},
	validateUpdate(obj, old, ctx) {
		const allocation = allocationErrors(obj, ctx, old);
		if (allocation.length) return allocation;
		const spec = asRecord(obj.spec) ?? {};
		const oldSpec = asRecord(old.spec) ?? {};
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...clusterIPUpdateErrors(spec, oldSpec), ...validateService(obj)];
	},
	validateStatusUpdate(obj, old) {
		return validateObjectMetaUpdate(obj.metadata, old.metadata);
	},
};
