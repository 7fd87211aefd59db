/**
 * CertificateSigningRequests (certificates.k8s.io/v1): the API server
 * records who asked (spec.username, uid, groups from the authenticated
 * request, whatever the body says) and clears status; it checks that
 * spec.request is a PEM `CERTIFICATE REQUEST` (this cluster's placeholder
 * requests, ../../host/pem.ts), that usages and a signerName of the form
 * `example.com/name` are given and that expirationSeconds is at least 600.
 *
 * Status has two writers through two subresources: `approval` (kubectl
 * certificate approve|deny, the csrapproving controller) may add or change
 * the Approved and Denied conditions and nothing else; `status` (the
 * signer) may set the certificate once and add conditions such as Failed,
 * but not Approved or Denied. No update removes an Approved, Denied or
 * Failed condition. New conditions get lastUpdateTime and
 * lastTransitionTime from the server's clock.
 *
 * Mirrors pkg/registry/certificates/certificates/strategy.go
 * (csrStrategy, csrStatusStrategy, csrApprovalStrategy,
 * populateConditionTimestamps),
 * pkg/apis/certificates/validation/validation.go
 * (validateCertificateSigningRequest, validateConditions,
 * ValidateCertificateSigningRequestSignerName,
 * validateCertificateSigningRequestUpdate),
 * pkg/apis/certificates/helpers.go (ParseCSR).
 */
import type { KubeObject } from '../../api/types.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import { parseCertificateRequest, pemBlock } from '../../host/pem.ts';
import type { FieldError } from '../errors.ts';
import { asArray, asRecord, duplicate, forbidden, invalid, notSupported, required } from './field.ts';
import { metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';
import type { Strategy, StrategyContext } from './strategy.ts';

/** certificates.LegacyUnknownSignerName: v1beta1 only. */
const LEGACY_UNKNOWN_SIGNER = 'kubernetes.io/legacy-unknown';

/** allValidUsages, sorted as sets.String.List() sorts them. */
const VALID_USAGES = [
	'any', 'cert sign', 'client auth', 'code signing', 'content commitment', 'crl sign', 'data encipherment', 'decipher only', 'digital signature', 'email protection',
	'encipher only', 'ipsec end system', 'ipsec tunnel', 'ipsec user', 'key agreement', 'key encipherment', 'microsoft sgc', 'netscape sgc', 'ocsp signing', 's/mime',
	'server auth', 'signing', 'timestamping',
].sort();

interface Condition {
	type?: string;
	status?: string;
	reason?: string;
	message?: string;
	lastUpdateTime?: string;
	lastTransitionTime?: string;
}

const specOf = (obj: KubeObject) => (asRecord(obj.spec) ?? {}) as { request?: string; signerName?: string; usages?: unknown; expirationSeconds?: number; username?: string; uid?: string; groups?: string[]; extra?: unknown };
const statusOf = (obj: KubeObject) => (asRecord(obj.status) ?? {}) as { conditions?: Condition[]; certificate?: string };
const conditionsOf = (obj: KubeObject): Condition[] => asArray<Condition>(statusOf(obj).conditions);
const ofType = (obj: KubeObject, type: string) => conditionsOf(obj).filter((c) => c.type === type);

/** ParseCSR: the base64 of a PEM block of type CERTIFICATE REQUEST, which this cluster can read. */
function requestProblem(request: string | undefined): string | undefined {
	const pem = request === undefined ? undefined : decodeBase64(request);
	const block = pem === undefined ? undefined : pemBlock(pem);
	if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
	// A real DER request would be parsed here; the placeholders carry their subject as text.
	if (!parseCertificateRequest(pem!)) return 'x509: malformed certificate request (this simulated cluster reads the requests its own openssl writes)';
	return undefined;
}

/** ValidateCertificateSigningRequestSignerName: `domain.tld/path`. */
function signerNameErrors(signerName: string | undefined): FieldError[] {
	const path = 'spec.signerName';
	if (!signerName) return [required(path, 'signerName must be provided')];
	const segments = signerName.split('/');
	if (segments.length !== 2) return [invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
	const errs: FieldError[] = [];
	const label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
	const badLabel = segments[0].split('.').find((l) => !label.test(l) || l.length > 63);
	if (badLabel !== undefined) errs.push(invalid(path, segments[0], `validating label ${JSON.stringify(badLabel)}: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`));
	if (segments[0].split('.').length < 2) errs.push(invalid(path, segments[0], 'should be a domain with at least two segments separated by dots'));
	return errs;
}

/** validateConditions: status given and True for Approved/Denied/Failed, Approved and Denied exclusive, no duplicate types. */
function conditionErrors(obj: KubeObject): FieldError[] {
	const errs: FieldError[] = [];
	const seen = new Set<string>();
	let approved = false;
	let denied = false;
	conditionsOf(obj).forEach((c, i) => {
		const at = `status.conditions[${i}]`;
		if (!c.type) errs.push(required(`${at}.type`));
		const allowed = ['Approved', 'Denied', 'Failed'].includes(c.type ?? '') ? ['True'] : ['False', 'True', 'Unknown'];
		if (!c.status) errs.push(required(`${at}.status`));
		else if (!allowed.includes(c.status)) errs.push(notSupported(`${at}.status`, c.status, allowed));
		if (c.type === 'Approved') {
			approved = true;
			if (denied) errs.push(invalid(`${at}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
		} else if (c.type === 'Denied') {
			denied = true;
			if (approved) errs.push(invalid(`${at}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
		}
		if (c.type && seen.has(c.type)) errs.push(duplicate(`${at}.type`, c.type));
		if (c.type) seen.add(c.type);
	});
	return errs;
}

/** validateCertificateSigningRequest. */
export function validateCsr(obj: KubeObject): FieldError[] {
	const spec = specOf(obj);
	const errs = metaErrors(obj, false, () => []);
	const problem = requestProblem(spec.request);
	if (problem) errs.push(invalid('spec.request', spec.request ?? '', problem));
	const usages = asArray<string>(spec.usages);
	if (usages.length === 0) errs.push(required('spec.usages', 'usages must be provided'));
	usages.forEach((u, i) => {
		if (!VALID_USAGES.includes(u)) errs.push(notSupported(`spec.usages[${i}]`, u, VALID_USAGES));
	});
	usages.forEach((u, i) => {
		if (usages.indexOf(u) < i) errs.push(duplicate(`spec.usages[${i}]`, u));
	});
	if (spec.signerName === LEGACY_UNKNOWN_SIGNER) errs.push(invalid('spec.signerName', spec.signerName, 'the legacy signerName is not allowed via this API version'));
	else errs.push(...signerNameErrors(spec.signerName));
	if (spec.expirationSeconds !== undefined && spec.expirationSeconds < 600) errs.push(invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
	errs.push(...conditionErrors(obj));
	return errs;
}

/** validateCertificateSigningRequestUpdate, with what the subresource may change. */
function validateCsrUpdate(obj: KubeObject, old: KubeObject, may: { setApproval: boolean; setCertificate: boolean }): FieldError[] {
	const errs = validateCsr(obj);
	for (const type of ['Approved', 'Denied', 'Failed']) {
		if (ofType(obj, type).length < ofType(old, type).length) errs.push(forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(type)}`));
	}
	if (!may.setApproval) {
		for (const type of ['Approved', 'Denied']) {
			const before = ofType(old, type);
			const after = ofType(obj, type);
			if (after.length > before.length) errs.push(forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(type)}`));
			else if (after.length === before.length && JSON.stringify(after) !== JSON.stringify(before)) errs.push(forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(type)}`));
		}
	}
	const certificate = statusOf(obj).certificate ?? '';
	const oldCertificate = statusOf(old).certificate ?? '';
	if (certificate !== oldCertificate) {
		if (!may.setCertificate) errs.push(forbidden('status.certificate', 'updates may not set certificate content'));
		else if (oldCertificate) errs.push(forbidden('status.certificate', 'updates may not modify existing certificate content'));
	}
	return [...errs, ...validateObjectMetaUpdate(obj.metadata, old.metadata)];
}

/** populateConditionTimestamps: a new or changed condition is stamped now; an unchanged one keeps its times. */
function stampConditions(obj: KubeObject, old: KubeObject | undefined, ctx: StrategyContext): void {
	const before = old ? conditionsOf(old) : [];
	for (const c of conditionsOf(obj)) {
		c.lastUpdateTime ??= ctx.now;
		const previous = before.find((p) => p.type === c.type);
		if (!c.lastTransitionTime) c.lastTransitionTime = previous && previous.status === c.status && previous.lastTransitionTime ? previous.lastTransitionTime : ctx.now;
	}
}

/** The requester, as authenticated: what a signer and an approver judge. */
function recordRequester(obj: KubeObject, ctx: StrategyContext): void {
	const spec = (obj.spec = asRecord(obj.spec) ?? {}) as Record<string, unknown>;
	spec.username = ctx.user.username;
	if (ctx.user.uid) spec.uid = ctx.user.uid;
	else delete spec.uid;
	spec.groups = [...ctx.user.groups];
	delete spec.extra;
}

/** The one copy-back each subresource does: everything but what it may write comes from the stored object. */
function keepAllBut(obj: KubeObject, old: KubeObject, keep: (status: Record<string, unknown>, oldStatus: Record<string, unknown>) => void): void {
	obj.spec = structuredClone(old.spec);
	const status = (asRecord(obj.status) ?? {}) as Record<string, unknown>;
	const oldStatus = (asRecord(old.status) ?? {}) as Record<string, unknown>;
	keep(status, oldStatus);
	obj.status = status;
}

export const certificateSigningRequestStrategy: Strategy = {
	hasStatusSubresource: true,
	prepareForCreate(obj, ctx) {
		recordRequester(obj, ctx);
		obj.status = {};
	},
	validate: (obj) => validateCsr(obj),
	prepareForUpdate(obj, old) {
		// The main resource changes neither spec nor status (spec is immutable after creation).
		obj.spec = structuredClone(old.spec);
	},
	validateUpdate: (obj, old) => validateCsrUpdate(obj, old, { setApproval: false, setCertificate: false }),
	prepareForStatusUpdate(obj, old, ctx) {
		keepAllBut(obj, old, () => {});
		obj.metadata = { ...old.metadata, ...(obj.metadata.annotations ? { annotations: obj.metadata.annotations } : {}) };
		stampConditions(obj, old, ctx);
	},
	validateStatusUpdate: (obj, old) => validateCsrUpdate(obj, old, { setApproval: false, setCertificate: true }),
	subresourceUpdates: {
		approval: {
			prepare(obj, old, ctx) {
				// Only the conditions: the certificate stays what the signer wrote.
				keepAllBut(obj, old, (status, oldStatus) => {
					if (oldStatus.certificate !== undefined) status.certificate = oldStatus.certificate;
					else delete status.certificate;
				});
				obj.metadata = { ...old.metadata };
				stampConditions(obj, old, ctx);
			},
			validate: (obj, old) => validateCsrUpdate(obj, old, { setApproval: true, setCertificate: false }),
		},
	},
	fields: (obj) => ({ 'spec.signerName': specOf(obj).signerName ?? '' }),
};
