/**
 * The two systemd units of a kubeadm node that the simulation runs:
 * kubelet.service (the pkgs.k8s.io `kubelet` package, with kubeadm's
 * drop-in) and containerd.service (containerd's own unit as the
 * distribution package installs it). Their unit files live on the node's
 * file system, where `systemctl cat` reads them and where the command line
 * of the main process is assembled from, as systemd assembles ExecStart=
 * from the unit, its drop-ins and their Environment= and EnvironmentFile=
 * lines.
 *
 * Unit file texts: kubernetes/release cmd/krel/templates/latest/kubelet
 * (kubelet.service) and .../kubeadm/10-kubeadm.conf; containerd v2.2
 * containerd.service, with the /usr/bin path the packages use.
 *
 * Mirrors kubernetes/release
 * cmd/krel/templates/latest/kubelet/kubelet.service, kubernetes/release
 * cmd/krel/templates/latest/kubeadm/10-kubeadm.conf, containerd/containerd
 * containerd.service.
 */
import type { MemoryFs } from '../fs.ts';

export type NodeService = 'kubelet' | 'containerd';

/** What systemctl knows about a unit besides its runtime state. */
export interface UnitFacts {
	service: NodeService;
	/** `kubelet.service`. */
	name: string;
	description: string;
	/** The unit file (the FragmentPath). */
	path: string;
	/** Drop-in directory and files, if any. */
	dropInDir?: string;
	dropIns: string[];
	docs: string;
	/** The process name systemctl shows after the main PID (the comm). */
	comm: string;
	/** An ExecStartPre= line (containerd loads the overlay module first). */
	execStartPre?: string;
	/** TasksMax: kubelet runs with systemd's default (15% of the kernel's thread limit), containerd sets infinity. */
	tasksLimit?: number;
}

/**
 * systemd's DefaultTasksMax is 15% of the kernel's thread limit; on the
 * 4 GiB Ubuntu 24.04 VMs the cluster models that shows as `limit: 4557`
 * (threads-max is about 30,380 there).
 */
const DEFAULT_TASKS_LIMIT = 4557;

export const UNITS: Record<NodeService, UnitFacts> = {
	kubelet: {
		service: 'kubelet',
		name: 'kubelet.service',
		description: 'kubelet: The Kubernetes Node Agent',
		path: '/usr/lib/systemd/system/kubelet.service',
		dropInDir: '/usr/lib/systemd/system/kubelet.service.d',
		dropIns: ['/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf'],
		docs: 'https://kubernetes.io/docs/',
		comm: 'kubelet',
		tasksLimit: DEFAULT_TASKS_LIMIT,
	},
	containerd: {
		service: 'containerd',
		name: 'containerd.service',
		description: 'containerd container runtime',
		path: '/usr/lib/systemd/system/containerd.service',
		dropIns: [],
		docs: 'https://containerd.io',
		comm: 'containerd',
		execStartPre: '/sbin/modprobe overlay',
	},
};

/** The unit a name refers to (`kubelet`, `kubelet.service`), if the node has it. */
export function unitByName(name: string): UnitFacts | undefined {
	const full = name.includes('.') ? name : `${name}.service`;
	return Object.values(UNITS).find((u) => u.name === full);
}

/** systemd's unit name mangling for a name that is not a unit: `foo` → `foo.service`. */
export function mangle(name: string): string {
	return name.includes('.') ? name : `${name}.service`;
}

const KUBELET_SERVICE_FILE = `[Unit]
Description=kubelet: The Kubernetes Node Agent
Documentation=https://kubernetes.io/docs/
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
StartLimitInterval=0
RestartSec=10

[Install]
WantedBy=multi-user.target
`;

const KUBEADM_DROP_IN_FILE = `# Note: This dropin only works with kubeadm and kubelet v1.11+
[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
# This is a file that "kubeadm init" and "kubeadm join" generates at runtime, populating the KUBELET_KUBEADM_ARGS variable dynamically
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
# This is a file that the user can use for overrides of the kubelet args as a last resort. Preferably, the user should use
# the .NodeRegistration.KubeletExtraArgs object in the configuration files instead. KUBELET_EXTRA_ARGS should be sourced from this file.
EnvironmentFile=-/etc/default/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
`;

const CONTAINERD_SERVICE_FILE = `# Copyright The containerd Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

[Unit]
Description=containerd container runtime
Documentation=https://containerd.io
After=network.target dbus.service

[Service]
ExecStartPre=-/sbin/modprobe overlay
ExecStart=/usr/bin/containerd

Type=notify
Delegate=yes
KillMode=process
Restart=always
RestartSec=5

# Having non-zero Limit*s causes performance problems due to accounting overhead
# in the kernel. We recommend using cgroups to do container-local accounting.
LimitNPROC=infinity
LimitCORE=infinity

# Comment TasksMax if your systemd version does not supports it.
# Only systemd 226 and above support this version.
TasksMax=infinity
OOMScoreAdjust=-999

[Install]
WantedBy=multi-user.target
`;

/** Where `systemctl enable` puts a unit's WantedBy=multi-user.target link. */
export function wantsLink(unit: UnitFacts): string {
	return `/etc/systemd/system/multi-user.target.wants/${unit.name}`;
}

/** The unit files, drop-ins and enablement links a kubeadm node has, by path (for the cluster wiring to write). */
export function systemdNodeFiles(): Record<string, string> {
	return {
		[UNITS.kubelet.path]: KUBELET_SERVICE_FILE,
		[UNITS.kubelet.dropIns[0]]: KUBEADM_DROP_IN_FILE,
		[UNITS.containerd.path]: CONTAINERD_SERVICE_FILE,
		// Enabled units: the package scripts run `systemctl enable`, which links them here.
		[wantsLink(UNITS.kubelet)]: KUBELET_SERVICE_FILE,
		[wantsLink(UNITS.containerd)]: CONTAINERD_SERVICE_FILE,
	};
}

function readIfFile(fs: MemoryFs, path: string): string | undefined {
	return fs.exists(path) && !fs.isDir(path) ? fs.readFile(path) : undefined;
}

/** The unit's file texts in the order systemd reads them (the unit, then its drop-ins), as `systemctl cat` prints them. */
export function unitFiles(fs: MemoryFs, unit: UnitFacts): Array<{ path: string; text: string }> {
	const out: Array<{ path: string; text: string }> = [];
	const main = readIfFile(fs, unit.path) ?? (unit.service === 'kubelet' ? KUBELET_SERVICE_FILE : CONTAINERD_SERVICE_FILE);
	out.push({ path: unit.path, text: main });
	const dir = unit.dropInDir;
	if (dir && fs.isDir(dir))
		for (const name of fs
			.list(dir)
			.filter((n) => n.endsWith('.conf'))
			.sort()) {
			const text = readIfFile(fs, `${dir}/${name}`);
			if (text !== undefined) out.push({ path: `${dir}/${name}`, text });
		}
	return out;
}

/** Drop-in files of the unit present on disk (names, sorted). */
export function dropInNames(fs: MemoryFs, unit: UnitFacts): string[] {
	return unitFiles(fs, unit)
		.slice(1)
		.map((f) => f.path.slice(f.path.lastIndexOf('/') + 1));
}

/** systemd's unquoting of an Environment= assignment list: `"A=b c" D=e`. */
function environmentAssignments(value: string): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
	for (const m of value.matchAll(re)) {
		const word = m[1] ?? m[2] ?? m[3] ?? '';
		const eq = word.indexOf('=');
		if (eq > 0) out.push([word.slice(0, eq), word.slice(eq + 1)]);
	}
	return out;
}

/** An EnvironmentFile's assignments (shell-like `KEY="value"` lines, comments skipped). */
function environmentFile(text: string): Array<[string, string]> {
	const out: Array<[string, string]> = [];
	for (const raw of text.split('\n')) {
		const line = raw.trim();
		if (!line || line.startsWith('#') || line.startsWith(';')) continue;
		const eq = line.indexOf('=');
		if (eq <= 0) continue;
		let value = line.slice(eq + 1).trim();
		if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) value = value.slice(1, -1);
		out.push([line.slice(0, eq).trim(), value]);
	}
	return out;
}

/**
 * The unit's effective ExecStart= (the last non-empty one after an empty
 * reset) and its command line once `$VAR` words are expanded: a `$VAR`
 * alone splits into words, unset variables vanish.
 */
export function execStart(fs: MemoryFs, unit: UnitFacts): { raw: string; argv: string[] } {
	const env = new Map<string, string>();
	let raw = '';
	for (const file of unitFiles(fs, unit)) {
		let section = '';
		for (const rawLine of file.text.split('\n')) {
			const line = rawLine.trim();
			if (line.startsWith('[')) {
				section = line;
				continue;
			}
			if (section !== '[Service]' || line.startsWith('#') || !line.includes('=')) continue;
			const eq = line.indexOf('=');
			const key = line.slice(0, eq);
			const value = line.slice(eq + 1);
			if (key === 'ExecStart') raw = value;
			else if (key === 'Environment') for (const [k, v] of environmentAssignments(value)) env.set(k, v);
			else if (key === 'EnvironmentFile') {
				const path = value.replace(/^-/, '');
				const text = readIfFile(fs, path);
				if (text !== undefined) for (const [k, v] of environmentFile(text)) env.set(k, v);
			}
		}
	}
	const argv: string[] = [];
	for (const word of raw.replace(/^[-@:+!]+/, '').split(/\s+/).filter(Boolean)) {
		const whole = /^\$(\w+)$/.exec(word) ?? /^\$\{(\w+)\}$/.exec(word);
		if (whole) argv.push(...(env.get(whole[1]) ?? '').split(/\s+/).filter(Boolean));
		else argv.push(word.replace(/\$\{(\w+)\}/g, (_, k: string) => env.get(k) ?? ''));
	}
	return { raw: raw.replace(/^[-@:+!]+/, ''), argv };
}
