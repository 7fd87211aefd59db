/**
 * `crictl`, the CRI command-line client (kubernetes-sigs/cri-tools
 * v1.36.0), as a shell command on a node: it talks to the node's containerd
 * the way the real one talks to /run/containerd/containerd.sock.
 *
 *     host.commands.set('crictl', crictlCommand({ runtime: node.runtime, pulls: sink }));
 *
 * The run follows cmd/crictl/main.go and urfave/cli v2: global flags, then
 * app.Before (config file, endpoints), then the command with its own flags.
 * Supported: ps, pods, images, inspect, inspectp, inspecti, logs, exec,
 * info, version, pull, rmi, stop, rm, stopp, rmp, config. The other
 * commands crictl lists (create, run, runp, attach, stats...) answer that
 * the simulation does not offer them.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/main.go.
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { appHelp, commandHelp, FlagError, HELP_FLAG, parseFlags, type CommandSpec, type FlagSpec } from './cli.ts';
import { resolveEndpoints } from './connect.ts';
import { exec, inspect, logs, ps, rm, stop } from './containers.ts';
import { images, inspecti, pull, rmi } from './images.ts';
import { inspectp, pods, rmp, stopp } from './pods.ts';
import { config, info, version } from './runtime-info.ts';
import { Run, type Command } from './run.ts';
import { CrictlExit, Invocation } from './session.ts';
import { CRICTL_VERSION, DEFAULT_RUNTIME_ENDPOINTS, type CrictlDeps } from './types.ts';

export { CrictlPullSink } from './pull-sink.ts';
export { CRICTL_CONFIG_PATH, CRICTL_VERSION, DEFAULT_CRICTL_YAML, type CrictlDeps, type CrictlRuntime, type PullOutcome, type PullReceiver } from './types.ts';

/** main.go app.Flags (sorted by name, as main sorts them). */
const GLOBAL_FLAGS: FlagSpec[] = [
	{ name: 'config', aliases: ['c'], kind: 'string', usage: "Location of the client config file. If not specified and the default does not exist, the program's directory is searched as well", value: '/etc/crictl.yaml', envVars: ['CRI_CONFIG_FILE'] },
	{ name: 'debug', aliases: ['D'], kind: 'bool', usage: 'Enable debug mode' },
	{ name: 'enable-tracing', kind: 'bool', usage: 'Enable OpenTelemetry tracing.' },
	{ name: 'image-endpoint', aliases: ['i'], kind: 'string', usage: "Endpoint of CRI image manager service (default: uses 'runtime-endpoint' setting)", envVars: ['IMAGE_SERVICE_ENDPOINT'] },
	{ name: 'profile-cpu', kind: 'string', usage: 'Write a pprof CPU profile to the provided path.' },
	{ name: 'profile-mem', kind: 'string', usage: 'Write a pprof memory profile to the provided path.' },
	{
		name: 'runtime-endpoint',
		aliases: ['r'],
		kind: 'string',
		usage: `Endpoint of CRI container runtime service (default: uses in order the first successful one of [${DEFAULT_RUNTIME_ENDPOINTS.join(' ')}]). Default is now deprecated and the endpoint should be set instead.`,
		envVars: ['CONTAINER_RUNTIME_ENDPOINT'],
	},
	{ name: 'timeout', aliases: ['t'], kind: 'duration', usage: 'Timeout of connecting to the server in seconds (e.g. 2s, 20s.). 0 or less is set to default', value: '2s' },
	{ name: 'tracing-endpoint', kind: 'string', usage: 'Address to which the gRPC tracing collector will send spans to.', value: '127.0.0.1:4317' },
	{ name: 'tracing-sampling-rate-per-million', kind: 'int', usage: 'Number of samples to collect per million OpenTelemetry spans. Set to 1000000 or -1 to always sample.', value: -1 },
];

const VERSION_FLAG: FlagSpec = { name: 'version', aliases: ['v'], kind: 'bool', usage: 'print the version' };

/** The commands the simulation runs. */
const COMMANDS: Command[] = [config, exec, images, info, inspect, inspecti, inspectp, logs, pods, ps, pull, rm, rmi, rmp, stop, stopp, version];

/** Every command crictl v1.36.0 has (main.go app.Commands), with its usage line, for `crictl --help`. */
const ALL_COMMANDS: ReadonlyArray<{ names: string; usage: string }> = [
	{ names: 'attach', usage: 'Attach to a running container' },
	{ names: 'checkpoint', usage: 'Checkpoint one or more running containers' },
	{ names: 'completion', usage: 'Output shell completion code' },
	{ names: 'config', usage: 'Get, set and list crictl configuration options' },
	{ names: 'create', usage: 'Create a new container' },
	{ names: 'events, event', usage: 'Stream the events of containers' },
	{ names: 'exec', usage: 'Run a command in a running container' },
	{ names: 'imagefsinfo', usage: 'Return image filesystem info' },
	{ names: 'images, image, img', usage: 'List images' },
	{ names: 'info', usage: 'Display information of the container runtime' },
	{ names: 'inspect', usage: 'Display the status of one or more containers' },
	{ names: 'inspecti', usage: 'Return the status of one or more images' },
	{ names: 'inspectp', usage: 'Display the status of one or more pods' },
	{ names: 'logs', usage: 'Fetch the logs of a container' },
	{ names: 'metricdescs', usage: 'List metric descriptors. Returns information about the metrics available through the CRI.' },
	{ names: 'metricsp', usage: "List pod metrics. Metrics are unstructured key/value pairs gathered by CRI meant to replace cAdvisor's /metrics/cadvisor endpoint." },
	{ names: 'pods', usage: 'List pods' },
	{ names: 'port-forward', usage: 'Forward local port to a pod' },
	{ names: 'ps', usage: 'List containers' },
	{ names: 'pull', usage: 'Pull an image from a registry' },
	{ names: 'rm', usage: 'Remove one or more containers' },
	{ names: 'rmi', usage: 'Remove one or more images' },
	{ names: 'rmp', usage: 'Remove one or more pods' },
	{ names: 'run', usage: 'Run a new container inside a sandbox' },
	{ names: 'runp', usage: 'Run a new pod' },
	{ names: 'runtime-config', usage: 'Retrieve the container runtime configuration' },
	{ names: 'start', usage: 'Start one or more created containers' },
	{ names: 'stats', usage: 'List container(s) resource usage statistics' },
	{ names: 'statsp', usage: "List pod statistics. Stats represent a structured API that will fulfill the Kubelet's /stats/summary endpoint." },
	{ names: 'stop', usage: 'Stop one or more running containers' },
	{ names: 'stopp', usage: 'Stop one or more running pods' },
	{ names: 'update', usage: 'Update one or more running containers' },
	{ names: 'update-runtime-config', usage: 'Update the runtime configuration' },
	{ names: 'version', usage: 'Display runtime version information' },
];

function findCommand(name: string): Command | undefined {
	return COMMANDS.find((c) => c.spec.name === name || (c.spec.aliases ?? []).includes(name));
}

function isKnownElsewhere(name: string): boolean {
	return ALL_COMMANDS.some((c) => c.names.split(', ').includes(name));
}

function rootHelp(): string {
	return appHelp(ALL_COMMANDS, GLOBAL_FLAGS, CRICTL_VERSION);
}

/** One crictl run; ends through CrictlExit or returns a status. */
function runCrictl(inv: Invocation, deps: CrictlDeps, argv: readonly string[]): number {
	let global;
	try {
		global = parseFlags(argv, [...GLOBAL_FLAGS, HELP_FLAG, VERSION_FLAG], false);
	} catch (error) {
		if (!(error instanceof FlagError)) throw error;
		inv.print(`Incorrect Usage: ${error.message}\n\n${rootHelp()}`);
		return inv.fatal(error.message);
	}
	if (global.help) {
		inv.print(rootHelp());
		return 0;
	}
	if (global.values.get('version') === true) {
		inv.print(`crictl version ${CRICTL_VERSION}\n`);
		return 0;
	}
	const endpoints = resolveEndpoints(inv, global);
	const [name, ...rest] = global.args;
	if (name === undefined) {
		inv.print(rootHelp());
		return 0;
	}
	if (name === 'help' || name === 'h') {
		const topic = rest[0];
		if (topic === undefined) {
			inv.print(rootHelp());
			return 0;
		}
		const command = findCommand(topic);
		if (command) {
			inv.print(commandHelp(command.spec));
			return 0;
		}
		return isKnownElsewhere(topic) ? inv.fatal(`${topic}: not available in this simulated crictl`) : inv.exit(`No help topic for '${topic}'`, 3);
	}
	const command = findCommand(name);
	if (!command) return isKnownElsewhere(name) ? inv.fatal(`${name}: not available in this simulated crictl`) : inv.exit(`No help topic for '${name}'`, 3);
	const spec: CommandSpec = command.spec;
	let parsed;
	try {
		parsed = parseFlags(rest, [...spec.flags, HELP_FLAG], spec.shortOptions ?? false);
	} catch (error) {
		if (!(error instanceof FlagError)) throw error;
		inv.print(`Incorrect Usage: ${error.message}\n\n${commandHelp(spec)}`);
		return inv.fatal(error.message);
	}
	if (parsed.help) {
		inv.print(commandHelp(spec));
		return 0;
	}
	return command.run(new Run(inv, spec, parsed, endpoints, deps));
}

/** The `crictl` shell command over one node's containerd. */
export function crictlCommand(deps: CrictlDeps): CommandHandler {
	return (ctx: CommandContext): CommandResult => {
		const inv = new Invocation(ctx);
		try {
			return inv.result(runCrictl(inv, deps, ctx.argv.slice(1)));
		} catch (error) {
			if (error instanceof CrictlExit) return inv.result(error.code);
			// A bug in the simulation must not take the shell down: report it as a Go panic would end the program.
			return { ...inv.result(2), stderr: inv.result(2).stderr + `panic: ${error instanceof Error ? error.message : String(error)}\n` };
		}
	};
}
