/**
 * File modes and file systems of volumes through the whole cluster, as the
 * Conformance suite checks them with agnhost mounttest
 * (test/e2e/common/storage/configmap_volume.go, secrets_volume.go,
 * downwardapi_volume.go, projected_downwardapi.go, empty_dir.go, v1.36):
 * the kubelet writes a volume's files with its defaultMode or an item's
 * mode, an emptyDir is 0777 (on a tmpfs with medium Memory), and mounttest
 * creates files with exact modes. Each test runs the suite's Pod to
 * completion and looks for the suite's lines in its log.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.53';

/** The suite's output check: the Pod succeeds and its log holds every expected line. */
function expectOutput(c: ReturnType<typeof createCluster>, volumes: string, mountPath: string, args: string[], expected: string[]) {
	c.writeFile(
		'pod.yaml',
		`apiVersion: v1
kind: Pod
metadata:
  name: pod-under-test
spec:
  restartPolicy: Never
  volumes:
${volumes}
  containers:
  - name: agnhost-container
    image: ${AGNHOST}
    args: ${JSON.stringify(['mounttest', ...args])}
    volumeMounts:
    - name: test-volume
      mountPath: ${mountPath}
`,
	);
	expect(c.exec('kubectl apply -f pod.yaml').exitCode).toBe(0);
	c.advance('30s');
	expect(c.exec('kubectl get pod pod-under-test -o jsonpath={.status.phase}').stdout).toBe('Succeeded');
	const log = c.exec('kubectl logs pod-under-test').stdout;
	for (const line of expected) expect(log).toContain(`${line}\n`);
}

function withData(seed: number) {
	const c = createCluster({ seed });
	c.exec('kubectl create configmap configmap-test-volume --from-literal=data-1=value-1 --from-literal=data-2=value-2 --from-literal=data-3=value-3');
	c.exec('kubectl create secret generic secret-test --from-literal=data-1=value-1 --from-literal=data-2=value-2 --from-literal=data-3=value-3');
	return c;
}

describe('[sig-storage] ConfigMap', () => {
	it('should be consumable from pods in volume with defaultMode set [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(withData(1), '  - name: test-volume\n    configMap:\n      name: configmap-test-volume\n      defaultMode: 0400', '/etc/configmap-volume', ['--file_content=/etc/configmap-volume/data-1', '--file_mode=/etc/configmap-volume/data-1'], [
			'content of file "/etc/configmap-volume/data-1": value-1',
			'mode of file "/etc/configmap-volume/data-1": -r--------',
		]);
	});

	it('should be consumable from pods in volume with mappings and Item mode set [LinuxOnly] [NodeConformance] [Conformance]', () => {
		const volume = '  - name: test-volume\n    configMap:\n      name: configmap-test-volume\n      items:\n      - key: data-2\n        path: path/to/data-2\n        mode: 0400';
		expectOutput(withData(2), volume, '/etc/configmap-volume', ['--file_content=/etc/configmap-volume/path/to/data-2', '--file_mode=/etc/configmap-volume/path/to/data-2'], [
			'content of file "/etc/configmap-volume/path/to/data-2": value-2',
			'mode of file "/etc/configmap-volume/path/to/data-2": -r--------',
		]);
	});
});

describe('[sig-storage] Secrets', () => {
	it('should be consumable from pods in volume with defaultMode set [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(withData(3), '  - name: test-volume\n    secret:\n      secretName: secret-test\n      defaultMode: 0400', '/etc/secret-volume', ['--file_content=/etc/secret-volume/data-1', '--file_mode=/etc/secret-volume/data-1'], [
			'content of file "/etc/secret-volume/data-1": value-1',
			'mode of file "/etc/secret-volume/data-1": -r--------',
		]);
	});

	it('should be consumable from pods in volume with mappings and Item Mode set [LinuxOnly] [NodeConformance] [Conformance]', () => {
		const volume = '  - name: test-volume\n    secret:\n      secretName: secret-test\n      items:\n      - key: data-1\n        path: new-path-data-1\n        mode: 0400';
		expectOutput(withData(4), volume, '/etc/secret-volume', ['--file_content=/etc/secret-volume/new-path-data-1', '--file_mode=/etc/secret-volume/new-path-data-1'], [
			'content of file "/etc/secret-volume/new-path-data-1": value-1',
			'mode of file "/etc/secret-volume/new-path-data-1": -r--------',
		]);
	});
});

describe('[sig-storage] Downward API volume', () => {
	const podname = (mode: string) => `  - name: test-volume\n    downwardAPI:\n${mode}      items:\n      - path: podname\n        fieldRef:\n          fieldPath: metadata.name`;

	it('should set DefaultMode on files [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 5 }), podname('      defaultMode: 0400\n'), '/etc/podinfo', ['--file_mode=/etc/podinfo/podname'], ['mode of file "/etc/podinfo/podname": -r--------']);
	});

	it('should set mode on item file [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 6 }), `${podname('')}\n        mode: 0400`, '/etc/podinfo', ['--file_mode=/etc/podinfo/podname'], ['mode of file "/etc/podinfo/podname": -r--------']);
	});
});

describe('[sig-storage] Projected downwardAPI', () => {
	it('should set DefaultMode on files [LinuxOnly] [NodeConformance] [Conformance]', () => {
		const volume = '  - name: test-volume\n    projected:\n      defaultMode: 0400\n      sources:\n      - downwardAPI:\n          items:\n          - path: podname\n            fieldRef:\n              fieldPath: metadata.name';
		expectOutput(createCluster({ seed: 7 }), volume, '/etc/podinfo', ['--file_mode=/etc/podinfo/podname'], ['mode of file "/etc/podinfo/podname": -r--------']);
	});
});

describe('[sig-storage] EmptyDir volumes', () => {
	const emptyDir = (medium: string) => `  - name: test-volume\n    emptyDir:${medium ? `\n      medium: ${medium}` : ' {}'}`;

	it('volume on tmpfs should have the correct mode [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 8 }), emptyDir('Memory'), '/test-volume', ['--fs_type=/test-volume', '--file_perm=/test-volume'], ['mount type of "/test-volume": tmpfs', 'perms of file "/test-volume": -rwxrwxrwx']);
	});

	it('volume on default medium should have the correct mode [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 9 }), emptyDir(''), '/test-volume', ['--fs_type=/test-volume', '--file_perm=/test-volume'], ['perms of file "/test-volume": -rwxrwxrwx']);
	});

	it('should support (root,0644,tmpfs) [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 10 }), emptyDir('Memory'), '/test-volume', ['--fs_type=/test-volume', '--new_file_0644=/test-volume/test-file', '--file_perm=/test-volume/test-file'], [
			'mount type of "/test-volume": tmpfs',
			'content of file "/test-volume/test-file": mount-tester new file',
			'perms of file "/test-volume/test-file": -rw-r--r--',
		]);
	});

	it('should support (root,0666,default) [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 11 }), emptyDir(''), '/test-volume', ['--fs_type=/test-volume', '--new_file_0666=/test-volume/test-file', '--file_perm=/test-volume/test-file'], [
			'content of file "/test-volume/test-file": mount-tester new file',
			'perms of file "/test-volume/test-file": -rw-rw-rw-',
		]);
	});

	it('should support (root,0777,tmpfs) [LinuxOnly] [NodeConformance] [Conformance]', () => {
		expectOutput(createCluster({ seed: 12 }), emptyDir('Memory'), '/test-volume', ['--fs_type=/test-volume', '--new_file_0777=/test-volume/test-file', '--file_perm=/test-volume/test-file'], [
			'mount type of "/test-volume": tmpfs',
			'perms of file "/test-volume/test-file": -rwxrwxrwx',
		]);
	});
});

describe('file modes in containers', () => {
	it('show in ls -l, change with chmod, and reach the node through a writable mount', () => {
		const c = createCluster({ seed: 13 });
		c.writeFile(
			'pod.yaml',
			'apiVersion: v1\nkind: Pod\nmetadata:\n  name: box\nspec:\n  volumes:\n  - name: cache\n    emptyDir: {}\n  - name: token\n    secret:\n      secretName: secret-test\n      defaultMode: 0440\n  containers:\n  - name: box\n    image: busybox:1.36\n    command: ["sleep", "3600"]\n    volumeMounts:\n    - {name: cache, mountPath: /cache}\n    - {name: token, mountPath: /token}\n',
		);
		c.exec('kubectl create secret generic secret-test --from-literal=key=abc');
		c.exec('kubectl apply -f pod.yaml');
		c.advance('20s');
		expect(c.exec('kubectl exec box -- ls -l /token').stdout).toMatch(/^total 4\n-r--r-----    1 root     root             3 \w{3} +\d+ \d\d:\d\d key\n$/);
		expect(c.exec("kubectl exec box -- sh -c 'echo hi > /cache/run.sh; chmod +x /cache/run.sh; stat -c \"%a %A\" /cache/run.sh /cache'").stdout).toBe('755 -rwxr-xr-x\n777 drwxrwxrwx\n');
		expect(c.exec('kubectl exec box -- chmod 9 /cache/run.sh').stderr).toBe("chmod: invalid mode '9'\ncommand terminated with exit code 1\n");
		expect(c.exec('kubectl exec box -- chmod 600 /token/key').stderr).toContain('Read-only file system');
		// The mode went to the node's copy of the volume, where every container of the Pod (and the kubelet) finds it.
		const uid = c.exec('kubectl get pod box -o jsonpath={.metadata.uid}').stdout;
		c.exec(`ssh ${c.exec('kubectl get pod box -o jsonpath={.spec.nodeName}').stdout}`);
		const dir = `/var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~empty-dir/cache`;
		expect(c.exec(`sudo ls -l ${dir}`).stdout).toMatch(/^total 4\n-rwxr-xr-x 1 root root 3 .* run\.sh\n$/);
		expect(c.exec(`sudo ls -ld ${dir}`).stdout).toMatch(/^drwxrwxrwx /);
	});
});
