/**
 * The node tools a reader uses to debug the network (kubernetes.io's "Debug
 * Services" and friends), through the cluster's public API: `ps auxw | grep
 * kube-proxy` on a worker, `ss -tlnp` on the control plane, `conntrack -L`
 * after a Pod's DNS lookup and a request to a Service, and what a stopped
 * component leaves behind in each.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

/** The PID ps shows for the first process whose command line starts with `command`. */
function pidOf(cluster: Cluster, node: string, command: string): number {
	const line = run(cluster, `ssh ${node} ps -eo pid,args`).stdout.split('\n').find((l) => l.trim().split(/\s+/).slice(1).join(' ').startsWith(command));
	return Number(line?.trim().split(/\s+/)[0]);
}

describe('ps on a node', () => {
	const cluster = new Cluster({ seed: 5 });

	it('ps auxw | grep kube-proxy prints kube-proxy with its DaemonSet flags, and the grep itself', () => {
		const lines = run(cluster, "ssh node-1 'ps auxw | grep kube-proxy'").stdout.trimEnd().split('\n');
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(/^root +\d+ +\d+\.\d +\d+\.\d +\d+ +\d+ \? +Ssl +08:00 +0:00 \/usr\/local\/bin\/kube-proxy --config=\/var\/lib\/kube-proxy\/config\.conf --hostname-override=node-1$/);
		expect(lines[1]).toMatch(/^root +\d+ .* pts\/0 +S\+ +\d\d:\d\d +0:00 grep kube-proxy$/);
		// grep on the workstation is not a process of the node.
		expect(run(cluster, 'ssh node-1 ps auxw | grep kube-proxy').stdout.trimEnd().split('\n')).toEqual([lines[0]]);
	});

	it('ps aux lists systemd first, the daemons with their unit command lines, and a shim and /pause per Pod', () => {
		const out = run(cluster, 'ssh node-1 ps aux').stdout.split('\n');
		expect(out[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
		expect(out[1]).toMatch(/^root {11}1 .* \/sbin\/init$/);
		expect(out.some((l) => l.endsWith(' /usr/bin/containerd'))).toBe(true);
		expect(out.find((l) => / \/usr\/bin\/kubelet /.test(l))).toMatch(
			/ \/usr\/bin\/kubelet --bootstrap-kubeconfig=\/etc\/kubernetes\/bootstrap-kubelet\.conf --kubeconfig=\/etc\/kubernetes\/kubelet\.conf --config=\/var\/lib\/kubelet\/config\.yaml --container-runtime-endpoint=unix:\/\/\/var\/run\/containerd\/containerd\.sock/,
		);
		const shims = out.filter((l) => l.includes('/usr/bin/containerd-shim-runc-v2 -namespace k8s.io -id '));
		const pauses = out.filter((l) => l.endsWith(' /pause'));
		const sandboxes = run(cluster, 'ssh node-1 crictl pods -q').stdout.trim().split('\n');
		expect(shims).toHaveLength(sandboxes.length);
		expect(pauses).toHaveLength(sandboxes.length);
		for (const id of sandboxes) expect(shims.some((l) => l.includes(`-id ${id} -address /run/containerd/containerd.sock`))).toBe(true);
		// The shim's PID is the one systemctl status shows in containerd's cgroup.
		const shimPid = shims[0].trim().split(/\s+/)[1];
		expect(run(cluster, 'ssh node-1 systemctl status containerd').stdout).toContain(`${shimPid} /usr/bin/containerd-shim-runc-v2`);
	});

	it('the control plane runs its static pods with their manifests’ flags; CoreDNS runs as its image’s user', () => {
		const out = run(cluster, 'ssh control-plane ps -ef').stdout;
		expect(out.split('\n')[0]).toBe('UID          PID    PPID  C STIME TTY          TIME CMD');
		expect(out).toMatch(/ kube-apiserver --advertise-address=192\.168\.56\.10 --allow-privileged=true --authorization-mode=Node,RBAC /);
		expect(out).toMatch(/ etcd --advertise-client-urls=https:\/\/192\.168\.56\.10:2379 /);
		expect(out).toMatch(/ kube-scheduler --authentication-kubeconfig=\/etc\/kubernetes\/scheduler\.conf /);
		expect(out).toMatch(/ kube-controller-manager --allocate-node-cidrs=true /);
		expect(out).toMatch(/^65532 .* \/coredns -conf \/etc\/coredns\/Corefile$/m);
		expect(run(cluster, 'ssh control-plane ps -o pid,cmd -C kube-scheduler').stdout).toMatch(/^ {4}PID CMD\n +\d+ kube-scheduler --authentication-kubeconfig=/);
		expect(run(cluster, 'ssh control-plane pgrep -a etcd').stdout).toMatch(/^\d+ etcd --advertise-client-urls=/);
	});

	it('a stopped kubelet is gone from ps, pgrep and ss; started again it has a new PID', () => {
		const before = pidOf(cluster, 'node-2', '/usr/bin/kubelet');
		expect(run(cluster, 'ssh node-2 ss -tlnp').stdout).toMatch(new RegExp(`\\*:10250 +\\*:\\* +users:\\(\\("kubelet",pid=${before},fd=\\d+\\)\\)`));
		run(cluster, 'ssh node-2 systemctl stop kubelet');
		expect(cluster.exec('ssh node-2 pgrep kubelet')).toMatchObject({ stdout: '', exitCode: 1 });
		expect(run(cluster, 'ssh node-2 ps aux').stdout).not.toContain('/usr/bin/kubelet');
		const ss = run(cluster, 'ssh node-2 ss -tlnp').stdout;
		expect(ss).not.toContain(':10250');
		expect(ss).not.toContain(':10248');
		// kube-proxy's container keeps running without the kubelet.
		expect(ss).toMatch(/127\.0\.0\.1:10249 .*"kube-proxy"/);
		run(cluster, 'ssh node-2 systemctl start kubelet');
		const after = pidOf(cluster, 'node-2', '/usr/bin/kubelet');
		expect(after).toBeGreaterThan(before);
		expect(run(cluster, 'ssh node-2 pidof kubelet').stdout).toBe(`${after}\n`);
	});

	it('bad options answer as procps does', () => {
		const r = cluster.exec('ssh node-1 ps --bogus');
		expect(r.exitCode).toBe(1);
		expect(r.stderr).toBe("error: unknown gnu long option\n\nUsage:\n ps [options]\n\n Try 'ps --help <simple|list|output|threads|misc|all>'\n  or 'ps --help <s|l|o|t|m|a>'\n for additional help text.\n\nFor more details see ps(1).\n");
		expect(cluster.exec('ssh node-1 ps -o pid,bogus').stderr).toMatch(/^error: unknown user-defined format specifier "bogus"\n/);
		// -aux is not SysV (-u wants a user): the BSD retry reads it as aux.
		expect(run(cluster, 'ssh node-1 ps -aux').stdout.split('\n')[0]).toBe('USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND');
	});
});

describe('ss on the control plane', () => {
	const cluster = new Cluster({ seed: 6 });

	it('ss -tlnp lists the API server, etcd, the kubelet, the controller-manager and the scheduler with the PIDs ps shows', () => {
		const out = run(cluster, 'ssh control-plane ss -tlnp').stdout.split('\n');
		expect(out[0]).toMatch(/^State +Recv-Q Send-Q Local Address:Port +Peer Address:PortProcess/);
		const row = (local: string, comm: string, pid: number) => expect(out.some((l) => new RegExp(`^LISTEN 0 +4096 +${local.replace(/[.*]/g, '\\$&')} +\\S+ +users:\\(\\("${comm}",pid=${pid},fd=\\d+\\)\\)`).test(l)), `${local} ${comm}`).toBe(true);
		row('*:6443', 'kube-apiserver', pidOf(cluster, 'control-plane', 'kube-apiserver'));
		const etcd = pidOf(cluster, 'control-plane', 'etcd');
		row('127.0.0.1:2379', 'etcd', etcd);
		row('192.168.56.10:2379', 'etcd', etcd);
		row('192.168.56.10:2380', 'etcd', etcd);
		row('127.0.0.1:2381', 'etcd', etcd);
		row('*:10250', 'kubelet', pidOf(cluster, 'control-plane', '/usr/bin/kubelet'));
		row('127.0.0.1:10257', 'kube-controller', pidOf(cluster, 'control-plane', 'kube-controller-manager'));
		row('127.0.0.1:10259', 'kube-scheduler', pidOf(cluster, 'control-plane', 'kube-scheduler'));
		row('127.0.0.53%lo:53', 'systemd-resolve', pidOf(cluster, 'control-plane', '/usr/lib/systemd/systemd-resolved'));
		// No NodePort sockets: kube-proxy has not held them since its port opener was removed.
		expect(out.filter((l) => /:3\d{4} /.test(l) && /kube-proxy/.test(l))).toEqual([]);
		// CoreDNS listens in its Pod's own network namespace, not the node's.
		expect(out.some((l) => l.includes('"coredns"'))).toBe(false);
	});

	it('ss -ulnp shows systemd-resolved’s stubs; ss -tnp the watches to the API server', () => {
		expect(run(cluster, 'ssh control-plane ss -ulnp').stdout).toMatch(/^State +Recv-Q Send-Q Local Address:Port +Peer Address:PortProcess *\nUNCONN 0 +0 +127\.0\.0\.53%lo:53 +0\.0\.0\.0:\* +users:\(\("systemd-resolve",pid=\d+,fd=\d+\)\) *\nUNCONN 0 +0 +127\.0\.0\.54:53 /);
		const estab = run(cluster, 'ssh node-1 ss -tnp').stdout;
		expect(estab).toMatch(/^ESTAB 0 +0 +192\.168\.56\.11:\d+ +192\.168\.56\.10:6443 +users:\(\("kubelet",pid=\d+,fd=\d+\)\)/m);
		expect(run(cluster, 'ssh control-plane ss -tnp').stdout).toMatch(/ESTAB 0 +0 +\[::ffff:192\.168\.56\.10\]:6443 +\[::ffff:192\.168\.56\.11\]:\d+ +users:\(\("kube-apiserver"/);
	});

	it('a component that stopped takes its sockets with it', () => {
		cluster.stop('kube-scheduler');
		cluster.advance('20s');
		expect(run(cluster, 'ssh control-plane ss -tlnp').stdout).not.toContain(':10259');
		expect(run(cluster, 'ssh control-plane ps -e').stdout).not.toMatch(/ kube-scheduler$/m);
	});

	it('bad options answer as iproute2 does', () => {
		const r = cluster.exec('ssh control-plane ss -k');
		expect(r.exitCode).toBe(255);
		expect(r.stderr).toMatch(/^ss: invalid option -- 'k'\nUsage: ss \[ OPTIONS \]\n/);
	});
});

describe('conntrack -L on the node of a Pod', () => {
	const cluster = new Cluster({ seed: 8 });
	run(cluster, 'kubectl run client --image=busybox:1.28 -- sleep 3600');
	run(cluster, 'kubectl create deployment web --image=nginx:1.29');
	run(cluster, 'kubectl expose deployment web --port=80');
	cluster.settle({ maxMs: 120_000 });
	cluster.advance('5s');
	const node = (cluster.get('pods', 'default', 'client')?.spec as { nodeName: string }).nodeName;
	const clientIp = (cluster.get('pods', 'default', 'client')?.status as { podIP: string }).podIP;
	const corednsIps = cluster.list('pods', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns').map((p) => (p.status as { podIP: string }).podIP);

	it('shows the DNS lookup to 10.96.0.10 DNATed to a CoreDNS Pod, which expires after nf_conntrack_udp_timeout', () => {
		run(cluster, 'kubectl exec client -- nslookup kubernetes.default');
		const r = run(cluster, `ssh ${node} conntrack -L -d 10.96.0.10`);
		const lines = r.stdout.trimEnd().split('\n');
		expect(lines.length).toBeGreaterThan(0);
		for (const line of lines) {
			const m = new RegExp(`^udp +17 (\\d+) src=${clientIp} dst=10\\.96\\.0\\.10 sport=(\\d+) dport=53 src=(\\S+) dst=${clientIp} sport=53 dport=(\\d+) mark=0 use=1$`).exec(line);
			expect(m, line).not.toBeNull();
			expect(Number(m![1])).toBeLessThanOrEqual(30);
			expect(corednsIps).toContain(m![3]);
			expect(m![4]).toBe(m![2]);
		}
		expect(r.stderr).toBe(`conntrack v1.4.8 (conntrack-tools): ${lines.length} flow entries have been shown.\n`);
		expect(run(cluster, `ssh ${node} conntrack -L -p udp --dport 53`).stdout).toBe(r.stdout);
		cluster.advance('31s');
		expect(run(cluster, `ssh ${node} conntrack -L -d 10.96.0.10`)).toMatchObject({ stdout: '', stderr: 'conntrack v1.4.8 (conntrack-tools): 0 flow entries have been shown.\n' });
	});

	it('shows a request to a Service as TIME_WAIT, the reply from the endpoint the rules chose', () => {
		const clusterIP = (cluster.get('services', 'default', 'web')?.spec as { clusterIP: string }).clusterIP;
		const webIp = (cluster.list('pods', 'default').find((p) => p.metadata.labels?.app === 'web')?.status as { podIP: string }).podIP;
		run(cluster, `kubectl exec client -- wget -qO- http://${clusterIP}/`);
		const line = run(cluster, `ssh ${node} conntrack -L -p tcp -d ${clusterIP}`).stdout.trimEnd();
		expect(line).toMatch(new RegExp(`^tcp +6 1[0-2]\\d TIME_WAIT src=${clientIp} dst=${clusterIP} sport=(\\d+) dport=80 src=${webIp} dst=\\S+ sport=80 dport=\\1 \\[ASSURED\\] mark=0 use=1$`));
		const count = Number(run(cluster, `ssh ${node} conntrack -C`).stdout);
		expect(count).toBe(run(cluster, `ssh ${node} conntrack -L`).stdout.trimEnd().split('\n').length);
		// The node's own watches to the API server are there too, established for kube-proxy's 24 hours.
		expect(run(cluster, `ssh ${node} conntrack -L -d 192.168.56.10`).stdout).toMatch(/^tcp +6 8640\d ESTABLISHED src=192\.168\.56\.1\d dst=192\.168\.56\.10 sport=\d+ dport=6443 /m);
		expect(run(cluster, `ssh ${node} conntrack -D -p tcp -d ${clusterIP}`).stderr).toBe('conntrack v1.4.8 (conntrack-tools): 1 flow entries have been deleted.\n');
		expect(run(cluster, `ssh ${node} conntrack -L -p tcp -d ${clusterIP}`).stdout).toBe('');
	});

	it('kube-proxy deletes the UDP entries of a CoreDNS Pod that went away, before they time out', () => {
		run(cluster, 'kubectl exec client -- nslookup kubernetes.default');
		const targets = [...run(cluster, `ssh ${node} conntrack -L -p udp -d 10.96.0.10`).stdout.matchAll(/ src=(\S+) dst=\S+ sport=53 /g)].map((m) => m[1]);
		const gone = targets[0];
		const pod = cluster.list('pods', 'kube-system').find((p) => (p.status as { podIP?: string }).podIP === gone)?.metadata.name;
		run(cluster, `kubectl delete pod -n kube-system ${pod} --grace-period=0 --force`);
		cluster.advance('5s');
		const left = run(cluster, `ssh ${node} conntrack -L -p udp -d 10.96.0.10`).stdout;
		expect(left).not.toContain(` src=${gone} `);
		expect(left.trim().split('\n').filter(Boolean)).toHaveLength(targets.filter((t) => t !== gone).length);
	});

	it('port filters need the protocol first, as conntrack only knows them once -p names it', () => {
		expect(cluster.exec(`ssh ${node} conntrack -L --dport 53`)).toMatchObject({ exitCode: 2, stderr: "conntrack: unrecognized option '--dport'\nTry `conntrack -h' or 'conntrack --help' for more information.\n" });
	});
});

describe('the node tools are deterministic', () => {
	it('the same seed and inputs give the same ps, ss and conntrack output', () => {
		const outputs = [1, 2].map(() => {
			const c = new Cluster({ seed: 11 });
			run(c, 'kubectl run probe --image=busybox:1.28 -- sleep 3600');
			c.settle({ maxMs: 60_000 });
			run(c, 'kubectl exec probe -- nslookup kubernetes.default');
			const node = (c.get('pods', 'default', 'probe')?.spec as { nodeName: string }).nodeName;
			return [run(c, `ssh ${node} ps aux`).stdout, run(c, `ssh ${node} ss -tanp`).stdout, run(c, `ssh ${node} conntrack -L`).stdout].join('\n');
		});
		expect(outputs[1]).toBe(outputs[0]);
	});
});
