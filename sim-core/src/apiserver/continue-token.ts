/**
 * The continue token of a chunked list: base64url of
 * `{"v":"meta.k8s.io/v1","rv":N,"start":"<key after the last item>"}`, the
 * key relative to the list's key prefix. It pins the revision the first
 * page was read at, so every page of one list comes from one snapshot;
 * `rv: -1` is the token a 410 hands out once that revision is compacted
 * ("continue at the latest revision", an inconsistent remainder).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/storage/continue.go
 * (EncodeContinue, DecodeContinue, PrepareContinueToken).
 */
import { decodeRawUrlBase64, encodeRawUrlBase64 } from '../golang/base64.ts';
import { goMarshal } from '../golang/json.ts';
import { goJsonSyntaxError } from '../golang/json-syntax.ts';
import { pathClean } from '../golang/path.ts';

export interface ContinuePosition {
	/** The full etcd key to resume at (inclusive). */
	fromKey: string;
	/** The revision the list is read at; -1: the latest. */
	revision: number;
}

const GENERIC = 'continue key is not valid';

/** EncodeContinue: `key` must lie under `keyPrefix`. */
export function encodeContinue(key: string, keyPrefix: string, revision: number): string {
	return encodeRawUrlBase64(goMarshal({ v: 'meta.k8s.io/v1', rv: revision, start: key.slice(keyPrefix.length) }));
}

/** DecodeContinue: the position, or the error text the API server puts after `invalid continue token: `. */
export function decodeContinue(token: string, keyPrefix: string): { ok: true; value: ContinuePosition } | { ok: false; error: string } {
	const decoded = decodeRawUrlBase64(token);
	if (!decoded.ok) return { ok: false, error: `${GENERIC}: ${decoded.error}` };
	const syntax = goJsonSyntaxError(decoded.text);
	if (syntax) return { ok: false, error: `${GENERIC}: ${syntax}` };
	const parsed: unknown = JSON.parse(decoded.text);
	const c = (parsed && typeof parsed === 'object' ? parsed : {}) as { v?: unknown; rv?: unknown; start?: unknown };
	if (c.v !== 'meta.k8s.io/v1') return { ok: false, error: `continue key is not valid: server does not recognize this encoded version ${String(c.v ?? '')}` };
	const revision = typeof c.rv === 'number' && Number.isInteger(c.rv) ? c.rv : 0;
	if (revision === 0) return { ok: false, error: 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)' };
	const start = typeof c.start === 'string' ? c.start : '';
	if (!start) return { ok: false, error: 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)' };
	// The start key may not climb out of the prefix: it must already be a clean path.
	const key = start.startsWith('/') ? start : `/${start}`;
	if (pathClean(key) !== key) return { ok: false, error: `${GENERIC}: ${start}` };
	return { ok: true, value: { fromKey: keyPrefix + key.slice(1), revision } };
}

/**
 * PrepareContinueToken: after a full page whose last item had `lastKey`,
 * the token that resumes just past it; the count of items left is only
 * given when nothing was filtered out (it would be wrong otherwise).
 */
export function continueAfter(lastKey: string, keyPrefix: string, revision: number, remaining: number | undefined): { continue: string; remainingItemCount?: number } {
	const token = encodeContinue(`${lastKey}\u0000`, keyPrefix, revision);
	return remaining === undefined ? { continue: token } : { continue: token, remainingItemCount: remaining };
}
