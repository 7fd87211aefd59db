/**
 * Where metrics-server meets the machines: its scrapes travel from its
 * Pod to a node's address and port 10250, where the kubelet answers
 * `/metrics/resource` with its self-signed serving certificate (kubeadm
 * leaves `serverTLSBootstrap` off, so the kubelet makes its own, for its
 * host name only, no IP SANs); a machine that is off answers nothing (`no
 * route to host`), a cut-off one times out, a stopped kubelet refuses;
 * its log lines go to its container's log; the aggregator reaches it at
 * its Pod IP.
 *
 * Mirrors pkg/kubelet/kubelet.go (the self-signed serving certificate
 * when no certificate is given and serverTLSBootstrap is off:
 * cert.GenerateSelfSignedCertKey for the host name).
 */
import type { BackendAnswer, BackendTarget } from '../apiserver/aggregator/apiservice.ts';
import type { ApiRequest } from '../api/request.ts';
import type { MetricsServer, MetricsServerContainer, MetricsServerDeps, ScrapeAnswer } from '../metrics-server/metrics-server.ts';
import type { NodeHost } from './node-host.ts';

/** The network facts the scrapes need. */
interface MetricsNetwork {
	hosts: ReadonlyMap<string, NodeHost>;
	isPartitioned(node: string): boolean;
	clusterDnsIp: string;
}

/** metrics-server's dependencies on the machines. */
export function metricsServerDeps(net: MetricsNetwork): MetricsServerDeps {
	return {
		clusterDnsIp: net.clusterDnsIp,
		scrape(from: MetricsServerContainer, address: string, port: number): ScrapeAnswer {
			const host = [...net.hosts.values()].find((h) => h.ip === address);
			const dial = `dial tcp ${address}:${port}`;
			if (!host || host.poweredOff) return { ok: false, error: `${dial}: connect: no route to host` };
			if (net.isPartitioned(host.name) || net.isPartitioned(from.node)) return { ok: false, error: `context deadline exceeded (Client.Timeout exceeded while awaiting headers)` };
			if (port !== 10250) return { ok: false, error: `${dial}: connect: connection refused` };
			const text = host.resourceMetrics();
			if (text === undefined) return { ok: false, error: `${dial}: connect: connection refused` };
			return { ok: true, text, cert: { ipSans: [], dnsNames: [host.name], selfSigned: true } };
		},
		alive(from: MetricsServerContainer): boolean {
			const host = net.hosts.get(from.node);
			return !!host && !host.poweredOff && host.runtimeState.containers[from.containerId]?.state === 'CONTAINER_RUNNING';
		},
		log(from: MetricsServerContainer, text: string): void {
			net.hosts.get(from.node)?.runtime.appendComponentLog('metrics-server', 'stderr', text);
		},
	};
}

/** The aggregator's dial to an APIService backend: metrics-server's instance at that Pod IP, or refused. */
export function aggregatedBackend(metricsServer: MetricsServer, target: BackendTarget, request: ApiRequest): BackendAnswer {
	return metricsServer.serve(target.podIp, request) ?? { dialError: 'connect: connection refused' };
}
