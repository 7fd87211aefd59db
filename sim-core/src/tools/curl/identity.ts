/**
 * Who a curl request is, as kube-apiserver's authentication and the
 * bootstrap policy decide it, for what the simulated API server itself
 * does not serve (non-resource paths) and for the response headers.
 *
 * - Client certificates: kube-apiserver's x509 authenticator takes the
 *   user from the certificate's CN and the groups from its O fields, if the
 *   cluster CA (--client-ca-file) signed it. A certificate from another CA
 *   fails authentication: 401, not anonymous.
 * - Non-resource paths: RBAC's bootstrap ClusterRoles (plugin/pkg/auth/
 *   authorizer/rbac/bootstrappolicy/policy.go): system:public-info-viewer
 *   (/healthz, /livez, /readyz, /version, /version/ for everyone,
 *   authenticated or not), system:discovery (/api, /api/*, /apis, /apis/*,
 *   /openapi, /openapi/* and the public ones, for system:authenticated),
 *   system:monitoring (/metrics, /metrics/slis, /healthz/*, /livez/*,
 *   /readyz/* for the system:monitoring group), cluster-admin (everything;
 *   kubeadm binds it to kubeadm:cluster-admins, and system:masters has it).
 * - API Priority and Fairness: which FlowSchema and PriorityLevel matched
 *   (the x-kubernetes-pf-* response headers), from the suggested and
 *   mandatory configuration (apiserver/pkg/apis/flowcontrol/bootstrap).
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/authentication/request/x509/x509.go (CN
 * and O), plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go (the
 * non-resource rules),
 * staging/src/k8s.io/apiserver/pkg/apis/flowcontrol/bootstrap/default.go
 * (the suggested and mandatory configuration).
 */
import type { UserInfo } from '../../api/request.ts';
import { sha1 } from '../../golang/sha1.ts';
import { toHex } from '../../golang/sha256.ts';
import { utf8Encode } from '../../golang/utf8.ts';

/** The anonymous user (--anonymous-auth=true, kube-apiserver's default). */
export const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** Certificates kubeadm issues from the cluster CA, by path, and the identity each carries (cmd/kubeadm/app/phases/certs, kubeconfig). */
const KUBEADM_CLIENT_CERTS: Record<string, { user: string; groups: string[] } | 'other-ca'> = {
	'/etc/kubernetes/pki/apiserver-kubelet-client.crt': { user: 'kube-apiserver-kubelet-client', groups: ['kubeadm:cluster-admins'] },
	// Signed by the etcd CA or the front-proxy CA: the API server's client CA does not accept them.
	'/etc/kubernetes/pki/apiserver-etcd-client.crt': 'other-ca',
	'/etc/kubernetes/pki/etcd/healthcheck-client.crt': 'other-ca',
	'/etc/kubernetes/pki/etcd/server.crt': 'other-ca',
	'/etc/kubernetes/pki/etcd/peer.crt': 'other-ca',
	'/etc/kubernetes/pki/front-proxy-client.crt': 'other-ca',
};

/**
 * The default certificate check. A file is recognised by an OpenSSL text
 * dump in it (`Subject: O = kubeadm:cluster-admins, CN = kubernetes-admin`,
 * `Issuer: CN = kubernetes`, as `openssl x509 -text` prints), else by
 * kubeadm's well-known paths; the kubelet's rotated client certificate
 * (/var/lib/kubelet/pki/kubelet-client-current.pem) is `system:node:<host>`.
 */
export function defaultCertIdentity(hostName: string, path: string, content: string): UserInfo | undefined {
	const subject = /Subject:\s*(.+)/i.exec(content)?.[1];
	if (subject) {
		const issuer = /Issuer:\s*(.+)/i.exec(content)?.[1];
		if (issuer && !/CN\s*=\s*kubernetes\s*(,|$)/.test(issuer)) return undefined;
		const fields = subject.split(',').map((f) => f.trim().split(/\s*=\s*/));
		const cn = fields.find(([k]) => k === 'CN')?.[1];
		if (!cn) return undefined;
		const groups = fields.filter(([k]) => k === 'O').map(([, v]) => v);
		return { username: cn, groups: [...groups, 'system:authenticated'] };
	}
	if (path === '/var/lib/kubelet/pki/kubelet-client-current.pem') return { username: `system:node:${hostName}`, groups: ['system:nodes', 'system:authenticated'] };
	const known = KUBEADM_CLIENT_CERTS[path];
	if (!known || known === 'other-ca') return undefined;
	return { username: known.user, groups: [...known.groups, 'system:authenticated'] };
}

const PUBLIC_INFO = ['/healthz', '/livez', '/readyz', '/version', '/version/'];
const DISCOVERY = ['/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*', ...PUBLIC_INFO];
const MONITORING = ['/metrics', '/metrics/slis', '/livez', '/readyz', '/healthz', '/livez/*', '/readyz/*', '/healthz/*'];

/** RBAC's NonResourceURLMatches: exact, or a trailing `*` as prefix. */
function matches(patterns: readonly string[], path: string): boolean {
	return patterns.some((p) => p === '*' || p === path || (p.endsWith('*') && path.startsWith(p.slice(0, -1))));
}

/** The bootstrap policy's answer for GET on a non-resource path. */
export function defaultAuthorizeNonResource(user: UserInfo, path: string): boolean {
	const groups = user.groups;
	if (groups.includes('system:masters') || groups.includes('kubeadm:cluster-admins')) return true;
	if (matches(PUBLIC_INFO, path)) return true;
	if (groups.includes('system:authenticated') && matches(DISCOVERY, path)) return true;
	if (groups.includes('system:monitoring') && matches(MONITORING, path)) return true;
	return false;
}

/** A stable UUID for a named object (the FlowSchemas' UIDs differ per cluster; these stand in for them). */
export function nameUuid(name: string): string {
	const h = toHex(sha1(utf8Encode(name)));
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The FlowSchema and PriorityLevelConfiguration a request matches (APF bootstrap configuration). */
export function flowSchemaFor(user: UserInfo, path: string | undefined): { flowSchema: string; priorityLevel: string } {
	const groups = user.groups;
	if (groups.includes('system:masters')) return { flowSchema: 'exempt', priorityLevel: 'exempt' };
	if (path && ['/healthz', '/readyz', '/livez'].includes(path)) return { flowSchema: 'probes', priorityLevel: 'exempt' };
	if (groups.includes('system:nodes')) return { flowSchema: 'system-nodes', priorityLevel: 'system' };
	if (user.username === 'system:kube-controller-manager') return { flowSchema: 'kube-controller-manager', priorityLevel: 'workload-high' };
	if (user.username === 'system:kube-scheduler') return { flowSchema: 'kube-scheduler', priorityLevel: 'workload-high' };
	if (user.username.startsWith('system:serviceaccount:kube-system:')) return { flowSchema: 'kube-system-service-accounts', priorityLevel: 'workload-high' };
	if (user.username.startsWith('system:serviceaccount:')) return { flowSchema: 'service-accounts', priorityLevel: 'workload-low' };
	return { flowSchema: 'global-default', priorityLevel: 'global-default' };
}
