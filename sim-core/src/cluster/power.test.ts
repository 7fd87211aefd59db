/**
 * Powering machines off and on through the Cluster API (the Faults panel's
 * buttons, a scenario's `powerOff:` / `powerOn:`). The expected values come
 * from upstream: the node lifecycle controller's 50 s nodeMonitorGracePeriod
 * and 5 s nodeMonitorPeriod, the Ready=Unknown condition it writes
 * (NodeStatusUnknown, "Kubelet stopped posting node status."), the
 * unreachable NoExecute taint and DefaultTolerationSeconds' 300 s
 * (FACTS.md A); containerd marking a container whose task vanished with a
 * reboot as exited 255 `Unknown` (internal/cri/server/restart.go); the
 * kubelet creating a new sandbox (attempt + 1, event SandboxChanged) and
 * restarting the containers with restartCount + 1, and reporting the new
 * boot ID with a Warning `Rebooted` event (nodestatus/setters.go
 * MachineInfo); kubectl's `Unable to connect to the server: <err>` for a
 * dial error that is not a refusal (kubectl/pkg/cmd/util/helpers.go).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { parseRfc3339 } from '../golang/time.ts';
import { restoreCluster } from '../index.ts';
import { Cluster } from './cluster.ts';

const WEB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: nginx, image: nginx:1.27}]
`;

interface Condition {
	type: string;
	status: string;
	reason?: string;
	message?: string;
	lastTransitionTime?: string;
}

/** A cluster running four nginx pods, some on each worker. */
function clusterWithWeb(): Cluster {
	const cluster = new Cluster({ seed: 7 });
	expect(cluster.exec('kubectl apply -f -', { stdin: WEB }).exitCode).toBe(0);
	cluster.advance('40s');
	return cluster;
}

const podsOn = (cluster: Cluster, node: string) => cluster.list('pods', 'default').filter((p) => (p.spec as { nodeName?: string }).nodeName === node);
const ready = (node: KubeObject | undefined) => ((node?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
const taints = (node: KubeObject | undefined) => ((node?.spec as { taints?: Array<{ key: string; effect: string; timeAdded?: string }> } | undefined)?.taints ?? []);
const phaseOf = (p: KubeObject) => (p.status as { phase?: string }).phase;
/** Virtual ms of an RFC 3339 time the cluster wrote. */
const atMs = (cluster: Cluster, time: string | undefined) => parseRfc3339(time ?? '') - cluster.kernel.epochMs;

describe('powering a worker off', () => {
	it('stops everything on it at once and leaves no container running', () => {
		const cluster = clusterWithWeb();
		expect(podsOn(cluster, 'node-1').length).toBeGreaterThan(0);
		expect(cluster.powerOff('node-1')).toBeUndefined();
		expect(cluster.isPoweredOff('node-1')).toBe(true);
		for (const c of cluster.components().filter((c) => c.node === 'node-1')) expect(c, c.component).toMatchObject({ running: false });
		const host = cluster.hosts.get('node-1')!;
		// containerd's records survive on disk, but no process is left behind any of them.
		expect(Object.keys(host.runtimeState.containers).length).toBeGreaterThan(0);
		expect(Object.values(host.runtimeState.containers).filter((c) => c.program && c.state === 'CONTAINER_RUNNING')).toEqual([]);
		expect(Object.values(host.runtimeState.sandboxes).map((s) => s.state)).not.toContain('SANDBOX_READY');
		// node-2 and the control plane go on.
		expect(cluster.components().filter((c) => c.node !== 'node-1').every((c) => c.running)).toBe(true);
	});

	it('is seen as a node that stopped posting status: Unknown after the 50 s grace, tainted unreachable, its pods evicted 300 s later and recreated on node-2', () => {
		const cluster = clusterWithWeb();
		const onNode1 = podsOn(cluster, 'node-1').map((p) => p.metadata.name);
		const lastRenewMs = atMs(cluster, (cluster.get('leases', 'kube-node-lease', 'node-1')?.spec as { renewTime?: string }).renewTime);
		cluster.powerOff('node-1');

		// nodeMonitorGracePeriod: 50 s from the last renewal, not yet.
		cluster.kernel.runUntil(lastRenewMs + 50_000);
		expect(ready(cluster.get('nodes', undefined, 'node-1'))?.status).toBe('True');
		// Within the next monitor ticks (5 s apart) the controller gives up on it.
		cluster.kernel.runUntil(lastRenewMs + 60_000);
		const node = cluster.get('nodes', undefined, 'node-1');
		expect(ready(node)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
		const unknownAtMs = atMs(cluster, ready(node)?.lastTransitionTime);
		expect(unknownAtMs).toBeGreaterThan(lastRenewMs + 50_000);
		expect(unknownAtMs).toBeLessThanOrEqual(lastRenewMs + 60_000);
		expect(taints(node)).toContainEqual(expect.objectContaining({ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }));
		// The NoExecute taint follows from the next monitor pass, through the zone's rate-limited tainter.
		cluster.kernel.runUntil(unknownAtMs + 10_000);
		const unreachable = taints(cluster.get('nodes', undefined, 'node-1')).find((t) => t.key === 'node.kubernetes.io/unreachable' && t.effect === 'NoExecute');
		expect(unreachable).toBeDefined();

		// The pods tolerate unreachable for 300 s (DefaultTolerationSeconds), counted from the taint.
		const taintedMs = atMs(cluster, unreachable?.timeAdded);
		cluster.kernel.runUntil(taintedMs + 299_000);
		expect(podsOn(cluster, 'node-1').filter((p) => p.metadata.deletionTimestamp)).toEqual([]);
		cluster.kernel.runUntil(taintedMs + 301_000);
		const evicted = podsOn(cluster, 'node-1');
		expect(evicted.map((p) => p.metadata.name).sort()).toEqual([...onNode1].sort());
		// Deleted, but nobody on the dead machine confirms it: they stay Terminating.
		expect(evicted.every((p) => p.metadata.deletionTimestamp)).toBe(true);
		cluster.advance('30s');
		const web = cluster.list('pods', 'default').filter((p) => !p.metadata.deletionTimestamp);
		expect(web).toHaveLength(4);
		expect(web.every((p) => (p.spec as { nodeName?: string }).nodeName === 'node-2' && phaseOf(p) === 'Running')).toBe(true);
	});

	it('loses what lived in memory (/run, Secret volumes) and keeps what is on disk', () => {
		const cluster = new Cluster({ seed: 3 });
		cluster.exec('kubectl create secret generic token --from-literal=key=s3cret');
		cluster.exec('kubectl apply -f -', {
			stdin: `apiVersion: v1
kind: Pod
metadata: {name: reader}
spec:
  nodeName: node-1
  containers: [{name: app, image: nginx:1.27, volumeMounts: [{name: token, mountPath: /etc/token}]}]
  volumes: [{name: token, secret: {secretName: token}}]
`,
		});
		cluster.advance('30s');
		const uid = cluster.get('pods', 'default', 'reader')?.metadata.uid;
		const fs = cluster.hosts.get('node-1')!.fs;
		const secretDir = `/var/lib/kubelet/pods/${uid}/volumes/kubernetes.io~secret/token`;
		expect(fs.readFile(`${secretDir}/key`)).toBe('s3cret');
		cluster.writeFile('/run/lock/note', 'gone at power-off', 'node-1');
		cluster.writeFile('/root/notes.txt', 'kept', 'node-1');

		cluster.powerOff('node-1');
		expect(fs.exists(secretDir)).toBe(false);
		expect(fs.exists('/run/lock/note')).toBe(false);
		expect(fs.readFile('/root/notes.txt')).toBe('kept');

		cluster.powerOn('node-1');
		cluster.advance('20s');
		// Mounted again before the container started.
		expect(fs.readFile(`${secretDir}/key`)).toBe('s3cret');
		expect(cluster.exec('kubectl exec reader -- cat /etc/token/key').stdout.trim()).toBe('s3cret');
	});
});

describe('powering a worker on again', () => {
	it('before eviction: the node is Ready again and its pods run in new sandboxes, each container restarted once after dying with exit code 255 (Unknown)', () => {
		const cluster = clusterWithWeb();
		const before = podsOn(cluster, 'node-1');
		const bootBefore = (cluster.get('nodes', undefined, 'node-1')?.status as { nodeInfo: { bootID: string } }).nodeInfo.bootID;
		cluster.powerOff('node-1');
		cluster.advance('90s');
		expect(ready(cluster.get('nodes', undefined, 'node-1'))?.status).toBe('Unknown');
		expect(cluster.powerOn('node-1')).toBeUndefined();
		cluster.advance('30s');

		const node = cluster.get('nodes', undefined, 'node-1');
		expect(ready(node)?.status).toBe('True');
		expect(taints(node).map((t) => t.key)).not.toContain('node.kubernetes.io/unreachable');
		const bootAfter = (node?.status as { nodeInfo: { bootID: string } }).nodeInfo.bootID;
		expect(bootAfter).not.toBe(bootBefore);
		expect(bootAfter).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
		const rebooted = cluster.list('events', 'default').find((e) => (e as unknown as { reason?: string }).reason === 'Rebooted');
		expect(rebooted).toMatchObject({ type: 'Warning', message: `Node node-1 has been rebooted, boot id: ${bootAfter}`, involvedObject: { kind: 'Node', name: 'node-1' } });

		// The same pods (not replacements), running again.
		const after = podsOn(cluster, 'node-1');
		expect(after.map((p) => p.metadata.uid).sort()).toEqual(before.map((p) => p.metadata.uid).sort());
		for (const pod of after) {
			const [status] = (pod.status as { containerStatuses: Array<{ restartCount: number; state: { running?: unknown }; lastState: { terminated?: { exitCode: number; reason: string } } }> }).containerStatuses;
			expect(status.restartCount).toBe(1);
			expect(status.state.running).toBeDefined();
			expect(status.lastState.terminated).toMatchObject({ exitCode: 255, reason: 'Unknown' });
		}
		const sandboxChanged = cluster.list('events', 'default').filter((e) => (e as unknown as { reason?: string }).reason === 'SandboxChanged');
		expect(sandboxChanged.map((e) => (e as unknown as { involvedObject: { name: string } }).involvedObject.name).sort()).toEqual(before.map((p) => p.metadata.name).sort());
		// On the node: a new sandbox (attempt 1) beside the dead one (attempt 0) for each pod.
		const sandboxes = Object.values(cluster.hosts.get('node-1')!.runtimeState.sandboxes).filter((s) => s.namespace === 'default');
		expect(sandboxes.map((s) => `${s.podName} ${s.attempt} ${s.state}`).sort()).toEqual(before.flatMap((p) => [`${p.metadata.name} 0 SANDBOX_NOTREADY`, `${p.metadata.name} 1 SANDBOX_READY`]).sort());
	});

	it('starts again the services stopped by hand before the power went, as systemd does at boot', () => {
		const cluster = new Cluster({ seed: 5 });
		cluster.stop('kubelet', 'node-2');
		cluster.powerOff('node-2');
		cluster.powerOn('node-2');
		expect(cluster.components().find((c) => c.node === 'node-2' && c.component === 'kubelet')).toMatchObject({ running: true, failing: false });
	});
});

describe('powering the control-plane node off', () => {
	it('stops the control plane: kubectl finds no route to the machine, and nothing is written while it is off', () => {
		const cluster = new Cluster({ seed: 11 });
		cluster.powerOff('control-plane');
		for (const component of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler']) expect(cluster.components().find((c) => c.component === component)?.running, component).toBe(false);
		// The machines share the 192.168.56.0/24 network: no ARP answer, so EHOSTUNREACH.
		expect(cluster.exec('kubectl get nodes')).toEqual({
			stdout: '',
			stderr: 'Unable to connect to the server: dial tcp 192.168.56.10:6443: connect: no route to host\n',
			output: 'Unable to connect to the server: dial tcp 192.168.56.10:6443: connect: no route to host\n',
			exitCode: 1,
		});
		// The workers' kubelets cannot reach it either.
		cluster.advance('30s');
		const journal = cluster.hosts.get('node-1')!.kubeletState.journal.map((e) => e.line);
		expect(journal.some((l) => l.includes('dial tcp 192.168.56.10:6443: connect: no route to host'))).toBe(true);
	});

	it('powered on, it boots the static pods again: each control-plane pod restarted once, the nodes Ready', () => {
		const cluster = new Cluster({ seed: 11 });
		cluster.powerOff('control-plane');
		cluster.advance('20s');
		cluster.powerOn('control-plane');
		cluster.advance('90s');
		const statics = cluster.list('pods', 'kube-system').filter((p) => p.metadata.name?.endsWith('-control-plane'));
		expect(statics.map((p) => p.metadata.name).sort()).toEqual(['etcd-control-plane', 'kube-apiserver-control-plane', 'kube-controller-manager-control-plane', 'kube-scheduler-control-plane']);
		for (const pod of statics) {
			const [status] = (pod.status as { containerStatuses: Array<{ restartCount: number; ready: boolean }> }).containerStatuses;
			expect(status, pod.metadata.name).toMatchObject({ restartCount: 1, ready: true });
		}
		expect(cluster.list('nodes').map((n) => ready(n)?.status)).toEqual(['True', 'True', 'True']);
		expect(cluster.exec('kubectl get nodes').exitCode).toBe(0);
	});
});

describe('power inputs', () => {
	it('refuse what makes no sense, recording nothing', () => {
		const cluster = new Cluster({ seed: 2 });
		const inputs = cluster.inputs().length;
		expect(cluster.powerOff('node-9')).toBe('no node named node-9');
		expect(cluster.powerOn('node-1')).toBe('node-1 is already powered on');
		cluster.powerOff('node-1');
		expect(cluster.powerOff('node-1')).toBe('node-1 is already powered off');
		expect(cluster.inputs().slice(inputs)).toEqual([{ kind: 'powerOff', node: 'node-1' }]);
	});

	it("are traced as the reader's, and replay: the same inputs give the same fingerprint", () => {
		const cluster = clusterWithWeb();
		cluster.powerOff('node-2');
		cluster.advance('70s');
		cluster.powerOn('node-2');
		cluster.advance('40s');
		const origin = `input:${cluster.inputs().findIndex((i) => i.kind === 'powerOff') + 1}`;
		expect(cluster.trace({ origin }).find((e) => e.action === 'power-off')).toMatchObject({ component: 'reader', object: 'nodes/node-2', msg: 'cut the power of node-2' });
		expect(cluster.trace({}).filter((e) => e.action === 'power-on')).toMatchObject([{ component: 'reader', msg: 'powered node-2 on: it boots' }]);

		const replay = new Cluster({ seed: 7 });
		for (const input of cluster.inputs()) {
			if (input.kind === 'exec') replay.exec(input.line, input.stdin === undefined ? {} : { stdin: input.stdin });
			else if (input.kind === 'advance') replay.advance(input.ms);
			else if (input.kind === 'powerOff') replay.powerOff(input.node);
			else if (input.kind === 'powerOn') replay.powerOn(input.node);
		}
		expect(replay.fingerprint()).toBe(cluster.fingerprint());
	});

	it('snapshot with the machine off: the restored cluster goes on exactly as the original', () => {
		const cluster = clusterWithWeb();
		cluster.powerOff('node-1');
		cluster.advance('65s');
		const copy = restoreCluster(JSON.parse(JSON.stringify(cluster.snapshot())));
		expect(copy.isPoweredOff('node-1')).toBe(true);
		for (const c of [cluster, copy]) {
			c.advance('20s');
			c.powerOn('node-1');
			c.advance('45s');
		}
		expect(copy.fingerprint()).toBe(cluster.fingerprint());
		expect(JSON.stringify(copy.snapshot())).toBe(JSON.stringify(cluster.snapshot()));
	});
});
