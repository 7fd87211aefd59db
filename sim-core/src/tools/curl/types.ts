/**
 * What `curl` needs from the cluster, passed in by the cluster wiring: the
 * API server's address and certificate facts, a way to send an API request
 * as a user (the cluster's transport), the health the server's probes
 * report, and how client credentials map to users. Nothing here reaches into
 * another component's folder; the request and response shapes are the API
 * server's wire types (api/request.ts) that client/ also uses.
 *
 * Mirrors nothing upstream: what the cluster wiring hands curl (the API
 * server's address and certificate facts, a transport, the probes' health).
 */
import type { ApiRequest, UserInfo } from '../../api/request.ts';
import type { TransportResult } from '../../client/transport.ts';

/** The kube-apiserver endpoint as kubeadm sets it up. */
export interface ApiServerEndpoint {
	/** --advertise-address: the control-plane node's IP. */
	ip: string;
	/** --secure-port (6443, FACTS.md F). */
	port: number;
	/** The control-plane node's name (it resolves to `ip`, as /etc/hosts does in a kubeadm lab). */
	nodeName: string;
	/**
	 * Names and addresses in the serving certificate (kubeadm certs phase:
	 * the node name, kubernetes, kubernetes.default, kubernetes.default.svc,
	 * kubernetes.default.svc.cluster.local, the service IP 10.96.0.1 and the
	 * advertise address; not localhost, not 127.0.0.1).
	 */
	certSans: string[];
	/**
	 * When `kubeadm init` issued the serving certificate, epoch ms. kubeadm
	 * backdates NotBefore by 5 minutes (constants.CertificateBackdate) and
	 * sets NotAfter one year after issue (CertificateValidityPeriod).
	 */
	certIssuedAtMs: number;
}

/** One Prometheus metric family for /metrics. */
export interface MetricFamily {
	name: string;
	help: string;
	type: 'counter' | 'gauge';
	samples: Array<{ labels: Record<string, string>; value: number }>;
}

/** Version facts /version reports (k8s.io/apimachinery/pkg/version Info). */
export interface ServerVersion {
	/** `v1.36.3`. */
	gitVersion: string;
	gitCommit: string;
	buildDate: string;
	goVersion: string;
	/** `linux/amd64`. */
	platform: string;
}

/** A plain-HTTP server's answer: its status line's protocol, headers in the server's own order and spelling. */
export interface PlainHttpAnswer {
	protocol: 'HTTP/1.1' | 'HTTP/1.0';
	status: number;
	headers: Array<[string, string]>;
	body: string;
	/** How long the server took to answer (its CPU time for the request), when it took measurably long. */
	latencyMs?: number;
}

/** Where a TCP connection to an address lands on the simulated network (Services, Pods, nodes). */
export type CurlConnection =
	/** kube-apiserver's TLS port, directly or through the `kubernetes` Service. */
	| { kind: 'apiserver' }
	/** A plain-HTTP server (a Pod's nginx, kube-proxy's health server) that answers one request. */
	| { kind: 'http'; serve(request: { method: string; target: string; headers: Array<[string, string]> }): PlainHttpAnswer }
	/** Refused at once: nothing listens, or a REJECT rule (ICMP port unreachable). */
	| { kind: 'refused' }
	/** No answer at all: the SYN is dropped or routed nowhere. */
	| { kind: 'timeout' }
	/** The address is on a local network but nobody answers ARP: `No route to host` after `afterMs`. */
	| { kind: 'unreachable'; afterMs: number };

/** What curl is wired to. */
export interface CurlDeps {
	apiServer: ApiServerEndpoint;
	/** Whether a TCP connection from `hostName` to the API server's port succeeds: 'refused' when it is down, 'timeout' when the host is cut off. */
	reachable(hostName: string): 'ok' | 'refused' | 'timeout';
	/** Sends one API request as `user` (undefined: the request is anonymous) through the cluster's transport. */
	request(user: UserInfo | undefined, request: ApiRequest): TransportResult;
	/** Whether the API server can reach etcd now (its etcd health check). */
	etcdHealthy(): boolean;
	/**
	 * The user a client certificate authenticates as, when the cluster CA
	 * signed it; undefined if the API server rejects it (401). Default:
	 * defaultCertIdentity (kubeadm's well-known files and OpenSSL subject lines).
	 */
	identityForCert?(hostName: string, path: string, content: string): UserInfo | undefined;
	/** The user a bearer token authenticates as; undefined for an unknown token (401). Default: no token is valid. */
	identityForToken?(token: string): UserInfo | undefined;
	/** CA files that verify the API server's certificate (default: kubeadm's /etc/kubernetes/pki/ca.crt). */
	trustedCaFiles?: string[];
	/** Whether `user` may GET a non-resource path; default: kubeadm's RBAC bootstrap roles (see nonresource.ts). */
	authorizeNonResource?(user: UserInfo, path: string): boolean;
	version: ServerVersion;
	/** Counters for /metrics (optional; without it /metrics shows an empty body). */
	metrics?(): MetricFamily[];
	/** The IP address of a shell host, for curl -v's connect lines (`from 192.168.56.11 port 45678`). */
	hostIp?(hostName: string): string | undefined;
	/** Virtual wall clock, epoch ms (the Date header, certificate dates). */
	wallMs(): number;
	/** The host's seeded random stream, [0, 1): audit IDs, timings, ephemeral ports. */
	random(): number;
	/** Lets virtual time pass while curl waits (a connect timeout). */
	elapse?(ms: number): void;
	/**
	 * Where a connection from `hostName` to ip:port lands after the
	 * network's rules (kube-proxy's on the nodes). Undefined, or no
	 * function: only the API server's address answers, as without a cluster.
	 */
	connect?(hostName: string, ip: string, port: number): CurlConnection | undefined;
	/** The address of a name for `hostName`'s resolver (cluster DNS inside a Pod); undefined: not found. */
	resolve?(hostName: string, name: string): string | undefined;
	/** curl's version on `hostName` (`curl/<version>` User-Agent); default CURL_VERSION. */
	versionOn?(hostName: string): string | undefined;
	/**
	 * The API server's proxy to a node's kubelet (`/api/v1/nodes/<node>/proxy/<path>`):
	 * the kubelet's answer on port 10250, or why the API server could not reach it.
	 * Undefined, or no function: the proxy finds no kubelet (503).
	 */
	kubeletProxy?(node: string, path: string): KubeletProxyAnswer | undefined;
	/** Whether an aggregated group version has an APIService, and whether it is Available (default: none exists). */
	apiService?(group: string, version: string): 'absent' | 'available' | 'unavailable';
}

/** What the API server's node proxy got from a kubelet. */
export type KubeletProxyAnswer =
	| { kind: 'answer'; status: number; contentType: string; body: string }
	/** The dial failed: `dial tcp 192.168.56.11:10250: connect: connection refused`. */
	| { kind: 'unreachable'; error: string };
