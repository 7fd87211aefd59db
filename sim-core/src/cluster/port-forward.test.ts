/**
 * `kubectl port-forward` and `kubectl proxy` as the reader uses them from
 * kubernetes.io ("Use Port Forwarding to Access Applications in a
 * Cluster", "Access Clusters Using the Kubernetes API"): the listener
 * starts as a job (announced by bash with `&`, explained without), curl on
 * the workstation reaches the Pod or the API through it, `jobs` and `kill`
 * manage it, and the forward ends when its Pod goes away.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster } from '../index.ts';

function withWeb(seed = 11) {
	const cluster = createCluster({ seed });
	cluster.writeFile(
		'web.yaml',
		`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports:
        - name: http
          containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
  - name: web
    port: 8080
    targetPort: http
`,
	);
	expect(cluster.exec('kubectl apply -f web.yaml').exitCode).toBe(0);
	cluster.settle();
	// nginx listens a moment after its container starts (Ready comes first: there is no readiness probe).
	cluster.advance('1s');
	return cluster;
}

describe('kubectl port-forward', () => {
	it('forwards a local port to the Pod, as a job that jobs lists and kill stops', () => {
		const cluster = withWeb();
		const started = cluster.exec('kubectl port-forward deployment/web 8080:80 &');
		expect(started.exitCode).toBe(0);
		// bash's job line first, then the forwarder's own lines (one listener per loopback address).
		expect(started.output).toMatch(/^\[1\] \d+\nForwarding from 127\.0\.0\.1:8080 -> 80\nForwarding from \[::1\]:8080 -> 80\n$/);
		const page = cluster.exec('curl -s localhost:8080');
		expect(page.output).toMatch(/^Handling connection for 8080\n<!DOCTYPE html>/);
		expect(page.output).toContain('Welcome to nginx!');
		expect(cluster.exec('jobs').stdout).toBe('[1]+  Running                 kubectl port-forward deployment/web 8080:80 &\n');
		expect(cluster.exec('kill %1').stdout).toBe('[1]+  Terminated              kubectl port-forward deployment/web 8080:80\n');
		expect(cluster.exec('jobs').stdout).toBe('');
		expect(cluster.exec('curl -s localhost:8080').exitCode).toBe(7);
		expect(cluster.exec('kill %1')).toMatchObject({ stderr: 'bash: kill: %1: no such job\n', exitCode: 1 });
	});

	it("turns a Service's port into the container port its targetPort names", () => {
		const cluster = withWeb();
		const r = cluster.exec('kubectl port-forward svc/web 9000:8080');
		expect(r.stdout).toBe('Forwarding from 127.0.0.1:9000 -> 80\nForwarding from [::1]:9000 -> 80\n');
		// Typed without `&`, the forward would hold the terminal until Ctrl-C; the sandbox says it keeps running as a job.
		expect(r.stderr).toMatch(/job \[1\].*'kill %1' stops it/);
		expect(cluster.exec('curl -s -o /dev/null -w "%{http_code}" localhost:9000').stdout).toBe('Handling connection for 9000\n200');
		// A Service port named as the remote port, and a port the Service does not have.
		expect(cluster.exec('kubectl port-forward svc/web 9001:web &').stdout).toContain('Forwarding from 127.0.0.1:9001 -> 80\n');
		expect(cluster.exec('kubectl port-forward svc/web 9002:81')).toMatchObject({ stderr: 'error: Service web does not have a service port 81\n', exitCode: 1 });
		expect(cluster.exec('kubectl port-forward svc/web 9002:https')).toMatchObject({ stderr: "error: Service 'web' does not have a named port 'https'\n", exitCode: 1 });
		expect(cluster.exec('kubectl port-forward deploy/web 9002:metrics')).toMatchObject({ stderr: expect.stringMatching(/^error: Pod 'web-[a-z0-9]+-[a-z0-9]{5}' does not have a named port 'metrics'\n$/), exitCode: 1 });
	});

	it('picks a free port for :REMOTE, refuses a port already taken, and binds only addresses the workstation has', () => {
		const cluster = withWeb();
		const random = cluster.exec('kubectl port-forward deploy/web :80 &').stdout;
		const port = /127\.0\.0\.1:(\d+) -> 80/.exec(random)?.[1];
		expect(Number(port)).toBeGreaterThanOrEqual(32768);
		expect(cluster.exec(`curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:${port}/`).stdout).toBe(`Handling connection for ${port}\n200`);
		const busy = cluster.exec(`kubectl port-forward deploy/web ${port}:80`);
		expect(busy.stderr).toBe(
			`Unable to listen on port ${port}: Listeners failed to create with the following errors: [unable to create listener: Error listen tcp4 127.0.0.1:${port}: bind: address already in use unable to create listener: Error listen tcp6 [::1]:${port}: bind: address already in use]\n` +
				`error: unable to listen on any of the requested ports: [{${port} 80}]\n`,
		);
		expect(busy.exitCode).toBe(1);
		expect(cluster.exec('kubectl port-forward --address 10.1.2.3 deploy/web 8085:80').stderr).toContain('Error listen tcp4 10.1.2.3:8085: bind: cannot assign requested address]');
		expect(cluster.exec('kubectl port-forward --address nowhere deploy/web 8085:80')).toMatchObject({ stderr: 'error: nowhere is not a valid IP\n', exitCode: 1 });
		// --address 0.0.0.0 answers on the workstation's own address too.
		cluster.exec('kubectl port-forward --address 0.0.0.0 deploy/web 8086:80 &');
		expect(cluster.exec('curl -s -o /dev/null -w "%{http_code}" 192.168.56.1:8086').stdout).toBe('Handling connection for 8086\n200');
		// The same seed picks the same port.
		expect(withWeb().exec('kubectl port-forward deploy/web :80 &').stdout).toBe(random);
	});

	it('says what is wrong with its arguments and with the Pod, as kubectl does', () => {
		const cluster = withWeb();
		expect(cluster.exec('kubectl port-forward deploy/web').stderr).toBe("error: TYPE/NAME and list of ports are required for port-forward\nSee 'kubectl port-forward -h' for help and examples\n");
		expect(cluster.exec('kubectl port-forward pod/nope 80').stderr).toBe('Error from server (NotFound): pods "nope" not found\n');
		expect(cluster.exec('kubectl port-forward deploy/web x:80').stderr).toBe(`error: error parsing local port 'x': strconv.ParseUint: parsing "x": invalid syntax\n`);
		cluster.writeFile('stuck.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: stuck\nspec:\n  nodeSelector: {disk: none}\n  containers:\n  - name: nginx\n    image: nginx:1.27\n');
		expect(cluster.exec('kubectl apply -f stuck.yaml').exitCode).toBe(0);
		cluster.advance('5s');
		expect(cluster.exec('kubectl port-forward stuck 80')).toMatchObject({ stderr: 'error: unable to forward port because pod is not running. Current status=Pending\n', exitCode: 1 });
		// From a node there is no listener of the workstation's to keep: said plainly.
		expect(cluster.exec('ssh control-plane sudo kubectl --kubeconfig /etc/kubernetes/admin.conf port-forward deploy/web 8080:80').stderr).toMatch(/^error: port-forward in this sandbox listens on the reader's workstation only/);
	});

	it("ends with 'lost connection to pod' when the Pod goes away, and when the Pod refuses the port", () => {
		const cluster = withWeb();
		cluster.exec('kubectl port-forward deploy/web 8080:80 &');
		cluster.exec('kubectl delete pod -l app=web --wait=false');
		cluster.advance('5s');
		const next = cluster.exec('curl -s localhost:8080');
		expect(next.output).toMatch(/^error: lost connection to pod\n\[1\]\+  Exit 1 {18}kubectl port-forward deploy\/web 8080:80\n/);
		expect(next.exitCode).toBe(7);
		// Nothing listens on 81 in the Pod: the kubelet's dial fails, the error comes back and the forward ends.
		cluster.exec('kubectl port-forward deploy/web 8081:81 &');
		const refused = cluster.exec('curl -s localhost:8081');
		expect(refused.output).toBe('Handling connection for 8081\nerror: lost connection to pod\n[1]+  Exit 1                  kubectl port-forward deploy/web 8081:81\n');
		expect(refused.exitCode).toBe(52);
	});

	it('keeps its jobs across a snapshot and restore', () => {
		const cluster = withWeb();
		cluster.exec('kubectl port-forward deploy/web 8080:80 &');
		const copy = restoreCluster(JSON.parse(JSON.stringify(cluster.snapshot())));
		expect(copy.exec('jobs').stdout).toContain('kubectl port-forward deploy/web 8080:80 &');
		expect(copy.exec('curl -s -o /dev/null -w "%{http_code}" localhost:8080').stdout).toBe('Handling connection for 8080\n200');
	});
});

describe('kubectl proxy', () => {
	it('serves the API on localhost:8001 with kubectl credentials', () => {
		const cluster = withWeb();
		expect(cluster.exec('kubectl proxy --port=8001 &').output).toMatch(/^\[1\] \d+\nStarting to serve on 127\.0\.0\.1:8001\n$/);
		const pods = JSON.parse(cluster.exec('curl -s http://localhost:8001/api/v1/namespaces/default/pods').stdout) as { kind: string; items: Array<{ metadata: { name: string } }> };
		expect(pods.kind).toBe('PodList');
		expect(pods.items.map((p) => p.metadata.name)).toEqual([expect.stringMatching(/^web-/)]);
		// Its filter refuses exec and attach (DefaultPathRejectRE), in Go's plain-text error.
		const refused = cluster.exec('curl -si localhost:8001/api/v1/namespaces/default/pods/x/exec');
		expect(refused.stdout).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
		expect(refused.stdout).toMatch(/\r\n\r\nForbidden\n$/);
		// A second proxy on the same port cannot listen.
		expect(cluster.exec('kubectl proxy')).toMatchObject({ stderr: 'error: listen tcp 127.0.0.1:8001: bind: address already in use\n', exitCode: 255 });
	});

	it('serves under --api-prefix and nothing else', () => {
		const cluster = withWeb();
		const listening = /^Starting to serve on 127\.0\.0\.1:(\d+)\n$/.exec(cluster.exec('kubectl proxy --port=0 --api-prefix=/k8s-api &').stdout)![1];
		expect(Number(listening)).toBeGreaterThanOrEqual(32768);
		expect(JSON.parse(cluster.exec(`curl -s localhost:${listening}/k8s-api/api`).stdout)).toMatchObject({ kind: 'APIVersions' });
		expect(cluster.exec(`curl -s localhost:${listening}/api`).stdout).toBe('404 page not found\n');
	});
});
