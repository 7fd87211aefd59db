import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { StrategyContext } from './strategy.ts';
import { serviceStrategy } from './services.ts';
import { ipRangeOffset, portRangeOffset } from './service-allocation.ts';
import { parseIPv4 } from './objectmeta.ts';

function context(services: KubeObject[] = [], draws: number[] = []): StrategyContext {
	let i = 0;
	return {
		now: '2026-11-30T08:00:00Z',
		user: { username: 'kubernetes-admin', groups: [] },
		get: () => undefined,
		list: (group, resource) => (group === '' && resource === 'services' ? services : []),
		random: (n) => Math.min(n - 1, draws[i++] ?? 0),
	};
}

function svc(spec: Record<string, unknown>, name = 'web'): KubeObject {
	return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec };
}

function create(obj: KubeObject, ctx = context()): { obj: KubeObject; errors: string[] } {
	serviceStrategy.defaults!(obj);
	serviceStrategy.prepareForCreate!(obj, ctx);
	return { obj, errors: serviceStrategy.validate!(obj, ctx).map(formatFieldError) };
}

const http = () => ({ selector: { app: 'web' }, ports: [{ port: 80 }] });

describe('Service defaults and allocation', () => {
	it('gives a ClusterIP Service every default and a cluster IP in 10.96.0.0/12', () => {
		const { obj, errors } = create(svc({ ...http() }));
		expect(errors).toEqual([]);
		const spec = obj.spec as Record<string, unknown>;
		expect(spec).toMatchObject({
			type: 'ClusterIP',
			sessionAffinity: 'None',
			ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
			internalTrafficPolicy: 'Cluster',
			ipFamilies: ['IPv4'],
			ipFamilyPolicy: 'SingleStack',
		});
		const ip = parseIPv4(spec.clusterIP as string)!;
		expect(ip).toBeGreaterThan(parseIPv4('10.96.0.0')!);
		expect(ip).toBeLessThan(parseIPv4('10.111.255.255')!);
		expect(spec.clusterIPs).toEqual([spec.clusterIP]);
		expect(spec.externalTrafficPolicy).toBeUndefined();
		expect(obj.status).toEqual({ loadBalancer: {} });
	});

	it('allocates dynamically above the 256-address static band, from the random draw', () => {
		// calculateRangeOffset: min(max(16, size/16), 256) = 256 for a /12.
		expect(ipRangeOffset(2 ** 20)).toBe(256);
		const { obj } = create(svc({ ...http() }), context([], [0]));
		expect((obj.spec as { clusterIP: string }).clusterIP).toBe('10.96.1.1');
	});

	it('skips an address another Service holds', () => {
		const other = svc({ clusterIP: '10.96.1.1', clusterIPs: ['10.96.1.1'] }, 'other');
		const { obj } = create(svc({ ...http() }), context([other], [0]));
		expect((obj.spec as { clusterIP: string }).clusterIP).toBe('10.96.1.2');
	});

	it('gives NodePort Services externalTrafficPolicy Cluster and a node port in 30000-32767 above the static band', () => {
		// portallocator calculateRangeOffset: min(max(16, 2768/32), 128) = 86.
		expect(portRangeOffset(2768)).toBe(86);
		const { obj, errors } = create(svc({ ...http(), type: 'NodePort' }), context([], [0, 0]));
		expect(errors).toEqual([]);
		const spec = obj.spec as { externalTrafficPolicy: string; ports: Array<{ nodePort: number }> };
		expect(spec.externalTrafficPolicy).toBe('Cluster');
		expect(spec.ports[0].nodePort).toBe(30086);
	});

	it('gives LoadBalancer Services allocateLoadBalancerNodePorts true', () => {
		const { obj } = create(svc({ ...http(), type: 'LoadBalancer' }));
		expect((obj.spec as Record<string, unknown>).allocateLoadBalancerNodePorts).toBe(true);
	});

	it('makes a headless Service with clusterIPs [None]', () => {
		const { obj, errors } = create(svc({ ...http(), clusterIP: 'None' }));
		expect(errors).toEqual([]);
		expect(obj.spec).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv4'] });
	});

	it('leaves ExternalName Services without cluster IPs or families', () => {
		const { obj, errors } = create(svc({ type: 'ExternalName', externalName: 'db.example.com' }));
		expect(errors).toEqual([]);
		expect(obj.spec).toEqual({ type: 'ExternalName', externalName: 'db.example.com', sessionAffinity: 'None' });
	});
});

describe('Service validation', () => {
	const taken = svc({ clusterIP: '10.96.0.10', clusterIPs: ['10.96.0.10'], ports: [{ port: 53, nodePort: 30080 }] }, 'kube-dns');
	it.each([
		['no ports', svc({ selector: { app: 'web' } }), ['spec.ports: Required value']],
		['a port out of range', svc({ ports: [{ port: 0 }] }), ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive', 'spec.ports[0].targetPort: Invalid value: 0: must be between 1 and 65535, inclusive']],
		['two unnamed ports', svc({ ports: [{ port: 80 }, { port: 443 }] }), ['spec.ports[0].name: Required value', 'spec.ports[1].name: Required value']],
		['an unknown type', svc({ ...http(), type: 'Internal' }), ['spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"']],
		['a bad protocol', svc({ ports: [{ port: 80, protocol: 'ICMP' }] }), ['spec.ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"']],
		['a nodePort on a ClusterIP Service', svc({ ports: [{ port: 80, nodePort: 30001 }] }), ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"]],
		[
			'a name that is not a DNS-1035 label',
			{ ...svc({ ...http() }), metadata: { name: '1web', namespace: 'default' } },
			["metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"],
		],
	])('rejects %s', (_name, obj, expected) => {
		expect(create(obj as KubeObject).errors).toEqual(expected);
	});

	it('rejects a requested cluster IP that is taken, with the allocator wording', () => {
		expect(create(svc({ ...http(), clusterIP: '10.96.0.10' }), context([taken])).errors).toEqual([
			'spec.clusterIPs: Invalid value: ["10.96.0.10"]: failed to allocate IP 10.96.0.10: provided IP is already allocated',
		]);
	});

	it('rejects a requested cluster IP outside the service range', () => {
		expect(create(svc({ ...http(), clusterIP: '10.0.0.1' })).errors).toEqual([
			'spec.clusterIPs: Invalid value: ["10.0.0.1"]: failed to allocate IP 10.0.0.1: the provided IP (10.0.0.1) is not in the valid range. The range of valid IPs is 10.96.0.0/12',
		]);
	});

	it('rejects a node port that is taken or out of range', () => {
		expect(create(svc({ ...http(), type: 'NodePort', ports: [{ port: 80, nodePort: 30080 }] }), context([taken])).errors).toEqual(['spec.ports[0].nodePort: Invalid value: 30080: provided port is already allocated']);
		expect(create(svc({ ...http(), type: 'NodePort', ports: [{ port: 80, nodePort: 8080 }] })).errors).toEqual([
			'spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
		]);
	});
});

describe('Service updates', () => {
	it('keeps the allocated cluster IP and node ports when an update omits them', () => {
		const old = create(svc({ ...http(), type: 'NodePort' }), context([], [5, 7])).obj;
		const next = svc({ ...http(), type: 'NodePort' });
		serviceStrategy.defaults!(next);
		serviceStrategy.prepareForUpdate!(next, old, context());
		expect(serviceStrategy.validateUpdate!(next, old, context()).map(formatFieldError)).toEqual([]);
		expect((next.spec as { clusterIP: string }).clusterIP).toBe((old.spec as { clusterIP: string }).clusterIP);
		expect((next.spec as { ports: Array<{ nodePort: number }> }).ports[0].nodePort).toBe((old.spec as { ports: Array<{ nodePort: number }> }).ports[0].nodePort);
	});

	it('refuses to change the cluster IP', () => {
		const old = create(svc({ ...http(), clusterIP: '10.96.0.50' })).obj;
		const next = JSON.parse(JSON.stringify(old)) as KubeObject;
		(next.spec as { clusterIP: string }).clusterIP = '10.96.0.51';
		serviceStrategy.prepareForUpdate!(next, old, context([old]));
		expect(serviceStrategy.validateUpdate!(next, old, context([old])).map(formatFieldError)).toEqual(['spec.clusterIPs[0]: Invalid value: ["10.96.0.51"]: may not change once set']);
	});
});
