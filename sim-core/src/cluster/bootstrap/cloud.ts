/**
 * The cloud-controller-manager a cluster with `cloud: true` runs, as the
 * provider's manifest installs it right after `kubeadm init`: a
 * ServiceAccount, a ClusterRoleBinding of it to cluster-admin, and a
 * DaemonSet on the control-plane nodes (host network, tolerating the
 * control-plane taint and the uninitialized taint it exists to remove, or
 * it could never start on a fresh cluster).
 *
 * Mirrors kubernetes/website content/en/examples/admin/cloud/ccm-example.yaml
 * (the DaemonSet of "Cloud Controller Manager Administration"),
 * cmd/kubeadm/app/apis/kubeadm/types.go (nodeRegistration.kubeletExtraArgs
 * cloud-provider: external).
 */
import type { KubeObject } from '../../api/types.ts';

/** The image of the simulated cloud's cloud-controller-manager (runtime/images.ts). */
export const CLOUD_CONTROLLER_MANAGER_IMAGE = 'registry.simcloud.example/cloud-controller-manager:v1.36.0';

/** The container's command: the flags it runs with. */
export function cloudControllerManagerCommand(f: { clusterCidr: string; configureCloudRoutes: boolean }): string[] {
	return [
		'/usr/local/bin/cloud-controller-manager',
		'--cloud-provider=simcloud',
		'--leader-elect=true',
		`--cluster-cidr=${f.clusterCidr}`,
		`--configure-cloud-routes=${String(f.configureCloudRoutes)}`,
	];
}

export function cloudControllerManagerObjects(f: { clusterCidr: string; configureCloudRoutes: boolean }): KubeObject[] {
	const labels = { 'k8s-app': 'cloud-controller-manager' };
	return [
		{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'cloud-controller-manager', namespace: 'kube-system' } },
		{
			apiVersion: 'rbac.authorization.k8s.io/v1',
			kind: 'ClusterRoleBinding',
			metadata: { name: 'system:cloud-controller-manager' },
			roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
			subjects: [{ kind: 'ServiceAccount', name: 'cloud-controller-manager', namespace: 'kube-system' }],
		},
		{
			apiVersion: 'apps/v1',
			kind: 'DaemonSet',
			metadata: { labels, name: 'cloud-controller-manager', namespace: 'kube-system' },
			spec: {
				selector: { matchLabels: labels },
				template: {
					metadata: { labels },
					spec: {
						serviceAccountName: 'cloud-controller-manager',
						containers: [{ name: 'cloud-controller-manager', image: CLOUD_CONTROLLER_MANAGER_IMAGE, imagePullPolicy: 'IfNotPresent', command: cloudControllerManagerCommand(f) }],
						hostNetwork: true,
						priorityClassName: 'system-cluster-critical',
						nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
						tolerations: [
							// So it can start on a Node it has not initialized yet.
							{ key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
							{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
						],
					},
				},
			},
		},
	];
}
