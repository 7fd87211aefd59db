/**
 * Objects the API server creates for itself when it starts (its post-start
 * hooks): the system namespaces, the two system PriorityClasses, and the
 * `kubernetes` Service that lets Pods reach the API server at 10.96.0.1,
 * with its endpoints.
 *
 * Mirrors
 * pkg/controlplane/controller/systemnamespaces/system_namespaces_controller.go,
 * pkg/registry/scheduling/rest/storage_scheduling.go (the system
 * PriorityClasses),
 * pkg/controlplane/controller/kubernetesservice/controller.go.
 */
import type { KubeObject } from '../../api/types.ts';

interface SystemFacts {
	apiServerIp: string;
	kubernetesServiceIp: string;
}

export function systemNamespaces(): KubeObject[] {
	return ['default', 'kube-system', 'kube-public', 'kube-node-lease'].map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
}

/** Values from k8s.io/kubernetes/pkg/apis/scheduling (SystemCriticalPriority = 2000000000; node-critical is 1000 more). */
export function systemPriorityClasses(): KubeObject[] {
	return [
		{ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2000001000, description: 'Pods that must stay on their node: the node cannot work without them.', preemptionPolicy: 'PreemptLowerPriority' },
		{ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2000000000, description: 'Pods the whole cluster needs, such as DNS.', preemptionPolicy: 'PreemptLowerPriority' },
	];
}

export function kubernetesService(f: SystemFacts): KubeObject[] {
	return [
		{
			apiVersion: 'v1',
			kind: 'Service',
			metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
			spec: { clusterIP: f.kubernetesServiceIp, ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], sessionAffinity: 'None', type: 'ClusterIP' },
		},
		{
			apiVersion: 'v1',
			kind: 'Endpoints',
			metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
			subsets: [{ addresses: [{ ip: f.apiServerIp }], ports: [{ name: 'https', port: 6443, protocol: 'TCP' }] }],
		},
		{
			apiVersion: 'discovery.k8s.io/v1',
			kind: 'EndpointSlice',
			metadata: { name: 'kubernetes', namespace: 'default', labels: { 'kubernetes.io/service-name': 'kubernetes' } },
			addressType: 'IPv4',
			endpoints: [{ addresses: [f.apiServerIp], conditions: { ready: true } }],
			ports: [{ name: 'https', port: 6443, protocol: 'TCP' }],
		},
	];
}
