/**
 * Fixtures for the network tests: Services and EndpointSlices shaped as the
 * API server and the EndpointSlice controller write them, and node-1 of a
 * three-node cluster with the pod network 10.244.0.0/16.
 *
 * Mirrors nothing upstream: fixtures for the network tests.
 */
import type { EndpointSlice, KubeObject, Service } from '../api/types.ts';
import { buildEndpoints, buildServicePorts, type EndpointInfo, type ServicePortInfo } from '../network/service-map.ts';

export const NODE = 'node-1';
export const NODE_IP = '192.168.56.11';
export const CLUSTER_CIDR = '10.244.0.0/16';
/** node-1's addresses: its NIC, flannel.1 (the pod CIDR's network address) and cni0 (.1). */
export const NODE_ADDRESSES = [NODE_IP, '10.244.1.0', '10.244.1.1'];

export function service(name: string, spec: Service['spec'], namespace = 'default'): Service {
	return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ...spec } };
}

export function slice(serviceName: string, ports: NonNullable<EndpointSlice['ports']>, endpoints: EndpointSlice['endpoints'], namespace = 'default'): EndpointSlice {
	return { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: `${serviceName}-abcde`, namespace, labels: { 'kubernetes.io/service-name': serviceName } }, addressType: 'IPv4', endpoints, ports };
}

export function ready(ip: string, nodeName: string): EndpointSlice['endpoints'][number] {
	return { addresses: [ip], conditions: { ready: true, serving: true, terminating: false }, nodeName };
}

/**
 * The services of the rule tables: `web` (ClusterIP, one unnamed port, three
 * ready endpoints), `web-np` (NodePort 30080, port `http` 80 → 8080, two
 * endpoints) and `empty` (no endpoints at all).
 */
export function fixtureObjects(): { services: KubeObject[]; slices: KubeObject[] } {
	return {
		services: [
			service('web', { type: 'ClusterIP', clusterIP: '10.96.12.34', clusterIPs: ['10.96.12.34'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] }),
			service('web-np', { type: 'NodePort', clusterIP: '10.96.40.5', clusterIPs: ['10.96.40.5'], externalTrafficPolicy: 'Cluster', ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080, nodePort: 30080 }] }),
			service('empty', { type: 'ClusterIP', clusterIP: '10.96.5.5', clusterIPs: ['10.96.5.5'], ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }] }),
		],
		slices: [
			slice('web', [{ name: '', port: 80, protocol: 'TCP' }], [ready('10.244.1.2', 'node-1'), ready('10.244.2.3', 'node-2'), ready('10.244.1.10', 'node-1')]),
			slice('web-np', [{ name: 'http', port: 8080, protocol: 'TCP' }], [ready('10.244.1.2', 'node-1'), ready('10.244.2.3', 'node-2')]),
			slice('empty', [], []),
		],
	};
}

export function fixture(): { servicePorts: ServicePortInfo[]; endpoints: Record<string, EndpointInfo[]> } {
	const { services, slices } = fixtureObjects();
	return { servicePorts: buildServicePorts(services), endpoints: buildEndpoints(slices, NODE) };
}

/** A random stream that returns the given values in turn (then repeats the last). */
export function draws(...values: number[]): () => number {
	let i = 0;
	return () => values[Math.min(i++, values.length - 1)];
}
