/**
 * Service ports and endpoints as kube-proxy's trackers build them
 * (pkg/proxy/servicechangetracker.go, endpointslicecache.go) and
 * CategorizeEndpoints' choices (pkg/proxy/topology.go and its tests:
 * ready endpoints first, serving-and-terminating ones when none is ready,
 * Local policy keeping the node's own).
 */
import { describe, expect, it } from 'vitest';
import { buildEndpoints, buildServicePorts, categorizeEndpoints, endpointString, type EndpointInfo, type ServicePortInfo } from './service-map.ts';
import { service, slice } from '../testing/network.ts';

const ep = (ip: string, extra: Partial<EndpointInfo> = {}): EndpointInfo => ({ ip, port: 80, ready: true, serving: true, terminating: false, isLocal: false, ...extra });

function port(extra: Partial<ServicePortInfo> = {}): ServicePortInfo {
	return buildServicePorts([service('web', { type: 'NodePort', clusterIP: '10.96.1.1', ports: [{ port: 80, nodePort: 30001 }] })]).map((p) => ({ ...p, ...extra }))[0];
}

describe('service ports', () => {
	it('skips headless and ExternalName Services, and one port per spec.ports entry otherwise', () => {
		const ports = buildServicePorts([
			service('headless', { clusterIP: 'None', ports: [{ port: 80 }] }),
			service('ext', { type: 'ExternalName', externalName: 'example.com' }),
			service('two', { clusterIP: '10.96.2.2', ports: [{ name: 'http', port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] }),
		]);
		expect(ports.map((p) => `${p.nameString} ${p.protocol} ${p.clusterIP}:${p.port}`)).toEqual(['default/two:dns UDP 10.96.2.2:53', 'default/two:http TCP 10.96.2.2:80']);
	});

	it('keeps a NodePort only for NodePort and LoadBalancer Services, and the affinity timeout', () => {
		const [np] = buildServicePorts([service('np', { type: 'NodePort', clusterIP: '10.96.3.3', sessionAffinity: 'ClientIP', ports: [{ port: 80, nodePort: 30080 }] })]);
		expect(np).toMatchObject({ nodePort: 30080, affinityClientIP: true, stickyMaxAgeSeconds: 10_800 });
	});
});

describe('endpoints', () => {
	it('orders endpoints by their ip:port string (10.244.1.10 before 10.244.1.2) and marks this node’s own', () => {
		const map = buildEndpoints([slice('web', [{ port: 80, protocol: 'TCP' }], [{ addresses: ['10.244.1.2'], nodeName: 'node-1' }, { addresses: ['10.244.1.10'], conditions: { ready: false, serving: true, terminating: true }, nodeName: 'node-2' }])], 'node-1');
		expect(map['default/web/TCP'].map((e) => [endpointString(e), e.ready, e.serving, e.terminating, e.isLocal])).toEqual([
			['10.244.1.10:80', false, true, true, false],
			['10.244.1.2:80', true, true, false, true],
		]);
	});

	it.each([
		['ready endpoints only, for Cluster policy', [ep('10.0.0.1'), ep('10.0.0.2', { ready: false, serving: false })], {}, ['10.0.0.1:80'], true],
		['the serving terminating ones when none is ready', [ep('10.0.0.1', { ready: false, serving: true, terminating: true }), ep('10.0.0.2', { ready: false, serving: false, terminating: true })], {}, ['10.0.0.1:80'], true],
		['nothing when nothing serves', [ep('10.0.0.1', { ready: false, serving: false })], {}, [], false],
		['the node’s own for Local internal policy', [ep('10.0.0.1', { isLocal: true }), ep('10.0.0.2')], { internalPolicyLocal: true, nodePort: 0 }, ['10.0.0.1:80'], true],
		['none on this node for Local internal policy, though some elsewhere', [ep('10.0.0.2')], { internalPolicyLocal: true, nodePort: 0 }, [], true],
	])('picks %s', (_name, endpoints, extra, reachable, hasAny) => {
		const result = categorizeEndpoints(endpoints as EndpointInfo[], port(extra as Partial<ServicePortInfo>));
		expect(result.allReachableEndpoints.map(endpointString)).toEqual(reachable);
		expect(result.hasAnyEndpoints).toBe(hasAny);
	});
});
