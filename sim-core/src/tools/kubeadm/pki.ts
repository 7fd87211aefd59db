/**
 * The certificates `kubeadm init` issues, and how long each lasts: the
 * three CAs (ten years), the leaf certificates and the client certificates
 * embedded in the control plane's kubeconfigs (one year, or the
 * ClusterConfiguration's certificateValidityPeriod), every one backdated
 * five minutes so that a clock a little behind still accepts it. The
 * kubelets' client certificates are not kubeadm's: the CSR signer in
 * kube-controller-manager issues them for --cluster-signing-duration
 * (8760h), and the kubelet rotates them itself, so `kubeadm certs` leaves
 * them out.
 *
 * Also the table `kubeadm certs check-expiration` and `renew` walk: each
 * certificate's name, the long name renew prints, its file and its CA,
 * sorted by name as the renewal manager sorts them.
 *
 * Mirrors cmd/kubeadm/app/phases/certs/certlist.go (the certificates and
 * their long names), cmd/kubeadm/app/constants/constants.go
 * (CertificateBackdate, CertificateValidityPeriod,
 * CACertificateValidityPeriod), cmd/kubeadm/app/util/pkiutil/pki_helpers.go
 * (NotBefore and NotAfter), cmd/kubeadm/app/phases/certs/renewal/manager.go
 * (the kubeconfig certificates, the sort).
 */
import { decodeBase64, encodeBase64 } from '../../golang/base64.ts';
import { tryParseGoDurationMs } from '../../golang/duration.ts';
import { certificatePem, type DistinguishedName } from '../../host/pem.ts';

/** constants.CertificateBackdate: NotBefore is five minutes before kubeadm ran. */
export const CERTIFICATE_BACKDATE_MS = 5 * 60_000;
/** constants.CertificateValidityPeriod: 8760h, one year. */
export const DEFAULT_CERTIFICATE_VALIDITY_MS = 8760 * 3_600_000;
/** constants.CACertificateValidityPeriod: 87600h, ten years. */
export const DEFAULT_CA_CERTIFICATE_VALIDITY_MS = 87600 * 3_600_000;
/** kube-controller-manager's --cluster-signing-duration default: what a kubelet's client certificate lasts. */
export const CLUSTER_SIGNING_DURATION_MS = 8760 * 3_600_000;

/** The API server's serving certificate (--tls-cert-file). */
export const SERVING_CERTIFICATE = '/etc/kubernetes/pki/apiserver.crt';

/** When kubeadm issued the cluster's certificates, and for how long. */
export interface PkiDates {
	issuedMs: number;
	certificateValidityMs: number;
	caCertificateValidityMs: number;
}

export type CaName = 'ca' | 'etcd-ca' | 'front-proxy-ca';

/** The CAs: name as check-expiration prints it, file, and subject CN. */
export const KUBEADM_CAS: ReadonlyArray<{ name: CaName; path: string; commonName: string }> = [
	{ name: 'ca', path: '/etc/kubernetes/pki/ca.crt', commonName: 'kubernetes' },
	{ name: 'etcd-ca', path: '/etc/kubernetes/pki/etcd/ca.crt', commonName: 'etcd-ca' },
	{ name: 'front-proxy-ca', path: '/etc/kubernetes/pki/front-proxy-ca.crt', commonName: 'front-proxy-ca' },
];

/** One certificate kubeadm manages. */
export interface KubeadmCertificate {
	name: string;
	/** What `kubeadm certs renew` prints before "renewed". */
	longName: string;
	/** The .crt file, or the kubeconfig whose user embeds the certificate. */
	path: string;
	kubeconfig: boolean;
	ca: CaName;
	/** CN and O; `node` stands for the machine's name (etcd's serving and peer certificates). */
	subject: (node: string) => DistinguishedName;
}

const subject = (commonName: string, organizations: string[] = []) => () => ({ commonName, organizations });

/** Sorted by name, as the renewal manager lists them. */
export const KUBEADM_CERTIFICATES: readonly KubeadmCertificate[] = [
	{ name: 'admin.conf', longName: 'certificate embedded in the kubeconfig file for the admin to use and for kubeadm itself', path: '/etc/kubernetes/admin.conf', kubeconfig: true, ca: 'ca', subject: subject('kubernetes-admin', ['kubeadm:cluster-admins']) },
	{ name: 'apiserver', longName: 'certificate for serving the Kubernetes API', path: '/etc/kubernetes/pki/apiserver.crt', kubeconfig: false, ca: 'ca', subject: subject('kube-apiserver') },
	{ name: 'apiserver-etcd-client', longName: 'certificate the apiserver uses to access etcd', path: '/etc/kubernetes/pki/apiserver-etcd-client.crt', kubeconfig: false, ca: 'etcd-ca', subject: subject('kube-apiserver-etcd-client') },
	{ name: 'apiserver-kubelet-client', longName: 'certificate for the API server to connect to kubelet', path: '/etc/kubernetes/pki/apiserver-kubelet-client.crt', kubeconfig: false, ca: 'ca', subject: subject('kube-apiserver-kubelet-client', ['kubeadm:cluster-admins']) },
	{ name: 'controller-manager.conf', longName: 'certificate embedded in the kubeconfig file for the controller manager to use', path: '/etc/kubernetes/controller-manager.conf', kubeconfig: true, ca: 'ca', subject: subject('system:kube-controller-manager') },
	{ name: 'etcd-healthcheck-client', longName: 'certificate for liveness probes to healthcheck etcd', path: '/etc/kubernetes/pki/etcd/healthcheck-client.crt', kubeconfig: false, ca: 'etcd-ca', subject: subject('kube-etcd-healthcheck-client') },
	{ name: 'etcd-peer', longName: 'certificate for etcd nodes to communicate with each other', path: '/etc/kubernetes/pki/etcd/peer.crt', kubeconfig: false, ca: 'etcd-ca', subject: (node) => ({ commonName: node, organizations: [] }) },
	{ name: 'etcd-server', longName: 'certificate for serving etcd', path: '/etc/kubernetes/pki/etcd/server.crt', kubeconfig: false, ca: 'etcd-ca', subject: (node) => ({ commonName: node, organizations: [] }) },
	{ name: 'front-proxy-client', longName: 'certificate for the front proxy client', path: '/etc/kubernetes/pki/front-proxy-client.crt', kubeconfig: false, ca: 'front-proxy-ca', subject: subject('front-proxy-client') },
	{ name: 'scheduler.conf', longName: 'certificate embedded in the kubeconfig file for the scheduler manager to use', path: '/etc/kubernetes/scheduler.conf', kubeconfig: true, ca: 'ca', subject: subject('system:kube-scheduler') },
	{ name: 'super-admin.conf', longName: 'certificate embedded in the kubeconfig file for the super-admin', path: '/etc/kubernetes/super-admin.conf', kubeconfig: true, ca: 'ca', subject: subject('kubernetes-super-admin', ['system:masters']) },
];

function caCommonName(ca: CaName): string {
	return KUBEADM_CAS.find((c) => c.name === ca)!.commonName;
}

/** A CA certificate as `kubeadm init` writes it: self-signed, backdated, ten years. */
export function caCertificate(ca: CaName, dates: PkiDates): string {
	const name = { commonName: caCommonName(ca), organizations: [] };
	return certificatePem({ subject: name, issuer: name, notBefore: dates.issuedMs - CERTIFICATE_BACKDATE_MS, notAfter: dates.issuedMs + dates.caCertificateValidityMs });
}

/** A certificate signed by one of kubeadm's CAs at `issuedMs` (init or a renewal), for the configured validity. */
export function signedCertificate(name: DistinguishedName, ca: CaName, issuedMs: number, validityMs: number): string {
	return certificatePem({ subject: name, issuer: { commonName: caCommonName(ca), organizations: [] }, notBefore: issuedMs - CERTIFICATE_BACKDATE_MS, notAfter: issuedMs + validityMs });
}

/** A kubelet's client certificate, as the CSR signer issues it (backdated 5 min at both ends, ../controllers/certificates/signer.ts). */
export function kubeletClientCertificate(node: string, issuedMs: number): string {
	return certificatePem({
		subject: { commonName: `system:node:${node}`, organizations: ['system:nodes'] },
		issuer: { commonName: 'kubernetes', organizations: [] },
		notBefore: issuedMs - CERTIFICATE_BACKDATE_MS,
		notAfter: issuedMs + CLUSTER_SIGNING_DURATION_MS - CERTIFICATE_BACKDATE_MS,
	});
}

/**
 * The cluster's PKI dates from its options: issued at `issuedMs` (when
 * `kubeadm init` ran), for the configured periods. A period that is not a
 * positive Go duration is refused with the field's name.
 */
export function pkiDates(issuedMs: number, options: { certificateValidityPeriod?: string; caCertificateValidityPeriod?: string } = {}): PkiDates {
	const period = (field: 'certificateValidityPeriod' | 'caCertificateValidityPeriod', fallback: number) => {
		const text = options[field];
		if (text === undefined) return fallback;
		const ms = typeof text === 'string' ? tryParseGoDurationMs(text) : undefined;
		if (ms === undefined || ms <= 0) throw new Error(`kubeadm.${field}: ${JSON.stringify(text)} is not a positive duration (e.g. "8760h", "2h")`);
		return ms;
	};
	return { issuedMs, certificateValidityMs: period('certificateValidityPeriod', DEFAULT_CERTIFICATE_VALIDITY_MS), caCertificateValidityMs: period('caCertificateValidityPeriod', DEFAULT_CA_CERTIFICATE_VALIDITY_MS) };
}

/** The client certificate a kubeconfig's (first) user embeds (`client-certificate-data`), as PEM; undefined without one. */
export function kubeconfigClientCertificate(kubeconfigText: string | undefined): string | undefined {
	const data = kubeconfigText === undefined ? undefined : /client-certificate-data: (\S+)/.exec(kubeconfigText)?.[1];
	return data === undefined ? undefined : decodeBase64(data);
}

/** A kubeconfig's text with its user's embedded certificate replaced by `certificatePem` (what a renewal writes). */
export function withClientCertificate(kubeconfigText: string, certificatePem: string): string {
	return kubeconfigText.replace(/(client-certificate-data: )\S+/, `$1${encodeBase64(certificatePem)}`);
}
