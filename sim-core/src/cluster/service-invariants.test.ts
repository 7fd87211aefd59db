/**
 * Property test of Services in each kube-proxy mode, over random seeds and
 * random sequences of what a reader does to them: create, scale and delete
 * Deployments (nginx with an exec readiness probe); create and delete
 * Services of type ClusterIP or NodePort, with or without a selector; make
 * a Pod's readiness probe fail and pass again; stop and start kube-proxy on
 * a node; let time pass. After every step, once kube-proxy has had time to
 * sync, on every node whose kube-proxy runs:
 *
 * - the rules (read with the node's own tools: `iptables-save -t nat`,
 *   `ipvsadm -Ln`, `nft list ruleset`) send each Service's traffic only to
 *   endpoints its EndpointSlices list as ready (or serving and terminating,
 *   kube-proxy's fallback when none is ready), and to no Service that is
 *   gone;
 * - every ready Pod answers on its Pod IP from every node and from the
 *   other Pods;
 * - a Service with a ready endpoint answers on its ClusterIP (and a
 *   NodePort one on the node's address from the workstation), landing on
 *   one of those endpoints; one without is refused.
 *
 * Where kube-proxy is stopped its node keeps its last rules, which may be
 * stale, as upstream; only Pod IPs are checked there.
 *
 * Runs a few sequences per mode (CI has 2 cores); SERVICE_INVARIANT_RUNS
 * sets how many, SERVICE_INVARIANT_SEED the fast-check seed. A failure
 * prints the seed and the shortest sequence that fails.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Cluster } from './cluster.ts';

type Mode = 'iptables' | 'ipvs' | 'nftables';

const APPS = ['a', 'b', 'c'] as const;
const NODES = ['control-plane', 'node-1', 'node-2'] as const;
const WORKERS = ['node-1', 'node-2'] as const;

type Action =
	| { kind: 'deploy'; app: string; replicas: number }
	| { kind: 'scale'; app: string; replicas: number }
	| { kind: 'delete-deploy'; app: string }
	| { kind: 'service'; app: string; type: 'ClusterIP' | 'NodePort'; selector: boolean }
	| { kind: 'delete-service'; app: string }
	| { kind: 'unready' | 'ready'; app: string }
	| { kind: 'stop-proxy' | 'start-proxy'; node: string }
	| { kind: 'advance'; seconds: number };

const action: fc.Arbitrary<Action> = fc.oneof(
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('deploy' as const), app: fc.constantFrom(...APPS), replicas: fc.integer({ min: 0, max: 3 }) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constant('scale' as const), app: fc.constantFrom(...APPS), replicas: fc.integer({ min: 0, max: 4 }) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-deploy' as const), app: fc.constantFrom(...APPS) }) },
	{ weight: 4, arbitrary: fc.record({ kind: fc.constant('service' as const), app: fc.constantFrom(...APPS), type: fc.constantFrom('ClusterIP' as const, 'NodePort' as const), selector: fc.boolean() }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('delete-service' as const), app: fc.constantFrom(...APPS) }) },
	{ weight: 2, arbitrary: fc.record({ kind: fc.constantFrom('unready' as const, 'ready' as const), app: fc.constantFrom(...APPS) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('stop-proxy' as const, 'start-proxy' as const), node: fc.constantFrom(...WORKERS) }) },
	{ weight: 1, arbitrary: fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 1, max: 60 }) }) },
);

/** nginx, Ready while /tmp/unready does not exist (a probe the test can make fail from inside). */
function deployment(app: string, replicas: number): string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${app}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${app}
  template:
    metadata:
      labels:
        app: ${app}
    spec:
      terminationGracePeriodSeconds: 5
      containers:
      - name: web
        image: nginx:1.29
        ports:
        - containerPort: 80
        readinessProbe:
          exec:
            command: [sh, -c, "! test -e /tmp/unready"]
          initialDelaySeconds: 2
          periodSeconds: 2
          failureThreshold: 1
`;
}

function service(app: string, type: string, selector: boolean): string {
	return `apiVersion: v1
kind: Service
metadata:
  name: svc-${app}
spec:
  type: ${type}
${selector ? `  selector:\n    app: ${app}\n` : ''}  ports:
  - port: 80
    targetPort: 80
`;
}

interface PodView {
	name: string;
	ip: string;
	app: string;
	ready: boolean;
	running: boolean;
}

function podsOf(cluster: Cluster): PodView[] {
	return cluster.list('pods', 'default').map((p) => {
		const status = p.status as { podIP?: string; phase?: string; conditions?: Array<{ type: string; status: string }> };
		return {
			name: p.metadata.name ?? '',
			ip: status.podIP ?? '',
			app: p.metadata.labels?.app ?? '',
			ready: !p.metadata.deletionTimestamp && status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true,
			running: status.phase === 'Running' && !p.metadata.deletionTimestamp,
		};
	});
}

function applyAction(cluster: Cluster, a: Action): void {
	const names = () => podsOf(cluster).filter((p) => p.running);
	switch (a.kind) {
		case 'deploy':
			cluster.exec('kubectl apply -f -', { stdin: deployment(a.app, a.replicas) });
			return;
		case 'scale':
			cluster.exec(`kubectl scale deployment ${a.app} --replicas=${a.replicas}`);
			return;
		case 'delete-deploy':
			cluster.exec(`kubectl delete deployment ${a.app}`);
			return;
		case 'service':
			// A Service's selector cannot be removed by apply's merge once set: replace it.
			cluster.exec(`kubectl delete service svc-${a.app} --ignore-not-found`);
			cluster.exec('kubectl apply -f -', { stdin: service(a.app, a.type, a.selector) });
			return;
		case 'delete-service':
			cluster.exec(`kubectl delete service svc-${a.app}`);
			return;
		case 'unready':
		case 'ready': {
			const pod = names().find((p) => p.app === a.app);
			if (pod) cluster.exec(`kubectl exec ${pod.name} -- ${a.kind === 'unready' ? 'touch' : 'rm -f'} /tmp/unready`);
			return;
		}
		case 'stop-proxy':
			cluster.stop('kube-proxy', a.node);
			return;
		case 'start-proxy':
			cluster.start('kube-proxy', a.node);
			return;
		case 'advance':
			cluster.advance(a.seconds * 1000);
			return;
	}
}

/** Per Service (`namespace/name`), the endpoints (`ip:port`) one node's rules send it to. */
function ruleTargets(cluster: Cluster, mode: Mode, node: string, serviceByVip: Map<string, string>): Map<string, Set<string>> {
	const out = new Map<string, Set<string>>();
	const add = (svc: string, ep: string) => {
		if (!out.has(svc)) out.set(svc, new Set());
		out.get(svc)!.add(ep);
	};
	const text = cluster.exec(`ssh ${node} ${mode === 'iptables' ? 'iptables-save -t nat' : mode === 'ipvs' ? 'ipvsadm -Ln' : 'nft list ruleset'}`).stdout;
	if (mode === 'iptables') {
		for (const m of text.matchAll(/^-A KUBE-SEP-\S+ .*--comment "?([^" ]+)"? .*-j DNAT --to-destination (\S+)$/gm)) add(m[1].replace(/:[^/]*$/, ''), m[2]);
	} else if (mode === 'nftables') {
		let chain = '';
		for (const line of text.split('\n')) {
			const c = /^\tchain endpoint-[A-Z0-9]+-([^/]+)\/([^/]+)\//.exec(line);
			if (c) chain = `${c[1]}/${c[2]}`;
			else if (/^\tchain /.test(line)) chain = '';
			const d = /dnat to (\S+)$/.exec(line);
			if (d && chain) add(chain, d[1]);
		}
	} else {
		let vs = '';
		for (const line of text.split('\n')) {
			const v = /^(TCP|UDP|SCTP) {2}(\S+) /.exec(line);
			if (v) vs = serviceByVip.get(v[2]) ?? serviceByVip.get(`*:${v[2].split(':')[1]}`) ?? `unknown ${v[2]}`;
			const r = /^ {2}-> (\d+\.\d+\.\d+\.\d+:\d+) /.exec(line);
			if (r && vs) add(vs, r[1]);
		}
	}
	return out;
}

/** The endpoint a single curl connection landed on, from its `connect` trace event. */
function landing(cluster: Cluster, line: string): { exitCode: number; to?: string } {
	const since = cluster.trace().at(-1)?.seq ?? 0;
	const r = cluster.exec(line);
	const hit = cluster
		.trace({ afterSeq: since })
		.filter((e) => e.component === 'curl' && e.action === 'connect')
		.map((e) => /→ (\d+\.\d+\.\d+\.\d+:\d+)/.exec(e.msg)?.[1])
		.find(Boolean);
	return { exitCode: r.exitCode, to: hit };
}

function checkInvariants(cluster: Cluster, mode: Mode, trail: string): void {
	const where = (what: string) => `${what} after ${trail}`;
	const services = cluster.list('services');
	const slices = cluster.list('endpointslices');
	const serviceByVip = new Map<string, string>();
	const allowed = new Map<string, Set<string>>();
	const ready = new Map<string, Set<string>>();
	for (const svc of services) {
		const key = `${svc.metadata.namespace}/${svc.metadata.name}`;
		const spec = svc.spec as { clusterIP?: string; ports?: Array<{ port: number; nodePort?: number }> };
		for (const port of spec.ports ?? []) {
			serviceByVip.set(`${spec.clusterIP}:${port.port}`, key);
			// IPVS listens for a NodePort on every node address (NIC, flannel.1, cni0): keyed by the port alone.
			if (port.nodePort) serviceByVip.set(`*:${port.nodePort}`, key);
		}
		allowed.set(key, new Set());
		ready.set(key, new Set());
	}
	for (const slice of slices) {
		const key = `${slice.metadata.namespace}/${slice.metadata.labels?.['kubernetes.io/service-name']}`;
		const s = slice as unknown as { ports?: Array<{ port?: number }>; endpoints?: Array<{ addresses: string[]; conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean } }> };
		for (const port of s.ports ?? []) {
			for (const ep of s.endpoints ?? []) {
				const c = ep.conditions ?? {};
				for (const ip of ep.addresses) {
					const target = `${ip}:${port.port}`;
					if (c.ready !== false) ready.get(key)?.add(target);
					if (c.ready !== false || (c.serving && c.terminating)) allowed.get(key)?.add(target);
				}
			}
		}
	}

	const pods = podsOf(cluster).filter((p) => p.ready && p.ip);
	const running = new Set(cluster.components().filter((c) => c.component === 'kube-proxy' && c.running && !c.failing).map((c) => c.node));
	for (const node of NODES) {
		// Every ready Pod answers on its address, whatever the node's kube-proxy does.
		for (const pod of pods) expect(cluster.exec(`ssh ${node} curl -s -o /dev/null http://${pod.ip}/`).exitCode, where(`${node} → pod ${pod.name} ${pod.ip}`)).toBe(0);
		if (!running.has(node)) continue;
		for (const [svc, targets] of ruleTargets(cluster, mode, node, serviceByVip)) {
			expect(allowed.has(svc), where(`${node}: rules for ${svc}, which does not exist`)).toBe(true);
			for (const t of targets) expect(allowed.get(svc)?.has(t), where(`${node}: ${svc} → ${t}, not a ready endpoint (${[...(allowed.get(svc) ?? [])].join(' ')})`)).toBe(true);
		}
		for (const svc of services.filter((s) => s.metadata.namespace === 'default' && s.metadata.name !== 'kubernetes')) {
			const key = `default/${svc.metadata.name}`;
			const spec = svc.spec as { clusterIP: string; ports: Array<{ port: number; nodePort?: number }> };
			const eps = ready.get(key)!;
			const viaClusterIP = landing(cluster, `ssh ${node} curl -s -o /dev/null http://${spec.clusterIP}/`);
			if (eps.size === 0) {
				expect(viaClusterIP.exitCode, where(`${node} → ${key} ${spec.clusterIP} without endpoints`)).toBe(7);
				continue;
			}
			expect(viaClusterIP.exitCode, where(`${node} → ${key} ${spec.clusterIP}`)).toBe(0);
			expect(eps.has(viaClusterIP.to ?? ''), where(`${node} → ${key} landed on ${viaClusterIP.to}`)).toBe(true);
			const nodePort = spec.ports[0].nodePort;
			if (nodePort) {
				const ip = cluster.hosts.get(node)!.ip;
				const viaNodePort = landing(cluster, `curl -s -o /dev/null --max-time 5 http://${ip}:${nodePort}/`);
				expect(viaNodePort.exitCode, where(`workstation → ${ip}:${nodePort} (${key})`)).toBe(0);
				expect(eps.has(viaNodePort.to ?? ''), where(`workstation → ${ip}:${nodePort} landed on ${viaNodePort.to}`)).toBe(true);
			}
		}
	}
	// Pod to Pod, from one ready Pod of each app to every ready Pod.
	const clients = APPS.map((app) => pods.find((p) => p.app === app)).filter((p): p is PodView => p !== undefined);
	for (const client of clients) for (const pod of pods) expect(cluster.exec(`kubectl exec ${client.name} -- curl -s -o /dev/null http://${pod.ip}/`).exitCode, where(`pod ${client.name} → pod ${pod.name}`)).toBe(0);
}

const RUNS = Number(process.env.SERVICE_INVARIANT_RUNS ?? 5);
const SEED = Number(process.env.SERVICE_INVARIANT_SEED ?? 20261202);

describe.each(['iptables', 'ipvs', 'nftables'] as const)('Service rules and reachability in %s mode', (mode) => {
	it('after every step, each running kube-proxy’s rules point only at ready endpoints and every ready Pod and Service answers', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.array(action, { minLength: 6, maxLength: 14 }), (seed, actions) => {
				const cluster = new Cluster({ seed, kubeProxyMode: mode });
				const trail: string[] = [`seed ${seed}`];
				checkInvariants(cluster, mode, trail.join(', '));
				for (const a of actions) {
					applyAction(cluster, a);
					trail.push(JSON.stringify(a));
					// Probes every 2 s, the EndpointSlice controller, kube-proxy's 1 s minSyncPeriod: 8 s covers them.
					cluster.advance('8s');
					checkInvariants(cluster, mode, trail.join(', '));
				}
			}),
			{ numRuns: RUNS, seed: SEED },
		);
	}, 300_000);
});
