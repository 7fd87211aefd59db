/**
 * Defaulting of pod specs, for Pods and for the pod templates inside
 * Deployments, ReplicaSets, DaemonSets, StatefulSets and Jobs. Follows
 * SetDefaults_PodSpec, SetDefaults_Pod, SetDefaults_Container,
 * SetDefaults_Probe, SetDefaults_HTTPGetAction, the volume-source defaults
 * and SetDefaults_ResourceList upstream.
 *
 * Like upstream, template specs get only the PodSpec defaults; the
 * Pod-only ones (requests copied from limits, enableServiceLinks,
 * host-network ports) apply to Pods alone (SetDefaults_Pod).
 *
 * Mirrors pkg/apis/core/v1/defaults.go.
 */
import { Quantity, QuantityParseError } from '../../api/quantity.ts';
import { asArray, asRecord } from './field.ts';

type Json = Record<string, unknown>;

/** v1.DefaultTerminationGracePeriodSeconds (core/v1/types.go). */
const DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30;
/** v1.DefaultSchedulerName. */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
/** v1.TerminationMessagePathDefault. */
const TERMINATION_MESSAGE_PATH_DEFAULT = '/dev/termination-log';
/** 0644: the default mode of secret, configMap, downwardAPI and projected volumes (v1.*VolumeSourceDefaultMode). */
const VOLUME_DEFAULT_MODE = 0o644;

/** A path component of a reference (distribution/reference): lower case, separators inside. */
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN = '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]+)?';
const REFERENCE = new RegExp(`^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::([\\w][\\w.-]{0,127}))?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`);

/**
 * parsers.ParseImageName's tag: the reference's tag, `latest` when it has
 * neither tag nor digest, '' when it has only a digest or does not parse.
 */
function imageTag(image: string): string {
	const m = REFERENCE.exec(image);
	if (!m) return '';
	if (m[1] !== undefined) return m[1];
	return image.includes('@') ? '' : 'latest';
}

/** SetDefaults_Container: imagePullPolicy Always for a `latest` tag (given or implied), else IfNotPresent. */
export function defaultImagePullPolicy(image: string): 'Always' | 'IfNotPresent' {
	return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** SetDefaults_ResourceList: quantities rounded up to milli scale and printed canonically (`0.5` → `500m`). */
function defaultResourceList(list: unknown): void {
	const rec = asRecord(list);
	if (!rec) return;
	for (const [name, value] of Object.entries(rec)) {
		if (typeof value !== 'string' && typeof value !== 'number') continue;
		try {
			const q = Quantity.parse(String(value));
			// RoundUp(-3): anything finer than a milli-unit goes up to the next milli-unit.
			const milli = q.scaledValue(-3);
			const rounded = Quantity.fromMilli(milli, q.format);
			rec[name] = (rounded.cmp(q) === 0 ? q : rounded).toString();
		} catch (e) {
			// Left as given: the strict decoder reports malformed quantities.
			if (!(e instanceof QuantityParseError)) throw e;
		}
	}
}

function defaultProbe(probe: unknown): void {
	const p = asRecord(probe);
	if (!p) return;
	// SetDefaults_Probe: zero means unset.
	if (!p.timeoutSeconds) p.timeoutSeconds = 1;
	if (!p.periodSeconds) p.periodSeconds = 10;
	if (!p.successThreshold) p.successThreshold = 1;
	if (!p.failureThreshold) p.failureThreshold = 3;
	defaultHandler(p);
}

function defaultHandler(handler: Json): void {
	const http = asRecord(handler.httpGet);
	if (http) {
		// SetDefaults_HTTPGetAction.
		if (!http.path) http.path = '/';
		if (!http.scheme) http.scheme = 'HTTP';
	}
}

function defaultEnv(env: unknown): void {
	for (const e of asArray<Json>(env)) {
		const fieldRef = asRecord(asRecord(e?.valueFrom)?.fieldRef);
		// SetDefaults_ObjectFieldSelector.
		if (fieldRef && !fieldRef.apiVersion) fieldRef.apiVersion = 'v1';
	}
}

/** SetDefaults_Container and the defaults of what a container holds. */
export function defaultContainer(c: Json): void {
	// An image that does not parse (or is missing) has no tag, so it gets IfNotPresent, as upstream.
	if (!c.imagePullPolicy) c.imagePullPolicy = defaultImagePullPolicy(typeof c.image === 'string' ? c.image : '');
	if (!c.terminationMessagePath) c.terminationMessagePath = TERMINATION_MESSAGE_PATH_DEFAULT;
	if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
	// ResourceRequirements is a struct, not a pointer: it always serializes, as `resources: {}`.
	if (!asRecord(c.resources)) c.resources = {};
	const resources = c.resources as Json;
	defaultResourceList(resources.limits);
	defaultResourceList(resources.requests);
	for (const port of asArray<Json>(c.ports)) {
		// SetDefaults_ContainerPort.
		if (port && !port.protocol) port.protocol = 'TCP';
	}
	defaultProbe(c.livenessProbe);
	defaultProbe(c.readinessProbe);
	defaultProbe(c.startupProbe);
	const lifecycle = asRecord(c.lifecycle);
	if (lifecycle) {
		for (const hook of [lifecycle.postStart, lifecycle.preStop]) {
			const h = asRecord(hook);
			if (h) defaultHandler(h);
		}
	}
	defaultEnv(c.env);
}

/** The volume-source defaults (SetDefaults_Volume and the *VolumeSource functions). */
function defaultVolume(v: Json): void {
	const sources = Object.keys(v).filter((k) => k !== 'name');
	// SetDefaults_Volume: a volume with no source is an emptyDir.
	if (sources.length === 0) v.emptyDir = {};
	for (const kind of ['secret', 'configMap', 'downwardAPI', 'projected']) {
		const src = asRecord(v[kind]);
		if (src && src.defaultMode === undefined) src.defaultMode = VOLUME_DEFAULT_MODE;
	}
	const hostPath = asRecord(v.hostPath);
	// SetDefaults_HostPathVolumeSource: HostPathUnset is the empty string.
	if (hostPath && hostPath.type === undefined) hostPath.type = '';
	const projected = asRecord(v.projected);
	for (const s of asArray<Json>(projected?.sources)) {
		const token = asRecord(s?.serviceAccountToken);
		// SetDefaults_ServiceAccountTokenProjection: one hour.
		if (token && token.expirationSeconds === undefined) token.expirationSeconds = 3600;
		const fieldRefs = asArray<Json>(asRecord(s?.downwardAPI)?.items);
		for (const item of fieldRefs) {
			const ref = asRecord(item?.fieldRef);
			if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
		}
	}
	for (const item of asArray<Json>(asRecord(v.downwardAPI)?.items)) {
		const ref = asRecord(item?.fieldRef);
		if (ref && !ref.apiVersion) ref.apiVersion = 'v1';
	}
}

/** SetDefaults_PodSpec plus the defaults of its containers and volumes: what every pod template gets. */
function defaultPodSpec(spec: Json): void {
	if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
	if (!spec.restartPolicy) spec.restartPolicy = 'Always';
	if (!asRecord(spec.securityContext)) spec.securityContext = {};
	if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) spec.terminationGracePeriodSeconds = DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS;
	if (!spec.schedulerName) spec.schedulerName = DEFAULT_SCHEDULER_NAME;
	// The deprecated serviceAccount field mirrors serviceAccountName (v1 conversion).
	if (!spec.serviceAccountName && typeof spec.serviceAccount === 'string' && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
	for (const c of [...asArray<Json>(spec.containers), ...asArray<Json>(spec.initContainers), ...asArray<Json>(spec.ephemeralContainers)]) {
		if (asRecord(c)) defaultContainer(c);
	}
	for (const v of asArray<Json>(spec.volumes)) if (asRecord(v)) defaultVolume(v);
}

/** A template spec's defaults: PodSpec defaults under `template.spec`. */
export function defaultPodTemplate(template: unknown): void {
	const t = asRecord(template);
	const spec = asRecord(t?.spec);
	if (spec) defaultPodSpec(spec);
}

/** SetDefaults_Pod: the Pod-only defaults, after the PodSpec ones. */
export function defaultPod(spec: Json): void {
	defaultPodSpec(spec);
	for (const c of [...asArray<Json>(spec.containers), ...asArray<Json>(spec.initContainers)]) {
		const resources = asRecord(c?.resources);
		const limits = asRecord(resources?.limits);
		if (!resources || !limits) continue;
		// Requests default to limits, key by key.
		const requests = (asRecord(resources.requests) ?? (resources.requests = {})) as Json;
		for (const [k, v] of Object.entries(limits)) if (!(k in requests)) requests[k] = v;
	}
	if (spec.enableServiceLinks === undefined || spec.enableServiceLinks === null) spec.enableServiceLinks = true;
	if (spec.hostNetwork === true) {
		// defaultHostNetworkPorts: with host networking every container port is a host port.
		for (const c of [...asArray<Json>(spec.containers), ...asArray<Json>(spec.initContainers)]) {
			for (const p of asArray<Json>(c?.ports)) if (p && !p.hostPort) p.hostPort = p.containerPort;
		}
	}
}
