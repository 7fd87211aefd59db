/**
 * What `kubectl explain` says about a type and its fields, written for this
 * project in its own words (upstream's API documentation is not copied).
 * Defaults and limits stated here follow v1.36's API types and their
 * defaulting (k8s.io/api v0.36.3, pkg/apis/<group>/v1/defaults.go). Types
 * and fields without an entry print what upstream's template prints for an
 * undocumented schema: `<empty>` and `<no description>`.
 *
 * Mirrors nothing upstream: the simulator's own descriptions.
 */

/** Fields every object has, by name. */
const COMMON_FIELDS: Readonly<Record<string, string>> = {
	apiVersion: 'The versioned schema of this object, as group/version (or just the version for the core group). The API server converts between the versions it serves.',
	kind: 'The type of this object, in CamelCase. Together with apiVersion it tells clients and the server which schema applies.',
	metadata: "Standard object metadata: name, namespace, labels, annotations, owners, and the fields the server sets (uid, resourceVersion, creationTimestamp).",
	spec: 'The desired state: what the user asks for. Controllers work to make the observed state match it.',
	status: "The observed state, written by the system (controllers, the kubelet). Users do not set it; it may lag behind the spec.",
};

/** A type's description, by schema type key. */
export const TYPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
	Pod: 'A Pod is one or more containers scheduled together onto a node, sharing its network identity and volumes.',
	Node: 'A Node is a machine that runs pods; its kubelet reports its capacity, conditions and addresses.',
	Namespace: 'A Namespace is a named scope that groups objects and their names.',
	Service: 'A Service gives a stable virtual IP and DNS name to the pods its selector matches.',
	Endpoints: 'Endpoints lists the addresses behind a Service (superseded by EndpointSlice).',
	ConfigMap: 'A ConfigMap holds configuration data as key-value pairs for pods to read.',
	Secret: 'A Secret holds a small amount of sensitive data, such as a password, token or key.',
	Event: 'An Event reports something that happened to an object, recorded by the component that saw it.',
	ServiceAccount: 'A ServiceAccount is an identity for processes that run in pods.',
	Binding: 'A Binding ties a pod to a node; the scheduler creates one to place a pod.',
	Deployment: 'A Deployment keeps a number of identical pods running and rolls out changes to them through ReplicaSets.',
	ReplicaSet: 'A ReplicaSet keeps a given number of pods matching its selector running.',
	DaemonSet: 'A DaemonSet runs one copy of a pod on every node that matches it.',
	StatefulSet: 'A StatefulSet runs pods with stable names and storage, created and removed in order.',
	Job: 'A Job runs pods until a number of them complete successfully.',
	CronJob: 'A CronJob creates Jobs on a repeating schedule.',
	EndpointSlice: 'An EndpointSlice lists a subset of the network endpoints behind a Service.',
	Lease: 'A Lease records which holder owns a lock and until when, for heartbeats and leader election.',
	Role: 'A Role grants permissions on resources within one namespace.',
	RoleBinding: 'A RoleBinding grants the permissions of a role to users, groups or service accounts within a namespace.',
	ClusterRole: 'A ClusterRole grants permissions cluster-wide or to be reused by RoleBindings.',
	ClusterRoleBinding: 'A ClusterRoleBinding grants the permissions of a ClusterRole across the whole cluster.',
	PriorityClass: 'A PriorityClass maps a name to the scheduling priority of the pods that use it.',
	PodDisruptionBudget: 'A PodDisruptionBudget limits how many pods of a set voluntary disruptions may take down at once.',
	PodSpec: "The description of a pod: its containers, volumes, and where and how it may run.",
	PodTemplateSpec: 'The pod a controller creates copies of: metadata (labels the selector matches) and a pod spec.',
	Container: 'One container of a pod: an image to run, its command, environment, ports, resources and probes.',
	ResourceRequirements: 'The compute resources a container asks for (requests, used for scheduling) and may not exceed (limits).',
	DeploymentSpec: 'What a Deployment should run: how many pods, from which template, selected how, and how to roll out changes.',
	DeploymentStrategy: 'How a Deployment replaces old pods with new ones.',
	RollingUpdateDeployment: 'The pace of a rolling update: how far above and below the desired count it may go.',
	ServiceSpec: 'What a Service offers: its type, its ports, and the pods its selector sends traffic to.',
	ServicePort: 'One port a Service exposes, and the port on the pods it leads to.',
	LabelSelector: 'A query over labels: every matchLabels pair and every matchExpressions requirement must hold.',
};

/** A field's description, by `TypeKey.field`. */
const FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
	'DeploymentSpec.replicas': 'How many pods to run. Unset means 1; 0 keeps the Deployment but runs no pods.',
	'DeploymentSpec.selector': "The label query that finds this Deployment's pods. It must match the template's labels and cannot be changed after creation in apps/v1.",
	'DeploymentSpec.template': 'The pod every replica is created from. Changing it starts a rollout (a new ReplicaSet); changing replicas does not.',
	'DeploymentSpec.strategy': 'How old pods are replaced by new ones during a rollout.',
	'DeploymentSpec.minReadySeconds': 'How long a new pod must be ready, without a container crashing, before it counts as available. Defaults to 0.',
	'DeploymentSpec.revisionHistoryLimit': 'How many old ReplicaSets to keep for rollbacks. Defaults to 10.',
	'DeploymentSpec.progressDeadlineSeconds': 'How long a rollout may go without progress before the Deployment reports it failed (condition Progressing, reason ProgressDeadlineExceeded). Defaults to 600.',
	'DeploymentSpec.paused': 'While true, changes to the template start no rollout.',
	'DeploymentStrategy.type': 'Recreate (stop all old pods, then start new ones) or RollingUpdate (replace them gradually). Defaults to RollingUpdate.',
	'DeploymentStrategy.rollingUpdate': 'The limits of a rolling update; only with type RollingUpdate.',
	'RollingUpdateDeployment.maxSurge': 'How many pods above the desired count may exist during the update: a number or a percentage (rounded up). Defaults to 25%.',
	'RollingUpdateDeployment.maxUnavailable': 'How many pods below the desired count may be unavailable during the update: a number or a percentage (rounded down). Defaults to 25%.',
	'PodSpec.containers': 'The containers of the pod. At least one; they start together and share the pod\'s network namespace. Cannot be changed once the pod exists.',
	'PodSpec.initContainers': 'Containers that run one after another, each to completion, before the regular containers start.',
	'PodSpec.nodeName': 'The node the pod runs on. The scheduler sets it through a Binding; setting it yourself skips the scheduler.',
	'PodSpec.nodeSelector': 'Labels a node must carry for the pod to be scheduled on it.',
	'PodSpec.affinity': 'Rules that attract the pod to nodes, or to or away from other pods.',
	'PodSpec.tolerations': 'The taints this pod tolerates: it may be scheduled onto, or keep running on, nodes that carry them.',
	'PodSpec.restartPolicy': 'When the kubelet restarts a container that exited: Always, OnFailure or Never. Defaults to Always (Deployments allow only Always).',
	'PodSpec.terminationGracePeriodSeconds': 'How long the kubelet waits after SIGTERM before it kills the containers. Defaults to 30.',
	'PodSpec.serviceAccountName': 'The ServiceAccount the pod runs as; its token is mounted into the containers. Defaults to "default".',
	'PodSpec.volumes': 'Volumes the containers may mount: ConfigMaps, Secrets, emptyDir, persistent volume claims, host paths...',
	'PodSpec.hostNetwork': "Whether the pod uses the node's network namespace instead of its own. Defaults to false.",
	'PodSpec.priorityClassName': "The PriorityClass that gives the pod its priority; a higher one may preempt lower pods when nodes are full.",
	'PodSpec.schedulerName': 'The scheduler that places this pod. Defaults to "default-scheduler".',
	'PodSpec.dnsPolicy': "How the pod's /etc/resolv.conf is written: ClusterFirst (the cluster's DNS), Default (the node's), ClusterFirstWithHostNet or None. Defaults to ClusterFirst.",
	'Container.name': 'The container\'s name, unique within the pod (a DNS label).',
	'Container.image': 'The image to run. Without a tag it means :latest.',
	'Container.command': "The entrypoint, replacing the image's ENTRYPOINT. Not run in a shell; $(VAR) is expanded from the container's environment.",
	'Container.args': "Arguments to the entrypoint, replacing the image's CMD.",
	'Container.env': 'Environment variables: literal values, or values taken from ConfigMaps, Secrets, or the pod\'s own fields.',
	'Container.envFrom': 'Every key of a ConfigMap or Secret as an environment variable.',
	'Container.ports': 'Ports the container listens on. Informational: a port not listed can still be reached.',
	'Container.resources': 'The resources the container requests and the limits it may not exceed.',
	'Container.imagePullPolicy': 'Always, IfNotPresent or Never. Defaults to Always for a :latest (or untagged) image, IfNotPresent otherwise.',
	'Container.livenessProbe': 'A check the kubelet runs periodically; after enough failures it restarts the container.',
	'Container.readinessProbe': "A check that decides whether the container is ready; a pod that is not ready is taken out of its Services' endpoints.",
	'Container.startupProbe': 'A check that must succeed before the liveness and readiness probes begin; for containers that start slowly.',
	'Container.volumeMounts': "Where the pod's volumes appear in the container's file system.",
	'ResourceRequirements.requests': 'What the container is guaranteed and what the scheduler reserves on the node. Defaults to the limits where only those are set.',
	'ResourceRequirements.limits': 'The most the container may use: CPU above it is throttled, memory above it gets the container OOM-killed.',
	'ServiceSpec.type': 'ClusterIP (a virtual IP inside the cluster), NodePort (also a port on every node), LoadBalancer (also an external load balancer) or ExternalName (a DNS alias). Defaults to ClusterIP.',
	'ServiceSpec.selector': 'The labels of the pods that receive the traffic. Without a selector, endpoints are managed by hand.',
	'ServiceSpec.ports': 'The ports the Service exposes.',
	'ServiceSpec.clusterIP': 'The virtual IP, allocated from the service range unless given. "None" makes a headless Service: DNS returns the pods\' addresses.',
	'ServiceSpec.sessionAffinity': 'ClientIP sends a client\'s connections to the same pod; None spreads them. Defaults to None.',
	'ServiceSpec.externalTrafficPolicy': 'Cluster (any node forwards to any pod) or Local (only to pods on the node that received the traffic, keeping the client address). Defaults to Cluster.',
	'ServicePort.port': 'The port the Service listens on.',
	'ServicePort.targetPort': "The pods' port the traffic goes to: a number, or the name of a container port. Defaults to port.",
	'ServicePort.nodePort': 'With type NodePort or LoadBalancer, the port opened on every node (30000-32767 by default), allocated unless given.',
	'ServicePort.protocol': 'TCP, UDP or SCTP. Defaults to TCP.',
	'ServicePort.name': 'The port\'s name, required when a Service has several ports; endpoints and named targetPorts refer to it.',
};

/** What explain says about `field` of the type `typeKey`, if anything. */
export function fieldDescription(typeKey: string, field: string): string | undefined {
	return FIELD_DESCRIPTIONS[`${typeKey}.${field}`] ?? COMMON_FIELDS[field];
}
