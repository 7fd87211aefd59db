/**
 * Help texts of kubectl's cluster management commands (see ./index.ts):
 * top, drain, cordon, uncordon, taint, certificate approve, api-resources
 * and version.
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */
import type { HelpText } from './index.ts';
import { CREATE_MEANINGS, DRY_RUN_MEANING, examples, fileMeanings, PRINT_MEANINGS } from './common.ts';

const TOP_MEANINGS: Readonly<Record<string, string>> = {
	'no-headers': 'Leave out the header row.',
	'show-swap': 'Add a column with the swap memory in use.',
	'sort-by': 'Sort the rows by cpu or memory, highest first.',
	'use-protocol-buffers': 'Read the metrics from the server as protocol buffers instead of JSON.',
};

const NODE_SELECTOR = 'Act on the nodes matching this label selector instead of one named.';

export const CLUSTER_HELP: Readonly<Record<string, HelpText>> = {
	'top pod': {
		long: 'Display resource (CPU/memory) usage of pods.\n\n Shows how much CPU (in millicores) and memory each Pod is using right now, as the metrics API reports it. That needs metrics-server, or another metrics API, running in the cluster; the figures lag by up to a minute.',
		examples: examples(
			['The Pods of the current namespace', 'kubectl top pod'],
			['Every namespace, busiest in memory first', 'kubectl top pod -A --sort-by=memory'],
			['Each container of the Pods labelled app=web', 'kubectl top pod -l app=web --containers'],
			['With a total row', 'kubectl top pod -n kube-system --sum'],
		),
		flags: {
			...TOP_MEANINGS,
			'all-namespaces': 'Show the Pods of every namespace.',
			containers: 'Show a row for each container rather than each Pod.',
			'field-selector': 'Keep only Pods whose fields match, e.g. spec.nodeName=node-1.',
			selector: 'Show only the Pods matching this label selector.',
			sum: 'Add a row with the total of the usage shown.',
		},
	},
	'top node': {
		long: 'Display resource (CPU/memory) usage of nodes.\n\n Shows each node\'s CPU and memory in use, as amounts and as a share of what the node can offer Pods. Like "kubectl top pod", it needs the metrics API.',
		examples: examples(
			['Every node', 'kubectl top node'],
			['One node', 'kubectl top node node-1'],
			['Against total capacity rather than allocatable', 'kubectl top node --show-capacity'],
			['Worker nodes only, busiest in CPU first', 'kubectl top node -l \'!node-role.kubernetes.io/control-plane\' --sort-by=cpu'],
		),
		flags: {
			...TOP_MEANINGS,
			selector: 'Show only the nodes matching this label selector.',
			'show-capacity': 'Show the share of each node\'s capacity in use, rather than of its allocatable resources.',
		},
	},
	drain: {
		long: 'Drain node in preparation for maintenance.\n\n Cordons the node, then evicts its Pods so their controllers start them elsewhere, honouring PodDisruptionBudgets, and waits until they are gone. It refuses when the node runs Pods that would be lost: ones no controller manages (--force), DaemonSet Pods (--ignore-daemonsets), or Pods with emptyDir data (--delete-emptydir-data).\n\n Run "kubectl uncordon" when the node is back.',
		examples: examples(
			['Empty a worker for maintenance', 'kubectl drain node-1 --ignore-daemonsets'],
			['Also throw away emptyDir data, and give up after five minutes', 'kubectl drain node-1 --ignore-daemonsets --delete-emptydir-data --timeout=5m'],
			['See which Pods would be evicted', 'kubectl drain node-2 --ignore-daemonsets --dry-run=client'],
			['Bring it back afterwards', 'kubectl uncordon node-1'],
		),
		flags: {
			...PRINT_MEANINGS,
			'chunk-size': 'Fetch large lists from the server in pages of this many objects; 0 fetches all at once.',
			'delete-emptydir-data': 'Evict Pods with emptyDir volumes too; their data is lost.',
			'disable-eviction': 'Delete the Pods instead of evicting them, bypassing PodDisruptionBudgets.',
			'dry-run': DRY_RUN_MEANING,
			force: 'Also remove Pods that no controller manages; they are not recreated anywhere.',
			'grace-period': 'Seconds each Pod gets to stop; -1 uses the Pod\'s own setting.',
			'ignore-daemonsets': 'Leave DaemonSet Pods where they are instead of refusing to drain.',
			'pod-selector': 'Evict only the Pods matching this label selector.',
			selector: NODE_SELECTOR,
			'skip-wait-for-delete-timeout': 'Do not wait for a Pod whose deletion began more than this many seconds ago; 0 always waits.',
			timeout: 'Give up after this long; 0 waits as long as it takes.',
		},
	},
	cordon: {
		long: 'Mark node as unschedulable.\n\n Sets spec.unschedulable on the node, so the scheduler places no new Pods there. The Pods already running stay; use "kubectl drain" to move them off as well.',
		examples: examples(
			['Keep new Pods off a node', 'kubectl cordon node-1'],
			['Every worker node', 'kubectl cordon -l \'!node-role.kubernetes.io/control-plane\''],
			['The node now shows SchedulingDisabled', 'kubectl get nodes'],
		),
		flags: { ...PRINT_MEANINGS, 'dry-run': DRY_RUN_MEANING, selector: NODE_SELECTOR },
	},
	uncordon: {
		long: 'Mark node as schedulable.\n\n Clears spec.unschedulable, so the scheduler may place Pods on the node again, after a cordon or drain. Pods that were moved away do not come back by themselves.',
		examples: examples(
			['Let Pods onto a node again', 'kubectl uncordon node-1'],
			['Every worker node', 'kubectl uncordon -l \'!node-role.kubernetes.io/control-plane\''],
			['Check what would change', 'kubectl uncordon node-1 --dry-run=server'],
		),
		flags: { ...PRINT_MEANINGS, 'dry-run': DRY_RUN_MEANING, selector: NODE_SELECTOR },
	},
	taint: {
		long: 'Update the taints on one or more nodes.\n\n A taint KEY[=VALUE]:EFFECT keeps Pods that do not tolerate it off a node: NoSchedule stops new ones being placed, PreferNoSchedule only discourages it, and NoExecute also evicts those already there. End a taint with - to remove it.',
		examples: examples(
			['Reserve a node for Pods that tolerate dedicated=gpu', 'kubectl taint nodes node-1 dedicated=gpu:NoSchedule'],
			['Remove that taint', 'kubectl taint nodes node-1 dedicated=gpu:NoSchedule-'],
			['Remove every taint with the key dedicated', 'kubectl taint nodes node-1 dedicated-'],
			['Let the control-plane node run ordinary Pods', 'kubectl taint nodes control-plane node-role.kubernetes.io/control-plane:NoSchedule-'],
		),
		flags: {
			...PRINT_MEANINGS,
			all: 'Change the taints of every node.',
			'dry-run': DRY_RUN_MEANING,
			'field-manager': CREATE_MEANINGS['field-manager'],
			overwrite: 'Replace a taint that has the same key and effect; without it kubectl refuses.',
			selector: NODE_SELECTOR,
			validate: CREATE_MEANINGS.validate,
		},
	},
	'certificate approve': {
		long: 'Approve a certificate signing request.\n\n Adds the Approved condition to a CertificateSigningRequest, after which its signer issues the certificate into status.certificate. Check the request first: an approved CSR grants whatever identity it asks for.',
		examples: examples(
			['The pending requests', 'kubectl get csr'],
			['Approve one', 'kubectl certificate approve alice'],
			['Fetch the certificate it was given', 'kubectl get csr alice -o jsonpath=\'{.status.certificate}\' | base64 -d > alice.crt'],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('approve'),
			force: 'Update the request even if it is already approved.',
		},
	},
	'api-resources': {
		long: 'Print the supported API resources on the server.\n\n Lists each resource type the API server serves, with its short names, API group and version, whether it is namespaced, and its kind. The names in the first column are what get, describe and the like accept.',
		examples: examples(
			['Every resource type', 'kubectl api-resources'],
			['Only the cluster-wide ones', 'kubectl api-resources --namespaced=false'],
			['The types of the apps group, with their verbs', 'kubectl api-resources --api-group=apps -o wide'],
			['Names of the types that can be listed and watched', 'kubectl api-resources --verbs=list,watch -o name'],
		),
		flags: {
			'api-group': 'Only the types of this API group, e.g. apps.',
			cached: 'Use the discovery cache rather than asking the server again.',
			categories: 'Only the types in these categories, e.g. all.',
			namespaced: 'true lists only namespaced types and false only cluster-wide ones; left out, both.',
			'no-headers': 'Leave out the header row.',
			output: 'wide adds the verbs and categories of each type; name prints its name only.',
			'show-managed-fields': 'Keep metadata.managedFields in JSON and YAML output.',
			'sort-by': 'Sort the list by name or by kind.',
			verbs: 'Only types that support all these verbs, e.g. list,watch.',
		},
	},
	version: {
		long: 'Print the client and server version information.\n\n Prints the version of this kubectl and of the API server it talks to. kubectl is supported within one minor version of the server either way, and warns when the two are further apart.',
		examples: examples(
			['Both versions', 'kubectl version'],
			['The client only, without contacting the server', 'kubectl version --client'],
			['Everything, as YAML', 'kubectl version -o yaml'],
		),
		flags: {
			client: 'Print the client version only, without contacting the server.',
			output: 'Print the full details as yaml or json.',
		},
	},
};
