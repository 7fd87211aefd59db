/**
 * containerd's CNI side, read from the node's files as containerd reads
 * them:
 * - the network config: the first file of /etc/cni/net.d (by name; `.conf`,
 *   `.conflist`, `.json`) that parses as a network (max_conf_num 1).
 *   containerd watches the directory and reloads on every change, so the
 *   config is read when it is needed. Without one, go-cni is not
 *   initialized: CRI Status says NetworkReady=false (`Network plugin
 *   returns error: cni plugin not initialized`) and a sandbox's network set-up
 *   fails with the same error;
 * - the ADD of a sandbox: the loopback network first, then each plugin of
 *   the list in order. Each plugin's binary is looked up in the bin dirs
 *   (`failed to find plugin "flannel" in path [/opt/cni/bin]`), and a
 *   failing plugin is named by libcni (`plugin type="flannel" failed (add):
 *   ...`). The plugins' own checks are ./cni-plugins.ts.
 *
 * Mirrors containerd/go-cni cni.go (Status, Setup, ready),
 * containerd/go-cni opts.go (loadFromConfDir),
 * containernetworking/cni libcni/api.go (AddNetworkList, pluginDescription),
 * containernetworking/cni pkg/invoke/find.go (FindInPath).
 */
import type { NodeDisk } from '../host/disk.ts';
import { pluginAdd } from './cni-plugins.ts';

/** Where containerd's CRI plugin looks (its defaults, as `crictl info` shows them: conf_dir, bin_dirs). */
export interface CniPaths {
	confDir: string;
	binDirs: string[];
}

export const DEFAULT_CNI_PATHS: CniPaths = { confDir: '/etc/cni/net.d', binDirs: ['/opt/cni/bin'] };

/** go-cni's ErrCNINotInitialized. */
export const CNI_NOT_INITIALIZED = 'cni plugin not initialized';

/** One plugin of a network config list, with its whole JSON object (plugins read their own keys). */
export interface CniPlugin {
	type: string;
	conf: Record<string, unknown>;
}

/** A loaded network config list. */
export interface CniNetwork {
	file: string;
	name: string;
	cniVersion: string;
	plugins: CniPlugin[];
}

/** libcni's ConfFiles extensions. */
const CONF_EXTENSIONS = ['.conf', '.conflist', '.json'];

/** Parses one config file as libcni does: a `.conflist` has `plugins`, a `.conf` is one plugin. */
function parseNetwork(file: string, text: string): CniNetwork | undefined {
	let raw: unknown;
	try {
		raw = JSON.parse(text);
	} catch {
		return undefined;
	}
	if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
	const obj = raw as Record<string, unknown>;
	const name = typeof obj.name === 'string' ? obj.name : '';
	const cniVersion = typeof obj.cniVersion === 'string' ? obj.cniVersion : '';
	const entries = file.endsWith('.conflist') ? obj.plugins : [obj];
	if (!Array.isArray(entries) || entries.length === 0) return undefined;
	const plugins: CniPlugin[] = [];
	for (const entry of entries) {
		if (!entry || typeof entry !== 'object' || typeof (entry as { type?: unknown }).type !== 'string') return undefined;
		plugins.push({ type: (entry as { type: string }).type, conf: entry as Record<string, unknown> });
	}
	return { file, name, cniVersion, plugins };
}

/** The network containerd would load now, or undefined (no valid config in the directory). */
export function loadNetwork(disk: NodeDisk, paths: CniPaths = DEFAULT_CNI_PATHS): CniNetwork | undefined {
	const names = disk.readDir(paths.confDir) ?? [];
	for (const name of names) {
		if (!CONF_EXTENSIONS.some((ext) => name.endsWith(ext))) continue;
		const path = `${paths.confDir}/${name}`;
		const text = disk.readFile(path);
		if (text === undefined) continue;
		const network = parseNetwork(path, text);
		if (network) return network;
	}
	return undefined;
}

/** FindInPath: the plugin's binary in one of the bin dirs, or libcni's error. */
export function findPlugin(disk: NodeDisk, type: string, paths: CniPaths = DEFAULT_CNI_PATHS): string | undefined {
	for (const dir of paths.binDirs) if (disk.readFile(`${dir}/${type}`) !== undefined) return undefined;
	return `failed to find plugin "${type}" in path [${paths.binDirs.join(' ')}]`;
}

/** What one sandbox's ADD needs to know about it. */
export interface CniAddRequest {
	podCidr: string;
}

/**
 * The ADD of a new sandbox's network: undefined when it succeeds, or the
 * error containerd wraps into `failed to setup network for sandbox "<id>": ...`.
 */
export function setupNetwork(disk: NodeDisk, request: CniAddRequest, paths: CniPaths = DEFAULT_CNI_PATHS): string | undefined {
	const network = loadNetwork(disk, paths);
	if (!network) return CNI_NOT_INITIALIZED;
	// go-cni's loopback network (cni-loopback) comes first, then the config's list, plugin by plugin.
	const lists: CniPlugin[][] = [[{ type: 'loopback', conf: { type: 'loopback' } }], network.plugins];
	for (const plugins of lists) {
		for (const plugin of plugins) {
			const error = findPlugin(disk, plugin.type, paths) ?? pluginAdd(disk, plugin, request, paths);
			if (error) return `plugin type="${plugin.type}" failed (add): ${error}`;
		}
	}
	return undefined;
}
