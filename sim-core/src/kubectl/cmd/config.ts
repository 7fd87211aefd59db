/**
 * `kubectl config`: reads and edits the kubeconfig kubectl loaded (on the
 * workstation, ~/.kube/config: kubeadm's admin.conf, cluster `kubernetes`,
 * user `kubernetes-admin`, context `kubernetes-admin@kubernetes`). Reading:
 * view (certificate data shortened to `DATA+OMITTED` and tokens to
 * `REDACTED` unless `--raw`; `--minify` keeps only the current context;
 * `--flatten` embeds referenced files), current-context, get-contexts,
 * get-clusters, get-users. Writing, as kubernetes.io's tasks do:
 * set-cluster, set-credentials (with `--embed-certs` the files' contents go
 * into the kubeconfig, otherwise their absolute paths), set-context
 * (`--current` or a name; its namespace becomes kubectl's default),
 * use-context, rename-context, delete-context|cluster|user, and set / unset
 * of any property by its dotted path. Where no
 * kubeconfig file can be read (unit fixtures), the admin kubeconfig is
 * shown and writes are refused.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/config/view.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/current_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/get_contexts.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/get_clusters.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/get_users.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/set_cluster.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/set_credentials.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/set_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/use_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/rename_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/delete_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/delete_cluster.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/delete_user.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/set.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/unset.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/navigation_step_parser.go,
 * staging/src/k8s.io/client-go/tools/clientcmd/api/helpers.go
 * (ShortenConfig, RedactSecrets, FlattenConfig, MinifyConfig),
 * staging/src/k8s.io/client-go/tools/clientcmd/api/v1/types.go (field order).
 */
import { leafHelp } from './help.ts';
import { parseGoBool } from './print-flags.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { JsonValue } from '../../golang/json.ts';
import { parseYaml, stringifyYaml } from '../../yaml/index.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { formatTable } from '../printers/tabwriter.ts';
import { executeJsonPath, JsonPathError } from '../printers/jsonpath.ts';
import { errorText } from '../resource-args.ts';
import { encodeBase64 } from '../../golang/base64.ts';

/** kubeadm's names in admin.conf (cmd/kubeadm/app/phases/kubeconfig: cluster name, admin user, `<user>@<cluster>` context). */
export const KUBECONFIG = {
	cluster: 'kubernetes',
	user: 'kubernetes-admin',
	context: 'kubernetes-admin@kubernetes',
};

/** What `config view` prints in place of certificate and key data (clientcmd ShortenConfig). */
const DATA_OMITTED = 'DATA+OMITTED';

/** The simulated PEM blocks `--raw` shows (the simulation issues no real certificates). */
const RAW = {
	ca: encodeBase64('-----BEGIN CERTIFICATE-----\nsimulated kubernetes cluster CA\n-----END CERTIFICATE-----\n'),
	cert: encodeBase64('-----BEGIN CERTIFICATE-----\nsimulated kubernetes-admin client certificate\n-----END CERTIFICATE-----\n'),
	key: encodeBase64('-----BEGIN RSA PRIVATE KEY-----\nsimulated kubernetes-admin client key\n-----END RSA PRIVATE KEY-----\n'),
};

/** A kubeconfig file as clientcmd v1 reads it: lists of named clusters, users and contexts. */
interface KubeconfigFile {
	apiVersion?: string;
	kind?: string;
	preferences?: Record<string, unknown>;
	clusters?: Array<{ name: string; cluster: Record<string, unknown> }>;
	users?: Array<{ name: string; user: Record<string, unknown> }>;
	contexts?: Array<{ name: string; context: Record<string, unknown> }>;
	'current-context'?: string;
}

/** v1 struct field orders, which `-o json` keeps (YAML sorts keys). */
const CLUSTER_FIELDS = ['server', 'tls-server-name', 'insecure-skip-tls-verify', 'certificate-authority', 'certificate-authority-data', 'proxy-url', 'disable-compression'];
const USER_FIELDS = ['client-certificate', 'client-certificate-data', 'client-key', 'client-key-data', 'token', 'tokenFile', 'as', 'as-uid', 'as-groups', 'username', 'password', 'exec', 'auth-provider'];
const CONTEXT_FIELDS = ['cluster', 'user', 'namespace'];
/** ShortenConfig shortens these; RedactSecrets redacts the rest. */
const DATA_FIELDS = new Set(['certificate-authority-data', 'client-certificate-data', 'client-key-data']);
const SECRET_FIELDS = new Set(['token', 'password']);

function ordered(fields: Record<string, unknown>, order: readonly string[]): Record<string, JsonValue> {
	const out: Record<string, JsonValue> = {};
	for (const key of order) if (fields[key] !== undefined) out[key] = fields[key] as JsonValue;
	for (const [key, value] of Object.entries(fields)) if (!(key in out) && value !== undefined) out[key] = value as JsonValue;
	return out;
}

/** The admin kubeconfig, for an invocation with no kubeconfig file to read. */
function fallbackConfig(invocation: KubectlInvocation): KubeconfigFile {
	const context: Record<string, unknown> = { cluster: KUBECONFIG.cluster, user: KUBECONFIG.user };
	if (invocation.env.defaultNamespace !== 'default') context.namespace = invocation.env.defaultNamespace;
	return {
		apiVersion: 'v1',
		kind: 'Config',
		preferences: {},
		clusters: [{ name: KUBECONFIG.cluster, cluster: { server: invocation.env.serverUrl, 'certificate-authority-data': RAW.ca } }],
		users: [{ name: KUBECONFIG.user, user: { 'client-certificate-data': RAW.cert, 'client-key-data': RAW.key } }],
		contexts: [{ name: KUBECONFIG.context, context }],
		'current-context': KUBECONFIG.context,
	};
}

/** The kubeconfig kubectl loaded, and whether it came from a file this command may rewrite. */
function load(invocation: KubectlInvocation): { config: KubeconfigFile; path?: string } | { error: string } {
	const path = invocation.env.kubeconfigPath;
	const text = path ? invocation.env.readFile(path) : undefined;
	if (!path || text === undefined) return { config: fallbackConfig(invocation) };
	try {
		const parsed = (parseYaml(text) ?? {}) as KubeconfigFile;
		return { config: typeof parsed === 'object' ? parsed : {}, path };
	} catch (error) {
		return { error: `error loading config file "${path}": ${(error as Error).message}` };
	}
}

function save(invocation: KubectlInvocation, path: string | undefined, config: KubeconfigFile): string | undefined {
	if (!path || !invocation.env.writeFile) return 'no kubeconfig file to write';
	const out: Record<string, JsonValue> = { apiVersion: config.apiVersion ?? 'v1', clusters: (config.clusters ?? []) as unknown as JsonValue, contexts: (config.contexts ?? []) as unknown as JsonValue, 'current-context': config['current-context'] ?? '', kind: config.kind ?? 'Config', preferences: (config.preferences ?? {}) as JsonValue, users: (config.users ?? []) as unknown as JsonValue };
	invocation.env.writeFile(path, stringifyYaml(out));
	return undefined;
}

/** The kubeconfig as clientcmd v1 Config, in its struct field order, shortened and redacted unless raw. */
function printable(config: KubeconfigFile, raw: boolean): Record<string, JsonValue> {
	const hide = (fields: Record<string, unknown>) => {
		if (raw) return fields;
		const out: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(fields)) out[key] = DATA_FIELDS.has(key) && value ? DATA_OMITTED : SECRET_FIELDS.has(key) && value ? 'REDACTED' : value;
		return out;
	};
	return {
		kind: config.kind ?? 'Config',
		apiVersion: config.apiVersion ?? 'v1',
		preferences: (config.preferences ?? {}) as JsonValue,
		clusters: (config.clusters ?? []).map((c) => ({ name: c.name, cluster: ordered(hide(c.cluster ?? {}), CLUSTER_FIELDS) })),
		users: (config.users ?? []).map((u) => ({ name: u.name, user: ordered(hide(u.user ?? {}), USER_FIELDS) })),
		contexts: (config.contexts ?? []).map((c) => ({ name: c.name, context: ordered(c.context ?? {}, CONTEXT_FIELDS) })),
		'current-context': config['current-context'] ?? '',
	};
}

/** MinifyConfig: the current context, its cluster and its user only. */
function minify(config: KubeconfigFile, contextOverride?: string): KubeconfigFile | { error: string } {
	const name = contextOverride || config['current-context'];
	if (!name) return { error: 'current-context must exist in order to minify' };
	const context = config.contexts?.find((c) => c.name === name);
	if (!context) return { error: `cannot locate context ${name}` };
	return {
		...config,
		'current-context': name,
		contexts: [context],
		clusters: (config.clusters ?? []).filter((c) => c.name === context.context.cluster),
		users: (config.users ?? []).filter((u) => u.name === context.context.user),
	};
}

/** FlattenConfig: referenced certificate and key files embedded as -data. */
function flatten(invocation: KubectlInvocation, config: KubeconfigFile): KubeconfigFile | { error: string } {
	const embed = (fields: Record<string, unknown>, file: string, data: string): string | undefined => {
		const path = fields[file];
		if (typeof path !== 'string' || !path) return undefined;
		const text = invocation.env.readFile(path);
		if (text === undefined) return `open ${path}: no such file or directory`;
		fields[data] = encodeBase64(text);
		delete fields[file];
		return undefined;
	};
	const copy = structuredClone(config);
	for (const c of copy.clusters ?? []) {
		const problem = embed(c.cluster, 'certificate-authority', 'certificate-authority-data');
		if (problem) return { error: problem };
	}
	for (const u of copy.users ?? []) {
		const problem = embed(u.user, 'client-certificate', 'client-certificate-data') ?? embed(u.user, 'client-key', 'client-key-data');
		if (problem) return { error: problem };
	}
	return copy;
}

function view(invocation: KubectlInvocation): CommandResult {
	const flags = invocation.args.flags;
	if (invocation.args.positionals.length > 1) return { stdout: '', stderr: `error: unexpected arguments: [${invocation.args.positionals.slice(1).join(' ')}]\nSee 'kubectl config view -h' for help and examples\n`, exitCode: 1 };
	const loaded = load(invocation);
	if ('error' in loaded) return { stdout: '', stderr: errorText([loaded.error]), exitCode: 1 };
	let config = loaded.config;
	if (flags.minify === true) {
		const minified = minify(config, typeof flags.context === 'string' ? flags.context : undefined);
		if ('error' in minified) return { stdout: '', stderr: errorText([minified.error]), exitCode: 1 };
		config = minified;
	}
	if (flags.flatten === true) {
		const flat = flatten(invocation, config);
		if ('error' in flat) return { stdout: '', stderr: errorText([flat.error]), exitCode: 1 };
		config = flat;
	}
	const shown = printable(config, flags.raw === true || flags.flatten === true);
	const output = typeof flags.output === 'string' && flags.output ? flags.output : 'yaml';
	if (output === 'yaml') return { stdout: stringifyYaml(shown), stderr: '', exitCode: 0 };
	if (output === 'json') return { stdout: `${JSON.stringify(shown, null, 4)}\n`, stderr: '', exitCode: 0 };
	const jsonpath = /^jsonpath=(.*)$/s.exec(output);
	if (jsonpath) {
		try {
			return { stdout: executeJsonPath(jsonpath[1], shown), stderr: '', exitCode: 0 };
		} catch (e) {
			if (e instanceof JsonPathError) return { stdout: '', stderr: errorText([e.message]), exitCode: 1 };
			throw e;
		}
	}
	return { stdout: '', stderr: errorText([`-o ${output} is not supported by the simulated kubectl config view; use yaml, json or jsonpath=...`]), exitCode: 1 };
}

function getContexts(invocation: KubectlInvocation): CommandResult {
	const flags = invocation.args.flags;
	const output = typeof flags.output === 'string' ? flags.output : '';
	if (output !== '' && output !== 'name') return { stdout: '', stderr: errorText([`--output ${output} is not available in kubectl config get-contexts; resetting to default output format`]), exitCode: 1 };
	const loaded = load(invocation);
	if ('error' in loaded) return { stdout: '', stderr: errorText([loaded.error]), exitCode: 1 };
	const { config } = loaded;
	const contexts = [...(config.contexts ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const asked = invocation.args.positionals.slice(1);
	const errors = asked.filter((n) => !contexts.some((c) => c.name === n)).map((n) => `context ${n} not found`);
	const shown = asked.length === 0 ? contexts : contexts.filter((c) => asked.includes(c.name));
	if (output === 'name') return { stdout: shown.map((c) => `${c.name}\n`).join(''), stderr: errors.length ? errorText(errors) : '', exitCode: errors.length ? 1 : 0 };
	const rows: string[][] = [];
	if (flags['no-headers'] !== true) rows.push(['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE']);
	for (const c of shown) rows.push([c.name === config['current-context'] ? '*' : '', c.name, String(c.context.cluster ?? ''), String(c.context.user ?? ''), String(c.context.namespace ?? '')]);
	return { stdout: formatTable(rows), stderr: errors.length ? errorText(errors) : '', exitCode: errors.length ? 1 : 0 };
}

/** get-clusters and get-users: a NAME column. */
function listNames(invocation: KubectlInvocation, of: 'clusters' | 'users'): CommandResult {
	const loaded = load(invocation);
	if ('error' in loaded) return { stdout: '', stderr: errorText([loaded.error]), exitCode: 1 };
	const names = (loaded.config[of] ?? []).map((e) => e.name).sort();
	return { stdout: ['NAME', ...names].map((n) => `${n}\n`).join(''), stderr: '', exitCode: 0 };
}

/** Loads the file for a write; the error text when there is none. */
function loadForWrite(invocation: KubectlInvocation): { config: KubeconfigFile; path: string } | { error: string } {
	const loaded = load(invocation);
	if ('error' in loaded) return loaded;
	if (!loaded.path || !invocation.env.writeFile) return { error: 'no kubeconfig file to write' };
	return { config: loaded.config, path: loaded.path };
}

const done = (stdout: string, stderr = ''): CommandResult => ({ stdout, stderr, exitCode: 0 });
const fail = (message: string): CommandResult => ({ stdout: '', stderr: errorText([message]), exitCode: 1 });

/** An absolute path, as set-credentials and set-cluster store file references (filepath.Abs). */
function absolute(invocation: KubectlInvocation, path: string): string {
	if (path.startsWith('/')) return path;
	const base = invocation.env.workingDir ?? '/';
	return `${base.replace(/\/$/, '')}/${path.replace(/^\.\//, '')}`;
}

/** A flag's file, embedded (base64 of its contents) or referenced by absolute path. */
function fileField(invocation: KubectlInvocation, flag: string, what: string, fields: Record<string, unknown>, file: string, data: string): string | undefined {
	const { args } = invocation;
	if (!args.set.has(flag)) return undefined;
	const path = String(args.flags[flag] ?? '');
	if (args.flags['embed-certs'] === true) {
		const text = invocation.env.readFile(path);
		if (text === undefined) return `error reading ${what} data from ${path}: open ${path}: no such file or directory`;
		fields[data] = encodeBase64(text);
		delete fields[file];
	} else {
		fields[file] = path ? absolute(invocation, path) : undefined;
		delete fields[data];
	}
	return undefined;
}

/** `kubectl config set-credentials NAME [--client-certificate=F --client-key=F [--embed-certs] | --token=T | --username=U --password=P]`. */
function setCredentials(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	const name = args.positionals[1];
	if (!name) return { stdout: '', stderr: "error: you must specify a non-empty user name\nSee 'kubectl config set-credentials -h' for help and examples\n", exitCode: 1 };
	if (args.flags['embed-certs'] === true && !args.set.has('client-certificate') && !args.set.has('client-key')) return fail('you must specify a --client-certificate or --client-key to embed');
	const loaded = loadForWrite(invocation);
	if ('error' in loaded) return fail(loaded.error);
	const { config, path } = loaded;
	const users = (config.users ??= []);
	let entry = users.find((u) => u.name === name);
	if (!entry) users.push((entry = { name, user: {} }));
	entry.user ??= {};
	const problem =
		fileField(invocation, 'client-certificate', 'client-certificate', entry.user, 'client-certificate', 'client-certificate-data') ??
		fileField(invocation, 'client-key', 'client-key', entry.user, 'client-key', 'client-key-data');
	if (problem) return fail(problem);
	for (const flag of ['token', 'username', 'password']) if (args.set.has(flag)) entry.user[flag] = String(args.flags[flag] ?? '') || undefined;
	const written = save(invocation, path, config);
	return written ? fail(written) : done(`User ${JSON.stringify(name)} set.\n`);
}

/** `kubectl config set-cluster NAME [--server=URL] [--certificate-authority=F [--embed-certs]] [--insecure-skip-tls-verify]`. */
function setCluster(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	const name = args.positionals[1];
	if (!name) return { stdout: '', stderr: "error: you must specify a non-empty cluster name\nSee 'kubectl config set-cluster -h' for help and examples\n", exitCode: 1 };
	const loaded = loadForWrite(invocation);
	if ('error' in loaded) return fail(loaded.error);
	const { config, path } = loaded;
	const clusters = (config.clusters ??= []);
	let entry = clusters.find((c) => c.name === name);
	if (!entry) clusters.push((entry = { name, cluster: {} }));
	entry.cluster ??= {};
	if (args.set.has('server')) entry.cluster.server = String(args.flags.server ?? '');
	if (args.set.has('insecure-skip-tls-verify')) entry.cluster['insecure-skip-tls-verify'] = args.flags['insecure-skip-tls-verify'] === true || undefined;
	const problem = fileField(invocation, 'certificate-authority', 'certificate-authority', entry.cluster, 'certificate-authority', 'certificate-authority-data');
	if (problem) return fail(problem);
	const written = save(invocation, path, config);
	return written ? fail(written) : done(`Cluster ${JSON.stringify(name)} set.\n`);
}

/**
 * `kubectl config set-context (NAME | --current) [--cluster=C] [--user=U]
 * [--namespace=NS]`: creates or modifies the context (an empty value
 * removes the field).
 */
function setContext(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	const named = args.positionals[1];
	if (args.flags.current === true && named !== undefined) return fail('you cannot specify both a context name and --current');
	if (args.flags.current !== true && named === undefined) return fail('you must specify a non-empty context name or --current');
	const loaded = loadForWrite(invocation);
	if ('error' in loaded) return fail(loaded.error);
	const { config, path } = loaded;
	const name = named ?? config['current-context'] ?? '';
	if (!name) return fail('no current context is set');
	const contexts = (config.contexts ??= []);
	let entry = contexts.find((c) => c.name === name);
	const created = !entry;
	if (!entry) contexts.push((entry = { name, context: {} }));
	entry.context ??= {};
	for (const flag of ['cluster', 'user', 'namespace']) {
		if (!args.set.has(flag)) continue;
		const value = String(args.flags[flag] ?? '');
		if (value) entry.context[flag] = value;
		else delete entry.context[flag];
	}
	const written = save(invocation, path, config);
	return written ? fail(written) : done(`Context ${JSON.stringify(name)} ${created ? 'created' : 'modified'}.\n`);
}

/** The fields `config set` reaches in each section, by the names of clientcmd's internal api (act-as is v1's `as`). */
const PROPERTY_FIELDS: Record<'clusters' | 'users' | 'contexts', Record<string, { key: string; type: 'string' | 'bool' | 'bytes' | 'list' }>> = {
	clusters: {
		server: { key: 'server', type: 'string' },
		'tls-server-name': { key: 'tls-server-name', type: 'string' },
		'insecure-skip-tls-verify': { key: 'insecure-skip-tls-verify', type: 'bool' },
		'certificate-authority': { key: 'certificate-authority', type: 'string' },
		'certificate-authority-data': { key: 'certificate-authority-data', type: 'bytes' },
		'proxy-url': { key: 'proxy-url', type: 'string' },
		'disable-compression': { key: 'disable-compression', type: 'bool' },
	},
	users: {
		'client-certificate': { key: 'client-certificate', type: 'string' },
		'client-certificate-data': { key: 'client-certificate-data', type: 'bytes' },
		'client-key': { key: 'client-key', type: 'string' },
		'client-key-data': { key: 'client-key-data', type: 'bytes' },
		token: { key: 'token', type: 'string' },
		tokenFile: { key: 'tokenFile', type: 'string' },
		'act-as': { key: 'as', type: 'string' },
		'act-as-uid': { key: 'as-uid', type: 'string' },
		'act-as-groups': { key: 'as-groups', type: 'list' },
		username: { key: 'username', type: 'string' },
		password: { key: 'password', type: 'string' },
	},
	contexts: {
		cluster: { key: 'cluster', type: 'string' },
		user: { key: 'user', type: 'string' },
		namespace: { key: 'namespace', type: 'string' },
	},
};

const ENTRY_FIELD = { clusters: 'cluster', users: 'user', contexts: 'context' } as const;

/**
 * `kubectl config set PROPERTY VALUE` and `kubectl config unset PROPERTY`
 * (set.go, unset.go, navigation_step_parser.go): a dot-separated path into
 * the kubeconfig (`current-context`, `clusters.NAME.server`,
 * `users.NAME.token`, `contexts.NAME.namespace`; a name may itself hold
 * dots). `-data` values are base64 unless --set-raw-bytes; booleans parse
 * as Go's; unsetting `SECTION.NAME` removes the whole entry.
 */
function setOrUnset(invocation: KubectlInvocation, unset: boolean): CommandResult {
	const { args } = invocation;
	const verb = unset ? 'unset' : 'set';
	const property = args.positionals[1] ?? '';
	const expected = unset ? 1 : 2;
	if (args.positionals.length - 1 !== expected) return fail(`Unexpected args: [${args.positionals.slice(1).join(' ')}]\nSee 'kubectl config ${verb} -h' for help and examples`);
	const value = unset ? undefined : (args.positionals[2] ?? '');
	if (!unset && !value) return fail('you cannot use set to unset a property');
	if (!property) return fail('you must specify a property');
	const loaded = loadForWrite(invocation);
	if ('error' in loaded) return fail(loaded.error);
	const { config, path } = loaded;
	const finish = () => {
		const written = save(invocation, path, config);
		return written ? fail(written) : done(`Property ${JSON.stringify(property)} ${verb}.\n`);
	};
	if (property === 'current-context') {
		if (value === undefined) delete config['current-context'];
		else config['current-context'] = value;
		return finish();
	}
	const parts = property.split('.');
	const section = parts[0] as keyof typeof PROPERTY_FIELDS;
	if (!(section in PROPERTY_FIELDS) || parts.length < 2) return fail(`unable to locate path ${parts[0]} under api.Config`);
	// The last part names a field when it is one; the parts between are the entry's name.
	const fieldName = parts.length > 2 && parts[parts.length - 1] in PROPERTY_FIELDS[section] ? parts[parts.length - 1] : undefined;
	const name = parts.slice(1, fieldName ? -1 : undefined).join('.');
	const list = (config[section] ??= []) as unknown as Array<{ name: string } & Record<string, Record<string, unknown>>>;
	const inner = ENTRY_FIELD[section];
	let entry = list.find((e) => e.name === name);
	if (!fieldName) {
		if (!unset) return fail(`unable to locate path ${property.slice(section.length + 1)} under ${section}: a field is needed after the name`);
		if (!entry) return fail(`current map key \`${name}\` is invalid`);
		list.splice(list.indexOf(entry), 1);
		return finish();
	}
	const field = PROPERTY_FIELDS[section][fieldName];
	if (!entry) {
		if (unset) return fail(`current map key \`${name}\` is invalid`);
		list.push((entry = { name, [inner]: {} } as { name: string } & Record<string, Record<string, unknown>>));
	}
	const fields = (entry[inner] ??= {});
	if (value === undefined) {
		delete fields[field.key];
		return finish();
	}
	switch (field.type) {
		case 'bool': {
			const parsed = parseGoBool(value);
			if (parsed === undefined) return fail(`strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
			fields[field.key] = parsed;
			break;
		}
		case 'bytes':
			if (args.flags['set-raw-bytes'] === true) fields[field.key] = btoa(String.fromCharCode(...new TextEncoder().encode(value)));
			else if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value) || value.length % 4 !== 0) return fail(`illegal base64 data at input byte ${Math.max(0, value.search(/[^A-Za-z0-9+/=]/))}`);
			else fields[field.key] = value;
			break;
		case 'list':
			fields[field.key] = value.split(',');
			break;
		default:
			fields[field.key] = value;
	}
	return finish();
}

/** `kubectl config use-context NAME`. */
function useContext(invocation: KubectlInvocation): CommandResult {
	const name = invocation.args.positionals[1];
	if (name === undefined) return fail('empty context names are not allowed');
	const loaded = load(invocation);
	if ('error' in loaded) return fail(loaded.error);
	if (!loaded.config.contexts?.some((c) => c.name === name)) return fail(`no context exists with the name: ${JSON.stringify(name)}`);
	if (loaded.config['current-context'] === name && !loaded.path) return done(`Switched to context ${JSON.stringify(name)}.\n`);
	loaded.config['current-context'] = name;
	const written = save(invocation, loaded.path, loaded.config);
	return written ? fail(written) : done(`Switched to context ${JSON.stringify(name)}.\n`);
}

/** `kubectl config rename-context OLD NEW`. */
function renameContext(invocation: KubectlInvocation): CommandResult {
	const [, from, to] = invocation.args.positionals;
	if (!from || !to || invocation.args.positionals.length !== 3) return { stdout: '', stderr: "error: Unexpected args: " + JSON.stringify(invocation.args.positionals.slice(1)) + "\nSee 'kubectl config rename-context -h' for help and examples\n", exitCode: 1 };
	const loaded = loadForWrite(invocation);
	if ('error' in loaded) return fail(loaded.error);
	const { config, path } = loaded;
	const entry = config.contexts?.find((c) => c.name === from);
	if (!entry) return fail(`cannot rename the context ${JSON.stringify(from)}, it's not in ${path}`);
	if (config.contexts?.some((c) => c.name === to)) return fail(`cannot rename the context ${JSON.stringify(from)}, the context ${JSON.stringify(to)} already exists in ${path}`);
	entry.name = to;
	if (config['current-context'] === from) config['current-context'] = to;
	const written = save(invocation, path, config);
	return written ? fail(written) : done(`Context ${JSON.stringify(from)} renamed to ${JSON.stringify(to)}.\n`);
}

/** `kubectl config delete-context|delete-cluster|delete-user NAME`. */
function deleteEntry(invocation: KubectlInvocation, of: 'contexts' | 'clusters' | 'users', noun: string): CommandResult {
	const name = invocation.args.positionals[1];
	if (!name) return { stdout: '', stderr: `error: Unexpected args: []\nSee 'kubectl config delete-${noun} -h' for help and examples\n`, exitCode: 1 };
	const loaded = loadForWrite(invocation);
	if ('error' in loaded) return fail(loaded.error);
	const { config, path } = loaded;
	const list = (config[of] ?? []) as Array<{ name: string }>;
	if (!list.some((e) => e.name === name)) return fail(`cannot delete ${noun} ${name}, not in ${path}`);
	(config as Record<string, unknown>)[of] = list.filter((e) => e.name !== name);
	let warning = '';
	if (of === 'contexts' && config['current-context'] === name) warning = 'warning: this removed your active context, use "kubectl config use-context" to select a different one\n';
	const written = save(invocation, path, config);
	return written ? fail(written) : done(`deleted ${noun} ${name} from ${path}\n`, warning);
}

/** Each subcommand's summary and usage line, for its own `--help`. */
const SUBCOMMAND_HELP: Readonly<Record<string, { summary: string; usage: string }>> = {
	'current-context': { summary: 'Display the current-context', usage: 'kubectl config current-context' },
	'delete-cluster': { summary: 'Delete the specified cluster from the kubeconfig', usage: 'kubectl config delete-cluster NAME' },
	'delete-context': { summary: 'Delete the specified context from the kubeconfig', usage: 'kubectl config delete-context CONTEXT_NAME' },
	'delete-user': { summary: 'Delete the specified user from the kubeconfig', usage: 'kubectl config delete-user NAME' },
	'get-clusters': { summary: 'Display clusters defined in the kubeconfig', usage: 'kubectl config get-clusters' },
	'get-contexts': { summary: 'Describe one or many contexts', usage: 'kubectl config get-contexts [(-o|--output=)name)]' },
	'get-users': { summary: 'Display users defined in the kubeconfig', usage: 'kubectl config get-users' },
	'rename-context': { summary: 'Rename a context from the kubeconfig file', usage: 'kubectl config rename-context CONTEXT_NAME NEW_NAME' },
	set: { summary: 'Set an individual value in a kubeconfig file', usage: 'kubectl config set PROPERTY_NAME PROPERTY_VALUE' },
	'set-cluster': { summary: 'Set a cluster entry in kubeconfig', usage: 'kubectl config set-cluster NAME [--server=server] [--certificate-authority=path/to/certificate/authority] [--insecure-skip-tls-verify=true] [--tls-server-name=example.com]' },
	'set-context': { summary: 'Set a context entry in kubeconfig', usage: 'kubectl config set-context [NAME | --current] [--cluster=cluster_nickname] [--user=user_nickname] [--namespace=namespace]' },
	'set-credentials': { summary: 'Set a user entry in kubeconfig', usage: 'kubectl config set-credentials NAME [--client-certificate=path/to/certfile] [--client-key=path/to/keyfile] [--token=bearer_token] [--username=basic_user] [--password=basic_password]' },
	unset: { summary: 'Unset an individual value in a kubeconfig file', usage: 'kubectl config unset PROPERTY_NAME' },
	'use-context': { summary: 'Set the current-context in a kubeconfig file', usage: 'kubectl config use-context CONTEXT_NAME' },
	view: { summary: 'Display merged kubeconfig settings or a specified kubeconfig file', usage: 'kubectl config view [flags]' },
};

/** Runs `kubectl config <subcommand>`. */
function runConfig(invocation: KubectlInvocation): CommandResult {
	const sub = invocation.args.positionals[0];
	// A subcommand's --help is its own; the parent's is the list below.
	if (invocation.args.flags.help === true && sub !== undefined && SUBCOMMAND_HELP[sub]) return done(leafHelp({ ...SUBCOMMAND_HELP[sub], flags: configCommand.flags }));
	switch (sub) {
		case 'view':
			return view(invocation);
		case 'current-context': {
			const loaded = load(invocation);
			if ('error' in loaded) return fail(loaded.error);
			const current = loaded.config['current-context'];
			return current ? done(`${current}\n`) : fail('current-context is not set');
		}
		case 'get-contexts':
			return getContexts(invocation);
		case 'get-clusters':
			return listNames(invocation, 'clusters');
		case 'get-users':
			return listNames(invocation, 'users');
		case 'use-context':
			return useContext(invocation);
		case 'set-context':
			return setContext(invocation);
		case 'set-credentials':
			return setCredentials(invocation);
		case 'set-cluster':
			return setCluster(invocation);
		case 'rename-context':
			return renameContext(invocation);
		case 'delete-context':
			return deleteEntry(invocation, 'contexts', 'context');
		case 'delete-cluster':
			return deleteEntry(invocation, 'clusters', 'cluster');
		case 'delete-user':
			return deleteEntry(invocation, 'users', 'user');
		case 'set':
			return setOrUnset(invocation, false);
		case 'unset':
			return setOrUnset(invocation, true);
		case undefined:
			// The subcommands in name order, padded as this list has always been printed.
			return done(`Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".\n\nAvailable Commands:\n${Object.entries(SUBCOMMAND_HELP)
				.map(([name, help]) => `  ${name.padEnd(17)} ${help.summary}\n`)
				.join('')}`);
	}
	return { stdout: '', stderr: `error: unknown command "${invocation.args.positionals.join(' ')}"\nSee 'kubectl config -h' for help and examples\n`, exitCode: 1 };
}

export const configCommand: KubectlCommand = {
	name: 'config',
	summary: 'Modify kubeconfig files',
	usage: 'kubectl config SUBCOMMAND',
	handlesHelp: true,
	subcommands: Object.keys(SUBCOMMAND_HELP),
	flags: [
		{ name: 'output', short: 'o', kind: 'string' },
		{ name: 'raw', kind: 'bool' },
		{ name: 'minify', kind: 'bool' },
		{ name: 'flatten', kind: 'bool' },
		{ name: 'merge', kind: 'bool', default: true },
		{ name: 'no-headers', kind: 'bool' },
		{ name: 'current', kind: 'bool' },
		{ name: 'set-raw-bytes', kind: 'bool' },
		{ name: 'embed-certs', kind: 'bool' },
		{ name: 'certificate-authority', kind: 'string' },
		{ name: 'client-certificate', kind: 'string' },
		{ name: 'client-key', kind: 'string' },
		{ name: 'token', kind: 'string' },
		{ name: 'username', kind: 'string' },
		{ name: 'password', kind: 'string' },
	],
	run: runConfig,
};
