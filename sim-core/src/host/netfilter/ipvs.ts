/**
 * The kernel's IPVS state on one node: the virtual services with their
 * real servers and counters (what `ipvsadm -Ln` lists), the kube-ipvs0
 * dummy device and the ipsets kube-proxy's IPVS mode keeps. kube-proxy
 * writes it; the kernel's traffic model and ipvsadm read it. Plain JSON.
 *
 * Mirrors pkg/proxy/ipvs/util/ipvs.go (VirtualServer, RealServer),
 * pkg/proxy/ipvs/ipset/ipset.go, torvalds/linux
 * net/netfilter/ipvs/ip_vs_core.c (ip_vs_sched_persist, the templates).
 */

/** One real server of a virtual server (ipvsadm's `->` line). */
interface RealServer {
	address: string;
	port: number;
	weight: number;
	/** Connection counters ipvsadm shows (ActiveConn, InActConn) and its --stats. */
	activeConns: number;
	inactConns: number;
	conns: number;
	inPkts: number;
	outPkts: number;
	inBytes: number;
	outBytes: number;
}

/**
 * A persistence template (ip_vs_sched_persist): a client address bound to a
 * real server; each new connection of that client within the timeout goes
 * there and restarts the timer. A template whose real server was removed
 * is not used (ip_vs_check_template).
 */
export interface PersistenceTemplate {
	client: string;
	address: string;
	port: number;
	expiresAtMs: number;
}

/** Templates kept per virtual server, at most (the oldest goes first). */
export const MAX_PERSISTENCE_TEMPLATES = 1_000;

/** One IPVS virtual service. */
export interface VirtualServer {
	protocol: 'TCP' | 'UDP' | 'SCTP';
	address: string;
	port: number;
	scheduler: string;
	/** sessionAffinity ClientIP: `persistent <timeout>`. */
	persistentTimeoutSeconds?: number;
	/** Persistence templates of a persistent service: which real server each client goes to, until when. */
	templates?: PersistenceTemplate[];
	realServers: RealServer[];
	/** The rr scheduler's position: the real server the next connection goes to. */
	rrNext: number;
	conns: number;
	inPkts: number;
	outPkts: number;
	inBytes: number;
	outBytes: number;
}

/** The kernel's IPVS state on one node, kube-ipvs0 and kube-proxy's ipsets. Plain JSON. */
export interface IpvsState {
	virtualServers: VirtualServer[];
	/** kube-ipvs0 and its addresses (each /32), or null when the device does not exist. */
	dummy: { addresses: string[] } | null;
	/** ipset name -> entries (`10.96.0.1,tcp:443`). */
	ipsets: Record<string, string[]>;
}

export function emptyIpvs(): IpvsState {
	return { virtualServers: [], dummy: null, ipsets: {} };
}
