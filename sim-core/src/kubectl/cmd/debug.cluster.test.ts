import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

/**
 * `kubectl debug` through the public API, as kubernetes.io's "Debug Running
 * Pods" walks through it: an ephemeral container in a Pod whose image has
 * no shell, a debugging Pod on a node reading the node's own files through
 * /host, a copy of a Pod, and the errors kubectl and the API server give.
 */
describe('kubectl debug', () => {
	const cluster = createCluster({ seed: 7 });
	cluster.exec('kubectl run ephemeral-demo --image=registry.k8s.io/pause:3.1 --restart=Never');
	cluster.exec('kubectl run myapp --image=busybox:1.28 --restart=Never -- sleep 1d');
	cluster.settle({ maxMs: 60_000 });

	it('adds an ephemeral busybox shell to a Pod whose image has none, targeting its container', () => {
		// pause has no shell: kubectl exec fails.
		expect(cluster.exec('kubectl exec -it ephemeral-demo -- sh').stderr).toMatch(/exec: "sh": executable file not found in \$PATH: unknown\n$/);
		const r = cluster.exec('kubectl debug -it ephemeral-demo --image=busybox:1.28 --target=ephemeral-demo');
		expect(r.exitCode).toBe(0);
		const name = /Defaulting debug container name to (debugger-[bcdfghjklmnpqrstvwxz2456789]{5})\.\n/.exec(r.stdout)?.[1] ?? '';
		expect(r.output).toBe(
			[
				`Targeting container "ephemeral-demo". If you don't see processes from this container it may be because the container runtime doesn't support this feature.`,
				`Defaulting debug container name to ${name}.`,
				'All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.',
				"If you don't see a command prompt, try pressing enter.",
				'',
			].join('\n'),
		);
		expect(cluster.prompt()).toBe('/ # ');
		// The Pod's own host name (its network); lines run in busybox, which has no kubectl.
		expect(cluster.exec('hostname').stdout).toBe('ephemeral-demo\n');
		expect(cluster.exec('kubectl get pods').stderr).toBe('sh: kubectl: not found\n');
		expect(cluster.exec('exit').stdout).toBe(`Session ended, the ephemeral container will not be restarted but may be reattached using 'kubectl attach ephemeral-demo -c ${name} -n default -i -t' if it is still running\n`);
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');

		// The patch went through pods/ephemeralcontainers: the spec and the kubelet's status.
		const pod = JSON.parse(cluster.exec('kubectl get pod ephemeral-demo -o json').stdout);
		expect(pod.spec.ephemeralContainers).toEqual([
			expect.objectContaining({ name, image: 'busybox:1.28', stdin: true, tty: true, targetContainerName: 'ephemeral-demo', terminationMessagePolicy: 'File', securityContext: { capabilities: { add: ['SYS_PTRACE'] } } }),
		]);
		cluster.settle({ maxMs: 10_000 });
		const after = JSON.parse(cluster.exec('kubectl get pod ephemeral-demo -o json').stdout);
		expect(after.status.ephemeralContainerStatuses).toEqual([expect.objectContaining({ name, ready: false, restartCount: 0, state: { terminated: expect.objectContaining({ exitCode: 0, reason: 'Completed' }) } })]);
		// Still Running: ephemeral containers count for neither phase nor readiness.
		expect(after.status.phase).toBe('Running');

		// describe shows the section as upstream prints it.
		const described = cluster.exec('kubectl describe pod ephemeral-demo').stdout;
		expect(described).toContain(`\nEphemeral Containers:\n  ${name}:\n    Container ID:   containerd://`);
		expect(described).toMatch(/\n {4}Image: {10}busybox:1\.28\n {4}Image ID: {7}docker\.io\/library\/busybox@sha256:[0-9a-f]{64}\n {4}Port: {11}<none>\n {4}Host Port: {6}<none>\n {4}State: {10}Terminated\n/);
		expect(described).toContain(`spec.ephemeralContainers{${name}}: Container started`);
	});

	it('refuses to remove or change an ephemeral container, in the API server’s words', () => {
		const pod = JSON.parse(cluster.exec('kubectl get pod ephemeral-demo -o json').stdout);
		const name = pod.spec.ephemeralContainers[0].name;
		const removed = cluster.exec(`kubectl patch pod ephemeral-demo --subresource=ephemeralcontainers --type=json -p '[{"op":"remove","path":"/spec/ephemeralContainers/0"}]'`);
		expect(removed).toMatchObject({ exitCode: 1 });
		expect(removed.stderr).toContain(`The Pod "ephemeral-demo" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers "${name}" may not be removed`);
		const changed = cluster.exec(`kubectl patch pod ephemeral-demo --subresource=ephemeralcontainers --type=json -p '[{"op":"replace","path":"/spec/ephemeralContainers/0/image","value":"busybox:1.36"}]'`);
		expect(changed.stderr).toContain(`spec.ephemeralContainers: Forbidden: existing ephemeral containers "${name}" may not be changed`);
		// A plain update may not touch them either.
		const plainUpdate = cluster.exec(`kubectl patch pod ephemeral-demo --type=json -p '[{"op":"remove","path":"/spec/ephemeralContainers"}]'`);
		expect(plainUpdate.stderr).toContain('Forbidden: pod updates may not change fields other than');
	});

	it('without -i it only adds the container; a second one gets its own name', () => {
		const r = cluster.exec('kubectl debug myapp --image=busybox:1.28 -c probe -- sleep 600');
		expect(r).toMatchObject({ output: '', exitCode: 0 });
		cluster.settle({ maxMs: 30_000 });
		expect(cluster.exec('kubectl get pod myapp -o jsonpath={.status.ephemeralContainerStatuses[0].state.running.startedAt}').stdout).not.toBe('');
		// The ephemeral container shares the Pod's network: the same IP answers there.
		expect(cluster.exec('kubectl exec myapp -c probe -- hostname').stdout).toBe('myapp\n');
		// -c naming one that is there: the patch would change it, which the API server refuses.
		expect(cluster.exec('kubectl debug myapp --image=busybox:1.36 -c probe').stderr).toContain('spec.ephemeralContainers: Forbidden: existing ephemeral containers "probe" may not be changed');
		expect(cluster.exec('kubectl debug myapp --image=busybox:1.28 --target=nosuch -q').stderr).toMatch(/spec\.ephemeralContainers\[1\]\.targetContainerName: Not found: "nosuch"\n$/);
	});

	it('shows what a debug command printed: attached with -it, and through kubectl logs -c afterwards', () => {
		const attached = cluster.exec('kubectl debug myapp -it --image=busybox:1.28 -c once -- echo hi');
		expect(attached.exitCode).toBe(0);
		expect(attached.stdout).toMatch(/^hi$/m);
		cluster.exec('kubectl debug myapp --image=busybox:1.28 -c later -- echo later');
		cluster.settle({ maxMs: 30_000 });
		// The kubelet serves an ephemeral container's log as any other container's.
		expect(cluster.exec('kubectl logs myapp -c later')).toMatchObject({ stdout: 'later\n', exitCode: 0 });
	});

	it('debugs a node: host namespaces, the node’s / at /host, and chroot /host onto the node itself', () => {
		const r = cluster.exec('kubectl debug node/node-1 -it --image=ubuntu');
		const podName = /Creating debugging pod (node-debugger-node-1-[bcdfghjklmnpqrstvwxz2456789]{5}) with container debugger on node node-1\.\n/.exec(r.stdout)?.[1] ?? '';
		expect(podName).not.toBe('');
		expect(r.stderr).toContain("If you don't see a command prompt, try pressing enter.\n");
		// bash, on the node's network: the node's host name.
		expect(cluster.prompt()).toBe('root@node-1:/# ');
		expect(cluster.exec('ls /host/etc/kubernetes').stdout).toContain('kubelet.conf\n');
		expect(cluster.exec('cat /host/var/lib/kubelet/config.yaml').stdout).toContain('kind: KubeletConfiguration\n');
		expect(cluster.exec('chroot /host')).toMatchObject({ output: '', exitCode: 0 });
		expect(cluster.prompt()).toBe('root@node-1:/# ');
		expect(cluster.exec('cat /etc/kubernetes/kubelet.conf').stdout).toContain('kind: Config\n');
		expect(cluster.exec('crictl ps').stdout).toContain(podName);
		expect(cluster.exec('exit').stdout).toBe('exit\n');
		// Back in the container's own shell, then out.
		expect(cluster.exec('ls /host/etc/kubernetes').stdout).toContain('kubelet.conf\n');
		expect(cluster.exec('exit').stdout).toBe(`exit\nSession ended, resume using 'kubectl attach ${podName} -c debugger -n default -i -t' command\n`);
		expect(cluster.prompt()).toBe('reader@workstation:~$ ');
		const pod = JSON.parse(cluster.exec(`kubectl get pod ${podName} -o json`).stdout);
		expect(pod.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'kubectl-debug' });
		expect(pod.spec).toMatchObject({ nodeName: 'node-1', hostNetwork: true, hostPID: true, hostIPC: true, restartPolicy: 'Never', tolerations: [{ operator: 'Exists' }] });
		expect(pod.spec.volumes).toContainEqual({ name: 'host-root', hostPath: { path: '/', type: '' } });
		expect(pod.spec.containers[0].volumeMounts).toContainEqual({ mountPath: '/host', name: 'host-root' });
		expect(cluster.exec('kubectl debug node/nosuch -it --image=busybox')).toMatchObject({ stderr: 'Error from server (NotFound): nodes "nosuch" not found\n', exitCode: 1 });
	});

	it('copies a Pod with --copy-to, dropping its labels and probes as the general profile does', () => {
		cluster.exec('kubectl run web --image=nginx:1.27 --labels=app=web');
		cluster.settle({ maxMs: 60_000 });
		const r = cluster.exec('kubectl debug web -it --image=ubuntu --share-processes --copy-to=web-debug');
		expect(r.stdout).toMatch(/^Defaulting debug container name to debugger-[bcdfghjklmnpqrstvwxz2456789]{5}\.\n$/);
		expect(cluster.prompt()).toBe('root@web-debug:/# ');
		cluster.exec('exit');
		const copy = JSON.parse(cluster.exec('kubectl get pod web-debug -o json').stdout);
		expect(copy.metadata.labels).toBeUndefined();
		expect(copy.spec.shareProcessNamespace).toBe(true);
		expect(copy.spec.containers.map((c: { name: string; image: string }) => c.image)).toEqual(['nginx:1.27', 'ubuntu']);
		expect(copy.spec.containers[1].securityContext).toEqual({ capabilities: { add: ['SYS_PTRACE'] } });
		// --set-image alone, and a changed command in a named container.
		expect(cluster.exec('kubectl debug web --copy-to=web-2 --set-image=*=busybox:1.28')).toMatchObject({ output: '', exitCode: 0 });
		expect(cluster.exec('kubectl get pod web-2 -o jsonpath={.spec.containers[*].image}').stdout).toBe('busybox:1.28');
		expect(cluster.exec('kubectl debug web --copy-to=web-3 -c web --keep-labels -- sleep 30').exitCode).toBe(0);
		expect(cluster.exec('kubectl get pod web-3 -o jsonpath="{.spec.containers[0].command} {.metadata.labels}"').stdout).toBe('["sleep","30"] {"app":"web"}');
	});

	it('answers bad input with kubectl’s own errors', () => {
		expect(cluster.exec('kubectl debug nosuch -it --image=busybox:1.28')).toMatchObject({ stderr: 'Error from server (NotFound): pods "nosuch" not found\n', exitCode: 1 });
		expect(cluster.exec('kubectl debug myapp -it').stderr).toBe('error: you must specify --image when not using --copy-to.\n');
		expect(cluster.exec('kubectl debug myapp --image=busybox --profile=admin').stderr).toBe('error: unknown profile: admin\n');
		expect(cluster.exec('kubectl debug myapp --image=busybox -t').stderr).toBe('error: -i/--stdin is required for containers with -t/--tty=true\n');
		expect(cluster.exec('kubectl debug myapp --image=busybox --target=myapp --copy-to=x').stderr).toBe('error: --target is incompatible with --copy-to. Use --share-processes instead.\n');
		expect(cluster.exec('kubectl debug myapp --image=Bad:Image').stderr).toBe('error: invalid image name "Bad:Image": invalid reference format\n');
		expect(cluster.exec('kubectl debug myapp --set-image=*=busybox').stderr).toBe('error: --set-image may only be used with --copy-to.\n');
		expect(cluster.exec('kubectl debug --image=busybox').stderr).toBe('error: NAME or filename is required for debug\n');
		expect(cluster.exec('kubectl debug deployment/x --image=busybox').stderr).toBe('Error from server (NotFound): deployments.apps "x" not found\n');
		// legacy still works, with its deprecation warning.
		expect(cluster.exec('kubectl debug myapp --image=busybox:1.28 --profile=legacy -q').stderr).toBe('--profile=legacy is deprecated and planned to be removed in v1.39. It is recommended to specify other profile, for example "--profile=general".\n');
	});

	it('a Pod whose containers have all ended gets no running debug container', () => {
		cluster.exec('kubectl run done --image=busybox:1.28 --restart=Never -- true');
		cluster.settle({ maxMs: 60_000 });
		expect(cluster.exec('kubectl get pod done -o jsonpath={.status.phase}').stdout).toBe('Succeeded');
		const r = cluster.exec('kubectl debug -it done --image=busybox:1.28');
		expect(r.stderr).toContain('still not running after 300 s of virtual time: interrupted, as Ctrl-C would');
		expect(r.exitCode).toBe(130);
		expect(cluster.exec('kubectl get pod done -o jsonpath={.status.ephemeralContainerStatuses}').stdout).toBe('');
	});
});
