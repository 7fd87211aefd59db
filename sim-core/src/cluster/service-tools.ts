/**
 * The tools that look at, or go through, the nodes' packet-filter rules,
 * wired to the cluster:
 *
 * - `iptables`, `iptables-save`, `ipvsadm` and `nft` on every node (the
 *   reader is root there), reading the node's kernel state;
 * - `ip addr show kube-ipvs0` (the `ip` tool learns the dummy device);
 * - curl's network: where a connection from the workstation, a node or a
 *   Pod lands (./node-network.ts), and the answer of what is there: a
 *   Pod's server (the container runtime answers and logs the request), the
 *   API server (through the `kubernetes` Service too), kube-proxy's
 *   health server (10256) and metrics (127.0.0.1:10249);
 * - curl inside a Pod (`kubectl exec web -- curl http://web`), for images
 *   that have it, with the Pod's address and cluster DNS for Service names.
 *
 * Each connection writes one trace event (`curl` `connect`), naming the
 * rules it went through, so the story of a request shows kube-proxy's work.
 *
 * Mirrors nothing upstream: the simulator's wiring of the packet-filter
 * tools and of curl's network.
 */
import type { CommandContext, CommandResult, Host } from '../shell/index.ts';
import { MemoryFs } from '../host/fs.ts';
import { createCurl, type CurlDeps } from '../tools/index.ts';
import type { CurlConnection } from '../tools/curl/types.ts';
import { goHttpAnswer, podHttpAnswer } from '../tools/curl/http-servers.ts';
import { createIptables, createIptablesSave, createIpvsadm, createNft, type NetfilterDeps } from '../tools/netfilter/index.ts';
import type { ConnectSource, Landing } from '../network/service-traffic.ts';
import type { ToolsContext } from './wiring.ts';
import type { NodeHost } from './node-host.ts';
import { clusterConnect } from './node-network.ts';
import { CoreDnsServers } from './cluster-dns.ts';
import { resolveAddress, runClientTool, runDnsTool, type EchoResult, type NetDeps, type ToolDialects } from '../tools/net/index.ts';
import type { ReaderShell } from './reader-shell.ts';

/** Where a Pod finds the cluster CA (the kube-api-access projected volume's ca.crt). */
const SERVICE_ACCOUNT_CA_FILE = '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt';

/** Debian 13's curl, in the images built on it (nginx:1.29): the User-Agent it sends. */
const DEBIAN_CURL_VERSION = '8.14.1';

/** The pseudo machines curl runs on inside Pods, by host name. */
type PodHosts = Map<string, PodHostEntry>;

interface PodHostEntry {
	node: string;
	ip: string;
	namespace: string;
	hostNetwork: boolean;
	/** The container's files (its resolv.conf, /etc/hosts). */
	readFile?: (path: string) => string | undefined;
}

function describe(landing: Landing, ip: string, port: number): string {
	const path = landing.decision?.path.filter((c) => !/^KUBE-(MARK-MASQ|FIREWALL|PROXY-FIREWALL|FORWARD)$/.test(c)) ?? [];
	const via = path.length ? ` via ${path.join(' → ')}` : '';
	switch (landing.kind) {
		case 'pod':
		case 'host':
			if (landing.kind === 'pod' && landing.clientIp === '127.0.0.1') return `${ip}:${port}: the Pod's own loopback`;
			return `${ip}:${port} → ${landing.ip}:${landing.port}${landing.ip === ip && landing.port === port ? '' : ` (DNAT${via})`}, seen from ${landing.clientIp}`;
		case 'refused':
			return `${ip}:${port} refused${via}`;
		case 'timeout':
			return `${ip}:${port}: no answer${via}`;
		case 'unreachable':
			return `${ip}:${port}: no route to host`;
	}
}

/**
 * A TCP connection that reached a Pod's `ip:port` on `node`, from
 * `clientIp`: refused when nothing listens there (the Pod's kernel answers
 * the SYN with a reset), else the Pod's server answering each request.
 */
export function connectToPod(cluster: Pick<ToolsContext, 'kernel'>, node: NodeHost, ip: string, port: number, clientIp: string): CurlConnection {
	if (node.runtime.serveHttp(ip, port, undefined, clientIp, '-')?.kind === 'refused') return { kind: 'refused' };
	return {
		kind: 'http',
		serve: (request) => {
			const userAgent = request.headers.find(([n]) => n.toLowerCase() === 'user-agent')?.[1] ?? '-';
			const answer = node.runtime.serveHttp(ip, port, request.target, clientIp, userAgent, request.method);
			if (answer?.kind === 'http') return { ...podHttpAnswer(answer, cluster.kernel.wallMs()), ...(answer.latencyMs ? { latencyMs: answer.latencyMs } : {}) };
			// Not an HTTP server (a database's port): the connection closes without an HTTP answer.
			return { protocol: 'HTTP/1.1', status: 0, headers: [], body: '' };
		},
	};
}

/** curl's network side: connect(), resolve(), and the version on a Pod's image. */
export function serviceCurlDeps(cluster: ToolsContext, workstationIp: string, podHosts: PodHosts, dns?: CoreDnsServers): Pick<CurlDeps, 'connect' | 'resolve' | 'versionOn'> {
	const sourceOf = (hostName: string): ConnectSource | undefined => {
		if (hostName === 'workstation') return { kind: 'workstation', ip: workstationIp };
		const pod = podHosts.get(hostName);
		// A host-network Pod's traffic is the node's own.
		if (pod) return pod.hostNetwork ? { kind: 'node', node: pod.node } : { kind: 'pod', node: pod.node, ip: pod.ip };
		return cluster.hosts.has(hostName) ? { kind: 'node', node: hostName } : undefined;
	};
	const api = cluster.hosts.get(cluster.controlPlaneNode)!;
	const connectFrom = (hostName: string) => (ip: string, port: number): CurlConnection => connectOne(hostName, ip, port) ?? { kind: 'timeout' };
	const connectOne = (hostName: string, ip: string, port: number): CurlConnection | undefined => {
			const source = sourceOf(hostName);
			if (!source) return undefined;
			const landing = clusterConnect(cluster, source, ip, port);
			cluster.kernel.emit({ component: 'curl', action: 'connect', peer: landing.kind === 'pod' || landing.kind === 'host' ? landing.node : undefined, msg: describe(landing, ip, port) });
			switch (landing.kind) {
				case 'refused':
				case 'timeout':
					return { kind: landing.kind };
				case 'unreachable':
					return { kind: 'unreachable', afterMs: landing.afterMs };
				case 'host': {
					const host = cluster.hosts.get(landing.node)!;
					if (landing.node === api.name && landing.port === 6443) return { kind: 'apiserver' };
					const proxy = host.network.kubeProxy;
					const local = landing.ip.startsWith('127.');
					if (cluster.kernel.isRunning(proxy.id) && proxy.serveHttp(landing.port, '/', local, cluster.kernel.wallMs())) {
						return {
							kind: 'http',
							serve: (request) => {
								const answer = proxy.serveHttp(landing.port, request.target, local, cluster.kernel.wallMs())!;
								return goHttpAnswer(answer.status, answer.contentType, answer.body, cluster.kernel.wallMs(), answer.nosniff ? [['X-Content-Type-Options', 'nosniff']] : []);
							},
						};
					}
					return { kind: 'refused' };
				}
				case 'pod':
					return connectToPod(cluster, cluster.hosts.get(landing.node)!, landing.ip, landing.port, landing.clientIp);
			}
	};
	return {
		connect: connectOne,
		resolve: (hostName, name) => {
			const pod = podHosts.get(hostName);
			if (!pod || !dns) return undefined;
			const found = resolveAddress(podNetDeps(cluster, dns, hostName, pod, connectFrom(hostName), pod.readFile), name);
			return found.kind === 'address' ? found.ip : undefined;
		},
		versionOn: (hostName) => (podHosts.has(hostName) ? DEBIAN_CURL_VERSION : undefined),
	};
}

/** The packet-filter tools on every node, `kube-ipvs0` for `ip`, and curl inside Pods. */
export function registerNetworkTools(cluster: ToolsContext, shell: ReaderShell, curlDeps: CurlDeps, podHosts: PodHosts, dns: CoreDnsServers): void {
	for (const host of cluster.hosts.values()) {
		const deps: NetfilterDeps = {
			dataplane: () => host.network.dataplane,
			wallMs: () => cluster.kernel.wallMs(),
			nowMs: () => cluster.kernel.nowMs,
			// systemd-resolved answers the machine's own addresses with its host name.
			hostName: (ip) => (ip === host.ip ? host.name : ip === '127.0.0.1' ? 'localhost' : undefined),
		};
		host.shellHost.commands.set('iptables', createIptables(deps));
		host.shellHost.commands.set('iptables-save', createIptablesSave(deps));
		host.shellHost.commands.set('ipvsadm', createIpvsadm(deps));
		host.shellHost.commands.set('nft', createNft(deps));
	}
	// curl in a Pod: the Pod's address and resolver; no waiting out a timeout inside an exec (the API request is still open).
	// A Pod trusts the cluster CA the kubelet projects next to its token (from the kube-root-ca.crt ConfigMap).
	const podCurl = createCurl({ ...curlDeps, elapse: undefined, hostIp: (name) => podHosts.get(name)?.ip ?? curlDeps.hostIp?.(name), trustedCaFiles: [SERVICE_ACCOUNT_CA_FILE] });
	for (const host of cluster.hosts.values()) {
		host.podNetworkCommand = (pod, argv, readFile) => {
			const base = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
			if (!POD_NETWORK_COMMANDS.has(base)) return undefined;
			const name = `pod:${pod.namespace}/${pod.name}`;
			const entry: PodHostEntry = { node: host.name, ip: pod.hostNetwork ? host.ip : pod.ip, namespace: pod.namespace, hostNetwork: pod.hostNetwork, readFile };
			podHosts.set(name, entry);
			try {
				if (base === 'ip') return host.podIp?.(pod.hostNetwork ? undefined : pod.ip, ['ip', ...argv.slice(1)]);
				if (base === 'curl') {
					const podHost: Host = { name, fs: containerFiles(argv, readFile), commands: new Map(), user: 'root', home: '/root', kind: 'node' };
					const ctx: CommandContext = { argv: ['curl', ...argv.slice(1)], stdin: '', env: {}, host: podHost, shell: shell.session };
					const result: CommandResult = podCurl(ctx);
					return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
				}
				const deps = podNetDeps(cluster, dns, name, entry, (ip, port) => curlDeps.connect?.(name, ip, port) ?? { kind: 'timeout' }, readFile, podDialects(pod.image));
				return runDnsTool(deps, argv) ?? runClientTool(deps, argv);
			} finally {
				podHosts.delete(name);
			}
		};
		// On the node (Ubuntu): BIND's dig, nslookup and host, iputils' ping, through systemd-resolved's stub unless a server is named.
		const nodeDeps = (): NetDeps => ({
			readFile: (path) => (host.fs.exists(path) ? host.fs.readFile(path) : undefined),
			dns: (server, query) => dns.exchange({ kind: 'node', node: host.name }, server, query),
			connect: (ip, port) => curlDeps.connect?.(host.name, ip, port) ?? { kind: 'timeout' },
			echo: (ip) => echoFrom(cluster, { kind: 'node', node: host.name }, ip),
			wallMs: () => cluster.kernel.wallMs(),
			random: () => cluster.kernel.rng(`tools/net/${host.name}`).float(),
			dialects: UBUNTU_DIALECTS,
		});
		for (const tool of ['nslookup', 'dig', 'host', 'ping'] as const) {
			host.shellHost.commands.set(tool, (ctx: CommandContext): CommandResult => {
				const argv = [tool, ...ctx.argv.slice(1)];
				const r = runDnsTool(nodeDeps(), argv) ?? runClientTool(nodeDeps(), argv)!;
				return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr };
			});
		}
	}
}

/** The commands a Pod runs on its own network. */
const POD_NETWORK_COMMANDS = new Set(['curl', 'wget', 'nc', 'netcat', 'ping', 'nslookup', 'dig', 'host', 'ip']);

/** Ubuntu 24.04's bind9-dnsutils and iputils-ping on the nodes. */
const UBUNTU_DIALECTS: ToolDialects = { nslookup: 'bind', ping: 'iputils', bindVersion: '9.18.39-0ubuntu0.24.04.2-Ubuntu' };

/** Which tools answer in an image: busybox's applets (the old nslookup up to 1.28), or BIND and iputils where the image installs them. */
function podDialects(image: { repository: string; version: string; family: string } | undefined): ToolDialects {
	const repo = image?.repository ?? '';
	if (/jessie-dnsutils|dnsutils/.test(repo)) return { nslookup: 'bind', ping: 'iputils', bindVersion: '9.9.5-9+deb8u19-Debian' };
	if (/netshoot/.test(repo)) return { nslookup: 'bind', ping: 'iputils', bindVersion: '9.20.15' };
	if (image?.family === 'busybox' || image?.family === 'alpine') {
		const [major, minor] = (image.version ?? '').split('.').map(Number);
		const old = image.family === 'busybox' && major === 1 && minor <= 28;
		return { nslookup: old ? 'busybox-old' : 'busybox', ping: 'busybox', bindVersion: '' };
	}
	return { nslookup: 'bind', ping: 'iputils', bindVersion: '9.20.15-1~deb13u1-Debian' };
}

/** A Pod's network as its tools see it. */
function podNetDeps(cluster: ToolsContext, dns: CoreDnsServers, name: string, pod: PodHostEntry, connect: NetDeps['connect'], readFile?: (path: string) => string | undefined, dialects: ToolDialects = UBUNTU_DIALECTS): NetDeps {
	const source: ConnectSource = pod.hostNetwork ? { kind: 'node', node: pod.node } : { kind: 'pod', node: pod.node, ip: pod.ip };
	return {
		readFile: (path) => (readFile ?? pod.readFile)?.(path),
		dns: (server, query) => dns.exchange(source, server, query),
		connect,
		echo: (ip) => echoFrom(cluster, source, ip),
		wallMs: () => cluster.kernel.wallMs(),
		random: () => cluster.kernel.rng(`tools/net/${name}`).float(),
		dialects,
	};
}

/**
 * Where an ICMP echo from `source` to `ip` gets an answer, with the TTL it
 * arrives with: 64 from the same machine or bridge, one less for each
 * node that routes it (a Pod on another node: its node, then ours). A
 * ClusterIP answers only where a local device holds it (IPVS's
 * kube-ipvs0); iptables and nftables only rewrite TCP and UDP.
 */
function echoFrom(cluster: ToolsContext, source: ConnectSource, ip: string): EchoResult {
	if (source.kind === 'workstation') return { kind: 'lost' };
	const views = [...cluster.hosts.values()].map((h) => h.network.view());
	const own = views.find((v) => v.name === source.node);
	if (!own || own.unreachable) return { kind: 'lost' };
	if (ip.startsWith('127.') || (source.kind === 'pod' && ip === source.ip)) return { kind: 'reply', ttl: 64 };
	const fromPod = source.kind === 'pod';
	if (own.localAddresses.includes(ip)) return { kind: 'reply', ttl: 64 };
	// A Pod on the same node: across the cni0 bridge, no router in between.
	if (own.podIps.includes(ip)) return { kind: 'reply', ttl: 64 };
	for (const v of views) {
		if (v === own) continue;
		const nic = v.ip === ip;
		const local = v.localAddresses.includes(ip) && !(v.dataplane.ipvs.dummy?.addresses ?? []).includes(ip);
		const podHere = v.podIps.includes(ip);
		if (!nic && !local && !podHere) continue;
		if (v.poweredOff) return { kind: 'unreachable' };
		if (v.unreachable) return { kind: 'lost' };
		// Hops: our node routes a Pod's packet out (one), the other node routes it to its Pod (one more).
		const hops = (fromPod ? 1 : 0) + (podHere ? 1 : 0);
		return { kind: 'reply', ttl: 64 - hops };
	}
	if (inPodNetwork(ip)) return { kind: 'unreachable' };
	return { kind: 'lost' };
}

function inPodNetwork(ip: string): boolean {
	return ip.startsWith('10.244.');
}

/**
 * The container's files curl may open, copied from the container: every
 * argument that names an absolute path, alone, after `=` (`--cacert=/x`)
 * or after `@` (`-d @/x`). curl reads nothing else from disk.
 */
function containerFiles(argv: readonly string[], readFile: ((path: string) => string | undefined) | undefined): MemoryFs {
	const fs = new MemoryFs();
	if (!readFile) return fs;
	for (const arg of argv.slice(1)) {
		const path = /^(?:[^=@]*[=@])?(\/[^\s]*)$/.exec(arg)?.[1];
		const text = path === undefined ? undefined : readFile(path);
		if (path === undefined || text === undefined) continue;
		fs.mkdir(path.slice(0, path.lastIndexOf('/')) || '/', true);
		fs.writeFile(path, text);
	}
	return fs;
}
