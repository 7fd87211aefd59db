/**
 * The EndpointSlice strategy: port defaults (name "", protocol TCP), address
 * type, endpoint addresses and ports.
 *
 * Mirrors pkg/registry/discovery/endpointslice/strategy.go,
 * pkg/apis/discovery/v1/defaults.go (SetDefaults_EndpointPort),
 * pkg/apis/discovery/validation/validation.go (ValidateEndpointSlice).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asArray, child, index, invalid, notSupported, required, type FieldError } from './field.ts';
import { isValidPortNum, metaErrors, validateDNS1123Label, validateIP, validateObjectMetaUpdate } from './objectmeta.ts';
import { isDNS1123Subdomain } from '../../api/labels.ts';
import { jsonEquals } from './field.ts';

type Json = Record<string, unknown>;

/** maxAddresses and maxPorts / maxEndpoints (discovery validation.go). */
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];

/** ValidateEndpointSlice (the common parts). */
function validateEndpointSlice(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, true);
	const addressType = String(obj.addressType ?? '');
	if (!addressType) errs.push(required('addressType'));
	else if (!ADDRESS_TYPES.includes(addressType)) errs.push(notSupported('addressType', addressType, ADDRESS_TYPES));
	const endpoints = asArray<Json>(obj.endpoints);
	if (endpoints.length > MAX_ENDPOINTS) errs.push({ field: 'endpoints', type: 'FieldValueTooMany', detail: `must have at most ${MAX_ENDPOINTS} items` });
	endpoints.forEach((ep, i) => {
		const p = index('endpoints', i);
		const addresses = asArray<string>(ep?.addresses);
		if (addresses.length === 0) errs.push(required(child(p, 'addresses'), 'must contain at least 1 address'));
		else if (addresses.length > MAX_ADDRESSES) errs.push({ field: child(p, 'addresses'), type: 'FieldValueTooMany', detail: `must have at most ${MAX_ADDRESSES} items` });
		addresses.forEach((a, j) => {
			const ap = index(child(p, 'addresses'), j);
			if (addressType === 'FQDN') for (const m of isDNS1123Subdomain(a)) errs.push(invalid(ap, a, m));
			else errs.push(...validateIP(a, ap));
		});
		if (typeof ep?.nodeName === 'string') for (const m of isDNS1123Subdomain(ep.nodeName)) errs.push(invalid(child(p, 'nodeName'), ep.nodeName, m));
		if (typeof ep?.hostname === 'string') errs.push(...validateDNS1123Label(ep.hostname, child(p, 'hostname')));
	});
	const ports = asArray<Json>(obj.ports);
	if (ports.length > MAX_PORTS) errs.push({ field: 'ports', type: 'FieldValueTooMany', detail: `must have at most ${MAX_PORTS} items` });
	const names = new Set<string>();
	ports.forEach((port, i) => {
		const p = index('ports', i);
		const name = String(port?.name ?? '');
		if (name) errs.push(...validateDNS1123Label(name, child(p, 'name')));
		if (names.has(name)) errs.push({ field: child(p, 'name'), type: 'FieldValueDuplicate', value: name });
		names.add(name);
		if (port?.port !== undefined && port?.port !== null) for (const m of isValidPortNum(Number(port.port))) errs.push(invalid(child(p, 'port'), port.port, m));
		const protocol = String(port?.protocol ?? '');
		if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(notSupported(child(p, 'protocol'), protocol, ['SCTP', 'TCP', 'UDP']));
	});
	return errs;
}

export const endpointSliceStrategy: Strategy = {
	defaults(obj) {
		for (const port of asArray<Json>(obj.ports)) {
			if (!port) continue;
			if (port.name === undefined || port.name === null) port.name = '';
			if (!port.protocol) port.protocol = 'TCP';
		}
	},
	// An EndpointSlice has no spec: its generation counts changes to anything
	// outside metadata, and to its labels (kube-proxy keys on them).
	prepareForCreate(obj) {
		obj.metadata.generation = 1;
	},
	prepareForUpdate(obj, old) {
		const { metadata: newMeta, ...newBody } = obj;
		const { metadata: oldMeta, ...oldBody } = old;
		const changed = !jsonEquals(newBody, oldBody) || !jsonEquals(newMeta.labels ?? {}, oldMeta.labels ?? {});
		newMeta.generation = (oldMeta.generation ?? 0) + (changed ? 1 : 0);
	},
	validate: validateEndpointSlice,
	validateUpdate(obj, old) {
		const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
		if (obj.addressType !== old.addressType) errs.push(invalid('addressType', obj.addressType ?? '', 'field is immutable'));
		return [...errs, ...validateEndpointSlice(obj)];
	},
};
