/**
 * A stacked etcd cluster of three members (`controlPlane: { etcdMembers: 3 }`),
 * driven as a reader drives it: etcdctl on the control-plane machines,
 * kubectl from the workstation, members stopped and machines cut off.
 * What a reader relies on: the members kubeadm join added, one leader,
 * kubectl working while a quorum remains and failing with etcd's
 * `request timed out` when it does not, every acknowledged write still there
 * after recovery, a new leader after the old one goes, followers catching up.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster } from '../index.ts';
import type { Cluster } from './cluster.ts';

const ETCDCTL = 'etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

/** Runs a line on a control-plane machine's shell, as `ssh <machine>` then the line would. */
function onMachine(cluster: Cluster, machine: string, line: string) {
	cluster.exec(`ssh ${machine}`);
	const result = cluster.exec(line);
	cluster.exec('exit');
	return result;
}

/** `endpoint status --cluster` rows (simple format): endpoint, id, ..., is leader, is learner, term, index, applied index. */
function statusRows(cluster: Cluster, machine = 'control-plane') {
	const { stdout } = onMachine(cluster, machine, `${ETCDCTL} endpoint status --cluster`);
	return stdout
		.trim()
		.split('\n')
		.filter(Boolean)
		.map((line) => {
			const cells = line.split(', ');
			return { endpoint: cells[0], id: cells[1], isLeader: cells[8] === 'true', term: Number(cells[10]), index: Number(cells[11]), applied: Number(cells[12]) };
		});
}

function leaderEndpoint(cluster: Cluster, machine = 'control-plane'): string | undefined {
	return statusRows(cluster, machine).find((r) => r.isLeader)?.endpoint;
}

const MEMBER_IPS: Record<string, string> = { 'control-plane': '192.168.56.10', 'control-plane-2': '192.168.56.11', 'control-plane-3': '192.168.56.12' };

describe('a three-member stacked etcd cluster', () => {
	it('has the members kubeadm join added, one leader, and the same log on every member', () => {
		const cluster = createCluster({ seed: 7, controlPlane: { etcdMembers: 3 } });
		const pods = cluster.exec('kubectl get pods -n kube-system -l component=etcd --no-headers').stdout;
		for (const machine of Object.keys(MEMBER_IPS)) expect(pods).toMatch(new RegExp(`^etcd-${machine}\\s+1/1\\s+Running`, 'm'));
		const members = onMachine(cluster, 'control-plane', `${ETCDCTL} member list`).stdout.trim().split('\n');
		expect(members).toHaveLength(3);
		for (const [machine, ip] of Object.entries(MEMBER_IPS)) expect(members.some((m) => m.includes(`, started, ${machine}, https://${ip}:2380, https://${ip}:2379, false`))).toBe(true);
		const rows = statusRows(cluster);
		expect(rows.filter((r) => r.isLeader)).toHaveLength(1);
		// The first member bootstrapped alone and won term 2; the others joined at that term.
		expect(new Set(rows.map((r) => r.term))).toEqual(new Set([2]));
		expect(new Set(rows.map((r) => r.index)).size).toBe(1);
		// The joining members' manifests say so, as kubeadm join --control-plane writes them.
		const manifest = onMachine(cluster, 'control-plane-3', 'cat /etc/kubernetes/manifests/etcd.yaml').stdout;
		expect(manifest).toContain('--initial-cluster=control-plane=https://192.168.56.10:2380,control-plane-2=https://192.168.56.11:2380,control-plane-3=https://192.168.56.12:2380');
		expect(manifest).toContain('--initial-cluster-state=existing');
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} endpoint health --cluster`).exitCode).toBe(0);
	});

	it('keeps serving with one member down, and the member catches up when it returns', () => {
		const cluster = createCluster({ seed: 7, controlPlane: { etcdMembers: 3 } });
		cluster.stop('etcd', 'control-plane-3');
		cluster.advance('2s');
		expect(cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2').stdout).toBe('deployment.apps/web created\n');
		cluster.advance('60s');
		expect(cluster.exec('kubectl get deploy web --no-headers').stdout).toMatch(/^web\s+2\/2\s/);
		const health = onMachine(cluster, 'control-plane', `${ETCDCTL} endpoint health --cluster`);
		expect(health.exitCode).toBe(1);
		expect(health.stderr).toContain('https://192.168.56.12:2379 is unhealthy: failed to commit proposal: context deadline exceeded');
		cluster.start('etcd', 'control-plane-3');
		cluster.advance('60s');
		// Same keys at the same revision on every member.
		const hashes = onMachine(cluster, 'control-plane', `${ETCDCTL} endpoint hashkv --cluster`).stdout.trim().split('\n');
		expect(hashes).toHaveLength(3);
		expect(new Set(hashes.map((line) => line.split(', ').slice(1).join(', '))).size).toBe(1);
	});

	it('loses the API to a lost quorum, with etcd’s error, and loses no acknowledged write', () => {
		const cluster = createCluster({ seed: 7, controlPlane: { etcdMembers: 3 } });
		cluster.exec('kubectl create deployment before --image=nginx:1.27');
		cluster.exec('kubectl create configmap acknowledged --from-literal=k=v');
		cluster.stop('etcd', 'control-plane-2');
		cluster.stop('etcd', 'control-plane-3');
		cluster.advance('3s');
		const refused = cluster.exec('kubectl get deploy');
		expect(refused.exitCode).toBe(1);
		expect(refused.stderr).toBe('Error from server: etcdserver: request timed out\n');
		// kubectl create configmap wraps the server's error in its own words.
		expect(cluster.exec('kubectl create configmap during --from-literal=k=v').stderr).toBe('error: failed to create configmap: etcdserver: request timed out\n');
		// The lone member knows it is no leader, and its status says so in ERRORS: no quorum, no writes.
		expect(statusRows(cluster).filter((r) => r.isLeader)).toEqual([]);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} endpoint status`).stdout).toMatch(/, false, false, 2, \d+, \d+, etcdserver: no leader, , false\n$/);
		cluster.start('etcd', 'control-plane-2');
		cluster.advance('60s');
		expect(cluster.exec('kubectl get configmap acknowledged -o jsonpath={.data.k}').stdout).toBe('v');
		expect(cluster.exec('kubectl get configmap during').stderr).toBe('Error from server (NotFound): configmaps "during" not found\n');
		expect(cluster.exec('kubectl get deploy before --no-headers').stdout).toMatch(/^before\s+1\/1\s/);
		expect(cluster.exec('kubectl create configmap after --from-literal=k=v').exitCode).toBe(0);
	});

	it('elects a new leader within the election timeouts when the leader stops, and the API carries on', () => {
		const cluster = createCluster({ seed: 11, controlPlane: { etcdMembers: 3 } });
		// Hand leadership to control-plane-2 (the API server's own member, on control-plane, stays up).
		const ids = Object.fromEntries(statusRows(cluster).map((r) => [r.endpoint, r.id]));
		const moved = onMachine(cluster, 'control-plane', `${ETCDCTL} move-leader ${ids['https://192.168.56.11:2379']}`);
		expect(moved.stdout).toMatch(/^Leadership transferred from [0-9a-f]+ to [0-9a-f]+\n$/);
		expect(leaderEndpoint(cluster)).toBe('https://192.168.56.11:2379');
		const termBefore = statusRows(cluster)[0].term;
		const stoppedAt = cluster.now();
		cluster.stop('etcd', 'control-plane-2');
		// Poll as a reader would, every 100 ms, until kubectl answers again.
		let answeredAfterMs: number | undefined;
		for (let i = 0; i < 50 && answeredAfterMs === undefined; i++) {
			cluster.advance('100ms');
			if (cluster.exec('kubectl get ns default -o name').exitCode === 0) answeredAfterMs = cluster.now() - stoppedAt;
		}
		expect(answeredAfterMs).toBeDefined();
		// Followers wait a randomized 1000 to 1900 ms without heartbeats, then a pre-vote and a vote round.
		expect(answeredAfterMs!).toBeGreaterThanOrEqual(1000);
		expect(answeredAfterMs!).toBeLessThanOrEqual(4000);
		const rows = statusRows(cluster);
		expect(rows.filter((r) => r.isLeader)).toHaveLength(1);
		expect(rows[0].term).toBeGreaterThan(termBefore);
		expect(cluster.trace().some((e) => e.component.startsWith('etcd') && e.action === 'elected' && e.atMs > stoppedAt)).toBe(true);
	});

	it('a member cut off answers serializable reads from its stale copy, times out linearizable ones, and catches up after healing', () => {
		const cluster = createCluster({ seed: 7, controlPlane: { etcdMembers: 3 } });
		cluster.partition('control-plane-3');
		cluster.advance('2s');
		expect(cluster.exec('kubectl create configmap while-cut --from-literal=k=v').exitCode).toBe(0);
		const key = '/registry/configmaps/default/while-cut';
		expect(onMachine(cluster, 'control-plane-3', `${ETCDCTL} get ${key} --keys-only --consistency=s`).stdout).toBe('');
		const linearizable = onMachine(cluster, 'control-plane-3', `${ETCDCTL} get ${key} --keys-only`);
		expect(linearizable.exitCode).toBe(1);
		expect(linearizable.stderr).toMatch(/Error: context deadline exceeded\n$/);
		cluster.heal('control-plane-3');
		cluster.advance('1s');
		expect(onMachine(cluster, 'control-plane-3', `${ETCDCTL} get ${key} --keys-only --consistency=s`).stdout).toBe(`${key}\n\n`);
	});

	it('is deterministic, and a snapshot continues exactly as the original', () => {
		const run = () => {
			const cluster = createCluster({ seed: 3, controlPlane: { etcdMembers: 3 } });
			cluster.stop('etcd', 'control-plane-2');
			cluster.advance('5s');
			cluster.exec('kubectl create deployment web --image=nginx:1.27');
			return cluster;
		};
		const a = run();
		const b = run();
		expect(JSON.stringify(a.trace())).toBe(JSON.stringify(b.trace()));
		const restored = restoreCluster(a.snapshot());
		for (const cluster of [a, restored]) {
			cluster.start('etcd', 'control-plane-2');
			cluster.advance('30s');
		}
		expect(statusRows(restored)).toEqual(statusRows(a));
		expect(JSON.stringify(restored.trace({ sinceMs: restored.now() - 30_000 }))).toBe(JSON.stringify(a.trace({ sinceMs: a.now() - 30_000 })));
	});

	it('removes a dead member (member remove): two members left, both needed, and the removed one exits when it starts', () => {
		const cluster = createCluster({ seed: 7, controlPlane: { etcdMembers: 3 } });
		cluster.stop('etcd', 'control-plane-3');
		cluster.advance('2s');
		const list = onMachine(cluster, 'control-plane', `${ETCDCTL} member list`).stdout.split('\n');
		const idOf = (machine: string) => list.find((l) => l.includes(`, ${machine}, `))!.split(', ')[0];
		const dead = idOf('control-plane-3');
		// etcd's strict reconfiguration check: without control-plane-2, the two members left (one of them down) would have no started quorum.
		const refused = onMachine(cluster, 'control-plane', `${ETCDCTL} member remove ${idOf('control-plane-2')}`);
		expect([refused.stderr.split('\n').at(-2), refused.exitCode]).toEqual(['Error: etcdserver: re-configuration failed due to not enough started members', 1]);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member remove ${dead}`).stdout).toMatch(new RegExp(`^Member ${dead} removed from cluster [0-9a-f ]{16}\n$`));
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member list`).stdout.trim().split('\n')).toHaveLength(2);
		// Quorum of two is two: one more stopped member stops the API.
		cluster.stop('etcd', 'control-plane-2');
		cluster.advance('3s');
		expect(cluster.exec('kubectl get ns default').stderr).toBe('Error from server: etcdserver: request timed out\n');
		cluster.start('etcd', 'control-plane-2');
		cluster.advance('30s');
		expect(cluster.exec('kubectl get ns default').exitCode).toBe(0);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member remove 1234`).stderr).toMatch(/Error: etcdserver: member not found\n$/);
		// The removed member's static pod comes back, learns it was removed, and exits.
		cluster.start('etcd', 'control-plane-3');
		cluster.advance('30s');
		expect(cluster.trace().some((e) => e.component === 'etcd/control-plane-3' && e.msg === 'the member has been permanently removed from the cluster')).toBe(true);
		expect(cluster.exec('kubectl get pod -n kube-system etcd-control-plane-3 -o jsonpath={.status.containerStatuses[0].ready}').stdout).toBe('false');
	});

	it('member add makes an unstarted voter: the quorum grows at once, so one more failure loses the API (start it right after adding it)', () => {
		const cluster = createCluster({ seed: 7, controlPlane: { etcdMembers: 3 } });
		const [added] = [onMachine(cluster, 'control-plane', `${ETCDCTL} member add etcd-4 --peer-urls=https://192.168.56.20:2380`)];
		expect(added.stdout).toMatch(/^Member [0-9a-f ]{16} added to cluster [0-9a-f ]{16}\n\nETCD_NAME="etcd-4"\nETCD_INITIAL_CLUSTER="[^"]*etcd-4=https:\/\/192\.168\.56\.20:2380[^"]*"\nETCD_INITIAL_ADVERTISE_PEER_URLS="https:\/\/192\.168\.56\.20:2380"\nETCD_INITIAL_CLUSTER_STATE="existing"\n$/);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member list`).stdout).toMatch(/^[0-9a-f]{16}, unstarted, , https:\/\/192\.168\.56\.20:2380, , false$/m);
		// etcd's strict checks: a peer URL in use, and an add while the leader is not connected to every voter.
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member add x --peer-urls=https://192.168.56.11:2380`).stderr).toMatch(/Error: etcdserver: Peer URLs already exists\n$/);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member add etcd-5 --peer-urls=https://192.168.56.21:2380`).stderr).toMatch(/Error: etcdserver: unhealthy cluster\n$/);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member add etcd-5 https://192.168.56.21:2380`).stderr).toBe('Error: too many arguments, did you mean --peer-urls=https://192.168.56.21:2380\n');
		// Four voters, three running: still a quorum of three. One more down and it is gone.
		expect(cluster.exec('kubectl get ns default').exitCode).toBe(0);
		cluster.stop('etcd', 'control-plane-3');
		cluster.advance('3s');
		expect(cluster.exec('kubectl get ns default').stderr).toBe('Error from server: etcdserver: request timed out\n');
		cluster.start('etcd', 'control-plane-3');
		cluster.advance('30s');
		expect(cluster.exec('kubectl get ns default').exitCode).toBe(0);
		const id = onMachine(cluster, 'control-plane', `${ETCDCTL} member list`).stdout.split('\n').find((l) => l.includes('unstarted'))!.split(', ')[0];
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member remove ${id}`).exitCode).toBe(0);
		expect(onMachine(cluster, 'control-plane', `${ETCDCTL} member list`).stdout).not.toContain('unstarted');
	});

	it('refuses more than five members, naming the limit', () => {
		expect(() => createCluster({ controlPlane: { etcdMembers: 6 } })).toThrow('controlPlane.etcdMembers: 6 is not a whole number from 1 to 5');
	});
});
