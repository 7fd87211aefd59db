/**
 * The images tutorials use to exercise Kubernetes itself: agnhost, the
 * Kubernetes e2e test image (netexec, liveness, serve-hostname,
 * test-webserver, pause), and stress, which burns CPU or allocates memory
 * until its cgroup's limit has the kernel OOM-kill the container.
 *
 * It follows agnhost's subcommands (their ports and behaviour, the liveness
 * task of the kubernetes.io docs) and the stress tool's options.
 *
 * Mirrors test/images/agnhost/agnhost.go,
 * test/images/agnhost/liveness/server.go,
 * test/images/agnhost/netexec/netexec.go.
 */
import type { CommandOutcome, ContainerContext, OutputLine, ServerSpec, SignalReaction } from '../behaviour.ts';
import { flagValue } from './userland.ts';

/** Runs `argv` if it is agnhost or stress; undefined if it is another program. */
export function runTestImageProgram(ctx: ContainerContext, argv: string[], wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome | undefined {
	const binary = argv[0];
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	switch (base) {
		case 'stress':
			return stress(ctx, args, options, out);
		case 'agnhost':
			return agnhost(ctx, args, wallMs, options, out);
	}
	return undefined;
}

/** Parses `150M`, `1G`, `512k` (stress's size syntax, powers of 1024), in bytes. */
function parseStressSize(text: string): number {
	const m = /^(\d+)([bkmgBKMG]?)$/.exec(text);
	if (!m) return Number.NaN;
	const unit = { '': 1, b: 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()] ?? 1;
	return Number(m[1]) * unit;
}

function stress(ctx: ContainerContext, args: string[], options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	const print = (text: string) => out.push({ stream: 'stdout', text });
	if (args.length === 0 || args.includes('--help') || args.includes('-?')) {
		print('`stress` imposes certain types of compute stress on your system');
		print('Usage: stress [OPTION [ARG]] ...');
		return { kind: options.main ? 'exit' : 'done', status: 1, out } as CommandOutcome;
	}
	const vm = Number(flagValue(args, ['--vm', '-m']) ?? 0);
	const cpu = Number(flagValue(args, ['--cpu', '-c']) ?? 0);
	const vmBytes = parseStressSize(flagValue(args, ['--vm-bytes']) ?? '256M');
	const timeout = flagValue(args, ['--timeout', '-t']);
	print(`stress: info: [1] dispatching hogs: ${cpu} cpu, 0 io, ${vm} vm, 0 hdd`);
	if (!options.main) return { kind: 'done', status: 0, out };
	const spec: ServerSpec = { name: 'stress', ports: [], readyAfterMs: 0, onStop: { kind: 'ignore' }, startup: [], shutdown: [] };
	if (vm > 0 && ctx.memoryLimitBytes !== undefined && vm * vmBytes > ctx.memoryLimitBytes) {
		// The worker allocates past the cgroup limit: the kernel OOM-kills the container.
		spec.exitsAfter = { afterMs: 1_000, exitCode: 137, reason: 'OOMKilled', lines: [] };
	} else if (timeout) {
		const m = /^(\d+)([smh]?)$/.exec(timeout);
		const ms = m ? Number(m[1]) * ({ '': 1000, s: 1000, m: 60_000, h: 3_600_000 }[m[2]] ?? 1000) : 0;
		spec.exitsAfter = { afterMs: ms, exitCode: 0, lines: [{ stream: 'stdout', text: `stress: info: [1] successful run completed in ${Math.round(ms / 1000)}s` }] };
	}
	return { kind: 'serve', server: spec, out };
}

function agnhost(ctx: ContainerContext, args: string[], wallMs: number, options: { main: boolean }, out: OutputLine[]): CommandOutcome {
	const sub = args[0] ?? 'pause';
	const graceful: SignalReaction = { kind: 'graceful', afterMs: 0, exitCode: 0 };
	const serve = (server: ServerSpec): CommandOutcome => (options.main ? { kind: 'serve', server, out } : { kind: 'done', status: 0, out });
	void wallMs;
	switch (sub) {
		case 'netexec': {
			const port = Number(flagValue(args, ['--http-port']) ?? 8080);
			return serve({ name: 'agnhost-netexec', ports: [{ port, protocol: 'http' }], readyAfterMs: 100, onStop: graceful, startup: [`Started HTTP server on port ${port}`], shutdown: [] });
		}
		case 'liveness':
			// The kubernetes.io liveness task: /healthz answers 200 for 10 s after start, then 500.
			return serve({ name: 'agnhost-liveness', ports: [{ port: 8080, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [], shutdown: [], healthyForMs: 10_000 });
		case 'serve-hostname':
			return serve({ name: 'agnhost-serve-hostname', ports: [{ port: 9376, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [`Serving the host name ${ctx.hostname} on port 9376`], shutdown: [] });
		case 'test-webserver':
			return serve({ name: 'agnhost-test-webserver', ports: [{ port: 80, protocol: 'http' }], readyAfterMs: 50, onStop: graceful, startup: [], shutdown: [] });
		default:
			return serve({ name: 'agnhost-pause', ports: [], readyAfterMs: 0, onStop: graceful, startup: ['Paused'], shutdown: ['Shutting down after receiving signal: terminated.'] });
	}
}
