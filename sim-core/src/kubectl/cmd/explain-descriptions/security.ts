/**
 * What `kubectl explain` says about pod and container security settings
 * (PodSecurityContext, SecurityContext's fields, capabilities, SELinux,
 * seccomp, AppArmor, Windows options, sysctls), in this project's own
 * words; merged by ../explain-descriptions.ts.
 *
 * SecurityContext itself and its `privileged` field are left without a
 * description: a test pins what explain prints for them when there is none.
 *
 * Mirrors nothing upstream: the simulator's own descriptions.
 */

/** Type descriptions, by schema type key. */
export const SECURITY_TYPES: Readonly<Record<string, string>> = {
	PodSecurityContext: 'Security settings for a whole pod. Several of them also exist per container, where the container\'s value wins.',
	Capabilities: 'Linux capabilities to add to or drop from the runtime\'s default set.',
	SELinuxOptions: 'An SELinux label (user, role, type, level) to apply.',
	SeccompProfile: 'Which seccomp profile filters the system calls of the containers.',
	AppArmorProfile: 'Which AppArmor profile confines the containers.',
	WindowsSecurityContextOptions: 'Security settings for Windows containers.',
	Sysctl: 'One namespaced kernel parameter to set for the pod.',
};

const OVERRIDES = 'A container\'s own securityContext overrides it.';

/** Field descriptions, by `TypeKey.field`. */
export const SECURITY_FIELDS: Readonly<Record<string, string>> = {
	'SecurityContext.allowPrivilegeEscalation': 'Whether a process may gain more privileges than its parent (the no_new_privs flag is set when false). Always true for a privileged container or one with CAP_SYS_ADMIN.',
	'SecurityContext.appArmorProfile': 'The AppArmor profile of the container, overriding the pod\'s.',
	'SecurityContext.capabilities': 'Linux capabilities to add or drop. Defaults to the runtime\'s default set.',
	'SecurityContext.procMount': 'How /proc is mounted: Default (the runtime masks and makes read-only some paths) or Unmasked (requires hostUsers false).',
	'SecurityContext.readOnlyRootFilesystem': 'Whether the container\'s root file system is read-only. Defaults to false.',
	'SecurityContext.runAsGroup': 'The group ID the container\'s process runs as. Defaults to the runtime\'s choice; overrides the pod\'s.',
	'SecurityContext.runAsNonRoot': 'When true, the kubelet refuses to start the container if it would run as user 0 (root). Overrides the pod\'s.',
	'SecurityContext.runAsUser': 'The user ID the container\'s process runs as. Defaults to the image\'s user; overrides the pod\'s.',
	'SecurityContext.seLinuxOptions': 'The SELinux label of the container, overriding the pod\'s. Unset lets the runtime pick one.',
	'SecurityContext.seccompProfile': 'The seccomp profile of the container, overriding the pod\'s.',
	'SecurityContext.windowsOptions': 'Windows settings of the container, overriding the pod\'s.',
	'PodSecurityContext.runAsUser': `The user ID the containers' processes run as. Defaults to each image's user. ${OVERRIDES}`,
	'PodSecurityContext.runAsGroup': `The group ID the containers' processes run as. Defaults to the runtime's choice. ${OVERRIDES}`,
	'PodSecurityContext.runAsNonRoot': `When true, the kubelet refuses to start any container that would run as user 0 (root). ${OVERRIDES}`,
	'PodSecurityContext.fsGroup': 'A group added to every container\'s processes. Volumes that support it are made group-owned by it (and group-writable), and new files in them get this group.',
	'PodSecurityContext.fsGroupChangePolicy': 'When the kubelet changes a volume\'s ownership to fsGroup: Always (at every mount, the default) or OnRootMismatch (only when the volume\'s root does not match already).',
	'PodSecurityContext.supplementalGroups': 'More group IDs for the first process of every container, besides its primary group and fsGroup.',
	'PodSecurityContext.supplementalGroupsPolicy': 'Merge (also keep the groups the image defines for the user, the default) or Strict (only the groups given here, fsGroup and runAsGroup).',
	'PodSecurityContext.seLinuxOptions': `The SELinux label of every container. Unset lets the runtime pick one. ${OVERRIDES}`,
	'PodSecurityContext.seLinuxChangePolicy': 'How volumes get the pod\'s SELinux label: MountOption (a mount option, fast, but pods sharing a volume must have the same label) or Recursive (relabel every file).',
	'PodSecurityContext.seccompProfile': `The seccomp profile of every container. ${OVERRIDES}`,
	'PodSecurityContext.appArmorProfile': `The AppArmor profile of every container. ${OVERRIDES}`,
	'PodSecurityContext.sysctls': 'Namespaced kernel parameters to set for the pod. A pod with one the runtime does not allow may fail to start.',
	'PodSecurityContext.windowsOptions': `Windows settings of every container. ${OVERRIDES}`,
	'Capabilities.add': 'Capabilities to add, by name without the CAP_ prefix (e.g. NET_ADMIN).',
	'Capabilities.drop': 'Capabilities to remove, by name without the CAP_ prefix; ALL drops every one.',
	'SELinuxOptions.user': 'The SELinux user of the label.',
	'SELinuxOptions.role': 'The SELinux role of the label.',
	'SELinuxOptions.type': 'The SELinux type of the label.',
	'SELinuxOptions.level': 'The SELinux level (sensitivity and categories) of the label.',
	'SeccompProfile.type': 'RuntimeDefault (the runtime\'s profile), Unconfined (no filtering) or Localhost (a profile file on the node).',
	'SeccompProfile.localhostProfile': 'With type Localhost, the profile file\'s path relative to the kubelet\'s seccomp directory. Only for Localhost.',
	'AppArmorProfile.type': 'RuntimeDefault (the runtime\'s profile), Unconfined (no confinement) or Localhost (a profile loaded on the node).',
	'AppArmorProfile.localhostProfile': 'With type Localhost, the name of the loaded profile. Only for Localhost.',
	'WindowsSecurityContextOptions.gmsaCredentialSpecName': 'The name of the GMSA credential spec to use.',
	'WindowsSecurityContextOptions.gmsaCredentialSpec': 'The content of that GMSA credential spec, filled in by the GMSA webhook.',
	'WindowsSecurityContextOptions.runAsUserName': 'The Windows user the container\'s process runs as. Defaults to the image\'s user.',
	'WindowsSecurityContextOptions.hostProcess': 'Whether the container runs as a host process on the node. Needs hostNetwork, and every container of the pod must have the same value.',
	'Sysctl.name': 'The kernel parameter, e.g. net.ipv4.ip_local_port_range.',
	'Sysctl.value': 'The value to set.',
};
