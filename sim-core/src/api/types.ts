/**
 * The shapes of the Kubernetes objects the simulation stores and exchanges,
 * as they appear on the wire (JSON field names, optional fields optional).
 * They mirror k8s.io/api (core/v1, apps/v1, batch/v1, coordination/v1,
 * discovery/v1, rbac/v1, scheduling/v1) and k8s.io/apimachinery meta/v1 at
 * v1.36, for the fields the simulation reads or writes; the strict decoder
 * (./schema) knows every field, so manifests with fields not typed here are
 * still accepted and stored as given.
 *
 * Objects held by the API server are frozen; a component that wants to
 * change one copies it first (client-go's DeepCopy rule).
 *
 * Mirrors staging/src/k8s.io/api/core/v1/types.go,
 * staging/src/k8s.io/api/apps/v1/types.go,
 * staging/src/k8s.io/api/batch/v1/types.go,
 * staging/src/k8s.io/api/coordination/v1/types.go,
 * staging/src/k8s.io/api/discovery/v1/types.go,
 * staging/src/k8s.io/api/rbac/v1/types.go,
 * staging/src/k8s.io/api/scheduling/v1/types.go,
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/types.go.
 */

export interface TypeMeta {
	apiVersion: string;
	kind: string;
}

export interface OwnerReference {
	apiVersion: string;
	kind: string;
	name: string;
	uid: string;
	controller?: boolean;
	blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
	manager?: string;
	operation?: 'Apply' | 'Update';
	apiVersion?: string;
	time?: string;
	fieldsType?: string;
	fieldsV1?: Record<string, unknown>;
	subresource?: string;
}

export interface ObjectMeta {
	name?: string;
	generateName?: string;
	namespace?: string;
	uid?: string;
	resourceVersion?: string;
	generation?: number;
	creationTimestamp?: string;
	deletionTimestamp?: string;
	deletionGracePeriodSeconds?: number;
	labels?: Record<string, string>;
	annotations?: Record<string, string>;
	ownerReferences?: OwnerReference[];
	finalizers?: string[];
	managedFields?: ManagedFieldsEntry[];
}

/** Any stored object: TypeMeta + ObjectMeta + the rest. */
export interface KubeObject extends TypeMeta {
	metadata: ObjectMeta;
	spec?: unknown;
	status?: unknown;
	[field: string]: unknown;
}

export interface ListMeta {
	resourceVersion?: string;
	continue?: string;
	remainingItemCount?: number;
}

export interface KubeList<T extends KubeObject = KubeObject> extends TypeMeta {
	metadata: ListMeta;
	items: T[];
}

export interface LabelSelectorRequirement {
	key: string;
	operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
	values?: string[];
}

export interface LabelSelector {
	matchLabels?: Record<string, string>;
	matchExpressions?: LabelSelectorRequirement[];
}

/** meta/v1 Status: the body of every error response. */
export interface Status extends TypeMeta {
	kind: 'Status';
	metadata: ListMeta;
	status: 'Success' | 'Failure';
	message?: string;
	reason?: string;
	details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: Array<{ reason?: string; message?: string; field?: string }>; retryAfterSeconds?: number };
	code: number;
}

// ---- core/v1 ---------------------------------------------------------------

export interface ResourceRequirements {
	limits?: Record<string, string | number>;
	requests?: Record<string, string | number>;
}

export interface EnvVar {
	name: string;
	value?: string;
	valueFrom?: Record<string, unknown>;
}

export interface ContainerPort {
	name?: string;
	containerPort: number;
	hostPort?: number;
	protocol?: string;
	hostIP?: string;
}

interface ProbeHandler {
	exec?: { command?: string[] };
	httpGet?: { path?: string; port: number | string; host?: string; scheme?: string };
	tcpSocket?: { port: number | string; host?: string };
	grpc?: { port: number; service?: string };
}

export interface Probe extends ProbeHandler {
	initialDelaySeconds?: number;
	timeoutSeconds?: number;
	periodSeconds?: number;
	successThreshold?: number;
	failureThreshold?: number;
	terminationGracePeriodSeconds?: number;
}

export interface Container {
	name: string;
	image?: string;
	command?: string[];
	args?: string[];
	workingDir?: string;
	ports?: ContainerPort[];
	env?: EnvVar[];
	envFrom?: Array<Record<string, unknown>>;
	resources?: ResourceRequirements;
	volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean; subPath?: string }>;
	livenessProbe?: Probe;
	readinessProbe?: Probe;
	startupProbe?: Probe;
	lifecycle?: Record<string, unknown>;
	terminationMessagePath?: string;
	terminationMessagePolicy?: string;
	imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
	securityContext?: Record<string, unknown>;
	stdin?: boolean;
	tty?: boolean;
	restartPolicy?: string;
}

export interface Toleration {
	key?: string;
	operator?: 'Exists' | 'Equal';
	value?: string;
	effect?: '' | 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
	tolerationSeconds?: number;
}

export interface Taint {
	key: string;
	value?: string;
	effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
	timeAdded?: string;
}

export interface NodeSelectorRequirement {
	key: string;
	operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
	values?: string[];
}

export interface NodeSelectorTerm {
	matchExpressions?: NodeSelectorRequirement[];
	matchFields?: NodeSelectorRequirement[];
}

export interface NodeAffinity {
	requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
	preferredDuringSchedulingIgnoredDuringExecution?: Array<{ weight: number; preference: NodeSelectorTerm }>;
}

export interface Affinity {
	nodeAffinity?: NodeAffinity;
	podAffinity?: Record<string, unknown>;
	podAntiAffinity?: Record<string, unknown>;
}

export interface Volume {
	name: string;
	[source: string]: unknown;
}

/** A container added to a running Pod through its ephemeralcontainers subresource (`kubectl debug`); never restarted, never removed. */
export interface EphemeralContainer extends Container {
	/** The container whose namespaces (its processes) it joins. */
	targetContainerName?: string;
}

export interface PodSpec {
	containers: Container[];
	initContainers?: Container[];
	ephemeralContainers?: EphemeralContainer[];
	restartPolicy?: 'Always' | 'OnFailure' | 'Never';
	terminationGracePeriodSeconds?: number;
	activeDeadlineSeconds?: number;
	dnsPolicy?: string;
	nodeSelector?: Record<string, string>;
	serviceAccountName?: string;
	serviceAccount?: string;
	automountServiceAccountToken?: boolean;
	nodeName?: string;
	hostNetwork?: boolean;
	securityContext?: Record<string, unknown>;
	schedulerName?: string;
	tolerations?: Toleration[];
	affinity?: Affinity;
	priorityClassName?: string;
	priority?: number;
	preemptionPolicy?: string;
	volumes?: Volume[];
	enableServiceLinks?: boolean;
	schedulingGates?: Array<{ name: string }>;
	topologySpreadConstraints?: Array<Record<string, unknown>>;
	hostname?: string;
	subdomain?: string;
	/** Pod-level requests and limits (cpu, memory, hugepages-*): PodLevelResources, beta and on by default since v1.34. */
	resources?: ResourceRequirements;
	/** What the RuntimeClass adds for the sandbox itself (set by admission). */
	overhead?: Record<string, string | number>;
	[field: string]: unknown;
}

export interface PodCondition {
	type: string;
	status: 'True' | 'False' | 'Unknown';
	lastProbeTime?: string | null;
	lastTransitionTime?: string;
	reason?: string;
	message?: string;
	observedGeneration?: number;
}

export interface ContainerStateWaiting {
	reason?: string;
	message?: string;
}
export interface ContainerStateRunning {
	startedAt?: string;
}
export interface ContainerStateTerminated {
	exitCode: number;
	signal?: number;
	reason?: string;
	message?: string;
	startedAt?: string;
	finishedAt?: string;
	containerID?: string;
}
export interface ContainerState {
	waiting?: ContainerStateWaiting;
	running?: ContainerStateRunning;
	terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
	name: string;
	state?: ContainerState;
	lastState?: ContainerState;
	ready: boolean;
	restartCount: number;
	image: string;
	imageID: string;
	containerID?: string;
	started?: boolean;
	volumeMounts?: Array<Record<string, unknown>>;
}

export interface PodStatus {
	phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
	conditions?: PodCondition[];
	message?: string;
	reason?: string;
	nominatedNodeName?: string;
	hostIP?: string;
	hostIPs?: Array<{ ip: string }>;
	podIP?: string;
	podIPs?: Array<{ ip: string }>;
	startTime?: string;
	initContainerStatuses?: ContainerStatus[];
	containerStatuses?: ContainerStatus[];
	ephemeralContainerStatuses?: ContainerStatus[];
	qosClass?: 'Guaranteed' | 'Burstable' | 'BestEffort';
	observedGeneration?: number;
}

export interface Pod extends KubeObject {
	apiVersion: 'v1';
	kind: 'Pod';
	spec: PodSpec;
	status?: PodStatus;
}

export interface PodTemplateSpec {
	metadata?: ObjectMeta;
	spec: PodSpec;
}

export interface NodeCondition {
	type: string;
	status: 'True' | 'False' | 'Unknown';
	lastHeartbeatTime?: string;
	lastTransitionTime?: string;
	reason?: string;
	message?: string;
}

export interface NodeSpec {
	podCIDR?: string;
	podCIDRs?: string[];
	providerID?: string;
	unschedulable?: boolean;
	taints?: Taint[];
}

export interface NodeStatus {
	capacity?: Record<string, string>;
	allocatable?: Record<string, string>;
	phase?: string;
	conditions?: NodeCondition[];
	addresses?: Array<{ type: string; address: string }>;
	daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
	nodeInfo?: {
		machineID: string;
		systemUUID: string;
		bootID: string;
		kernelVersion: string;
		osImage: string;
		containerRuntimeVersion: string;
		kubeletVersion: string;
		kubeProxyVersion?: string;
		operatingSystem: string;
		architecture: string;
	};
	images?: Array<{ names: string[]; sizeBytes: number }>;
	[field: string]: unknown;
}

export interface Node extends KubeObject {
	apiVersion: 'v1';
	kind: 'Node';
	spec: NodeSpec;
	status?: NodeStatus;
}

export interface Namespace extends KubeObject {
	apiVersion: 'v1';
	kind: 'Namespace';
	spec?: { finalizers?: string[] };
	status?: { phase?: 'Active' | 'Terminating'; conditions?: Array<Record<string, unknown>> };
}

export interface ServicePort {
	name?: string;
	protocol?: string;
	port: number;
	targetPort?: number | string;
	nodePort?: number;
	appProtocol?: string;
}

export interface Service extends KubeObject {
	apiVersion: 'v1';
	kind: 'Service';
	spec: {
		type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
		selector?: Record<string, string>;
		ports?: ServicePort[];
		clusterIP?: string;
		clusterIPs?: string[];
		externalIPs?: string[];
		externalName?: string;
		sessionAffinity?: string;
		ipFamilies?: string[];
		ipFamilyPolicy?: string;
		internalTrafficPolicy?: string;
		externalTrafficPolicy?: string;
		[field: string]: unknown;
	};
	status?: { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } };
}

export interface ConfigMap extends KubeObject {
	apiVersion: 'v1';
	kind: 'ConfigMap';
	data?: Record<string, string>;
	binaryData?: Record<string, string>;
	immutable?: boolean;
}

export interface Secret extends KubeObject {
	apiVersion: 'v1';
	kind: 'Secret';
	type?: string;
	data?: Record<string, string>;
	stringData?: Record<string, string>;
	immutable?: boolean;
}

export interface ServiceAccount extends KubeObject {
	apiVersion: 'v1';
	kind: 'ServiceAccount';
	secrets?: Array<{ name?: string }>;
	automountServiceAccountToken?: boolean;
}

/** core/v1 Event, as components record them and `kubectl describe` lists them. */
export interface CoreEvent extends KubeObject {
	apiVersion: 'v1';
	kind: 'Event';
	involvedObject: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string; resourceVersion?: string; fieldPath?: string };
	reason?: string;
	message?: string;
	source?: { component?: string; host?: string };
	firstTimestamp?: string | null;
	lastTimestamp?: string | null;
	count?: number;
	type?: 'Normal' | 'Warning';
	eventTime?: string | null;
	series?: { count?: number; lastObservedTime?: string };
	action?: string;
	/** A second object the event is about (events.k8s.io's `related`: the preemptor of a Preempted event). */
	related?: { kind?: string; namespace?: string; name?: string; uid?: string; apiVersion?: string; resourceVersion?: string };
	reportingComponent?: string;
	reportingInstance?: string;
}

export interface Binding extends KubeObject {
	apiVersion: 'v1';
	kind: 'Binding';
	target: { kind?: string; name: string; apiVersion?: string };
}

export interface EndpointAddress {
	ip: string;
	nodeName?: string;
	targetRef?: { kind?: string; namespace?: string; name?: string; uid?: string };
}

export interface Endpoints extends KubeObject {
	apiVersion: 'v1';
	kind: 'Endpoints';
	subsets?: Array<{ addresses?: EndpointAddress[]; notReadyAddresses?: EndpointAddress[]; ports?: Array<{ name?: string; port: number; protocol?: string }> }>;
}

// ---- apps/v1 ---------------------------------------------------------------

export interface DeploymentStrategy {
	type?: 'RollingUpdate' | 'Recreate';
	rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string };
}

export interface DeploymentCondition {
	type: string;
	status: 'True' | 'False' | 'Unknown';
	lastUpdateTime?: string;
	lastTransitionTime?: string;
	reason?: string;
	message?: string;
}

export interface Deployment extends KubeObject {
	apiVersion: 'apps/v1';
	kind: 'Deployment';
	spec: {
		replicas?: number;
		selector: LabelSelector;
		template: PodTemplateSpec;
		strategy?: DeploymentStrategy;
		minReadySeconds?: number;
		revisionHistoryLimit?: number;
		paused?: boolean;
		progressDeadlineSeconds?: number;
	};
	status?: {
		observedGeneration?: number;
		replicas?: number;
		updatedReplicas?: number;
		readyReplicas?: number;
		availableReplicas?: number;
		unavailableReplicas?: number;
		terminatingReplicas?: number;
		conditions?: DeploymentCondition[];
		collisionCount?: number;
	};
}

export interface ReplicaSet extends KubeObject {
	apiVersion: 'apps/v1';
	kind: 'ReplicaSet';
	spec: {
		replicas?: number;
		minReadySeconds?: number;
		selector: LabelSelector;
		template?: PodTemplateSpec;
	};
	status?: {
		replicas: number;
		fullyLabeledReplicas?: number;
		readyReplicas?: number;
		availableReplicas?: number;
		terminatingReplicas?: number;
		observedGeneration?: number;
		conditions?: Array<{ type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }>;
	};
}

export interface DaemonSet extends KubeObject {
	apiVersion: 'apps/v1';
	kind: 'DaemonSet';
	spec: {
		selector: LabelSelector;
		template: PodTemplateSpec;
		updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string; maxSurge?: number | string } };
		minReadySeconds?: number;
		revisionHistoryLimit?: number;
	};
	status?: {
		currentNumberScheduled: number;
		numberMisscheduled: number;
		desiredNumberScheduled: number;
		numberReady: number;
		observedGeneration?: number;
		updatedNumberScheduled?: number;
		numberAvailable?: number;
		numberUnavailable?: number;
		/** Bumped when a new ControllerRevision's name collides with another template's. */
		collisionCount?: number;
	};
}

export interface StatefulSet extends KubeObject {
	apiVersion: 'apps/v1';
	kind: 'StatefulSet';
	spec: {
		replicas?: number;
		selector: LabelSelector;
		template: PodTemplateSpec;
		serviceName?: string;
		podManagementPolicy?: string;
		updateStrategy?: Record<string, unknown>;
		volumeClaimTemplates?: Array<Record<string, unknown>>;
		[field: string]: unknown;
	};
	status?: { replicas: number; readyReplicas?: number; currentReplicas?: number; updatedReplicas?: number; availableReplicas?: number; observedGeneration?: number; [field: string]: unknown };
}

/** apps/v1 ControllerRevision: an immutable snapshot of a controller's state (a StatefulSet's pod template, as a patch). */
export interface ControllerRevision extends KubeObject {
	apiVersion: 'apps/v1';
	kind: 'ControllerRevision';
	/** The snapshot (runtime.RawExtension): for a StatefulSet, `{"spec":{"template":{..., "$patch":"replace"}}}`. */
	data?: Record<string, unknown>;
	/** The revision number, ordered per owner. */
	revision: number;
}

// ---- batch/v1 ----------------------------------------------------------------

export interface Job extends KubeObject {
	apiVersion: 'batch/v1';
	kind: 'Job';
	spec: {
		parallelism?: number;
		completions?: number;
		backoffLimit?: number;
		activeDeadlineSeconds?: number;
		ttlSecondsAfterFinished?: number;
		selector?: LabelSelector;
		manualSelector?: boolean;
		template: PodTemplateSpec;
		completionMode?: string;
		suspend?: boolean;
		[field: string]: unknown;
	};
	status?: { active?: number; succeeded?: number; failed?: number; startTime?: string; completionTime?: string; conditions?: Array<Record<string, unknown>>; [field: string]: unknown };
}

// ---- coordination/v1, discovery/v1, scheduling/v1 ---------------------------

export interface Lease extends KubeObject {
	apiVersion: 'coordination.k8s.io/v1';
	kind: 'Lease';
	spec: {
		holderIdentity?: string;
		leaseDurationSeconds?: number;
		acquireTime?: string;
		renewTime?: string;
		leaseTransitions?: number;
	};
}

export interface EndpointSlice extends KubeObject {
	apiVersion: 'discovery.k8s.io/v1';
	kind: 'EndpointSlice';
	addressType: 'IPv4' | 'IPv6' | 'FQDN';
	endpoints: Array<{ addresses: string[]; conditions?: { ready?: boolean; serving?: boolean; terminating?: boolean }; nodeName?: string; targetRef?: Record<string, unknown>; zone?: string }>;
	ports?: Array<{ name?: string; port?: number; protocol?: string; appProtocol?: string }>;
}

export interface PriorityClass extends KubeObject {
	apiVersion: 'scheduling.k8s.io/v1';
	kind: 'PriorityClass';
	value: number;
	globalDefault?: boolean;
	description?: string;
	preemptionPolicy?: string;
}

// ---- rbac/v1 -----------------------------------------------------------------

export interface PolicyRule {
	verbs: string[];
	apiGroups?: string[];
	resources?: string[];
	resourceNames?: string[];
	nonResourceURLs?: string[];
}

export interface Role extends KubeObject {
	apiVersion: 'rbac.authorization.k8s.io/v1';
	kind: 'Role' | 'ClusterRole';
	rules?: PolicyRule[];
	aggregationRule?: { clusterRoleSelectors?: LabelSelector[] };
}

export interface Subject {
	kind: 'User' | 'Group' | 'ServiceAccount';
	name: string;
	namespace?: string;
	apiGroup?: string;
}

export interface RoleBinding extends KubeObject {
	apiVersion: 'rbac.authorization.k8s.io/v1';
	kind: 'RoleBinding' | 'ClusterRoleBinding';
	subjects?: Subject[];
	roleRef: { apiGroup: string; kind: 'Role' | 'ClusterRole'; name: string };
}
