/**
 * POST of a new object: decode and default the body, fill in what the
 * server owns (a generated name, uid, creationTimestamp; no status when
 * the resource has a status subresource), then in upstream's order
 * mutating admission, the strategy's preparation and validation,
 * validating admission, and a write that succeeds only if the key does not
 * exist yet (409 AlreadyExists otherwise). A dry run stops before etcd.
 *
 * Also the one named creater: POST serviceaccounts/<name>/token, which
 * decodes a TokenRequest, runs mutating admission and hands it to the
 * TokenRequest registry; nothing is stored.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go
 * (createHandler, for CreateResource and CreateNamedResource),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/create.go (BeforeCreate),
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (the
 * create path).
 */
import type { KubeObject } from '../../../api/types.ts';
import { qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import type { EtcdClient } from '../../../etcd-api/etcd.ts';
import type { AdmissionAttributes } from '../../admission/plugin.ts';
import type { Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import { createTokenRequest, decodeTokenRequest, describeIssuedToken } from '../../registry/serviceaccount-token.ts';
import { namespaceCheck, type RequestScope } from './rest.ts';

const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** `managedFieldsDone`: a server-side apply that creates the object has recorded its managedFields already. */
export function create(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient, managedFieldsDone = false): ApiResponse {
	const decoded = scope.decode(request, info, request.body);
	if (decoded.error) return decoded.error;
	const obj = decoded.obj!;
	const mismatch = namespaceCheck(info, request.namespace, obj);
	if (mismatch) return mismatch;
	const meta = obj.metadata;
	if (!meta.name && meta.generateName) meta.name = meta.generateName + scope.server.rng.string(GENERATE_NAME_ALPHABET, 5);
	if (!meta.name) return errors.invalid(info.kind, '', [{ field: 'metadata.name', type: 'FieldValueRequired', detail: 'name or generateName is required' }], info.group);
	const ctx = scope.context(caller.user);
	const strategy = scope.strategy(info);
	// Fields the server owns.
	delete meta.resourceVersion;
	delete meta.deletionTimestamp;
	delete meta.deletionGracePeriodSeconds;
	meta.uid = scope.server.rng.uuid();
	meta.creationTimestamp = ctx.now;
	if (!strategy.allowStatusOnCreate) {
		if (strategy.hasStatusSubresource) delete obj.status;
	}
	// The field manager runs before admission, so what admission plugins add is nobody's (create.go).
	if (!managedFieldsDone) scope.recordUpdate(request, info, caller, undefined, obj);
	// Upstream order: mutating admission, then the strategy's preparation and validation, then validating admission.
	const attributes: AdmissionAttributes = { operation: 'CREATE', info, namespace: meta.namespace, name: meta.name, object: obj, user: caller.user, dryRun: request.query?.dryRun === 'All' };
	const rejected = scope.admit(attributes, ctx);
	if (rejected) return rejected;
	strategy.prepareForCreate?.(obj, ctx);
	const invalid = scope.validate(attributes, ctx, strategy.validate?.(obj, ctx) ?? [], info);
	if (invalid) return invalid;
	const existing = scope.registry.get(info, meta.namespace, meta.name);
	if (existing) return errors.alreadyExists(qualifiedResource(info), meta.name, info.group);
	const written = scope.registry.put(store, info, obj, 0, attributes.dryRun);
	if (!written.ok) return errors.alreadyExists(qualifiedResource(info), meta.name, info.group);
	const body: KubeObject = attributes.dryRun ? obj : scope.registry.readBack(info, meta.namespace, meta.name)!;
	return { code: 201, body, warnings: decoded.warnings.length ? decoded.warnings : undefined };
}

/**
 * POST serviceaccounts/<name>/token: decoding, mutating admission, then
 * the TokenRequest registry (../../registry/serviceaccount-token.ts), which
 * runs validating admission after its own validation. Nothing is stored.
 */
export function createServiceAccountToken(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
	const decoded = decodeTokenRequest(request.body, request.query?.fieldValidation);
	if ('error' in decoded) return decoded.error;
	const name = request.name ?? '';
	const namespace = request.namespace ?? '';
	const { server } = scope;
	const ctx = scope.context(caller.user);
	const attributes: AdmissionAttributes = { operation: 'CREATE', info, subresource: 'token', namespace, name, object: decoded.request, user: caller.user, dryRun: request.query?.dryRun === 'All' };
	const rejected = scope.admit(attributes, ctx);
	if (rejected) return rejected;
	const outcome = createTokenRequest(
		{
			namespace,
			name,
			nowWallMs: server.kernel.wallMs(),
			get: server.readCore,
			config: server.tokenConfig(),
			// Its own stream, so issuing tokens never shifts the names and UIDs the server generates.
			newJti: () => server.kernel.rng(`${server.id}/token-jti`).uuid(),
			validatingAdmission: (tokenRequest) => scope.validate({ ...attributes, object: tokenRequest }, ctx, [], info),
		},
		decoded.request,
	);
	if (outcome.claims) server.emit({ action: 'issue-token', object: `serviceaccounts/${namespace}/${name}`, msg: describeIssuedToken(outcome.claims) });
	if (decoded.warnings.length) outcome.response.warnings = [...(outcome.response.warnings ?? []), ...decoded.warnings];
	return outcome.response;
}
