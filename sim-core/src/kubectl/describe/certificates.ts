/**
 * `kubectl describe csr`: who asked (the requester the API server
 * recorded), which signer, the requested lifetime and the condition, then
 * the subject kubectl reads out of the request itself (what an approver
 * should check before approving: the name and groups the certificate will
 * carry). A request kubectl cannot parse is an error, as upstream's
 * `Error parsing CSR`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (CertificateSigningRequestDescriber, describeCertificateSigningRequest).
 */
import type { KubeObject } from '../../api/types.ts';
import { formatLabels } from '../../api/labels.ts';
import { humanDuration } from '../../api/duration.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import { parseCertificateRequest } from '../../host/pem.ts';
import { csrCondition } from '../printers/table-extensions.ts';
import { describeEvents, eventsFor } from './events.ts';
import { rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { LEVEL_0, PrefixWriter } from './prefix-writer.ts';

/** printListHelper: the first value after the title, the rest under it. */
function printList(w: PrefixWriter, prefix: string, name: string, values: readonly string[]): void {
	if (values.length === 0) return;
	w.write(LEVEL_0, `${prefix}${name}:\t`);
	w.write(LEVEL_0, values.join(`\n${prefix}\t`));
	w.write(LEVEL_0, '\n');
}

export function describeCertificateSigningRequest(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as { request?: string; signerName?: string; username?: string; expirationSeconds?: number };
	const pem = spec.request === undefined ? undefined : decodeBase64(spec.request);
	const subject = pem === undefined ? undefined : parseCertificateRequest(pem);
	if (!subject) return { ok: false, error: 'Error parsing CSR: PEM block type must be CERTIFICATE REQUEST' };
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Labels:\t${formatLabels(obj.metadata.labels)}\n`);
	w.write(LEVEL_0, `Annotations:\t${formatLabels(obj.metadata.annotations)}\n`);
	w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(obj.metadata.creationTimestamp)}\n`);
	w.write(LEVEL_0, `Requesting User:\t${spec.username ?? ''}\n`);
	if (spec.signerName) w.write(LEVEL_0, `Signer:\t${spec.signerName}\n`);
	if (spec.expirationSeconds !== undefined) w.write(LEVEL_0, `Requested Duration:\t${humanDuration(spec.expirationSeconds * 1000)}\n`);
	w.write(LEVEL_0, `Status:\t${csrCondition(obj)}\n`);
	w.write(LEVEL_0, 'Subject:\n');
	w.write(LEVEL_0, `\tCommon Name:\t${subject.commonName}\n`);
	w.write(LEVEL_0, '\tSerial Number:\t\n');
	printList(w, '\t', 'Organization', subject.organizations);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
