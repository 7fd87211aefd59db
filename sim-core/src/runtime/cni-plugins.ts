/**
 * What each CNI plugin checks on the node when containerd runs its ADD,
 * the part that fails when its add-on is not running there:
 * - flannel reads /run/flannel/subnet.env, which the node's flanneld
 *   writes (on tmpfs: gone after a reboot until flanneld runs again), then
 *   delegates to the bridge plugin with host-local IPAM;
 * - calico reads /var/lib/calico/nodename, which calico-node writes, and
 *   asks calico-ipam for the address;
 * - bridge hands the address to its IPAM plugin (host-local);
 * - loopback and portmap need nothing more.
 * Their messages are the plugins' own; libcni adds the `plugin type=...
 * failed (add):` prefix (./cni.ts).
 *
 * Mirrors flannel-io/cni-plugin flannel.go (cmdAdd, loadFlannelSubnetEnv,
 * delegateAdd), projectcalico/calico cni-plugin/pkg/k8s/ (the nodename
 * file), containernetworking/plugins plugins/main/bridge/bridge.go
 * (ipam.ExecAdd).
 */
import type { NodeDisk } from '../host/disk.ts';
import type { CniAddRequest, CniPaths, CniPlugin } from './cni.ts';
import { findPlugin } from './cni.ts';

/** flannel's default SubnetFile (flannel.go defaultSubnetFile). */
export const FLANNEL_SUBNET_FILE = '/run/flannel/subnet.env';
/** Where calico-node leaves its node name for the plugin. */
export const CALICO_NODENAME_FILE = '/var/lib/calico/nodename';

/** The plugin-specific part of one plugin's ADD; undefined when it succeeds. */
export function pluginAdd(disk: NodeDisk, plugin: CniPlugin, _request: CniAddRequest, paths: CniPaths): string | undefined {
	switch (plugin.type) {
		case 'flannel': {
			const subnetFile = typeof plugin.conf.subnetFile === 'string' ? plugin.conf.subnetFile : FLANNEL_SUBNET_FILE;
			if (disk.readFile(subnetFile) === undefined) return `failed to load flannel 'subnet.env' file: open ${subnetFile}: no such file or directory. Check the flannel pod log for this node.`;
			// The delegate: bridge (flannel's default) with host-local IPAM.
			const delegate = (plugin.conf.delegate as { type?: string } | undefined)?.type ?? 'bridge';
			const missing = findPlugin(disk, delegate, paths) ?? (delegate === 'bridge' ? hostLocal(disk, paths) : undefined);
			return missing ? `failed to delegate add: ${missing}` : undefined;
		}
		case 'calico': {
			const nodename = typeof plugin.conf.nodename_file === 'string' ? plugin.conf.nodename_file : CALICO_NODENAME_FILE;
			// Checked before anything else unless the config says nodename_file_optional.
			if (disk.readFile(nodename) === undefined && plugin.conf.nodename_file_optional !== true) return `stat ${nodename}: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/`;
			const ipam = (plugin.conf.ipam as { type?: string } | undefined)?.type;
			return ipam ? findPlugin(disk, ipam, paths) : undefined;
		}
		case 'bridge':
			return hostLocal(disk, paths);
		default:
			return undefined;
	}
}

function hostLocal(disk: NodeDisk, paths: CniPaths): string | undefined {
	return findPlugin(disk, 'host-local', paths);
}
