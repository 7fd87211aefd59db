/**
 * What `kubeadm init` installs through the API once the control plane is up
 * (kubeadm's phases uploadconfig, bootstraptoken/clusterinfo and addons):
 * its own configuration ConfigMaps, the `cluster-info` ConfigMap, and the two
 * essential add-ons, kube-proxy (a DaemonSet) and CoreDNS (a Deployment and
 * the kube-dns Service). Built here from the settings kubeadm v1.36 uses.
 *
 * Mirrors cmd/kubeadm/app/phases/uploadconfig/uploadconfig.go,
 * cmd/kubeadm/app/phases/bootstraptoken/clusterinfo/clusterinfo.go,
 * cmd/kubeadm/app/phases/addons/proxy/proxy.go,
 * cmd/kubeadm/app/phases/addons/proxy/manifests.go,
 * cmd/kubeadm/app/phases/addons/dns/dns.go,
 * cmd/kubeadm/app/phases/addons/dns/manifests.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { formatGoDurationMs } from '../../golang/duration.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { COREDNS_IMAGE, KUBERNETES_VERSION, controlPlaneImage } from './versions.ts';

interface AddonFacts {
	apiServerUrl: string;
	serviceCidr: string;
	podCidr: string;
	dnsServiceIp: string;
	kubeProxyMode: '' | 'iptables' | 'ipvs' | 'nftables';
	controlPlaneEndpoint: string;
	/** The certificates' periods, as the ClusterConfiguration records them. */
	certificateValidityMs: number;
	caCertificateValidityMs: number;
}


function configMap(namespace: string, name: string, data: Record<string, string>, meta: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): KubeObject {
	return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, ...meta }, data };
}

export function kubeadmConfigMaps(f: AddonFacts): KubeObject[] {
	const clusterConfiguration = {
		apiServer: {},
		apiVersion: 'kubeadm.k8s.io/v1beta4',
		caCertificateValidityPeriod: formatGoDurationMs(f.caCertificateValidityMs),
		certificateValidityPeriod: formatGoDurationMs(f.certificateValidityMs),
		certificatesDir: '/etc/kubernetes/pki',
		clusterName: 'kubernetes',
		controlPlaneEndpoint: f.controlPlaneEndpoint,
		controllerManager: {},
		dns: {},
		encryptionAlgorithm: 'RSA-2048',
		etcd: { local: { dataDir: '/var/lib/etcd' } },
		imageRepository: 'registry.k8s.io',
		kind: 'ClusterConfiguration',
		kubernetesVersion: KUBERNETES_VERSION,
		networking: { dnsDomain: 'cluster.local', podSubnet: f.podCidr, serviceSubnet: f.serviceCidr },
		proxy: {},
		scheduler: {},
	};
	const kubeletConfiguration = {
		apiVersion: 'kubelet.config.k8s.io/v1beta1',
		authentication: { anonymous: { enabled: false }, webhook: { cacheTTL: '0s', enabled: true }, x509: { clientCAFile: '/etc/kubernetes/pki/ca.crt' } },
		authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '0s', cacheUnauthorizedTTL: '0s' } },
		cgroupDriver: 'systemd',
		clusterDNS: [f.dnsServiceIp],
		clusterDomain: 'cluster.local',
		containerRuntimeEndpoint: '',
		cpuManagerReconcilePeriod: '0s',
		crashLoopBackOff: {},
		evictionPressureTransitionPeriod: '0s',
		fileCheckFrequency: '0s',
		healthzBindAddress: '127.0.0.1',
		healthzPort: 10248,
		httpCheckFrequency: '0s',
		imageMaximumGCAge: '0s',
		imageMinimumGCAge: '0s',
		kind: 'KubeletConfiguration',
		logging: { flushFrequency: 0, options: { json: { infoBufferSize: '0' }, text: { infoBufferSize: '0' } }, verbosity: 0 },
		memorySwap: {},
		nodeStatusReportFrequency: '0s',
		nodeStatusUpdateFrequency: '0s',
		rotateCertificates: true,
		runtimeRequestTimeout: '0s',
		shutdownGracePeriod: '0s',
		shutdownGracePeriodCriticalPods: '0s',
		staticPodPath: '/etc/kubernetes/manifests',
		streamingConnectionIdleTimeout: '0s',
		syncFrequency: '0s',
		volumeStatsAggPeriod: '0s',
	};
	const kubeconfig = {
		apiVersion: 'v1',
		clusters: [{ cluster: { 'certificate-authority-data': 'LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==', server: f.apiServerUrl }, name: '' }],
		contexts: null,
		'current-context': '',
		kind: 'Config',
		preferences: {},
		users: null,
	};
	return [
		configMap('kube-system', 'kubeadm-config', { ClusterConfiguration: stringifyYaml(clusterConfiguration) }),
		configMap('kube-system', 'kubelet-config', { kubelet: stringifyYaml(kubeletConfiguration) }),
		configMap('kube-public', 'cluster-info', { kubeconfig: stringifyYaml(kubeconfig) }),
	];
}

export function kubeProxyObjects(f: AddonFacts): KubeObject[] {
	const config = {
		apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
		bindAddress: '0.0.0.0',
		clientConnection: { acceptContentTypes: '', burst: 0, contentType: '', kubeconfig: '/var/lib/kube-proxy/kubeconfig.conf', qps: 0 },
		clusterCIDR: f.podCidr,
		configSyncPeriod: '0s',
		conntrack: { maxPerCore: null, min: null, tcpCloseWaitTimeout: null, tcpEstablishedTimeout: null },
		detectLocalMode: '',
		enableProfiling: false,
		healthzBindAddress: '',
		hostnameOverride: '',
		iptables: { localhostNodePorts: null, masqueradeAll: false, masqueradeBit: null, minSyncPeriod: '0s', syncPeriod: '0s' },
		ipvs: { excludeCIDRs: null, minSyncPeriod: '0s', scheduler: '', strictARP: false, syncPeriod: '0s', tcpFinTimeout: '0s', tcpTimeout: '0s', udpTimeout: '0s' },
		kind: 'KubeProxyConfiguration',
		metricsBindAddress: '',
		// kubeadm leaves the mode empty, which means iptables on Linux.
		mode: f.kubeProxyMode,
		nftables: { masqueradeAll: false, masqueradeBit: null, minSyncPeriod: '0s', syncPeriod: '0s' },
		nodePortAddresses: null,
		oomScoreAdj: null,
		portRange: '',
		showHiddenMetricsForVersion: '',
		winkernel: { enableDSR: false, forwardHealthCheckVip: false, networkName: '', rootHnsEndpointName: '', sourceVip: '' },
	};
	const kubeconfig = [
		'apiVersion: v1',
		'kind: Config',
		'clusters:',
		'- cluster:',
		'    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt',
		`    server: ${f.apiServerUrl}`,
		'  name: default',
		'contexts:',
		'- context:',
		'    cluster: default',
		'    namespace: default',
		'    user: default',
		'  name: default',
		'current-context: default',
		'users:',
		'- name: default',
		'  user:',
		'    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token',
		'',
	].join('\n');
	const labels = { 'k8s-app': 'kube-proxy' };
	return [
		{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kube-proxy', namespace: 'kube-system' } },
		configMap('kube-system', 'kube-proxy', { 'config.conf': stringifyYaml(config), 'kubeconfig.conf': kubeconfig }, { labels: { app: 'kube-proxy' } }),
		{
			apiVersion: 'apps/v1',
			kind: 'DaemonSet',
			metadata: { labels, name: 'kube-proxy', namespace: 'kube-system' },
			spec: {
				selector: { matchLabels: labels },
				template: {
					metadata: { labels },
					spec: {
						containers: [
							{
								command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
								env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }],
								image: controlPlaneImage('kube-proxy'),
								imagePullPolicy: 'IfNotPresent',
								name: 'kube-proxy',
								securityContext: { privileged: true },
								volumeMounts: [
									{ mountPath: '/var/lib/kube-proxy', name: 'kube-proxy' },
									{ mountPath: '/run/xtables.lock', name: 'xtables-lock' },
									{ mountPath: '/lib/modules', name: 'lib-modules', readOnly: true },
								],
							},
						],
						hostNetwork: true,
						nodeSelector: { 'kubernetes.io/os': 'linux' },
						priorityClassName: 'system-node-critical',
						serviceAccountName: 'kube-proxy',
						tolerations: [{ operator: 'Exists' }],
						volumes: [
							{ configMap: { name: 'kube-proxy' }, name: 'kube-proxy' },
							{ hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' }, name: 'xtables-lock' },
							{ hostPath: { path: '/lib/modules' }, name: 'lib-modules' },
						],
					},
				},
				updateStrategy: { type: 'RollingUpdate' },
			},
		},
	];
}

const COREFILE = [
	'.:53 {',
	'    errors',
	'    health {',
	'       lameduck 5s',
	'    }',
	'    ready',
	'    kubernetes cluster.local in-addr.arpa ip6.arpa {',
	'       pods insecure',
	'       fallthrough in-addr.arpa ip6.arpa',
	'       ttl 30',
	'    }',
	'    prometheus :9153',
	'    forward . /etc/resolv.conf {',
	'       max_concurrent 1000',
	'    }',
	'    cache 30 {',
	'       disable success cluster.local',
	'       disable denial cluster.local',
	'    }',
	'    loop',
	'    reload',
	'    loadbalance',
	'}',
	'',
].join('\n');

export function coreDnsObjects(f: AddonFacts): KubeObject[] {
	const labels = { 'k8s-app': 'kube-dns' };
	return [
		{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: 'kube-system' } },
		configMap('kube-system', 'coredns', { Corefile: COREFILE }),
		{
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { labels, name: 'coredns', namespace: 'kube-system' },
			spec: {
				replicas: 2,
				selector: { matchLabels: labels },
				strategy: { rollingUpdate: { maxUnavailable: 1 }, type: 'RollingUpdate' },
				template: {
					metadata: { labels },
					spec: {
						affinity: {
							podAntiAffinity: {
								preferredDuringSchedulingIgnoredDuringExecution: [
									{ podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' }, weight: 100 },
								],
							},
						},
						containers: [
							{
								args: ['-conf', '/etc/coredns/Corefile'],
								image: COREDNS_IMAGE,
								imagePullPolicy: 'IfNotPresent',
								livenessProbe: { failureThreshold: 5, httpGet: { path: '/health', port: 'liveness-probe', scheme: 'HTTP' }, initialDelaySeconds: 60, successThreshold: 1, timeoutSeconds: 5 },
								name: 'coredns',
								ports: [
									{ containerPort: 53, name: 'dns', protocol: 'UDP' },
									{ containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
									{ containerPort: 9153, name: 'metrics', protocol: 'TCP' },
									{ containerPort: 8080, name: 'liveness-probe', protocol: 'TCP' },
									{ containerPort: 8181, name: 'readiness-probe', protocol: 'TCP' },
								],
								readinessProbe: { httpGet: { path: '/ready', port: 'readiness-probe', scheme: 'HTTP' } },
								resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
								securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
								volumeMounts: [{ mountPath: '/etc/coredns', name: 'config-volume', readOnly: true }],
							},
						],
						dnsPolicy: 'Default',
						nodeSelector: { 'kubernetes.io/os': 'linux' },
						priorityClassName: 'system-cluster-critical',
						serviceAccountName: 'coredns',
						tolerations: [
							{ key: 'CriticalAddonsOnly', operator: 'Exists' },
							{ effect: 'NoSchedule', key: 'node-role.kubernetes.io/control-plane' },
						],
						volumes: [{ configMap: { items: [{ key: 'Corefile', path: 'Corefile' }], name: 'coredns' }, name: 'config-volume' }],
					},
				},
			},
		},
		{
			apiVersion: 'v1',
			kind: 'Service',
			metadata: {
				annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' },
				labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
				name: 'kube-dns',
				namespace: 'kube-system',
			},
			spec: {
				clusterIP: f.dnsServiceIp,
				ports: [
					{ name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
					{ name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
					{ name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
				],
				selector: labels,
			},
		},
	];
}
