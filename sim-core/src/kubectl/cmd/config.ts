/**
 * `kubectl config`: the reader's kubeconfig, the admin.conf kubeadm writes
 * (cluster `kubernetes`, user `kubernetes-admin`, context
 * `kubernetes-admin@kubernetes`). Reading: view (secrets shortened to
 * `DATA+OMITTED` unless `--raw`), current-context, get-contexts,
 * get-clusters, get-users. Writing: set-context on the one context (its
 * namespace, which kubectl then uses by default, as kubernetes.io's
 * "Setting the namespace preference" does) and use-context; the rest
 * (new clusters, users and contexts) say they are not supported.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/config/view.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/current_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/get_contexts.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/get_clusters.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/get_users.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/set_context.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/config/use_context.go,
 * staging/src/k8s.io/client-go/tools/clientcmd/api/helpers.go
 * (ShortenConfig, RedactSecrets).
 */
import type { CommandResult } from '../../shell/types.ts';
import type { JsonValue } from '../../golang/json.ts';
import { parseYaml, stringifyYaml } from '../../yaml/index.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { formatTable } from '../printers/tabwriter.ts';
import { executeJsonPath, JsonPathError } from '../printers/jsonpath.ts';
import { errorText } from '../resource-args.ts';

/** kubeadm's names in admin.conf (cmd/kubeadm/app/phases/kubeconfig: cluster name, admin user, `<user>@<cluster>` context). */
export const KUBECONFIG = {
	cluster: 'kubernetes',
	user: 'kubernetes-admin',
	context: 'kubernetes-admin@kubernetes',
};

/** What `config view` prints in place of certificate and key data (clientcmd ShortenConfig). */
const DATA_OMITTED = 'DATA+OMITTED';

/** Standard base64 of ASCII text. */
function base64(text: string): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	let out = '';
	for (let i = 0; i < text.length; i += 3) {
		const n = (text.charCodeAt(i) << 16) | ((text.charCodeAt(i + 1) || 0) << 8) | (text.charCodeAt(i + 2) || 0);
		out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63] + (i + 1 < text.length ? alphabet[(n >> 6) & 63] : '=') + (i + 2 < text.length ? alphabet[n & 63] : '=');
	}
	return out;
}

/** The simulated PEM blocks `--raw` shows (the simulation issues no real certificates). */
const RAW = {
	ca: base64('-----BEGIN CERTIFICATE-----\nsimulated kubernetes cluster CA\n-----END CERTIFICATE-----\n'),
	cert: base64('-----BEGIN CERTIFICATE-----\nsimulated kubernetes-admin client certificate\n-----END CERTIFICATE-----\n'),
	key: base64('-----BEGIN RSA PRIVATE KEY-----\nsimulated kubernetes-admin client key\n-----END RSA PRIVATE KEY-----\n'),
};

/** The kubeconfig as clientcmd v1 Config, in its struct field order (what `-o json` keeps). */
function kubeconfig(invocation: KubectlInvocation, raw: boolean): Record<string, JsonValue> {
	const { env } = invocation;
	const context: Record<string, JsonValue> = { cluster: KUBECONFIG.cluster, user: KUBECONFIG.user };
	if (env.defaultNamespace !== 'default') context.namespace = env.defaultNamespace;
	return {
		kind: 'Config',
		apiVersion: 'v1',
		preferences: {},
		clusters: [{ name: KUBECONFIG.cluster, cluster: { server: env.serverUrl, 'certificate-authority-data': raw ? RAW.ca : DATA_OMITTED } }],
		users: [{ name: KUBECONFIG.user, user: { 'client-certificate-data': raw ? RAW.cert : DATA_OMITTED, 'client-key-data': raw ? RAW.key : DATA_OMITTED } }],
		contexts: [{ name: KUBECONFIG.context, context }],
		'current-context': KUBECONFIG.context,
	};
}

function view(invocation: KubectlInvocation): CommandResult {
	const flags = invocation.args.flags;
	if (invocation.args.positionals.length > 1) return { stdout: '', stderr: `error: unexpected arguments: [${invocation.args.positionals.slice(1).join(' ')}]\nSee 'kubectl config view -h' for help and examples\n`, exitCode: 1 };
	const config = kubeconfig(invocation, flags.raw === true || flags.flatten === true);
	const output = typeof flags.output === 'string' && flags.output ? flags.output : 'yaml';
	if (output === 'yaml') return { stdout: stringifyYaml(config), stderr: '', exitCode: 0 };
	if (output === 'json') return { stdout: `${JSON.stringify(config, null, 4)}\n`, stderr: '', exitCode: 0 };
	const jsonpath = /^jsonpath=(.*)$/s.exec(output);
	if (jsonpath) {
		try {
			return { stdout: executeJsonPath(jsonpath[1], config), stderr: '', exitCode: 0 };
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
	const asked = invocation.args.positionals.slice(1);
	const errors = asked.filter((n) => n !== KUBECONFIG.context).map((n) => `context ${n} not found`);
	const show = asked.length === 0 || asked.includes(KUBECONFIG.context);
	if (output === 'name') return { stdout: show ? `${KUBECONFIG.context}\n` : '', stderr: errors.length ? errorText(errors) : '', exitCode: errors.length ? 1 : 0 };
	const rows: string[][] = [];
	if (flags['no-headers'] !== true) rows.push(['CURRENT', 'NAME', 'CLUSTER', 'AUTHINFO', 'NAMESPACE']);
	const namespace = invocation.env.defaultNamespace !== 'default' ? invocation.env.defaultNamespace : '';
	if (show) rows.push(['*', KUBECONFIG.context, KUBECONFIG.cluster, KUBECONFIG.user, namespace]);
	return { stdout: formatTable(rows), stderr: errors.length ? errorText(errors) : '', exitCode: errors.length ? 1 : 0 };
}

/**
 * `kubectl config set-context (NAME | --current) [--namespace=NS]`: writes
 * the namespace into the context in the kubeconfig file kubectl read (an
 * empty value removes it). Only kubeadm's one context exists here.
 */
function setContext(invocation: KubectlInvocation): CommandResult {
	const { args, env } = invocation;
	const named = args.positionals[1];
	if (args.flags.current === true && named !== undefined) return { stdout: '', stderr: errorText(['you cannot specify both a context name and --current']), exitCode: 1 };
	if (args.flags.current !== true && named === undefined) return { stdout: '', stderr: errorText(['you must specify a non-empty context name or --current']), exitCode: 1 };
	const name = named ?? KUBECONFIG.context;
	if (name !== KUBECONFIG.context || (args.set.has('cluster') && args.flags.cluster !== KUBECONFIG.cluster) || (args.set.has('user') && args.flags.user !== KUBECONFIG.user))
		return { stdout: '', stderr: errorText([`config set-context can only change the namespace of the context ${KUBECONFIG.context} in this simulated cluster`]), exitCode: 1 };
	const path = env.kubeconfigPath;
	const text = path ? env.readFile(path) : undefined;
	if (!path || text === undefined || !env.writeFile) return { stdout: '', stderr: errorText(['no kubeconfig file to write']), exitCode: 1 };
	const config = parseYaml(text) as { contexts?: Array<{ name: string; context: Record<string, unknown> }> };
	const entry = config.contexts?.find((c) => c.name === name);
	if (!entry) return { stdout: '', stderr: errorText([`no context exists with the name: ${JSON.stringify(name)}`]), exitCode: 1 };
	if (args.set.has('namespace')) {
		const namespace = String(args.flags.namespace ?? '');
		if (namespace) entry.context.namespace = namespace;
		else delete entry.context.namespace;
	}
	env.writeFile(path, stringifyYaml(config as unknown as JsonValue));
	return { stdout: `Context ${JSON.stringify(name)} modified.\n`, stderr: '', exitCode: 0 };
}

/** `kubectl config use-context NAME`: the one context is already current. */
function useContext(invocation: KubectlInvocation): CommandResult {
	const name = invocation.args.positionals[1];
	if (name === undefined) return { stdout: '', stderr: errorText(['empty context names are not allowed']), exitCode: 1 };
	if (name !== KUBECONFIG.context) return { stdout: '', stderr: errorText([`no context exists with the name: ${JSON.stringify(name)}`]), exitCode: 1 };
	return { stdout: `Switched to context ${JSON.stringify(name)}.\n`, stderr: '', exitCode: 0 };
}

/** Runs `kubectl config <subcommand>`. */
function runConfig(invocation: KubectlInvocation): CommandResult {
	const sub = invocation.args.positionals[0];
	switch (sub) {
		case 'view':
			return view(invocation);
		case 'current-context':
			return { stdout: `${KUBECONFIG.context}\n`, stderr: '', exitCode: 0 };
		case 'get-contexts':
			return getContexts(invocation);
		case 'get-clusters':
			return { stdout: `NAME\n${KUBECONFIG.cluster}\n`, stderr: '', exitCode: 0 };
		case 'get-users':
			return { stdout: `NAME\n${KUBECONFIG.user}\n`, stderr: '', exitCode: 0 };
		case 'use-context':
			return useContext(invocation);
		case 'set-context':
			return setContext(invocation);
		case 'set-cluster':
		case 'set-credentials':
		case 'set':
		case 'unset':
		case 'delete-context':
		case 'delete-cluster':
		case 'delete-user':
		case 'rename-context':
			return { stdout: '', stderr: errorText([`config ${sub} is not supported: the simulated kubeconfig is read-only`]), exitCode: 1 };
		case undefined:
			return {
				stdout: 'Modify kubeconfig files using subcommands like "kubectl config set current-context my-context".\n\nAvailable Commands:\n  current-context   Display the current-context\n  get-clusters      Display clusters defined in the kubeconfig\n  get-contexts      Describe one or many contexts\n  get-users         Display users defined in the kubeconfig\n  view              Display merged kubeconfig settings or a specified kubeconfig file\n',
				stderr: '',
				exitCode: 0,
			};
	}
	return { stdout: '', stderr: `error: unknown command "${invocation.args.positionals.join(' ')}"\nSee 'kubectl config -h' for help and examples\n`, exitCode: 1 };
}

export const configCommand: KubectlCommand = {
	name: 'config',
	summary: 'Modify kubeconfig files',
	usage: 'kubectl config SUBCOMMAND',
	subcommands: ['current-context', 'delete-cluster', 'delete-context', 'delete-user', 'get-clusters', 'get-contexts', 'get-users', 'rename-context', 'set', 'set-cluster', 'set-context', 'set-credentials', 'unset', 'use-context', 'view'],
	flags: [
		{ name: 'output', short: 'o', kind: 'string' },
		{ name: 'raw', kind: 'bool' },
		{ name: 'minify', kind: 'bool' },
		{ name: 'flatten', kind: 'bool' },
		{ name: 'merge', kind: 'bool', default: true },
		{ name: 'no-headers', kind: 'bool' },
		{ name: 'current', kind: 'bool' },
	],
	run: runConfig,
};
