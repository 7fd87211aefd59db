/**
 * The API server endpoint kubeadm sets up (the apiserver serving
 * certificate's SANs are the node name, kubernetes, kubernetes.default,
 * kubernetes.default.svc, kubernetes.default.svc.<dns-domain>, the first
 * service IP and the advertise address; --secure-port 6443). A convenience
 * for the wiring.
 *
 * Mirrors cmd/kubeadm/app/util/pkiutil/pki_helpers.go
 * (GetAPIServerAltNames), cmd/kubeadm/app/phases/certs/certs.go.
 */
import type { ApiServerEndpoint } from './types.ts';

export function kubeadmApiServer(nodeName: string, advertiseAddress: string, issuedAtMs: number, options: { serviceIp?: string; dnsDomain?: string; port?: number } = {}): ApiServerEndpoint {
	const domain = options.dnsDomain ?? 'cluster.local';
	return {
		ip: advertiseAddress,
		port: options.port ?? 6443,
		nodeName,
		certSans: [nodeName, 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', `kubernetes.default.svc.${domain}`, options.serviceIp ?? '10.96.0.1', advertiseAddress],
		certIssuedAtMs: issuedAtMs,
	};
}
