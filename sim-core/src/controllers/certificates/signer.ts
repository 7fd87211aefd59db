/**
 * The CSR signing controller of kube-controller-manager: when a
 * CertificateSigningRequest for one of the four kubernetes.io signers is
 * approved, it issues the certificate with the cluster CA
 * (`--cluster-signing-cert-file`, kubeadm's /etc/kubernetes/pki/ca.crt) and
 * writes it to status.certificate. The certificate's subject is the
 * request's subject (not who asked: a reader who approves a request for
 * `CN=jane, O=dev` mints Jane's credentials), it is valid from five minutes
 * ago (backdated against clock skew) for `--cluster-signing-duration`
 * (8760h by default) or the shorter spec.expirationSeconds (at least 10
 * minutes). A request whose usages do not suit its signer gets a Failed
 * condition instead; a denied, failed or already issued request is left
 * alone, as is one for a signer this controller does not own.
 *
 * Mirrors pkg/controller/certificates/signer/signer.go (handle, sign,
 * duration, validAPIServerClientUsages),
 * pkg/controller/certificates/authority/policies.go
 * (PermissiveSigningPolicy.apply),
 * pkg/controller/certificates/certificate_controller.go (syncFunc),
 * cmd/kube-controller-manager/app/options/csrsigningcontroller.go
 * (--cluster-signing-duration default).
 */
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { decodeBase64, encodeBase64 } from '../../golang/base64.ts';
import { certificatePem, parseCertificateRequest } from '../../host/pem.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';
import { hasTrueCondition, isApproved, type CertificateSigningRequest } from './csr-conditions.ts';

/** --cluster-signing-duration: 8760h (one year). */
export const CLUSTER_SIGNING_DURATION_MS = 8760 * 3_600_000;
/** Backdate: NotBefore is this much before now. */
const BACKDATE_MS = 5 * 60_000;
/** Short: below this lifetime NotAfter is not backdated. */
const SHORT_MS = 8 * 3_600_000;
/** The sanity floor for a requested duration (twice the backdate). */
const MIN_DURATION_MS = 10 * 60_000;

/** The signers kube-controller-manager runs (one controller each upstream; one loop here). */
const SIGNERS = ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown'];

/** What kubeadm's CA is called in the certificates it issues. */
const CLUSTER_CA = { commonName: 'kubernetes', organizations: [] };

/** The usages each signer accepts, or why not (validAPIServerClientUsages and the kubelet signers' checks). */
function usageProblem(signerName: string, usages: string[]): string | undefined {
	if (signerName === 'kubernetes.io/legacy-unknown') return undefined;
	const required = signerName === 'kubernetes.io/kubelet-serving' ? 'server auth' : 'client auth';
	const optional = ['digital signature', 'key encipherment'];
	for (const u of usages) {
		if (u !== required && !optional.includes(u)) return `invalid usage for ${required === 'server auth' ? 'serving' : 'client'} certificate: ${u}`;
	}
	if (!usages.includes(required)) return `missing required usage for ${required === 'server auth' ? 'serving' : 'client'} certificate: ${required}`;
	return undefined;
}

/** signer.duration: the requested lifetime, within [10 min, the signing duration]. */
function lifetimeMs(expirationSeconds: number | undefined): number {
	if (expirationSeconds === undefined) return CLUSTER_SIGNING_DURATION_MS;
	return Math.min(CLUSTER_SIGNING_DURATION_MS, Math.max(MIN_DURATION_MS, expirationSeconds * 1000));
}

export class CsrSigningController extends ControllerBase<Record<string, never>> {
	readonly name = 'certificatesigningrequest-signing-controller';
	readonly sub = 'csrsigning';
	readonly resources = ['certificatesigningrequests'] as const;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(_resource: string, obj: KubeObject): void {
		this.enqueue(keyOf(obj));
	}

	override onUpdate(_resource: string, _old: KubeObject, obj: KubeObject): void {
		this.enqueue(keyOf(obj));
	}

	sync(key: string): SyncError {
		const cached = this.host.informer('certificatesigningrequests').get(key) as CertificateSigningRequest | undefined;
		// An issued certificate needs nothing more; nor does a request nobody approved, or one that failed.
		if (!cached || cached.status?.certificate || !isApproved(cached) || hasTrueCondition(cached, 'Failed')) return undefined;
		if (!SIGNERS.includes(cached.spec.signerName)) return undefined;
		const csr = structuredClone(cached);
		const pem = decodeBase64(csr.spec.request);
		const subject = pem === undefined ? undefined : parseCertificateRequest(pem);
		if (!subject) return `unable to parse csr "${key}": PEM block type must be CERTIFICATE REQUEST`;
		const problem = usageProblem(csr.spec.signerName, csr.spec.usages ?? []);
		const status = (csr.status ??= {});
		if (problem) {
			(status.conditions ??= []).push({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: problem, lastUpdateTime: this.nowRfc3339() });
			this.trace('update', `certificatesigningrequests/${key}`, `not signing ${key}: ${problem}`);
		} else {
			const now = this.wallMs;
			const ttl = lifetimeMs(csr.spec.expirationSeconds);
			const notAfter = ttl < SHORT_MS ? now + ttl : now + ttl - BACKDATE_MS;
			status.certificate = encodeBase64(certificatePem({ subject, issuer: CLUSTER_CA, notBefore: now - BACKDATE_MS, notAfter }));
			this.trace('sign', `certificatesigningrequests/${key}`, `issued a certificate for ${subject.commonName} signed by ${csr.spec.signerName}, valid ${Math.round(ttl / 60_000)} min`);
		}
		const written = this.host.client.updateStatus(R.certificatesigningrequests, csr);
		if (!written.ok && written.code !== 404) return written.message;
		return undefined;
	}
}
