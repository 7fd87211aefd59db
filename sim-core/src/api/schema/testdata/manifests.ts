// Valid manifests in the spirit of the kubernetes.io examples, written out as
// the objects a YAML parser hands the decoder. Each uses many fields on
// purpose: none of them may be rejected.

type Json = Record<string, unknown>;

const probe = (path: string, port: number | string): Json => ({
	httpGet: { path, port, scheme: 'HTTP', httpHeaders: [{ name: 'X-Probe', value: 'yes' }] },
	initialDelaySeconds: 5,
	periodSeconds: 10,
	timeoutSeconds: 1,
	successThreshold: 1,
	failureThreshold: 3,
	terminationGracePeriodSeconds: 30,
});

/** A Deployment using much of PodSpec: probes, resources, env from a ConfigMap and a Secret, many volume kinds, affinity, tolerations, spread. */
export const deployment: Json = {
	apiVersion: 'apps/v1',
	kind: 'Deployment',
	metadata: {
		name: 'web',
		namespace: 'shop',
		labels: { app: 'web', tier: 'frontend' },
		annotations: { 'deployment.kubernetes.io/revision': '3', 'kubernetes.io/change-cause': 'image bump' },
		creationTimestamp: null,
	},
	spec: {
		replicas: 3,
		revisionHistoryLimit: 5,
		progressDeadlineSeconds: 600,
		minReadySeconds: 2,
		selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend'] }] },
		strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
		template: {
			metadata: { labels: { app: 'web', tier: 'frontend' }, annotations: { 'prometheus.io/scrape': 'true' } },
			spec: {
				serviceAccountName: 'web',
				automountServiceAccountToken: false,
				terminationGracePeriodSeconds: 45,
				priorityClassName: 'high',
				nodeSelector: { 'kubernetes.io/os': 'linux' },
				os: { name: 'linux' },
				hostUsers: false,
				securityContext: {
					runAsNonRoot: true,
					runAsUser: 1000,
					runAsGroup: 3000,
					fsGroup: 2000,
					fsGroupChangePolicy: 'OnRootMismatch',
					supplementalGroups: [4000],
					seccompProfile: { type: 'RuntimeDefault' },
					sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }],
				},
				initContainers: [
					{ name: 'wait-db', image: 'busybox:1.36', command: ['sh', '-c', 'until nc -z db 5432; do sleep 1; done'] },
					{
						name: 'log-shipper',
						image: 'fluent/fluent-bit:3.0',
						restartPolicy: 'Always',
						resources: { requests: { cpu: '50m', memory: '64Mi' } },
					},
				],
				containers: [
					{
						name: 'nginx',
						image: 'nginx:1.27',
						imagePullPolicy: 'IfNotPresent',
						ports: [
							{ name: 'http', containerPort: 80, protocol: 'TCP' },
							{ name: 'metrics', containerPort: 9113 },
						],
						env: [
							{ name: 'MODE', value: 'production' },
							{ name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'web-config', key: 'log-level', optional: true } } },
							{ name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
							{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
							{ name: 'MEM_LIMIT', valueFrom: { resourceFieldRef: { containerName: 'nginx', resource: 'limits.memory', divisor: '1Mi' } } },
						],
						envFrom: [{ configMapRef: { name: 'web-config' } }, { prefix: 'DB_', secretRef: { name: 'db', optional: false } }],
						resources: {
							requests: { cpu: 0.25, memory: '128Mi', 'ephemeral-storage': '1Gi' },
							limits: { cpu: '500m', memory: 268435456 },
							claims: [{ name: 'gpu', request: 'gpu-0' }],
						},
						resizePolicy: [
							{ resourceName: 'cpu', restartPolicy: 'NotRequired' },
							{ resourceName: 'memory', restartPolicy: 'RestartContainer' },
						],
						livenessProbe: probe('/healthz', 'http'),
						readinessProbe: { tcpSocket: { port: 80 }, periodSeconds: 5 },
						startupProbe: { exec: { command: ['cat', '/tmp/ready'] }, failureThreshold: 30 },
						lifecycle: {
							postStart: { exec: { command: ['/bin/sh', '-c', 'echo started'] } },
							preStop: { sleep: { seconds: 5 } },
							stopSignal: 'SIGTERM',
						},
						securityContext: {
							allowPrivilegeEscalation: false,
							readOnlyRootFilesystem: true,
							capabilities: { drop: ['ALL'], add: ['NET_BIND_SERVICE'] },
							appArmorProfile: { type: 'RuntimeDefault' },
						},
						volumeMounts: [
							{ name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true },
							{ name: 'cache', mountPath: '/var/cache/nginx' },
							{ name: 'secrets', mountPath: '/etc/secrets', subPath: 'tls', recursiveReadOnly: 'IfPossible', readOnly: true },
							{ name: 'data', mountPath: '/data', mountPropagation: 'None' },
						],
						terminationMessagePolicy: 'FallbackToLogsOnError',
					},
				],
				volumes: [
					{ name: 'config', configMap: { name: 'web-config', defaultMode: 0o644, items: [{ key: 'default.conf', path: 'default.conf' }] } },
					{ name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } },
					{ name: 'secrets', secret: { secretName: 'web-tls', optional: true } },
					{ name: 'data', persistentVolumeClaim: { claimName: 'web-data' } },
					{ name: 'host', hostPath: { path: '/var/log', type: 'Directory' } },
					{
						name: 'all-in-one',
						projected: {
							sources: [
								{ serviceAccountToken: { audience: 'vault', expirationSeconds: 3600, path: 'token' } },
								{ downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
								{ configMap: { name: 'web-config' } },
								{ clusterTrustBundle: { signerName: 'example.com/signer', path: 'ca.pem' } },
							],
						},
					},
					{ name: 'nfs', nfs: { server: 'nfs.example.com', path: '/exports', readOnly: true } },
					{ name: 'tools', image: { reference: 'quay.io/tools:1', pullPolicy: 'IfNotPresent' } },
					{
						name: 'scratch',
						ephemeral: {
							volumeClaimTemplate: {
								metadata: { labels: { type: 'scratch' } },
								spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '1Gi' } } },
							},
						},
					},
				],
				affinity: {
					nodeAffinity: {
						requiredDuringSchedulingIgnoredDuringExecution: {
							nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-a', 'zone-b'] }] }],
						},
						preferredDuringSchedulingIgnoredDuringExecution: [
							{ weight: 1, preference: { matchExpressions: [{ key: 'disktype', operator: 'In', values: ['ssd'] }] } },
						],
					},
					podAntiAffinity: {
						preferredDuringSchedulingIgnoredDuringExecution: [
							{
								weight: 100,
								podAffinityTerm: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'kubernetes.io/hostname', matchLabelKeys: ['pod-template-hash'] },
							},
						],
					},
					podAffinity: {
						requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'cache' } }, topologyKey: 'topology.kubernetes.io/zone' }],
					},
				},
				tolerations: [
					{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' },
					{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
				],
				topologySpreadConstraints: [
					{
						maxSkew: 1,
						topologyKey: 'topology.kubernetes.io/zone',
						whenUnsatisfiable: 'DoNotSchedule',
						labelSelector: { matchLabels: { app: 'web' } },
						minDomains: 2,
						nodeAffinityPolicy: 'Honor',
						nodeTaintsPolicy: 'Ignore',
						matchLabelKeys: ['pod-template-hash'],
					},
				],
				schedulingGates: [{ name: 'example.com/quota' }],
				resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-template' }],
				dnsPolicy: 'ClusterFirst',
				dnsConfig: { nameservers: ['1.1.1.1'], searches: ['shop.svc.cluster.local'], options: [{ name: 'ndots', value: '2' }] },
				hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local'] }],
				imagePullSecrets: [{ name: 'registry' }],
				readinessGates: [{ conditionType: 'example.com/ready' }],
				restartPolicy: 'Always',
			},
		},
	},
};

/** A LoadBalancer Service with named and numeric target ports, and its status. */
export const service: Json = {
	apiVersion: 'v1',
	kind: 'Service',
	metadata: { name: 'web', labels: { app: 'web' } },
	spec: {
		type: 'LoadBalancer',
		selector: { app: 'web' },
		ports: [
			{ name: 'http', protocol: 'TCP', port: 80, targetPort: 'http', nodePort: 30080 },
			{ name: 'metrics', port: 9113, targetPort: 9113, appProtocol: 'http' },
		],
		sessionAffinity: 'ClientIP',
		sessionAffinityConfig: { clientIP: { timeoutSeconds: 10800 } },
		externalTrafficPolicy: 'Local',
		internalTrafficPolicy: 'Cluster',
		ipFamilyPolicy: 'PreferDualStack',
		ipFamilies: ['IPv4', 'IPv6'],
		trafficDistribution: 'PreferClose',
	},
	status: { loadBalancer: { ingress: [{ ip: '192.0.2.10', ipMode: 'VIP', ports: [{ port: 80, protocol: 'TCP' }] }] } },
};

/** An indexed Job with a pod failure policy and a success policy. */
export const job: Json = {
	apiVersion: 'batch/v1',
	kind: 'Job',
	metadata: { name: 'pi' },
	spec: {
		completions: 5,
		parallelism: 2,
		backoffLimit: 4,
		backoffLimitPerIndex: 1,
		maxFailedIndexes: 2,
		completionMode: 'Indexed',
		activeDeadlineSeconds: 600,
		ttlSecondsAfterFinished: 100,
		podReplacementPolicy: 'Failed',
		podFailurePolicy: {
			rules: [
				{ action: 'FailJob', onExitCodes: { containerName: 'pi', operator: 'In', values: [42] } },
				{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
			],
		},
		successPolicy: { rules: [{ succeededIndexes: '0-2', succeededCount: 1 }] },
		template: {
			spec: {
				containers: [{ name: 'pi', image: 'perl:5.34.0', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'] }],
				restartPolicy: 'Never',
			},
		},
	},
};

/** The CronJob of the kubernetes.io "Running Automated Tasks" page, with more knobs. */
export const cronJob: Json = {
	apiVersion: 'batch/v1',
	kind: 'CronJob',
	metadata: { name: 'hello' },
	spec: {
		schedule: '* * * * *',
		timeZone: 'Etc/UTC',
		concurrencyPolicy: 'Forbid',
		successfulJobsHistoryLimit: 3,
		failedJobsHistoryLimit: 1,
		startingDeadlineSeconds: 200,
		jobTemplate: {
			spec: {
				template: {
					spec: {
						containers: [{ name: 'hello', image: 'busybox:1.28', imagePullPolicy: 'IfNotPresent', command: ['/bin/sh', '-c', 'date; echo Hello'] }],
						restartPolicy: 'OnFailure',
					},
				},
			},
		},
	},
};

/** The pod-reader Role of the RBAC docs. */
export const role: Json = {
	apiVersion: 'rbac.authorization.k8s.io/v1',
	kind: 'Role',
	metadata: { namespace: 'default', name: 'pod-reader' },
	rules: [
		{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get', 'watch', 'list'] },
		{ apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get'] },
	],
};

/** The read-pods RoleBinding of the RBAC docs, with a ServiceAccount subject added. */
export const roleBinding: Json = {
	apiVersion: 'rbac.authorization.k8s.io/v1',
	kind: 'RoleBinding',
	metadata: { name: 'read-pods', namespace: 'default' },
	subjects: [
		{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' },
		{ kind: 'ServiceAccount', name: 'web', namespace: 'shop' },
	],
	roleRef: { kind: 'Role', name: 'pod-reader', apiGroup: 'rbac.authorization.k8s.io' },
};

/** An aggregated ClusterRole with a non-resource rule. */
export const clusterRole: Json = {
	apiVersion: 'rbac.authorization.k8s.io/v1',
	kind: 'ClusterRole',
	metadata: { name: 'monitoring' },
	aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] },
	rules: [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
};

/** The StatefulSet of the docs, with volumeClaimTemplates. */
export const statefulSet: Json = {
	apiVersion: 'apps/v1',
	kind: 'StatefulSet',
	metadata: { name: 'web' },
	spec: {
		selector: { matchLabels: { app: 'nginx' } },
		serviceName: 'nginx',
		replicas: 3,
		minReadySeconds: 10,
		podManagementPolicy: 'Parallel',
		updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } },
		persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Delete' },
		ordinals: { start: 1 },
		template: {
			metadata: { labels: { app: 'nginx' } },
			spec: {
				terminationGracePeriodSeconds: 10,
				containers: [
					{
						name: 'nginx',
						image: 'registry.k8s.io/nginx-slim:0.24',
						ports: [{ containerPort: 80, name: 'web' }],
						volumeMounts: [{ name: 'www', mountPath: '/usr/share/nginx/html' }],
					},
				],
			},
		},
		volumeClaimTemplates: [
			{
				metadata: { name: 'www' },
				spec: {
					accessModes: ['ReadWriteOnce'],
					storageClassName: 'my-storage-class',
					volumeMode: 'Filesystem',
					resources: { requests: { storage: '1Gi' } },
				},
			},
		],
	},
};

/** The fluentd DaemonSet of the docs. */
export const daemonSet: Json = {
	apiVersion: 'apps/v1',
	kind: 'DaemonSet',
	metadata: { name: 'fluentd-elasticsearch', namespace: 'kube-system', labels: { 'k8s-app': 'fluentd-logging' } },
	spec: {
		selector: { matchLabels: { name: 'fluentd-elasticsearch' } },
		updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
		template: {
			metadata: { labels: { name: 'fluentd-elasticsearch' } },
			spec: {
				tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
				containers: [
					{
						name: 'fluentd-elasticsearch',
						image: 'quay.io/fluentd_elasticsearch/fluentd:v5.0.1',
						resources: { limits: { memory: '200Mi' }, requests: { cpu: '100m', memory: '200Mi' } },
						volumeMounts: [{ name: 'varlog', mountPath: '/var/log' }],
					},
				],
				terminationGracePeriodSeconds: 30,
				volumes: [{ name: 'varlog', hostPath: { path: '/var/log' } }],
			},
		},
	},
};

/** What `kubectl get pod -o yaml` prints for a running pod: status, managed fields, owner references. */
export const podFromServer: Json = {
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: {
		name: 'web-7d4b9c6f5d-abcde',
		generateName: 'web-7d4b9c6f5d-',
		namespace: 'default',
		uid: '0b1c8e8e-3a48-4f7d-9d52-6c1e8d0f7a11',
		resourceVersion: '12345',
		generation: 1,
		creationTimestamp: '2026-01-01T10:00:00Z',
		labels: { app: 'web', 'pod-template-hash': '7d4b9c6f5d' },
		ownerReferences: [
			{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c6f5d', uid: '5f0a', controller: true, blockOwnerDeletion: true },
		],
		managedFields: [
			{
				manager: 'kube-controller-manager',
				operation: 'Update',
				apiVersion: 'v1',
				time: '2026-01-01T10:00:00Z',
				fieldsType: 'FieldsV1',
				fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
			},
		],
	},
	spec: {
		nodeName: 'node-1',
		containers: [{ name: 'nginx', image: 'nginx:1.27', resources: {}, terminationMessagePath: '/dev/termination-log' }],
		ephemeralContainers: [{ name: 'debugger', image: 'busybox', targetContainerName: 'nginx', stdin: true, tty: true }],
		schedulerName: 'default-scheduler',
		enableServiceLinks: true,
		preemptionPolicy: 'PreemptLowerPriority',
		priority: 0,
	},
	status: {
		phase: 'Running',
		qosClass: 'BestEffort',
		hostIP: '10.0.0.4',
		hostIPs: [{ ip: '10.0.0.4' }],
		podIP: '10.244.1.7',
		podIPs: [{ ip: '10.244.1.7' }],
		startTime: '2026-01-01T10:00:00Z',
		observedGeneration: 1,
		conditions: [
			{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T10:00:05Z', observedGeneration: 1 },
			{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2026-01-01T10:00:00Z' },
		],
		containerStatuses: [
			{
				name: 'nginx',
				image: 'docker.io/library/nginx:1.27',
				imageID: 'docker.io/library/nginx@sha256:abc',
				containerID: 'containerd://123',
				ready: true,
				started: true,
				restartCount: 0,
				state: { running: { startedAt: '2026-01-01T10:00:03Z' } },
				lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: '2026-01-01T09:00:00Z', finishedAt: '2026-01-01T09:59:00Z' } },
				allocatedResources: { cpu: '100m' },
				volumeMounts: [{ name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true, recursiveReadOnly: 'Disabled' }],
				user: { linux: { uid: 0, gid: 0, supplementalGroups: [0, 10] } },
			},
		],
	},
};

/** A Node as the kubelet reports it. */
export const node: Json = {
	apiVersion: 'v1',
	kind: 'Node',
	metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } },
	spec: { podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'], taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }], unschedulable: false },
	status: {
		capacity: { cpu: '4', memory: '16368604Ki', pods: '110' },
		allocatable: { cpu: '3800m', memory: '15242204Ki', pods: 110 },
		conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: '2026-01-01T10:00:00Z', lastTransitionTime: '2026-01-01T09:00:00Z' }],
		addresses: [
			{ type: 'InternalIP', address: '10.0.0.4' },
			{ type: 'Hostname', address: 'node-1' },
		],
		daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
		nodeInfo: {
			machineID: 'm',
			systemUUID: 's',
			bootID: 'b',
			kernelVersion: '6.8.0',
			osImage: 'Ubuntu 24.04',
			containerRuntimeVersion: 'containerd://2.0.0',
			kubeletVersion: 'v1.36.0',
			kubeProxyVersion: '',
			operatingSystem: 'linux',
			architecture: 'amd64',
		},
		images: [{ names: ['nginx:1.27'], sizeBytes: 72000000 }],
	},
};

/** Smaller objects of every other kind the simulator serves. */
export const others: Json[] = [
	{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop', labels: { 'pod-security.kubernetes.io/enforce': 'baseline' } }, spec: { finalizers: ['kubernetes'] } },
	{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web-config' }, data: { 'log-level': 'info', 'default.conf': 'server {}' }, binaryData: { blob: 'AAEC' }, immutable: true },
	{ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, type: 'Opaque', data: { password: 'czNjcjN0IQ==', user: 'YWRtaW4=' }, stringData: { host: 'db.local' } },
	{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'web' }, automountServiceAccountToken: false, imagePullSecrets: [{ name: 'registry' }], secrets: [{ name: 'web-token' }] },
	{
		apiVersion: 'v1',
		kind: 'Endpoints',
		metadata: { name: 'web' },
		subsets: [{ addresses: [{ ip: '10.244.1.7', nodeName: 'node-1', targetRef: { kind: 'Pod', name: 'web-1', namespace: 'default' } }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }],
	},
	{
		apiVersion: 'discovery.k8s.io/v1',
		kind: 'EndpointSlice',
		metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
		addressType: 'IPv4',
		ports: [{ name: 'http', protocol: 'TCP', port: 80 }],
		endpoints: [{ addresses: ['10.244.1.7'], conditions: { ready: true, serving: true, terminating: false }, nodeName: 'node-1', zone: 'zone-a', hints: { forZones: [{ name: 'zone-a' }] } }],
	},
	{
		apiVersion: 'v1',
		kind: 'Event',
		metadata: { name: 'web.1', namespace: 'default' },
		involvedObject: { kind: 'Pod', name: 'web-1', namespace: 'default', apiVersion: 'v1' },
		reason: 'Scheduled',
		message: 'Successfully assigned default/web-1 to node-1',
		source: { component: 'default-scheduler' },
		firstTimestamp: '2026-01-01T10:00:00Z',
		lastTimestamp: '2026-01-01T10:00:00Z',
		eventTime: null,
		count: 1,
		type: 'Normal',
		reportingComponent: 'default-scheduler',
		reportingInstance: '',
	},
	{
		apiVersion: 'events.k8s.io/v1',
		kind: 'Event',
		metadata: { name: 'web.2', namespace: 'default' },
		eventTime: '2026-01-01T10:00:00.000000Z',
		reportingController: 'default-scheduler',
		reportingInstance: 'default-scheduler-node-0',
		action: 'Binding',
		reason: 'Scheduled',
		regarding: { kind: 'Pod', name: 'web-1', namespace: 'default' },
		note: 'Successfully assigned default/web-1 to node-1',
		type: 'Normal',
		series: { count: 2, lastObservedTime: '2026-01-01T10:05:00.000000Z' },
	},
	{ apiVersion: 'v1', kind: 'Binding', metadata: { name: 'web-1', namespace: 'default' }, target: { apiVersion: 'v1', kind: 'Node', name: 'node-1' } },
	{
		apiVersion: 'coordination.k8s.io/v1',
		kind: 'Lease',
		metadata: { name: 'node-1', namespace: 'kube-node-lease' },
		spec: { holderIdentity: 'node-1', leaseDurationSeconds: 40, renewTime: '2026-01-01T10:00:00.123456Z', acquireTime: '2026-01-01T09:00:00.000000Z', leaseTransitions: 0 },
	},
	{ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000000, globalDefault: false, description: 'Important', preemptionPolicy: 'Never' },
	{ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: '50%', selector: { matchLabels: { app: 'web' } }, unhealthyPodEvictionPolicy: 'AlwaysAllow' } },
	{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'monitoring' }, subjects: [{ kind: 'Group', name: 'ops', apiGroup: 'rbac.authorization.k8s.io' }], roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'monitoring' } },
	{ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'frontend' }, spec: { replicas: 3, selector: { matchLabels: { tier: 'frontend' } }, template: { metadata: { labels: { tier: 'frontend' } }, spec: { containers: [{ name: 'php-redis', image: 'us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5' }] } } } },
	{ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 5 }, status: { replicas: 3, selector: 'app=web' } },
	{ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', message: 'pods "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'pods' }, code: 404 },
	{ apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy: 'Foreground', gracePeriodSeconds: 0, preconditions: { uid: 'abc', resourceVersion: '1' }, dryRun: ['All'] },
];
