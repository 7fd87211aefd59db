/**
 * What a container does, from its image and its command/args: which
 * program runs as PID 1, what it prints, which ports it serves, how it
 * reacts to the stop signal, and what `kubectl exec` finds inside.
 *
 * The rules follow how containers really behave, because those are the
 * lessons: a command replaces the image ENTRYPOINT and args replace its
 * CMD; a shell or `sleep` running as PID 1 ignores SIGTERM (the kernel
 * drops signals PID 1 has no handler for), so deletion waits out the whole
 * grace period; a server started from a script without `exec` never sees
 * the signal either; `nginx` without `daemon off;` forks away and the
 * container exits; a shell image started with no command exits at once
 * (no terminal attached), which under restartPolicy Always is a
 * CrashLoopBackOff. Program output is written in our own words, shaped
 * like the real programs' output.
 *
 * Pure functions over plain data; the interpreter that runs them over
 * virtual time is ./program.ts. This file holds the shapes they share and
 * the dispatch of one command to the part that models it, all under
 * ./behaviour/: the image's userland (userland.ts) and files (rootfs.ts),
 * the userland tools (shell-tools.ts), the application servers and their
 * HTTP answers (servers.ts), the test images (test-images.ts), the
 * control-plane programs (system-components.ts) and the time formats
 * they print (time-formats.ts), the CNI add-ons' installers
 * (cni-installers.ts), perl's one-liners (perl.ts).
 *
 * Mirrors nothing upstream: the simulator's model of what containers'
 * programs do; the real programs just run.
 */
import type { FsStats } from '../host/filesystem-stats.ts';
import type { CatalogImage, SystemComponent } from './images.ts';
import type { Mount } from './mounts.ts';
import { runServerProgram } from './behaviour/servers.ts';
import { runSystemProgram } from './behaviour/system-components.ts';
import { runTestImageProgram } from './behaviour/test-images.ts';
import { runUserlandTool } from './behaviour/shell-tools.ts';
import { runCniInstaller } from './behaviour/cni-installers.ts';
import { runPerl } from './behaviour/perl.ts';
import { binaryExists } from './behaviour/userland.ts';

export { baselinePaths, listDirectory, normalizePath, readFile } from './behaviour/rootfs.ts';
import { readFile } from './behaviour/rootfs.ts';
export { binaryExists, isShell, resolveArgv, unwrapEntrypoint } from './behaviour/userland.ts';
export { accessLogLine, httpAnswer, PROBE_USER_AGENT, type HttpRequestInfo } from './behaviour/servers.ts';

/** Static facts about one container, fixed at creation. Plain JSON. */
export interface ContainerContext {
	/** Repository and tag the container was created from (catalogue lookup key). */
	imageRef: string;
	hostname: string;
	podName: string;
	namespace: string;
	podIp: string;
	nodeName: string;
	/** The environment as the process sees it, in order (image ENV, then the container's). */
	env: Array<{ name: string; value: string }>;
	/** The cgroup memory limit, when the container has one. */
	memoryLimitBytes?: number;
	/** The processes' oom_score_adj, as the kubelet asked (0 when it did not). */
	oomScoreAdj?: number;
	/** The cgroup CPU limit in millicores, when the container has one. */
	cpuLimitMillis?: number;
	workingDir?: string;
	/** The argv the container was started with (after ENTRYPOINT/CMD resolution). */
	argv: string[];
	/** Bind mounts from the kubelet (CRI ContainerConfig.mounts): volumes, in volumeMounts order (./mounts.ts). */
	mounts?: Mount[];
	/** The sandbox's /etc/resolv.conf, as containerd wrote it from the kubelet's DNSConfig. */
	resolvConf?: string;
	/**
	 * Permission bits of the container's files that are not the default
	 * (0644 files, 0755 directories), by path: volume files the kubelet
	 * wrote with a defaultMode or an item mode, files a process created or
	 * chmod-ed. The mount sync keeps the mounted ones in step with the node.
	 */
	fileModes?: Record<string, number>;
}

/** One line of container output. */
export interface OutputLine {
	stream: 'stdout' | 'stderr';
	text: string;
	/** Written without its newline (`echo -n`, a printf format that does not end in `\n`): a file gets no newline after it. */
	partial?: boolean;
}

/** A port a server listens on; `http` ports answer HTTP, `tcp` ports only accept connections. */
export interface ServedPort {
	port: number;
	protocol: 'http' | 'tcp';
}

/** How the main process reacts to the stop signal. */
export type SignalReaction =
	/** Shuts down cleanly after `afterMs` and exits with `exitCode`. */
	| { kind: 'graceful'; afterMs: number; exitCode: number }
	/** No handler: as PID 1 the signal is dropped; only SIGKILL ends it. */
	| { kind: 'ignore' };

/**
 * A long-running server the main process becomes. Plain JSON. Start-up
 * (`readyAfterMs`) and shutdown (`onStop.afterMs`) times are rough orders of
 * magnitude for each program on a small VM, not measurements: tens of ms
 * for nginx or redis, seconds for a database's first start.
 */
export interface ServerSpec {
	name: string;
	ports: ServedPort[];
	/** Delay from start to listening. */
	readyAfterMs: number;
	onStop: SignalReaction;
	/** Lines printed at start. */
	startup: string[];
	/** Lines printed when a stop signal is handled. */
	shutdown: string[];
	/** Static-file root for file-serving servers (nginx, httpd, python http.server). */
	docRoot?: string;
	/** Access-log style for HTTP requests. */
	accessLog?: 'nginx' | 'httpd' | 'apache-combined' | 'python' | 'agnhost-netexec' | 'serve-hostname';
	/** UDP ports the server also answers on (agnhost netexec's 8081); the network tools read them. */
	udpPorts?: number[];
	/** Exits by itself after `afterMs` with `exitCode` (a crash, or a `--timeout`). */
	exitsAfter?: { afterMs: number; exitCode: number; reason?: 'OOMKilled' | 'Error' | 'Completed'; lines: OutputLine[] };
	/** Backed by a simulated control-plane process. */
	component?: SystemComponent;
	/** agnhost liveness: /healthz answers 200 for this long after start, then 500. */
	healthyForMs?: number;
	/** agnhost porter: the value each port answers (SERVE_PORT_<port>), and whether as `{"method","body"}` JSON. */
	porter?: { responses: Record<string, string>; json: boolean };
}

/** What running one command did. */
export type CommandOutcome =
	/** `files`: what the program wrote (cp, an installer), paths in the container; the interpreter applies them to the writable layer. */
	| {
			kind: 'done';
			status: number;
			out: OutputLine[];
			files?: Record<string, string>;
			/** Permission bits the program gave files (chmod, a file created with a mode), by path. */
			modes?: Record<string, number>;
			/** How long the command took (a large dd): a main process writes its files when that time has passed. */
			elapsedMs?: number;
	  }
	| { kind: 'sleep'; ms: number; out: OutputLine[] }
	| { kind: 'exit'; status: number; out: OutputLine[] }
	| { kind: 'serve'; server: ServerSpec; out: OutputLine[] }
	| { kind: 'not-found'; binary: string };

/** A container's writable layer: paths written (string) or deleted (null) on top of the image. */
export type FileOverrides = Record<string, string | null>;

/** How a command runs: as the container's main process or not, through the image's entrypoint script, and which ports of the pod listen. */
export interface RunOptions {
	main: boolean;
	viaEntrypoint?: boolean;
	listening?: (port: number) => boolean;
	/** Standard input, whole (an exec's `-i` stream); undefined: none (a container's own process has none). */
	stdin?: string;
	/** The node's root file system now (dd and fallocate stop when it is full; df shows it); undefined: not known. */
	rootFs?: FsStats;
}

/**
 * Runs one command as a program would, at wall time `wallMs`. `main` is
 * true when the command is the container's main process (then servers
 * keep running and `exit`-like outcomes end the container).
 */
export function runCommand(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, argv: string[], wallMs: number, options: RunOptions = { main: false }): CommandOutcome {
	const binary = argv[0] ?? '';
	const out: OutputLine[] = [];
	// Shell builtins work in every shell; as a standalone binary they need the userland.
	if (!binaryExists(image, binary)) return { kind: 'not-found', binary };
	return (
		runUserlandTool(image, ctx, files, argv, wallMs, options, out) ??
		runCniInstaller(image, ctx, files, argv, wallMs, out) ??
		runServerProgram(image, ctx, argv, wallMs, options, out) ??
		runPerl(image, argv, options, out) ??
		runTestImageProgram(image, ctx, files, argv, wallMs, options, out) ??
		runSystemProgram(image, argv, wallMs, options, out, (path) => readFile(image, ctx, files, path)) ??
		// A binary present in the image but with nothing to simulate: it runs and succeeds.
		{ kind: 'done', status: 0, out }
	);
}
