/**
 * `kubectl debug --profile`: what each profile changes in the Pod kubectl
 * is about to create or patch, for each of the three ways of debugging (an
 * ephemeral container in the Pod itself, a copy of the Pod, a Pod on a
 * node). `general` is the default since v1.36 (`legacy` still works, with
 * a deprecation warning, until v1.39):
 *
 * | profile | node | copy | ephemeral |
 * |---|---|---|---|
 * | legacy | host namespaces, `/` at /host | labels dropped | nothing |
 * | general | host namespaces, `/` at /host, no securityContext | stripped (1), SYS_PTRACE, shared process namespace | SYS_PTRACE |
 * | baseline | no securityContext | no securityContext, stripped, shared | no securityContext |
 * | restricted | non-root, capabilities ALL dropped, no privilege escalation, RuntimeDefault seccomp | the same, stripped, shared | the same |
 * | netadmin | NET_ADMIN and NET_RAW, host namespaces | the capabilities, stripped, shared | the capabilities |
 * | sysadmin | privileged, host namespaces, `/` at /host | privileged, stripped, shared | privileged |
 *
 * (1) labels, annotations, probes and init containers dropped, each unless
 * its --keep-* flag is set.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/debug/profiles.go.
 */
import type { Container, Pod } from '../../api/types.ts';

/** How the debugging session reaches its target (debugStyle). */
export type DebugStyle = 'ephemeral' | 'podCopy' | 'node';

/** The --keep-* flags: what a copy keeps of the original (KeepFlags). */
export interface KeepFlags {
	labels: boolean;
	annotations: boolean;
	liveness: boolean;
	readiness: boolean;
	startup: boolean;
	initContainers: boolean;
}

/** The profiles, in the order the flag's help names them (plus legacy). */
export const PROFILES = ['legacy', 'general', 'baseline', 'restricted', 'netadmin', 'sysadmin'] as const;
export type ProfileName = (typeof PROFILES)[number];

/** Applies a profile to the debugging container `name` of `pod` (mutated). */
export type ProfileApplier = (pod: Pod, name: string, style: DebugStyle) => void;

type SecurityContext = {
	privileged?: boolean;
	runAsNonRoot?: boolean;
	allowPrivilegeEscalation?: boolean;
	capabilities?: { add?: string[]; drop?: string[] };
	seccompProfile?: { type: string };
};

/** The container of that name among the pod's containers, init and ephemeral containers (podutils.VisitContainers). */
function containerNamed(pod: Pod, name: string): (Container & { securityContext?: SecurityContext }) | undefined {
	return [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])].find((c) => c.name === name);
}

/** The security context of the container, created when it has none. */
function securityContext(pod: Pod, name: string): SecurityContext | undefined {
	const c = containerNamed(pod, name);
	if (!c) return undefined;
	c.securityContext ??= {};
	return c.securityContext;
}

function addCapability(pod: Pod, name: string, capability: string): void {
	const sc = securityContext(pod, name);
	if (!sc) return;
	sc.capabilities ??= {};
	sc.capabilities.add = [...(sc.capabilities.add ?? []), capability];
}

/** mountRootPartition: the node's `/` as the volume host-root, mounted at /host (regular containers only, as upstream). */
function mountRootPartition(pod: Pod, name: string): void {
	pod.spec.volumes = [...(pod.spec.volumes ?? []), { name: 'host-root', hostPath: { path: '/' } }];
	const c = pod.spec.containers.find((x) => x.name === name);
	if (c) c.volumeMounts = [...(c.volumeMounts ?? []), { mountPath: '/host', name: 'host-root' }];
}

function useHostNamespaces(pod: Pod): void {
	Object.assign(pod.spec, { hostNetwork: true, hostPID: true, hostIPC: true });
}

function shareProcessNamespace(pod: Pod): void {
	const spec = pod.spec as { shareProcessNamespace?: boolean };
	if (spec.shareProcessNamespace === undefined) spec.shareProcessNamespace = true;
}

function clearSecurityContext(pod: Pod, name: string): void {
	const c = containerNamed(pod, name);
	if (c) delete c.securityContext;
}

/** What every profile but legacy strips from a copy, unless a --keep-* flag says otherwise. */
function stripCopy(pod: Pod, keep: KeepFlags): void {
	if (!keep.labels) delete pod.metadata.labels;
	if (!keep.annotations) delete pod.metadata.annotations;
	for (const c of pod.spec.containers) {
		if (!keep.liveness) delete c.livenessProbe;
		if (!keep.readiness) delete c.readinessProbe;
		if (!keep.startup) delete c.startupProbe;
	}
	if (!keep.initContainers) delete pod.spec.initContainers;
}

function restrict(pod: Pod, name: string): void {
	clearSecurityContext(pod, name);
	const sc = securityContext(pod, name);
	if (!sc) return;
	sc.runAsNonRoot = true;
	sc.capabilities = { drop: ['ALL'] };
	sc.allowPrivilegeEscalation = false;
	sc.seccompProfile = { type: 'RuntimeDefault' };
}

/** NewProfileApplier: the applier of a profile, or kubectl's error for an unknown one. */
export function profileApplier(profile: string, keep: KeepFlags): ProfileApplier | { error: string } {
	switch (profile) {
		case 'legacy':
			return (pod, name, style) => {
				if (style === 'node') {
					mountRootPartition(pod, name);
					useHostNamespaces(pod);
				} else if (style === 'podCopy') delete pod.metadata.labels;
			};
		case 'general':
			return (pod, name, style) => {
				if (style === 'node') {
					mountRootPartition(pod, name);
					clearSecurityContext(pod, name);
					useHostNamespaces(pod);
				} else if (style === 'podCopy') {
					stripCopy(pod, keep);
					addCapability(pod, name, 'SYS_PTRACE');
					shareProcessNamespace(pod);
				} else addCapability(pod, name, 'SYS_PTRACE');
			};
		case 'baseline':
			return (pod, name, style) => {
				clearSecurityContext(pod, name);
				if (style === 'podCopy') {
					stripCopy(pod, keep);
					shareProcessNamespace(pod);
				}
			};
		case 'restricted':
			return (pod, name, style) => {
				restrict(pod, name);
				if (style === 'podCopy') {
					stripCopy(pod, keep);
					shareProcessNamespace(pod);
				}
			};
		case 'netadmin':
			return (pod, name, style) => {
				addCapability(pod, name, 'NET_ADMIN');
				addCapability(pod, name, 'NET_RAW');
				if (style === 'node') useHostNamespaces(pod);
				else if (style === 'podCopy') {
					stripCopy(pod, keep);
					shareProcessNamespace(pod);
				}
			};
		case 'sysadmin':
			return (pod, name, style) => {
				const sc = securityContext(pod, name);
				if (sc) sc.privileged = true;
				if (style === 'node') {
					useHostNamespaces(pod);
					mountRootPartition(pod, name);
				} else if (style === 'podCopy') {
					stripCopy(pod, keep);
					shareProcessNamespace(pod);
				}
			};
	}
	return { error: `unknown profile: ${profile}` };
}
