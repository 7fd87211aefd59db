/**
 * kube-proxy's conntrack cleanup after each sync: UDP has no connection to
 * close, so a flow the kernel DNATed to an endpoint that is gone would keep
 * going there until its entry times out (a client sending DNS queries from
 * one port every few seconds never lets it). So kube-proxy deletes the UDP
 * entries of a service port whose DNAT target is no longer one of its
 * serving endpoints, and the entries that went nowhere (no DNAT: the
 * packets were rejected while the service had no endpoint) once it has
 * one. TCP needs none of it: a gone endpoint answers with a reset.
 *
 * Mirrors pkg/proxy/conntrack/cleanup.go (CleanStaleEntries,
 * filterForNAT / filterForIPPortNAT).
 */
import { deleteConntrack, type ConntrackTable } from '../host/netfilter/conntrack.ts';
import { servicePortKey, type EndpointInfo, type ServicePortInfo } from './service-map.ts';

/** Deletes the stale UDP entries of the node's table; returns how many went. */
export function cleanStaleEntries(table: ConntrackTable, servicePorts: readonly ServicePortInfo[], endpoints: Readonly<Record<string, EndpointInfo[]>>): number {
	const udp = servicePorts.filter((sp) => sp.protocol === 'UDP');
	if (!udp.length) return 0;
	return deleteConntrack(table, (e) => {
		if (e.proto !== 'udp') return false;
		for (const sp of udp) {
			const frontends = [sp.clusterIP, ...sp.externalIPs, ...sp.loadBalancerVIPs].filter(Boolean);
			if (!frontends.includes(e.orig.dst) || e.orig.dport !== sp.port) continue;
			const serving = (endpoints[servicePortKey(sp)] ?? []).filter((ep) => ep.serving || ep.ready);
			// Not DNATed: it was sent while there was no endpoint; now that there is one, let the next packet find it.
			if (e.reply.src === e.orig.dst) return serving.length > 0;
			return !serving.some((ep) => ep.ip === e.reply.src && ep.port === e.reply.sport);
		}
		return false;
	});
}
