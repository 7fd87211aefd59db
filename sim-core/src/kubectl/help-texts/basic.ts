/**
 * Help texts of kubectl's basic commands (see ./index.ts).
 *
 * Mirrors nothing upstream: the simulator's own help texts.
 */
import type { HelpText } from './index.ts';

export const BASIC_HELP: Readonly<Record<string, HelpText>> = {
	get: {
		long: 'Display one or many resources.\n\n Lists the objects of a resource type as a table of their most useful columns, or prints them whole as YAML or JSON with -o. A name, a label selector (-l) or a field selector narrows the list; -A lists every namespace.\n\n Use "kubectl api-resources" for the resource types this server has.',
		examples: '  # List every Pod in the current namespace, with their nodes and IPs\n  kubectl get pods -o wide\n\n  # One Deployment as YAML\n  kubectl get deployment web -o yaml\n\n  # Pods labelled app=web in every namespace\n  kubectl get pods -l app=web -A\n\n  # Watch Pods change until the cluster is quiet\n  kubectl get pods -w',
		flags: {
			'all-namespaces': 'List the objects of every namespace; the namespace flag is ignored.',
			'chunk-size': 'Ask the server for large lists in pages of this many objects; 0 asks for all at once.',
			'field-selector': 'Keep only objects whose fields match, e.g. status.phase=Running or metadata.name=web.',
			filename: 'A file, directory or URL naming the objects to get.',
			'ignore-not-found': 'Print nothing, rather than an error, for objects that do not exist.',
			kustomize: 'A kustomization directory naming the objects to get.',
			'label-columns': 'Add a column for each label key given, with its value.',
			'no-headers': 'Leave out the header row of tables.',
			output: 'How to print: json, yaml, name, wide, custom-columns=..., jsonpath=..., go-template=...',
			'output-watch-events': 'With --watch, print the watch event type (ADDED, MODIFIED, DELETED) of each change.',
			raw: 'GET this path of the API server and print the response as it came.',
			recursive: 'Read the directories given with -f, and their subdirectories.',
			selector: 'A label selector to filter on (=, ==, !=, in, notin, exists), e.g. app=web,tier!=db.',
			'server-print': 'Let the server choose the table columns; false prints names only for unknown kinds.',
			'show-kind': 'Print the resource type before each name.',
			'show-labels': 'Add a LABELS column with all of each object\'s labels.',
			'show-managed-fields': 'Keep metadata.managedFields in JSON and YAML output.',
			'sort-by': 'Sort the list by this JSONPath expression, e.g. .metadata.creationTimestamp.',
			subresource: 'Get this subresource of the objects (status, scale).',
			template: 'The template (or its file) for -o go-template, -o jsonpath and the like.',
			watch: 'After listing, print each change to the objects as it happens.',
			'watch-only': 'Print the changes only, not the list first.',
			'allow-missing-template-keys': 'Print nothing for a template key the object lacks, instead of an error.',
		},
	},
};
