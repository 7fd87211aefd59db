/**
 * The kernel's IPVS state on one node: the virtual services with their
 * real servers and counters (what `ipvsadm -Ln` lists), the kube-ipvs0
 * dummy device and the ipsets kube-proxy's IPVS mode keeps. kube-proxy
 * writes it; the kernel's traffic model and ipvsadm read it. Plain JSON.
 *
 * Mirrors pkg/proxy/ipvs/util/ipvs.go (VirtualServer, RealServer),
 * pkg/proxy/ipvs/ipset/ipset.go.
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

/** One IPVS virtual service. */
export interface VirtualServer {
	protocol: 'TCP' | 'UDP' | 'SCTP';
	address: string;
	port: number;
	scheduler: string;
	/** sessionAffinity ClientIP: `persistent <timeout>`. */
	persistentTimeoutSeconds?: number;
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
