import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../golang/time.ts';
import { findImage, type CatalogImage } from './images.ts';
import { resolveArgv, type ContainerContext, type FileOverrides } from './behaviour.ts';
import { advanceProgram, createProgram, execSync, predictExit, requestStop, type ProgramHost, type ProgramState } from './program.ts';

const EPOCH = parseRfc3339('2026-11-30T08:00:00Z');

function setup(imageRef: string, command?: string[], args?: string[], env: Record<string, string> = {}, memoryLimitBytes?: number) {
	const image = findImage(imageRef) as CatalogImage;
	const argv = resolveArgv(image, command, args);
	const ctx: ContainerContext = {
		imageRef,
		hostname: 'demo',
		podName: 'demo',
		namespace: 'default',
		podIp: '10.244.1.7',
		nodeName: 'node-1',
		env: [{ name: 'PATH', value: '/bin' }, { name: 'HOSTNAME', value: 'demo' }, ...Object.entries(env).map(([name, value]) => ({ name, value }))],
		argv,
		memoryLimitBytes,
	};
	const files: FileOverrides = {};
	const lines: Array<{ atMs: number; stream: string; text: string }> = [];
	let program: ProgramState | undefined;
	const host: ProgramHost = {
		image,
		ctx,
		files,
		epochMs: EPOCH,
		write: (atMs, line) => lines.push({ atMs, ...line }),
		listening: (port, atMs) => !!program?.serving && program.serving.server.ports.some((p) => p.port === port) && atMs >= program.serving.sinceMs + program.serving.server.readyAfterMs,
	};
	const created = createProgram(image, argv, 0);
	if (created.ok) program = created.program;
	return { image, host, lines, created, program: () => program as ProgramState };
}

describe('what a container does, from its image and command', () => {
	it.each([
		// [image, command, args, expected exit code, expected exit time (ms), reason]
		['busybox:1.36', ['sh', '-c', 'echo hello; sleep 5'], undefined, 0, 5_000, 'Completed'],
		['busybox:1.36', ['sh', '-c', 'exit 1'], undefined, 1, 0, 'Error'],
		['busybox:1.36', ['false'], undefined, 1, 0, 'Error'],
		['busybox:1.36', ['sh', '-c', 'sleep 3; exit 1'], undefined, 1, 3_000, 'Error'],
		['busybox:1.36', undefined, undefined, 0, 0, 'Completed'],
		['ubuntu', undefined, undefined, 0, 0, 'Completed'],
		['python:3.12', undefined, undefined, 0, 0, 'Completed'],
		['busybox:1.36', ['sh', '-c', 'nosuchcmd'], undefined, 127, 0, 'Error'],
		['busybox:1.36', undefined, ['sleep', '2'], 0, 2_000, 'Completed'],
		['nginx:1.27', ['nginx'], undefined, 0, 0, 'Completed'],
		['postgres:16', undefined, undefined, 1, 0, 'Error'],
		['busybox:1.36', ['sh', '-c', 'for i in 1 2 3; do sleep 1; done; exit 4'], undefined, 4, 3_000, 'Error'],
		['busybox:1.36', ['sh', '-c', 'false && echo never; exit $?'], undefined, 1, 0, 'Error'],
		['busybox:1.36', ['sh', '-c', 'done'], undefined, 2, 0, 'Error'],
	] as const)('%s %j %j exits %d at %d ms (%s)', (image, command, args, code, atMs, reason) => {
		const s = setup(image, command ? [...command] : undefined, args ? [...args] : undefined);
		expect(s.created.ok).toBe(true);
		expect(predictExit(s.program(), s.host, 3_600_000).exit).toEqual({ code, atMs, reason });
	});

	it('prints what the script echoes, at the time it echoes it', () => {
		const s = setup('busybox:1.36', ['sh', '-c', 'i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done']);
		advanceProgram(s.program(), s.host, 2_500);
		expect(s.lines).toEqual([
			{ atMs: 0, stream: 'stdout', text: '0: Mon Nov 30 08:00:00 UTC 2026' },
			{ atMs: 1_000, stream: 'stdout', text: '1: Mon Nov 30 08:00:01 UTC 2026' },
			{ atMs: 2_000, stream: 'stdout', text: '2: Mon Nov 30 08:00:02 UTC 2026' },
		]);
		expect(predictExit(s.program(), s.host, 600_000)).toEqual({});
	});

	it('reports a command not found the way each shell words it', () => {
		const busybox = setup('busybox:1.36', ['sh', '-c', 'nosuchcmd']);
		advanceProgram(busybox.program(), busybox.host, 0);
		expect(busybox.lines.map((l) => l.text)).toEqual(['sh: nosuchcmd: not found']);
		const debian = setup('nginx:1.27', ['sh', '-c', 'nosuchcmd']);
		advanceProgram(debian.program(), debian.host, 0);
		expect(debian.lines.map((l) => l.text)).toEqual(['sh: 1: nosuchcmd: not found']);
	});

	it('cannot start a command the image does not have', () => {
		expect(setup('busybox:1.36', ['slep', '1']).created).toEqual({ ok: false, notFound: 'slep' });
		expect(setup('registry.k8s.io/kube-scheduler:v1.36.3', ['sh']).created).toEqual({ ok: false, notFound: 'sh' });
	});
});

describe('how the main process takes the stop signal', () => {
	it.each([
		// PID 1 without a handler: only SIGKILL at the end of the grace period ends it.
		['busybox:1.36', ['sleep', '3600'], 30_000, 137, 'Error'],
		['busybox:1.36', ['sh', '-c', 'while true; do sleep 1; done'], 30_000, 137, 'Error'],
		// A server started from a script without exec never receives the signal.
		['nginx:1.27', ['sh', '-c', "echo start; nginx -g 'daemon off;'"], 30_000, 137, 'Error'],
		// nginx as PID 1 handles SIGQUIT: finishes in-flight work and exits 0.
		['nginx:1.27', undefined, 100, 0, 'Completed'],
		['redis', undefined, 100, 0, 'Completed'],
		// trap + wait: the trap runs at once.
		['busybox:1.36', ['sh', '-c', "trap 'exit 0' TERM; sleep 3600 & wait"], 0, 0, 'Completed'],
	] as const)('%s %j stopped at 1 s with a 30 s grace exits after %d ms with %d', (image, command, afterMs, code, reason) => {
		const s = setup(image, command ? [...command] : undefined);
		advanceProgram(s.program(), s.host, 1_000);
		requestStop(s.program(), 1_000, 30_000);
		expect(predictExit(s.program(), s.host, 3_600_000).exit).toEqual({ code, atMs: 1_000 + afterMs, reason });
	});

	it('runs a trap only when the foreground sleep ends', () => {
		const s = setup('busybox:1.36', ['sh', '-c', "trap 'echo bye; exit 0' TERM; sleep 10"]);
		requestStop(s.program(), 2_000, 30_000);
		advanceProgram(s.program(), s.host, 60_000);
		expect(s.program().exited).toEqual({ code: 0, atMs: 10_000, reason: 'Completed' });
		expect(s.lines.map((l) => l.text)).toEqual(['bye']);
	});
});

describe('servers', () => {
	it('starts nginx through its entrypoint script, logging as it goes', () => {
		const s = setup('nginx:1.27');
		advanceProgram(s.program(), s.host, 1_000);
		expect(s.program().serving?.server.ports).toEqual([{ port: 80, protocol: 'http' }]);
		expect(s.lines[0].text).toBe('/docker-entrypoint.sh: scanning /docker-entrypoint.d/ for start-up scripts');
		expect(s.lines.some((l) => l.text.includes('nginx 1.27.5 starting'))).toBe(true);
	});

	it('starts postgres when it has a password, listening after its first-start initialization', () => {
		const s = setup('postgres:16', undefined, undefined, { POSTGRES_PASSWORD: 'secret' });
		advanceProgram(s.program(), s.host, 1_000);
		expect(s.host.listening(5432, 1_000)).toBe(false);
		expect(s.host.listening(5432, 3_000)).toBe(true);
		expect(execSync(s.host, ['pg_isready'], 3_000)).toEqual({ ok: true, exitCode: 0, stdout: '/var/run/postgresql:5432 - accepting connections\n', stderr: '' });
	});

	it('is OOM-killed when stress allocates past the memory limit', () => {
		const s = setup('polinux/stress', ['stress'], ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'], {}, 100 * 1024 * 1024);
		expect(predictExit(s.program(), s.host, 60_000).exit).toEqual({ code: 137, atMs: 1_000, reason: 'OOMKilled' });
		const fits = setup('polinux/stress', ['stress'], ['--vm', '1', '--vm-bytes', '150M', '--vm-hang', '1'], {}, 200 * 1024 * 1024);
		expect(predictExit(fits.program(), fits.host, 60_000)).toEqual({});
	});
});

describe('kubectl exec inside a container', () => {
	const s = setup('busybox:1.36', ['sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600']);
	advanceProgram(s.program(), s.host, 10_000);

	it.each([
		[['hostname'], 0, 'demo\n', ''],
		[['cat', '/etc/hostname'], 0, 'demo\n', ''],
		[['cat', '/tmp/healthy'], 0, '', ''],
		[['echo', 'hi', 'there'], 0, 'hi there\n', ''],
		[['printenv', 'HOSTNAME'], 0, 'demo\n', ''],
		[['env'], 0, 'PATH=/bin\nHOSTNAME=demo\n', ''],
		[['ls', '/tmp'], 0, 'healthy\n', ''],
		[['ls', '/missing'], 1, '', 'ls: /missing: No such file or directory\n'],
		[['sh', '-c', 'echo $HOSTNAME && exit 3'], 3, 'demo\n', ''],
		[['ps'], 0, 'PID   USER     TIME  COMMAND\n    1 root      0:00 sh -c touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600\n    7 root      0:00 ps\n', ''],
		[['date'], 0, 'Mon Nov 30 08:00:10 UTC 2026\n', ''],
	] as const)('%j exits %d', (argv, exitCode, stdout, stderr) => {
		expect(execSync(s.host, [...argv], 10_000)).toEqual({ ok: true, exitCode, stdout, stderr });
	});

	it('sees the file removed by the main process later', () => {
		advanceProgram(s.program(), s.host, 31_000);
		expect(execSync(s.host, ['cat', '/tmp/healthy'], 31_000)).toEqual({ ok: true, exitCode: 1, stdout: '', stderr: "cat: can't open '/tmp/healthy': No such file or directory\n" });
	});

	it('cannot run what the image lacks', () => {
		expect(execSync(s.host, ['bash'], 10_000)).toEqual({ ok: false, notFound: 'bash' });
		const nginx = setup('nginx:1.27');
		expect(execSync(nginx.host, ['ps'], 0)).toEqual({ ok: false, notFound: 'ps' });
		expect(execSync(nginx.host, ['nginx', '-v'], 0)).toEqual({ ok: true, exitCode: 0, stdout: '', stderr: 'nginx version: nginx/1.27.5\n' });
	});
});

describe('command substitution', () => {
	it('nests up to four levels and no deeper', () => {
		const s = setup('busybox:1.36');
		expect(execSync(s.host, ['sh', '-c', 'echo $(echo $(echo deep))'], 0)).toEqual({ ok: true, exitCode: 0, stdout: 'deep\n', stderr: '' });
		expect(execSync(s.host, ['sh', '-c', 'echo a$(echo $(echo $(echo $(echo $(echo x)))))b'], 0)).toEqual({ ok: true, exitCode: 0, stdout: 'ab\n', stderr: '' });
	});
});
