/**
 * The projected volume plugin: several sources (ConfigMaps, Secrets, the
 * downward API, a service account token) merged into one directory. This
 * is the plugin behind the `kube-api-access-xxxxx` volume the
 * ServiceAccount admission plugin gives every pod, which containers see as
 * /var/run/secrets/kubernetes.io/serviceaccount/{token,ca.crt,namespace}.
 * A failing source does not stop the others from being read, but any
 * failure fails the whole set-up, with the errors aggregated.
 *
 * clusterTrustBundle and podCertificate sources are not modelled: they
 * contribute no files.
 *
 * Mirrors pkg/volume/projected/projected.go (collectData).
 */
import type { Pod } from '../../api/types.ts';
import type { Payload } from './atomic-writer.ts';
import { configMapPayload, type ConfigMapSource, type PayloadResult } from './configmap.ts';
import { aggregate, downwardApiPayload, type DownwardApiSource } from './downwardapi.ts';
import type { ObjectLookup } from './lookup.ts';
import { secretPayload, type SecretSource } from './secret.ts';
import { DEFAULT_TOKEN_EXPIRATION_SECONDS } from './service-account-token.ts';

/** v1.ProjectedVolumeSourceDefaultMode = 0644 (k8s.io/api core/v1 types.go). */
const PROJECTED_DEFAULT_MODE = 0o644;

/** v1.ServiceAccountTokenProjection. */
interface ServiceAccountTokenSource {
	audience?: string;
	expirationSeconds?: number;
	path: string;
}

/** v1.VolumeProjection. */
export interface VolumeProjection {
	configMap?: ConfigMapSource;
	secret?: SecretSource;
	downwardAPI?: DownwardApiSource;
	serviceAccountToken?: ServiceAccountTokenSource;
	clusterTrustBundle?: unknown;
	podCertificate?: unknown;
}

/** v1.ProjectedVolumeSource. */
export interface ProjectedSource {
	sources?: VolumeProjection[];
	defaultMode?: number;
}

/** What a projected set-up needs besides the API objects. */
export interface ProjectedContext {
	lookup: ObjectLookup;
	nodeAllocatable: Record<string, string>;
	/** The token for one serviceAccountToken source (cached and refreshed by the caller), or an error. */
	token(source: Required<Pick<ServiceAccountTokenSource, 'path' | 'expirationSeconds'>> & { audience: string }): { ok: true; token: string } | { ok: false; error: string };
}

/** collectData. */
export function projectedPayload(source: ProjectedSource, pod: Pod, ctx: ProjectedContext): PayloadResult {
	const namespace = pod.metadata.namespace ?? 'default';
	const defaultMode = source.defaultMode ?? PROJECTED_DEFAULT_MODE;
	const payload: Payload = {};
	const errors: string[] = [];
	const merge = (result: PayloadResult) => {
		if (!result.ok) errors.push(result.error);
		else Object.assign(payload, result.payload);
	};
	for (const projection of source.sources ?? []) {
		if (projection.secret) {
			const s = projection.secret;
			const optional = s.optional === true;
			const got = ctx.lookup.secret(namespace, s.name ?? '');
			if (!got.ok && !(got.notFound && optional)) {
				errors.push(got.error);
				continue;
			}
			merge(secretPayload(s.items, got.ok ? got.object : { apiVersion: 'v1', kind: 'Secret', metadata: { name: s.name, namespace } }, defaultMode, optional));
		} else if (projection.configMap) {
			const c = projection.configMap;
			const optional = c.optional === true;
			const got = ctx.lookup.configMap(namespace, c.name ?? '');
			if (!got.ok && !(got.notFound && optional)) {
				errors.push(got.error);
				continue;
			}
			merge(configMapPayload(c.items, got.ok ? got.object : { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: c.name, namespace } }, defaultMode, optional));
		} else if (projection.downwardAPI) {
			merge(downwardApiPayload(projection.downwardAPI.items, pod, defaultMode, ctx.nodeAllocatable));
		} else if (projection.serviceAccountToken) {
			const t = projection.serviceAccountToken;
			const got = ctx.token({ path: t.path, audience: t.audience ?? '', expirationSeconds: t.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS });
			if (!got.ok) {
				errors.push(got.error);
				continue;
			}
			payload[t.path] = { data: got.token, mode: defaultMode };
		}
	}
	if (errors.length) return { ok: false, error: aggregate(errors) };
	return { ok: true, payload };
}
