/**
 * The Pod network add-on applied right after `kubeadm init`, as the kubeadm
 * tutorial's "Installing a Pod network add-on" step does (kubeadm installs
 * none: until one runs, every node is NotReady and CoreDNS Pending):
 * - flannel: its release manifest, kube-flannel.yml, exactly as the reader
 *   would `kubectl apply -f` it (kubectl/urls/kube-flannel.ts);
 * - Calico: its manifest install (calico.yaml), abridged: the calico-config
 *   ConfigMap with its CNI config template, the calico-node DaemonSet (init
 *   containers upgrade-ipam and install-cni; BGP mode with IPIP
 *   `CALICO_IPV4POOL_IPIP=Always`, VXLAN Never) and the
 *   calico-kube-controllers Deployment, in kube-system. Left out: the
 *   CustomResourceDefinitions and their RBAC (Calico's datastore objects are
 *   not modelled), the PodDisruptionBudget, and the eBPF data plane's init
 *   container and volumes (iptables mode is the default);
 * - none: nothing, as right after `kubeadm init`.
 *
 * Mirrors flannel-io/flannel Documentation/kube-flannel.yml,
 * projectcalico/calico manifests/calico.yaml.
 */
import type { KubeObject } from '../../api/types.ts';
import { KUBE_FLANNEL_YML } from '../../kubectl/urls/kube-flannel.ts';
import { CALICO_VERSION } from '../../runtime/images.ts';
import { parseYamlDocuments } from '../../yaml/index.ts';

/** Which Pod network add-on a cluster gets (the `cni` option). */
export type PodNetworkAddon = 'flannel' | 'calico' | 'none';

/** calico.yaml's CNI config template (calico-config's cni_network_config); the installer fills in the placeholders. */
const CALICO_CNI_NETWORK_CONFIG = `{
  "name": "k8s-pod-network",
  "cniVersion": "0.3.1",
  "plugins": [
    {
      "type": "calico",
      "log_level": "info",
      "log_file_path": "/var/log/calico/cni/cni.log",
      "datastore_type": "kubernetes",
      "nodename": "__KUBERNETES_NODE_NAME__",
      "mtu": __CNI_MTU__,
      "ipam": {
          "type": "calico-ipam"
      },
      "policy": {
          "type": "k8s"
      },
      "kubernetes": {
          "kubeconfig": "__KUBECONFIG_FILEPATH__"
      }
    },
    {
      "type": "portmap",
      "snat": true,
      "capabilities": {"portMappings": true}
    }
  ]
}`;

function calicoObjects(): KubeObject[] {
	const image = (name: string) => `quay.io/calico/${name}:${CALICO_VERSION}`;
	const fromConfig = (key: string) => ({ valueFrom: { configMapKeyRef: { name: 'calico-config', key } } });
	const nodeName = { valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } };
	const hostPath = (name: string, path: string, type?: string) => ({ name, hostPath: type ? { path, type } : { path } });
	return [
		{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'calico-kube-controllers', namespace: 'kube-system' } },
		{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'calico-node', namespace: 'kube-system' } },
		{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'calico-cni-plugin', namespace: 'kube-system' } },
		{
			apiVersion: 'v1',
			kind: 'ConfigMap',
			metadata: { name: 'calico-config', namespace: 'kube-system' },
			data: { typha_service_name: 'none', calico_backend: 'bird', veth_mtu: '0', cni_network_config: CALICO_CNI_NETWORK_CONFIG },
		},
		{
			apiVersion: 'apps/v1',
			kind: 'DaemonSet',
			metadata: { name: 'calico-node', namespace: 'kube-system', labels: { 'k8s-app': 'calico-node' } },
			spec: {
				selector: { matchLabels: { 'k8s-app': 'calico-node' } },
				updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
				template: {
					metadata: { labels: { 'k8s-app': 'calico-node' } },
					spec: {
						nodeSelector: { 'kubernetes.io/os': 'linux' },
						hostNetwork: true,
						tolerations: [
							{ effect: 'NoSchedule', operator: 'Exists' },
							{ key: 'CriticalAddonsOnly', operator: 'Exists' },
							{ effect: 'NoExecute', operator: 'Exists' },
						],
						serviceAccountName: 'calico-node',
						terminationGracePeriodSeconds: 0,
						priorityClassName: 'system-node-critical',
						initContainers: [
							{
								name: 'upgrade-ipam',
								image: image('cni'),
								imagePullPolicy: 'IfNotPresent',
								command: ['/opt/cni/bin/calico-ipam', '-upgrade'],
								env: [{ name: 'KUBERNETES_NODE_NAME', ...nodeName }, { name: 'CALICO_NETWORKING_BACKEND', ...fromConfig('calico_backend') }],
								volumeMounts: [
									{ mountPath: '/var/lib/cni/networks', name: 'host-local-net-dir' },
									{ mountPath: '/host/opt/cni/bin', name: 'cni-bin-dir' },
								],
								securityContext: { privileged: true },
							},
							{
								name: 'install-cni',
								image: image('cni'),
								imagePullPolicy: 'IfNotPresent',
								command: ['/opt/cni/bin/install'],
								env: [
									{ name: 'CNI_CONF_NAME', value: '10-calico.conflist' },
									{ name: 'CNI_NETWORK_CONFIG', ...fromConfig('cni_network_config') },
									{ name: 'KUBERNETES_NODE_NAME', ...nodeName },
									{ name: 'CNI_MTU', ...fromConfig('veth_mtu') },
									{ name: 'SLEEP', value: 'false' },
								],
								volumeMounts: [
									{ mountPath: '/host/opt/cni/bin', name: 'cni-bin-dir' },
									{ mountPath: '/host/etc/cni/net.d', name: 'cni-net-dir' },
								],
								securityContext: { privileged: true },
							},
						],
						containers: [
							{
								name: 'calico-node',
								image: image('node'),
								imagePullPolicy: 'IfNotPresent',
								env: [
									{ name: 'DATASTORE_TYPE', value: 'kubernetes' },
									{ name: 'WAIT_FOR_DATASTORE', value: 'true' },
									{ name: 'NODENAME', ...nodeName },
									{ name: 'CALICO_NETWORKING_BACKEND', ...fromConfig('calico_backend') },
									{ name: 'CLUSTER_TYPE', value: 'k8s,bgp' },
									{ name: 'IP', value: 'autodetect' },
									{ name: 'CALICO_IPV4POOL_IPIP', value: 'Always' },
									{ name: 'CALICO_IPV4POOL_VXLAN', value: 'Never' },
									{ name: 'CALICO_IPV6POOL_VXLAN', value: 'Never' },
									{ name: 'FELIX_IPINIPMTU', ...fromConfig('veth_mtu') },
									{ name: 'FELIX_VXLANMTU', ...fromConfig('veth_mtu') },
									{ name: 'FELIX_WIREGUARDMTU', ...fromConfig('veth_mtu') },
									{ name: 'CALICO_DISABLE_FILE_LOGGING', value: 'true' },
									{ name: 'FELIX_DEFAULTENDPOINTTOHOSTACTION', value: 'ACCEPT' },
									{ name: 'FELIX_IPV6SUPPORT', value: 'false' },
									{ name: 'FELIX_HEALTHENABLED', value: 'true' },
								],
								securityContext: { privileged: true },
								resources: { requests: { cpu: '250m' } },
								livenessProbe: { exec: { command: ['/bin/calico-node', '-felix-live', '-bird-live'] }, periodSeconds: 10, initialDelaySeconds: 10, failureThreshold: 6, timeoutSeconds: 10 },
								readinessProbe: { exec: { command: ['/bin/calico-node', '-felix-ready', '-bird-ready'] }, periodSeconds: 10, timeoutSeconds: 10 },
								volumeMounts: [
									{ mountPath: '/host/etc/cni/net.d', name: 'cni-net-dir', readOnly: false },
									{ mountPath: '/lib/modules', name: 'lib-modules', readOnly: true },
									{ mountPath: '/run/xtables.lock', name: 'xtables-lock', readOnly: false },
									{ mountPath: '/var/run/calico', name: 'var-run-calico', readOnly: false },
									{ mountPath: '/var/lib/calico', name: 'var-lib-calico', readOnly: false },
								],
							},
						],
						volumes: [
							hostPath('lib-modules', '/lib/modules'),
							hostPath('var-run-calico', '/var/run/calico', 'DirectoryOrCreate'),
							hostPath('var-lib-calico', '/var/lib/calico', 'DirectoryOrCreate'),
							hostPath('xtables-lock', '/run/xtables.lock', 'FileOrCreate'),
							hostPath('cni-bin-dir', '/opt/cni/bin', 'DirectoryOrCreate'),
							hostPath('cni-net-dir', '/etc/cni/net.d'),
							hostPath('host-local-net-dir', '/var/lib/cni/networks'),
						],
					},
				},
			},
		},
		{
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'calico-kube-controllers', namespace: 'kube-system', labels: { 'k8s-app': 'calico-kube-controllers' } },
			spec: {
				replicas: 1,
				selector: { matchLabels: { 'k8s-app': 'calico-kube-controllers' } },
				strategy: { type: 'Recreate' },
				template: {
					metadata: { name: 'calico-kube-controllers', namespace: 'kube-system', labels: { 'k8s-app': 'calico-kube-controllers' } },
					spec: {
						nodeSelector: { 'kubernetes.io/os': 'linux' },
						tolerations: [
							{ key: 'CriticalAddonsOnly', operator: 'Exists' },
							{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' },
							{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
						],
						serviceAccountName: 'calico-kube-controllers',
						priorityClassName: 'system-cluster-critical',
						containers: [
							{
								name: 'calico-kube-controllers',
								image: image('kube-controllers'),
								imagePullPolicy: 'IfNotPresent',
								env: [
									{ name: 'ENABLED_CONTROLLERS', value: 'node,loadbalancer' },
									{ name: 'DATASTORE_TYPE', value: 'kubernetes' },
								],
								livenessProbe: { exec: { command: ['/usr/bin/check-status', '-l'] }, periodSeconds: 10, initialDelaySeconds: 10, failureThreshold: 6, timeoutSeconds: 10 },
								readinessProbe: { exec: { command: ['/usr/bin/check-status', '-r'] }, periodSeconds: 10 },
							},
						],
					},
				},
			},
		},
	];
}

/** The objects of the add-on, in the order its manifest lists them. */
export function podNetworkObjects(addon: PodNetworkAddon): KubeObject[] {
	if (addon === 'flannel') return parseYamlDocuments(KUBE_FLANNEL_YML).filter((o): o is KubeObject => !!o && typeof o === 'object');
	if (addon === 'calico') return calicoObjects();
	return [];
}
