/**
 * How crictl finds and reaches the runtime: /etc/crictl.yaml (or the file
 * beside the binary), the `--runtime-endpoint`/`--image-endpoint` flags
 * and their environment variables, and, when no endpoint is configured,
 * the deprecated walk over the default endpoints with its warnings. Every
 * connection is validated with a Version call, so a stopped containerd
 * fails here with `validate service connection: ...`.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/main.go (app.Before,
 * getRuntimeService, getImageService), kubernetes-sigs/cri-tools
 * pkg/common/config.go, kubernetes-sigs/cri-tools pkg/common/file.go,
 * staging/src/k8s.io/cri-client/pkg/remote_runtime.go
 * (validateServiceConnection),
 * staging/src/k8s.io/cri-client/pkg/remote_image.go,
 * staging/src/k8s.io/cri-client/pkg/util/util_unix.go (GetAddressAndDialer).
 */
import { parseYaml } from '../../yaml/index.ts';
import type { ParsedFlags } from './cli.ts';
import type { Invocation } from './session.ts';
import { CONTAINERD_SOCKETS, CRICTL_BINARY, CRICTL_CONFIG_PATH, DEFAULT_RUNTIME_ENDPOINTS, type CrictlRuntime } from './types.ts';

/** The options of crictl.yaml (common/file.go Config). */
export interface CrictlConfig {
	runtimeEndpoint: string;
	imageEndpoint: string;
	timeout: number;
	debug: boolean;
	pullImageOnCreate: boolean;
	disablePullOnRun: boolean;
	/** The keys in file order, for writing the file back as crictl does. */
	order: string[];
}

/** The YAML keys (common/file.go). */
const CONFIG_KEYS = ['runtime-endpoint', 'image-endpoint', 'timeout', 'debug', 'pull-image-on-create', 'disable-pull-on-run'] as const;

export function emptyConfig(): CrictlConfig {
	return { runtimeEndpoint: '', imageEndpoint: '', timeout: 0, debug: false, pullImageOnCreate: false, disablePullOnRun: false, order: [] };
}

/** strconv.ParseBool. */
function parseBool(text: string): boolean | undefined {
	if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
	if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
	return undefined;
}

/** Sets one option from its text, as getConfigOptions and setValue do; returns an error message or undefined. */
export function setConfigOption(config: CrictlConfig, key: string, value: string, wording: 'read' | 'set'): string | undefined {
	const bool = (name: string, assign: (b: boolean) => void) => {
		const b = parseBool(value);
		if (b === undefined) return wording === 'read' ? `parsing config option '${key}': strconv.ParseBool: parsing "${value}": invalid syntax` : `parse ${name} value '${value}': strconv.ParseBool: parsing "${value}": invalid syntax`;
		assign(b);
		return undefined;
	};
	switch (key) {
		case 'runtime-endpoint':
			config.runtimeEndpoint = value;
			break;
		case 'image-endpoint':
			config.imageEndpoint = value;
			break;
		case 'timeout':
			if (!/^[-+]?\d+$/.test(value)) return wording === 'read' ? `parsing config option '${key}': strconv.Atoi: parsing "${value}": invalid syntax` : `parse timeout value '${value}': strconv.Atoi: parsing "${value}": invalid syntax`;
			config.timeout = Number(value);
			break;
		case 'debug': {
			const error = bool('debug', (b) => (config.debug = b));
			if (error) return error;
			break;
		}
		case 'pull-image-on-create': {
			const error = bool('pull-image-on-create', (b) => (config.pullImageOnCreate = b));
			if (error) return error;
			break;
		}
		case 'disable-pull-on-run': {
			const error = bool('disable-pull-on-run', (b) => (config.disablePullOnRun = b));
			if (error) return error;
			break;
		}
		default:
			return wording === 'read' ? `Config option '${key}' is not valid` : `no configuration option named ${key}`;
	}
	if (!config.order.includes(key)) config.order.push(key);
	return undefined;
}

/** common.ReadConfig on a file's text. */
export function readConfig(text: string): { ok: true; config: CrictlConfig } | { ok: false; error: string } {
	const config = emptyConfig();
	let data: unknown;
	try {
		data = parseYaml(text);
	} catch (error) {
		return { ok: false, error: error instanceof Error ? error.message : String(error) };
	}
	if (data === null || data === undefined) return { ok: true, config };
	if (typeof data !== 'object' || Array.isArray(data)) return { ok: true, config };
	for (const [key, raw] of Object.entries(data as Record<string, unknown>)) {
		const value = raw === null || raw === undefined ? '' : String(raw);
		const error = setConfigOption(config, key, value, 'read');
		if (error) return { ok: false, error };
	}
	return { ok: true, config };
}

/** common.WriteConfig: every option, the file's own keys first in their order. */
export function writeConfig(config: CrictlConfig): string {
	const text: Record<(typeof CONFIG_KEYS)[number], string> = {
		'runtime-endpoint': config.runtimeEndpoint === '' ? '""' : config.runtimeEndpoint,
		'image-endpoint': config.imageEndpoint === '' ? '""' : config.imageEndpoint,
		timeout: String(config.timeout),
		debug: String(config.debug),
		'pull-image-on-create': String(config.pullImageOnCreate),
		'disable-pull-on-run': String(config.disablePullOnRun),
	};
	const keys = [...config.order.filter((k): k is (typeof CONFIG_KEYS)[number] => (CONFIG_KEYS as readonly string[]).includes(k)), ...CONFIG_KEYS.filter((k) => !config.order.includes(k))];
	return keys.map((k) => `${k}: ${text[k]}\n`).join('');
}

/** The endpoints a run uses (main.go globals RuntimeEndpoint(IsSet), ImageEndpoint(IsSet)). */
export interface Endpoints {
	runtime: string;
	runtimeSet: boolean;
	image: string;
	imageSet: boolean;
	/** The config file crictl settled on (for `crictl config`). */
	configPath: string;
}

/** app.Before: config file, then flags (flags win), with the warnings crictl logs on the way. */
export function resolveEndpoints(inv: Invocation, flags: ParsedFlags): Endpoints {
	const { host, env } = inv.ctx;
	const configSet = flags.set.has('config');
	const configPath = (flags.values.get('config') as string | undefined) ?? (env.CRI_CONFIG_FILE || CRICTL_CONFIG_PATH);
	const flagOrEnv = (name: string, envName: string): { value: string; set: boolean } => {
		const v = flags.values.get(name);
		if (typeof v === 'string') return { value: v, set: true };
		// urfave counts a flag set from its environment variable as set.
		if (env[envName]) return { value: env[envName], set: true };
		return { value: '', set: false };
	};
	const runtimeFlag = flagOrEnv('runtime-endpoint', 'CONTAINER_RUNTIME_ENDPOINT');
	const imageFlag = flagOrEnv('image-endpoint', 'IMAGE_SERVICE_ENDPOINT');

	let config: CrictlConfig | undefined;
	let path = host.fs.resolve(configPath);
	let loadError: string | undefined;
	if (!host.fs.exists(path)) {
		const next = CRICTL_BINARY.slice(0, CRICTL_BINARY.lastIndexOf('/')) + '/crictl.yaml';
		inv.log('warning', `Config "${configPath}" does not exist, trying next: "${next}"`);
		if (!host.fs.exists(next)) loadError = `load config file: stat ${next}: no such file or directory`;
		path = next;
	}
	if (!loadError) {
		if (host.fs.isDir(path)) loadError = `load config file: read ${path}: is a directory`;
		else {
			const read = readConfig(host.fs.readFile(path));
			if (read.ok) config = read.config;
			else loadError = `load config file: ${read.error}`;
		}
	}
	if (loadError && configSet) inv.fatal(loadError);

	if (!config) return { runtime: runtimeFlag.value, runtimeSet: runtimeFlag.set, image: imageFlag.value, imageSet: imageFlag.set, configPath: path };
	// "Command line flags overrides config file."
	const runtime = runtimeFlag.set ? runtimeFlag : config.runtimeEndpoint !== '' ? { value: config.runtimeEndpoint, set: true } : { value: '', set: false };
	const image = imageFlag.set ? imageFlag : config.imageEndpoint !== '' ? { value: config.imageEndpoint, set: true } : { value: '', set: false };
	return { runtime: runtime.value, runtimeSet: runtime.set, image: image.value, imageSet: image.set, configPath: path };
}

/**
 * Dials an endpoint and validates it with the CRI Version call: undefined
 * when containerd answers, else the error crictl reports. containerd
 * listens on /run/containerd/containerd.sock (/var/run is a symlink to
 * /run); nothing else listens on a node of this cluster.
 */
function dial(runtime: CrictlRuntime, endpoint: string, api: 'runtime' | 'image'): string | undefined {
	let address = endpoint;
	const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(endpoint);
	// util_unix.go parseEndpointWithFallbackProtocol: a bare path is taken as a unix socket.
	if (scheme?.[1] === 'unix') address = endpoint.slice('unix://'.length);
	else if (!scheme) address = endpoint;
	else if (scheme[1] === 'tcp') return 'only support unix socket endpoint';
	else return `protocol "${scheme[1]}" not supported`;
	const up = runtime.version().ok;
	const isContainerd = (CONTAINERD_SOCKETS as readonly string[]).includes(address.replace(/\/+/g, '/'));
	if (isContainerd && up) return undefined;
	// A stopped containerd leaves its socket file behind, so the dial is refused; any other path has no socket.
	const reason = isContainerd ? 'connection refused' : 'no such file or directory';
	return `validate service connection: validate CRI v1 ${api} API for endpoint "${endpoint}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${address}: connect: ${reason}"`;
}

/** getRuntimeService: the runtime if its endpoint answers, else a fatal error. */
export function runtimeService(inv: Invocation, runtime: CrictlRuntime, endpoints: Endpoints): CrictlRuntime {
	if (endpoints.runtimeSet && endpoints.runtime === '') inv.fatal('--runtime-endpoint is not set');
	if (!endpoints.runtimeSet) {
		inv.log('warning', `runtime connect using default endpoints: [${DEFAULT_RUNTIME_ENDPOINTS.join(' ')}]. As the default settings are now deprecated, you should set the endpoint instead.`);
		let last: string | undefined;
		for (const endpoint of DEFAULT_RUNTIME_ENDPOINTS) {
			last = dial(runtime, endpoint, 'runtime');
			if (last === undefined) return runtime;
			inv.log('error', last);
		}
		return inv.fatal(last ?? 'no runtime endpoint');
	}
	const error = dial(runtime, endpoints.runtime, 'runtime');
	if (error !== undefined) inv.fatal(error);
	return runtime;
}

/** getImageService: the image endpoint defaults to the runtime endpoint (and inherits whether it was set). */
export function imageService(inv: Invocation, runtime: CrictlRuntime, endpoints: Endpoints): CrictlRuntime {
	if (endpoints.image === '') {
		if (endpoints.runtimeSet && endpoints.runtime === '') inv.fatal('--image-endpoint is not set');
		endpoints.image = endpoints.runtime;
		endpoints.imageSet = endpoints.runtimeSet;
	}
	if (!endpoints.imageSet) {
		inv.log('warning', `Image connect using default endpoints: [${DEFAULT_RUNTIME_ENDPOINTS.join(' ')}]. As the default settings are now deprecated, you should set the endpoint instead.`);
		let last: string | undefined;
		for (const endpoint of DEFAULT_RUNTIME_ENDPOINTS) {
			last = dial(runtime, endpoint, 'image');
			if (last === undefined) return runtime;
			inv.log('error', last);
		}
		return inv.fatal(last ?? 'no image endpoint');
	}
	const error = dial(runtime, endpoints.image, 'image');
	if (error !== undefined) inv.fatal(error);
	return runtime;
}
