/**
 * crictl version, info and config.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/version.go,
 * kubernetes-sigs/cri-tools cmd/crictl/info.go, kubernetes-sigs/cri-tools
 * cmd/crictl/config.go, containerd/containerd internal/cri/server/status.go
 * (the conditions and the verbose info map of the Status call).
 */
import type { GoJsonValue } from '../../golang/json.ts';
import type { RuntimeStatusInfo } from '../../cri-api/cri.ts';
import { printStatusData } from './containers.ts';
import { emptyConfig, readConfig, setConfigOption, writeConfig, type CrictlConfig } from './connect.ts';
import { rpcError } from './cri-view.ts';
import { crictlTable } from './format.ts';
import type { Command } from './run.ts';

/** The Go release containerd v2.2.1 was built with (.github/workflows/release/Dockerfile GO_VERSION). */
const CONTAINERD_GO_VERSION = 'go1.24.11';

export const version: Command = {
	spec: { name: 'version', usage: 'Display runtime version information', flags: [] },
	run(r) {
		if (r.args.length) return r.help();
		const rt = r.runtime();
		const v = rt.version();
		if (!v.ok) {
			r.inv.klogError('remote_runtime.go:192', 'Version from runtime service failed', rpcError(v.error));
			return r.inv.fatal(`getting the runtime version: ${rpcError(v.error)}`);
		}
		// fmt.Println("Version: ", v): Println puts a space between its operands, after the label's own.
		r.inv.print(`Version:  ${v.value.version}\nRuntimeName:  ${v.value.runtimeName}\nRuntimeVersion:  ${v.value.runtimeVersion}\nRuntimeApiVersion:  ${v.value.runtimeApiVersion}\n`);
		return 0;
	},
};

/**
 * containerd's CRI configuration as `crictl info` shows it under "config"
 * (the parts a kubeadm node's /etc/containerd/config.toml sets, in
 * containerd 2.x's JSON field names): runc through the v2 shim with the
 * systemd cgroup driver, CNI from /opt/cni/bin and /etc/cni/net.d, and the
 * pinned images the runtime reported in its verbose Status.
 */
function criConfig(reported: RuntimeStatusInfo['config']): { [key: string]: GoJsonValue } {
	return {
		containerd: {
			defaultRuntimeName: 'runc',
			runtimes: {
				runc: { runtimeType: 'io.containerd.runc.v2', runtimePath: '', podAnnotations: null, containerAnnotations: null, options: { SystemdCgroup: true }, privileged_without_host_devices: false, baseRuntimeSpec: '', cniConfDir: '', cniMaxConfNum: 0, snapshotter: '', sandboxer: 'podsandbox', io_type: '' },
			},
			ignoreBlockIONotEnabledErrors: false,
			ignoreRdtNotEnabledErrors: false,
		},
		cni: { binDir: '', binDirs: ['/opt/cni/bin'], confDir: '/etc/cni/net.d', maxConfNum: 1, setupSerially: false, confTemplate: '', ipPref: '', useInternalLoopback: false },
		enableSelinux: false,
		selinuxCategoryRange: 1024,
		maxContainerLogLineSize: 16384,
		disableApparmor: false,
		restrictOOMScoreAdj: false,
		disableProcMount: false,
		unsetSeccompProfile: '',
		tolerateMissingHugetlbController: true,
		disableHugetlbController: true,
		device_ownership_from_security_context: false,
		ignoreImageDefinedVolumes: false,
		netnsMountsUnderStateDir: false,
		enableUnprivilegedPorts: true,
		enableUnprivilegedICMP: true,
		enableCDI: true,
		cdiSpecDirs: ['/etc/cdi', '/var/run/cdi'],
		drainExecSyncIOTimeout: '0s',
		ignoreDeprecationWarnings: null,
		containerdRootDir: '/var/lib/containerd',
		containerdEndpoint: '/run/containerd/containerd.sock',
		rootDir: '/var/lib/containerd/io.containerd.grpc.v1.cri',
		stateDir: '/run/containerd/io.containerd.grpc.v1.cri',
		// containerd 2.x keeps the sandbox image among the pinned images.
		pinnedImages: { sandbox: reported.pinnedImages.sandbox },
	};
}

export const info: Command = {
	spec: {
		name: 'info',
		usage: 'Display information of the container runtime',
		shortOptions: true,
		flags: [
			{ name: 'output', aliases: ['o'], kind: 'string', usage: 'Output format, One of: json|yaml|go-template', value: 'json' },
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Do not show verbose information' },
			{ name: 'template', kind: 'string', usage: 'The template string is only used when output is go-template; The Template format is golang template' },
		],
	},
	run(r) {
		if (r.args.length) return r.help();
		const rt = r.runtime();
		// info.go: Status with verbose unless --quiet.
		const status = rt.status({ verbose: !r.bool('quiet') });
		if (!status.ok) {
			r.inv.klogError('remote_runtime.go:801', 'Status from runtime service failed', rpcError(status.error));
			return r.inv.fatal(`getting status of runtime: ${rpcError(status.error)}`);
		}
		const reported = status.value.info;
		const conditions: GoJsonValue[] = status.value.conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }));
		// status.go appends the deprecation-warnings condition to the two CRI conditions.
		conditions.push({ type: 'ContainerdHasNoDeprecationWarnings', status: true, reason: '', message: '' });
		const handlerFeatures = { recursive_read_only_mounts: true, user_namespaces: true };
		const data: { [key: string]: GoJsonValue } = {
			status: { conditions },
			// Runtime handlers sorted by name: the default one ("") and runc (json.Marshal of the Go structs).
			runtimeHandlers: [
				{ features: handlerFeatures, name: '' },
				{ features: handlerFeatures, name: 'runc' },
			],
			features: { supplemental_groups_policy: true },
		};
		if (reported) {
			const network = status.value.conditions.find((c) => c.type === 'NetworkReady');
			data.config = criConfig(reported.config);
			data.golang = CONTAINERD_GO_VERSION;
			data.cniconfig = { PluginDirs: ['/opt/cni/bin'], PluginConfDir: '/etc/cni/net.d', PluginMaxConfNum: 1, Prefix: 'eth', Networks: null };
			data.lastCNILoadStatus = network?.status === false ? 'cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config' : 'OK';
			data['lastCNILoadStatus.default'] = data.lastCNILoadStatus;
		}
		return printStatusData(r, [data], r.string('output'), 'getting status of runtime');
	},
};

export const config: Command = {
	spec: {
		name: 'config',
		usage: 'Get, set and list crictl configuration options',
		argsUsage:
			'[<crictl options>]\n\nEXAMPLES:\n   # Set the key "debug" to "true"\n   crictl config --set debug=true\n\n   # Set the key "debug" to "true"\n   crictl config debug true\n\n   # Get the value of "debug"\n   crictl config --get debug\n\n   # Show the full configuration\n   crictl config --list\n\nCRICTL OPTIONS:\n\t runtime-endpoint:\tContainer Runtime Interface (CRI) runtime endpoint (default: "")\n\t image-endpoint:\tContainer Runtime Interface (CRI) image endpoint (default: "")\n\t timeout:\tTimeout of connecting to server (default: 2)\n\t debug:\tEnable debug output (default: false)\n\t pull-image-on-create:\tEnable pulling image on create requests (default: false)\n\t disable-pull-on-run:\tDisable pulling image on run requests (default: false)',
		shortOptions: true,
		flags: [
			{ name: 'get', kind: 'string', usage: 'Show the option value' },
			{ name: 'set', kind: 'stringSlice', usage: 'Set option (can specify multiple or separate values with commas: opt1=val1,opt2=val2)' },
			{ name: 'list', kind: 'bool', usage: 'Show all option value' },
		],
	},
	run(r) {
		const fs = r.inv.ctx.host.fs;
		const path = fs.resolve(r.endpoints.configPath);
		const write = (c: CrictlConfig) => {
			fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', true);
			fs.writeFile(path, writeConfig(c));
		};
		// config.go: a missing file is created with every option at its zero value first.
		if (!fs.exists(path)) write(emptyConfig());
		const read = readConfig(fs.readFile(path));
		if (!read.ok) return r.inv.fatal(`load config file: ${read.error}`);
		const c = read.config;
		if (r.isSet('get')) {
			const values: Record<string, string> = {
				'runtime-endpoint': c.runtimeEndpoint,
				'image-endpoint': c.imageEndpoint,
				timeout: String(c.timeout),
				debug: String(c.debug),
				'pull-image-on-create': String(c.pullImageOnCreate),
				'disable-pull-on-run': String(c.disablePullOnRun),
			};
			const key = r.string('get');
			if (!(key in values)) return r.inv.fatal(`no configuration option named ${key}`);
			r.inv.print(values[key] + '\n');
			return 0;
		}
		if (r.isSet('set')) {
			for (const setting of r.strings('set')) {
				const pair = setting.split('=');
				if (pair.length !== 2) return r.inv.fatal(`incorrectly specified option: ${setting}`);
				const error = setConfigOption(c, pair[0], pair[1], 'set');
				if (error) return r.inv.fatal(error);
			}
			write(c);
			return 0;
		}
		if (r.bool('list')) {
			// display.ClearScreen() comes first: erase the screen, cursor home.
			r.inv.print('\x1b[2J\x1b[H');
			r.inv.print(
				crictlTable([
					['KEY', 'VALUE'],
					['runtime-endpoint', c.runtimeEndpoint],
					['image-endpoint', c.imageEndpoint],
					['timeout', String(c.timeout)],
					['debug', String(c.debug)],
					['pull-image-on-create', String(c.pullImageOnCreate)],
					['disable-pull-on-run', String(c.disablePullOnRun)],
				]),
			);
			return 0;
		}
		const key = r.args[0] ?? '';
		if (key === '') return r.help();
		const value = r.args[1] ?? '';
		r.inv.log('info', `No --get, --set or --list provided, setting key "${key}" to value "${value}"`);
		const error = setConfigOption(c, key, value, 'set');
		if (error) return r.inv.fatal(`set "${key}" to "${value}": ${error}`);
		write(c);
		return 0;
	},
};
