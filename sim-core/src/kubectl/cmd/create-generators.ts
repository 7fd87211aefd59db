/**
 * The objects `kubectl create <kind>` and `kubectl run` generate, exactly as
 * kubectl builds them: Go structs marshalled to JSON, so empty structs that
 * have no `omitempty` effect still show (`resources: {}`, `strategy: {}`,
 * `status: {}`), and since apimachinery v0.34 a zero `creationTimestamp` is
 * left out (`omitzero`). The namespace is only set when `-n` was given
 * (EnforceNamespace). `--dry-run=client -o yaml` prints these unchanged.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_deployment.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_namespace.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_configmap.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_secret.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_secret_tls.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_service.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_serviceaccount.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_job.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_cronjob.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_role.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_clusterrole.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_rolebinding.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_clusterrolebinding.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_priorityclass.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/create_pdb.go,
 * staging/src/k8s.io/kubectl/pkg/generate/versioned/run.go (BasicPod),
 * staging/src/k8s.io/kubectl/pkg/generate/versioned/service.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import { isDNS1123Subdomain, parseLabelSelector, SelectorError } from '../../api/labels.ts';
import { plain, type KubectlError } from './check-err.ts';
import { deepCopy } from '../../golang/json.ts';

export type Generated = { object: KubeObject } | { error: KubectlError };

/** Standard base64 of a string's UTF-8 bytes (Go's []byte JSON encoding). */
export function base64(text: string): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	const bytes = utf8Encode(text);
	let out = '';
	for (let i = 0; i < bytes.length; i += 3) {
		const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
		const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
		out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63] + (b === undefined ? '=' : alphabet[(n >> 6) & 63]) + (c === undefined ? '=' : alphabet[n & 63]);
	}
	return out;
}

/** ObjectMeta with the namespace only when `-n` was given, as the generators do. */
function meta(name: string, namespace: string | undefined, extra: Record<string, unknown> = {}): KubeObject['metadata'] {
	const out: Record<string, unknown> = { ...extra, name };
	if (namespace) out.namespace = namespace;
	return out as KubeObject['metadata'];
}

/**
 * The container name `kubectl create deployment` derives from an image
 * (buildPodSpec): the last path segment without tag or digest; a name with
 * `_` or `.` is sanitized to `-` and given a random 5-character suffix
 * (utilrand.String), drawn here from `random`.
 */
export function containerNameFromImage(image: string, random: () => string): string {
	let name = image.split('/').pop() ?? image;
	if (name.includes(':')) name = name.split(':')[0];
	if (name.includes('@')) name = name.split('@')[0];
	if (/[_.]/.test(name)) name = `${name.replace(/_/g, '-').replace(/\./g, '-')}-${random()}`;
	return name;
}

/** `kubectl create deployment NAME --image=... [--replicas] [--port] [-- command...]` (create_deployment.go). */
export function deployment(o: { name: string; namespace?: string; images: string[]; replicas: number; port: number; command: string[]; random: () => string }): Generated {
	if (o.images.length > 1 && o.command.length > 0) return { error: plain('cannot specify multiple --image options and command') };
	const labels = { app: o.name };
	const containers = o.images.map((image) => {
		const container: Record<string, unknown> = { name: containerNameFromImage(image, o.random), image, resources: {} };
		if (o.command.length) container.command = [...o.command];
		return container;
	});
	if (o.port >= 0 && containers.length > 0) containers[0].ports = [{ containerPort: o.port }];
	return {
		object: {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: meta(o.name, o.namespace, { labels: { ...labels } }),
			spec: { replicas: o.replicas, selector: { matchLabels: { ...labels } }, strategy: {}, template: { metadata: { labels: { ...labels } }, spec: { containers } } },
			status: {},
		},
	};
}

/** `kubectl create namespace NAME`. */
export function namespace(name: string): Generated {
	return { object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: {}, status: {} } };
}

/** `kubectl create serviceaccount NAME`. */
export function serviceAccount(name: string, ns: string | undefined): Generated {
	return { object: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(name, ns) } };
}

/** validation.IsConfigMapKey (apimachinery util/validation): the key rules shared by ConfigMaps and Secrets. */
function configMapKeyErrors(key: string): string[] {
	const errs: string[] = [];
	if (key.length > 253) errs.push('must be no more than 253 characters');
	if (!/^[-._a-zA-Z0-9]+$/.test(key)) errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
	if (key === '.') errs.push("must not be '.'");
	else if (key === '..') errs.push("must not be '..'");
	else if (key.startsWith('..')) errs.push("must not start with '..'");
	return errs;
}

/** util.ParseLiteralSource: `key=value`, split at the first `=`. */
function parseLiteralSource(source: string): { key: string; value: string } | { error: KubectlError } {
	const eq = source.indexOf('=');
	if (eq <= 0) return { error: plain(`invalid literal source ${source}, expected key=value`) };
	return { key: source.slice(0, eq), value: source.slice(eq + 1) };
}

/** util.ParseFileSource: `[key=]path`; the key defaults to the file's base name. */
function parseFileSource(source: string): { key: string; path: string } | { error: KubectlError } {
	const separators = source.split('=').length - 1;
	if (separators === 0) return { key: source.replace(/\/+$/, '').split('/').pop() ?? source, path: source };
	if (separators === 1 && source.startsWith('=')) return { error: plain(`key name for file path ${source.slice(1)} missing`) };
	if (separators === 1 && source.endsWith('=')) return { error: plain(`file path for key name ${source.slice(0, -1)} missing`) };
	if (separators > 1) return { error: plain("key names or file paths cannot contain '='") };
	const [key, path] = source.split('=');
	return { key, path };
}

/** validation.IsEnvVarName. */
function envVarNameErrors(name: string): string[] {
	if (!/^[-._a-zA-Z][-._a-zA-Z0-9]*$/.test(name)) return ["a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')"];
	return [];
}

/**
 * cmdutil.AddFromEnvFile: one `KEY=value` per line; blank lines and `#`
 * comments skipped, leading whitespace trimmed, a UTF-8 BOM dropped from the
 * first line. A line with no `=` takes the value from kubectl's own
 * environment, which is empty here.
 */
function parseEnvFile(text: string): Array<{ key: string; value: string }> | { error: KubectlError } {
	const out: Array<{ key: string; value: string }> = [];
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		let line = lines[i];
		if (i === 0) line = line.replace(/^\uFEFF/, '');
		line = line.replace(/^\s+/, '');
		if (line.length === 0 || line.startsWith('#')) continue;
		const eq = line.indexOf('=');
		const key = eq < 0 ? line : line.slice(0, eq);
		const errs = envVarNameErrors(key);
		if (errs.length) return { error: plain(`${JSON.stringify(key)} is not a valid key name: ${errs.join(';')}`) };
		out.push({ key, value: eq < 0 ? '' : line.slice(eq + 1) });
	}
	return out;
}

/** What `--from-file`, `--from-literal` and `--from-env-file` read, in the order the generator visits them. */
export interface DataSources {
	files: string[];
	literals: string[];
	envFiles: string[];
	readFile(path: string): string | undefined;
	listDir(path: string): string[] | undefined;
}

/** Reads `[key=]path` sources: a file, or every file of a directory. */
function readFileSources(sources: DataSources, add: (key: string, value: string) => KubectlError | undefined): KubectlError | undefined {
	for (const source of sources.files) {
		const parsed = parseFileSource(source);
		if ('error' in parsed) return parsed.error;
		const text = sources.readFile(parsed.path);
		if (text !== undefined) {
			const error = add(parsed.key, text);
			if (error) return error;
			continue;
		}
		const entries = sources.listDir(parsed.path);
		if (entries === undefined) return plain(`error reading ${parsed.path}: no such file or directory`);
		if (source.includes('=')) return plain('cannot give a key name for a directory path');
		for (const entry of [...entries].filter((e) => !e.includes('/')).sort()) {
			const error = add(entry, sources.readFile(`${parsed.path.replace(/\/+$/, '')}/${entry}`) ?? '');
			if (error) return error;
		}
	}
	return undefined;
}

function readEnvFiles(sources: DataSources, add: (key: string, value: string) => KubectlError | undefined): KubectlError | undefined {
	for (const path of sources.envFiles) {
		const text = sources.readFile(path);
		if (text === undefined) return sources.listDir(path) ? plain('env config file cannot be a directory') : plain(`error reading ${path}: no such file or directory`);
		const entries = parseEnvFile(text);
		if ('error' in entries) return entries.error;
		for (const { key, value } of entries) {
			const error = add(key, value);
			if (error) return error;
		}
	}
	return undefined;
}

/** `kubectl create configmap NAME [--from-file] [--from-literal] [--from-env-file]` (create_configmap.go): files, then literals, then env files. */
export function configMap(name: string, ns: string | undefined, sources: DataSources): Generated {
	const data: Record<string, string> = {};
	const add = (key: string, value: string): KubectlError | undefined => {
		const errs = configMapKeyErrors(key);
		if (errs.length) return plain(`${JSON.stringify(key)} is not a valid key name for a ConfigMap: ${errs.join(',')}`);
		if (Object.hasOwn(data, key)) return plain(`cannot add key ${JSON.stringify(key)}, another key by that name already exists in Data for ConfigMap ${JSON.stringify(name)}`);
		data[key] = value;
		return undefined;
	};
	const fromFiles = readFileSources(sources, add);
	if (fromFiles) return { error: fromFiles };
	for (const literal of sources.literals) {
		const parsed = parseLiteralSource(literal);
		if ('error' in parsed) return { error: parsed.error };
		const error = add(parsed.key, parsed.value);
		if (error) return { error };
	}
	const fromEnv = readEnvFiles(sources, add);
	if (fromEnv) return { error: fromEnv };
	const object: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name, ns) };
	if (Object.keys(data).length) object.data = data;
	return { object };
}

/** `kubectl create secret generic NAME [--type] [--from-literal] [--from-file] [--from-env-file]` (create_secret.go): literals, then files, then env files; values base64. */
export function genericSecret(name: string, ns: string | undefined, type: string, sources: DataSources): Generated {
	if (sources.envFiles.length && (sources.files.length || sources.literals.length)) return { error: plain('from-env-file cannot be combined with from-file or from-literal') };
	const data: Record<string, string> = {};
	const add = (key: string, value: string): KubectlError | undefined => {
		const errs = configMapKeyErrors(key);
		if (errs.length) return plain(`${JSON.stringify(key)} is not valid key name for a Secret ${errs.join(';')}`);
		if (Object.hasOwn(data, key)) return plain(`cannot add key ${key}, another key by that name already exists`);
		data[key] = base64(value);
		return undefined;
	};
	for (const literal of sources.literals) {
		const parsed = parseLiteralSource(literal);
		if ('error' in parsed) return { error: parsed.error };
		const error = add(parsed.key, parsed.value);
		if (error) return { error };
	}
	const fromFiles = readFileSources(sources, add);
	if (fromFiles) return { error: fromFiles };
	const fromEnv = readEnvFiles(sources, add);
	if (fromEnv) return { error: fromEnv };
	const object: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: meta(name, ns) };
	if (Object.keys(data).length) object.data = data;
	if (type) object.type = type;
	return { object };
}

/** What `kubectl create secret docker-registry` is given: registry credentials, or files that hold them. */
export interface DockerRegistryCredentials {
	server: string;
	username: string;
	password: string;
	email: string;
}

/**
 * `kubectl create secret docker-registry NAME` (create_secret_docker.go): a
 * `kubernetes.io/dockerconfigjson` Secret whose `.dockerconfigjson` is the
 * JSON a `docker login` writes (`auths` by server, with `auth` the base64 of
 * user:password), or the keys of `--from-file` when it is given.
 */
export function dockerRegistrySecret(name: string, ns: string | undefined, credentials: DockerRegistryCredentials, sources: DataSources): Generated {
	const { server, username, password, email } = credentials;
	if (sources.files.length === 0 && (!username || !password || !server)) return { error: plain('either --from-file or the combination of --docker-username, --docker-password and --docker-server is required') };
	const data: Record<string, string> = {};
	if (sources.files.length) {
		const fromFiles = readFileSources(sources, (key, value) => {
			const errs = configMapKeyErrors(key);
			if (errs.length) return plain(`${JSON.stringify(key)} is not valid key name for a Secret ${errs.join(';')}`);
			if (Object.hasOwn(data, key)) return plain(`cannot add key ${key}, another key by that name already exists`);
			data[key] = base64(value);
			return undefined;
		});
		if (fromFiles) return { error: fromFiles };
	} else {
		// DockerConfigEntry's field order, with email dropped when empty (omitempty).
		const entry: Record<string, string> = { username, password };
		if (email) entry.email = email;
		entry.auth = base64(`${username}:${password}`);
		data['.dockerconfigjson'] = base64(JSON.stringify({ auths: { [server]: entry } }));
	}
	return { object: { apiVersion: 'v1', kind: 'Secret', metadata: meta(name, ns), type: 'kubernetes.io/dockerconfigjson', data } };
}

/** `kubectl create secret tls NAME --cert --key` (create_secret_tls.go); the key pair is not checked cryptographically here. */
export function tlsSecret(name: string, ns: string | undefined, cert: string, key: string): Generated {
	return { object: { apiVersion: 'v1', kind: 'Secret', metadata: meta(name, ns), type: 'kubernetes.io/tls', data: { 'tls.crt': base64(cert), 'tls.key': base64(key) } } };
}

/** utilsnet.ParsePort and the target port rules of create_service.go parsePorts. */
function parseServicePort(spec: string): { port: number; targetPort: number | string } | { error: KubectlError } {
	const parts = spec.split(':');
	const portText = parts[0];
	const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
	if (!Number.isInteger(port) || port < 0 || port > 65535) return { error: plain(`invalid port ${JSON.stringify(portText)}`) };
	if (parts.length === 1) return { port, targetPort: port };
	const target = parts[1];
	if (/^-?\d+$/.test(target)) {
		const n = Number(target);
		if (n < 1 || n > 65535) return { error: plain('must be between 1 and 65535, inclusive') };
		return { port, targetPort: n };
	}
	const errs: string[] = [];
	if (target.length > 15) errs.push('must be no more than 15 characters');
	if (!/^[-a-z0-9]+$/.test(target)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
	if (target.includes('--')) errs.push('must not contain consecutive hyphens');
	if (!/[a-z]/.test(target)) errs.push('must contain at least one letter (a-z)');
	if (target.startsWith('-') || target.endsWith('-')) errs.push('must not begin or end with a hyphen');
	if (errs.length) return { error: plain(errs.join(',')) };
	return { port, targetPort: target };
}

/** `kubectl create service clusterip|nodeport|loadbalancer|externalname NAME --tcp=port:target` (create_service.go). */
export function service(o: { name: string; namespace?: string; type: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName'; tcp: string[]; clusterIP: string; nodePort: number; externalName: string }): Generated {
	if (o.clusterIP === 'None' && o.type !== 'ClusterIP') return { error: plain('ClusterIP=None can only be used with ClusterIP service type') };
	if (o.clusterIP !== 'None' && o.tcp.length === 0 && o.type !== 'ExternalName') return { error: plain('at least one tcp port specifier must be provided') };
	if (o.type === 'ExternalName' && isDNS1123Subdomain(o.externalName).length) return { error: plain(`invalid service external name ${o.externalName}`) };
	const ports: Array<Record<string, unknown>> = [];
	for (const spec of o.tcp) {
		const parsed = parseServicePort(spec);
		if ('error' in parsed) return { error: parsed.error };
		const port: Record<string, unknown> = { name: spec.replaceAll(':', '-'), protocol: 'TCP', port: parsed.port, targetPort: parsed.targetPort };
		if (o.nodePort) port.nodePort = o.nodePort;
		ports.push(port);
	}
	const spec: Record<string, unknown> = { selector: { app: o.name }, type: o.type };
	if (ports.length) spec.ports = ports;
	if (o.externalName) spec.externalName = o.externalName;
	if (o.clusterIP) spec.clusterIP = o.clusterIP;
	return { object: { apiVersion: 'v1', kind: 'Service', metadata: meta(o.name, o.namespace, { labels: { app: o.name } }), spec, status: { loadBalancer: {} } } };
}

/** `kubectl create job NAME --image=... [-- command...]` (create_job.go createJob). */
export function job(name: string, ns: string | undefined, image: string, command: string[]): Generated {
	const container: Record<string, unknown> = { name, image, resources: {} };
	if (command.length) container.command = [...command];
	return { object: { apiVersion: 'batch/v1', kind: 'Job', metadata: meta(name, ns), spec: { template: { metadata: {}, spec: { containers: [container], restartPolicy: 'Never' } } }, status: {} } };
}

/** `kubectl create job NAME --from=cronjob/X` (createJobFromCronJob). */
export function jobFromCronJob(name: string, ns: string | undefined, cronJob: KubeObject): Generated {
	const template = ((cronJob.spec as { jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown } } | undefined)?.jobTemplate ?? {}) as {
		metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
		spec?: unknown;
	};
	const extra: Record<string, unknown> = { annotations: { 'cronjob.kubernetes.io/instantiate': 'manual', ...(template.metadata?.annotations ?? {}) } };
	if (template.metadata?.labels) extra.labels = { ...template.metadata.labels };
	extra.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob.metadata.name, uid: cronJob.metadata.uid, controller: true }];
	return { object: { apiVersion: 'batch/v1', kind: 'Job', metadata: meta(name, ns, extra), spec: deepCopy(template.spec ?? {}), status: {} } };
}

/** `kubectl create cronjob NAME --image --schedule [--restart] [-- command...]` (create_cronjob.go). */
export function cronJob(name: string, ns: string | undefined, image: string, schedule: string, restart: string, command: string[]): Generated {
	const container: Record<string, unknown> = { name, image, resources: {} };
	if (command.length) container.command = [...command];
	return {
		object: {
			apiVersion: 'batch/v1',
			kind: 'CronJob',
			metadata: meta(name, ns),
			spec: { schedule, jobTemplate: { metadata: { name }, spec: { template: { metadata: {}, spec: { containers: [container], restartPolicy: restart || 'OnFailure' } } } } },
			status: {},
		},
	};
}

/** A PolicyRule as rbac/v1 marshals it (empty lists left out). */
export interface Rule {
	verbs: string[];
	apiGroups?: string[];
	resources?: string[];
	resourceNames?: string[];
	nonResourceURLs?: string[];
}

/** generateResourcePolicyRules: one rule per API group (groups sorted), then one for the non-resource URLs. */
export function policyRules(verbs: string[], resources: Array<{ group: string; resource: string }>, resourceNames: string[], nonResourceURLs: string[]): Rule[] {
	const byGroup = new Map<string, string[]>();
	for (const r of resources) {
		const list = byGroup.get(r.group) ?? [];
		if (!list.includes(r.resource)) list.push(r.resource);
		byGroup.set(r.group, list);
	}
	const rules: Rule[] = [];
	for (const group of [...byGroup.keys()].sort()) {
		const rule: Rule = { verbs: [...verbs], apiGroups: [group], resources: byGroup.get(group) as string[] };
		if (resourceNames.length) rule.resourceNames = [...resourceNames];
		rules.push(rule);
	}
	if (nonResourceURLs.length) rules.push({ verbs: [...verbs], nonResourceURLs: [...nonResourceURLs] });
	return rules;
}

/** A RoleBinding or ClusterRoleBinding (create_rolebinding.go / create_clusterrolebinding.go). */
export function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, ns: string | undefined, roleRef: { kind: 'Role' | 'ClusterRole'; name: string }, users: string[], groups: string[], serviceAccounts: string[]): Generated {
	const subjects: Array<Record<string, string>> = [];
	for (const user of users) subjects.push({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: user });
	for (const group of groups) subjects.push({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: group });
	for (const sa of serviceAccounts) {
		const tokens = sa.split(':');
		if (tokens.length !== 2 || !tokens[0] || !tokens[1]) return { error: plain('serviceaccount must be <namespace>:<name>') };
		subjects.push({ kind: 'ServiceAccount', namespace: tokens[0], name: tokens[1] });
	}
	const object: KubeObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata: kind === 'RoleBinding' ? meta(name, ns) : { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleRef.kind, name: roleRef.name } };
	if (subjects.length) object.subjects = subjects;
	return { object };
}

/** `kubectl create priorityclass NAME --value [--global-default] [--description] [--preemption-policy]` (create_priorityclass.go). */
export function priorityClass(name: string, value: number, globalDefault: boolean, description: string, preemptionPolicy: string): Generated {
	const object: KubeObject = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, preemptionPolicy };
	if (globalDefault) object.globalDefault = true;
	if (description) object.description = description;
	return { object };
}

/** generate.ParseLabels: `k=v,k2=v2`. */
export function parseLabels(spec: string): { labels: Record<string, string> } | { error: KubectlError } {
	const labels: Record<string, string> = {};
	for (const pair of spec.split(',')) {
		const kv = pair.split('=');
		if (kv.length !== 2) return { error: plain(`invalid label spec: ${pair}`) };
		labels[kv[0]] = kv[1];
	}
	return { labels };
}

/** `kubectl run NAME --image ...`: the BasicPod generator (generate/versioned/run.go). */
export function runPod(o: {
	name: string;
	image: string;
	labels: Record<string, string>;
	annotations: Record<string, string>;
	imagePullPolicy: string;
	port: string;
	stdin: boolean;
	leaveStdinOpen: boolean;
	tty: boolean;
	restart: string;
	command: boolean;
	args: string[];
	env: string[];
	privileged: boolean;
}): Generated {
	const env: Array<{ name: string; value: string }> = [];
	for (const entry of o.env) {
		const eq = entry.indexOf('=');
		const name = eq < 0 ? '' : entry.slice(0, eq);
		if (eq < 0 || !name || envVarNameErrors(name).length) return { error: plain(`invalid env: ${entry}`) };
		env.push({ name, value: entry.slice(eq + 1) });
	}
	const container: Record<string, unknown> = { name: o.name, image: o.image, resources: {} };
	if (o.stdin) container.stdin = true;
	if (!o.leaveStdinOpen && o.stdin) container.stdinOnce = true;
	if (o.tty) container.tty = true;
	if (o.privileged) container.securityContext = { privileged: true };
	if (o.args.length) container[o.command ? 'command' : 'args'] = [...o.args];
	if (env.length) container.env = env;
	if (o.imagePullPolicy) container.imagePullPolicy = o.imagePullPolicy;
	if (o.port) {
		if (!/^[-+]?\d+$/.test(o.port)) return { error: plain(`strconv.Atoi: parsing ${JSON.stringify(o.port)}: invalid syntax`) };
		container.ports = [{ containerPort: Number(o.port) }];
	}
	const metadata: Record<string, unknown> = { labels: o.labels, name: o.name };
	if (Object.keys(o.annotations).length) metadata.annotations = o.annotations;
	return {
		object: {
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: metadata as KubeObject['metadata'],
			spec: { containers: [container], dnsPolicy: 'ClusterFirst', restartPolicy: o.restart || 'Always' },
			status: {},
		},
	};
}

/** The ServiceV2 generator `kubectl expose` and `kubectl run --expose` use (generate/versioned/service.go). */
export function exposedService(o: { name: string; selector: Record<string, string>; labels?: Record<string, string>; ports: number[]; portName: string; protocol: string; targetPort: string; type: string; clusterIP: string; externalIP: string; sessionAffinity: string }): Generated {
	const ports = o.ports.map((port, i) => {
		const entry: Record<string, unknown> = { port, protocol: o.protocol || 'TCP' };
		const name = o.ports.length > 1 ? `port-${i + 1}` : o.portName;
		if (name) entry.name = name;
		entry.targetPort = o.targetPort ? (/^\d+$/.test(o.targetPort) ? Number(o.targetPort) : o.targetPort) : port;
		return entry;
	});
	const spec: Record<string, unknown> = { selector: o.selector };
	if (ports.length) spec.ports = ports;
	if (o.externalIP) spec.externalIPs = [o.externalIP];
	if (o.type) spec.type = o.type;
	if (o.sessionAffinity) {
		if (o.sessionAffinity !== 'None' && o.sessionAffinity !== 'ClientIP') return { error: plain(`unknown session affinity: ${o.sessionAffinity}`) };
		spec.sessionAffinity = o.sessionAffinity;
	}
	if (o.clusterIP) spec.clusterIP = o.clusterIP;
	const metadata: Record<string, unknown> = { name: o.name };
	if (o.labels && Object.keys(o.labels).length) metadata.labels = o.labels;
	return { object: { apiVersion: 'v1', kind: 'Service', metadata: metadata as KubeObject['metadata'], spec, status: { loadBalancer: {} } } };
}

/** intstr.Parse: an integer if the text is one, else the string. */
function intOrString(text: string): number | string {
	return /^-?\d+$/.test(text) ? Number(text) : text;
}

/**
 * metav1.ParseToLabelSelector: `=`/`==` requirements become matchLabels, the
 * others matchExpressions (In, NotIn, Exists, DoesNotExist).
 */
export function parseToLabelSelector(text: string): { selector: Record<string, unknown> } | { error: KubectlError } {
	let parsed;
	try {
		parsed = parseLabelSelector(text);
	} catch (error) {
		if (error instanceof SelectorError) return { error: plain(`couldn't parse the selector string "${text}": ${error.message}`) };
		throw error;
	}
	if (parsed.nothing) return { selector: {} };
	const matchLabels: Record<string, string> = {};
	const matchExpressions: Array<Record<string, unknown>> = [];
	const ops: Record<string, string> = { in: 'In', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist' };
	for (const r of parsed.requirements) {
		if (r.operator === '=' || r.operator === '==') matchLabels[r.key] = r.values[0];
		else if (ops[r.operator]) matchExpressions.push(r.values.length ? { key: r.key, operator: ops[r.operator], values: [...r.values] } : { key: r.key, operator: ops[r.operator] });
		else return { error: plain(`${JSON.stringify(r.operator)} is not a valid label selector operator`) };
	}
	const selector: Record<string, unknown> = {};
	if (Object.keys(matchLabels).length) selector.matchLabels = matchLabels;
	if (matchExpressions.length) selector.matchExpressions = matchExpressions;
	return { selector };
}

/** `kubectl create poddisruptionbudget NAME --selector=... --min-available=N|--max-unavailable=N` (create_pdb.go). */
export function podDisruptionBudget(name: string, ns: string | undefined, selectorText: string, minAvailable: string, maxUnavailable: string): Generated {
	const parsed = parseToLabelSelector(selectorText);
	if ('error' in parsed) return { error: parsed.error };
	const spec: Record<string, unknown> = { selector: parsed.selector };
	if (minAvailable) spec.minAvailable = intOrString(minAvailable);
	else if (maxUnavailable) spec.maxUnavailable = intOrString(maxUnavailable);
	// PodDisruptionBudgetStatus has four counters without omitempty.
	return { object: { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: meta(name, ns), spec, status: { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 } } };
}
