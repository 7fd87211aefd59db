/**
 * Validation of pod specs, for Pods and for pod templates: containers,
 * images, ports, environment, volumes and mounts, resources, probes,
 * tolerations and the pod-level fields, with upstream's field paths and
 * messages. Follows ValidatePodSpec, ValidatePodTemplateSpec,
 * validatePodMetadataAndSpec, ValidatePodUpdate and
 * ValidatePodEphemeralContainersUpdate (ephemeral containers are only ever
 * added, never removed or changed) of v1.36.
 *
 * Left out: the volume sources the simulation has no use for beyond their
 * required fields, affinity terms, security-context details, DNS config,
 * resource claims, sysctls and Windows options.
 *
 * Mirrors pkg/apis/core/validation/validation.go.
 */
import type { ObjectMeta } from '../../api/types.ts';
import { Quantity, QuantityParseError } from '../../api/quantity.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { isValidLabelValue } from '../../api/labels.ts';
import { asArray, asRecord, asStringMap, child, duplicate, forbidden, index, invalid, jsonEquals, key, notFound, notSupported, required, type FieldError } from './field.ts';
import {
	inclusiveRangeError,
	isConfigMapKey,
	isEnvVarName,
	isValidPortName,
	isValidPortNum,
	IS_NEGATIVE,
	nameIsDNSSubdomain,
	validateAnnotations,
	validateDNS1123Label,
	validateLabelName,
	validateLabels,
	validateNonnegative,
	validateObjectMeta,
	validateObjectMetaUpdate,
	validatePortNumOrName,
	validateQualifiedName,
} from './objectmeta.ts';
import { deepCopy } from '../../golang/json.ts';

type Json = Record<string, unknown>;

/** PodValidationOptions, the part the simulation uses. */
interface PodValidationOptions {
	/** The spec is a Pod's, not a template's (host-network ports must then match exactly). */
	resourceIsPod: boolean;
}

/** core.MirrorPodAnnotationKey. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

// ---- volumes -------------------------------------------------------------------

/** The volume source fields of core/v1 VolumeSource, in upstream's checking order. */
const VOLUME_SOURCES = [
	'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
	'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile',
	'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO', 'csi', 'ephemeral', 'image',
];

/** The required field of the common volume sources (validate*VolumeSource). */
const VOLUME_REQUIRED: Record<string, string> = { hostPath: 'path', secret: 'secretName', configMap: 'name', persistentVolumeClaim: 'claimName', nfs: 'server' };

function validateVolumeSource(v: Json, path: string): FieldError[] {
	const errs: FieldError[] = [];
	let count = 0;
	for (const source of VOLUME_SOURCES) {
		if (v[source] === undefined || v[source] === null) continue;
		if (count > 0) {
			errs.push(forbidden(child(path, source), 'may not specify more than 1 volume type'));
			continue;
		}
		count++;
		const src = asRecord(v[source]) ?? {};
		const needed = VOLUME_REQUIRED[source];
		if (needed && !src[needed]) errs.push(required(child(path, source, needed)));
	}
	if (count === 0) errs.push(required(path, 'must specify a volume type'));
	return errs;
}

/** ValidateVolumes: the valid volume names, and the errors. */
function validateVolumes(volumes: Json[], path: string): { names: Set<string>; errs: FieldError[] } {
	const names = new Set<string>();
	const errs: FieldError[] = [];
	volumes.forEach((vol, i) => {
		const p = index(path, i);
		const name = str(vol?.name);
		const el = validateVolumeSource(vol ?? {}, p);
		if (!name) el.push(required(child(p, 'name')));
		else el.push(...validateDNS1123Label(name, child(p, 'name')));
		if (names.has(name)) el.push(duplicate(child(p, 'name'), name));
		if (el.length === 0) names.add(name);
		else errs.push(...el);
	});
	return { names, errs };
}

// ---- containers ------------------------------------------------------------------

function validateContainerPorts(ports: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	const names = new Set<string>();
	ports.forEach((port, i) => {
		const p = index(path, i);
		const name = str(port?.name);
		if (name) {
			const msgs = isValidPortName(name);
			if (msgs.length) msgs.forEach((m) => errs.push(invalid(child(p, 'name'), name, m)));
			else if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
			else names.add(name);
		}
		const containerPort = port?.containerPort;
		if (!containerPort) errs.push(required(child(p, 'containerPort')));
		else for (const m of isValidPortNum(Number(containerPort))) errs.push(invalid(child(p, 'containerPort'), containerPort, m));
		if (port?.hostPort) for (const m of isValidPortNum(Number(port.hostPort))) errs.push(invalid(child(p, 'hostPort'), port.hostPort, m));
		const protocol = str(port?.protocol);
		if (!protocol) errs.push(required(child(p, 'protocol')));
		else if (!['SCTP', 'TCP', 'UDP'].includes(protocol)) errs.push(notSupported(child(p, 'protocol'), protocol, ['SCTP', 'TCP', 'UDP']));
	});
	return errs;
}

/** validEnvDownwardAPIFieldPathExpressions, sorted as sets.List sorts them. */
const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs'];
const RESOURCE_FIELD_PATHS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];

function validateKeySelector(ref: Json, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const name = str(ref.name);
	for (const m of nameIsDNSSubdomain(name, false)) errs.push(invalid(child(path, 'name'), name, m));
	const k = str(ref.key);
	if (!k) errs.push(required(child(path, 'key')));
	else for (const m of isConfigMapKey(k)) errs.push(invalid(child(path, 'key'), k, m));
	return errs;
}

function validateEnv(env: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	env.forEach((ev, i) => {
		const p = index(path, i);
		const name = str(ev?.name);
		if (!name) errs.push(required(child(p, 'name')));
		else for (const m of isEnvVarName(name)) errs.push(invalid(child(p, 'name'), name, m));
		const from = asRecord(ev?.valueFrom);
		if (!from) return;
		const fp = child(p, 'valueFrom');
		let sources = 0;
		const fieldRef = asRecord(from.fieldRef);
		if (fieldRef) {
			sources++;
			const fieldPath = str(fieldRef.fieldPath);
			if (!str(fieldRef.apiVersion)) errs.push(required(child(fp, 'fieldRef', 'apiVersion')));
			else if (!fieldPath) errs.push(required(child(fp, 'fieldRef', 'fieldPath')));
			else {
				const sub = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/.exec(fieldPath);
				if (sub) errs.push(...validateQualifiedName(sub[1] === 'metadata.annotations' ? sub[2].toLowerCase() : sub[2], child(fp, 'fieldRef')));
				else if (!ENV_FIELD_PATHS.includes(fieldPath)) errs.push(notSupported(child(fp, 'fieldRef', 'fieldPath'), fieldPath, ENV_FIELD_PATHS));
			}
		}
		const resourceRef = asRecord(from.resourceFieldRef);
		if (resourceRef) {
			sources++;
			const resource = str(resourceRef.resource);
			if (!resource) errs.push(required(child(fp, 'resourceFieldRef', 'resource')));
			else if (!RESOURCE_FIELD_PATHS.includes(resource) && !/^(requests|limits)\.hugepages-/.test(resource)) {
				errs.push(notSupported(child(fp, 'resourceFieldRef', 'resource'), resource, RESOURCE_FIELD_PATHS));
			}
		}
		const cmRef = asRecord(from.configMapKeyRef);
		if (cmRef) {
			sources++;
			errs.push(...validateKeySelector(cmRef, child(fp, 'configMapKeyRef')));
		}
		const secretRef = asRecord(from.secretKeyRef);
		if (secretRef) {
			sources++;
			errs.push(...validateKeySelector(secretRef, child(fp, 'secretKeyRef')));
		}
		if (sources === 0) errs.push(invalid(fp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
		else if (str(ev.value)) errs.push(invalid(fp, '', 'may not be specified when `value` is not empty'));
		else if (sources > 1) errs.push(invalid(fp, '', 'may not have more than one field specified at a time'));
	});
	return errs;
}

function validateEnvFrom(envFrom: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	envFrom.forEach((ev, i) => {
		const p = index(path, i);
		let sources = 0;
		for (const kind of ['configMapRef', 'secretRef']) {
			const ref = asRecord(ev?.[kind]);
			if (!ref) continue;
			sources++;
			const name = str(ref.name);
			if (!name) errs.push(required(child(p, kind, 'name')));
			else for (const m of nameIsDNSSubdomain(name, true)) errs.push(invalid(child(p, kind, 'name'), name, m));
		}
		if (sources === 0) errs.push(invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
		else if (sources > 1) errs.push(invalid(path, '', 'may not have more than one field specified at a time'));
	});
	return errs;
}

function validateVolumeMounts(mounts: Json[], volumes: Set<string>, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const mountPoints = new Set<string>();
	mounts.forEach((m, i) => {
		const p = index(path, i);
		const name = str(m?.name);
		const mountPath = str(m?.mountPath);
		if (!name) errs.push(required(child(p, 'name')));
		if (!volumes.has(name)) errs.push(notFound(child(p, 'name'), name));
		if (!mountPath) errs.push(required(child(p, 'mountPath')));
		if (mountPoints.has(mountPath)) errs.push(invalid(child(p, 'mountPath'), mountPath, 'must be unique'));
		mountPoints.add(mountPath);
		const subPath = str(m?.subPath);
		if (subPath) {
			// validateLocalDescendingPath, reported on the list path as upstream does.
			if (subPath.startsWith('/')) errs.push(invalid(child(path, 'subPath'), subPath, 'must be a relative path'));
			if (subPath.split('/').includes('..')) errs.push(invalid(child(path, 'subPath'), subPath, "must not contain '..'"));
		}
	});
	return errs;
}

/** helper.IsStandardContainerResourceName. */
function isStandardContainerResource(name: string): boolean {
	return name === 'cpu' || name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-');
}

/** Resources whose requests must equal their limits (helper.IsOvercommitAllowed is false for them). */
function overcommitAllowed(name: string): boolean {
	return isStandardContainerResource(name) && !name.startsWith('hugepages-');
}

function parseQuantityOrUndefined(value: unknown): Quantity | undefined {
	try {
		return Quantity.parse(String(value));
	} catch (e) {
		if (e instanceof QuantityParseError) return undefined;
		throw e;
	}
}

function validateResourceName(name: string, path: string): FieldError[] {
	const errs = validateQualifiedName(name, path);
	if (errs.length) return errs;
	if (!name.includes('/')) {
		if (!isStandardContainerResource(name)) errs.push(invalid(path, name, 'must be a standard resource for containers'));
	} else if (!/(^|\.)kubernetes\.io\//.test(name) && name.startsWith('requests.')) {
		errs.push(invalid(path, name, "doesn't follow extended resource name standard"));
	}
	return errs;
}

/** validateResourceRequirements: names, non-negative quantities, requests ≤ limits. */
export function validateResources(resources: Json | undefined, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const limPath = child(path, 'limits');
	const reqPath = child(path, 'requests');
	const limits = asRecord(resources?.limits) ?? {};
	const requests = asRecord(resources?.requests) ?? {};
	const check = (list: Json, listPath: string) => {
		for (const name of Object.keys(list).sort(compareGoStrings)) {
			const p = key(listPath, name);
			errs.push(...validateResourceName(name, p));
			const q = parseQuantityOrUndefined(list[name]);
			if (q && q.sign() < 0) errs.push(invalid(p, q.toString(), IS_NEGATIVE));
			if (q && name.includes('/') && q.milliValue() % 1000 !== 0) errs.push(invalid(p, q.toString(), 'must be an integer'));
		}
	};
	check(limits, limPath);
	check(requests, reqPath);
	for (const name of Object.keys(requests).sort(compareGoStrings)) {
		const req = parseQuantityOrUndefined(requests[name]);
		if (!req) continue;
		if (name in limits) {
			const lim = parseQuantityOrUndefined(limits[name]);
			if (!lim) continue;
			if (req.cmp(lim) !== 0 && !overcommitAllowed(name)) {
				errs.push(invalid(reqPath, req.toString(), `must be equal to ${name} limit of ${lim.toString()}`));
			} else if (req.cmp(lim) > 0) {
				errs.push(invalid(reqPath, req.toString(), `must be less than or equal to ${name} limit of ${lim.toString()}`));
			}
		} else if (!overcommitAllowed(name)) {
			errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
		}
	}
	return errs;
}

/** validateHandler: exactly one handler type, each checked. */
function validateHandler(handler: Json, path: string, kinds: string[]): FieldError[] {
	const errs: FieldError[] = [];
	let count = 0;
	for (const kind of kinds) {
		const h = asRecord(handler[kind]);
		if (!h) continue;
		if (count > 0) {
			errs.push(forbidden(child(path, kind), 'may not specify more than 1 handler type'));
			continue;
		}
		count++;
		const p = child(path, kind);
		if (kind === 'exec' && asArray(h.command).length === 0) errs.push(required(child(p, 'command')));
		if (kind === 'httpGet') {
			if (!str(h.path)) errs.push(required(child(p, 'path')));
			errs.push(...validatePortNumOrName(h.port, child(p, 'port')));
			const scheme = str(h.scheme);
			if (scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(notSupported(child(p, 'scheme'), scheme, ['HTTP', 'HTTPS']));
		}
		if (kind === 'tcpSocket') errs.push(...validatePortNumOrName(h.port, child(p, 'port')));
		if (kind === 'grpc') errs.push(...validatePortNumOrName(typeof h.port === 'number' ? h.port : Number(h.port), child(p, 'port')));
	}
	if (count === 0) errs.push(required(path, 'must specify a handler type'));
	return errs;
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

function validateProbe(probe: unknown, path: string, kind: 'liveness' | 'readiness' | 'startup'): FieldError[] {
	const p = asRecord(probe);
	if (!p) return [];
	const errs = validateHandler(p, path, PROBE_HANDLERS);
	for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']) {
		errs.push(...validateNonnegative(typeof p[f] === 'number' ? (p[f] as number) : undefined, child(path, f)));
	}
	if (typeof p.terminationGracePeriodSeconds === 'number' && p.terminationGracePeriodSeconds <= 0) {
		errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must be greater than 0'));
	}
	if (kind !== 'readiness' && p.successThreshold !== 1) errs.push(invalid(child(path, 'successThreshold'), p.successThreshold ?? 0, 'must be 1'));
	if (kind === 'readiness' && p.terminationGracePeriodSeconds !== undefined) {
		errs.push(invalid(child(path, 'terminationGracePeriodSeconds'), p.terminationGracePeriodSeconds, 'must not be set for readinessProbes'));
	}
	return errs;
}

function validateLifecycle(lifecycle: unknown, path: string): FieldError[] {
	const l = asRecord(lifecycle);
	if (!l) return [];
	const errs: FieldError[] = [];
	for (const hook of ['postStart', 'preStop']) {
		const h = asRecord(l[hook]);
		if (h) errs.push(...validateHandler(h, child(path, hook), LIFECYCLE_HANDLERS));
	}
	return errs;
}

/** validateContainerCommon: what every kind of container must satisfy. */
function validateContainerCommon(c: Json, volumes: Set<string>, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const name = str(c.name);
	if (!name) errs.push(required(child(path, 'name')));
	else errs.push(...validateDNS1123Label(name, child(path, 'name')));
	if (!str(c.image)) errs.push(required(child(path, 'image')));
	const tmp = str(c.terminationMessagePolicy);
	if (!tmp) errs.push(required(child(path, 'terminationMessagePolicy')));
	else if (tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(notSupported(child(path, 'terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
	errs.push(...validateContainerPorts(asArray<Json>(c.ports), child(path, 'ports')));
	errs.push(...validateEnv(asArray<Json>(c.env), child(path, 'env')));
	errs.push(...validateEnvFrom(asArray<Json>(c.envFrom), child(path, 'envFrom')));
	errs.push(...validateVolumeMounts(asArray<Json>(c.volumeMounts), volumes, child(path, 'volumeMounts')));
	const pull = str(c.imagePullPolicy);
	if (!pull) errs.push(required(child(path, 'imagePullPolicy')));
	else if (!['Always', 'IfNotPresent', 'Never'].includes(pull)) errs.push(notSupported(child(path, 'imagePullPolicy'), pull, ['Always', 'IfNotPresent', 'Never']));
	errs.push(...validateResources(asRecord(c.resources), child(path, 'resources')));
	return errs;
}

/** AccumulateUniqueHostPorts: `protocol/hostIP/port` must be unique. */
function checkHostPortConflicts(containers: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	const seen = new Set<string>();
	containers.forEach((c, ci) => {
		asArray<Json>(c?.ports).forEach((port, pi) => {
			if (!port?.hostPort) return;
			const id = `${str(port.protocol)}/${str(port.hostIP)}/${port.hostPort}`;
			if (seen.has(id)) errs.push(duplicate(child(index(child(index(path, ci), 'ports'), pi), 'hostPort'), id));
			else seen.add(id);
		});
	});
	return errs;
}

function validateContainers(containers: Json[], volumes: Set<string>, path: string): FieldError[] {
	if (containers.length === 0) return [required(path)];
	const errs: FieldError[] = [];
	const names = new Set<string>();
	containers.forEach((c, i) => {
		const p = index(path, i);
		errs.push(...validateContainerCommon(c ?? {}, volumes, p));
		const name = str(c?.name);
		if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
		else names.add(name);
		errs.push(...validateLifecycle(c?.lifecycle, child(p, 'lifecycle')));
		errs.push(...validateProbe(c?.livenessProbe, child(p, 'livenessProbe'), 'liveness'));
		errs.push(...validateProbe(c?.readinessProbe, child(p, 'readinessProbe'), 'readiness'));
		errs.push(...validateProbe(c?.startupProbe, child(p, 'startupProbe'), 'startup'));
		if (c?.restartPolicy !== undefined) errs.push(forbidden(child(p, 'restartPolicy'), 'may not be set for non-init containers'));
	});
	errs.push(...checkHostPortConflicts(containers, path));
	return errs;
}

function validateInitContainers(inits: Json[], regular: Json[], volumes: Set<string>, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const names = new Set(regular.map((c) => str(c?.name)));
	inits.forEach((c, i) => {
		const p = index(path, i);
		errs.push(...validateContainerCommon(c ?? {}, volumes, p));
		const restartAlways = c?.restartPolicy === 'Always';
		if (c?.restartPolicy !== undefined && !restartAlways) errs.push(notSupported(child(p, 'restartPolicy'), c.restartPolicy, ['Always']));
		const name = str(c?.name);
		if (names.has(name)) errs.push(duplicate(child(p, 'name'), name));
		else if (name) names.add(name);
		errs.push(...checkHostPortConflicts([c], path));
		if (restartAlways) {
			errs.push(...validateLifecycle(c.lifecycle, child(p, 'lifecycle')));
			errs.push(...validateProbe(c.livenessProbe, child(p, 'livenessProbe'), 'liveness'));
			errs.push(...validateProbe(c.readinessProbe, child(p, 'readinessProbe'), 'readiness'));
			errs.push(...validateProbe(c.startupProbe, child(p, 'startupProbe'), 'startup'));
		} else {
			for (const f of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
				if (c?.[f] !== undefined) errs.push(forbidden(child(p, f), 'may not be set for init containers without restartPolicy=Always'));
			}
		}
	});
	return errs;
}

/** The container fields an ephemeral container may not set (validateFieldAllowList's complement for EphemeralContainerCommon). */
const EPHEMERAL_FORBIDDEN_FIELDS = ['ports', 'resources', 'resizePolicy', 'lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe', 'restartPolicy', 'restartPolicyRules'];

/**
 * validateEphemeralContainers: names unique among all the pod's containers,
 * the common container rules, no ports, probes, lifecycle or resources, and
 * a targetContainerName that names a container or init container.
 */
function validateEphemeralContainers(ephemeral: Json[], containers: Json[], inits: Json[], volumes: Set<string>, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const others = new Set([...containers, ...inits].map((c) => str(c?.name)));
	const seen = new Set<string>();
	ephemeral.forEach((c, i) => {
		const p = index(path, i);
		const name = str(c?.name);
		if (others.has(name) || seen.has(name)) errs.push(duplicate(child(p, 'name'), name));
		else seen.add(name);
		errs.push(...validateContainerCommon(c ?? {}, volumes, p));
		// A field at its zero value is not set (the defaulted `resources: {}` included).
		for (const f of EPHEMERAL_FORBIDDEN_FIELDS) if (!isZero(c?.[f])) errs.push(forbidden(child(p, f), 'cannot be set for an Ephemeral Container'));
		const target = str(c?.targetContainerName);
		if (target && !others.has(target)) errs.push(notFound(child(p, 'targetContainerName'), target));
	});
	return errs;
}

/** Whether a JSON value is Go's zero value for its field (absent, null, empty string, list or object). */
function isZero(value: unknown): boolean {
	if (value === undefined || value === null || value === '' || value === false || value === 0) return true;
	if (Array.isArray(value)) return value.length === 0;
	return typeof value === 'object' && Object.values(value as object).every(isZero);
}

/**
 * ValidatePodEphemeralContainersUpdate: the pod (spec and metadata) valid as
 * a whole; not a static pod's mirror; the ephemeral containers already there
 * neither removed nor changed (new ones may only be added).
 */
export function validatePodEphemeralContainersUpdate(pod: { metadata: ObjectMeta; spec?: unknown }, old: { metadata: ObjectMeta; spec?: unknown }): FieldError[] {
	const errs = validateObjectMetaUpdate(pod.metadata, old.metadata);
	errs.push(...validatePod(pod, false));
	if (old.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return [forbidden('', 'static pods do not support ephemeral containers')];
	const now = new Map(asArray<Json>(asRecord(pod.spec)?.ephemeralContainers).map((c) => [str(c?.name), c] as const));
	for (const before of asArray<Json>(asRecord(old.spec)?.ephemeralContainers)) {
		const name = str(before?.name);
		const after = now.get(name);
		if (!after) errs.push(forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be removed\n`));
		else if (!jsonEquals(before, after)) errs.push(forbidden('spec.ephemeralContainers', `existing ephemeral containers ${JSON.stringify(name)} may not be changed\n${ephemeralDiff(before, after)}`));
	}
	return errs;
}

/** A short stand-in for upstream's cmp.Diff of an ephemeral container: one `-`/`+` pair per field that differs (JSON values, not Go syntax). */
function ephemeralDiff(before: Json, after: Json): string {
	const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => !jsonEquals(before[k], after[k]));
	const lines = ['  core.EphemeralContainer{'];
	for (const k of keys) {
		if (before[k] !== undefined) lines.push(`- \t${goFieldName(k)}: ${JSON.stringify(before[k])},`);
		if (after[k] !== undefined) lines.push(`+ \t${goFieldName(k)}: ${JSON.stringify(after[k])},`);
	}
	lines.push('  }');
	return lines.join('\n');
}

// ---- pod-level fields ------------------------------------------------------------

const TAINT_EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** validateTaintEffect. */
export function validateTaintEffect(effect: string, allowEmpty: boolean, path: string): FieldError[] {
	if (!allowEmpty && !effect) return [required(path)];
	return TAINT_EFFECTS.includes(effect) ? [] : [notSupported(path, effect, TAINT_EFFECTS)];
}

/** ValidateTolerations. */
function validateTolerations(tolerations: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	tolerations.forEach((t, i) => {
		const p = index(path, i);
		const k = str(t?.key);
		const operator = str(t?.operator);
		const effect = str(t?.effect);
		const value = str(t?.value);
		if (k) errs.push(...validateLabelName(k, child(p, 'key')));
		if (!k && operator !== 'Exists') errs.push(invalid(child(p, 'operator'), operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
		if (t?.tolerationSeconds !== undefined && t?.tolerationSeconds !== null && effect !== 'NoExecute') {
			errs.push(invalid(child(p, 'effect'), effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
		}
		if (operator === 'Equal' || operator === '') {
			const msgs = isValidLabelValue(value);
			if (msgs.length) errs.push(invalid(child(p, 'operator'), value, msgs.join(';')));
		} else if (operator === 'Exists') {
			if (value) errs.push(invalid(child(p, 'operator'), value, "value must be empty when `operator` is 'Exists'"));
		} else errs.push(notSupported(child(p, 'operator'), operator, ['Equal', 'Exists']));
		if (effect) errs.push(...validateTaintEffect(effect, true, child(p, 'effect')));
	});
	return errs;
}

function validateTopologySpread(constraints: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	constraints.forEach((c, i) => {
		const p = index(path, i);
		const maxSkew = Number(c?.maxSkew ?? 0);
		if (!(maxSkew > 0)) errs.push(invalid(child(p, 'maxSkew'), maxSkew, 'must be greater than zero'));
		if (!str(c?.topologyKey)) errs.push(required(child(p, 'topologyKey'), 'can not be empty'));
		const when = str(c?.whenUnsatisfiable);
		if (when !== 'DoNotSchedule' && when !== 'ScheduleAnyway') errs.push(notSupported(child(p, 'whenUnsatisfiable'), when, ['DoNotSchedule', 'ScheduleAnyway']));
		// validateMinDomains: positive, and only with DoNotSchedule.
		if (c?.minDomains !== undefined && c?.minDomains !== null) {
			const minDomains = Number(c.minDomains);
			if (!(minDomains > 0)) errs.push(invalid(child(p, 'minDomains'), minDomains, 'must be greater than zero'));
			if (when !== 'DoNotSchedule') errs.push(invalid(child(p, 'minDomains'), minDomains, `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${when}`));
		}
	});
	return errs;
}

/** ValidatePodSpec (the parts listed in this module's TSDoc). */
function validatePodSpec(spec: Json, path: string, opts: PodValidationOptions): FieldError[] {
	const errs: FieldError[] = [];
	if (spec.terminationGracePeriodSeconds === undefined || spec.terminationGracePeriodSeconds === null) errs.push(required(child(path, 'terminationGracePeriodSeconds')));
	const { names: volumes, errs: volumeErrs } = validateVolumes(asArray<Json>(spec.volumes), child(path, 'volumes'));
	errs.push(...volumeErrs);
	const containers = asArray<Json>(spec.containers);
	errs.push(...validateContainers(containers, volumes, child(path, 'containers')));
	errs.push(...validateInitContainers(asArray<Json>(spec.initContainers), containers, volumes, child(path, 'initContainers')));
	errs.push(...validateEphemeralContainers(asArray<Json>(spec.ephemeralContainers), containers, asArray<Json>(spec.initContainers), volumes, child(path, 'ephemeralContainers')));
	if (spec.hostNetwork === true) {
		containers.forEach((c, i) => {
			asArray<Json>(c?.ports).forEach((port, j) => {
				const hp = Number(port?.hostPort ?? 0);
				const cp = Number(port?.containerPort ?? 0);
				if ((opts.resourceIsPod || hp !== 0) && hp !== cp) {
					errs.push(invalid(child(index(child(index(child(path, 'containers'), i), 'ports'), j), 'hostPort'), hp, 'must match `containerPort` when `hostNetwork` is true'));
				}
			});
		});
	}
	const restartPolicy = str(spec.restartPolicy);
	if (!restartPolicy) errs.push(required(child(path, 'restartPolicy')));
	else if (!['Always', 'OnFailure', 'Never'].includes(restartPolicy)) errs.push(notSupported(child(path, 'restartPolicy'), restartPolicy, ['Always', 'OnFailure', 'Never']));
	const dnsPolicy = str(spec.dnsPolicy);
	const dnsPolicies = ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'];
	if (!dnsPolicy) errs.push(required(child(path, 'dnsPolicy')));
	else if (!dnsPolicies.includes(dnsPolicy)) errs.push(notSupported(child(path, 'dnsPolicy'), dnsPolicy, dnsPolicies));
	errs.push(...validateLabels(asStringMap(spec.nodeSelector), child(path, 'nodeSelector')));
	errs.push(...validateTopologySpread(asArray<Json>(spec.topologySpreadConstraints), child(path, 'topologySpreadConstraints')));
	const sa = str(spec.serviceAccountName);
	if (sa) for (const m of nameIsDNSSubdomain(sa, false)) errs.push(invalid(child(path, 'serviceAccountName'), sa, m));
	const nodeName = str(spec.nodeName);
	if (nodeName) for (const m of nameIsDNSSubdomain(nodeName, false)) errs.push(invalid(child(path, 'nodeName'), nodeName, m));
	if (typeof spec.activeDeadlineSeconds === 'number') {
		const v = spec.activeDeadlineSeconds;
		// math.MaxInt32.
		if (v < 1 || v > 2147483647) errs.push(invalid(child(path, 'activeDeadlineSeconds'), v, inclusiveRangeError(1, 2147483647)));
	}
	if (str(spec.hostname)) errs.push(...validateDNS1123Label(str(spec.hostname), child(path, 'hostname')));
	if (str(spec.subdomain)) errs.push(...validateDNS1123Label(str(spec.subdomain), child(path, 'subdomain')));
	errs.push(...validateTolerations(asArray<Json>(spec.tolerations), child(path, 'tolerations')));
	const pc = str(spec.priorityClassName);
	if (pc) for (const m of nameIsDNSSubdomain(pc, false)) errs.push(invalid(child(path, 'priorityClassName'), pc, m));
	if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== null) {
		const pp = str(spec.preemptionPolicy);
		if (!pp) errs.push(required(child(path, 'preemptionPolicy')));
		else if (pp !== 'PreemptLowerPriority' && pp !== 'Never') errs.push(notSupported(child(path, 'preemptionPolicy'), pp, ['PreemptLowerPriority', 'Never']));
	}
	return errs;
}

/** ValidatePodSpecificAnnotations: a mirror pod must be bound. */
export function validatePodAnnotations(annotations: Record<string, string> | undefined, spec: Json, path: string): FieldError[] {
	const value = annotations?.[MIRROR_POD_ANNOTATION];
	if (value !== undefined && !str(spec.nodeName)) return [invalid(key(path, MIRROR_POD_ANNOTATION), value, 'must set spec.nodeName if mirror pod annotation is set')];
	return [];
}

/** ValidatePodTemplateSpec: labels, annotations and the spec of a template. */
export function validatePodTemplateSpec(template: Json | undefined, path: string): FieldError[] {
	if (!template) return [required(path)];
	const meta = (asRecord(template.metadata) ?? {}) as ObjectMeta;
	const spec = asRecord(template.spec) ?? {};
	const errs: FieldError[] = [];
	errs.push(...validateLabels(meta.labels, child(path, 'labels')));
	errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
	errs.push(...validatePodAnnotations(meta.annotations, spec, child(path, 'annotations')));
	errs.push(...validatePodSpec(spec, child(path, 'spec'), { resourceIsPod: false }));
	if (asArray(spec.ephemeralContainers).length) errs.push(forbidden(child(path, 'spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
	return errs;
}

/** validatePodMetadataAndSpec, plus ValidatePodCreate's create-only checks when `create`. */
export function validatePod(pod: { metadata: ObjectMeta; spec?: unknown }, create: boolean): FieldError[] {
	const spec = asRecord(pod.spec) ?? {};
	const errs = validateObjectMeta(pod.metadata, true, nameIsDNSSubdomain);
	errs.push(...validatePodAnnotations(pod.metadata.annotations, spec, 'metadata.annotations'));
	errs.push(...validatePodSpec(spec, 'spec', { resourceIsPod: true }));
	if (!str(spec.serviceAccountName)) {
		asArray<Json>(spec.volumes).forEach((v, vi) => {
			asArray<Json>(asRecord(v?.projected)?.sources).forEach((s, si) => {
				if (asRecord(s?.serviceAccountToken)) errs.push(forbidden(`spec.volumes[${vi}].projected.sources[${si}].serviceAccountToken`, 'must not be specified when serviceAccountName is not set'));
			});
		});
	}
	for (const [list, path] of [[spec.containers, 'spec.containers'], [spec.initContainers, 'spec.initContainers']] as const) {
		asArray<Json>(list).forEach((c, i) => {
			const image = str(c?.image);
			if (image.length !== image.trim().length) errs.push(invalid(child(index(path, i), 'image'), image, 'must not have leading or trailing whitespace'));
		});
	}
	if (create) {
		if (asArray(spec.ephemeralContainers).length) errs.push(forbidden('spec.ephemeralContainers', 'cannot be set on create'));
		if (str(spec.nodeName) && asArray(spec.schedulingGates).length) errs.push(forbidden('spec.nodeName', 'cannot be set until all schedulingGates have been cleared'));
	}
	return errs;
}

/** updatablePodSpecFields (validation.go), joined with ',' in the message. */
const UPDATABLE_POD_SPEC_FIELDS = [
	'`spec.containers[*].image`',
	'`spec.initContainers[*].image`',
	'`spec.activeDeadlineSeconds`',
	'`spec.tolerations` (only additions to existing tolerations)',
	'`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** Go's exported field name for a JSON field name (`restartPolicy` → `RestartPolicy`). */
function goFieldName(jsonName: string): string {
	return jsonName.charAt(0).toUpperCase() + jsonName.slice(1);
}

/**
 * A short stand-in for upstream's cmp.Diff of the two specs: one `-`/`+`
 * pair per top-level field that differs, in the diff's layout. Upstream
 * prints Go struct syntax; the values here are JSON.
 */
function specDiff(oldSpec: Json, newSpec: Json): string {
	const keys = [...new Set([...Object.keys(oldSpec), ...Object.keys(newSpec)])].filter((k) => !jsonEquals(oldSpec[k], newSpec[k]));
	const lines = ['  core.PodSpec{'];
	for (const k of keys) {
		if (oldSpec[k] !== undefined) lines.push(`- \t${goFieldName(k)}: ${JSON.stringify(oldSpec[k])},`);
		if (newSpec[k] !== undefined) lines.push(`+ \t${goFieldName(k)}: ${JSON.stringify(newSpec[k])},`);
	}
	lines.push('  }');
	return lines.join('\n');
}

function tolerationEqualIgnoringSeconds(a: Json, b: Json): boolean {
	return jsonEquals({ ...a, tolerationSeconds: undefined }, { ...b, tolerationSeconds: undefined });
}

/** ValidatePodUpdate: only images, activeDeadlineSeconds, added tolerations and removed scheduling gates may change. */
export function validatePodUpdate(pod: { metadata: ObjectMeta; spec?: unknown }, old: { metadata: ObjectMeta; spec?: unknown }): FieldError[] {
	const spec = asRecord(pod.spec) ?? {};
	const oldSpec = asRecord(old.spec) ?? {};
	const errs = validateObjectMetaUpdate(pod.metadata, old.metadata);
	errs.push(...validatePod(pod, false));
	const oldMirror = old.metadata.annotations?.[MIRROR_POD_ANNOTATION];
	const newMirror = pod.metadata.annotations?.[MIRROR_POD_ANNOTATION];
	if (oldMirror !== undefined && oldMirror !== newMirror) errs.push(forbidden(key('metadata.annotations', MIRROR_POD_ANNOTATION), 'may not remove or update mirror pod annotation'));
	if (oldMirror === undefined && newMirror !== undefined) errs.push(forbidden(key('metadata.annotations', MIRROR_POD_ANNOTATION), 'may not add mirror pod annotation'));
	for (const [field, path] of [['containers', 'spec.containers'], ['initContainers', 'spec.initContainers']] as const) {
		const now = asArray<Json>(spec[field]);
		const before = asArray<Json>(oldSpec[field]);
		if (now.length !== before.length) {
			errs.push(forbidden(path, 'pod updates may not add or remove containers'));
			return errs;
		}
		now.forEach((c, i) => {
			const image = str(c?.image);
			if (!image) errs.push(required(child(index(path, i), 'image')));
		});
	}
	const deadline = spec.activeDeadlineSeconds;
	const oldDeadline = oldSpec.activeDeadlineSeconds;
	if (typeof deadline === 'number') {
		if (deadline < 0 || deadline > 2147483647) {
			errs.push(invalid('spec.activeDeadlineSeconds', deadline, inclusiveRangeError(0, 2147483647)));
			return errs;
		}
		if (typeof oldDeadline === 'number' && oldDeadline < deadline) {
			errs.push(invalid('spec.activeDeadlineSeconds', deadline, 'must be less than or equal to previous value'));
			return errs;
		}
	} else if (typeof oldDeadline === 'number') {
		errs.push(invalid('spec.activeDeadlineSeconds', null, 'must not update from a positive integer to nil value'));
	}
	const tolerations = asArray<Json>(spec.tolerations);
	for (const t of asArray<Json>(oldSpec.tolerations)) {
		if (!tolerations.some((n) => tolerationEqualIgnoringSeconds(t, n))) {
			errs.push(forbidden('spec.tolerations', 'existing toleration can not be modified except its tolerationSeconds'));
			break;
		}
	}
	const gates = asArray<Json>(spec.schedulingGates);
	const oldGates = new Set(asArray<Json>(oldSpec.schedulingGates).map((g) => str(g?.name)));
	gates.forEach((g, i) => {
		if (!oldGates.has(str(g?.name))) errs.push(forbidden(`spec.schedulingGates[${i}].name`, `only deletion is allowed, but found new scheduling gate '${str(g?.name)}'`));
	});
	if (jsonEquals(spec, oldSpec)) return errs;
	// Munge the updatable fields to their old values, then compare what is left.
	const munged: Json = deepCopy(spec);
	for (const field of ['containers', 'initContainers']) {
		const list = asArray<Json>(munged[field]);
		list.forEach((c, i) => {
			c.image = asArray<Json>(oldSpec[field])[i]?.image;
		});
	}
	munged.activeDeadlineSeconds = oldSpec.activeDeadlineSeconds;
	munged.schedulingGates = oldSpec.schedulingGates;
	munged.tolerations = oldSpec.tolerations;
	if (typeof oldSpec.terminationGracePeriodSeconds === 'number' && oldSpec.terminationGracePeriodSeconds < 0 && munged.terminationGracePeriodSeconds === 1) {
		munged.terminationGracePeriodSeconds = oldSpec.terminationGracePeriodSeconds;
	}
	if (!jsonEquals(munged, oldSpec)) {
		errs.push(forbidden('spec', `pod updates may not change fields other than ${UPDATABLE_POD_SPEC_FIELDS.join(',')}\n${specDiff(oldSpec, munged)}`));
	}
	return errs;
}
