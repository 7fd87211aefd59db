/**
 * `kubectl explain <type>[.field...]`: a resource's fields and their types,
 * from the simulator's field schema (api/schema), laid out like kubectl's
 * plaintext template (GROUP/KIND/VERSION header, `FIELD: name <type>`,
 * `FIELDS:` with `name<TAB><type>` and `-required-`, `--recursive` nesting
 * two spaces per level, type names as its typeGuess prints them:
 * `[]Container`, `map[string]string`, `Quantity`, `IntOrString`).
 *
 * Upstream's field descriptions are the API's documentation, which this
 * simulation does not carry: fields are listed without them, and a kind's
 * description is one line in our own words.
 *
 * Mirrors
 * staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl,
 * staging/src/k8s.io/kubectl/pkg/explain/v2/funcs.go (typeGuess).
 */
import { typeForKind, typeSchema, type FieldType, type TypeSchema } from '../../api/schema/index.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { errorText, resolveResourceType } from '../resource-args.ts';

/** One line about each kind, written for this simulation. */
const KIND_DESCRIPTIONS: Readonly<Record<string, string>> = {
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
};

/** plaintext.tmpl typeGuess for a schema field type. */
function typeGuess(type: FieldType): string {
	switch (type.code) {
		case '[':
			return `[]${typeGuess(type.elem as FieldType)}`;
		case '{':
			return `map[string]${typeGuess(type.elem as FieldType)}`;
		case 'R':
			return (type.ref ?? 'Object').replace(/_.*/, '');
		case 'i':
		case 'l':
			return 'integer';
		case 'n':
			return 'number';
		case 'b':
			return 'boolean';
		case 'q':
			return 'Quantity';
		case 'o':
			return 'IntOrString';
		case 'x':
			return type.go.endsWith('FieldsV1') ? 'FieldsV1' : 'RawExtension';
		default:
			return 'string';
	}
}

/** The struct a field type leads into (through arrays and maps), if any. */
function structOf(type: FieldType): TypeSchema | undefined {
	if (type.code === 'R' && type.ref) return typeSchema(type.ref);
	if (type.elem) return structOf(type.elem);
	return undefined;
}

/** plaintext.tmpl fieldList (short form): fields sorted, `-required-` marked, nested when recursive, cycles cut. */
function fieldList(schema: TypeSchema, level: number, recursive: boolean, history: Set<string>): string {
	let out = '';
	for (const name of [...schema.fields.keys()].sort()) {
		const field = schema.fields.get(name);
		if (!field) continue;
		out += `${'  '.repeat(level)}${name}\t<${typeGuess(field.type)}>${field.required ? ' -required-' : ''}\n`;
		const nested = structOf(field.type);
		// The template stops at a type already on the path (a cycle); 32 levels bound the walk besides.
		if (recursive && nested && !history.has(nested.key) && level < 32) {
			out += fieldList(nested, level + 1, recursive, new Set([...history, nested.key]));
		}
	}
	return out;
}

/** Runs `kubectl explain`. */
function runExplain(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	if (args.positionals.length === 0) {
		return { stdout: '', stderr: 'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n', exitCode: 1 };
	}
	if (args.positionals.length > 1) return { stdout: '', stderr: `error: We accept only this format: explain RESOURCE\n`, exitCode: 1 };
	const [typeArg, ...path] = args.positionals[0].split('.');
	const resolved = resolveResourceType(typeArg);
	if (!resolved.ok) return { stdout: '', stderr: errorText([resolved.error]), exitCode: 1 };
	const info = resolved.info;
	const key = typeForKind({ group: info.group, version: info.version, kind: info.kind });
	const schema = key ? typeSchema(key) : undefined;
	if (!schema) return { stdout: '', stderr: errorText([`GVK ${info.group}/${info.version}, Kind=${info.kind} not found in OpenAPI schema`]), exitCode: 1 };
	const recursive = args.flags.recursive === true;
	let out = `${info.group ? `GROUP:      ${info.group}\n` : ''}KIND:       ${info.kind}\nVERSION:    ${info.version}\n\n`;
	let current: TypeSchema | undefined = schema;
	for (let i = 0; i < path.length; i++) {
		const field = current?.fields.get(path[i]);
		if (!field) return { stdout: '', stderr: errorText([`field "${path[i]}" does not exist`]), exitCode: 1 };
		if (i === path.length - 1) out += `FIELD: ${path[i]} <${typeGuess(field.type)}>\n\n`;
		current = structOf(field.type);
		if (!current && i < path.length - 1) return { stdout: '', stderr: errorText([`field "${path[i + 1]}" does not exist`]), exitCode: 1 };
	}
	if (path.length === 0) out += `DESCRIPTION:\n    ${KIND_DESCRIPTIONS[info.kind] ?? '<empty>'}\n\n`;
	if (current && current.fields.size > 0) out += `FIELDS:\n${fieldList(current, 1, recursive, new Set([current.key]))}`;
	return { stdout: out, stderr: '', exitCode: 0 };
}

export const explainCommand: KubectlCommand = {
	name: 'explain',
	summary: 'Get documentation for a resource',
	usage: 'kubectl explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [-o|--output=plaintext|plaintext-openapiv2]',
	flags: [
		{ name: 'recursive', kind: 'bool' },
		{ name: 'api-version', kind: 'string' },
		{ name: 'output', short: 'o', kind: 'string', default: 'plaintext' },
	],
	run: runExplain,
};
