/**
 * What etcdctl's client (client/v3 over gRPC) does between the command line
 * and the member: load the TLS files, pick credentials per endpoint scheme,
 * dial, and, when the connection cannot be made, wait out the command
 * timeout and log the retry interceptor's warning.
 *
 * Upstream behaviour reproduced:
 * - client/pkg/transport/listener.go ClientConfig: cert and key both or
 *   neither (`KeyFile and CertFile must both be present[key: ..., cert: ...]`),
 *   files read at start (`open <path>: no such file or directory`), and
 *   etcdctl exits 128 for these (ctlv3/command/global.go mustClient).
 * - client/v3/client.go credentialsForEndpoint: `https://` needs TLS (system
 *   roots when no --cacert), `http://` never uses it, a bare `host:port`
 *   uses TLS only when TLS flags were given.
 * - The dial does not block (3.6 sets no grpc.WithBlock); the first RPC
 *   waits for a ready connection until the command timeout (5s), then fails
 *   with DeadlineExceeded and gRPC's "latest balancer error" (grpc-go v1.79
 *   picker_wrapper.go, pick_first's last connection error). The retry
 *   interceptor logs it once (client/v3/retry_interceptor.go:68), then
 *   etcdctl prints `Error: context deadline exceeded` (exit 1).
 * - kubeadm's etcd serves TLS only with --client-cert-auth=true: plaintext
 *   gets no HTTP/2 preface back (EOF), an unknown CA fails the handshake, a
 *   missing client certificate gets TLS 1.3's `certificate required` alert.
 *
 * Mirrors etcd-io/etcd client/pkg/transport/listener.go (ClientConfig),
 * etcd-io/etcd client/v3/client.go (credentialsForEndpoint), etcd-io/etcd
 * client/v3/retry_interceptor.go, etcd-io/etcd
 * etcdctl/ctlv3/command/global.go (mustClient), grpc/grpc-go
 * picker_wrapper.go.
 */
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import type { Host } from '../../shell/types.ts';
import { zapTimestamp } from '../common/calendar.ts';
import { zapLine } from '../common/zap.ts';
import { ETCD_CLIENT_PORT, KUBEADM_ETCD_TLS, type EtcdMemberFacts, type EtcdctlDeps } from './types.ts';

/** The client settings etcdctl builds from its flags (clientv3.ConfigSpec). */
export interface ClientSettings {
	endpoints: string[];
	cert: string;
	key: string;
	cacert: string;
	insecureTransport: boolean;
	insecureSkipVerify: boolean;
	commandTimeoutMs: number;
}

/** A usable connection to the member. */
export interface Connected {
	ok: true;
	store: EtcdClient;
	/** The member the endpoint reached. */
	member: EtcdMemberFacts;
	/** The endpoint as given (`127.0.0.1:2379`, `https://192.168.56.10:2379`). */
	endpoint: string;
	/** The member address and the client's ephemeral port, for gRPC's Peer string. */
	peerAddress: string;
	localAddress: string;
	tls: boolean;
}

/** Why no connection became ready: gRPC's connection error text. */
interface NotConnected {
	ok: false;
	endpoint: string;
	/** `connection error: desc = "..."`, as pick_first reports it. */
	connectionError: string;
}

export type Connection = Connected | NotConnected;

/** etcdctl exits 128 (ExitBadArgs) with this message before dialing. */
export class ConfigError extends Error {}

/** `http://` drops TLS, `https://` requires it, no scheme uses it only if configured (client/v3/internal/endpoint). */
function schemeOf(endpoint: string): 'http' | 'https' | 'none' {
	if (endpoint.startsWith('https://') || endpoint.startsWith('unixs://')) return 'https';
	if (endpoint.startsWith('http://') || endpoint.startsWith('unix://')) return 'http';
	return 'none';
}

/** `host:port` of an endpoint (client/v3/client.go authority). */
export function authority(endpoint: string): string {
	const at = endpoint.indexOf('://');
	return at < 0 ? endpoint : endpoint.slice(at + 3);
}

/**
 * Checks the TLS files as clientv3.NewClientConfig would (they must exist
 * on this host). Throws ConfigError with upstream's message.
 */
export function loadTls(settings: ClientSettings, host: Host): void {
	const exists = (path: string) => {
		try {
			return host.fs.exists(path) && !host.fs.isDir(path);
		} catch {
			return false;
		}
	};
	if (settings.cert || settings.key) {
		if (!settings.cert || !settings.key) throw new ConfigError(`KeyFile and CertFile must both be present[key: ${settings.key}, cert: ${settings.cert}]`);
		// tlsutil.NewCert reads the certificate, then the key.
		for (const path of [settings.cert, settings.key]) if (!exists(path)) throw new ConfigError(`open ${path}: no such file or directory`);
	}
	if (settings.cacert && !exists(settings.cacert)) throw new ConfigError(`open ${settings.cacert}: no such file or directory`);
}

/** Whether the client was configured for TLS at all (a bare host:port then uses it). */
function tlsConfigured(settings: ClientSettings): boolean {
	return !!(settings.cert || settings.key || settings.cacert || settings.insecureSkipVerify || !settings.insecureTransport);
}

const quoted = (desc: string) => `connection error: desc = ${JSON.stringify(desc)}`;

/** Dials one endpoint from `host`. */
export function dial(endpoint: string, settings: ClientSettings, host: Host, deps: EtcdctlDeps, localPort: number): Connection {
	const members = deps.members();
	const address = authority(endpoint);
	const colon = address.lastIndexOf(':');
	const hostPart = colon < 0 ? address : address.slice(0, colon);
	const port = colon < 0 ? '' : address.slice(colon + 1);
	const loopback = hostPart === '127.0.0.1' || hostPart === 'localhost';
	const nodeIpOf = (m: EtcdMemberFacts) => m.listenClientUrls.map((url) => authority(url).replace(/:\d+$/, '')).find((h) => h !== '127.0.0.1' && h !== 'localhost');
	const isIp = /^\d+\.\d+\.\d+\.\d+$/.test(hostPart) || loopback;
	const named = members.find((m) => m.nodeName === hostPart);
	if (!isIp && !named) {
		return { ok: false, endpoint, connectionError: quoted(`transport: Error while dialing: dial tcp: lookup ${hostPart} on 127.0.0.53:53: no such host`) };
	}
	const resolved = named ? nodeIpOf(named) ?? hostPart : loopback ? '127.0.0.1' : hostPart;
	// Loopback reaches the member on this host; an address, the member that listens on it.
	const member = loopback ? members.find((m) => m.nodeName === host.name) : members.find((m) => nodeIpOf(m) === resolved);
	const listens = !!member && port === String(ETCD_CLIENT_PORT);
	const store = member && deps.store(host.name, member.name);
	if (!listens || !member || !store) return { ok: false, endpoint, connectionError: quoted(`transport: Error while dialing: dial tcp ${resolved}:${port}: connect: connection refused`) };

	const scheme = schemeOf(endpoint);
	const useTls = scheme === 'https' || (scheme === 'none' && tlsConfigured(settings));
	// kubeadm's member answers TLS only: a plaintext HTTP/2 preface gets the connection closed.
	if (!useTls) return { ok: false, endpoint, connectionError: quoted('error reading server preface: EOF') };
	const policy = deps.tls ?? KUBEADM_ETCD_TLS;
	const caTrusted = settings.insecureSkipVerify || (!!settings.cacert && policy.trustedCaFiles.includes(host.fs.resolve(settings.cacert)));
	if (!caTrusted) {
		return { ok: false, endpoint, connectionError: quoted('transport: authentication handshake failed: tls: failed to verify certificate: x509: certificate signed by unknown authority') };
	}
	if (!settings.cert) return { ok: false, endpoint, connectionError: quoted('error reading server preface: remote error: tls: certificate required') };
	if (!policy.clientCertFiles.includes(host.fs.resolve(settings.cert))) {
		return { ok: false, endpoint, connectionError: quoted('error reading server preface: remote error: tls: unknown certificate authority') };
	}
	const local = loopback ? '127.0.0.1' : (deps.hostIp?.(host.name) ?? (host.name === member.nodeName ? resolved : '0.0.0.0'));
	return { ok: true, store, member, endpoint, peerAddress: `${resolved}:${port}`, localAddress: `${local}:${localPort}`, tls: true };
}

/** Dials the endpoints in order and keeps the first that connects, as the round-robin balancer ends up using a ready one. */
export function connect(settings: ClientSettings, host: Host, deps: EtcdctlDeps, localPort: number): Connection {
	let first: Connection | undefined;
	for (const endpoint of settings.endpoints) {
		const connection = dial(endpoint, settings, host, deps, localPort);
		if (connection.ok) return connection;
		first ??= connection;
	}
	return first ?? { ok: false, endpoint: '', connectionError: quoted('produced zero addresses') };
}

/** Helpers that make the client's log lines and timing. */
interface ClientLog {
	/** The retry interceptor's warning for a failed unary RPC. */
	retryFailed(args: { logger: 'etcd-client' | 'client'; target: string; peer: string; method: string; error: string; atMs: number }): string;
	/** A pointer-like value for the gRPC target (`etcd-endpoints://0xc0003a2000/127.0.0.1:2379`). */
	target(endpoint: string): string;
}

/** The gRPC Peer string (grpc-go peer/peer.go String). */
export function peerString(connection: Connection | undefined): string {
	if (!connection?.ok) return 'Peer{Addr: <nil>, LocalAddr: <nil>, AuthInfo: <nil>}';
	return `Peer{Addr: '${connection.peerAddress}', LocalAddr: '${connection.localAddress}', AuthInfo: '${connection.tls ? 'tls' : 'insecure'}'}`;
}

/** Builds the log helpers over the node's random stream. */
export function clientLog(deps: EtcdctlDeps): ClientLog {
	const micros = () => Math.floor(deps.random() * 1000);
	return {
		retryFailed: ({ logger, target, peer, method, error, atMs }) =>
			zapLine({
				level: 'warn',
				ts: zapTimestamp(atMs, micros()),
				logger,
				caller: 'v3/retry_interceptor.go:68',
				msg: 'retrying of unary invoker failed',
				fields: [
					['target', target],
					['peer', peer],
					['method', method],
					['attempt', 0],
					['error', error],
				],
			}),
		target: (endpoint) => {
			// Go prints the client struct's heap address with %p; objects of its size sit on 64-byte boundaries.
			const pointer = 0xc000000000 + 0x100000 + Math.floor(deps.random() * 0x1c000) * 64;
			return `etcd-endpoints://0x${pointer.toString(16)}/${authority(endpoint)}`;
		},
	};
}
