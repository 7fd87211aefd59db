/**
 * The Endpoints strategy: port protocol defaults, subset validation, the
 * v1.33 deprecation warning on every request. Endpoints may be created by an
 * update.
 *
 * Mirrors pkg/registry/core/endpoint/strategy.go,
 * pkg/apis/core/v1/defaults.go (SetDefaults_Endpoints),
 * pkg/apis/core/validation/validation.go (ValidateEndpoints).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asArray, asRecord, child, index, invalid, notSupported, required, type FieldError } from './field.ts';
import { isValidPortNum, metaErrors, validateDNS1123Label, validateIP, validateObjectMetaUpdate } from './objectmeta.ts';

type Json = Record<string, unknown>;

/** The warning the API server adds since v1.33 (KEP-4974). */
const ENDPOINTS_DEPRECATION_WARNING = 'v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice';

function validateAddress(a: Json, path: string): FieldError[] {
	const errs = validateIP(String(a?.ip ?? ''), child(path, 'ip'));
	if (typeof a?.hostname === 'string' && a.hostname) errs.push(...validateDNS1123Label(a.hostname, child(path, 'hostname')));
	const ip = String(a?.ip ?? '');
	if (ip === '0.0.0.0') errs.push(invalid(child(path, 'ip'), ip, `may not be unspecified (${ip})`));
	if (ip.startsWith('127.')) errs.push(invalid(child(path, 'ip'), ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
	if (ip.startsWith('169.254.')) errs.push(invalid(child(path, 'ip'), ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
	return errs;
}

/** validateEndpointSubsets. */
function validateEndpoints(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, true);
	asArray<Json>(obj.subsets).forEach((ss, i) => {
		const p = index('subsets', i);
		const addresses = asArray<Json>(ss?.addresses);
		const notReady = asArray<Json>(ss?.notReadyAddresses);
		if (addresses.length === 0 && notReady.length === 0) errs.push(required(p, 'must specify `addresses` or `notReadyAddresses`'));
		addresses.forEach((a, j) => errs.push(...validateAddress(a, index(child(p, 'addresses'), j))));
		notReady.forEach((a, j) => errs.push(...validateAddress(a, index(child(p, 'notReadyAddresses'), j))));
		const ports = asArray<Json>(ss?.ports);
		ports.forEach((port, j) => {
			const pp = index(child(p, 'ports'), j);
			const name = String(port?.name ?? '');
			if (ports.length > 1 && !name) errs.push(required(child(pp, 'name')));
			else if (name) errs.push(...validateDNS1123Label(name, child(pp, 'name')));
			for (const m of isValidPortNum(Number(port?.port ?? 0))) errs.push(invalid(child(pp, 'port'), port?.port ?? 0, m));
			const protocol = String(port?.protocol ?? '');
			if (!protocol) errs.push(required(child(pp, 'protocol')));
			else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(notSupported(child(pp, 'protocol'), protocol, ['SCTP', 'TCP', 'UDP']));
		});
	});
	return errs;
}

export const endpointsStrategy: Strategy = {
	allowCreateOnUpdate: true,
	warnings: [ENDPOINTS_DEPRECATION_WARNING],
	defaults(obj) {
		for (const ss of asArray<Json>(obj.subsets)) {
			for (const port of asArray<Json>(asRecord(ss)?.ports)) if (port && !port.protocol) port.protocol = 'TCP';
		}
	},
	validate: validateEndpoints,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateEndpoints(obj)];
	},
};
