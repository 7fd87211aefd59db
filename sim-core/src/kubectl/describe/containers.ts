/**
 * The containers, volumes and pod template sections of `kubectl describe`
 * (pods and every workload controller).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (describeContainers, describeStatus, DescribeProbe, describeVolumes and
 * its print*VolumeSource helpers for the common sources,
 * DescribePodTemplate, describeTopologySpreadConstraints).
 */
import type { Container, ContainerState, ContainerStatus, EnvVar, Pod, PodTemplateSpec, Probe, ResourceRequirements, Volume } from '../../api/types.ts';
import { formatLabelSelector } from '../../api/labels.ts';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, type PrefixWriter } from './prefix-writer.ts';
import { printBool, printLabelsMultiline, printAnnotationsMultiline, printTolerationsMultiline, quantity, rfc1123z, sortedBy, sortedResourceNames, stringOrNone } from './helpers.ts';

type Json = Record<string, unknown>;

/** Resolves an env var's fieldRef against the pod (EnvValueRetriever); templates have no pod, so no value. */
type EnvResolver = ((e: EnvVar) => string) | undefined;

/** describeResources: `Limits:` and `Requests:` with each resource sorted by name. */
export function describeResources(resources: ResourceRequirements | undefined, w: PrefixWriter, level: number): void {
	if (!resources) return;
	const limits = resources.limits ?? {};
	const requests = resources.requests ?? {};
	if (Object.keys(limits).length > 0) w.write(level, 'Limits:\n');
	for (const name of sortedResourceNames(limits)) w.write(level + 1, `${name}:\t${quantity(limits[name]).toString()}\n`);
	if (Object.keys(requests).length > 0) w.write(level, 'Requests:\n');
	for (const name of sortedResourceNames(requests)) w.write(level + 1, `${name}:\t${quantity(requests[name]).toString()}\n`);
}

/** A probe's port as intstr prints it. */
const portText = (port: number | string | undefined) => (port === undefined ? '' : String(port));

/** DescribeProbe: `http-get http://:80/ delay=0s timeout=1s period=10s #success=1 #failure=3`. */
export function describeProbe(probe: Probe): string {
	const attrs = `delay=${probe.initialDelaySeconds ?? 0}s timeout=${probe.timeoutSeconds ?? 0}s period=${probe.periodSeconds ?? 0}s #success=${probe.successThreshold ?? 0} #failure=${probe.failureThreshold ?? 0}`;
	if (probe.exec) return `exec [${(probe.exec.command ?? []).join(' ')}] ${attrs}`;
	if (probe.httpGet) {
		const g = probe.httpGet;
		const scheme = (g.scheme ?? '').toLowerCase();
		const port = portText(g.port);
		const host = port ? (g.host?.includes(':') ? `[${g.host}]:${port}` : `${g.host ?? ''}:${port}`) : (g.host ?? '');
		// url.URL.String: scheme://host/path (a path without a leading slash gets one when there is a host).
		let path = g.path ?? '';
		if (path && !path.startsWith('/') && host) path = `/${path}`;
		return `http-get ${scheme ? `${scheme}://` : host ? '//' : ''}${host}${path} ${attrs}`;
	}
	if (probe.tcpSocket) return `tcp-socket ${probe.tcpSocket.host ?? ''}:${portText(probe.tcpSocket.port)} ${attrs}`;
	if (probe.grpc) return `grpc <pod>:${probe.grpc.port} ${probe.grpc.service ?? ''} ${attrs}`;
	return `unknown ${attrs}`;
}

/** describeStatus: a container state (`Running`, `Waiting` with its reason, `Terminated` with code and times). */
function describeStatus(stateName: string, state: ContainerState | undefined, w: PrefixWriter): void {
	if (state?.running) {
		w.write(LEVEL_2, `${stateName}:\tRunning\n`);
		w.write(LEVEL_3, `Started:\t${rfc1123z(state.running.startedAt)}\n`);
	} else if (state?.waiting) {
		w.write(LEVEL_2, `${stateName}:\tWaiting\n`);
		if (state.waiting.reason) w.write(LEVEL_3, `Reason:\t${state.waiting.reason}\n`);
	} else if (state?.terminated) {
		const t = state.terminated;
		w.write(LEVEL_2, `${stateName}:\tTerminated\n`);
		if (t.reason) w.write(LEVEL_3, `Reason:\t${t.reason}\n`);
		if (t.message) w.write(LEVEL_3, `Message:\t${t.message}\n`);
		w.write(LEVEL_3, `Exit Code:\t${t.exitCode ?? 0}\n`);
		if ((t.signal ?? 0) > 0) w.write(LEVEL_3, `Signal:\t${t.signal}\n`);
		w.write(LEVEL_3, `Started:\t${rfc1123z(t.startedAt)}\n`);
		w.write(LEVEL_3, `Finished:\t${rfc1123z(t.finishedAt)}\n`);
	} else w.write(LEVEL_2, `${stateName}:\tWaiting\n`);
}

/** A resourceFieldRef's value (ExtractContainerResourceValue) for the common cpu and memory resources. */
function resourceFieldValue(ref: Json, container: Container): string {
	const resource = String(ref.resource ?? '');
	const divisorText = typeof ref.divisor === 'string' || typeof ref.divisor === 'number' ? String(ref.divisor) : '';
	const divisor = quantity(divisorText || '1');
	const [kind, name] = resource.split('.');
	const list = kind === 'limits' ? container.resources?.limits : kind === 'requests' ? container.resources?.requests : undefined;
	if (!list || (name !== 'cpu' && name !== 'memory' && name !== 'ephemeral-storage')) return '';
	const q = quantity(list[name]);
	if (name === 'cpu') return String(Math.ceil(q.milliValue() / (divisor.milliValue() || 1)));
	return String(Math.ceil(q.value() / (divisor.value() || 1)));
}

/** describeContainerEnvVars: plain values (continuation lines indented), field and resource refs, secret and config map keys. */
function describeEnvVars(container: Container, resolve: EnvResolver, w: PrefixWriter): void {
	const env = container.env ?? [];
	w.write(LEVEL_2, `Environment:${env.length === 0 ? '\t<none>' : ''}\n`);
	for (const e of env) {
		const from = e.valueFrom as Json | undefined;
		if (!from) {
			(e.value ?? '').split('\n').forEach((line, i) => w.write(LEVEL_3, i === 0 ? `${e.name}:\t${line}\n` : `\t${line}\n`));
			continue;
		}
		const fieldRef = from.fieldRef as Json | undefined;
		const resourceFieldRef = from.resourceFieldRef as Json | undefined;
		const secretKeyRef = from.secretKeyRef as Json | undefined;
		const configMapKeyRef = from.configMapKeyRef as Json | undefined;
		if (fieldRef) {
			const value = resolve ? resolve(e) : '';
			w.write(LEVEL_3, `${e.name}:\t${value} (${String(fieldRef.apiVersion ?? '')}:${String(fieldRef.fieldPath ?? '')})\n`);
		} else if (resourceFieldRef) {
			let value = resourceFieldValue(resourceFieldRef, container);
			const resource = String(resourceFieldRef.resource ?? '');
			if (value === '0' && (resource === 'limits.cpu' || resource === 'limits.memory')) value = 'node allocatable';
			w.write(LEVEL_3, `${e.name}:\t${value} (${resource})\n`);
		} else if (secretKeyRef) {
			w.write(LEVEL_3, `${e.name}:\t<set to the key '${String(secretKeyRef.key ?? '')}' in secret '${String(secretKeyRef.name ?? '')}'>\tOptional: ${secretKeyRef.optional === true}\n`);
		} else if (configMapKeyRef) {
			w.write(LEVEL_3, `${e.name}:\t<set to the key '${String(configMapKeyRef.key ?? '')}' of config map '${String(configMapKeyRef.name ?? '')}'>\tOptional: ${configMapKeyRef.optional === true}\n`);
		}
	}
}

/** describeContainerEnvFrom. */
function describeEnvFrom(container: Container, w: PrefixWriter): void {
	const envFrom = container.envFrom ?? [];
	w.write(LEVEL_2, `Environment Variables from:${envFrom.length === 0 ? '\t<none>' : ''}\n`);
	for (const e of envFrom) {
		const cm = e.configMapRef as Json | undefined;
		const secret = e.secretRef as Json | undefined;
		const from = cm ? 'ConfigMap' : secret ? 'Secret' : '';
		const ref = cm ?? secret ?? {};
		const optional = ref.optional === true;
		const prefix = typeof e.prefix === 'string' ? e.prefix : '';
		w.write(LEVEL_3, prefix ? `${String(ref.name ?? '')}\t${from} with prefix '${prefix}'\tOptional: ${optional}\n` : `${String(ref.name ?? '')}\t${from}\tOptional: ${optional}\n`);
	}
}

/** describeContainerPorts / describeContainerHostPorts: `80/TCP (http)`, comma-joined. */
function portList(container: Container, host: boolean): string {
	return (container.ports ?? []).map((p) => `${host ? (p.hostPort ?? 0) : p.containerPort}/${p.protocol ?? ''}${p.name ? ` (${p.name})` : ''}`).join(', ');
}

/** describeContainers: the label line, then each container's details. */
export function describeContainers(label: string, containers: readonly Container[], statuses: readonly ContainerStatus[] | undefined, resolve: EnvResolver, w: PrefixWriter, space: string): void {
	const byName = new Map((statuses ?? []).map((s) => [s.name, s]));
	w.write(LEVEL_0, `${space}${label}:${containers.length === 0 ? ' <none>' : ''}\n`);
	for (const container of containers) {
		const status = byName.get(container.name);
		w.write(LEVEL_1, `${space ? ' ' : ''}${container.name}:\n`);
		if (status) w.write(LEVEL_2, `Container ID:\t${status.containerID ?? ''}\n`);
		w.write(LEVEL_2, `Image:\t${container.image ?? ''}\n`);
		if (status) w.write(LEVEL_2, `Image ID:\t${status.imageID ?? ''}\n`);
		const ports = portList(container, false);
		w.write(LEVEL_2, ports.includes(',') ? `Ports:\t${ports}\n` : `Port:\t${stringOrNone(ports)}\n`);
		const hostPorts = portList(container, true);
		w.write(LEVEL_2, hostPorts.includes(',') ? `Host Ports:\t${hostPorts}\n` : `Host Port:\t${stringOrNone(hostPorts)}\n`);
		const seccomp = (container.securityContext as Json | undefined)?.seccompProfile as Json | undefined;
		if (seccomp) {
			w.write(LEVEL_2, `SeccompProfile:\t${String(seccomp.type ?? '')}\n`);
			if (seccomp.type === 'Localhost') w.write(LEVEL_3, `LocalhostProfile:\t${String(seccomp.localhostProfile ?? '')}\n`);
		}
		if (container.command?.length) {
			w.write(LEVEL_2, 'Command:\n');
			for (const c of container.command) for (const line of c.split('\n')) w.write(LEVEL_3, `${line}\n`);
		}
		if (container.args?.length) {
			w.write(LEVEL_2, 'Args:\n');
			for (const a of container.args) for (const line of a.split('\n')) w.write(LEVEL_3, `${line}\n`);
		}
		if (status) {
			describeStatus('State', status.state, w);
			if (status.lastState?.terminated) describeStatus('Last State', status.lastState, w);
			w.write(LEVEL_2, `Ready:\t${printBool(status.ready)}\n`);
			w.write(LEVEL_2, `Restart Count:\t${status.restartCount ?? 0}\n`);
		}
		describeResources(container.resources ?? {}, w, LEVEL_2);
		if (container.livenessProbe) w.write(LEVEL_2, `Liveness:\t${describeProbe(container.livenessProbe)}\n`);
		if (container.readinessProbe) w.write(LEVEL_2, `Readiness:\t${describeProbe(container.readinessProbe)}\n`);
		if (container.startupProbe) w.write(LEVEL_2, `Startup:\t${describeProbe(container.startupProbe)}\n`);
		if (container.envFrom?.length) describeEnvFrom(container, w);
		describeEnvVars(container, resolve, w);
		const mounts = sortedBy(container.volumeMounts ?? [], (m) => m.mountPath);
		w.write(LEVEL_2, `Mounts:${mounts.length === 0 ? '\t<none>' : ''}\n`);
		for (const m of mounts) {
			const flags = [m.readOnly ? 'ro' : 'rw'];
			if (m.subPath) flags.push(`path=${JSON.stringify(m.subPath)}`);
			w.write(LEVEL_3, `${m.mountPath} from ${m.name} (${flags.join(',')})\n`);
		}
	}
}

/** EnvValueRetriever for the fieldRef paths a pod's downward API allows. */
export function envResolver(pod: Pod): EnvResolver {
	return (e) => {
		const path = String(((e.valueFrom as Json | undefined)?.fieldRef as Json | undefined)?.fieldPath ?? '');
		const m = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
		if (m) return (m[1] === 'labels' ? pod.metadata.labels : pod.metadata.annotations)?.[m[2]] ?? '';
		switch (path) {
			case 'metadata.name':
				return pod.metadata.name ?? '';
			case 'metadata.namespace':
				return pod.metadata.namespace ?? '';
			case 'metadata.uid':
				return pod.metadata.uid ?? '';
			case 'spec.nodeName':
				return pod.spec?.nodeName ?? '';
			case 'spec.serviceAccountName':
				return pod.spec?.serviceAccountName ?? '';
			case 'status.hostIP':
				return pod.status?.hostIP ?? '';
			case 'status.podIP':
				return pod.status?.podIP ?? '';
			case 'status.podIPs':
				return (pod.status?.podIPs ?? []).map((p) => p.ip).join(',');
		}
		return '';
	};
}

/** The body of one volume (describeVolumes' switch), for the sources the simulation meets. */
function describeVolumeSource(volume: Volume, w: PrefixWriter): void {
	const v = volume as Json;
	const hostPath = v.hostPath as Json | undefined;
	const emptyDir = v.emptyDir as Json | undefined;
	const secret = v.secret as Json | undefined;
	const configMap = v.configMap as Json | undefined;
	const pvc = v.persistentVolumeClaim as Json | undefined;
	const downwardAPI = v.downwardAPI as Json | undefined;
	const projected = v.projected as Json | undefined;
	const nfs = v.nfs as Json | undefined;
	if (hostPath) {
		w.write(LEVEL_2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${String(hostPath.path ?? '')}\n    HostPathType:\t${String(hostPath.type ?? '') || '<none>'}\n`);
	} else if (emptyDir) {
		const size = typeof emptyDir.sizeLimit === 'string' || typeof emptyDir.sizeLimit === 'number' ? quantity(emptyDir.sizeLimit) : undefined;
		const sizeLimit = size && size.sign() > 0 ? size.toString() : '<unset>';
		w.write(LEVEL_2, `Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)\n    Medium:\t${String(emptyDir.medium ?? '')}\n    SizeLimit:\t${sizeLimit}\n`);
	} else if (secret) {
		w.write(LEVEL_2, `Type:\tSecret (a volume populated by a Secret)\n    SecretName:\t${String(secret.secretName ?? '')}\n    Optional:\t${secret.optional === true}\n`);
	} else if (configMap) {
		w.write(LEVEL_2, `Type:\tConfigMap (a volume populated by a ConfigMap)\n    Name:\t${String(configMap.name ?? '')}\n    Optional:\t${configMap.optional === true}\n`);
	} else if (nfs) {
		w.write(LEVEL_2, `Type:\tNFS (an NFS mount that lasts the lifetime of a pod)\n    Server:\t${String(nfs.server ?? '')}\n    Path:\t${String(nfs.path ?? '')}\n    ReadOnly:\t${nfs.readOnly === true}\n`);
	} else if (pvc) {
		w.write(LEVEL_2, `Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)\n    ClaimName:\t${String(pvc.claimName ?? '')}\n    ReadOnly:\t${pvc.readOnly === true}\n`);
	} else if (downwardAPI) {
		w.write(LEVEL_2, 'Type:\tDownwardAPI (a volume populated by information about the pod)\n    Items:\n');
		for (const item of (downwardAPI.items as Json[] | undefined) ?? []) {
			const fieldRef = item.fieldRef as Json | undefined;
			const resourceFieldRef = item.resourceFieldRef as Json | undefined;
			if (fieldRef) w.write(LEVEL_3, `${String(fieldRef.fieldPath ?? '')} -> ${String(item.path ?? '')}\n`);
			if (resourceFieldRef) w.write(LEVEL_3, `${String(resourceFieldRef.resource ?? '')} -> ${String(item.path ?? '')}\n`);
		}
	} else if (projected) {
		w.write(LEVEL_2, 'Type:\tProjected (a volume that contains injected data from multiple sources)\n');
		for (const source of (projected.sources as Json[] | undefined) ?? []) {
			const s = source.secret as Json | undefined;
			const cm = source.configMap as Json | undefined;
			const token = source.serviceAccountToken as Json | undefined;
			if (s) w.write(LEVEL_2, `SecretName:\t${String(s.name ?? '')}\n    Optional:\t${s.optional === true}\n`);
			else if (source.downwardAPI) w.write(LEVEL_2, 'DownwardAPI:\ttrue\n');
			else if (cm) w.write(LEVEL_2, `ConfigMapName:\t${String(cm.name ?? '')}\n    Optional:\t${cm.optional === true}\n`);
			else if (token) w.write(LEVEL_2, `TokenExpirationSeconds:\t${String(token.expirationSeconds ?? 0)}\n`);
		}
	} else w.write(LEVEL_1, '<unknown>\n');
}

/** describeVolumes: `Volumes:  <none>`, or each volume with its source. */
export function describeVolumes(volumes: readonly Volume[] | undefined, w: PrefixWriter, space: string): void {
	if (!volumes?.length) {
		w.write(LEVEL_0, `${space}Volumes:\t<none>\n`);
		return;
	}
	w.write(LEVEL_0, `${space}Volumes:\n`);
	for (const volume of volumes) {
		w.write(LEVEL_1, `${space ? ' ' : ''}${volume.name}:\n`);
		describeVolumeSource(volume, w);
	}
}

/** describeTopologySpreadConstraints: `zone:DoNotSchedule when max skew 1 is exceeded for selector app=web`, sorted by topology key. */
export function describeTopologySpreadConstraints(constraints: readonly Json[] | undefined, w: PrefixWriter, space: string): void {
	if (!constraints?.length) return;
	const sorted = sortedBy(constraints, (c) => String(c.topologyKey ?? ''));
	w.write(LEVEL_0, `${space}Topology Spread Constraints:\t`);
	sorted.forEach((c, i) => {
		if (i !== 0) w.write(LEVEL_0, `${space}\t`);
		let text = `${String(c.topologyKey ?? '')}:${String(c.whenUnsatisfiable ?? '')} when max skew ${String(c.maxSkew ?? 0)} is exceeded`;
		if (c.labelSelector) text += ` for selector ${formatLabelSelector(c.labelSelector as Parameters<typeof formatLabelSelector>[0])}`;
		w.write(LEVEL_0, `${text}\n`);
	});
}

/** DescribePodTemplate: the template's labels, annotations, service account, containers, volumes, placement. */
export function describePodTemplate(template: PodTemplateSpec | undefined, w: PrefixWriter): void {
	w.write(LEVEL_0, 'Pod Template:\n');
	if (!template) {
		w.write(LEVEL_1, '<unset>');
		return;
	}
	const spec = template.spec ?? { containers: [] };
	printLabelsMultiline(w, '  Labels', template.metadata?.labels);
	if (Object.keys(template.metadata?.annotations ?? {}).length > 0) printAnnotationsMultiline(w, '  Annotations', template.metadata?.annotations);
	if (spec.serviceAccountName) w.write(LEVEL_1, `Service Account:\t${spec.serviceAccountName}\n`);
	if (spec.initContainers?.length) describeContainers('Init Containers', spec.initContainers, undefined, undefined, w, '  ');
	describeContainers('Containers', spec.containers ?? [], undefined, undefined, w, '  ');
	describeVolumes(spec.volumes, w, '  ');
	describeTopologySpreadConstraints(spec.topologySpreadConstraints, w, '  ');
	if (spec.priorityClassName) w.write(LEVEL_1, `Priority Class Name:\t${spec.priorityClassName}\n`);
	printLabelsMultiline(w, '  Node-Selectors', spec.nodeSelector);
	printTolerationsMultiline(w, '  Tolerations', spec.tolerations);
}
