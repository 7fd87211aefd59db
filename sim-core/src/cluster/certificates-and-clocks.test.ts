/**
 * Certificates that expire and clocks that are wrong, through the public
 * API as a reader meets them: kubeadm's certificates dated at init and
 * listed by `kubeadm certs check-expiration`; the API server's serving
 * certificate expiring (every client's TLS handshake fails, the node
 * controller's too, so nothing even marks the nodes NotReady); `kubeadm certs renew all`, the stale kubeconfig copies and
 * components that keep their old certificate until restarted; and a node
 * whose clock is set back (`date -s`), which can no longer trust the API
 * server's certificate and goes NotReady until the clock is fixed.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import type { Node } from '../api/types.ts';

const HOUR = 3_600_000;

function ready(cluster: ReturnType<typeof createCluster>, node: string): string | undefined {
	const n = cluster.list('nodes').find((o) => o.metadata.name === node) as Node | undefined;
	return n?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

describe('kubeadm certs check-expiration', () => {
	it('lists every certificate kubeadm issued, a year from init, and the three CAs ten years out', () => {
		const cluster = createCluster();
		const out = cluster.exec('ssh control-plane kubeadm certs check-expiration');
		expect(out.exitCode).toBe(0);
		const lines = out.stdout.split('\n');
		expect(lines[0]).toBe('[check-expiration] Reading configuration from the "kubeadm-config" ConfigMap in namespace "kube-system"...');
		expect(lines[3]).toBe('CERTIFICATE                EXPIRES                  RESIDUAL TIME   CERTIFICATE AUTHORITY   EXTERNALLY MANAGED');
		// The cluster starts at 2026-11-30T08:00:00Z: 8760h later, 364 days of residual time once a few seconds have passed.
		expect(lines[4]).toBe('admin.conf                 Nov 30, 2027 08:00 UTC   364d            ca                      no      ');
		expect(lines.filter((l) => / (ca|etcd-ca|front-proxy-ca) +no/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual([
			'admin.conf', 'apiserver', 'apiserver-etcd-client', 'apiserver-kubelet-client', 'controller-manager.conf', 'etcd-healthcheck-client', 'etcd-peer', 'etcd-server', 'front-proxy-client', 'scheduler.conf', 'super-admin.conf',
		]);
		expect(out.stdout).toContain('ca                      Nov 27, 2036 08:00 UTC   9y              no      \n');
		// The files themselves say so too.
		expect(cluster.exec('ssh control-plane openssl x509 -in /etc/kubernetes/pki/apiserver.crt -noout -dates').stdout).toBe('notBefore=Nov 30 07:55:00 2026 GMT\nnotAfter=Nov 30 08:00:00 2027 GMT\n');
	});

	it('takes its validity from the ClusterConfiguration, and refuses a period that is not a duration', () => {
		const cluster = createCluster({ kubeadm: { certificateValidityPeriod: '2h' } });
		expect(cluster.exec('kubectl get cm -n kube-system kubeadm-config -o yaml').stdout).toContain('certificateValidityPeriod: 2h0m0s');
		expect(cluster.exec('ssh control-plane kubeadm certs check-expiration').stdout).toContain('apiserver                  Nov 30, 2026 10:00 UTC   1h ');
		expect(() => createCluster({ kubeadm: { certificateValidityPeriod: 'a year' } })).toThrow('kubeadm.certificateValidityPeriod: "a year" is not a positive duration');
	});
});

describe('kubeadm certs renew and the other commands', () => {
	it('renews one certificate by name, refuses an unknown one, and finds nothing of its own on a worker', () => {
		const cluster = createCluster();
		cluster.advance(HOUR);
		const one = cluster.exec('ssh control-plane kubeadm certs renew apiserver');
		expect(one.stdout.split('\n').filter(Boolean).slice(2)).toEqual(['certificate for serving the Kubernetes API renewed']);
		const check = cluster.exec('ssh control-plane kubeadm certs check-expiration').stdout;
		expect(check).toContain('apiserver                  Nov 30, 2027 09:00 UTC');
		expect(check).toContain('admin.conf                 Nov 30, 2027 08:00 UTC');
		expect(cluster.exec('ssh control-plane kubeadm certs renew bogus')).toMatchObject({ stderr: 'error: unknown command "bogus" for "kubeadm certs renew"\nTo see the stack trace of this error execute with --v=5 or higher\n', exitCode: 1 });
		// A worker has no admin.conf to read the cluster with, and none of the control plane's certificates.
		const worker = cluster.exec('ssh node-1 kubeadm certs check-expiration').stdout;
		expect(worker.startsWith('[check-expiration] Error reading configuration from the Cluster. Falling back to default configuration\n')).toBe(true);
		expect(worker).toContain('!MISSING! apiserver');
		expect(worker).toContain('!MISSING! front-proxy-ca');
		// kubeadm is installed on the machines, not on the reader's workstation.
		expect(cluster.exec('kubeadm version').exitCode).toBe(127);
		expect(cluster.exec('ssh node-1 kubeadm version -o short').stdout).toBe('v1.36.3\n');
	});

	it('timedatectl shows the machine clock, unsynchronized, and refuses set-time while timesyncd is enabled', () => {
		const cluster = createCluster();
		expect(cluster.exec('ssh node-2 timedatectl').stdout).toBe(
			'               Local time: Mon 2026-11-30 08:00:31 UTC\n           Universal time: Mon 2026-11-30 08:00:31 UTC\n                 RTC time: Mon 2026-11-30 08:00:31\n                Time zone: Etc/UTC (UTC, +0000)\nSystem clock synchronized: no\n              NTP service: active\n          RTC in local TZ: no\n',
		);
		expect(cluster.exec(`ssh node-2 "timedatectl set-time '2026-01-01 00:00'"`)).toMatchObject({ stderr: 'Failed to set time: Automatic time synchronization is enabled\n', exitCode: 1 });
	});
});

describe('an expired control plane', () => {
	it('fails every TLS handshake (the node controller’s too), and comes back after renew, a fresh kubeconfig and restarts', () => {
		const cluster = createCluster({ kubeadm: { certificateValidityPeriod: '2h' } });
		cluster.advance(2 * HOUR);
		const refused = cluster.exec('kubectl get nodes');
		expect(refused.stderr).toBe('Unable to connect to the server: tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time 2026-11-30T10:00:31Z is after 2026-11-30T10:00:00Z\n');
		expect(refused.exitCode).toBe(1);
		// The kubelets cannot post status either; nor can the node controller, so etcd keeps the last word: Ready.
		cluster.advance(60_000);
		expect(ready(cluster, 'node-1')).toBe('True');
		expect(cluster.exec('ssh node-1 journalctl -u kubelet --no-pager | tail -1').stdout).toContain('tls: failed to verify certificate: x509: certificate has expired or is not yet valid');

		// check-expiration cannot read the cluster's configuration any more, and says so.
		const check = cluster.exec('ssh control-plane kubeadm certs check-expiration').stdout;
		expect(check.startsWith('[check-expiration] Error reading configuration from the Cluster. Falling back to default configuration\n\n')).toBe(true);
		expect(check).toContain('apiserver                  Nov 30, 2026 10:00 UTC   <invalid>');

		const renew = cluster.exec('ssh control-plane kubeadm certs renew all');
		expect(renew.stdout).toContain('certificate for serving the Kubernetes API renewed\n');
		expect(renew.stdout).toContain('\nDone renewing certificates. You must restart the kube-apiserver, kube-controller-manager, kube-scheduler and etcd, so that they can use the new certificates.\n');
		// Renewed from the defaults (the configuration could not be read): a year from now.
		expect(cluster.exec('ssh control-plane kubeadm certs check-expiration').stdout).toContain('apiserver                  Nov 30, 2027 10:01 UTC   364d');

		// The API server reloads its serving certificate; the reader's kubeconfig is a copy of the old admin.conf.
		expect(cluster.exec('kubectl get nodes').stderr).toBe('error: You must be logged in to the server (Unauthorized)\n');
		cluster.exec('ssh control-plane cat /etc/kubernetes/admin.conf > ~/.kube/config');
		// Now the API server answers, but it still presents the etcd client certificate it loaded at start.
		expect(cluster.exec('kubectl get nodes').stderr).toBe('Error from server: etcdserver: request timed out\n');

		// kube-controller-manager, restarted alone, loads its renewed certificate, but the API server still cannot reach etcd.
		cluster.exec('ssh control-plane mv /etc/kubernetes/manifests/kube-controller-manager.yaml /tmp/');
		cluster.advance(20_000);
		cluster.exec('ssh control-plane mv /tmp/kube-controller-manager.yaml /etc/kubernetes/manifests/');
		cluster.advance(30_000);
		expect(cluster.exec('kubectl get nodes').stderr).toBe('Error from server: etcdserver: request timed out\n');
		// The rest of the control plane, the runbook's way (a manifest out of the directory and back; crictl stop for the scheduler).
		cluster.exec("ssh control-plane 'cd /etc/kubernetes/manifests && mv etcd.yaml kube-apiserver.yaml /tmp/'");
		cluster.advance(20_000);
		cluster.exec("ssh control-plane 'mv /tmp/etcd.yaml /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/'");
		cluster.exec("ssh control-plane 'crictl stop $(crictl ps -q --name kube-scheduler)'");
		cluster.settle();
		expect(cluster.exec('kubectl get nodes').exitCode).toBe(0);
		expect(ready(cluster, 'node-1')).toBe('True');
		cluster.exec('kubectl create deployment web --image=nginx --replicas=2');
		cluster.settle();
		expect(cluster.exec('kubectl get deploy web').stdout).toMatch(/^web +2\/2 +2 +2 /m);
	});

	it('keeps a component that restarts before the renewal on its expired certificate until it restarts again', () => {
		const cluster = createCluster({ kubeadm: { certificateValidityPeriod: '2h' } });
		cluster.advance(2 * HOUR);
		// Lost its lease (the API server's certificate expired): the kubelet restarted it, and it loaded its (expired) kubeconfig then.
		cluster.exec('ssh control-plane kubeadm certs renew all');
		cluster.exec('ssh control-plane cat /etc/kubernetes/admin.conf > ~/.kube/config');
		cluster.exec("ssh control-plane 'cd /etc/kubernetes/manifests && mv etcd.yaml kube-apiserver.yaml /tmp/'");
		cluster.advance(20_000);
		cluster.exec("ssh control-plane 'mv /tmp/etcd.yaml /tmp/kube-apiserver.yaml /etc/kubernetes/manifests/'");
		cluster.settle();
		cluster.exec('kubectl create deployment web --image=nginx --replicas=2');
		cluster.advance(30_000);
		expect(cluster.exec('kubectl get rs').stderr).toBe('No resources found in default namespace.\n');
		cluster.exec("ssh control-plane 'crictl stop $(crictl ps -q --name kube-controller-manager)'");
		cluster.settle();
		expect(cluster.exec('kubectl get rs').stdout).toMatch(/^web-\w+ +2 +2 /m);
	});
});

describe('a node whose clock is wrong', () => {
	it('set back a day, no longer trusts the API server certificate and goes NotReady; fixed, it comes back', () => {
		const cluster = createCluster();
		const set = cluster.exec(`ssh node-1 "date -s '-1 day'"`);
		expect(set.stdout).toBe('Sun Nov 29 08:00:31 UTC 2026\n');
		expect(cluster.exec('ssh node-1 date').stdout).toBe('Sun Nov 29 08:00:31 UTC 2026\n');
		expect(cluster.exec('date').stdout).toBe('Mon Nov 30 08:00:31 UTC 2026\n');
		expect(cluster.exec('ssh node-1 timedatectl').stdout).toContain('System clock synchronized: no');
		cluster.advance(60_000);
		expect(ready(cluster, 'node-1')).toBe('Unknown');
		expect(ready(cluster, 'node-2')).toBe('True');
		// Its journal is in its own (wrong) time, after the older entries.
		expect(cluster.exec('ssh node-1 journalctl -u kubelet --no-pager | tail -1').stdout).toMatch(/^Nov 29 08:01:\d\d node-1 kubelet\[\d+\]: E1129 .*current time 2026-11-29T08:01:\d\dZ is before 2026-11-30T07:55:00Z/);

		expect(cluster.setClock('node-1', 0)).toBeUndefined();
		cluster.advance(20_000);
		expect(ready(cluster, 'node-1')).toBe('True');
	});

	it('set a day ahead, is still within every certificate and stays Ready; only root may set it', () => {
		const cluster = createCluster();
		expect(cluster.setClock('node-2', 24 * HOUR)).toBeUndefined();
		expect(cluster.clockOffset('node-2')).toBe(24 * HOUR);
		cluster.advance(90_000);
		expect(ready(cluster, 'node-2')).toBe('True');
		expect(cluster.exec(`date -s '2020-01-01 00:00'`).stderr).toBe('date: cannot set date: Operation not permitted\n');
		expect(cluster.setClock('node-9', 1000)).toBe('no node named node-9');
	});
});
