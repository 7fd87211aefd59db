/**
 * The API server's error responses: meta/v1 Status objects with the reason,
 * code and message wording of apimachinery v0.36. kubectl prints them as
 * `Error from server (<Reason>): <message>`.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go.
 */
import type { Status } from '../api/types.ts';
import type { ApiResponse } from '../api/request.ts';

/** One validation failure (field.Error), e.g. `spec.replicas: Invalid value: -1: must be greater than or equal to 0`. */
export interface FieldError {
	field: string;
	type: 'FieldValueRequired' | 'FieldValueInvalid' | 'FieldValueNotSupported' | 'FieldValueDuplicate' | 'FieldValueForbidden' | 'FieldValueTooLong' | 'FieldValueTooMany' | 'FieldValueNotFound' | 'InternalError' | 'FieldValueTypeInvalid';
	/** The offending value, rendered as upstream renders it in messages. */
	value?: unknown;
	/** The value exactly as upstream prints it when that is not a plain string or number (its JSON since v1.34, e.g. `{"app":"web"}`); wins over `value`. */
	rendered?: string;
	detail?: string;
}

/** Renders a value the way field.Error does (strings quoted, numbers bare). */
function renderBareValue(value: unknown): string {
	if (typeof value === 'string') return JSON.stringify(value);
	if (value === null || value === undefined) return 'null';
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	return JSON.stringify(value);
}

/** `field: Reason: detail`, as field.Error.Error() prints it. */
export function formatFieldError(e: FieldError): string {
	const renderValue = (value: unknown) => e.rendered ?? renderBareValue(value);
	switch (e.type) {
		case 'FieldValueRequired':
			return `${e.field}: Required value${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueInvalid':
			return `${e.field}: Invalid value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueNotSupported':
			return `${e.field}: Unsupported value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueDuplicate':
			return `${e.field}: Duplicate value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueForbidden':
			return `${e.field}: Forbidden${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueTooLong':
			return `${e.field}: Too long${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueTooMany':
			return `${e.field}: Too many${e.detail ? `: ${e.detail}` : ''}`;
		case 'FieldValueNotFound':
			return `${e.field}: Not found: ${renderValue(e.value)}`;
		case 'FieldValueTypeInvalid':
			return `${e.field}: Invalid value: ${renderValue(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
		default:
			return `${e.field}: Internal error${e.detail ? `: ${e.detail}` : ''}`;
	}
}

function status(code: number, reason: string, message: string, details?: Status['details']): ApiResponse<never> {
	const body: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
	if (details) body.details = details;
	return { code, body };
}

/** `pods "x" not found` (404). */
export function notFound(qualifiedResource: string, name: string, group = '', kind = ''): ApiResponse<never> {
	return status(404, 'NotFound', `${qualifiedResource} "${name}" not found`, { name, group, kind: kind || qualifiedResource.split('.')[0] });
}

/** `pods "x" already exists` (409). */
export function alreadyExists(qualifiedResource: string, name: string, group = ''): ApiResponse<never> {
	return status(409, 'AlreadyExists', `${qualifiedResource} "${name}" already exists`, { name, group, kind: qualifiedResource.split('.')[0] });
}

/** The optimistic-concurrency failure (409). */
export function conflict(qualifiedResource: string, name: string, why = 'the object has been modified; please apply your changes to the latest version and try again'): ApiResponse<never> {
	return status(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource} "${name}": ${why}`, { name, kind: qualifiedResource.split('.')[0] });
}

/** A server-side apply's conflicts (409 Conflict, no object details; errors.NewApplyConflict). */
export function applyConflict(message: string, causes: Array<{ reason: string; message: string; field: string }>): ApiResponse<never> {
	return status(409, 'Conflict', message, { causes });
}

/** `Pod "x" is invalid: <causes>` (422). One cause prints bare, several in brackets. */
export function invalid(kind: string, name: string, errors: FieldError[], group = ''): ApiResponse<never> {
	const causes = errors.map(formatFieldError);
	// The qualified kind: `Deployment.apps "x" is invalid`, `Pod "x" is invalid`.
	const qualifiedKind = group ? `${kind}.${group}` : kind;
	const message = `${qualifiedKind} "${name}" is invalid: ${causes.length === 1 ? causes[0] : `[${causes.join(', ')}]`}`;
	return status(422, 'Invalid', message, {
		name,
		group,
		kind,
		causes: errors.map((e, i) => ({ reason: e.type, message: causes[i].slice(e.field.length + 2), field: e.field })),
	});
}

/** 400, e.g. a strict decoding error. */
export function badRequest(message: string): ApiResponse<never> {
	return status(400, 'BadRequest', message);
}

/** 403 with RBAC's wording (see auth/). */
export function forbidden(qualifiedResource: string, name: string | undefined, why: string, group = '', kind = ''): ApiResponse<never> {
	const subject = name ? `${qualifiedResource} "${name}"` : qualifiedResource;
	return status(403, 'Forbidden', `${subject} is forbidden: ${why}`, { name, group, kind: kind || qualifiedResource.split('.')[0] });
}

/** 401. */
export function unauthorized(): ApiResponse<never> {
	return status(401, 'Unauthorized', 'Unauthorized');
}

/** 410: a list or watch from a compacted resourceVersion. */
export function gone(message: string): ApiResponse<never> {
	return status(410, 'Expired', message);
}

/** 405. */
export function methodNotAllowed(message = 'the server does not allow this method on the requested resource'): ApiResponse<never> {
	return status(405, 'MethodNotAllowed', message);
}

/** 404 for a path the server does not serve. */
export function pathNotFound(message = 'the server could not find the requested resource'): ApiResponse<never> {
	return status(404, 'NotFound', message);
}

/** 500. */
export function internalError(message: string): ApiResponse<never> {
	return status(500, 'InternalError', `Internal error occurred: ${message}`);
}

/** 504: storage timed out (etcd unreachable). */
export function timeout(message: string): ApiResponse<never> {
	return status(504, 'Timeout', message);
}

/**
 * A watch from a resourceVersion the cache has not reached (after etcd was
 * restored from an older snapshot): 504 with the cause client-go's
 * reflector takes as a reason to list again (IsTooLargeResourceVersionError).
 */
export function tooLargeResourceVersion(requested: number, current: number): ApiResponse<never> {
	return status(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 } as Status['details']);
}

/** 503. */
export function serviceUnavailable(message: string): ApiResponse<never> {
	return status(503, 'ServiceUnavailable', message);
}

/** 413. */
export function requestEntityTooLarge(message: string): ApiResponse<never> {
	return status(413, 'RequestEntityTooLarge', message);
}

/**
 * 429 (errors.NewTooManyRequests): e.g. an eviction that a
 * PodDisruptionBudget does not allow; `causes` carry the reason, as the
 * eviction handler adds a `DisruptionBudget` cause.
 */
export function tooManyRequests(message: string, retryAfterSeconds: number, causes: Array<{ reason: string; message: string }> = []): ApiResponse<never> {
	const details: NonNullable<Status['details']> = causes.length ? { causes } : {};
	if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
	return status(429, 'TooManyRequests', message, details);
}
