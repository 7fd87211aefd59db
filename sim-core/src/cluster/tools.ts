/**
 * The tools a reader types besides kubectl, wired to the cluster: curl on
 * every machine, etcdctl and etcdutl where etcd's certificates live (the
 * control-plane node, and inside the etcd container through `kubectl exec`),
 * ip on every node, and crictl, systemctl and journalctl on every node, with
 * poweroff, reboot and shutdown, which take the machine down; iptables,
 * iptables-save, ipvsadm and nft on every node, and curl through Services
 * and inside Pods (./service-tools.ts); ps, pgrep, pidof, ss and conntrack
 * on every node, over its process table, sockets and connection-tracking
 * table (./node-processes.ts); with `cloud: true`, simcloud (the cloud's
 * CLI) on the workstation.
 *
 * Mirrors nothing upstream: the simulator's wiring of the tools a reader
 * types.
 */
import type { UserInfo } from '../api/request.ts';
import type { CommandContext, CommandResult, Host } from '../shell/index.ts';
import { createCurl, createEtcdctl, createEtcdutl, createIp, defaultCertIdentity, kubeadmApiServer, kubeadmEtcdMember, type CurlDeps, type EtcdMemberFacts, memberId } from '../tools/index.ts';
import { crictlCommand, CrictlPullSink } from '../tools/crictl/index.ts';
import { haltCommand, journalctlCommand, shutdownCommand, systemctlCommand, type SystemdDeps, type SystemPower } from '../tools/systemd/index.ts';
import { BUILD_INFO, KUBERNETES_GIT_VERSION } from '../api/version.ts';
import type { ToolsContext } from './wiring.ts';
import { certificateSubject } from './files.ts';
import { kubeconfigClientCertificate } from '../tools/kubeadm/pki.ts';

const ADMIN_CONF = '/etc/kubernetes/admin.conf';
import type { ReaderShell } from './reader-shell.ts';
import { connectToPod, registerNetworkTools, serviceCurlDeps } from './service-tools.ts';
import { CoreDnsServers } from './cluster-dns.ts';
import { createSimcloud } from '../tools/simcloud/simcloud.ts';
import { ApiServerHttp } from '../tools/curl/apiserver-http.ts';
import type { CurlConnection, KubeletProxyAnswer, PlainHttpAnswer } from '../tools/curl/types.ts';
import { goHttpAnswer } from '../tools/curl/http-servers.ts';
import { httpDate } from '../golang/time.ts';
import type { Pod } from '../api/types.ts';
import { inGoOrder } from '../tools/curl/serialize.ts';
import { parseYaml } from '../yaml/index.ts';
import { podIpView } from '../tools/ip/pod-network.ts';
import type { IpDeps } from '../tools/ip/network.ts';
import { NETWORK } from './options.ts';
import { apiServiceName, isAvailable, type ApiService } from '../apiserver/aggregator/apiservice.ts';
import { containerdCgroup } from '../runtime/host-state.ts';
import { createPgrep, createPidof } from '../tools/procps/pgrep.ts';
import { createPs } from '../tools/procps/ps.ts';
import { nodeDf, nodeDiskFill, nodeDu } from './node-disk-tools.ts';
import { createSs } from '../tools/ip/ss.ts';
import { openssl } from '../tools/openssl/openssl.ts';
import { createConntrack } from '../tools/netfilter/conntrack.ts';
import { CONNTRACK_TIMEOUTS_S, emptyConntrack, type ConntrackEntry } from '../host/netfilter/conntrack.ts';
import { nodeProcesses } from './node-processes.ts';
import { createKubeadm } from '../tools/kubeadm/kubeadm.ts';
import { timedatectlCommand } from '../tools/systemd/timedatectl.ts';
import { parseCertificate, x509ValidityError } from '../host/pem.ts';
import { ApiClient, R } from '../client/client.ts';
import type { KubeObject } from '../api/types.ts';

/** The reader's workstation sits on the nodes' network too. */
const WORKSTATION_IP = '192.168.56.1';

/**
 * The API server's proxy to a kubelet's HTTPS port (10250): the node's
 * InternalIP dialed from the control-plane node, then the kubelet's own
 * routes (pkg/kubelet/server/server.go): /healthz, /pods, /metrics/resource,
 * /configz. /configz shows the fields of the config file the kubelet read;
 * a real kubelet also lists every field it defaulted. Other routes (/stats/summary, /metrics, /metrics/cadvisor) are
 * not modelled and answer as an unknown path does.
 */
function kubeletProxy(cluster: ToolsContext, from: string, node: string, path: string): KubeletProxyAnswer | undefined {
	const host = cluster.hosts.get(node);
	if (!host) return undefined;
	const dial = `dial tcp ${host.ip}:10250`;
	if (host.poweredOff || cluster.isPartitioned(node) || cluster.isPartitioned(from)) return { kind: 'unreachable', error: `${dial}: i/o timeout` };
	if (!host.kubelet.serving) return { kind: 'unreachable', error: `${dial}: connect: connection refused` };
	const text = (body: string) => ({ kind: 'answer' as const, status: 200, contentType: 'text/plain; charset=utf-8', body });
	if (path === '/healthz') return text('ok');
	if (path === '/metrics/resource') {
		const body = host.resourceMetrics();
		if (body !== undefined) return { kind: 'answer', status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body };
	}
	if (path === '/pods' || path === '/pods/') {
		const list = host.kubelet.podList();
		if (list) return { kind: 'answer', status: 200, contentType: 'application/json', body: JSON.stringify(inGoOrder(list)) };
	}
	if (path === '/configz') {
		const config = kubeletConfigz(host);
		if (config) return { kind: 'answer', status: 200, contentType: 'application/json', body: config };
	}
	// Go's http.ServeMux for a path it has no handler for.
	return { kind: 'answer', status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
}

/** /configz: `{"kubeletconfig":{...}}`, the configuration without its apiVersion and kind. */
function kubeletConfigz(host: { fs: { exists(path: string): boolean; readFile(path: string): string } }): string | undefined {
	const path = '/var/lib/kubelet/config.yaml';
	if (!host.fs.exists(path)) return undefined;
	try {
		const { apiVersion: _a, kind: _k, ...config } = parseYaml(host.fs.readFile(path)) as Record<string, unknown>;
		return JSON.stringify({ kubeletconfig: config });
	} catch {
		return undefined;
	}
}

export function registerTools(cluster: ToolsContext, shell: ReaderShell): void {
	const cp = cluster.hosts.get(cluster.controlPlaneNode)!;
	const hostIp = (name: string) => (name === 'workstation' ? WORKSTATION_IP : cluster.hosts.get(name)?.ip);
	const random = (name: string) => () => cluster.kernel.rng(`tools/${name}`).float();

	// ---- etcdctl: on every machine with an etcd member (and its certificates); dials 127.0.0.1:2379 or a member's address ----
	const machineUp = (name: string) => !cluster.hosts.get(name)?.poweredOff && !cluster.isPartitioned(name);
	const etcdMemberFacts = (): EtcdMemberFacts[] => {
		const endpoints = cluster.etcdMembers();
		const first = kubeadmEtcdMember(endpoints[0].name, endpoints[0].ip);
		const byName = new Map(endpoints.filter((e) => !e.unstartedPeerUrl).map((e) => [e.name, e.name === first.name ? first : kubeadmEtcdMember(e.name, e.ip, { addedAtWallMs: e.addedAtWallMs, clusterId: first.clusterId })]));
		const facts = endpoints.map((e): EtcdMemberFacts => {
			if (e.unstartedPeerUrl) {
				// Unstarted: MemberList shows its peer URL only (the ID from it and the second it was added).
				const peerUrls = [e.unstartedPeerUrl];
				return { name: '', memberKey: e.name, memberId: memberId(peerUrls, String(Math.floor((e.addedAtWallMs ?? 0) / 1000))), clusterId: first.clusterId, peerUrls, clientUrls: [], listenClientUrls: [], nodeName: '', version: '', raftTerm: 0, isLeader: false };
			}
			const base = byName.get(e.name)!;
			// A lone member campaigned once at its first start: term 2, its own leader.
			if (!e.raft) return { ...base, raftTerm: 2, isLeader: true };
			return { ...base, raftTerm: e.raft.term, isLeader: e.raft.isLeader, leaderId: byName.get(e.raft.leader)?.memberId ?? '0', raftIndex: e.raft.raftIndex, raftAppliedIndex: e.raft.appliedIndex };
		});
		// MemberList answers in member-ID order.
		return facts.sort((a, b) => (BigInt('0x' + a.memberId) < BigInt('0x' + b.memberId) ? -1 : 1));
	};
	const etcdctl = createEtcdctl({
		store: (hostName, memberName) => {
			const endpoint = cluster.etcdMembers().find((e) => e.name === memberName);
			if (!endpoint) return undefined;
			// Another machine's member is reached over the network: both machines up and neither cut off.
			if (hostName !== memberName && !(machineUp(hostName) && machineUp(memberName))) return undefined;
			return endpoint.connect();
		},
		members: etcdMemberFacts,
		notify: () => cluster.announceEtcd(),
		wallMs: () => cluster.kernel.wallMs(),
		random: random('etcdctl'),
		elapse: (ms) => cluster.kernel.runUntil(cluster.kernel.nowMs + ms),
		hostIp,
	});
	for (const member of cluster.etcdMembers()) {
		const host = cluster.hosts.get(member.name);
		host?.shellHost.commands.set('etcdctl', etcdctl);
		host?.shellHost.commands.set('etcdutl', createEtcdutl({ wallMs: () => cluster.kernel.wallMs() }));
	}
	// Inside the etcd container (kubectl exec -n kube-system etcd-<node> -- etcdctl ...): the container shares the node's network and certificates.
	cp.execInSystemContainer = (component, argv) => {
		if (component !== 'etcd' || !/(^|\/)etcdctl$/.test(argv[0] ?? '')) return undefined;
		return etcdctl(containerContext(cp.shellHost, shell, ['etcdctl', ...argv.slice(1)]));
	};

	// ---- curl: anywhere; reaches the API server, and Services and Pods through the nodes' rules ----
	const server = kubeadmApiServer(cp.name, cp.ip, cluster.kernel.epochMs);
	const podHosts: Parameters<typeof serviceCurlDeps>[2] = new Map();
	// CoreDNS's servers: their answers and their reload checks (./cluster-dns.ts).
	const dns = new CoreDnsServers(cluster.kernel, cluster);
	cluster.kernel.register(dns);
	cluster.kernel.start(dns.id);
	const serviceDeps = serviceCurlDeps(cluster, WORKSTATION_IP, podHosts, dns);
	shell.workstationIp = WORKSTATION_IP;
	const ports = random('workstation-ports');
	// Linux's ephemeral range (net.ipv4.ip_local_port_range = 32768 60999), as a local port of 0 gets.
	shell.freePort = () => 32768 + Math.floor(ports() * 28232);
	/** What a job on the workstation writes to the terminal while a command runs (`Handling connection for 8080`). */
	let jobOutput = '';
	const workstationListener = (ip: string, port: number): CurlConnection | undefined => {
		const job = shell.jobs.listening(ip, port);
		// Nothing of the workstation's own listens there: its kernel refuses at once.
		if (!job) return ip.startsWith('127.') || ip === '::1' || ip === WORKSTATION_IP ? { kind: 'refused' } : undefined;
		if (job.kind === 'proxy') return { kind: 'http', serve: (request) => kubectlProxyAnswer(job.apiPrefix ?? '/', request) };
		jobOutput += `Handling connection for ${port}\n`;
		const forwarded = job.ports.find((p) => p.local === port)!;
		const pod = job.pod && (cluster.get('pods', job.pod.namespace, job.pod.name) as Pod | undefined);
		const node = pod?.spec?.nodeName ? cluster.hosts.get(pod.spec.nodeName) : undefined;
		const podIp = pod?.status?.podIP;
		const closed: CurlConnection = { kind: 'http', serve: () => ({ protocol: 'HTTP/1.1', status: 0, headers: [], body: '' }) };
		if (!pod || pod.metadata.uid !== job.pod!.uid || !node || !podIp) return closed;
		// The kubelet dials the port inside the Pod's network namespace: its server sees a client on 127.0.0.1.
		const landing = connectToPod(cluster, node, podIp, forwarded.remote, '127.0.0.1');
		if (landing.kind === 'refused') {
			// The kubelet could not connect: the error comes back on the stream and the forward ends (client-go closes it).
			jobOutput += 'error: lost connection to pod\n' + shell.jobs.end(job, 'Exit 1');
			return closed;
		}
		return landing;
	};
	/** kubectl proxy: the filter (hosts and paths), the prefix, then the API server's answer to kubectl's credentials. */
	const kubectlProxyAnswer = (prefix: string, request: { method: string; target: string; headers: Array<[string, string]> }): PlainHttpAnswer => {
		const header = (name: string) => request.headers.find(([n]) => n.toLowerCase() === name)?.[1] ?? '';
		const plain = (status: number, text: string) => goHttpAnswer(status, 'text/plain; charset=utf-8', text, cluster.kernel.wallMs(), [['X-Content-Type-Options', 'nosniff']]);
		const [pathPart, query] = request.target.split(/\?(.*)/s);
		let path = pathPart;
		if (!prefix.startsWith('/api')) {
			const rest = path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
			if (rest === undefined && path !== prefix.replace(/\/$/, '')) return plain(404, '404 page not found\n');
			path = `/${rest ?? ''}`.replace(/^\/\//, '/');
		} else if (!path.startsWith(prefix)) return plain(404, '404 page not found\n');
		const host = header('host').replace(/^\[([^\]]*)\](:\d+)?$/, '$1').replace(/:\d+$/, '');
		const hostOk = host === 'localhost' || host === '127.0.0.1';
		const rejected = /^\/api\/.*\/pods\/.*\/(exec|attach)/.test(path);
		if (!hostOk || rejected) return plain(403, 'Forbidden\n');
		const identity = shell.proxyIdentity();
		if (!identity) return plain(502, '');
		const user = 'token' in identity ? cluster.authenticateToken(identity.token) : identity.user;
		const answer = kubectlHttp.serve({ method: request.method, target: query === undefined ? path : `${path}?${query}`, headers: new Map([['user-agent', header('user-agent')]]) }, user ? { user } : { failed: true });
		const canonical = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
		return { protocol: 'HTTP/1.1', status: answer.status, headers: [...answer.headers.map(([n, v]): [string, string] => [canonical(n), v]), ['Date', httpDate(cluster.kernel.wallMs())], ['Content-Length', String(new TextEncoder().encode(answer.body).length)]], body: answer.body };
	};
	const curlDeps: CurlDeps = {
			apiServer: server,
			reachable: (hostName) => {
				if (hostName !== 'workstation' && (cluster.isPartitioned(hostName) || cluster.isPartitioned(cp.name))) return 'timeout';
				// A powered-off control-plane machine answers nothing: the connection attempt gets no reply.
				if (cp.poweredOff) return 'timeout';
				return cluster.kernel.isRunning('kube-apiserver') ? 'ok' : 'refused';
			},
			request: (user: UserInfo | undefined, request) => {
				if (user) cluster.transport.enroll('curl', user);
				else cluster.transport.forget('curl');
				return cluster.transport.request('curl', request);
			},
			etcdHealthy: () => cluster.etcd() !== undefined,
			// `Authorization: Bearer`: the API server's own token authenticator decides (a service account token it signed, still valid).
			identityForToken: (token) => cluster.authenticateToken(token),
			identityForCert: (hostName, path, content) => {
				const subject = certificateSubject(content);
				if (subject) return { username: subject.user, groups: [...subject.groups, 'system:authenticated'] };
				return defaultCertIdentity(hostName, path, content);
			},
			version: { gitVersion: KUBERNETES_GIT_VERSION, gitCommit: BUILD_INFO.gitCommit, buildDate: BUILD_INFO.buildDate, goVersion: BUILD_INFO.goVersion, platform: BUILD_INFO.platform },
			hostIp,
			wallMs: () => cluster.kernel.wallMs(),
			random: random('curl'),
			elapse: (ms) => cluster.kernel.runUntil(cluster.kernel.nowMs + ms),
			...serviceDeps,
			// The workstation's own listeners (kubectl port-forward, kubectl proxy) answer on its local ports first.
			connect: (hostName, ip, port) => (hostName === 'workstation' ? workstationListener(ip, port) : undefined) ?? serviceDeps.connect?.(hostName, ip, port),
			kubeletProxy: (node, path) => kubeletProxy(cluster, cp.name, node, path),
			apiService: (group, version) => {
				const found = cluster.get('apiservices', undefined, apiServiceName(group, version)) as ApiService | undefined;
				return found ? (isAvailable(found) ? 'available' : 'unavailable') : 'absent';
			},
	};
	const curl = createCurl(curlDeps);
	// openssl on every machine (Debian's and Ubuntu's base images have it): the keys and requests of the certificates tasks.
	shell.register('openssl', (ctx) => openssl(ctx, cluster.kernel.wallMs()));
	// A job's lines (port-forward's `Handling connection for ...`) reach the terminal as the connection is made, before curl's own output.
	shell.register('curl', (ctx) => {
		jobOutput = '';
		const result = curl(ctx);
		const said = jobOutput;
		jobOutput = '';
		if (!said) return result;
		const chunks = result.chunks ?? [{ fd: 1 as const, text: result.stdout }, { fd: 2 as const, text: result.stderr }];
		return { ...result, stdout: said + result.stdout, chunks: [{ fd: 1 as const, text: said }, ...chunks.filter((c) => c.text)] };
	});
	// kubectl get --raw: the same HTTP face of the API server, asked as kubectl (its own identity and trace lines).
	const kubectlHttp = new ApiServerHttp({ ...curlDeps, request: (_user, request) => cluster.transport.request('kubectl', request) });
	shell.rawApi = (path, auth, userAgent, method = 'GET', body) => {
		const user = 'token' in auth ? cluster.authenticateToken(auth.token) : auth.user;
		// RawWrite sends the file as it is, labelled JSON (rawhttp/raw.go).
		const headers = new Map([['user-agent', userAgent], ...(method === 'GET' ? [] : [['content-type', 'application/json'] as [string, string]])]);
		const answer = kubectlHttp.serve({ method, target: path, headers, body }, user ? { user } : { failed: true });
		return { status: answer.status, headers: answer.headers, body: answer.body };
	};

	// ---- ip: each node's interfaces and routes (flannel VXLAN, or Calico IPIP) ----
	for (const host of cluster.hosts.values()) {
		const ipDeps: IpDeps = {
				node: () => ({ name: host.name, ip: host.ip, index: host.index }),
				// A machine whose kubelet registers no Node has no podCIDR, so no flannel route leads to it.
				podCidrs: () => [...cluster.hosts.values()].filter((h) => h.registersNode).map((h) => ({ node: h.name, cidr: h.podCidr, nodeIp: h.ip })),
				pods: () =>
					Object.values(host.runtimeState.sandboxes)
						.filter((s) => s.state === 'SANDBOX_READY')
						.map((s) => ({ namespace: s.namespace, name: s.podName, uid: s.podUid, ip: s.ip, hostNetwork: s.hostNetwork })),
				kubeIpvs0: () => host.network.dataplane.ipvs.dummy,
				// The Pod network actually installed on the node, and its daemons' state (./node-cni.ts).
				podNetwork: () => host.cni.kind(),
				flannelRunning: () => host.cni.flannelUp(),
				flannelPeers: () => [...cluster.hosts.values()].filter((h) => h !== host && h.registersNode && h.cni.flannelUp()).map((h) => h.name),
				calicoRunning: () => host.cni.calicoRunning(),
				calicoPeers: () => [...cluster.hosts.values()].filter((h) => h !== host && h.registersNode && h.cni.calicoRunning()).map((h) => h.name),
			};
		host.shellHost.commands.set('ip', createIp(ipDeps));
		// `ip` inside one of the node's Pods: its own namespace (lo and eth0), the rest of the facts the node's.
		host.podIp = (podIp, argv) => {
			const view = podIp === undefined ? undefined : podIpView(ipDeps, podIp, NETWORK.podCidr);
			if (podIp !== undefined && !view) return undefined;
			return createIp(ipDeps, view)({ argv, stdin: '', env: {}, host: host.shellHost, shell: shell.session });
		};
	}

	// ---- simcloud: the cloud's CLI on the workstation, with `cloud: true` ----
	const cloud = cluster.cloud;
	if (cloud) {
		shell.register(
			'simcloud',
			createSimcloud({
				instances: () => cloud.instances(),
				deleteInstance: (name) => cloud.deleteInstance(name),
				loadBalancers: () => cloud.loadBalancers().map((lb) => ({ ...lb, ready: cluster.kernel.nowMs >= lb.readyAtMs })),
				hostHealthy: (name, node) => {
					const lb = cloud.loadBalancers().find((l) => l.name === name);
					return !!lb && cloud.hostHealthy(lb, node);
				},
				routes: () => cloud.routes.list(),
				instanceIp: (node) => cloud.instanceOf(node)?.ip,
			}),
		);
	}

	// ---- iptables, iptables-save, ipvsadm, nft on every node; curl inside Pods ----
	registerNetworkTools(cluster, shell, curlDeps, podHosts, dns);

	// ---- ps, pgrep, pidof, ss, conntrack: each node's processes, sockets and conntrack table; df, du, dd, fallocate: its disk ----
	const views = new Map([...cluster.hosts.values()].map((h) => [h.name, nodeProcesses(cluster, h)]));
	for (const host of cluster.hosts.values()) {
		const view = views.get(host.name)!;
		const psDeps = { processes: view.processes, nowWallMs: () => cluster.kernel.wallMs(), memTotalKb: view.memTotalKb };
		host.shellHost.commands.set('ps', createPs(psDeps));
		host.shellHost.commands.set('df', nodeDf(host));
		host.shellHost.commands.set('du', nodeDu());
		host.shellHost.commands.set('dd', nodeDiskFill(host, 'dd'));
		host.shellHost.commands.set('fallocate', nodeDiskFill(host, 'fallocate'));
		host.shellHost.commands.set('pgrep', createPgrep(psDeps));
		host.shellHost.commands.set('pidof', createPidof(psDeps));
		host.shellHost.commands.set('ss', createSs({ sockets: view.sockets }));
		host.shellHost.commands.set(
			'conntrack',
			createConntrack({
				table: () => (host.network.dataplane.conntrack ??= emptyConntrack()),
				nowMs: () => cluster.kernel.nowMs,
				// The daemons' watch connections carry traffic all the time: their timeout is always near the full day.
				steady: (): ConntrackEntry[] =>
					view.connections().map((c, i) => ({
						id: 0,
						proto: 'tcp',
						orig: { src: c.src, dst: c.dst, sport: c.sport, dport: c.dport },
						reply: { src: c.replySrc, dst: c.src, sport: c.dport, dport: c.replyDport },
						tcpState: 'ESTABLISHED',
						unreplied: false,
						assured: true,
						createdMs: 0,
						expiresAtMs: cluster.kernel.nowMs + (CONNTRACK_TIMEOUTS_S.tcpEstablished - (i % 3)) * 1000,
					})),
			}),
		);
	}

	// ---- kubeadm: on every machine (kubeadm's package is on each); certs reads the PKI and the kubeadm-config ConfigMap ----
	const kubeadm = createKubeadm({
		elapse: (ms) => cluster.kernel.runUntil(cluster.kernel.nowMs + ms),
		version: { gitVersion: KUBERNETES_GIT_VERSION, gitCommit: BUILD_INFO.gitCommit, buildDate: BUILD_INFO.buildDate, goVersion: BUILD_INFO.goVersion, platform: BUILD_INFO.platform },
		clusterCertificateValidity: (ctx) => {
			// With the machine's /etc/kubernetes/admin.conf, as kubeconfigutil.ClientSetFromFile does: its certificate, judged by the API server's clock.
			const fs = ctx.host.fs;
			const pem = fs.exists(ADMIN_CONF) && !fs.isDir(ADMIN_CONF) ? kubeconfigClientCertificate(fs.readFile(ADMIN_CONF)) : undefined;
			const fields = pem === undefined ? undefined : parseCertificate(pem);
			if (!fields) return undefined;
			const id = 'kubeadm-cli';
			cluster.transport.place(id, ctx.host.kind === 'node' ? ctx.host.name : undefined);
			const expired = x509ValidityError(fields, cluster.kernel.wallMsOn(cluster.transport.serverMachine));
			if (expired) cluster.transport.presentRejectedCertificate(id, expired);
			else {
				cluster.transport.forget(id);
				cluster.transport.enroll(id, { username: fields.subject.commonName, groups: [...fields.subject.organizations, 'system:authenticated'] });
			}
			const got = new ApiClient(cluster.transport, id).get<KubeObject & { data?: Record<string, string> }>(R.configmaps, 'kube-system', 'kubeadm-config');
			if (!got.ok) return undefined;
			try {
				const config = parseYaml(got.object.data?.ClusterConfiguration ?? '') as { certificateValidityPeriod?: string };
				return config.certificateValidityPeriod ?? '8760h0m0s';
			} catch {
				return undefined;
			}
		},
	});
	for (const host of cluster.hosts.values()) host.shellHost.commands.set('kubeadm', kubeadm);

	// `date -s` (and timedatectl set-time) on a node: the machine's clock jumps there; the command line is the input.
	shell.session.setClock = (machine, wallMs) => cluster.nodeFault({ verb: 'setClock', node: machine, offsetMs: wallMs - cluster.kernel.wallMs() }, { actor: `root/${machine}`, via: 'date' });

	// ---- crictl, systemctl, journalctl: each node's containerd and its two systemd units ----
	for (const host of cluster.hosts.values()) {
		// Receives containerd's answer to `crictl pull` (a snapshot restores its state over this fresh start).
		const pulls = new CrictlPullSink(cluster.kernel, host.name);
		cluster.kernel.register(pulls);
		cluster.kernel.start(pulls.id);
		host.shellHost.commands.set('crictl', crictlCommand({ runtime: host.runtime, pulls }));
		// The machine's power, for systemctl poweroff|reboot, poweroff, reboot and shutdown: the command is the input.
		const power: SystemPower = {
			now: (action, { force }) => cluster.nodeFault({ verb: 'powerOff', node: host.name, shutdown: { action, force } }, { actor: `systemd/${host.name}` }),
			at: (atWallMs) => cluster.scheduleShutdownCheck(host.name, atWallMs),
		};
		const units: SystemdDeps = {
			kubelet: host.kubeletState,
			containerd: host.runtimeState,
			containerdCgroup: () => containerdCgroup(host.runtimeState),
			// The shims' PIDs as ps shows them.
			shimPid: (sandboxId) => views.get(host.name)!.processes().find((p) => p.comm === 'containerd-shim' && p.argv[4] === sandboxId)?.pid,
			stopService: (service) => cluster.nodeFault({ verb: 'stop', component: service === 'kubelet' ? 'kubelet' : 'container-runtime', node: host.name }, { actor: `systemd/${host.name}`, via: 'systemctl' }),
			startService: (service) => cluster.nodeFault({ verb: 'start', component: service === 'kubelet' ? 'kubelet' : 'container-runtime', node: host.name }, { actor: `systemd/${host.name}`, via: 'systemctl' }),
			power: () => power,
			boots: () => host.boots,
		};
		host.shellHost.commands.set('systemctl', systemctlCommand(units));
		host.shellHost.commands.set('journalctl', journalctlCommand(units));
		host.shellHost.commands.set('poweroff', haltCommand('poweroff', () => power));
		host.shellHost.commands.set('reboot', haltCommand('reboot', () => power));
		host.shellHost.commands.set('shutdown', shutdownCommand(() => power));
		host.shellHost.commands.set('timedatectl', timedatectlCommand);
	}
}

/** A command context for a tool run inside a container (no shell features, the node's files). */
function containerContext(host: Host, shell: ReaderShell, argv: string[]): CommandContext {
	return { argv, stdin: '', env: {}, host, shell: shell.session };
}

export type { CommandResult };
