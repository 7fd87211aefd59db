import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import { world, type World } from './testdata/env.ts';

const running = (started: string) => ({
	phase: 'Running',
	conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: started }],
	containerStatuses: [{ name: 'web', ready: true, restartCount: 0, image: 'nginx', imageID: '', state: { running: { startedAt: started } } }],
});

function withPods(): { w: World; requests: ApiRequest[] } {
	const w = world();
	const requests: ApiRequest[] = [];
	const logs: Record<string, string> = { 'web-1/web': 'one\ntwo\nthree\n', 'web-2/web': 'other\n', 'multi/web': 'main\n', 'multi/sidecar': 'side\n' };
	w.nodeProxy.handler = (_node: string, request: ApiRequest): ApiResponse => {
		requests.push(request);
		const key = `${request.name}/${request.query?.container}`;
		if (request.subresource === 'log') {
			let text = logs[key] ?? '';
			if (request.query?.tailLines !== undefined) text = text.split('\n').filter(Boolean).slice(-request.query.tailLines).map((l) => `${l}\n`).join('');
			return { code: 200, body: text };
		}
		const command = request.query?.command ?? [];
		if (command[0] === 'false') return { code: 200, body: { kind: 'ExecResult', stdout: '', stderr: '', exitCode: 1 } };
		return { code: 200, body: { kind: 'ExecResult', stdout: `${command.join(' ')} in ${key}\n`, stderr: '', exitCode: 0 } };
	};
	const owner = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'rs', controller: true }];
	const pod = (name: string, containers: string[], started: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject => ({
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, labels: { app: 'web' }, ownerReferences: owner, ...extra },
		spec: { nodeName: 'node-1', containers: containers.map((c) => ({ name: c, image: 'nginx' })) },
		status: running(started),
	});
	w.create(pod('web-1', ['web'], '2026-11-30T08:00:10Z'), pod('web-2', ['web'], '2026-11-30T08:00:05Z'));
	w.create({ ...pod('multi', ['web', 'sidecar'], '2026-11-30T08:00:00Z'), metadata: { name: 'multi' } });
	w.kubectl('create deployment web --image=nginx');
	return { w, requests };
}

describe('kubectl logs', () => {
	it('prints a pod\'s log through the API server', () => {
		const { w, requests } = withPods();
		expect(w.kubectl('logs web-1')).toEqual({ stdout: 'one\ntwo\nthree\n', stderr: '', exitCode: 0 });
		expect(requests[0]).toMatchObject({ verb: 'get', resource: 'pods', subresource: 'log', name: 'web-1', query: { container: 'web' } });
	});

	it('passes --tail, --previous and --timestamps on', () => {
		const { w, requests } = withPods();
		expect(w.kubectl('logs web-1 --tail=1 -p --timestamps').stdout).toBe('three\n');
		expect(requests[0].query).toEqual({ container: 'web', tailLines: 1, previous: true, timestamps: true });
	});

	it('defaults to the first container of a multi-container pod, and says so', () => {
		const { w } = withPods();
		expect(w.kubectl('logs multi')).toEqual({ stdout: 'main\n', stderr: 'Defaulted container "web" out of: web, sidecar\n', exitCode: 0 });
		expect(w.kubectl('logs multi -c sidecar')).toEqual({ stdout: 'side\n', stderr: '', exitCode: 0 });
		expect(w.kubectl('logs multi sidecar').stdout).toBe('side\n');
	});

	it('picks the longest-ready pod of a workload and says how many it found', () => {
		const { w } = withPods();
		expect(w.kubectl('logs deploy/web')).toEqual({ stdout: 'other\n', stderr: 'Found 2 pods, using pod/web-2\n', exitCode: 0 });
	});

	it('shows the last 10 lines of each selected pod with -l', () => {
		const { w, requests } = withPods();
		expect(w.kubectl('logs -l app=web').stdout).toBe('one\ntwo\nthree\nother\n');
		expect(requests.map((r) => r.query?.tailLines)).toEqual([10, 10]);
	});

	it.each([
		['logs', "error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples\n"],
		['logs ghost', 'error: error from server (NotFound): pods "ghost" not found in namespace "default"\n'],
		['logs multi -c nope', 'error: container nope is not valid for pod multi out of: web, sidecar\n'],
		['logs multi sidecar -c web', 'error: only one of -c or an inline [CONTAINER] arg is allowed\n'],
		['logs web-1 --tail=-5', 'error: --tail must be greater than or equal to -1\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const { w } = withPods();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('follows the log with -f while the container runs, for a bounded time', () => {
		const { w } = withPods();
		let text = 'start\n';
		w.nodeProxy.handler = (_n, request) => (request.subresource === 'log' ? { code: 200, body: text } : undefined);
		w.at(1500, () => (text += 'later\n'));
		const start = w.harness.kernel.nowMs;
		expect(w.kubectl('logs web-1 -f')).toEqual({ stdout: 'start\nlater\n', stderr: '[sim-core/shell] still following after 30 s of virtual time: interrupted, as Ctrl-C would\n', exitCode: 130 });
		expect(w.harness.kernel.nowMs - start).toBe(30_000);
	});
});

describe('kubectl exec', () => {
	it('runs the command in the default container and prints its output', () => {
		const { w, requests } = withPods();
		expect(w.kubectl('exec web-1 -- ls -l /')).toEqual({ stdout: 'ls -l / in web-1/web\n', stderr: '', exitCode: 0 });
		expect(requests[0]).toMatchObject({ verb: 'create', subresource: 'exec', name: 'web-1', query: { container: 'web', command: ['ls', '-l', '/'], stdin: false, tty: false } });
	});

	it('with -it, says its input is not a terminal (SetupTTY), asks for no TTY and still runs the command', () => {
		const { w } = withPods();
		expect(w.kubectl('exec -it web-1 -- sh')).toEqual({ stdout: 'sh in web-1/web\n', stderr: 'Unable to use a TTY - input is not a terminal or the right kind of file\n', exitCode: 0 });
		expect(w.kubectl('exec -t web-1 -- sh').stderr).toBe('');
	});

	it('reports a non-zero exit as client-go does and exits with it', () => {
		const { w } = withPods();
		expect(w.kubectl('exec web-1 -- false')).toEqual({ stdout: '', stderr: 'command terminated with exit code 1\n', exitCode: 1 });
	});

	it('defaults the container with a notice, and honours -c', () => {
		const { w } = withPods();
		expect(w.kubectl('exec multi -- hostname')).toEqual({ stdout: 'hostname in multi/web\n', stderr: 'Defaulted container "web" out of: web, sidecar\n', exitCode: 0 });
		expect(w.kubectl('exec multi -c sidecar -- hostname').stdout).toBe('hostname in multi/sidecar\n');
	});

	it('execs into the most active pod of a deployment (ready the longest)', () => {
		const { w } = withPods();
		expect(w.kubectl('exec deploy/web -- id').stdout).toBe('id in web-2/web\n');
	});

	it.each([
		['exec web-1 ls', "error: exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead\nSee 'kubectl exec -h' for help and examples\n"],
		['exec web-1', 'error: you must specify at least one command for the container\n'],
		['exec -- ls', 'error: pod, type/name or --filename must be specified\n'],
		['exec ghost -- ls', 'Error from server (NotFound): pods "ghost" not found\n'],
		['exec multi -c nope -- ls', 'error: container nope is not valid for pod multi out of: web, sidecar\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const { w } = withPods();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('refuses a completed pod', () => {
		const { w } = withPods();
		w.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'done' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: 'Succeeded' } });
		expect(w.kubectl('exec done -- ls').stderr).toBe('error: cannot exec into a container in a completed pod; current phase is Succeeded\n');
	});

	it('prints what the kubelet reports as kubectl prints a stream error', () => {
		const { w } = withPods();
		w.nodeProxy.handler = () => ({ code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'InternalError', code: 500, message: 'Internal error occurred: error executing command in container: failed to exec in container: exec: "bash": executable file not found in $PATH: unknown' } });
		expect(w.kubectl('exec web-1 -- bash')).toEqual({ stdout: '', stderr: 'error: Internal error occurred: error executing command in container: failed to exec in container: exec: "bash": executable file not found in $PATH: unknown\n', exitCode: 1 });
	});

	it('shows the API server\'s proxy error when the kubelet cannot be reached', () => {
		const { w } = withPods();
		w.nodeProxy.handler = undefined;
		expect(w.kubectl('exec web-1 -- ls').stderr).toBe('Error from server: error dialing backend: dial tcp node-1:10250: connect: connection refused\n');
	});
});
