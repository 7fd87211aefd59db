/**
 * Help texts of kubectl's deploy commands (see ./index.ts): the rollout
 * subcommands, scale and autoscale.
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */
import type { HelpText } from './index.ts';
import { CREATE_MEANINGS, DRY_RUN_MEANING, examples, fileMeanings, PRINT_MEANINGS, SELECTOR_MEANING } from './common.ts';

export const DEPLOY_HELP: Readonly<Record<string, HelpText>> = {
	'rollout status': {
		long: 'Show the status of the rollout.\n\n Follows a Deployment, DaemonSet or StatefulSet until all of its Pods run the current template, printing progress as it goes, and exits non-zero if the rollout fails or --timeout runs out. That makes it a good step in a script after a change.',
		examples: examples(
			['Wait for a Deployment to finish rolling out', 'kubectl rollout status deployment/web'],
			['Give up after two minutes', 'kubectl rollout status deployment/web --timeout=2m'],
			['Print where it stands, without waiting', 'kubectl rollout status daemonset/kube-proxy -n kube-system --watch=false'],
		),
		flags: {
			...fileMeanings('check'),
			revision: 'Check this revision rather than the latest; 0 means the latest.',
			selector: SELECTOR_MEANING,
			timeout: 'Give up waiting after this long; 0 waits as long as it takes.',
			watch: 'Keep waiting until the rollout ends; false prints the state once.',
		},
	},
	'rollout history': {
		long: 'View rollout history.\n\n Lists the revisions a Deployment, DaemonSet or StatefulSet has kept, with the change cause of each (its kubernetes.io/change-cause annotation). Name a revision to see its Pod template in full.',
		examples: examples(
			['The revisions of a Deployment', 'kubectl rollout history deployment/web'],
			['The Pod template of revision 2', 'kubectl rollout history deployment/web --revision=2'],
			['Record why a change was made, so the history shows it', 'kubectl annotate deployment/web kubernetes.io/change-cause="nginx 1.28"'],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('list'),
			revision: 'Print the Pod template of this revision in full.',
			selector: SELECTOR_MEANING,
		},
	},
	'rollout undo': {
		long: 'Undo a previous rollout.\n\n Puts back the Pod template of an earlier revision of a Deployment, DaemonSet or StatefulSet, which rolls the Pods back to it. The revision restored becomes the newest in the history.',
		examples: examples(
			['Go back to the revision before the current one', 'kubectl rollout undo deployment/web'],
			['Go back to revision 1', 'kubectl rollout undo deployment/web --to-revision=1'],
			['See what would be restored, without changing anything', 'kubectl rollout undo deployment/web --dry-run=server -o yaml'],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('roll back'),
			'dry-run': DRY_RUN_MEANING,
			selector: SELECTOR_MEANING,
			'to-revision': 'The revision to go back to; 0 means the one before the current.',
		},
	},
	'rollout restart': {
		long: 'Restart a resource.\n\n Replaces all Pods of a Deployment, DaemonSet or StatefulSet with new ones, in the usual rolling fashion, without changing what they run. It does so by stamping the Pod template with a restartedAt annotation, which is handy to pick up a changed ConfigMap or Secret.',
		examples: examples(
			['New Pods for a Deployment', 'kubectl rollout restart deployment/web'],
			['Every Deployment of the namespace', 'kubectl rollout restart deployment'],
			['Restart CoreDNS and wait until it is done', 'kubectl rollout restart deployment/coredns -n kube-system', 'kubectl rollout status deployment/coredns -n kube-system'],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('restart'),
			'field-manager': CREATE_MEANINGS['field-manager'],
			selector: SELECTOR_MEANING,
		},
	},
	scale: {
		long: 'Set a new size for a deployment, replica set, or replication controller.\n\n Sets the replica count of a Deployment, ReplicaSet, StatefulSet or ReplicationController (anything with a scale subresource); the controller then starts or stops Pods to match. The two preconditions make the change only if the object is still as you last saw it.',
		examples: examples(
			['Five replicas of a Deployment', 'kubectl scale deployment/web --replicas=5'],
			['Scale down to none, keeping the Deployment', 'kubectl scale deployment web --replicas=0'],
			['Only if it still runs three', 'kubectl scale deployment web --current-replicas=3 --replicas=1'],
			['Every Deployment labelled tier=batch', 'kubectl scale deployment -l tier=batch --replicas=2'],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('scale'),
			all: 'Scale every object of the resource type in the namespace.',
			'current-replicas': 'Scale only if the current replica count is this; -1 skips the check.',
			'dry-run': DRY_RUN_MEANING,
			replicas: 'The new number of replicas.',
			'resource-version': 'Scale only if the object\'s resourceVersion is still this.',
			selector: SELECTOR_MEANING,
			timeout: 'How long to wait for the new size to take effect; 0 does not wait.',
		},
	},
	autoscale: {
		long: 'Auto-scale a deployment, replica set, stateful set, or replication controller.\n\n Creates a HorizontalPodAutoscaler that keeps the replica count between --min and --max, adding Pods when their average use of CPU or memory goes above the target and removing them when it falls below. Targets in percent are relative to the containers\' requests, so those must be set; the usage figures come from the metrics API.',
		examples: examples(
			['Between 2 and 10 Pods, aiming at 70% of the CPU requested', 'kubectl autoscale deployment web --min=2 --max=10 --cpu=70%'],
			['A memory target as an average amount per Pod', 'kubectl autoscale deployment web --max=6 --memory=400Mi'],
			['See what the autoscaler is doing', 'kubectl get hpa web'],
		),
		flags: {
			...CREATE_MEANINGS,
			...fileMeanings('autoscale'),
			cpu: 'The CPU target: a percentage of the requests (70%) or an average amount per Pod (500m).',
			'cpu-percent': 'Deprecated, use --cpu: the CPU target as a percentage of the requests; -1 leaves it to the server.',
			max: 'The most Pods the autoscaler may run; required.',
			memory: 'The memory target: a percentage of the requests (80%) or an average amount per Pod (512Mi).',
			min: 'The fewest Pods the autoscaler keeps; -1 leaves it to the server, which uses 1.',
			name: 'The autoscaler\'s name; the object\'s name when empty.',
		},
	},
};
