/**
 * `kubectl cp` as a reader types it: kubectl's own help examples, a round
 * trip file → Pod → file checked with `kubectl exec POD -- cat`, a
 * directory, the container's tar in both dialects (busybox and GNU), and
 * each error in kubectl's words.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../index.ts';

const TWO_CONTAINERS = `apiVersion: v1
kind: Pod
metadata:
  name: some-pod
  namespace: some-namespace
spec:
  containers:
  - name: web
    image: nginx
  - name: specific-container
    image: busybox
    command: ["sleep", "3600"]
`;

/** A Pod no node can take: it stays Pending, with no host. */
const STUCK = `apiVersion: v1
kind: Pod
metadata:
  name: stuck
spec:
  nodeSelector:
    nowhere: "true"
  containers:
  - name: stuck
    image: busybox
`;

describe('kubectl cp', () => {
	let cluster: Cluster;
	const run = (line: string) => cluster.exec(line);

	beforeAll(() => {
		cluster = createCluster({ seed: 11 });
		cluster.writeFile('two.yaml', TWO_CONTAINERS);
		run('kubectl create namespace some-namespace');
		// The namespace's default ServiceAccount comes a moment later.
		cluster.advance('2s');
		run('kubectl apply -f two.yaml');
		run('kubectl run some-pod --image=busybox -- sleep 3600');
		run('kubectl run web --image=nginx');
		cluster.advance('40s');
		cluster.settle();
		run('mkdir -p /tmp/foo_dir/sub && echo hello > /tmp/foo_dir/a.txt && echo deep > /tmp/foo_dir/sub/b.txt && printf "first\\nsecond\\n" > /tmp/foo');
	});

	it('copies a local file into a Pod and back, byte for byte (file → pod → file)', () => {
		expect(run('kubectl cp /tmp/foo some-pod:/tmp/bar')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(run('kubectl exec some-pod -- cat /tmp/bar')).toMatchObject({ stdout: 'first\nsecond\n', exitCode: 0 });
		// From a Pod, tar's stderr reaches kubectl's stdout: busybox's note about the leading '/'.
		expect(run('kubectl cp some-pod:/tmp/bar /tmp/back')).toMatchObject({ stdout: "tar: removing leading '/' from member names\n", stderr: '', exitCode: 0 });
		expect(run('cat /tmp/back').stdout).toBe('first\nsecond\n');
		// A relative remote path has no leading '/' to remove.
		expect(run('kubectl cp some-pod:tmp/bar ./rel')).toMatchObject({ stdout: '', exitCode: 0 });
		expect(run('cat rel').stdout).toBe('first\nsecond\n');
	});

	it('copies a directory recursively, into a directory under its own name (kubectl cp /tmp/foo_dir some-pod:/tmp/bar_dir)', () => {
		expect(run('kubectl cp /tmp/foo_dir some-pod:/tmp/bar_dir')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(run('kubectl exec some-pod -- cat /tmp/bar_dir/a.txt /tmp/bar_dir/sub/b.txt').stdout).toBe('hello\ndeep\n');
		// The destination now is a directory (test -d): the source lands inside it.
		expect(run('kubectl cp /tmp/foo_dir some-pod:/tmp/bar_dir').exitCode).toBe(0);
		expect(run('kubectl exec some-pod -- cat /tmp/bar_dir/foo_dir/sub/b.txt').stdout).toBe('deep\n');
		expect(run('kubectl cp /tmp/foo some-pod:/tmp').exitCode).toBe(0);
		expect(run('kubectl exec some-pod -- cat /tmp/foo').stdout).toBe('first\nsecond\n');
		// And back: the directory's contents under the local name.
		expect(run('kubectl cp some-pod:/tmp/bar_dir /tmp/copied').exitCode).toBe(0);
		expect(run('cat /tmp/copied/a.txt /tmp/copied/sub/b.txt /tmp/copied/foo_dir/a.txt').stdout).toBe('hello\ndeep\nhello\n');
	});

	it('follows the help examples with a namespace and -c, and names the defaulted container otherwise', () => {
		expect(run('kubectl cp /tmp/foo some-namespace/some-pod:/tmp/bar -c specific-container')).toMatchObject({ stdout: '', stderr: '', exitCode: 0 });
		expect(run('kubectl exec -n some-namespace some-pod -c specific-container -- cat /tmp/bar').stdout).toBe('first\nsecond\n');
		// Without -c the first container (nginx, Debian's GNU tar) is chosen, with kubectl's notice (on stdout from a Pod).
		expect(run('kubectl cp /tmp/foo some-namespace/some-pod:/tmp/bar')).toMatchObject({ stderr: 'Defaulted container "web" out of: web, specific-container\n', exitCode: 0 });
		expect(run('kubectl cp some-namespace/some-pod:/tmp/bar /tmp/bar')).toMatchObject({ stdout: 'Defaulted container "web" out of: web, specific-container\n' + "tar: Removing leading `/' from member names\n", exitCode: 0 });
		expect(run('cat /tmp/bar').stdout).toBe('first\nsecond\n');
		expect(run('kubectl cp -n some-namespace some-pod:/tmp/bar /tmp/bar2 -c specific-container')).toMatchObject({ stdout: "tar: removing leading '/' from member names\n", exitCode: 0 });
		expect(run('kubectl cp -n some-namespace some-pod:/tmp/bar /tmp/bar2 -c nope')).toMatchObject({ stderr: 'error: container nope is not valid for pod some-pod out of: web, specific-container\n', exitCode: 1 });
		expect(run('kubectl cp --no-preserve /tmp/foo some-pod:/tmp/np').exitCode).toBe(0);
		expect(run('kubectl exec some-pod -- cat /tmp/np').stdout).toBe('first\nsecond\n');
	});

	it("reports a missing remote file in the container's tar dialect, then kubectl's exit line", () => {
		expect(run('kubectl cp some-pod:/x /tmp/x')).toEqual(
			expect.objectContaining({ stdout: 'tar: /x: No such file or directory\ntar: error exit delayed from previous errors\n', stderr: 'command terminated with exit code 1\n', exitCode: 1 }),
		);
		expect(run('kubectl cp web:/x /tmp/x')).toEqual(
			expect.objectContaining({ stdout: "tar: Removing leading `/' from member names\ntar: /x: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n", stderr: 'command terminated with exit code 2\n', exitCode: 2 }),
		);
		// Into a directory that is not there: tar -C fails.
		expect(run('kubectl cp /tmp/foo web:/no/such/dir/x')).toMatchObject({ stderr: 'tar: /no/such/dir: Cannot open: No such file or directory\ntar: Error is not recoverable: exiting now\ncommand terminated with exit code 2\n', exitCode: 2 });
		expect(run('kubectl cp /tmp/foo some-pod:/no/such/dir/x')).toMatchObject({ stderr: "tar: can't change directory to '/no/such/dir': No such file or directory\ncommand terminated with exit code 1\n", exitCode: 1 });
		// A remote file onto a local directory.
		expect(run('kubectl cp some-pod:/tmp/bar /tmp/foo_dir')).toMatchObject({ stderr: 'error: open /tmp/foo_dir: is a directory\n', exitCode: 1 });
	});

	it('fails where the image has no tar, as the exec of a missing executable does', () => {
		const r = run('kubectl cp -n kube-system etcd-control-plane:/etc/hostname /tmp/e');
		expect(r.exitCode).toBe(1);
		expect(r.stderr).toMatch(/^error: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]+": OCI runtime exec failed: exec failed: unable to start container process: exec: "tar": executable file not found in \$PATH: unknown\n$/);
		expect(run('kubectl cp /tmp/foo kube-system/etcd-control-plane:/tmp/foo').stderr).toMatch(/exec: "tar": executable file not found in \$PATH: unknown\n$/);
	});

	it("answers bad arguments and missing or stopped Pods in kubectl's words", () => {
		expect(run('kubectl cp /tmp/foo')).toMatchObject({ stderr: 'error: source and destination are required\n', exitCode: 1 });
		expect(run('kubectl cp some-pod:/a web:/b')).toMatchObject({ stderr: 'error: one of src or dest must be a local file specification\n', exitCode: 1 });
		expect(run('kubectl cp /tmp/foo /tmp/bar')).toMatchObject({ stderr: 'error: one of src or dest must be a remote file specification\n', exitCode: 1 });
		expect(run('kubectl cp :/a /tmp/b')).toMatchObject({ stderr: 'error: filespec must match the canonical format: [[namespace/]pod:]file/path\n', exitCode: 1 });
		expect(run('kubectl cp /tmp/foo some-pod:')).toMatchObject({ stderr: 'error: filepath can not be empty\n', exitCode: 1 });
		expect(run('kubectl cp /tmp/nothing some-pod:/tmp/x')).toMatchObject({ stderr: "error: /tmp/nothing doesn't exist in local filesystem\n", exitCode: 1 });
		expect(run('kubectl cp missing:/etc/hostname /tmp/h')).toMatchObject({ stderr: 'Error from server (NotFound): pods "missing" not found\n', exitCode: 1 });
		expect(run('kubectl cp /tmp/foo missing:/tmp/h')).toMatchObject({ stderr: 'Error from server (NotFound): pods "missing" not found\n', exitCode: 1 });
		run('kubectl run done --image=busybox --restart=Never -- true');
		cluster.writeFile('stuck.yaml', STUCK);
		run('kubectl apply -f stuck.yaml');
		run('kubectl run unpulled --image=registry.example/none:1');
		cluster.advance('20s');
		expect(run('kubectl cp done:/etc/hostname /tmp/h')).toMatchObject({ stderr: 'error: cannot exec into a container in a completed pod; current phase is Succeeded\n', exitCode: 1 });
		expect(run('kubectl cp /tmp/foo stuck:/tmp/foo')).toMatchObject({ stderr: 'Error from server (BadRequest): pod stuck does not have a host assigned\n', exitCode: 1 });
		// Its container never started: the kubelet has no container to exec in.
		expect(run('kubectl cp unpulled:/etc/hostname /tmp/h')).toMatchObject({ stderr: 'error: unable to upgrade connection: container not found ("unpulled")\n', exitCode: 1 });
	});

	it('passes an exec its standard input, so the help text\'s own `kubectl exec -i ... -- tar xf -` pattern has a counterpart', () => {
		expect(run('echo streamed | kubectl exec -i some-pod -- cat').stdout).toBe('streamed\n');
		expect(run('printf "echo from-a-script\\n" | kubectl exec -i some-pod -- sh').stdout).toBe('from-a-script\n');
		// The container's tar lists what it made.
		expect(run('kubectl exec some-pod -- sh -c "tar cf /tmp/a.tar /tmp/bar_dir/sub && tar tf /tmp/a.tar"')).toMatchObject({ stdout: 'tmp/bar_dir/sub/\ntmp/bar_dir/sub/b.txt\n', stderr: "tar: removing leading '/' from member names\n", exitCode: 0 });
	});
});
