/**
 * `kubectl create -f FILE` and the generators `kubectl create deployment |
 * namespace | configmap | secret generic|tls | service clusterip|nodeport|
 * loadbalancer|externalname | serviceaccount | job | cronjob | role |
 * clusterrole | rolebinding | clusterrolebinding | priorityclass |
 * poddisruptionbudget | ingress | quota` (and `kubectl create token`, ./create-token.ts). Each
 * generator builds the object kubectl would (./create-generators.ts), then
 * POSTs it unless `--dry-run=client`, and prints it: `deployment.apps/web
 * created`, or with `-o yaml` the object itself, which with
 * `--dry-run=client` is the classic way to write a manifest.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/create/ (the create_*.go commands).
 */
import type { KubeObject } from '../../api/types.ts';
import { compactJson, type JsonValue } from '../../golang/json.ts';
import { readTypeMeta, resolveKind, mappingNotFoundMessage } from '../../api/schema/index.ts';
import { resourceByName, resourceForKind } from '../../api/resources.ts';
import { refOf } from '../../client/client.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { readManifests, resolveResourceType } from '../resource-args.ts';
import { addSourceToErr, callError, checkErr, plain, usageError, warningLines, wrap, type KubectlError } from './check-err.ts';
import { rawWriteError, runRawWrite } from './raw-write.ts';
import * as gen from './create-generators.ts';
import { ingress, ingressProblem, quota } from './create-ingress.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, VALIDATE_FLAG, dryRunStrategy, toPrinter, validationDirective } from './print-flags.ts';
import { isFatalCall, requestUrl, typed } from './resource-info.ts';
import { parentHelp } from './help.ts';
import { argsAfterCommand, runSubcommand, unionFlags, type Subcommand } from './subcommand.ts';
import { LAST_APPLIED_ANNOTATION } from './apply.ts';
import type { CommandResult } from '../../shell/types.ts';
import { deriveRngState, Rng } from '../../sim/rng.ts';
import { tokenSub } from './create-token.ts';

/** The flags every generator has (PrintFlags, --save-config, --validate, --dry-run, --field-manager). */
const GENERATOR_FLAGS: FlagSpec[] = [...PRINT_FLAGS, { name: 'save-config', kind: 'bool' }, VALIDATE_FLAG, DRY_RUN_FLAG, FIELD_MANAGER_FLAG('kubectl-create')];

/** create.NameFromCommandArgs: exactly one NAME before `--`. */
function nameFromArgs(inv: KubectlInvocation, commandPath: string): { name: string } | { error: KubectlError } {
	const count = inv.args.positionals.length;
	if (count !== 1) return { error: usageError(commandPath, `exactly one NAME is required, got ${count}`) };
	return { name: inv.args.positionals[0] };
}

/** cobra's MarkFlagRequired check, run before the command. */
function requireFlags(inv: KubectlInvocation, names: string[]): KubectlError | undefined {
	const missing = names.filter((n) => !inv.args.set.has(n));
	return missing.length ? plain(`required flag(s) ${missing.map((n) => `"${n}"`).join(', ')} not set`) : undefined;
}

/** The namespace a generator writes into its object: only an explicit -n (EnforceNamespace). */
function enforcedNamespace(inv: KubectlInvocation): string | undefined {
	return inv.args.set.has('namespace') ? inv.namespace : undefined;
}

interface GeneratorSpec {
	/** `failed to create deployment: ` for the generators that wrap the server's error; '' for those that return it as is. */
	failPrefix: string;
	namespaced: boolean;
}

/**
 * The common tail of every generator: Complete's flag checks (dry run,
 * printer, validation), the object, CreateOrUpdateAnnotation for
 * --save-config, the POST (unless --dry-run=client) and the print.
 */
function runGenerator(inv: KubectlInvocation, spec: GeneratorSpec, build: () => gen.Generated, validate?: () => KubectlError | undefined): CommandResult {
	const dry = dryRunStrategy(inv.args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(inv.args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const validation = validationDirective(inv.args);
	if ('error' in validation) return checkErr(validation.error, '', dry.stderr);
	const invalid = validate?.();
	if (invalid) return checkErr(invalid, '', dry.stderr);
	const built = build();
	if ('error' in built) return checkErr(built.error, '', dry.stderr);
	let obj = built.object;
	if (inv.args.flags['save-config'] === true) {
		// --save-config stores the generated object as the last-applied configuration.
		obj = { ...obj, metadata: { ...obj.metadata, annotations: { ...(obj.metadata.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: `${compactJson(obj as unknown as JsonValue)}\n` } } };
	}
	let stderr = dry.stderr;
	if (dry.strategy !== 'client') {
		const info = resourceForKind(obj.apiVersion, obj.kind);
		if (!info) return checkErr(plain(`no matches for kind "${obj.kind}" in version "${obj.apiVersion}"`), '', stderr);
		const ref = refOf(info);
		const namespace = spec.namespaced ? inv.namespace : undefined;
		const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(inv.args.flags['field-manager'] || 'kubectl-create'), fieldValidation: validation.directive };
		if (dry.strategy === 'server') query.dryRun = 'All';
		const created = inv.client.create(ref, namespace, obj, query);
		stderr += warningLines(created.warnings);
		if (!created.ok) {
			const error = callError(created, inv.env.serverUrl, { method: 'Post', url: requestUrl(inv.env.serverUrl, { ...ref, namespace, query }) });
			return checkErr(spec.failPrefix ? wrap(spec.failPrefix, error) : error, '', stderr);
		}
		obj = typed(info, created.object);
	}
	return { stdout: printer.printer(obj, 'created'), stderr, exitCode: 0 };
}

function named(inv: KubectlInvocation, path: string, then: (name: string) => CommandResult): CommandResult {
	const name = nameFromArgs(inv, path);
	if ('error' in name) return checkErr(name.error);
	return then(name.name);
}

/**
 * utilrand.String(5) for a sanitized container name: kubectl has no seeded
 * stream of its own, so one is derived from the virtual time (deterministic
 * for a given moment), over apimachinery's alphabet (util/rand/rand.go).
 */
function randomSuffix(inv: KubectlInvocation): () => string {
	const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
	return () => new Rng(deriveRngState(Math.floor(inv.env.nowMs()), 'kubectl-create-deployment')).string(alphabet, 5);
}

const deploymentSub: Subcommand = {
	name: 'deployment',
	aliases: ['deploy'],
	summary: 'Create a deployment with the specified name',
	usage: 'kubectl create deployment NAME --image=image -- [COMMAND] [args...]',
	flags: [...GENERATOR_FLAGS, { name: 'image', kind: 'stringArray' }, { name: 'port', kind: 'int', default: -1 }, { name: 'replicas', short: 'r', kind: 'int', default: 1 }],
	run(inv) {
		const missing = requireFlags(inv, ['image']);
		if (missing) return checkErr(missing);
		return named(inv, 'kubectl create deployment', (name) =>
			runGenerator(
				inv,
				{ failPrefix: 'failed to create deployment: ', namespaced: true },
				() => gen.deployment({ name, namespace: enforcedNamespace(inv), images: inv.args.flags.image as string[], replicas: Number(inv.args.flags.replicas), port: Number(inv.args.flags.port), command: inv.args.passthrough, random: randomSuffix(inv) }),
				() => ((inv.args.flags.image as string[]).length > 1 && inv.args.passthrough.length ? plain('cannot specify multiple --image options and command') : undefined),
			),
		);
	},
};

const namespaceSub: Subcommand = {
	name: 'namespace',
	aliases: ['ns'],
	summary: 'Create a namespace with the specified name',
	usage: 'kubectl create namespace NAME [--dry-run=server|client|none]',
	flags: GENERATOR_FLAGS,
	run: (inv) => named(inv, 'kubectl create namespace', (name) => runGenerator(inv, { failPrefix: '', namespaced: false }, () => gen.namespace(name))),
};

const serviceAccountSub: Subcommand = {
	name: 'serviceaccount',
	aliases: ['sa'],
	summary: 'Create a service account with the specified name',
	usage: 'kubectl create serviceaccount NAME [--dry-run=server|client|none]',
	flags: GENERATOR_FLAGS,
	run: (inv) => named(inv, 'kubectl create serviceaccount', (name) => runGenerator(inv, { failPrefix: 'failed to create serviceaccount: ', namespaced: true }, () => gen.serviceAccount(name, enforcedNamespace(inv)))),
};

const DATA_FLAGS: FlagSpec[] = [
	{ name: 'from-file', kind: 'stringArray' },
	{ name: 'from-literal', kind: 'stringArray', noSplit: true },
	{ name: 'from-env-file', kind: 'stringArray' },
	{ name: 'append-hash', kind: 'bool' },
];

function dataSources(inv: KubectlInvocation): gen.DataSources {
	return {
		files: inv.args.flags['from-file'] as string[],
		literals: inv.args.flags['from-literal'] as string[],
		envFiles: inv.args.flags['from-env-file'] as string[],
		readFile: (path) => inv.env.readFile(path),
		listDir: (path) => inv.env.listDir?.(path),
	};
}

const configMapSub: Subcommand = {
	name: 'configmap',
	aliases: ['cm'],
	summary: 'Create a config map from a local file, directory or literal value',
	usage: 'kubectl create configmap NAME [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]',
	flags: [...GENERATOR_FLAGS, ...DATA_FLAGS],
	run: (inv) =>
		named(inv, 'kubectl create configmap', (name) =>
			runGenerator(inv, { failPrefix: 'failed to create configmap: ', namespaced: true }, () => gen.configMap(name, enforcedNamespace(inv), dataSources(inv)), () => (inv.args.flags['append-hash'] === true ? plain('--append-hash is not supported by this simulated kubectl') : undefined)),
		),
};

const secretGenericSub: Subcommand = {
	name: 'generic',
	summary: 'Create a secret from a local file, directory, or literal value',
	usage: 'kubectl create secret generic NAME [--type=string] [--from-file=[key=]source] [--from-literal=key1=value1] [--dry-run=server|client|none]',
	flags: [...GENERATOR_FLAGS, ...DATA_FLAGS, { name: 'type', kind: 'string' }],
	run: (inv) =>
		named(inv, 'kubectl create secret generic', (name) =>
			runGenerator(
				inv,
				{ failPrefix: 'failed to create secret ', namespaced: true },
				() => gen.genericSecret(name, enforcedNamespace(inv), String(inv.args.flags.type ?? ''), dataSources(inv)),
				() => (inv.args.flags['from-env-file'] && (inv.args.flags['from-env-file'] as string[]).length && ((inv.args.flags['from-file'] as string[]).length || (inv.args.flags['from-literal'] as string[]).length) ? plain('from-env-file cannot be combined with from-file or from-literal') : undefined),
			),
		),
};

const secretTlsSub: Subcommand = {
	name: 'tls',
	summary: 'Create a TLS secret',
	usage: 'kubectl create secret tls NAME --cert=path/to/cert/file --key=path/to/key/file [--dry-run=server|client|none]',
	flags: [...GENERATOR_FLAGS, { name: 'cert', kind: 'string' }, { name: 'key', kind: 'string' }, { name: 'append-hash', kind: 'bool' }],
	run: (inv) =>
		named(inv, 'kubectl create secret tls', (name) => {
			const certPath = String(inv.args.flags.cert ?? '');
			const keyPath = String(inv.args.flags.key ?? '');
			return runGenerator(
				inv,
				{ failPrefix: 'failed to create secret ', namespaced: true },
				() => {
					const cert = inv.env.readFile(certPath);
					if (cert === undefined) return { error: plain(`open ${certPath}: no such file or directory`) };
					const key = inv.env.readFile(keyPath);
					if (key === undefined) return { error: plain(`open ${keyPath}: no such file or directory`) };
					return gen.tlsSecret(name, enforcedNamespace(inv), cert, key);
				},
				() => (!certPath || !keyPath ? plain('key and cert must be specified') : undefined),
			);
		}),
};

const secretDockerRegistrySub: Subcommand = {
	name: 'docker-registry',
	summary: 'Create a secret for use with a Docker registry',
	usage: 'kubectl create secret docker-registry NAME --docker-username=user --docker-password=password --docker-email=email [--docker-server=string] [--from-file=[key=]source] [--dry-run=server|client|none]',
	flags: [
		...GENERATOR_FLAGS,
		{ name: 'docker-server', kind: 'string', default: 'https://index.docker.io/v1/' },
		{ name: 'docker-username', kind: 'string' },
		{ name: 'docker-password', kind: 'string' },
		{ name: 'docker-email', kind: 'string' },
		{ name: 'from-file', kind: 'stringArray' },
		{ name: 'append-hash', kind: 'bool' },
	],
	run: (inv) =>
		named(inv, 'kubectl create secret docker-registry', (name) =>
			runGenerator(
				inv,
				{ failPrefix: 'failed to create secret ', namespaced: true },
				() =>
					gen.dockerRegistrySecret(
						name,
						enforcedNamespace(inv),
						{ server: String(inv.args.flags['docker-server'] ?? ''), username: String(inv.args.flags['docker-username'] ?? ''), password: String(inv.args.flags['docker-password'] ?? ''), email: String(inv.args.flags['docker-email'] ?? '') },
						{ ...dataSources(inv), literals: [], envFiles: [] },
					),
				() => (inv.args.flags['append-hash'] === true ? plain('--append-hash is not supported by this simulated kubectl') : undefined),
			),
		),
};

const SECRET_SUBS = [secretDockerRegistrySub, secretGenericSub, secretTlsSub];

const secretSub: Subcommand = {
	name: 'secret',
	summary: 'Create a secret using a specified subcommand',
	usage: 'kubectl create secret (docker-registry | generic | tls)',
	flags: unionFlags(...SECRET_SUBS.map((s) => s.flags)),
	handlesHelp: true,
	run: (inv) => nested(inv, 'kubectl create secret', ['create', 'secret'], SECRET_SUBS, secretSub.flags),
};

function serviceSub(name: 'clusterip' | 'nodeport' | 'loadbalancer' | 'externalname', type: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName'): Subcommand {
	const flags: FlagSpec[] = [...GENERATOR_FLAGS, { name: 'tcp', kind: 'stringArray' }];
	if (type === 'ClusterIP') flags.push({ name: 'clusterip', kind: 'string' });
	if (type === 'NodePort') flags.push({ name: 'node-port', kind: 'int', default: 0 });
	if (type === 'ExternalName') flags.push({ name: 'external-name', kind: 'string' });
	return {
		name,
		summary: `Create a ${type} service`,
		usage: `kubectl create service ${name} NAME [--tcp=<port>:<targetPort>] [--dry-run=server|client|none]`,
		flags,
		run(inv) {
			if (type === 'ExternalName') {
				const missing = requireFlags(inv, ['external-name']);
				if (missing) return checkErr(missing);
			}
			return named(inv, `kubectl create service ${name}`, (svcName) =>
				runGenerator(inv, { failPrefix: `failed to create ${type} service: `, namespaced: true }, () =>
					gen.service({
						name: svcName,
						namespace: enforcedNamespace(inv),
						type,
						tcp: (inv.args.flags.tcp as string[] | undefined) ?? [],
						clusterIP: String(inv.args.flags.clusterip ?? ''),
						nodePort: Number(inv.args.flags['node-port'] ?? 0),
						externalName: String(inv.args.flags['external-name'] ?? ''),
					}),
				),
			);
		},
	};
}

const SERVICE_SUBS = [serviceSub('clusterip', 'ClusterIP'), serviceSub('nodeport', 'NodePort'), serviceSub('loadbalancer', 'LoadBalancer'), serviceSub('externalname', 'ExternalName')];

const serviceSubcommand: Subcommand = {
	name: 'service',
	aliases: ['svc'],
	summary: 'Create a service using a specified subcommand',
	usage: 'kubectl create service (clusterip | nodeport | loadbalancer | externalname)',
	flags: unionFlags(...SERVICE_SUBS.map((s) => s.flags)),
	handlesHelp: true,
	run: (inv) => nested(inv, 'kubectl create service', ['create', 'service'], SERVICE_SUBS, serviceSubcommand.flags),
};

const jobSub: Subcommand = {
	name: 'job',
	summary: 'Create a job with the specified name',
	usage: 'kubectl create job NAME --image=image [--from=cronjob/name] -- [COMMAND] [args...]',
	flags: [...GENERATOR_FLAGS, { name: 'image', kind: 'string' }, { name: 'from', kind: 'string' }],
	run(inv) {
		return named(inv, 'kubectl create job', (name) => {
			const image = String(inv.args.flags.image ?? '');
			const from = String(inv.args.flags.from ?? '');
			return runGenerator(
				inv,
				{ failPrefix: 'failed to create job: ', namespaced: true },
				() => {
					if (image) return gen.job(name, enforcedNamespace(inv), image, inv.args.passthrough);
					// --from=cronjob/NAME: the Job the CronJob's template describes.
					const [type, source] = from.split('/');
					const resolved = resolveResourceType(type ?? '');
					if (!resolved.ok) return { error: plain(resolved.error) };
					if (!source) return { error: plain('from must be an existing cronjob') };
					const got = inv.client.get(refOf(resolved.info), inv.namespace, source);
					if (!got.ok) return { error: callError(got, inv.env.serverUrl) };
					if (resolved.info.kind !== 'CronJob') return { error: plain(`unknown object type *v1.${resolved.info.kind}`) };
					return gen.jobFromCronJob(name, enforcedNamespace(inv), got.object);
				},
				() => {
					if ((!image && !from) || (image && from)) return plain('either --image or --from must be specified');
					if (inv.args.passthrough.length && from) return plain('cannot specify --from and command');
					return undefined;
				},
			);
		});
	},
};

const cronJobSub: Subcommand = {
	name: 'cronjob',
	aliases: ['cj'],
	summary: 'Create a cron job with the specified name',
	usage: 'kubectl create cronjob NAME --image=image --schedule=\'0/5 * * * ?\' -- [COMMAND] [args...] [flags]',
	flags: [...GENERATOR_FLAGS, { name: 'image', kind: 'string' }, { name: 'schedule', kind: 'string' }, { name: 'restart', kind: 'string' }],
	run(inv) {
		const missing = requireFlags(inv, ['image', 'schedule']);
		if (missing) return checkErr(missing);
		return named(inv, 'kubectl create cronjob', (name) =>
			runGenerator(inv, { failPrefix: 'failed to create cronjob: ', namespaced: true }, () => gen.cronJob(name, enforcedNamespace(inv), String(inv.args.flags.image), String(inv.args.flags.schedule), String(inv.args.flags.restart ?? ''), inv.args.passthrough)),
		);
	},
};

/** Verbs `kubectl create role` knows (create_role.go validResourceVerbs); others only warn. */
const VALID_RESOURCE_VERBS = ['*', 'get', 'delete', 'list', 'create', 'update', 'patch', 'watch', 'proxy', 'deletecollection', 'use', 'bind', 'escalate', 'impersonate'];
/** Verbs valid for non-resource URLs (create_clusterrole.go validNonResourceVerbs). */
const VALID_NON_RESOURCE_VERBS = ['*', 'get', 'post', 'put', 'delete', 'patch', 'head', 'options'];
/** Verbs that only apply to certain resources (create_role.go specialVerbs). */
const SPECIAL_VERBS: Record<string, Array<[string, string]>> = {
	use: [
		['policy', 'podsecuritypolicies'],
		['extensions', 'podsecuritypolicies'],
	],
	bind: [
		['rbac.authorization.k8s.io', 'roles'],
		['rbac.authorization.k8s.io', 'clusterroles'],
	],
	escalate: [
		['rbac.authorization.k8s.io', 'roles'],
		['rbac.authorization.k8s.io', 'clusterroles'],
	],
	impersonate: [
		['', 'users'],
		['', 'serviceaccounts'],
		['', 'groups'],
		['authentication.k8s.io', 'userextras'],
	],
};

/** `--resource=pods,deployments.apps,pods/log` parsed and mapped (CreateRoleOptions.Complete and validateResource). */
function roleResources(inv: KubectlInvocation, verbs: string[]): { resources: Array<{ group: string; resource: string }> } | { error: KubectlError } {
	const out: Array<{ group: string; resource: string }> = [];
	const parsed: Array<{ group: string; resource: string; sub: string }> = [];
	for (const raw of (inv.args.flags.resource as string[] | undefined) ?? []) {
		const [main, sub = ''] = raw.split(/\/(.*)/s);
		const dot = main.indexOf('.');
		const resource = dot < 0 ? main : main.slice(0, dot);
		const group = dot < 0 ? '' : main.slice(dot + 1);
		if (resource === '*' && dot < 0 && !sub) {
			parsed.length = 0;
			parsed.push({ group: '', resource: '*', sub: '' });
			break;
		}
		parsed.push({ group, resource, sub });
	}
	for (const r of parsed) {
		if (!r.resource) return { error: plain('resource must be specified if apiGroup/subresource specified') };
		if (r.resource === '*') {
			out.push({ group: r.group, resource: r.sub ? `*/${r.sub}` : '*' });
			continue;
		}
		const resolved = resolveResourceType(r.group ? `${r.resource}.${r.group}` : r.resource);
		const mapped = resolved.ok ? { group: resolved.info.group, resource: resolved.info.resource } : { group: r.group, resource: r.resource };
		for (const verb of verbs) {
			const allowed = SPECIAL_VERBS[verb];
			if (allowed && !allowed.some(([g, res]) => g === mapped.group && res === mapped.resource)) return { error: plain(`can not perform '${verb}' on '${mapped.resource}' in group '${mapped.group}'`) };
		}
		if (!resolved.ok && !verbs.some((v) => SPECIAL_VERBS[v])) return { error: plain(resolved.error) };
		out.push({ group: mapped.group, resource: r.sub ? `${mapped.resource}/${r.sub}` : mapped.resource });
	}
	return { resources: out };
}

/** `--verb=get,list --verb=watch`, deduplicated; `*` alone wins. */
function roleVerbs(inv: KubectlInvocation): string[] {
	const verbs: string[] = [];
	for (const v of (inv.args.flags.verb as string[] | undefined) ?? []) {
		if (v === '*') return ['*'];
		if (!verbs.includes(v)) verbs.push(v);
	}
	return verbs;
}

const ROLE_FLAGS: FlagSpec[] = [...GENERATOR_FLAGS, { name: 'verb', kind: 'stringArray' }, { name: 'resource', kind: 'stringArray' }, { name: 'resource-name', kind: 'stringArray', noSplit: true }];

function roleSub(cluster: boolean): Subcommand {
	const kind = cluster ? 'ClusterRole' : 'Role';
	const path = cluster ? 'kubectl create clusterrole' : 'kubectl create role';
	return {
		name: cluster ? 'clusterrole' : 'role',
		summary: cluster ? 'Create a cluster role' : 'Create a role with single rule',
		usage: cluster ? 'kubectl create clusterrole NAME --verb=verb --resource=resource.group [--resource-name=resourcename] [--dry-run=server|client|none]' : 'kubectl create role NAME --verb=verb --resource=resource.group/subresource [--resource-name=resourcename] [--dry-run=server|client|none]',
		flags: cluster ? [...ROLE_FLAGS, { name: 'non-resource-url', kind: 'stringArray' }, { name: 'aggregation-rule', kind: 'string' }] : ROLE_FLAGS,
		run: (inv) =>
			named(inv, path, (name) => {
				const verbs = roleVerbs(inv);
				const resourceNames: string[] = [];
				for (const n of (inv.args.flags['resource-name'] as string[] | undefined) ?? []) if (!resourceNames.includes(n)) resourceNames.push(n);
				const nonResourceURLs = (inv.args.flags['non-resource-url'] as string[] | undefined) ?? [];
				const aggregation = String(inv.args.flags['aggregation-rule'] ?? '');
				let warnings = '';
				let resources: Array<{ group: string; resource: string }> = [];
				const result = runGenerator(
					inv,
					{ failPrefix: '', namespaced: !cluster },
					() => {
						const metadata = cluster ? { name } : { name, ...(enforcedNamespace(inv) ? { namespace: enforcedNamespace(inv) } : {}) };
						const object: KubeObject = { apiVersion: 'rbac.authorization.k8s.io/v1', kind, metadata };
						if (cluster && aggregation) {
							const labels = gen.parseLabels(aggregation);
							if ('error' in labels) return { error: labels.error };
							object.aggregationRule = { clusterRoleSelectors: [{ matchLabels: labels.labels }] };
						} else object.rules = gen.policyRules(verbs, resources, resourceNames, nonResourceURLs);
						return { object };
					},
					() => {
						if (cluster && aggregation) {
							if (nonResourceURLs.length || verbs.length || ((inv.args.flags.resource as string[]) ?? []).length || resourceNames.length) return plain('aggregation rule must be specified without nonResourceURLs, verbs, resources or resourceNames');
							return undefined;
						}
						if (verbs.length === 0) return plain('at least one verb must be specified');
						const hasResources = ((inv.args.flags.resource as string[]) ?? []).length > 0;
						if (!hasResources && (!cluster || nonResourceURLs.length === 0)) return plain(cluster ? 'one of resource or nonResourceURL must be specified' : 'at least one resource must be specified');
						if (hasResources) {
							for (const v of verbs) if (!VALID_RESOURCE_VERBS.includes(v)) warnings += `Warning: '${v}' is not a standard resource verb\n`;
							const mapped = roleResources(inv, verbs);
							if ('error' in mapped) return mapped.error;
							resources = mapped.resources;
						}
						if (cluster && nonResourceURLs.length) {
							for (const v of verbs) if (!VALID_NON_RESOURCE_VERBS.includes(v)) return plain(`invalid verb: '${v}' for nonResourceURL`);
							for (const url of nonResourceURLs) {
								if (url === '*') continue;
								if (!url.startsWith('/')) return plain('nonResourceURL should start with /');
								if (url.slice(0, -1).includes('*')) return plain("nonResourceURL only supports wildcard matches when '*' is at the end");
							}
						}
						return undefined;
					},
				);
				return { ...result, stderr: warnings + result.stderr };
			}),
	};
}

function bindingSub(cluster: boolean): Subcommand {
	const kind = cluster ? 'ClusterRoleBinding' : 'RoleBinding';
	const path = cluster ? 'kubectl create clusterrolebinding' : 'kubectl create rolebinding';
	const flags: FlagSpec[] = [
		...GENERATOR_FLAGS,
		{ name: 'clusterrole', kind: 'string' },
		{ name: 'user', kind: 'stringArray', noSplit: true },
		{ name: 'group', kind: 'stringArray', noSplit: true },
		{ name: 'serviceaccount', kind: 'stringArray', noSplit: true },
	];
	if (!cluster) flags.push({ name: 'role', kind: 'string' });
	return {
		name: cluster ? 'clusterrolebinding' : 'rolebinding',
		summary: cluster ? 'Create a cluster role binding for a particular cluster role' : 'Create a role binding for a particular role or cluster role',
		usage: cluster ? 'kubectl create clusterrolebinding NAME --clusterrole=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none]' : 'kubectl create rolebinding NAME --clusterrole=NAME|--role=NAME [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none]',
		flags,
		run(inv) {
			if (cluster) {
				const missing = requireFlags(inv, ['clusterrole']);
				if (missing) return checkErr(missing);
			}
			return named(inv, path, (name) => {
				const role = String(inv.args.flags.role ?? '');
				const clusterRole = String(inv.args.flags.clusterrole ?? '');
				return runGenerator(
					inv,
					{ failPrefix: cluster ? 'failed to create clusterrolebinding: ' : 'failed to create rolebinding: ', namespaced: !cluster },
					() =>
						gen.binding(
							kind,
							name,
							enforcedNamespace(inv),
							role ? { kind: 'Role', name: role } : { kind: 'ClusterRole', name: clusterRole },
							inv.args.flags.user as string[],
							inv.args.flags.group as string[],
							inv.args.flags.serviceaccount as string[],
						),
					() => (!cluster && !role === !clusterRole ? plain('exactly one of clusterrole or role must be specified') : undefined),
				);
			});
		},
	};
}

const priorityClassSub: Subcommand = {
	name: 'priorityclass',
	aliases: ['pc'],
	summary: 'Create a priority class with the specified name',
	usage: 'kubectl create priorityclass NAME --value=VALUE --global-default=BOOL [--dry-run=server|client|none]',
	flags: [...GENERATOR_FLAGS, { name: 'value', kind: 'int', default: 0 }, { name: 'global-default', kind: 'bool' }, { name: 'description', kind: 'string' }, { name: 'preemption-policy', kind: 'string', default: 'PreemptLowerPriority' }],
	run: (inv) =>
		named(inv, 'kubectl create priorityclass', (name) =>
			runGenerator(inv, { failPrefix: 'failed to create priorityclass: ', namespaced: false }, () =>
				gen.priorityClass(name, Number(inv.args.flags.value), inv.args.flags['global-default'] === true, String(inv.args.flags.description ?? ''), String(inv.args.flags['preemption-policy'] ?? '')),
			),
		),
};

const pdbSub: Subcommand = {
	name: 'poddisruptionbudget',
	aliases: ['pdb'],
	summary: 'Create a pod disruption budget with the specified name',
	usage: 'kubectl create poddisruptionbudget NAME --selector=SELECTOR --min-available=N [--dry-run=server|client|none]',
	flags: [...GENERATOR_FLAGS, { name: 'selector', kind: 'string' }, { name: 'min-available', kind: 'string' }, { name: 'max-unavailable', kind: 'string' }],
	run: (inv) =>
		named(inv, 'kubectl create poddisruptionbudget', (name) => {
			const selector = String(inv.args.flags.selector ?? '');
			const min = String(inv.args.flags['min-available'] ?? '');
			const max = String(inv.args.flags['max-unavailable'] ?? '');
			return runGenerator(
				inv,
				{ failPrefix: 'failed to create poddisruptionbudgets: ', namespaced: true },
				() => gen.podDisruptionBudget(name, enforcedNamespace(inv), selector, min, max),
				() => {
					if (!selector) return plain('a selector must be specified');
					if (!min && !max) return plain('one of min-available or max-unavailable must be specified');
					if (min && max) return plain('min-available and max-unavailable cannot be both specified');
					// create_pdb.go: a number or a percentage.
					if (min && !/^[0-9]+%?$/.test(min)) return plain('invalid format specified for min-available');
					if (max && !/^[0-9]+%?$/.test(max)) return plain('invalid format specified for max-unavailable');
					return undefined;
				},
			);
		}),
};

const ingressSub: Subcommand = {
	name: 'ingress',
	aliases: ['ing'],
	summary: 'Create an ingress with the specified name',
	usage: 'kubectl create ingress NAME --rule=host/path=service:port[,tls[=secret]]',
	flags: [...GENERATOR_FLAGS, { name: 'class', kind: 'string' }, { name: 'rule', kind: 'stringArray', noSplit: true }, { name: 'default-backend', kind: 'string' }, { name: 'annotation', kind: 'stringArray', noSplit: true }],
	run: (inv) =>
		named(inv, 'kubectl create ingress', (name) => {
			const rules = (inv.args.flags.rule as string[] | undefined) ?? [];
			const annotations = (inv.args.flags.annotation as string[] | undefined) ?? [];
			const defaultBackend = String(inv.args.flags['default-backend'] ?? '');
			return runGenerator(
				inv,
				{ failPrefix: 'failed to create ingress: ', namespaced: true },
				() => ingress(name, enforcedNamespace(inv), { ingressClass: String(inv.args.flags.class ?? ''), rules, annotations, defaultBackend }),
				() => ingressProblem(rules, annotations, defaultBackend),
			);
		}),
};

const quotaSub: Subcommand = {
	name: 'quota',
	aliases: ['resourcequota'],
	summary: 'Create a quota with the specified name',
	usage: 'kubectl create quota NAME [--hard=key1=value1,key2=value2] [--scopes=Scope1,Scope2] [--dry-run=server|client|none]',
	flags: [...GENERATOR_FLAGS, { name: 'hard', kind: 'string' }, { name: 'scopes', kind: 'string' }],
	run: (inv) =>
		named(inv, 'kubectl create quota', (name) =>
			runGenerator(inv, { failPrefix: 'failed to create quota: ', namespaced: true }, () => quota(name, enforcedNamespace(inv), String(inv.args.flags.hard ?? ''), String(inv.args.flags.scopes ?? ''))),
		),
};

const GENERATORS: Subcommand[] = [
	pdbSub,
	ingressSub,
	quotaSub,
	namespaceSub,
	secretSub,
	configMapSub,
	serviceAccountSub,
	serviceSubcommand,
	deploymentSub,
	roleSub(true),
	bindingSub(true),
	roleSub(false),
	bindingSub(false),
	priorityClassSub,
	jobSub,
	cronJobSub,
	tokenSub,
];

/**
 * `kubectl create --help`: the long description, an example and the
 * subcommands as kubectl's help template lists them (cobra's sorted
 * commands, names padded to the longest, then three spaces and the short
 * description; pkg/util/templates templater.go cmdGroupsString). Only the
 * subcommands are listed.
 */
function createHelp(): string {
	const subs = [...GENERATORS].sort((a, b) => (a.name < b.name ? -1 : 1));
	const width = Math.max(11, ...subs.map((s) => s.name.length));
	return [
		'Create a resource from a file or from stdin.',
		'',
		' JSON and YAML formats are accepted.',
		'',
		'Examples:',
		'  # Create a pod using the data in pod.json',
		'  kubectl create -f ./pod.json',
		'',
		'  # Create a pod based on the JSON passed into stdin',
		'  cat pod.json | kubectl create -f -',
		'',
		'Available Commands:',
		...subs.map((s) => `  ${s.name.padEnd(width)}   ${s.summary}`),
		'',
		'Usage:',
		'  kubectl create -f FILENAME [options]',
		'',
		'Use "kubectl create <command> --help" for more information about a given command.',
		'Use "kubectl options" for a list of global command-line options (applies to all commands).',
		'',
	].join('\n');
}

/** A parent with its own subcommands (`create secret`, `create service`): with none given, cobra prints help and exits 1. */
function nested(inv: KubectlInvocation, commandPath: string, parents: string[], subs: Subcommand[], flags: FlagSpec[]): CommandResult {
	let args = argsAfterCommand(inv, createCommand.flags);
	// Drop the intermediate parent names (e.g. `secret`, or `svc` for `service`) as cobra does while walking down.
	for (const parent of parents.slice(1)) {
		const names = [parent, ...(GENERATORS.find((g) => g.name === parent)?.aliases ?? [])];
		const at = args.findIndex((arg) => names.includes(arg));
		if (at >= 0) args = [...args.slice(0, at), ...args.slice(at + 1)];
	}
	const result = runSubcommand(inv, commandPath, args, flags, subs);
	if (result) return result;
	const unknown = inv.args.positionals;
	if (unknown.length) return checkErr(usageError(commandPath, `unknown command "${unknown.join(' ')}"`));
	const self = parents[parents.length - 1];
	const own = GENERATORS.find((g) => g.name === self)!;
	const help = parentHelp(commandPath, { long: `${own.summary}.`, usage: own.usage }, subs);
	// DefaultSubCommandRun: bare, the help goes to stderr with exit 1; asked for, to stdout.
	return inv.args.flags.help === true ? { stdout: help, stderr: '', exitCode: 0 } : { stdout: '', stderr: help, exitCode: 1 };
}

/** `kubectl create -f FILE`: each object POSTed as written; errors do not stop the others (create.go RunCreate). */
function createFromFiles(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	if (args.positionals.length) return checkErr(usageError('kubectl create', `Unexpected args: [${args.positionals.join(' ')}]`));
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const validation = validationDirective(args);
	if ('error' in validation) return checkErr(validation.error, '', dry.stderr);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const filenames = (args.flags.filename as string[]) ?? [];
	if (filenames.length === 0 && !args.flags.kustomize) return checkErr(plain('must specify one of -f and -k'), '', dry.stderr);
	if (args.flags.kustomize) return checkErr(plain('kustomize directories (-k) are not supported by this simulated kubectl; use -f'), '', dry.stderr);
	if (args.flags.edit === true) return checkErr(plain('--edit is not supported by this simulated kubectl'), '', dry.stderr);
	if (args.flags.raw) {
		const invalid = rawWriteError(inv, 'create');
		return invalid ? checkErr(plain(invalid), '', dry.stderr) : runRawWrite(inv, 'POST', dry.stderr);
	}
	const read = readManifests(inv, { validate: validation.directive !== 'Ignore' });
	if (!read.ok) return { stdout: '', stderr: dry.stderr + read.error, exitCode: 1 };
	let stdout = '';
	let stderr = dry.stderr;
	const errors: KubectlError[] = [];
	let count = 0;
	const explicitNamespace = args.set.has('namespace');
	for (const manifest of read.manifests) {
		const obj = manifest.object;
		if (validation.directive !== 'Ignore') {
			const checked = readTypeMeta(obj, { validate: true });
			if (checked.error !== undefined) {
				errors.push(plain(`error validating ${JSON.stringify(manifest.source)}: ${checked.error}`));
				continue;
			}
		}
		const meta = readTypeMeta(obj, { validate: false });
		const mapped = resolveKind(meta.error === undefined ? meta.apiVersion : '', meta.error === undefined ? meta.kind : '');
		const info = mapped.resource ? resourceByName(mapped.resource.group, mapped.resource.name) : undefined;
		if (!info) {
			errors.push(plain(mappingNotFoundMessage(mapped.error ?? 'no matches', obj.metadata?.name ?? '', obj.metadata?.namespace ?? '', manifest.source)));
			continue;
		}
		let namespace: string | undefined;
		if (info.namespaced) {
			const own = obj.metadata.namespace;
			if (own && explicitNamespace && own !== inv.namespace) {
				errors.push(plain(`the namespace from the provided object "${own}" does not match the namespace "${inv.namespace}". You must pass '--namespace=${own}' to perform this operation.`));
				continue;
			}
			namespace = own || inv.namespace;
			obj.metadata.namespace = namespace;
		}
		let result: KubeObject = obj;
		if (args.flags['save-config'] === true) {
			const { metadata } = obj;
			const annotations = { ...(metadata.annotations ?? {}) };
			delete annotations[LAST_APPLIED_ANNOTATION];
			const bare = { ...obj, metadata: { ...metadata, annotations } };
			result = { ...obj, metadata: { ...metadata, annotations: { ...annotations, [LAST_APPLIED_ANNOTATION]: `${compactJson(bare as unknown as JsonValue)}\n` } } };
		}
		if (dry.strategy !== 'client') {
			const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(args.flags['field-manager'] || 'kubectl-create'), fieldValidation: validation.directive };
			if (dry.strategy === 'server') query.dryRun = 'All';
			const created = inv.client.create(refOf(info), namespace, result, query);
			stderr += warningLines(created.warnings);
			if (!created.ok) {
				if (isFatalCall(created)) return checkErr(callError(created, inv.env.serverUrl), stdout, stderr);
				errors.push(addSourceToErr('creating', manifest.source, callError(created, inv.env.serverUrl)));
				continue;
			}
			result = typed(info, created.object);
		}
		count++;
		stdout += printer.printer(result, 'created');
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, stderr);
	if (count === 0) return checkErr(plain('no objects passed to create'), stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

const CREATE_OWN_FLAGS: FlagSpec[] = [
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
	{ name: 'edit', kind: 'bool' },
	{ name: 'windows-line-endings', kind: 'bool' },
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'raw', kind: 'string' },
	...GENERATOR_FLAGS,
];

export const createCommand: KubectlCommand = {
	name: 'create',
	summary: 'Create a resource from a file or from stdin',
	usage: 'kubectl create -f FILENAME',
	subcommands: GENERATORS.map((s) => s.name),
	nestedSubcommands: { secret: SECRET_SUBS.map((s) => s.name), service: SERVICE_SUBS.map((s) => s.name) },
	flags: unionFlags(CREATE_OWN_FLAGS, ...GENERATORS.map((g) => g.flags)),
	handlesHelp: true,
	run(inv) {
		const result = runSubcommand(inv, 'kubectl create', argsAfterCommand(inv, createCommand.flags), createCommand.flags, GENERATORS);
		if (result) return result;
		if (inv.args.flags.help === true) return { stdout: createHelp(), stderr: '', exitCode: 0 };
		return createFromFiles(inv);
	},
};
