/**
 * What every REST handler of a resource works with: the registry store,
 * the resource's strategy, the context strategies and admission plugins
 * read (the virtual now, the user, the cache, the server's random stream),
 * decoding of request bodies (defaulting, apiVersion/kind checks and
 * server-side field validation), and the admission chain.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
 * (RequestScope),
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go (decoding:
 * the serializer with strict field validation, then the defaulter),
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/update.go (decoding,
 * likewise).
 */
import type { KubeObject } from '../../../api/types.ts';
import type { Caller } from '../../config.ts';
import { applyWithLastApplied, managerOrUserAgent, recordUpdate, type ResetFields, type WriteIdentity } from '../../fieldmanager/field-manager.ts';
import { groupVersion, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse, UserInfo } from '../../../api/request.ts';
import { deepCopy } from '../../../golang/json.ts';
import { formatRfc3339 } from '../../../golang/time.ts';
import * as admission from '../../admission/chain.ts';
import type { AdmissionAttributes } from '../../admission/plugin.ts';
import type { CacheWatchers } from '../../cache-watcher.ts';
import type { ApiServerContext } from '../../config.ts';
import * as errors from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { GenericStore } from '../../registry/generic-store.ts';
import type { Strategy, StrategyContext } from '../../registry/strategy.ts';

export class RequestScope {
	readonly registry: GenericStore;

	constructor(
		readonly server: ApiServerContext,
		readonly watchers: CacheWatchers,
	) {
		this.registry = new GenericStore(server);
	}

	strategy(info: ResourceInfo): Strategy {
		return this.server.strategy(info);
	}

	/** What strategies and admission plugins may read while they work on one request. */
	context(user: UserInfo): StrategyContext {
		const { reader } = this.server;
		return {
			now: formatRfc3339(this.server.kernel.wallMs()),
			user,
			get: reader.get,
			list: reader.list,
			random: (n) => this.server.rng.int(n),
			loopback: (request) => this.server.loopback(request),
		};
	}

	/** Who a write is recorded under in metadata.managedFields: `?fieldManager=`, else the client's User-Agent name. */
	writer(request: ApiRequest, info: ResourceInfo, caller: Caller, subresource = request.subresource): WriteIdentity {
		// A process id is its User-Agent's product name (`kubelet/node-1` sends `kubelet/v1.36...`).
		return { manager: managerOrUserAgent(request.query?.fieldManager, caller.process), apiVersion: groupVersion(info), subresource };
	}

	/** The fields a write of this resource may own (the strategies' reset fields). */
	resetFields(info: ResourceInfo): ResetFields {
		return { hasStatusSubresource: !!this.strategy(info).hasStatusSubresource };
	}

	/** Records an update (or, with no `live`, a create) in obj.metadata.managedFields (../../fieldmanager/). */
	recordUpdate(request: ApiRequest, info: ResourceInfo, caller: Caller, live: KubeObject | undefined, obj: KubeObject, subresource = request.subresource): void {
		recordUpdate(live, obj, this.writer(request, info, caller, subresource), formatRfc3339(this.server.kernel.wallMs()), this.resetFields(info));
	}

	/** A server-side apply of `config` over `live` by this request's manager (../../fieldmanager/). */
	applyConfiguration(request: ApiRequest, info: ResourceInfo, caller: Caller, live: KubeObject | undefined, config: KubeObject): ReturnType<typeof applyWithLastApplied> {
		return applyWithLastApplied(live, config, this.writer(request, info, caller), formatRfc3339(this.server.kernel.wallMs()), request.query?.force === true, this.resetFields(info));
	}

	/** Mutating admission (../../admission/chain.ts). */
	admit(attributes: AdmissionAttributes, ctx: StrategyContext): ApiResponse | undefined {
		return admission.admit(this.server.deps.admission, attributes, ctx, (event) => this.server.emit(event));
	}

	/** The strategy's field errors, then validating admission (../../admission/chain.ts). */
	validate(attributes: AdmissionAttributes, ctx: StrategyContext, fieldErrors: FieldError[], info: ResourceInfo): ApiResponse | undefined {
		return admission.validate(this.server.deps.admission, attributes, ctx, fieldErrors, info, (event) => this.server.emit(event));
	}

	/** Decodes, defaults and checks the apiVersion/kind of a request body. */
	decode(request: ApiRequest, info: ResourceInfo, body: unknown, options: { defaults?: boolean } = {}): { obj?: KubeObject; error?: ApiResponse; warnings: string[] } {
		if (!body || typeof body !== 'object' || Array.isArray(body)) return { error: errors.badRequest('the body of the request was in an unknown format'), warnings: [] };
		const obj = deepCopy(body) as KubeObject;
		const expected = groupVersion(info);
		if (!obj.kind) obj.kind = info.kind;
		if (!obj.apiVersion) obj.apiVersion = expected;
		if (obj.kind !== info.kind || obj.apiVersion !== expected) {
			return { error: errors.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${expected})`), warnings: [] };
		}
		obj.metadata ??= {};
		const validation = request.query?.fieldValidation ?? 'Strict';
		const decoded = validation === 'Ignore' ? { errors: [], warnings: [] } : this.server.deps.decode(obj, info);
		if (decoded.errors.length && validation === 'Strict') {
			return { error: errors.badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${decoded.errors.join(', ')}`), warnings: [] };
		}
		const warnings = validation === 'Warn' ? decoded.errors.map((e) => e) : [];
		if (options.defaults !== false) this.strategy(info).defaults?.(obj);
		return { obj, warnings: [...warnings, ...decoded.warnings] };
	}
}

/** The object's namespace must be the request's (it is set from the request when missing); cluster-scoped objects are left alone. */
export function namespaceCheck(info: ResourceInfo, namespace: string | undefined, obj: KubeObject): ApiResponse | undefined {
	if (!info.namespaced) return undefined;
	if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
		return errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
	}
	obj.metadata.namespace = namespace;
	return undefined;
}

/** A copy without metadata.resourceVersion. */
export function stripResourceVersion(obj: KubeObject): KubeObject {
	const out = deepCopy(obj);
	delete out.metadata.resourceVersion;
	return out;
}
