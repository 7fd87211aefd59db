/**
 * ServiceAccount: every pod runs as a service account (`default` unless it
 * names one), which must exist; unless automounting is turned off (by the
 * pod, else by the service account) the pod gets the projected
 * `kube-api-access-<random>` volume (a bound token, the cluster CA bundle
 * and the namespace) mounted read-only in every container at
 * /var/run/secrets/kubernetes.io/serviceaccount. Mirror pods are left alone
 * but may not use a service account.
 *
 * Mirrors plugin/pkg/admission/serviceaccount/admission.go.
 */
import type { Container, KubeObject, PodSpec, ServiceAccount, Volume } from '../../api/types.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionPlugin } from './plugin.ts';
import { admissionForbidden, isResource } from './errors.ts';

/** DefaultServiceAccountName. */
const DEFAULT_SERVICE_ACCOUNT_NAME = 'default';
/** ServiceAccountVolumeName: the prefix of the generated volume name. */
const SERVICE_ACCOUNT_VOLUME_NAME = 'kube-api-access';
/** DefaultAPITokenMountPath. */
const DEFAULT_API_TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds = 1 hour + 7 seconds (pkg/serviceaccount/claims.go). */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
/** The ConfigMap the root-CA publisher keeps in every namespace. */
const ROOT_CA_CONFIGMAP = 'kube-root-ca.crt';
/** core.MirrorPodAnnotationKey. */
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';
/** names.SimpleNameGenerator: five characters from this alphabet (no vowels, no confusable digits). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** TokenVolumeSource: the projected sources of the generated volume. */
function tokenVolumeSource(): Record<string, unknown> {
	return {
		// 0644, set explicitly upstream (#104464).
		defaultMode: 0o644,
		sources: [
			{ serviceAccountToken: { expirationSeconds: WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, path: 'token' } },
			{ configMap: { name: ROOT_CA_CONFIGMAP, items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
			{ downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
		],
	};
}

/** shouldAutomount: the pod's choice wins, then the service account's, else true. */
function shouldAutomount(sa: ServiceAccount, spec: PodSpec): boolean {
	if (spec.automountServiceAccountToken !== undefined) return spec.automountServiceAccountToken;
	if (sa.automountServiceAccountToken !== undefined) return sa.automountServiceAccountToken;
	return true;
}

/** mountServiceAccountToken: one volume, one read-only mount per container that lacks one at the token path. */
function mountToken(spec: PodSpec, ctx: StrategyContext): void {
	const volumes = spec.volumes ?? [];
	let volumeName = volumes.find((v) => v.name.startsWith(`${SERVICE_ACCOUNT_VOLUME_NAME}-`))?.name ?? '';
	const hasVolume = volumeName !== '';
	if (!hasVolume) {
		let suffix = '';
		for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[ctx.random(NAME_ALPHABET.length)];
		volumeName = `${SERVICE_ACCOUNT_VOLUME_NAME}-${suffix}`;
	}
	let needsVolume = false;
	const mountInto = (containers: Container[] | undefined) => {
		for (const c of containers ?? []) {
			const mounts = c.volumeMounts ?? [];
			if (mounts.some((m) => m.mountPath === DEFAULT_API_TOKEN_MOUNT_PATH)) continue;
			c.volumeMounts = [...mounts, { name: volumeName, readOnly: true, mountPath: DEFAULT_API_TOKEN_MOUNT_PATH }];
			needsVolume = true;
		}
	};
	mountInto(spec.initContainers);
	mountInto(spec.containers);
	if (!hasVolume && needsVolume) spec.volumes = [...volumes, { name: volumeName, projected: tokenVolumeSource() } as Volume];
}

/** The mirror-pod checks of Validate: no service account, no secret volumes, no token projections. */
function validateMirrorPod(pod: KubeObject, a: Parameters<NonNullable<AdmissionPlugin['admit']>>[0]) {
	const spec = (pod.spec ?? {}) as PodSpec;
	if (spec.serviceAccountName) return admissionForbidden(a, 'a mirror pod may not reference service accounts');
	for (const v of spec.volumes ?? []) {
		if (v.secret) return admissionForbidden(a, 'a mirror pod may not reference secrets');
		const sources = ((v.projected as { sources?: Array<{ serviceAccountToken?: unknown }> } | undefined)?.sources) ?? [];
		if (sources.some((source) => source.serviceAccountToken)) return admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections');
	}
	return undefined;
}

export const serviceAccountAdmission: AdmissionPlugin = {
	name: 'ServiceAccount',
	admit(a, ctx) {
		if (!isResource(a, '', 'pods') || a.operation !== 'CREATE' || !a.object) return undefined;
		const pod = a.object;
		if (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return validateMirrorPod(pod, a);
		const spec = (pod.spec ?? (pod.spec = {})) as PodSpec;
		if (!spec.serviceAccountName) spec.serviceAccountName = DEFAULT_SERVICE_ACCOUNT_NAME;
		// The deprecated field follows serviceAccountName (v1 conversion).
		spec.serviceAccount = spec.serviceAccountName;
		const sa = ctx.get('', 'serviceaccounts', a.namespace, spec.serviceAccountName) as ServiceAccount | undefined;
		if (!sa) {
			return admissionForbidden(a, `error looking up service account ${a.namespace}/${spec.serviceAccountName}: serviceaccount "${spec.serviceAccountName}" not found`);
		}
		if (shouldAutomount(sa, spec)) mountToken(spec, ctx);
		const pullSecrets = (spec as { imagePullSecrets?: Array<{ name?: string }> }).imagePullSecrets;
		const saPullSecrets = (sa as { imagePullSecrets?: Array<{ name?: string }> }).imagePullSecrets ?? [];
		if ((!pullSecrets || pullSecrets.length === 0) && saPullSecrets.length) {
			(spec as { imagePullSecrets?: Array<{ name?: string }> }).imagePullSecrets = saPullSecrets.map((s) => ({ name: s.name }));
		}
		return undefined;
	},
};
