/**
 * The jobs that keep running on the reader's workstation after their
 * command line: `kubectl port-forward` and `kubectl proxy`, which listen on
 * local ports until they are stopped. A real terminal would be held by them
 * (or they run with `&` in bash's job table); the sandbox has one terminal,
 * so they always become jobs: `jobs` lists them, `kill %N` (or their pid)
 * stops them, and a port-forward ends by itself when its Pod goes away, as
 * client-go's forwarder ends with "lost connection to pod" once the stream
 * to the kubelet closes.
 *
 * bash's job numbers (the lowest above every live job, so 1 again once all
 * are gone), its `+`/`-` marks for the current and previous job, and its
 * status lines (`[1]+  Running                 kubectl proxy &`) follow
 * bash's jobs.c.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/portforward/portforward.go (the
 * listeners, one per address and port, and why a forward ends),
 * staging/src/k8s.io/kubectl/pkg/proxy/proxy_server.go (what kubectl proxy
 * serves), gnu/bash jobs.c (the job table and its status lines).
 */

/** One local port a job listens on, and where it leads. */
export interface ForwardedPort {
	local: number;
	/** The Pod's port (port-forward); 0 for kubectl proxy, which serves the API. */
	remote: number;
}

export interface WorkstationJob {
	/** bash's job number (`%1`). */
	job: number;
	pid: number;
	/** The command line as typed, with ` &` as bash shows a background job. */
	command: string;
	kind: 'port-forward' | 'proxy';
	/** The addresses it bound: `127.0.0.1`, `::1`, `0.0.0.0`... */
	addresses: string[];
	ports: ForwardedPort[];
	/** port-forward: the Pod it forwards to (by UID too: a new Pod of the same name is another Pod). */
	pod?: { namespace: string; name: string; uid: string };
	/** kubectl proxy: the path prefix it serves the API under (`--api-prefix`, default `/`). */
	apiPrefix?: string;
}

export interface ListenRequest {
	kind: WorkstationJob['kind'];
	command: string;
	pid: number;
	addresses: string[];
	ports: ForwardedPort[];
	pod?: WorkstationJob['pod'];
	apiPrefix?: string;
}

/** Whether an address a job bound accepts a connection made to `ip` (a wildcard bind accepts every local address). */
function accepts(bound: string, ip: string): boolean {
	if (bound === '0.0.0.0') return !ip.includes(':');
	if (bound === '::') return true;
	return bound === ip;
}

const STATUS_WIDTH = 24;

export class WorkstationJobs {
	private jobs: WorkstationJob[];

	constructor(restore?: WorkstationJob[]) {
		this.jobs = (restore ?? []).map((j) => structuredClone(j));
	}

	toJSON(): WorkstationJob[] {
		return this.jobs.map((j) => structuredClone(j));
	}

	list(): readonly WorkstationJob[] {
		return this.jobs;
	}

	/** The job listening on `ip:port`, if any. */
	listening(ip: string, port: number): WorkstationJob | undefined {
		return this.jobs.find((j) => j.ports.some((p) => p.local === port) && j.addresses.some((a) => accepts(a, ip)));
	}

	/** Which of `addresses` already have `port` taken by a job (bind: address already in use). */
	inUse(address: string, port: number): boolean {
		return this.jobs.some((j) => j.ports.some((p) => p.local === port) && j.addresses.some((a) => a === address || a === '0.0.0.0' || address === '0.0.0.0'));
	}

	/** Starts a job; returns its number. */
	start(request: ListenRequest): WorkstationJob {
		const job = Math.max(0, ...this.jobs.map((j) => j.job)) + 1;
		const started: WorkstationJob = { job, ...structuredClone(request) };
		this.jobs.push(started);
		return started;
	}

	/**
	 * `%N`, `%+`/`%%` (the current job), `%-` (the previous one), or a pid:
	 * the job it names, or undefined.
	 */
	find(spec: string): WorkstationJob | undefined {
		if (spec === '%+' || spec === '%%' || spec === '%') return this.jobs[this.jobs.length - 1];
		if (spec === '%-') return this.jobs[this.jobs.length - 2];
		if (/^%\d+$/.test(spec)) return this.jobs.find((j) => j.job === Number(spec.slice(1)));
		if (/^\d+$/.test(spec)) return this.jobs.find((j) => j.pid === Number(spec));
		return undefined;
	}

	/** Ends a job (it was killed or exited); returns bash's notice line for it. */
	end(job: WorkstationJob, status: 'Terminated' | `Exit ${number}`): string {
		const line = this.statusLine(job, status);
		this.jobs = this.jobs.filter((j) => j !== job);
		return line;
	}

	/** `jobs`: one line per job, oldest first. */
	table(withPids = false): string {
		return this.jobs.map((j) => this.statusLine(j, 'Running', withPids)).join('');
	}

	/** `[1]+  Running                 kubectl proxy &` (bash pads the status to 24 columns; `-l` adds the pid). */
	private statusLine(job: WorkstationJob, status: string, withPid = false): string {
		const i = this.jobs.indexOf(job);
		const mark = i === this.jobs.length - 1 ? '+' : i === this.jobs.length - 2 ? '-' : ' ';
		const pid = withPid ? `${job.pid} ` : ' ';
		const command = status === 'Running' ? job.command : job.command.replace(/\s*&$/, '');
		return `[${job.job}]${mark} ${pid}${status.padEnd(STATUS_WIDTH)}${command}\n`;
	}
}
