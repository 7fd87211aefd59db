/**
 * Reading a CertificateSigningRequest's conditions, as the certificate
 * controllers read them: approved means an Approved condition and no
 * Denied one; a request with a Failed condition is never signed.
 *
 * Mirrors pkg/controller/certificates/certificate_controller_utils.go
 * (IsCertificateRequestApproved, HasTrueCondition, GetCertApprovalCondition).
 */
import type { KubeObject } from '../../api/types.ts';

export interface CsrCondition {
	type: string;
	status: string;
	reason?: string;
	message?: string;
	lastUpdateTime?: string;
	lastTransitionTime?: string;
}

export interface CertificateSigningRequest extends KubeObject {
	spec: { request: string; signerName: string; usages?: string[]; expirationSeconds?: number; username?: string; groups?: string[] };
	status?: { conditions?: CsrCondition[]; certificate?: string };
}

export function conditionsOf(csr: CertificateSigningRequest): CsrCondition[] {
	return csr.status?.conditions ?? [];
}

export function hasTrueCondition(csr: CertificateSigningRequest, type: string): boolean {
	return conditionsOf(csr).some((c) => c.type === type && (c.status === 'True' || !c.status));
}

export function isApproved(csr: CertificateSigningRequest): boolean {
	return hasTrueCondition(csr, 'Approved') && !hasTrueCondition(csr, 'Denied');
}
