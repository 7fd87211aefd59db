/**
 * CertificateSubjectRestriction: a request to the kube-apiserver-client
 * signer for a certificate in the `system:masters` group is refused at
 * creation. Anyone in that group passes every authorization check, and a
 * certificate cannot be revoked, so the API server will not let an approval
 * mint one (kubeadm makes its break-glass super-admin.conf with the CA key,
 * outside this API).
 *
 * Mirrors plugin/pkg/admission/certificates/subjectrestriction/admission.go.
 */
import { parseCertificateRequest } from '../../host/pem.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import { admissionForbidden, isResource } from './errors.ts';
import type { AdmissionPlugin } from './plugin.ts';

const KUBE_APISERVER_CLIENT_SIGNER = 'kubernetes.io/kube-apiserver-client';
const SYSTEM_MASTERS = 'system:masters';

export const certificateSubjectRestriction: AdmissionPlugin = {
	name: 'CertificateSubjectRestriction',
	validate(a) {
		if (a.operation !== 'CREATE' || !isResource(a, 'certificates.k8s.io', 'certificatesigningrequests') || !a.object) return undefined;
		const spec = (a.object.spec ?? {}) as { signerName?: string; request?: string };
		if (spec.signerName !== KUBE_APISERVER_CLIENT_SIGNER) return undefined;
		const pem = spec.request === undefined ? undefined : decodeBase64(spec.request);
		// An unreadable request is the strategy's to reject, with its own message.
		const subject = pem === undefined ? undefined : parseCertificateRequest(pem);
		if (subject?.organizations.includes(SYSTEM_MASTERS)) return admissionForbidden(a, `use of ${KUBE_APISERVER_CLIENT_SIGNER} signer with ${SYSTEM_MASTERS} group is not allowed`);
		return undefined;
	},
};
