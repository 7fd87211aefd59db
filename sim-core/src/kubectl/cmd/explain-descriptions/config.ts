/**
 * What `kubectl explain` says about a namespace's configuration and limits
 * (ConfigMap, Secret, ServiceAccount, LimitRange, ResourceQuota), in this
 * project's own words; merged by ../explain-descriptions.ts.
 *
 * Mirrors nothing upstream: the simulator's own descriptions.
 */

/** Type descriptions, by schema type key. */
export const CONFIG_TYPES: Readonly<Record<string, string>> = {
	ConfigMap: 'A ConfigMap holds configuration data as key-value pairs for pods to read.',
	Secret: 'A Secret holds a small amount of sensitive data, such as a password, token or key.',
	ServiceAccount: 'A ServiceAccount is an identity for processes that run in pods.',
	LimitRange: 'A LimitRange sets defaults and bounds for the resources of the containers, pods and claims of a namespace, applied when they are created.',
	LimitRangeSpec: 'The limits of a LimitRange.',
	LimitRangeItem: 'Defaults and bounds for one kind of object (Container, Pod or PersistentVolumeClaim).',
	ResourceQuota: 'A ResourceQuota caps how much a namespace may use in all: compute requests and limits, storage, and the number of objects of each kind.',
	ResourceQuotaSpec: 'The caps of a quota, and which objects they count.',
	ResourceQuotaStatus: 'The caps in force and how much of each is used.',
	ScopeSelector: 'Requirements on scopes that the objects a quota counts must all meet.',
	ScopedResourceSelectorRequirement: 'One test on a quota scope, e.g. PriorityClass In (high).',
};

/** Field descriptions, by `TypeKey.field`. */
export const CONFIG_FIELDS: Readonly<Record<string, string>> = {
	'ConfigMap.data': 'The configuration as UTF-8 string values by key. Keys may hold letters, digits, -, _ and .; data and binaryData together hold at most 1 MiB.',
	'ConfigMap.binaryData': 'Values that are not UTF-8, base64-encoded in YAML and JSON. Its keys must differ from those of data.',
	'ConfigMap.immutable': 'When true, data and binaryData can no longer be changed (delete and recreate the ConfigMap instead), and the kubelet stops watching it for changes. Cannot be set back to false.',
	'Secret.data': 'The secret values by key, base64-encoded in YAML and JSON (encoding is not encryption). Keys may hold letters, digits, -, _ and .; at most 1 MiB in all.',
	'Secret.stringData': 'Plain-text values to write, for convenience: on write they are merged into data (overriding the same keys), and they are never returned on read.',
	'Secret.type': 'What the Secret holds, which decides the keys it must have: Opaque (anything, the default), kubernetes.io/tls, kubernetes.io/dockerconfigjson, kubernetes.io/basic-auth, kubernetes.io/ssh-auth, kubernetes.io/service-account-token... Cannot be changed.',
	'Secret.immutable': 'When true, data can no longer be changed (delete and recreate the Secret instead), and the kubelet stops watching it for changes. Cannot be set back to false.',
	'ServiceAccount.automountServiceAccountToken': 'Whether pods using this ServiceAccount get its token mounted by default. A pod\'s own automountServiceAccountToken wins.',
	'ServiceAccount.imagePullSecrets': 'Secrets with registry credentials that are added to every pod using this ServiceAccount.',
	'ServiceAccount.secrets': 'Legacy: Secrets that hold long-lived tokens for the account, no longer created automatically; pods get short-lived tokens instead.',
	'LimitRangeSpec.limits': 'The defaults and bounds, one entry per kind of object.',
	'LimitRangeItem.type': 'Which objects the entry applies to: Container, Pod or PersistentVolumeClaim.',
	'LimitRangeItem.default': 'The limits a container gets when it sets none (type Container only). Defaults to max.',
	'LimitRangeItem.defaultRequest': 'The requests a container gets when it sets none (type Container only). Defaults to default, or to min.',
	'LimitRangeItem.max': 'The largest limit (or claim size) allowed per resource.',
	'LimitRangeItem.min': 'The smallest request (or claim size) allowed per resource.',
	'LimitRangeItem.maxLimitRequestRatio': 'The largest ratio of limit to request allowed per resource.',
	'ResourceQuotaSpec.hard': 'The caps by resource name, e.g. requests.cpu, limits.memory, requests.storage, pods, services, count/deployments.apps.',
	'ResourceQuotaSpec.scopes': 'Only objects in all these scopes count: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass, CrossNamespacePodAffinity or VolumeAttributesClass.',
	'ResourceQuotaSpec.scopeSelector': 'Like scopes, with operators and values (needed for PriorityClass and VolumeAttributesClass).',
	'ResourceQuotaStatus.hard': 'The caps in force.',
	'ResourceQuotaStatus.used': 'How much of each cap the namespace uses now.',
	'ScopeSelector.matchExpressions': 'The requirements.',
	'ScopedResourceSelectorRequirement.scopeName': 'The scope, e.g. PriorityClass.',
	'ScopedResourceSelectorRequirement.operator': 'In, NotIn, Exists or DoesNotExist.',
	'ScopedResourceSelectorRequirement.values': 'The values to compare with, for In and NotIn (e.g. priority class names).',
};
