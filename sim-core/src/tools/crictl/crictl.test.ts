/**
 * crictl on a node with a real kubelet and containerd (../../testing/node-rig.ts: the
 * kubelet against a real etcd and kube-apiserver). Expected outputs are
 * written from cri-tools v1.36.0's formats: the table columns of
 * container.go / sandbox.go / image.go, `fmt.Println("Version: ", ...)`,
 * logrus's `LEVL[0000] message` lines, the `validate service connection`
 * wording of k8s.io/cri-client, urfave/cli's `No help topic` and
 * `Incorrect Usage` texts, and containerd 2.2's messages. IDs, digests and
 * sizes come from the runtime's records and the image catalogue, and are
 * laid out by the documented table rule (cells padded to the widest plus 3,
 * at least 20 columns).
 */
import { describe, expect, it } from 'vitest';
import { findImage, imageId, imageDigest } from '../../runtime/images.ts';
import { PULL_BYTES_PER_MS, PULL_OVERHEAD_MS } from '../../runtime/container-runtime.ts';
import { nodeRig, type NodeRig } from '../../testing/node-rig.ts';
import { crictlCommand, DEFAULT_CRICTL_YAML } from './index.ts';

const CONFIG = { '/etc/crictl.yaml': DEFAULT_CRICTL_YAML };

function setup(files: Record<string, string> = CONFIG): NodeRig {
	const r = nodeRig(files);
	r.host.commands.set('crictl', crictlCommand({ runtime: r.runtime, pulls: r.sink }));
	return r;
}

/** A node running one nginx pod `web`, five minutes after boot. */
function withWeb(files?: Record<string, string>): NodeRig {
	const r = setup(files);
	r.h.advance(1_000);
	r.createPod('web', { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] });
	r.h.advance(300_000);
	return r;
}

/** Cells padded as crictl's tabwriter pads them when every cell is at most 17 characters: 20 columns. */
const row20 = (...cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(20))).join('') + '\n';

const NGINX_ID = imageId(findImage('nginx:1.14.2')!);
const PAUSE_ID = imageId(findImage('registry.k8s.io/pause:3.10.2')!);
const CONTAINERD_DOWN = (endpoint: string, path: string, reason: string, api = 'runtime') =>
	`validate service connection: validate CRI v1 ${api} API for endpoint "${endpoint}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${path}: connect: ${reason}"`;
const fatal = (message: string) => `FATA[0000] ${message.padEnd(44)} \n`;

describe('crictl lists what containerd runs', () => {
	it('ps: one row per running container, IDs and the image ID cut to 13 characters', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		const result = r.shell.exec('crictl ps');
		expect(result.exitCode).toBe(0);
		expect(result.stderr).toBe('');
		// Created about 4.5 s after boot, listed at 5 min 1 s: go-units says "4 minutes".
		expect(result.stdout).toBe(
			row20('CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE') + row20(c.id.slice(0, 13), NGINX_ID.slice(7, 20), '4 minutes ago', 'Running', 'nginx', '0', c.sandboxId.slice(0, 13), 'web', 'default'),
		);
		expect(r.shell.exec('crictl ps -q').stdout).toBe(c.id + '\n');
		expect(r.shell.exec('crictl ps --no-trunc').stdout).toContain(c.id + '   ' + NGINX_ID + '   ');
	});

	it('pods: the sandbox, Ready, with the default runtime handler', () => {
		const r = withWeb();
		const [s] = Object.values(r.runtimeHost.sandboxes);
		expect(r.shell.exec('crictl pods').stdout).toBe(row20('POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME') + row20(s.id.slice(0, 13), '4 minutes ago', 'Ready', 'web', 'default', '0', '(default)'));
		expect(r.shell.exec('crictl pods --state notready -q').stdout).toBe('');
		expect(r.shell.exec('crictl pods --name ^we -q').stdout).toBe(s.id + '\n');
	});

	it('images: repository and tag split at the last colon, 13-character IDs, decimal sizes with 3 digits', () => {
		const r = withWeb();
		const nginxRepo = 'docker.io/library/nginx';
		// The IMAGE column is as wide as its longest cell plus 3.
		const pad = (s: string) => s.padEnd(nginxRepo.length + 3);
		expect(r.shell.exec('crictl images').stdout).toBe(
			`${pad('IMAGE')}${'TAG'.padEnd(20)}${'IMAGE ID'.padEnd(20)}SIZE\n` +
				`${pad(nginxRepo)}${'1.14.2'.padEnd(20)}${NGINX_ID.slice(7, 20).padEnd(20)}44.7MB\n` +
				`${pad('registry.k8s.io/pause')}${'3.10.2'.padEnd(20)}${PAUSE_ID.slice(7, 20).padEnd(20)}320kB\n`,
		);
		expect(r.shell.exec('crictl images -q').stdout).toBe(`${NGINX_ID}\n${PAUSE_ID}\n`);
	});

	it('ps -o json: the CRI Container message with the image ID the kubelet created it from', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		const json = JSON.parse(r.shell.exec('crictl ps -o json').stdout) as { containers: Array<Record<string, unknown>> };
		expect(Object.keys(json.containers[0])).toEqual(['id', 'podSandboxId', 'metadata', 'image', 'imageRef', 'state', 'createdAt', 'labels', 'annotations', 'imageId']);
		expect(json.containers[0]).toMatchObject({ id: c.id, podSandboxId: c.sandboxId, metadata: { name: 'nginx', attempt: 0 }, image: { image: NGINX_ID, userSpecifiedImage: 'nginx:1.14.2' }, state: 'CONTAINER_RUNNING', createdAt: `${r.h.kernel.epochMs + c.createdMs}000000` });
	});
});

describe('crictl inspect, logs and exec', () => {
	it('inspect: status and containerd info under sorted keys, by a short ID', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		const result = r.shell.exec(`crictl inspect ${c.id.slice(0, 13)}`);
		expect(result.exitCode).toBe(0);
		const json = JSON.parse(result.stdout) as { info: Record<string, unknown>; status: Record<string, unknown> };
		expect(Object.keys(json)).toEqual(['info', 'status']);
		const keys = Object.keys(json.status);
		expect(keys).toEqual([...keys].sort());
		expect(json.status).toMatchObject({
			id: c.id,
			state: 'CONTAINER_RUNNING',
			// container_status.go: the image's repo tag as the spec, its repo digest as imageRef.
			image: { image: 'docker.io/library/nginx:1.14.2' },
			imageRef: `docker.io/library/nginx@${imageDigest(findImage('nginx:1.14.2')!)}`,
			logPath: `/var/log/pods/default_web_${c.podUid}/nginx/0.log`,
			finishedAt: '0001-01-01T00:00:00Z',
			exitCode: 0,
		});
		expect(json.info).toMatchObject({ sandboxID: c.sandboxId, runtimeType: 'io.containerd.runc.v2', snapshotter: 'overlayfs' });
	});

	it('inspect lists the bind mounts the kubelet asked for, in volumeMounts order', () => {
		const r = setup();
		r.h.advance(1_000);
		r.createPod('cache', {
			volumes: [{ name: 'scratch', emptyDir: {} }, { name: 'logs', hostPath: { path: '/var/log/app', type: 'DirectoryOrCreate' } }],
			containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'], volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }, { name: 'logs', mountPath: '/logs', readOnly: true }] }],
		});
		r.h.advance(300_000);
		const [c] = Object.values(r.runtimeHost.containers);
		const json = JSON.parse(r.shell.exec(`crictl inspect ${c.id}`).stdout) as { status: { mounts: unknown[] } };
		const mount = (containerPath: string, hostPath: string, readonly: boolean) => ({ containerPath, gidMappings: [], hostPath, propagation: 'PROPAGATION_PRIVATE', readonly, recursiveReadOnly: false, selinuxRelabel: false, uidMappings: [] });
		expect(json.status.mounts).toEqual([mount('/scratch', `/var/lib/kubelet/pods/${c.podUid}/volumes/kubernetes.io~empty-dir/scratch`, false), mount('/logs', '/var/log/app', true)]);
	});

	it('inspect of an unknown ID: the CRI client logs the failed call, then crictl exits 1', () => {
		const r = withWeb();
		const result = r.shell.exec('crictl inspect nope');
		expect(result.exitCode).toBe(1);
		expect(result.stdout).toBe('');
		const lines = result.stderr.split('\n');
		expect(lines[0]).toMatch(/^E1130 08:05:01\.000000 {4}\d{4} remote_runtime\.go:569\] "ContainerStatus from runtime service failed" err="rpc error: code = NotFound desc = an error occurred when try to find container \\"nope\\": not found" containerID="nope"$/);
		expect(lines[1] + '\n').toBe(fatal('get the status of containers: get container status: rpc error: code = NotFound desc = an error occurred when try to find container "nope": not found'));
	});

	it('logs: the container log, --tail counts from the end, --previous needs an earlier attempt', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		const stdout = c.logs.filter((l) => l.stream === 'stdout').map((l) => l.text + '\n');
		expect(r.shell.exec(`crictl logs ${c.id}`).stdout).toBe(stdout.join(''));
		expect(r.shell.exec(`crictl logs --tail 2 ${c.id}`).output).toBe(c.logs.slice(-2).map((l) => l.text + '\n').join(''));
		const previous = r.shell.exec(`crictl logs -p ${c.id}`);
		expect(previous.stderr).toBe(fatal('previous terminated container nginx not found'));
		expect(previous.exitCode).toBe(1);
		// urfave/cli stops reading flags at the first argument: a flag after the ID makes two arguments, and crictl shows its help.
		expect(r.shell.exec(`crictl logs ${c.id} --tail 2`).stdout).toMatch(/^NAME:\n {3}crictl logs - Fetch the logs of a container\n/);
	});

	it('exec: runs the command in the container; a non-zero exit ends crictl with the streaming error', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		const version = r.shell.exec(`crictl exec ${c.id} nginx -v`);
		// nginx prints its version on stderr.
		expect(version).toMatchObject({ stdout: '', stderr: 'nginx version: nginx/1.14.2\n', exitCode: 0 });
		const failed = r.shell.exec(`crictl exec ${c.id.slice(0, 13)} false`);
		expect(failed.exitCode).toBe(1);
		expect(failed.stderr).toBe(fatal(`execing command in container ${c.id.slice(0, 13)}: command terminated with exit code 1`));
	});
});

describe('crictl changes what containerd runs', () => {
	it('pull waits in virtual time for containerd, then prints the image ID', () => {
		const r = setup();
		r.h.advance(1_000);
		const before = r.h.kernel.nowMs;
		const result = r.shell.exec('crictl pull busybox');
		const busybox = findImage('busybox')!;
		expect(result).toMatchObject({ stdout: `Image is up to date for ${imageId(busybox)}\n`, stderr: '', exitCode: 0 });
		// The documented pull model: a fixed cost plus size over throughput; crictl looks every 100 ms.
		const pullMs = PULL_OVERHEAD_MS + Math.round(busybox.sizeBytes / PULL_BYTES_PER_MS);
		expect(r.h.kernel.nowMs - before).toBeGreaterThanOrEqual(pullMs);
		expect(r.h.kernel.nowMs - before).toBeLessThan(pullMs + 100);
		expect(r.shell.exec('crictl rmi busybox').stdout).toBe('Deleted: docker.io/library/busybox:latest\n');
		expect(r.shell.exec('crictl rmi busybox').stderr).toBe(fatal('no such image busybox'));
	});

	it('pull of a repository the registry mirror does not carry: its 404, as containerd words it', () => {
		const r = setup();
		const result = r.shell.exec('crictl pull nginxx');
		const ref = 'docker.io/library/nginxx:latest';
		const error = `rpc error: code = NotFound desc = failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
		expect(result.exitCode).toBe(1);
		expect(result.stderr).toContain(`remote_image.go:250] "PullImage from image service failed" err=${JSON.stringify(error)} image="nginxx"\n`);
		expect(result.stderr.endsWith(fatal(`pulling image: ${error}`))).toBe(true);
	});

	it('stop kills the container at once (timeout 0), and the kubelet starts attempt 1', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		expect(r.shell.exec(`crictl stop ${c.id.slice(0, 13)}`).stdout).toBe(c.id.slice(0, 13) + '\n');
		expect(r.runtimeHost.containers[c.id].state).toBe('CONTAINER_EXITED');
		r.h.advance(30_000);
		const running = Object.values(r.runtimeHost.containers).filter((x) => x.state === 'CONTAINER_RUNNING');
		expect(running.map((x) => [x.name, x.attempt])).toEqual([['nginx', 1]]);
		expect(r.shell.exec('crictl ps').stdout.split('\n')[1]).toContain(row20('nginx', '1').trimEnd());
	});

	it('rm refuses a running container unless forced; stop of an unknown ID succeeds as containerd makes it idempotent', () => {
		const r = withWeb();
		const [c] = Object.values(r.runtimeHost.containers);
		const refused = r.shell.exec(`crictl rm ${c.id}`);
		expect(refused).toMatchObject({ stdout: '', exitCode: 1 });
		expect(refused.stderr).toBe(fatal(`container "${c.id}" is running, please stop it first`));
		expect(r.shell.exec('crictl stop nope')).toMatchObject({ stdout: 'nope\n', exitCode: 0 });
		// -f stops (printing the ID) and then removes (printing it again).
		expect(r.shell.exec(`crictl rm -f ${c.id}`).stdout).toBe(`${c.id}\n${c.id}\n`);
		expect(r.runtimeHost.containers[c.id]).toBeUndefined();
	});
});

describe('crictl finds its runtime', () => {
	it('prints the runtime version with Println spacing', () => {
		const r = setup();
		expect(r.shell.exec('crictl version').stdout).toBe('Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v2.2.1\nRuntimeApiVersion:  v1\n');
	});

	it('without /etc/crictl.yaml warns, then tries the default endpoints for the runtime and the image service', () => {
		const r = withWeb({});
		const result = r.shell.exec('crictl ps -q');
		expect(result.exitCode).toBe(0);
		const endpoints = '[unix:///run/containerd/containerd.sock unix:///run/crio/crio.sock unix:///var/run/cri-dockerd.sock]';
		expect(result.stderr).toBe(
			`WARN[0000] Config "/etc/crictl.yaml" does not exist, trying next: "/usr/bin/crictl.yaml" \n` +
				`WARN[0000] runtime connect using default endpoints: ${endpoints}. As the default settings are now deprecated, you should set the endpoint instead. \n` +
				`WARN[0000] Image connect using default endpoints: ${endpoints}. As the default settings are now deprecated, you should set the endpoint instead. \n`,
		);
	});

	it('with containerd stopped, fails to validate the connection', () => {
		const r = withWeb();
		r.h.kernel.stop(r.runtime.id);
		const result = r.shell.exec('crictl ps');
		expect(result).toMatchObject({ stdout: '', exitCode: 1 });
		expect(result.stderr).toBe(fatal(CONTAINERD_DOWN('unix:///run/containerd/containerd.sock', '/run/containerd/containerd.sock', 'connection refused')));
	});

	it('with containerd stopped and no config, logs each default endpoint, then fails on the last', () => {
		const r = withWeb({});
		r.h.kernel.stop(r.runtime.id);
		const lines = r.shell.exec('crictl images').stderr.split('\n');
		expect(lines.slice(2, 6)).toEqual([
			`ERRO[0000] ${CONTAINERD_DOWN('unix:///run/containerd/containerd.sock', '/run/containerd/containerd.sock', 'connection refused', 'image')} `,
			`ERRO[0000] ${CONTAINERD_DOWN('unix:///run/crio/crio.sock', '/run/crio/crio.sock', 'no such file or directory', 'image')} `,
			`ERRO[0000] ${CONTAINERD_DOWN('unix:///var/run/cri-dockerd.sock', '/var/run/cri-dockerd.sock', 'no such file or directory', 'image')} `,
			`FATA[0000] ${CONTAINERD_DOWN('unix:///var/run/cri-dockerd.sock', '/var/run/cri-dockerd.sock', 'no such file or directory', 'image')} `,
		]);
	});

	it('--runtime-endpoint wins over the config file', () => {
		const r = withWeb();
		expect(r.shell.exec('crictl --runtime-endpoint unix:///run/crio/crio.sock ps').stderr).toBe(fatal(CONTAINERD_DOWN('unix:///run/crio/crio.sock', '/run/crio/crio.sock', 'no such file or directory')));
		expect(r.shell.exec('crictl -r unix:///var/run/containerd/containerd.sock ps -q').exitCode).toBe(0);
	});

	it('config --get and --set read and write /etc/crictl.yaml', () => {
		const r = setup();
		expect(r.shell.exec('crictl config --get runtime-endpoint').stdout).toBe('unix:///run/containerd/containerd.sock\n');
		expect(r.shell.exec('crictl config --set timeout=5').exitCode).toBe(0);
		expect(r.host.fs.readFile('/etc/crictl.yaml')).toBe(DEFAULT_CRICTL_YAML.replace('timeout: 2', 'timeout: 5'));
		expect(r.shell.exec('crictl config --get nope').stderr).toBe(fatal('no configuration option named nope'));
	});
});

describe('crictl command-line errors', () => {
	it.each([
		['crictl foo', '', "No help topic for 'foo'\n", 3],
		['crictl stop', '', 'you must specify at least one CONTAINER-ID or use --all\n', 1],
		['crictl --version', 'crictl version v1.36.0\n', '', 0],
	])('%s', (line, stdout, stderr, code) => {
		const r = setup();
		expect(r.shell.exec(line)).toMatchObject({ stdout, stderr, exitCode: code });
	});

	it('an unknown flag prints Incorrect Usage and the help, then fails', () => {
		const r = setup();
		const result = r.shell.exec('crictl ps -x');
		expect(result.stdout.startsWith('Incorrect Usage: flag provided but not defined: -x\n\nNAME:\n   crictl ps - List containers\n')).toBe(true);
		expect(result.stderr).toBe(fatal('flag provided but not defined: -x'));
		expect(result.exitCode).toBe(1);
	});

	it('a bad --state is a Go log.Fatalf with its timestamp', () => {
		const r = setup();
		expect(r.shell.exec('crictl ps --state sleeping')).toMatchObject({ stderr: '2026/11/30 08:00:00 --state should be one of created, running, exited or unknown\n', exitCode: 1 });
	});
});
