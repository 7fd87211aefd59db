/**
 * The reader's terminal: a shell session that starts on the reader's
 * workstation (kubectl and curl, with the admin kubeconfig) and reaches the
 * cluster's machines with `ssh <node>` (where etcdctl, crictl, systemctl,
 * journalctl and ip live). Commands that wait (`kubectl rollout status`,
 * `kubectl get -w`, `sleep`) run the cluster's virtual clock.
 *
 * kubectl authenticates with the client certificate of the kubeconfig it
 * finds ($KUBECONFIG, else ~/.kube/config) on the machine it runs on, as the
 * real one does: on a worker with no kubeconfig it tries localhost:8080.
 *
 * `kubectl exec -it POD -- sh` typed at the prompt hands the terminal to
 * the container's shell: the prompt becomes the shell's and each line runs
 * in the container until `exit`.
 *
 * A machine that goes down takes the reader's ssh session with it (and any
 * session opened from it). Shut down from that session (`reboot`), its sshd
 * closes the connection and ssh says so at once; cut off by a power loss,
 * the session just hangs, and the next line typed finds it dead. ssh to a
 * machine that is off finds no route to it.
 *
 * Mirrors nothing upstream: the simulator's wiring of the reader's terminal.
 */
import type { ApiRequest, WatchEvent } from '../api/request.ts';
import { ApiClient, type CallResult, type ResourceRef } from '../client/client.ts';
import { kubectlUserAgent, runKubectl, type ContainerSession, type KubectlEnvironment, type LocalFiles } from '../kubectl/kubectl.ts';
import { COMMANDS } from '../kubectl/cmd/index.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { ShellSession, type CommandContext, type CommandResult, type Host, type SessionJSON } from '../shell/index.ts';
import { FsError, MemoryFs, type FsJSON } from '../host/fs.ts';
import { parseYaml } from '../yaml/index.ts';
import { decodeBase64 } from '../golang/base64.ts';
import type { EditSession, ExecResult } from './cluster.ts';
import type { ShellContext } from './wiring.ts';
import { workstationFiles } from './files.ts';
import { parseCertificate, x509ValidityError } from '../host/pem.ts';
import { KUBERNETES_VERSION } from './bootstrap/versions.ts';
import { WorkstationJobs, type WorkstationJob } from './workstation-jobs.ts';
import { KUBECTL_VALUE_FLAGS } from './read-only.ts';
import { redirectLocation } from '../tools/curl/apiserver-http.ts';

export interface ShellState {
	session: SessionJSON;
	workstation: FsJSON;
	/** How many kubectl processes the reader started (their pids follow the shell's). */
	kubectlRuns?: number;
	/** Machines on the reader's ssh stack that went down: their sessions are dead. */
	severed?: string[];
	/** The container shell that has the terminal (`kubectl exec -it POD -- sh`), and the machine its kubectl ran on. */
	container?: ContainerSession & { host: string };
	/** Jobs still listening on the workstation (kubectl port-forward, proxy). */
	jobs?: WorkstationJob[];
	/** The container shell that ran `chroot` into the node's file system: its session resumes when the node's shell exits. */
	chrooted?: ContainerSession & { host: string };
}

/** The reader's shell is pid 4242 (`$$`); each kubectl run gets the next pid, as a new process would. */
const SHELL_PID = 4242;

/** Receives the watch events of `kubectl get -w` (a process, so they arrive in virtual time). */
class KubectlWatchSink extends ProcessBase<{ watchId: number | null }> {
	onEvent: (event: WatchEvent) => void = () => {};
	freshState() {
		return { watchId: null as number | null };
	}
	onStart(): void {}
	handle(event: QueuedEvent): void {
		if (event.kind !== 'watch') return;
		const payload = event.payload as { watchId: number; event: WatchEvent };
		if (payload.watchId === this.state.watchId) this.onEvent(payload.event);
	}
}

/** How far `sleep` and waiting commands step the clock at a time. */
const WAIT_STEP_MS = 100;
/**
 * How long ssh takes to find no route to a powered-off machine on the same
 * network: Linux sends three ARP requests one second apart
 * (net.ipv4.neigh.default.mcast_solicit = 3, retrans_time_ms = 1000), then
 * connect() fails with EHOSTUNREACH.
 */
const NO_ROUTE_MS = 3_000;
/** ssh's exit status when the connection fails or is lost (ssh(1): "255 if an error occurred"). */
const SSH_FAILED = 255;
/** A shell killed by SIGINT: 128 + 2. */
const SIGINT_STATUS = 130;
/**
 * Roughly how long one kubectl run takes against a cluster on the local
 * network (process start, the cached discovery, one TLS request): an
 * estimate, not an upstream figure. A line with several kubectl commands
 * (`kubectl scale --replicas=0; kubectl scale --replicas=2`) lets this much
 * virtual time pass before each one after the first, so the controllers
 * act in between as they would on a real cluster; a single command takes
 * no time, as before.
 */
const KUBECTL_RUN_MS = 100;

/** The reader's host file system as `kubectl cp` reaches it (os.Stat, os.ReadDir, os.MkdirAll, os.Create). */
function localFilesOf(fs: MemoryFs): LocalFiles {
	const attempt = (call: () => void): string | undefined => {
		try {
			call();
			return undefined;
		} catch (error) {
			return error instanceof FsError ? error.code : 'EINVAL';
		}
	};
	return {
		stat: (path) => {
			const found = fs.stat(fs.resolve(path));
			return found ? (found.isDir ? 'dir' : 'file') : undefined;
		},
		read: (path) => {
			const resolved = fs.resolve(path);
			return fs.exists(resolved) && !fs.isDir(resolved) ? fs.readFile(resolved) : undefined;
		},
		list: (path) => {
			const resolved = fs.resolve(path);
			return fs.isDir(resolved) ? [...fs.list(resolved)].sort() : undefined;
		},
		mkdirAll: (path) => {
			const resolved = fs.resolve(path);
			// MkdirAll: a directory already there is no error; a file in the way is ENOTDIR.
			if (fs.isDir(resolved)) return undefined;
			if (fs.exists(resolved)) return 'ENOTDIR';
			return attempt(() => fs.mkdir(resolved, true));
		},
		write: (path, text) => {
			const resolved = fs.resolve(path);
			if (fs.isDir(resolved)) return 'EISDIR';
			return attempt(() => fs.writeFile(resolved, text));
		},
	};
}

export class ReaderShell {
	readonly session: ShellSession;
	readonly workstation: Host;
	private readonly sink: KubectlWatchSink;
	private kubectlRuns: number;
	/** What the reader saved each time an editor opened during the current line (kubectl edit), still to be used. */
	private edits: string[] = [];
	/** The texts the editor opened with during the current line. */
	private editorOpened: string[] = [];
	/** The text the editor opened with when the reader began the current line's edit (recorded by the sandbox). */
	private editOpened: string | undefined;
	/** kubectl commands run by the current input line (see KUBECTL_RUN_MS). */
	private kubectlInLine = 0;
	/** See ShellState.severed. */
	private severed: string[];
	/** See ShellState.container. */
	private container: (ContainerSession & { host: string }) | undefined;
	/** See ShellState.chrooted. */
	private chrooted: (ContainerSession & { host: string }) | undefined;
	/**
	 * The API server's HTTP face (the one curl talks to), for `kubectl get
	 * --raw`: serves a GET of `path` for a user (or a bearer token), with
	 * kubectl's User-Agent. Set by the tools wiring (./tools.ts).
	 */
	rawApi?: (path: string, auth: { user: { username: string; groups: string[] } } | { token: string }, userAgent: string, method?: string, body?: string) => { status: number; headers: Array<[string, string]>; body: string };
	/** Tab completion's candidates for the end of a line, for `kubectl __complete`. Set by the cluster. */
	completer?: (line: string) => string[];
	/** What keeps listening on the workstation after its line (kubectl port-forward, kubectl proxy). */
	readonly jobs: WorkstationJobs;
	/** The workstation's address on the lab network, which `--address` may name. Set by the tools wiring. */
	workstationIp = '';
	/** A free port of the workstation's ephemeral range (a local port of 0). Set by the tools wiring. */
	freePort: () => number = () => 32768;

	constructor(
		private readonly cluster: ShellContext,
		private readonly apiServerUrl: string,
		adminConf: string,
		restore?: ShellState,
	) {
		const fs = restore ? MemoryFs.fromJSON(restore.workstation) : new MemoryFs();
		if (!restore) {
			for (const [path, text] of Object.entries(workstationFiles(adminConf))) {
				fs.mkdir(path.slice(0, path.lastIndexOf('/')), true);
				fs.writeFile(path, text);
			}
			fs.mkdir('/home/reader', true);
			// Every Linux machine has /tmp: tutorials write there (`cat <<EOF > /tmp/pod.yaml`).
			fs.mkdir('/tmp', true);
		}
		this.kubectlRuns = restore?.kubectlRuns ?? 0;
		this.severed = [...(restore?.severed ?? [])];
		this.container = restore?.container ? { ...restore.container } : undefined;
		this.chrooted = restore?.chrooted ? { ...restore.chrooted } : undefined;
		this.jobs = new WorkstationJobs(restore?.jobs);
		fs.home = '/home/reader';
		fs.cwd = '/home/reader';
		this.workstation = { name: 'workstation', fs, commands: new Map(), user: 'reader', home: '/home/reader', kind: 'workstation' };
		const hosts = [this.workstation, ...[...cluster.hosts.values()].map((h) => h.shellHost)];
		this.session = restore ? ShellSession.fromJSON(restore.session, (name) => hosts.find((h) => h.name === name)) : new ShellSession(hosts);
		this.session.clock = (machine) => cluster.kernel.wallMsOn(machine);
		this.session.onSleep = (ms) => cluster.kernel.runUntil(cluster.kernel.nowMs + ms);

		this.sink = new KubectlWatchSink('kubectl-watch', cluster.kernel);
		cluster.kernel.register(this.sink);
		cluster.kernel.start(this.sink.id);

		this.session.register('kubectl', (ctx) => this.kubectl(ctx));
		this.workstation.commands.set('jobs', (ctx) => this.jobsCommand(ctx));
		this.workstation.commands.set('kill', (ctx) => this.killCommand(ctx));
		// ssh as the shell has it, behind a check that the machine is on.
		const ssh = this.session.lookup('ssh')?.handler;
		if (ssh) this.session.register('ssh', (ctx) => this.ssh(ctx, ssh));
	}

	prompt(): string {
		return this.container ? this.container.prompt : this.session.prompt();
	}

	exec(line: string, stdin?: string, edit?: EditSession): ExecResult {
		this.edits = [...(edit?.saves ?? [])];
		this.editOpened = edit?.opened;
		this.editorOpened = [];
		const result = this.execLine(line, stdin);
		if (this.editorOpened.length) result.editor = this.editorOpened;
		this.editorOpened = [];
		this.editOpened = undefined;
		return result;
	}

	private execLine(line: string, stdin?: string): ExecResult {
		// A session cut by a power loss since the last line: ssh finds the connection dead when it sends this one.
		// (Back on already, the machine answers the old connection with a reset.) The line itself is lost.
		const cut = this.severed.length ? this.closeSevered() : undefined;
		if (cut) {
			const text = `client_loop: send disconnect: ${this.cluster.isPoweredOff(cut) ? 'Broken pipe' : 'Connection reset by peer'}\n`;
			this.session.status = SSH_FAILED;
			return { stdout: '', stderr: text, output: text, exitCode: SSH_FAILED };
		}
		if (this.container) return this.containerExec(line);
		if (this.chrooted) {
			const left = this.leaveChroot(line);
			if (left) return left;
		}
		this.kubectlInLine = 0;
		const reaped = this.reapJobs();
		const result = this.session.exec(line, stdin === undefined ? {} : { stdin });
		const out: ExecResult = { stdout: result.stdout, stderr: reaped + result.stderr, output: reaped + result.output, exitCode: result.exitCode };
		// The line took a machine of the session down (`reboot`): its sshd closed the connection on the way.
		const lost = this.closeSevered();
		if (lost) {
			const text = `Connection to ${lost} closed by remote host.\nConnection to ${lost} closed.\n`;
			out.stderr += text;
			out.output += text;
			out.exitCode = this.session.status = SSH_FAILED;
		}
		return out;
	}

	/** A machine went down: the reader's sessions on it, or through it, are dead. */
	hostWentDown(name: string): void {
		const stack = this.session.hostStack();
		if (stack.indexOf(name) > 0 && !this.severed.includes(name)) this.severed.push(name);
	}

	/** Closes the sessions from the outermost dead machine inward; returns that machine's name. */
	private closeSevered(): string | undefined {
		const stack = this.session.hostStack();
		const dead = stack.findIndex((name, i) => i > 0 && this.severed.includes(name));
		this.severed = [];
		if (dead < 0) return undefined;
		while (this.session.hostStack().length > dead) if (!this.session.popHost()) break;
		return stack[dead];
	}

	/** ssh to a powered-off machine: nothing answers ARP on the shared network, so there is no route to it. */
	private ssh(ctx: CommandContext, ssh: (ctx: CommandContext) => CommandResult): CommandResult {
		let i = 1;
		// The options ssh's own parsing skips (those that take a value skip it too).
		for (; i < ctx.argv.length && ctx.argv[i].startsWith('-'); i++) if (/^-[bcDEeFIiJLlmOoPpQRSWw]$/.test(ctx.argv[i])) i++;
		const dest = ctx.argv[i];
		const name = dest?.slice(dest.lastIndexOf('@') + 1);
		if (name && this.cluster.isPoweredOff(name)) {
			this.session.onSleep?.(NO_ROUTE_MS);
			return { stdout: '', stderr: `ssh: connect to host ${name} port 22: No route to host\n`, exitCode: SSH_FAILED };
		}
		return ssh(ctx);
	}

	writeFile(path: string, text: string, hostName?: string): void {
		const host = hostName ? this.cluster.hosts.get(hostName)?.shellHost : this.workstation;
		if (!host) throw new Error(`no host named ${hostName}`);
		const absolute = host.fs.resolve(path);
		host.fs.mkdir(absolute.slice(0, absolute.lastIndexOf('/')) || '/', true);
		host.fs.writeFile(absolute, text);
	}

	snapshot(): ShellState {
		const state: ShellState = { session: this.session.toJSON(), workstation: this.workstation.fs.toJSON(), kubectlRuns: this.kubectlRuns };
		if (this.severed.length) state.severed = [...this.severed];
		if (this.container) state.container = { ...this.container };
		if (this.chrooted) state.chrooted = { ...this.chrooted };
		if (this.jobs.list().length) state.jobs = this.jobs.toJSON();
		return state;
	}

	/**
	 * A line typed while a container's shell has the terminal: each command
	 * line runs in the container (pods/exec of `SHELL -c LINE`, as the
	 * kubeconfig's user), its output shown as the shell would show it; `exit
	 * [N]` (or `logout`) ends the session as kubectl exec ends, with `command
	 * terminated with exit code N` when N is not 0, and the rest of a pasted
	 * input goes back to the reader's own shell. If the exec itself fails (the
	 * pod is gone), the session ends with kubectl's error.
	 *
	 * Simplified: each line is a new process, so `cd` and variables do not
	 * carry over to the next line.
	 */
	/**
	 * `exit` in the container's own shell (`kubectl run -it`): the shell ends,
	 * so does the container's main process; kubectl prints its reattach hint
	 * when the Pod would restart it, and with --rm deletes what it created.
	 */
	private endAttach(session: ContainerSession & { host: string }, code: number, write: (text: string, err: boolean) => void): void {
		for (const node of this.cluster.hosts.values()) if (node.runtime.endAttachedShell(session.namespace, session.pod, session.container, code)) break;
		if (session.attach?.reattach !== undefined) {
			if (session.attach.reattach) write(`${session.attach.reattach}\n`, false);
		} else if (session.attach?.restartPolicy === 'Always') write(`Session ended, resume using 'kubectl attach ${session.pod} -c ${session.container} -n ${session.namespace} -i -t' command\n`, false);
		const host = this.session.getHost(session.host) ?? this.workstation;
		for (const o of session.attach?.remove ?? []) {
			const r = this.kubectl({ argv: ['kubectl', 'delete', o.resource, o.name, '-n', session.namespace, '--wait=false'], stdin: '', env: this.session.environment(), host, shell: this.session, tty: false });
			write(r.stdout, false);
		}
	}

	private containerExec(input: string): ExecResult {
		const session = this.container!;
		const out: ExecResult = { stdout: '', stderr: '', output: '', exitCode: 0 };
		const write = (text: string, err: boolean) => {
			if (err) out.stderr += text;
			else out.stdout += text;
			out.output += text;
		};
		const lines = String(input ?? '').replace(/\r\n?/g, '\n').split('\n');
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i].trim();
			if (!line || line.startsWith('#')) continue;
			const exit = /^(?:exit|logout)(?:\s+(\d+))?\s*$/.exec(line);
			if (exit) {
				this.container = undefined;
				const code = Number(exit[1] ?? 0) & 255;
				if (session.echoesExit) write('exit\n', false);
				if (session.attach) this.endAttach(session, code, write);
				else if (code) write(`command terminated with exit code ${code}\n`, true);
				out.exitCode = this.session.status = code;
				const rest = lines.slice(i + 1).join('\n');
				if (rest.trim()) {
					const more = this.exec(rest);
					out.stdout += more.stdout;
					out.stderr += more.stderr;
					out.output += more.output;
					out.exitCode = more.exitCode;
				}
				return out;
			}
			const chroot = session.hostRoot ? /^chroot\s+(\S+)(?:\s+(.*))?$/.exec(line) : null;
			if (chroot && session.hostRoot && chroot[1].replace(/\/+$/, '') === session.hostRoot.path.replace(/\/+$/, '')) {
				const entered = this.enterChroot(session, chroot[2] ?? '', lines.slice(i + 1).join('\n'), write);
				out.exitCode = entered.exitCode;
				return out;
			}
			const host = this.session.getHost(session.host) ?? this.workstation;
			const argv = ['kubectl', 'exec', '-n', session.namespace, session.pod, '-c', session.container, '--', session.shell, '-c', line];
			const result = this.kubectl({ argv, stdin: '', env: this.session.environment(), host, shell: this.session, tty: false });
			const terminated = /command terminated with exit code (\d+)\n$/.exec(result.stderr);
			if (result.exitCode !== 0 && !terminated) {
				// The exec could not run: the session is over.
				this.container = undefined;
				write(result.stdout, false);
				write(result.stderr, true);
				out.exitCode = this.session.status = result.exitCode;
				return out;
			}
			write(result.stdout, false);
			write(terminated ? result.stderr.slice(0, terminated.index) : result.stderr, true);
			out.exitCode = result.exitCode;
		}
		return out;
	}

	/**
	 * `chroot /host [COMMAND]` in a container that has the node's `/` mounted
	 * there (`kubectl debug node/NAME`). The containers' userland has no
	 * chroot of its own: what a reader uses it for is to work on the node as
	 * if logged in there, so the session moves to the node's own shell (its
	 * files, crictl, systemctl, journalctl...) until `exit` brings the
	 * container's shell back; with a COMMAND, that command runs on the node
	 * and the container's shell stays. The rest of a pasted input runs where
	 * the session now is.
	 */
	private enterChroot(session: ContainerSession & { host: string }, command: string, rest: string, write: (text: string, err: boolean) => void): { exitCode: number } {
		const node = session.hostRoot?.node ?? '';
		const shells = /^(?:\/(?:usr\/)?bin\/)?(?:sh|bash|dash)$/;
		if (command && !shells.test(command.trim())) {
			const r = this.session.runOn(node, command);
			write(r.stdout, false);
			write(r.stderr, true);
			return { exitCode: r.exitCode };
		}
		if (!this.session.pushHost(node)) {
			write(`chroot: failed to run command '/bin/bash': No such file or directory\n`, true);
			return { exitCode: 127 };
		}
		this.container = undefined;
		this.chrooted = session;
		try {
			this.session.chdir('/');
		} catch {
			// The node's / always exists.
		}
		if (!rest.trim()) return { exitCode: 0 };
		const more = this.exec(rest);
		write(more.stdout, false);
		write(more.stderr, true);
		return { exitCode: more.exitCode };
	}

	/** `exit` in the node's shell a chroot opened: back to the container's shell (bash echoes `exit`). */
	private leaveChroot(input: string): ExecResult | undefined {
		const lines = String(input ?? '').replace(/\r\n?/g, '\n').split('\n');
		const first = lines.findIndex((l) => l.trim() && !l.trim().startsWith('#'));
		if (first < 0 || !/^(?:exit|logout)(?:\s+\d+)?\s*$/.test(lines[first].trim())) {
			// Only a line that is all `exit` leaves; anything else runs on the node (an `exit` later in a paste is split off there).
			const at = lines.findIndex((l) => /^(?:exit|logout)(?:\s+\d+)?\s*$/.test(l.trim()));
			if (at <= 0) return undefined;
			const before = this.execLineOnNode(lines.slice(0, at).join('\n'));
			const after = this.exec(lines.slice(at).join('\n'));
			return { stdout: before.stdout + after.stdout, stderr: before.stderr + after.stderr, output: before.output + after.output, exitCode: after.exitCode };
		}
		const code = Number(/(\d+)/.exec(lines[first])?.[1] ?? 0) & 255;
		this.session.popHost();
		this.container = this.chrooted;
		this.chrooted = undefined;
		const text = 'exit\n';
		const out: ExecResult = { stdout: text, stderr: '', output: text, exitCode: code };
		this.session.status = code;
		const rest = lines.slice(first + 1).join('\n');
		if (rest.trim()) {
			const more = this.exec(rest);
			return { stdout: out.stdout + more.stdout, stderr: more.stderr, output: out.output + more.output, exitCode: more.exitCode };
		}
		return out;
	}

	/** Lines run by the node's shell while chrooted (what execLine does for the reader's own shell). */
	private execLineOnNode(input: string): ExecResult {
		const result = this.session.exec(input);
		return { stdout: result.stdout, stderr: result.stderr, output: result.output, exitCode: result.exitCode };
	}

	/** Runs kubectl against the API server's cache without a request (see Cluster.observe). */
	observe(line: string): ExecResult {
		const argv = line.trim().split(/\s+/);
		if (argv[0] !== 'kubectl') return { stdout: '', stderr: 'only kubectl can observe\n', output: 'only kubectl can observe\n', exitCode: 1 };
		const transport = { request: (_from: string, request: ApiRequest) => this.cluster.observe(request), stopWatch: () => {} };
		const env: KubectlEnvironment = {
			client: () => new ApiClient(transport, 'observer'),
			defaultNamespace: 'default',
			serverUrl: this.apiServerUrl,
			readFile: () => undefined,
			nowMs: () => this.cluster.kernel.nowMs,
			wallMs: () => this.cluster.kernel.wallMs(),
			waitFor: (done) => done(),
			watch: () => {},
			clientVersion: KUBERNETES_VERSION,
		};
		const result = runKubectl(argv.slice(1), '', env, COMMANDS);
		return { ...result, output: result.stdout + result.stderr };
	}

	/** Registers a command on every machine (kubectl, curl) or on some (etcdctl on the control plane). */
	register(name: string, handler: (ctx: CommandContext) => CommandResult, hosts?: string[]): void {
		if (!hosts) this.session.register(name, handler);
		else for (const h of hosts) this.cluster.hosts.get(h)?.shellHost.commands.set(name, handler);
	}

	/**
	 * The credentials in the kubeconfig kubectl would use on this machine,
	 * if any: a client certificate's identity, or a bearer token (`token:`,
	 * or `tokenFile:` read from this machine).
	 */
	private kubeconfigIdentity(ctx: CommandContext, explicit: string | undefined): KubeconfigIdentity | undefined {
		const fs = ctx.host.fs;
		const path = explicit ?? (ctx.env.KUBECONFIG || `${ctx.host.home}/.kube/config`);
		const file = fs.resolve(path);
		if (!fs.exists(file) || fs.isDir(file)) return undefined;
		const read = (p: string) => {
			const f = fs.resolve(p);
			return fs.exists(f) && !fs.isDir(f) ? fs.readFile(f) : undefined;
		};
		try {
			const config = parseYaml(fs.readFile(file)) as {
				'current-context'?: string;
				contexts?: Array<{ name: string; context: { user?: string; namespace?: string } }>;
				users?: Array<{ name: string; user: { 'client-certificate-data'?: string; 'client-certificate'?: string; token?: string; tokenFile?: string } }>;
			};
			// --context and --user override the kubeconfig's choices, as clientcmd's overrides do.
			const contextName = globalFlag(ctx.argv, 'context') || config['current-context'];
			const context = config.contexts?.find((c) => c.name === contextName);
			if (contextName && globalFlag(ctx.argv, 'context') && !context) return { path, clientError: `Error in configuration: context was not found for specified context: ${contextName}` };
			// `create rolebinding --user`, `set subject --user` and `config set-context --user` are those commands' own flags, not the override.
			const ownUserFlag = ctx.argv.includes('config') || ctx.argv.some((a) => a === 'rolebinding' || a === 'clusterrolebinding') || (ctx.argv.includes('set') && ctx.argv.includes('subject'));
			const user = config.users?.find((u) => u.name === ((!ownUserFlag && globalFlag(ctx.argv, 'user')) || context?.context.user));
			const certificateData = user?.user['client-certificate-data'];
			const certificateFile = user?.user['client-certificate'];
			const pem = certificateData ? decodeBase64(String(certificateData)) : certificateFile ? read(String(certificateFile)) : undefined;
			if (certificateFile && pem === undefined) return { path, clientError: `Error in configuration: unable to read client-cert ${certificateFile} for ${user?.name} due to open ${certificateFile}: no such file or directory` };
			const certificate = pem ? parseCertificate(pem) : undefined;
			if (pem !== undefined && !certificate) return { path, clientError: 'error: tls: failed to find any PEM data in certificate input' };
			// The current context's namespace is kubectl's default (`kubectl config set-context --current --namespace=...`).
			const namespace = context?.context.namespace ? { namespace: String(context.context.namespace) } : {};
			if (certificate) {
				const identity = { user: certificate.subject.commonName, groups: certificate.subject.organizations, path, ...namespace };
				// The API server's TLS handshake refuses a client certificate outside its validity, judged by the server's clock.
				const expired = x509ValidityError(certificate, this.cluster.kernel.wallMsOn(this.cluster.transport.serverMachine));
				return expired ? { ...identity, expired } : identity;
			}
			// A user with a token (client-go: `token` wins over `tokenFile`, and --token over both). With a client
			// certificate the token is sent too, but the API server's x509 authenticator answers first.
			const tokenFile = user?.user.tokenFile ? fs.resolve(String(user.user.tokenFile)) : undefined;
			const token = globalFlag(ctx.argv, 'token') || (user?.user.token ? String(user.user.token) : tokenFile && fs.exists(tokenFile) && !fs.isDir(tokenFile) ? fs.readFile(tokenFile).trim() : undefined);
			// No credentials at all: requests go out unauthenticated, and the API server treats them as system:anonymous.
			return token ? { token, path, ...namespace } : { user: 'system:anonymous', groups: ['system:unauthenticated'], anonymous: true, path, ...namespace };
		} catch {
			return undefined;
		}
	}

	/**
	 * Who kubectl proxy's requests are from: the workstation kubeconfig's
	 * user (a bearer token is checked by the API server), or undefined when
	 * there is no kubeconfig to read.
	 */
	proxyIdentity(): { user: { username: string; groups: string[] } } | { token: string } | undefined {
		const ctx: CommandContext = { argv: ['kubectl'], stdin: '', env: this.session.environment(), host: this.workstation, shell: this.session };
		const identity = this.kubeconfigIdentity(ctx, undefined);
		if (!identity || identity.clientError !== undefined) return undefined;
		if (identity.token === undefined) return { user: userInfoOf(identity) };
		return { token: identity.token };
	}

	/** `kubectl get --raw PATH`: dial as kubectl would, then the HTTP server answers with the kubeconfig's credentials. */
	private rawGet(processId: string, identity: { user: string; groups: string[]; token?: undefined; anonymous?: boolean } | { token: string }, path: string, method = 'GET', body?: string): CallResult<string> {
		const failure = this.cluster.transport.dial(processId);
		if (failure) return { ok: false, code: 0, reason: failure.failure, message: failure.message, transport: true };
		const auth = identity.token === undefined ? { user: userInfoOf(identity) } : { token: identity.token };
		let response = this.rawApi!(path, auth, kubectlUserAgent(KUBERNETES_VERSION), method, body);
		// Go's http.Client follows a GET's redirects (up to 10), as from a proxy's bare root path to its `/`.
		for (let hops = 0, to = redirectLocation(response); method === 'GET' && to !== undefined && hops < 10; hops++, to = redirectLocation(response)) {
			response = this.rawApi!(to, auth, kubectlUserAgent(KUBERNETES_VERSION), method, body);
		}
		if (response.status >= 200 && response.status < 300) return { ok: true, code: response.status, object: response.body };
		return { ok: false, code: response.status, ...statusOf(response.status, response.body) };
	}

	private kubectl(ctx: CommandContext): CommandResult {
		// An explicit --kubeconfig must exist (clientcmd's loader stats it); $KUBECONFIG and ~/.kube/config may be missing.
		const explicit = globalFlag(ctx.argv, 'kubeconfig');
		if (explicit !== undefined && !ctx.host.fs.exists(ctx.host.fs.resolve(explicit))) {
			return { stdout: '', stderr: `error: stat ${explicit}: no such file or directory\n`, exitCode: 1 };
		}
		const found = this.kubeconfigIdentity(ctx, explicit);
		// A kubeconfig kubectl cannot use stops every command that would build a client; `kubectl config` only edits the file.
		if (found?.clientError !== undefined && !isConfigCommand(ctx.argv)) return { stdout: '', stderr: `${found.clientError}\n`, exitCode: 1 };
		const identity = found?.clientError !== undefined ? { user: 'system:anonymous', groups: ['system:unauthenticated'], anonymous: true, path: found.path } : found;
		if (!identity) {
			// No kubeconfig: kubectl falls back to an insecure local port nothing listens on.
			return { stdout: '', stderr: 'E1130 08:00:00.000000    2041 memcache.go:265] "Unhandled Error" err="couldn\'t get current server API group list: Get \\"http://localhost:8080/api?timeout=32s\\": dial tcp 127.0.0.1:8080: connect: connection refused"\nThe connection to the server localhost:8080 was refused - did you specify the right host or port?\n', exitCode: 1 };
		}
		const cluster = this.cluster;
		const processId = 'kubectl';
		const node = ctx.host.kind === 'node' ? ctx.host.name : undefined;
		// A certificate authenticates through the transport; a token is sent along and the API server checks it.
		const enroll = (id: string, on?: string) => {
			cluster.transport.place(id, on);
			if (identity.expired) {
				cluster.transport.presentRejectedCertificate(id, identity.expired, on);
			} else if (identity.anonymous) {
				cluster.transport.forget(id);
				cluster.transport.setBearerToken(id, undefined, on);
			} else if (identity.token === undefined) {
				cluster.transport.forget(id);
				cluster.transport.enroll(id, userInfoOf(identity), on);
			} else {
				cluster.transport.forget(id);
				cluster.transport.setBearerToken(id, identity.token, on);
			}
		};
		if (this.kubectlInLine++ > 0) cluster.kernel.runUntil(cluster.kernel.nowMs + KUBECTL_RUN_MS);
		enroll(processId, node);
		this.kubectlRuns++;
		const fsOf = ctx.host.fs;
		const env: KubectlEnvironment = {
			client: (impersonate) => new ApiClient(cluster.transport, processId, impersonate ? { user: impersonate.user, groups: impersonate.groups } : undefined),
			defaultNamespace: identity.namespace ?? 'default',
			serverUrl: this.apiServerUrl,
			readFile: (path) => {
				const resolved = fsOf.resolve(path);
				return fsOf.exists(resolved) && !fsOf.isDir(resolved) ? fsOf.readFile(resolved) : undefined;
			},
			listDir: (path) => {
				const resolved = fsOf.resolve(path);
				return fsOf.isDir(resolved) ? fsOf.list(resolved) : undefined;
			},
			// The reader's editor (the one the sandbox opens in its terminal), whose saves arrive with the line (ClusterInput exec `edit`).
			editor: (_path, text) => {
				this.editorOpened.push(text);
				return this.edits.shift() ?? text;
			},
			// Only the line's first edit began when the reader opened it; any later one opens now.
			editOpened: () => {
				const opened = this.editOpened;
				this.editOpened = undefined;
				return opened;
			},
			writeFile: (path, text) => {
				const resolved = fsOf.resolve(path);
				fsOf.mkdir(resolved.slice(0, resolved.lastIndexOf('/')) || '/', true);
				fsOf.writeFile(resolved, text);
			},
			localFiles: localFilesOf(fsOf),
			editSequence: () => this.kubectlRuns * 7919 + 104_729,
			nowMs: () => cluster.kernel.nowMs,
			wallMs: () => cluster.kernel.wallMs(),
			waitFor: (done, timeoutMs) => {
				const end = cluster.kernel.nowMs + timeoutMs;
				while (!done()) {
					if (cluster.kernel.nowMs >= end) return false;
					cluster.kernel.runUntil(Math.min(end, cluster.kernel.nowMs + WAIT_STEP_MS));
				}
				return true;
			},
			watch: (ref: ResourceRef, request, onEvent, stop, timeoutMs) => {
				enroll(this.sink.id);
				const client = new ApiClient(cluster.transport, this.sink.id);
				const started = client.watch(ref, request.namespace, request.query);
				if (!started.ok) return;
				this.sink.state.watchId = started.object.watchId;
				this.sink.onEvent = onEvent;
				const end = cluster.kernel.nowMs + timeoutMs;
				while (!stop() && cluster.kernel.nowMs < end) cluster.kernel.runUntil(Math.min(end, cluster.kernel.nowMs + WAIT_STEP_MS));
				client.stopWatch(started.object.watchId);
				this.sink.state.watchId = null;
				this.sink.onEvent = () => {};
			},
			clientVersion: KUBERNETES_VERSION,
			rawGet: this.rawApi ? (path) => this.rawGet(processId, identity, path) : undefined,
			rawWrite: this.rawApi ? (method, path, body) => this.rawGet(processId, identity, path, method, body) : undefined,
			tty: ctx.tty === true,
			openContainerSession: ctx.tty === true ? (session) => (this.container = { ...session, host: ctx.host.name }) : undefined,
			interruptAttached:
				ctx.tty === true
					? (namespace, pod, container) => [...this.cluster.hosts.values()].some((node) => node.runtime.endAttachedShell(namespace, pod, container, SIGINT_STATUS))
					: undefined,
			kubeconfigPath: identity.path,
			bearerToken: identity.token !== undefined,
			pid: SHELL_PID + this.kubectlRuns,
			complete: this.completer,
			workingDir: fsOf.cwd,
		};
		let started: WorkstationJob | undefined;
		if (ctx.host === this.workstation) {
			env.listener = {
				hostIp: this.workstationIp,
				inUse: (address, port) => this.jobs.inUse(address, port),
				freePort: () => {
					for (;;) {
						const port = this.freePort();
						if (!this.jobs.list().some((j) => j.ports.some((p) => p.local === port))) return port;
					}
				},
				listen: (job) => {
					started = this.jobs.start({ ...job, command: `${ctx.argv.join(' ')} &`, pid: env.pid! });
				},
			};
		}
		const result = runKubectl(ctx.argv.slice(1), ctx.stdin, env, COMMANDS);
		if (!started) return result;
		// bash announces a background job before anything it writes; a line run in the foreground would hold the terminal
		// until Ctrl-C, which one terminal cannot offer, so the sandbox makes it a job and says so.
		if (ctx.background) {
			const announce = `[${started.job}] ${started.pid}\n`;
			const chunks = result.chunks ?? [{ fd: 1 as const, text: result.stdout }, { fd: 2 as const, text: result.stderr }];
			return { ...result, stderr: announce + result.stderr, chunks: [{ fd: 2, text: announce }, ...chunks.filter((c) => c.text)] };
		}
		return { ...result, stderr: `${result.stderr}${foregroundJobNote(started)}` };
	}

	/**
	 * Jobs whose work ended since the last line: a port-forward whose Pod is
	 * gone (deleted, or replaced by another Pod of the same name) stops with
	 * client-go's "lost connection to pod", and bash reports the job done.
	 */
	private reapJobs(): string {
		let said = '';
		for (const job of [...this.jobs.list()]) {
			if (job.kind !== 'port-forward' || !job.pod) continue;
			const pod = this.cluster.get('pods', job.pod.namespace, job.pod.name) as { metadata: { uid?: string }; status?: { phase?: string } } | undefined;
			if (pod && pod.metadata.uid === job.pod.uid && pod.status?.phase === 'Running') continue;
			said += 'error: lost connection to pod\n' + this.jobs.end(job, 'Exit 1');
		}
		return said;
	}

	/** `jobs [-l]`: the workstation's jobs. */
	private jobsCommand(ctx: CommandContext): CommandResult {
		const flags = ctx.argv.slice(1);
		const bad = flags.find((f) => f !== '-l');
		if (bad) return { stdout: '', stderr: bad.startsWith('-') ? `bash: jobs: ${bad}: invalid option\njobs: usage: jobs [-lnprs] [jobspec ...] or jobs -x command [args]\n` : `bash: jobs: ${bad}: no such job\n`, exitCode: bad.startsWith('-') ? 2 : 1 };
		return { stdout: this.jobs.table(flags.includes('-l')), stderr: '', exitCode: 0 };
	}

	/** `kill [-SIGNAL] %N|PID...` for the workstation's jobs (the shell's other processes are not modelled). */
	private killCommand(ctx: CommandContext): CommandResult {
		const args = ctx.argv.slice(1).filter((a) => !/^-(\d+|[A-Z]+|SIG[A-Z]+|s)$/.test(a));
		if (!args.length) return { stdout: '', stderr: 'kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n', exitCode: 2 };
		let stderr = '';
		let stdout = '';
		let exitCode = 0;
		for (const spec of args) {
			const job = this.jobs.find(spec);
			if (!job) {
				stderr += spec.startsWith('%') ? `bash: kill: ${spec}: no such job\n` : /^\d+$/.test(spec) ? `bash: kill: (${spec}) - No such process\n` : `bash: kill: ${spec}: arguments must be process or job IDs\n`;
				exitCode = 1;
				continue;
			}
			// bash reports the job at the next prompt, which is right after this line here.
			stdout += this.jobs.end(job, 'Terminated');
		}
		return { stdout, stderr, exitCode };
	}
}

/** A reason-less Status message, or the body itself when it is no Status (`404 page not found`). */
function statusOf(code: number, body: string): { reason: string; message: string } {
	try {
		const status = JSON.parse(body) as { kind?: string; reason?: string; message?: string };
		if (status.kind === 'Status') return { reason: status.reason ?? '', message: status.message ?? '' };
	} catch {
		// not JSON
	}
	return genericServerResponse(code, body.trim());
}

/**
 * An error answer that is not a Status (a kubelet's `404 page not found`
 * through the node proxy): client-go words it by its code alone, keeping the
 * body only where the code carries no meaning of its own. Mirrors
 * k8s.io/apimachinery/pkg/api/errors NewGenericServerResponse.
 */
function genericServerResponse(code: number, body: string): { reason: string; message: string } {
	const known: Record<number, [string, string]> = {
		400: ['BadRequest', 'the server rejected our request for an unknown reason'],
		401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
		404: ['NotFound', 'the server could not find the requested resource'],
		405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
		409: ['Conflict', 'the server reported a conflict'],
		429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
		503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
		504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
	};
	const hit = known[code];
	if (hit) return { reason: hit[0], message: hit[1] };
	if (code === 403) return { reason: 'Forbidden', message: body };
	return { reason: 'InternalError', message: `an error on the server (${JSON.stringify(body)}) has prevented the request from succeeding` };
}

/** The path given with `--kubeconfig=PATH` or `--kubeconfig PATH` (flags stop at `--`). */
/**
 * Who a kubeconfig says kubectl is: a client certificate's subject (with,
 * when the certificate is outside its validity, why the API server will
 * refuse it), or a bearer token; or a --context it does not have.
 */
type KubeconfigIdentity =
	| (
			| { user: string; groups: string[]; token?: undefined; expired?: string; anonymous?: boolean; clientError?: undefined }
			| { token: string; user?: undefined; expired?: undefined; anonymous?: undefined; clientError?: undefined }
	  ) & { path: string; namespace?: string }
	| { clientError: string; path: string; token?: undefined; expired?: undefined; anonymous?: undefined };

/** The user a kubeconfig's certificate (or its absence) makes: every authenticated user is also in system:authenticated. */
function userInfoOf(identity: { user: string; groups: string[]; anonymous?: boolean }): { username: string; groups: string[] } {
	return { username: identity.user, groups: identity.anonymous ? identity.groups : [...identity.groups, 'system:authenticated'] };
}

/** Whether kubectl's command (its first positional argument) is `config`. */
function isConfigCommand(argv: readonly string[]): boolean {
	for (let i = 1; i < argv.length; i++) {
		if (KUBECTL_VALUE_FLAGS.has(argv[i])) i++;
		else if (!argv[i].startsWith('-')) return argv[i] === 'config';
	}
	return false;
}

/** A global kubectl flag's value (`--context=x` or `--context x`), as clientcmd's overrides read it. */
function globalFlag(argv: readonly string[], name: string): string | undefined {
	for (let i = 1; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--') return undefined;
		if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
		if (a === `--${name}`) return argv[i + 1];
	}
	return undefined;
}

/** What the sandbox says after a port-forward or proxy typed without `&`: it keeps running, as a job. */
function foregroundJobNote(job: WorkstationJob): string {
	return `# ${job.kind === 'proxy' ? 'kubectl proxy' : 'kubectl port-forward'} keeps running as job [${job.job}] (this sandbox has one terminal): 'jobs' lists it, 'kill %${job.job}' stops it.\n`;
}
