/**
 * The CSR cleaner of kube-controller-manager: once an hour it deletes the
 * CertificateSigningRequests that have served their purpose, so they do
 * not pile up: approved, denied or failed ones an hour after that
 * happened, pending ones after a day, and any whose issued certificate has
 * expired. A reader who fetched the certificate keeps it; the request is
 * gone.
 *
 * Mirrors pkg/controller/certificates/cleaner/cleaner.go (pollingInterval,
 * approvedExpiration, deniedExpiration, pendingExpiration,
 * failedExpiration, isIssuedExpired).
 */
import { R } from '../../client/client.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { parseCertificate } from '../../host/pem.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';
import { conditionsOf, type CertificateSigningRequest } from './csr-conditions.ts';

const HOUR_MS = 3_600_000;
const POLLING_INTERVAL_MS = HOUR_MS;
const EXPIRATION_MS: Record<string, number> = { Approved: HOUR_MS, Denied: HOUR_MS, Failed: HOUR_MS };
const PENDING_EXPIRATION_MS = 24 * HOUR_MS;

export class CsrCleanerController extends ControllerBase<Record<string, never>> {
	readonly name = 'certificatesigningrequest-cleaner-controller';
	readonly sub = 'csrcleaner';
	readonly resources = ['certificatesigningrequests'] as const;

	freshState(): Record<string, never> {
		return {};
	}

	/** Everything happens in the hourly pass. */
	sync(): SyncError {
		return undefined;
	}

	override onLeading(): void {
		// wait.Until runs the first pass at once.
		this.host.timer(this.sub, 'clean', 0, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer !== 'clean') return;
		for (const csr of this.host.informer('certificatesigningrequests').list() as CertificateSigningRequest[]) {
			const why = this.expired(csr);
			if (!why) continue;
			const name = csr.metadata.name ?? '';
			this.trace('delete', `certificatesigningrequests/${name}`, `Cleaning CSR as it is ${why}.`);
			this.host.client.delete(R.certificatesigningrequests, undefined, name);
		}
		this.host.timer(this.sub, 'clean', POLLING_INTERVAL_MS, undefined, true);
	}

	/** Why the request may go, in the cleaner's words, or undefined. */
	private expired(csr: CertificateSigningRequest): string | undefined {
		const now = this.wallMs;
		const certificate = csr.status?.certificate ? parseCertificate(decodeBase64(csr.status.certificate) ?? '') : undefined;
		if (certificate?.notAfter !== undefined && now > certificate.notAfter) return 'issued and the certificate has expired';
		const decided = conditionsOf(csr).find((c) => EXPIRATION_MS[c.type] !== undefined);
		if (decided) {
			const at = parseRfc3339(decided.lastUpdateTime ?? '');
			if (!Number.isNaN(at) && now - at > EXPIRATION_MS[decided.type]) return `more than 1h0m0s old and ${decided.type.toLowerCase()}`;
			return undefined;
		}
		const created = parseRfc3339(csr.metadata.creationTimestamp ?? '');
		if (!Number.isNaN(created) && now - created > PENDING_EXPIRATION_MS) return 'more than 24h0m0s old and unapproved';
		return undefined;
	}
}
