/**
 * What a reader sees of the images' servers in a running cluster: nginx's
 * own welcome page at the version the tag names, agnhost's netexec and
 * serve-hostname handlers, the old serve_hostname image, the hpa-example's
 * `OK!`, agnhost's DNS subcommands, and the registry mirror's answer for an
 * image it does not carry.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../cluster/cluster.ts';
import { nginx50xHtml, nginxIndexHtml } from './rootfs.ts';

let cluster: Cluster;
const run = (line: string) => cluster.exec(line);
const podIp = (name: string) => run(`kubectl get pod ${name} -o jsonpath={.status.podIP}`).stdout;
const nodeOf = (name: string) => run(`kubectl get pod ${name} -o jsonpath={.spec.nodeName}`).stdout;
const nodeIp = (node: string) => (cluster.get('nodes', '', node)?.status as { addresses: Array<{ type: string; address: string }> }).addresses.find((a) => a.type === 'InternalIP')?.address;
/** The pod network's gateway on a node (the bridge's address, `.1` of its Pod CIDR). */
const gatewayOf = (node: string) => ((cluster.get('nodes', '', node)?.spec as { podCIDR: string }).podCIDR.split('/')[0] ?? '').replace(/\.0$/, '.1');

beforeAll(() => {
	cluster = new Cluster({ seed: 7 });
	for (const line of [
		'kubectl run web --image=nginx:1.16.1',
		'kubectl run latest --image=nginx',
		'kubectl run netexec --image=registry.k8s.io/e2e-test-images/agnhost:2.39 -- netexec',
		'kubectl run agnhost-hostname --image=registry.k8s.io/e2e-test-images/agnhost:2.40 -- serve-hostname',
		'kubectl create deployment hostnames --image=registry.k8s.io/serve_hostname --replicas=2',
		'kubectl run php-apache --image=registry.k8s.io/hpa-example --port=80',
		'kubectl run suffix --image=registry.k8s.io/e2e-test-images/agnhost:2.40 --restart=Never -- dns-suffix',
		'kubectl run servers --image=registry.k8s.io/e2e-test-images/agnhost:2.40 --restart=Never -- dns-server-list',
		'kubectl run dnsutils --image=registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3 --command -- sleep infinity',
		'kubectl run client --image=curlimages/curl --command -- sleep 3600',
		'kubectl run shell --image=busybox:1.31 --command -- sleep 3600',
		'kubectl run typo --image=ngnix:1.27',
		'kubectl run nginxhttps --image=bprashanth/nginxhttps:1.0 --command -- /home/auto-reload-nginx.sh',
	])
		expect(run(line).exitCode, line).toBe(0);
	cluster.settle({ maxMs: 120_000 });
	cluster.advance('30s');
}, 60_000);

describe('nginx at the version its tag names', () => {
	it('runs nginx:1.16.1, which reports 1.16.1', () => {
		expect(run('kubectl get pod web -o jsonpath={.status.phase}').stdout).toBe('Running');
		expect(run('kubectl exec web -- nginx -v')).toMatchObject({ stdout: '', stderr: 'nginx version: nginx/1.16.1\n', exitCode: 0 });
	});

	it('ships the welcome page and 50x.html its packages install (612 bytes before 1.21.2)', () => {
		const page = run('kubectl exec web -- cat /usr/share/nginx/html/index.html').stdout;
		expect(page).toBe(nginxIndexHtml('1.16.1'));
		expect(page).toContain('<title>Welcome to nginx!</title>');
		expect(page).toContain('<h1>Welcome to nginx!</h1>');
		expect(page).toContain('<p><em>Thank you for using nginx.</em></p>');
		expect(page.length).toBe(612);
		expect(run('kubectl exec web -- cat /usr/share/nginx/html/50x.html').stdout).toBe(nginx50xHtml('1.16.1'));
	});

	it('serves the 615-byte page of nginx 1.2x to curl from a node, and logs its size', () => {
		const ip = podIp('latest');
		const answer = run(`ssh node-1 curl -si http://${ip}/`).stdout;
		const [head, body] = answer.split('\r\n\r\n');
		expect(head).toContain('Server: nginx/1.29.3');
		expect(head).toContain('Content-Length: 615');
		expect(body).toBe(nginxIndexHtml('1.29.3'));
		expect(body).toContain('html { color-scheme: light dark; }');
		expect(run('kubectl logs latest').stdout).toMatch(/"GET \/ HTTP\/1\.1" 200 615 "-" "curl\/[\d.]+" "-"\n$/);
	});
});

describe("agnhost's and serve_hostname's Go servers", () => {
	it('netexec answers /hostname, /clientip (the client address and port), /echo and / on 8080', () => {
		const ip = podIp('netexec');
		expect(run(`ssh node-1 curl -s http://${ip}:8080/hostname`).stdout).toBe('netexec');
		// r.RemoteAddr: the address the request came from (node-1's, as the network delivers it) and an ephemeral port.
		const [address, port] = run(`ssh node-1 curl -s http://${ip}:8080/clientip`).stdout.split(':');
		expect([nodeIp('node-1'), gatewayOf(nodeOf('netexec'))]).toContain(address);
		expect(Number(port)).toBeGreaterThanOrEqual(32768);
		expect(Number(port)).toBeLessThanOrEqual(60999);
		expect(run(`ssh node-1 curl -s "http://${ip}:8080/echo?msg=hello+world"`).stdout).toBe('hello world');
		expect(run(`ssh node-1 curl -s http://${ip}:8080/`).stdout).toMatch(/^NOW: 2026-11-30 08:\d\d:\d\d(\.\d+)? \+0000 UTC m=\+\d+\.\d{9}$/);
		const logs = run('kubectl logs netexec').stderr + run('kubectl logs netexec').stdout;
		expect(logs).toContain('Started HTTP server on port 8080');
		expect(logs).toContain('Started UDP server on port  8081');
		expect(logs).toMatch(/\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d GET \/clientip\n/);
	});

	it('agnhost serve-hostname answers its hostname on 9376, without a newline', () => {
		expect(run(`ssh node-1 curl -s http://${podIp('agnhost-hostname')}:9376/`).stdout).toBe('agnhost-hostname');
		expect(run(`ssh node-1 curl -s http://${podIp('agnhost-hostname')}:8080/`).exitCode).not.toBe(0);
	});

	it("registry.k8s.io/serve_hostname answers each Pod's own name (the Debug Services task)", () => {
		const pods = cluster.list('pods', 'default').filter((p) => p.metadata.name?.startsWith('hostnames-'));
		expect(pods).toHaveLength(2);
		for (const pod of pods) expect(run(`ssh node-1 curl -s http://${podIp(pod.metadata.name!)}:9376`).stdout).toBe(pod.metadata.name);
		expect(run(`kubectl logs ${pods[0].metadata.name}`).stderr + run(`kubectl logs ${pods[0].metadata.name}`).stdout).toMatch(/Serving on port 9376\.\n/);
	});

	it('agnhost dns-suffix and dns-server-list print what the Pod\'s resolv.conf says', () => {
		expect(run('kubectl logs suffix').stdout).toBe('default.svc.cluster.local,svc.cluster.local,cluster.local\n');
		expect(run('kubectl logs servers').stdout).toBe('10.96.0.10\n');
		expect(run('kubectl get pod suffix -o jsonpath={.status.phase}').stdout).toBe('Succeeded');
	});
});

describe('the other images of the networking pages', () => {
	it("hpa-example's php-apache answers OK! on port 80", () => {
		expect(run(`ssh node-1 curl -s http://${podIp('php-apache')}/`).stdout).toBe('OK!');
		expect(run('kubectl exec php-apache -- cat /var/www/html/index.php').stdout).toContain('echo "OK!";');
	});

	it('runs jessie-dnsutils, curlimages/curl and an old busybox with sleep', () => {
		for (const pod of ['dnsutils', 'client', 'shell']) expect(run(`kubectl get pod ${pod} -o jsonpath={.status.phase}`).stdout, pod).toBe('Running');
		expect(run('kubectl exec dnsutils -- cat /etc/os-release').stdout).toContain('PRETTY_NAME="Debian GNU/Linux 8 (jessie)"');
		expect(run('kubectl exec client -- cat /etc/os-release').stdout).toContain('ID=alpine');
	});

	it('bprashanth/nginxhttps serves the welcome page on 80 and listens on 443, started by its reload script', () => {
		expect(run('kubectl get pod nginxhttps -o jsonpath={.status.phase}').stdout).toBe('Running');
		expect(run(`ssh node-1 curl -s http://${podIp('nginxhttps')}/`).stdout).toContain('<title>Welcome to nginx!</title>');
		expect(run('kubectl exec nginxhttps -- nginx -v').stderr).toBe('nginx version: nginx/1.9.11\n');
	});

	it('an image the registry mirror does not carry: not found, then ErrImagePull and ImagePullBackOff', () => {
		const describe = run('kubectl describe pod typo').stdout;
		expect(describe).toContain(
			'Failed to pull image "ngnix:1.27": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/ngnix:1.27": failed to resolve reference "docker.io/library/ngnix:1.27": docker.io/library/ngnix:1.27: not found',
		);
		expect(describe).toContain('Error: ErrImagePull');
		expect(describe).toContain('Error: ImagePullBackOff');
		expect(run('kubectl get pod typo -o jsonpath={.status.containerStatuses[0].state.waiting.reason}').stdout).toMatch(/^(ErrImagePull|ImagePullBackOff)$/);
	});
});
