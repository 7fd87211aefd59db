/**
 * Help texts of kubectl's advanced and settings commands (see
 * ./index.ts): patch, replace, wait, diff, kustomize, label and annotate.
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */
import type { HelpText } from './index.ts';
import { CREATE_MEANINGS, DRY_RUN_MEANING, examples, fileMeanings, PRINT_MEANINGS, SELECTOR_MEANING } from './common.ts';

/** The flags label and annotate share. */
function metadataMeanings(what: string): Readonly<Record<string, string>> {
	return {
		...PRINT_MEANINGS,
		...fileMeanings('change'),
		all: 'Change every object of the resource type in the namespace.',
		'all-namespaces': 'With a selector or --all, change the objects of every namespace.',
		'dry-run': DRY_RUN_MEANING,
		'field-manager': CREATE_MEANINGS['field-manager'],
		'field-selector': 'Change only objects whose fields match, e.g. status.phase=Running.',
		list: `Print the ${what} of each object instead of changing them.`,
		local: `Change the ${what} of the objects read from -f and print them, without contacting the server.`,
		overwrite: `Allow a new value for a key that is already set; without it kubectl refuses.`,
		'resource-version': 'Change the object only if its resourceVersion is still this.',
		selector: SELECTOR_MEANING,
	};
}

export const ADVANCED_HELP: Readonly<Record<string, HelpText>> = {
	label: {
		long: 'Update the labels on a resource.\n\n Adds KEY=VALUE labels, or removes KEY- ones, on the objects named. Labels are what selectors match, so Services, controllers and -l all find objects by them. Changing the value of an existing key needs --overwrite.',
		examples: examples(
			['Add a label to a node', 'kubectl label node node-1 disktype=ssd'],
			['Change the value of an existing one', 'kubectl label pods -l app=web tier=front --overwrite'],
			['Remove a label', 'kubectl label node node-1 disktype-'],
			['The labels of every Pod in the namespace', 'kubectl label pods --all --list'],
		),
		flags: metadataMeanings('labels'),
	},
	annotate: {
		long: 'Update the annotations on a resource.\n\n Adds KEY=VALUE annotations, or removes KEY- ones. Annotations hold information for people and tools, such as the change cause "kubectl rollout history" shows; unlike labels, nothing selects by them, and their values may be long. Changing an existing key needs --overwrite.',
		examples: examples(
			['Say why a Deployment changed, for rollout history', 'kubectl annotate deployment web kubernetes.io/change-cause="nginx 1.28"'],
			['Replace a value that is already set', 'kubectl annotate service web owner=team-a --overwrite'],
			['Remove an annotation', 'kubectl annotate service web owner-'],
			['Annotate every Pod labelled app=web', 'kubectl annotate pods -l app=web checked=yes'],
		),
		flags: metadataMeanings('annotations'),
	},
	patch: {
		long: 'Update fields of a resource.\n\n Sends a patch, a document naming just the fields to change, to one object. A strategic merge patch, the default, knows how built-in lists such as containers are keyed; a JSON merge patch replaces lists whole; a JSON patch is a list of operations (add, remove, replace...) on paths.',
		examples: examples(
			['Scale a Deployment with a strategic merge patch', 'kubectl patch deployment web -p \'{"spec":{"replicas":3}}\''],
			['Change one container\'s image, found by its name', 'kubectl patch deployment web -p \'{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}\''],
			['A JSON patch operation', 'kubectl patch service web --type=json -p \'[{"op":"replace","path":"/spec/type","value":"NodePort"}]\''],
			['A patch from a file', 'kubectl patch deployment web --patch-file=patch.yaml'],
			['Mark a node unschedulable', 'kubectl patch node node-1 -p \'{"spec":{"unschedulable":true}}\''],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('patch'),
			'dry-run': DRY_RUN_MEANING,
			'field-manager': CREATE_MEANINGS['field-manager'],
			local: 'Patch the objects read from -f and print them, without contacting the server.',
			patch: 'The patch, as JSON or YAML.',
			'patch-file': 'A file holding the patch.',
			subresource: 'Patch this subresource of the object, such as status or scale.',
			type: 'The kind of patch: strategic, merge (JSON merge patch) or json (JSON patch).',
		},
	},
	replace: {
		long: 'Replace a resource by file name or stdin.\n\n Sends the whole object from the file in place of the one on the server, so every field left out of the file is cleared; to change a few fields, use apply, patch or edit. A resourceVersion in the file makes the update fail if the object changed meanwhile.\n\n With --force it deletes the object and creates it again, for fields that cannot be updated in place.',
		examples: examples(
			['Replace a Deployment with the one in a file', 'kubectl replace -f web.yaml'],
			['Swap the data of a ConfigMap for newly generated data', 'kubectl create configmap settings --from-literal=mode=dev --dry-run=client -o yaml | kubectl replace -f -'],
			['Recreate a Pod whose spec changed', 'kubectl replace --force -f api-pod.yaml'],
		),
		flags: {
			...CREATE_MEANINGS,
			...fileMeanings('replace'),
			cascade: 'With --force, what happens to the objects the old one owns: background, foreground or orphan.',
			force: 'Delete the object and create it anew instead of updating it.',
			'grace-period': 'With --force, the seconds a Pod gets to stop; -1 uses the Pod\'s own setting.',
			raw: 'PUT the file to this path of the API server.',
			'save-config': 'Also store the new object in its last-applied-configuration annotation.',
			subresource: 'Replace this subresource of the object, such as status or scale.',
			timeout: 'With --force, how long to wait for the old object to be gone; 0 lets kubectl choose.',
			wait: 'With --force, wait until the old object is gone, finalizers included, before creating the new one.',
		},
	},
	wait: {
		long: 'Wait for a specific condition on one or many resources.\n\n Returns once each object named meets the --for test, or fails when --timeout runs out. The test is one of: delete (the object is gone), create (it exists), condition=NAME or condition=NAME=VALUE (a status condition), or jsonpath=\'{PATH}\'=VALUE (a field has a value).',
		examples: examples(
			['Until a Deployment is available', 'kubectl wait deployment/web --for=condition=Available --timeout=2m'],
			['Until the Pods labelled app=web are ready', 'kubectl wait pods -l app=web --for=condition=Ready'],
			['Until a Job has finished', 'kubectl wait job/once --for=condition=Complete --timeout=5m'],
			['Until a Pod is gone', 'kubectl delete pod api --wait=false', 'kubectl wait pod/api --for=delete'],
			['Until a field has a value', 'kubectl wait pod/api --for=jsonpath=\'{.status.phase}\'=Running'],
		),
		flags: {
			...PRINT_MEANINGS,
			...fileMeanings('wait for'),
			all: 'Wait for every object of the resource type in the namespace.',
			'all-namespaces': 'With a selector or --all, wait for the objects of every namespace.',
			'field-selector': 'Wait only for objects whose fields match, e.g. status.phase=Pending.',
			for: 'What to wait for: delete, create, condition=NAME[=VALUE] or jsonpath=\'{PATH}\'=VALUE.',
			selector: SELECTOR_MEANING,
			timeout: 'Give up after this long; 0 checks once and returns, a negative value waits for a week.',
		},
	},
	diff: {
		long: 'Diff the live version against a would-be applied version.\n\n Shows, as a unified diff, how "kubectl apply" with the same files would change the live objects. The server computes the result (with a dry run), so defaults and admission changes appear too. The exit code is 0 for no differences, 1 when there are some, and above 1 for an error.\n\n Set KUBECTL_EXTERNAL_DIFF to use another diff program.',
		examples: examples(
			['What applying a file would change', 'kubectl diff -f web.yaml'],
			['A whole directory of manifests', 'kubectl diff -R -f manifests/'],
			['As server-side apply would do it', 'kubectl diff --server-side -f web.yaml'],
			['From stdin', 'kubectl create deployment web --image=nginx:1.28 --dry-run=client -o yaml | kubectl diff -f -'],
		),
		flags: {
			...fileMeanings('compare'),
			concurrency: 'How many objects to compare at once.',
			'field-manager': CREATE_MEANINGS['field-manager'],
			'force-conflicts': 'With --server-side, take over fields that other managers own instead of reporting a conflict.',
			prune: 'Also show the objects that kubectl apply --prune would delete.',
			'prune-allowlist': 'With --prune, the group/version/kind types to consider, e.g. core/v1/ConfigMap.',
			selector: SELECTOR_MEANING,
			'server-side': 'Work out the result with server-side apply rather than client-side.',
			'show-managed-fields': 'Keep metadata.managedFields in the objects compared.',
			validate: CREATE_MEANINGS.validate,
		},
	},
	kustomize: {
		long: 'Build a kustomization target from a directory or URL.\n\n Reads the kustomization.yaml of DIR (the current directory when none is given), applies its patches, name prefixes, generators and the like to the resources it lists, and prints the resulting manifests. "kubectl apply -k DIR" builds and applies in one step.',
		examples: examples(
			['Print the manifests of the kustomization here', 'kubectl kustomize'],
			['An overlay, into a file', 'kubectl kustomize overlays/prod -o prod.yaml'],
			['Build and apply', 'kubectl kustomize overlays/prod | kubectl apply -f -'],
		),
		flags: {
			'enable-alpha-plugins': 'Allow kustomize plugins, an alpha feature.',
			'enable-helm': 'Let the helmCharts field render Helm charts, with the helm program.',
			'load-restrictor': 'LoadRestrictionsNone lets the kustomization read files outside its own directory.',
			output: 'Write the result to this file, or into this directory, instead of stdout.',
		},
	},
};
