/**
 * kubectl's resource builder: how a command turns its arguments and flags
 * (`pods`, `po web-1 web-2`, `deploy/nginx svc/nginx`, `pods,svc`, `all`,
 * `-f dir/`, `-l app=web`, `--field-selector`, `--all`, `-A`) into the
 * objects to visit, with kubectl's own errors.
 *
 * Shared by the reading commands (get, describe) and the changing ones
 * (apply, delete, label, ...): keep the exported API stable.
 *
 * Typical use:
 *
 *     const parsed = parseResourceArgs(invocation, { allowEmptySelector: true });
 *     if (parsed.error) return fail(parsed.error);
 *     const fetched = fetchTargets(invocation, parsed.targets);
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/resource/builder.go
 * (ResourceTypeOrNameArgs, visitorResult, mappingFor),
 * staging/src/k8s.io/cli-runtime/pkg/resource/visitor.go (StreamVisitor,
 * FileVisitor, FlattenListVisitor, SetNamespace, RequireNamespace),
 * staging/src/k8s.io/cli-runtime/pkg/resource/mapper.go (infoForData),
 * staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (checkErr,
 * StandardErrorMessage, MultipleErrors).
 */
import { isUrl, readUrl } from './urls/url-visitor.ts';
import type { KubeObject, KubeList } from '../api/types.ts';
import { RESOURCES, groupVersion, resourceByName, type ResourceInfo } from '../api/resources.ts';
import { readTypeMeta, resolveKind, mappingNotFoundMessage } from '../api/schema/index.ts';
import { matches, parseLabelSelector, SelectorError } from '../api/labels.ts';
import { parseYaml, YamlError } from '../yaml/index.ts';
import { refOf, type CallResult } from '../client/client.ts';
import type { ApiRequest } from '../api/request.ts';
import type { KubectlInvocation } from './kubectl.ts';

// ---------------------------------------------------------------------------
// Errors as kubectl prints them

/** The text `cmdutil.CheckErr` prints for one error: `error: <msg>` unless the message is already a server or connection message. */
function errorLine(message: string): string {
	if (/^(error: |Error from server|The connection to the server |Unable to connect to the server: )/.test(message)) return message;
	return `error: ${message}`;
}

/**
 * What `cmdutil.CheckErr` prints for a list of errors: one error alone
 * with the `error: ` prefix; several (a utilerrors.Aggregate) one per line,
 * each bare (MultipleErrors → messageForError keeps only the server's own
 * `Error from server (...)` wording). Ends with a newline.
 */
export function errorText(messages: readonly string[]): string {
	if (messages.length === 1) return `${errorLine(messages[0])}\n`;
	return messages.map((m) => `${m}\n`).join('');
}

/**
 * kubectl's message for a failed API call (helpers.go StandardErrorMessage):
 * `Error from server (NotFound): pods "x" not found`, `error: You must be
 * logged in to the server (Unauthorized)`, or the connection messages for
 * a transport failure (`The connection to the server <host:port> was
 * refused - did you specify the right host or port?`, `Unable to connect to
 * the server: dial tcp <host:port>: i/o timeout`).
 */
export function apiErrorMessage(result: Extract<CallResult<unknown>, { ok: false }>, serverUrl: string): string {
	if (result.transport) {
		const host = serverUrl.replace(/^[a-z]+:\/\//, '').replace(/\/.*$/, '');
		if (result.reason === 'refused') return `The connection to the server ${host} was refused - did you specify the right host or port?`;
		return `Unable to connect to the server: ${result.message}`;
	}
	if (result.reason === 'Unauthorized') return `error: You must be logged in to the server (${result.message})`;
	if (result.reason) return `Error from server (${result.reason}): ${result.message}`;
	return `Error from server: ${result.message}`;
}

/** Whether a failed call must stop the whole command (nothing else can work): transport failures and 401. */
function isFatal(result: Extract<CallResult<unknown>, { ok: false }>): boolean {
	return result.transport === true || result.reason === 'Unauthorized';
}

// ---------------------------------------------------------------------------
// Resource types (REST mapping)

/** The outcome of resolving a type argument: the resource, or kubectl's (bare) error message. */
type TypeResolution = { ok: true; info: ResourceInfo } | { ok: false; error: string };

/** Resources reachable by type name: everything discovery serves (create-only kinds such as bindings map too; the server then refuses to list them). */
const MAPPABLE: readonly ResourceInfo[] = RESOURCES;

function matchesName(info: ResourceInfo, name: string): boolean {
	return info.resource === name || info.singular === name || info.shortNames.includes(name) || info.kind.toLowerCase() === name;
}

/**
 * builder.ResourceNames(defaultType, arg): a bare NAME is of the default
 * type (`pods` for exec, logs, attach, port-forward, debug), TYPE/NAME names
 * its own (split at the first slash).
 */
export function resolveResourceName(arg: string, defaultType = 'pods'): { ok: true; info: ResourceInfo; name: string } | { ok: false; error: string } {
	const slash = arg.indexOf('/');
	const type = resolveResourceType(slash < 0 ? defaultType : arg.slice(0, slash));
	if (!type.ok) return type;
	return { ok: true, info: type.info, name: slash < 0 ? arg : arg.slice(slash + 1) };
}

/**
 * kubectl's REST mapping of a type argument (`pods`, `pod`, `po`, `Pod`,
 * `deployments.apps`, `deploy.v1.apps`), as builder.go mappingFor does:
 * `TYPE[.VERSION][.GROUP]`, matched case-insensitively against plural,
 * singular and short names, then against kinds. Where two groups serve the
 * same name (core and events.k8s.io `events`) the core group wins, as the
 * discovery mapper's group priority gives. Unknown types give
 * `the server doesn't have a resource type "podz"`, naming the part before
 * the first dot, as upstream does.
 */
export function resolveResourceType(text: string): TypeResolution {
	const arg = text.toLowerCase();
	const dot = arg.indexOf('.');
	const resource = dot < 0 ? arg : arg.slice(0, dot);
	const candidates: Array<{ group: string; version?: string }> = [];
	if (dot < 0) candidates.push({ group: '' });
	else {
		// `resource.version.group` when there are two or more dots (schema.ParseResourceArg), then `resource.group`.
		const rest = arg.slice(dot + 1);
		const second = rest.indexOf('.');
		if (second >= 0) candidates.push({ version: rest.slice(0, second), group: rest.slice(second + 1) });
		candidates.push({ group: rest });
	}
	for (const { group, version } of candidates) {
		const found = MAPPABLE.find((info) => (dot < 0 || info.group === group) && (!version || info.version === version) && matchesName(info, resource));
		if (found) return { ok: true, info: found };
	}
	if (!resource) return { ok: false, error: `the server doesn't have a resource type ""` };
	return { ok: false, error: `the server doesn't have a resource type "${resource}"` };
}

/**
 * The resources in a discovery category (`all`), in discovery order: what
 * the category expander replaces `kubectl get all` with.
 */
function expandCategory(category: string): ResourceInfo[] | undefined {
	const members = MAPPABLE.filter((info) => info.categories?.includes(category));
	return members.length ? members : undefined;
}

/** `pods,services`: split on commas, duplicates dropped (builder.go SplitResourceArgument). */
function splitResourceArgument(arg: string): string[] {
	const out: string[] = [];
	for (const part of arg.split(',')) if (!out.includes(part)) out.push(part);
	return out;
}

/** builder.go ReplaceAliases: a category name becomes its member resources (`pods,services,daemonsets.apps,...`). */
function replaceAliases(input: string): string {
	return input
		.split(',')
		.map((arg) => {
			const members = expandCategory(arg);
			return members ? members.map((m) => (m.group ? `${m.resource}.${m.group}` : m.resource)).join(',') : arg;
		})
		.join(',');
}

// ---------------------------------------------------------------------------
// Manifests (-f)

/** One object read from a manifest file, directory or stdin. */
interface Manifest {
	/** The object as written in the file (a List's items each on their own). */
	object: KubeObject;
	/** Where it came from, as kubectl names it in messages: the path as given (or a file under a directory), or `STDIN`. */
	source: string;
}

/** The outcome of reading `-f` arguments. */
export type ManifestResult = { ok: true; manifests: Manifest[]; /** Whether one plain file was given (not a directory, not stdin): builder singleItemImplied. */ singleSource: boolean } | { ok: false; error: string };

/** The file extensions kubectl reads in a directory (cli-runtime visitor.go FileExtensions). */
const FILE_EXTENSIONS = ['.json', '.yaml', '.yml'];

/**
 * Splits a YAML stream into documents the way apimachinery's YAMLReader
 * does: a line starting with `---` ends a document (only a comment may
 * follow it on that line); the separator line itself belongs to neither.
 * Each chunk is parsed on its own, so error line numbers count from the
 * chunk's first line, as kubectl's do.
 */
function splitDocuments(text: string): { chunks: string[]; error?: string } {
	const chunks: string[] = [];
	let current: string[] = [];
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		if (line.startsWith('---')) {
			const trimmed = line.slice(3).trim();
			if (trimmed.length > 0 && !trimmed.startsWith('#')) return { chunks, error: `invalid Yaml document separator: ${trimmed}` };
			if (current.length) chunks.push(current.join('\n') + '\n');
			current = [];
			continue;
		}
		current.push(line);
	}
	if (current.some((l) => l.length > 0)) chunks.push(current.join('\n'));
	return { chunks };
}

/** Decodes one source's text into JSON-like documents (yaml.NewYAMLOrJSONDecoder), or the `error parsing` message. */
function decodeStream(text: string, source: string): { docs: unknown[]; error?: string } {
	if (/^\s*\{/.test(text)) {
		try {
			return { docs: [JSON.parse(text)] };
		} catch {
			// Not a single JSON value: read it as YAML, which JSON is a subset of.
		}
	}
	const { chunks, error } = splitDocuments(text);
	const docs: unknown[] = [];
	for (const chunk of chunks) {
		try {
			docs.push(parseYaml(chunk));
		} catch (e) {
			if (e instanceof YamlError) return { docs, error: `error parsing ${source}: error converting YAML to JSON: yaml: line ${e.line}: ${e.reason}` };
			throw e;
		}
	}
	if (error) return { docs, error: `error parsing ${source}: ${error}` };
	return { docs };
}

/** The files kubectl visits for a directory: manifest extensions only, sorted as filepath.Walk does; subdirectories only with -R. */
function filesIn(dir: string, names: readonly string[], recursive: boolean): string[] {
	const base = dir.endsWith('/') ? dir : `${dir}/`;
	return names
		.filter((n) => (recursive || !n.includes('/')) && FILE_EXTENSIONS.some((ext) => n.endsWith(ext)))
		.sort()
		.map((n) => `${base}${n}`);
}

/**
 * Reads the objects named by `-f` (files, directories, `-` for stdin,
 * `https://` URLs through ./urls/url-visitor.ts),
 * flattening `kind: List` documents into their items and skipping empty
 * documents, in the order kubectl visits them. Errors are kubectl's whole
 * stderr text: `error: the path "x.yaml" does not exist`,
 * `error: error parsing nginx.yaml: error converting YAML to JSON: yaml:
 * line 7: mapping values are not allowed in this context`,
 * `error: unable to decode "x.yaml": Object 'Kind' is missing in '{...}'`.
 * Reads the `filename` and `recursive` flags.
 */
export function readManifests(invocation: Pick<KubectlInvocation, 'args' | 'env' | 'stdin'>, options: { validate?: boolean } = {}): ManifestResult {
	const paths = (invocation.args.flags.filename as string[] | undefined) ?? [];
	const recursive = invocation.args.flags.recursive === true;
	const errors: string[] = [];
	const sources: Array<{ source: string; text: string }> = [];
	let stdinUsed = false;
	let sawDir = false;
	for (const path of paths) {
		if (path === '-') {
			if (stdinUsed) return { ok: false, error: errorText(['standard input cannot be used for multiple arguments']) };
			stdinUsed = true;
			sources.push({ source: 'STDIN', text: invocation.stdin });
			continue;
		}
		if (isUrl(path)) {
			const fetched = readUrl(path);
			if (!fetched.ok) return { ok: false, error: errorText([fetched.error]) };
			sources.push({ source: path, text: fetched.text });
			continue;
		}
		const text = invocation.env.readFile(path);
		if (text !== undefined) {
			sources.push({ source: path, text });
			continue;
		}
		const names = invocation.env.listDir?.(path);
		if (names === undefined) {
			errors.push(`the path "${path}" does not exist`);
			continue;
		}
		sawDir = true;
		const files = filesIn(path, names, recursive);
		if (files.length === 0) {
			errors.push(`error reading [${path}]: recognized file extensions are [${FILE_EXTENSIONS.join(' ')}]`);
			continue;
		}
		for (const file of files) sources.push({ source: file, text: invocation.env.readFile(file) ?? '' });
	}
	if (errors.length) return { ok: false, error: errorText(errors) };
	const manifests: Manifest[] = [];
	for (const { source, text } of sources) {
		const { docs, error } = decodeStream(text, source);
		for (const doc of docs) {
			if (doc === null || doc === undefined) continue;
			const problem = collect(doc, source, manifests, 0, options.validate === true);
			if (problem) return { ok: false, error: errorText([problem]) };
		}
		if (error) return { ok: false, error: errorText([error]) };
	}
	return { ok: true, manifests, singleSource: !stdinUsed && !sawDir && sources.length === 1 };
}

/** Adds a decoded document (a List's items recursively, bounded) to `out`; returns a decode error if it is not an object with a kind. */
function collect(doc: unknown, source: string, out: Manifest[], depth: number, validate = false): string | undefined {
	// With --validate (apply, create, replace), the schema check runs before decoding (StreamVisitor ValidateSchema).
	if (validate) {
		const checked = readTypeMeta(doc, { validate: true });
		if (checked.error !== undefined) return `error validating ${JSON.stringify(source)}: ${checked.error}`;
	}
	const meta = readTypeMeta(doc, { validate: false });
	if (meta.error !== undefined) return `unable to decode "${source}": ${meta.error}`;
	const obj = doc as KubeObject;
	// FlattenListVisitor expands nested lists too; eight levels bound a hostile manifest.
	if (meta.kind.endsWith('List') && Array.isArray(obj.items) && depth < 8) {
		for (const item of obj.items as unknown[]) {
			const problem = collect(item, source, out, depth + 1, validate);
			if (problem) return problem;
		}
		return undefined;
	}
	obj.metadata ??= {};
	out.push({ object: obj, source });
	return undefined;
}

// ---------------------------------------------------------------------------
// Targets

/** One thing a command will visit: a named object, a list (with selectors), or an object named by a manifest. */
export interface ResourceTarget {
	/** The resource type. */
	info: ResourceInfo;
	/** The namespace to act in; undefined for cluster-scoped resources and for lists across all namespaces. */
	namespace: string | undefined;
	/** The object's name (by argument or manifest); absent for a list. */
	name?: string;
	/** For lists: the label selector to send (`''` selects everything). For manifests: a filter applied to the live objects. */
	labelSelector?: string;
	/** For lists: the field selector to send. */
	fieldSelector?: string;
	/** For `-f`: the manifest this target came from (its namespace already defaulted). */
	manifest?: Manifest;
}

/** What parseResourceArgs found. */
export interface ParsedResourceArgs {
	/** The targets, in the order kubectl visits them. */
	targets: ResourceTarget[];
	/** kubectl's whole stderr text when the arguments are rejected; nothing must be done then. */
	error?: string;
	/** builder singleItemImplied: exactly one object was named (`pod/x`, `pod x`, one file), so `-o yaml` prints it bare rather than as a List. */
	singleItemImplied: boolean;
	/** `-A`: lists span every namespace. */
	allNamespaces: boolean;
	/** The namespace in effect (-n, else the kubeconfig's). */
	namespace: string;
}

/** How a command uses the builder. */
export interface ResourceArgsOptions {
	/**
	 * ResourceTypeOrNameArgs(allowEmptySelector): true for get/describe, where
	 * a bare type lists everything; false for delete/label..., where it is
	 * `error: resource(s) were provided, but no name was specified`.
	 */
	allowEmptySelector: boolean;
	/** SingleResourceType(): several types are `error: you may only specify a single resource type` (get -w, rollout, scale). */
	singleResourceType?: boolean;
	/** Positional arguments to read (default: all of the invocation's). */
	args?: string[];
	/** Whether -f may be used (default true). */
	allowFilenames?: boolean;
}

interface Tuple {
	resource: string;
	name: string;
}

/**
 * Resolves a command's resource arguments and flags into targets, as
 * cli-runtime's Builder does with NamespaceParam().DefaultNamespace()
 * .AllNamespaces(-A).FilenameParam(explicit -n, -f/-R).LabelSelectorParam(-l)
 * .FieldSelectorParam(--field-selector).SelectAllParam(--all)
 * .ResourceTypeOrNameArgs(allowEmptySelector, args...). Reads the flags
 * `filename`, `recursive`, `selector`, `field-selector`, `all` and
 * `all-namespaces` when the command declares them. Errors are kubectl's,
 * e.g. `error: the server doesn't have a resource type "podz"`,
 * `error: there is no need to specify a resource type as a separate argument
 * when passing arguments in resource/name form (e.g. 'kubectl get
 * resource/<resource_name>' instead of 'kubectl get resource
 * resource/<resource_name>'`, `error: resource(s) were provided, but no name
 * was specified`, `error: a resource cannot be retrieved by name across all
 * namespaces`.
 */
export function parseResourceArgs(invocation: Pick<KubectlInvocation, 'args' | 'env' | 'stdin' | 'namespace'>, options: ResourceArgsOptions): ParsedResourceArgs {
	const flags = invocation.args.flags;
	const allNamespaces = flags['all-namespaces'] === true;
	// AllNamespaces() clears the namespace for lists; explicit -n then no longer constrains manifests.
	const namespace = invocation.namespace;
	const explicitNamespace = invocation.args.set.has('namespace') && !allNamespaces;
	const result = (targets: ResourceTarget[], singleItemImplied = false): ParsedResourceArgs => ({ targets, singleItemImplied, allNamespaces, namespace });
	const failed = (messages: string[]): ParsedResourceArgs => ({ ...result([]), error: errorText(messages) });

	const errs: string[] = [];
	let labelSelector: string | undefined = typeof flags.selector === 'string' && flags.selector.trim() ? flags.selector.trim() : undefined;
	const fieldSelector: string | undefined = typeof flags['field-selector'] === 'string' && flags['field-selector'].trim() ? flags['field-selector'].trim() : undefined;
	const selectAll = flags.all === true;
	if (selectAll && (labelSelector !== undefined || fieldSelector !== undefined)) errs.push("setting 'all' parameter but found a non empty selector. ");

	// FilenameParam.
	const filenames = (flags.filename as string[] | undefined) ?? [];
	let manifests: ManifestResult | undefined;
	if (filenames.length && options.allowFilenames !== false) {
		manifests = readManifests(invocation);
		if (!manifests.ok) return { ...result([]), error: manifests.error };
	}

	// ResourceTypeOrNameArgs.
	let args = [...(options.args ?? invocation.args.positionals)];
	const resources: string[] = [];
	const names: string[] = [];
	const tuples: Tuple[] = [];
	// normalizeMultipleResourcesArgs: `pods,svc a b` → `pods/a pods/b svc/a svc/b`.
	if (args.length >= 2) {
		const types = splitResourceArgument(args[0]);
		if (types.length > 1) args = types.flatMap((t) => args.slice(1).map((n) => `${t}/${n}`));
	}
	const slashed = args.filter((a) => a.includes('/')).length;
	if (slashed > 0 && slashed !== args.length) {
		errs.push(
			"there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'",
		);
	} else if (slashed > 0) {
		for (const arg of args) {
			const seg = arg.split('/');
			if (seg.length !== 2) {
				errs.push('arguments in resource/name form may not have more than one slash');
				break;
			}
			if (!seg[0] || !seg[1] || splitResourceArgument(seg[0]).length !== 1) {
				errs.push('arguments in resource/name form must have a single resource and name');
				break;
			}
			tuples.push({ resource: seg[0], name: seg[1] });
		}
	} else if (args.length > 0) {
		const types = splitResourceArgument(replaceAliases(args[0]));
		resources.push(...types);
		names.push(...args.slice(1));
		if (args.length === 1 && labelSelector === undefined && options.allowEmptySelector) labelSelector = '';
	}

	if (errs.length) return failed(errs);
	if (selectAll) labelSelector = '';

	// visitorResult, in upstream's order of precedence.
	if (manifests?.ok) {
		if (resources.length) return failed(['when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well']);
		if (names.length) return failed(['name cannot be provided when a path is specified']);
		if (tuples.length) return failed(['resource/name arguments cannot be provided when a path is specified']);
		const targets: ResourceTarget[] = [];
		for (const manifest of manifests.manifests) {
			const meta = readTypeMeta(manifest.object, { validate: false });
			const apiVersion = meta.error === undefined ? meta.apiVersion : '';
			const kind = meta.error === undefined ? meta.kind : '';
			const mapped = resolveKind(apiVersion, kind);
			const info = mapped.resource ? resourceByName(mapped.resource.group, mapped.resource.name) : undefined;
			if (!info) return failed([mappingNotFoundMessage(mapped.error ?? `no matches for kind "${kind}" in version "${apiVersion}"`, manifest.object.metadata.name ?? '', manifest.object.metadata.namespace ?? '', manifest.source)]);
			let targetNamespace: string | undefined;
			if (info.namespaced) {
				const own = manifest.object.metadata.namespace;
				if (own && explicitNamespace && own !== namespace) {
					return failed([`the namespace from the provided object "${own}" does not match the namespace "${namespace}". You must pass '--namespace=${own}' to perform this operation.`]);
				}
				targetNamespace = own || namespace;
				manifest.object.metadata.namespace = targetNamespace;
			}
			const target: ResourceTarget = { info, namespace: targetNamespace, name: manifest.object.metadata.name ?? '', manifest };
			if (labelSelector) target.labelSelector = labelSelector;
			targets.push(target);
		}
		return result(targets, manifests.singleSource);
	}

	if (labelSelector !== undefined || fieldSelector !== undefined) {
		if (names.length) return failed(['name cannot be provided when a selector is specified']);
		if (tuples.length) return failed(['selectors and the all flag cannot be used when passing resource/name arguments']);
		if (!resources.length) return failed(['at least one resource must be specified to use a selector']);
		if (resources.length > 1 && options.singleResourceType) return failed(['you may only specify a single resource type']);
		const infos: ResourceInfo[] = [];
		for (const r of resources) {
			const resolved = resolveResourceType(r);
			if (!resolved.ok) return failed([resolved.error]);
			if (!infos.includes(resolved.info)) infos.push(resolved.info);
		}
		return result(
			infos.map((info) => {
				const target: ResourceTarget = { info, namespace: info.namespaced && !allNamespaces ? namespace : undefined };
				if (labelSelector !== undefined) target.labelSelector = labelSelector;
				if (fieldSelector !== undefined) target.fieldSelector = fieldSelector;
				return target;
			}),
		);
	}

	if (tuples.length) {
		if (resources.length) return failed(['you may not specify individual resources and bulk resources in the same call']);
		const mapped = new Map<string, ResourceInfo>();
		for (const t of tuples) {
			if (mapped.has(t.resource)) continue;
			const resolved = resolveResourceType(t.resource);
			if (!resolved.ok) return failed([resolved.error]);
			mapped.set(t.resource, resolved.info);
		}
		if (new Set(mapped.values()).size > 1 && options.singleResourceType) return failed(['you may only specify a single resource type']);
		const targets: ResourceTarget[] = [];
		for (const t of tuples) {
			const info = mapped.get(t.resource) as ResourceInfo;
			if (info.namespaced && allNamespaces) return failed(['a resource cannot be retrieved by name across all namespaces']);
			targets.push({ info, namespace: info.namespaced ? namespace : undefined, name: t.name });
		}
		return result(targets, tuples.length === 1);
	}

	if (names.length) {
		if (!resources.length) return failed(['you must provide a resource and a resource name together']);
		if (resources.length > 1) return failed(['you must specify only one resource']);
		const resolved = resolveResourceType(resources[0]);
		if (!resolved.ok) return failed([resolved.error]);
		const info = resolved.info;
		if (info.namespaced && allNamespaces) return failed(['a resource cannot be retrieved by name across all namespaces']);
		return result(
			names.map((name) => ({ info, namespace: info.namespaced ? namespace : undefined, name })),
			names.length === 1,
		);
	}

	if (resources.length) {
		for (const r of resources) {
			const resolved = resolveResourceType(r);
			if (!resolved.ok) return failed([resolved.error]);
		}
		return failed(['resource(s) were provided, but no name was specified']);
	}
	return failed([
		"You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'",
	]);
}

// ---------------------------------------------------------------------------
// Visiting targets

/** The objects one target gave, with apiVersion and kind set (list items come without them on the wire). */
interface FetchedTarget {
	target: ResourceTarget;
	objects: KubeObject[];
	/** For lists: the list's resourceVersion (where a watch starts). */
	resourceVersion?: string;
}

/** What visiting the targets gave. */
interface FetchResult {
	/** One entry per target that answered, in order. */
	fetched: FetchedTarget[];
	/** Per-object errors, as kubectl prints them (`Error from server (NotFound): pods "x" not found`), in order. */
	errors: string[];
	/** Server warnings, each once (kubectl's warning handler deduplicates), to print as `Warning: <text>`. */
	warnings: string[];
	/** A failure that ends the command (connection refused, 401): its whole message. */
	fatal?: string;
}

/** An object of a typed list, with the TypeMeta its list stripped (what the unstructured list flattening gives each item). */
export function withTypeMeta(info: ResourceInfo, obj: KubeObject): KubeObject {
	const { apiVersion, kind, ...rest } = obj as Partial<KubeObject>;
	return { apiVersion: apiVersion || groupVersion(info), kind: kind || info.kind, ...rest } as KubeObject;
}

/**
 * A LIST in pages of `chunkSize` (Builder.RequestChunksOf: kubectl's
 * DefaultChunkSize is 500, 0 turns paging off), following each page's
 * continue token until the server gives none, joined into one list with the
 * first page's resourceVersion (every page shares its snapshot).
 */
export function listInChunks(client: KubectlInvocation['client'], ref: ReturnType<typeof refOf>, namespace: string | undefined, query: NonNullable<ApiRequest['query']>, chunkSize: number): CallResult<KubeList> {
	const page: NonNullable<ApiRequest['query']> = chunkSize > 0 ? { ...query, limit: chunkSize } : { ...query };
	let joined: (CallResult<KubeList> & { ok: true }) | undefined;
	const warnings: string[] = [];
	for (;;) {
		const listed = client.list(ref, namespace, page);
		if (!listed.ok) return listed;
		for (const w of listed.warnings ?? []) if (!warnings.includes(w)) warnings.push(w);
		const items = listed.object.items ?? [];
		if (!joined) joined = { ...listed, object: { ...listed.object, metadata: { resourceVersion: listed.object.metadata?.resourceVersion }, items: [...items] } };
		else joined.object.items.push(...items);
		const next = listed.object.metadata?.continue;
		if (!next) break;
		page.continue = next;
	}
	if (warnings.length) joined.warnings = warnings;
	return joined;
}

/**
 * Fetches every target, continuing past per-object errors as `kubectl get`
 * and `describe` do (ContinueOnError): named objects with GET, lists with
 * LIST and their selectors, manifest objects with GET (RetrieveLatest),
 * filtered by `-l` if given. `ignoreNotFound` drops NotFound errors
 * (`--ignore-not-found`).
 */
export function fetchTargets(invocation: Pick<KubectlInvocation, 'client' | 'env'>, targets: readonly ResourceTarget[], options: { ignoreNotFound?: boolean; chunkSize?: number } = {}): FetchResult {
	const out: FetchResult = { fetched: [], errors: [], warnings: [] };
	const warn = (warnings: string[] | undefined) => {
		for (const w of warnings ?? []) if (!out.warnings.includes(w)) out.warnings.push(w);
	};
	for (const target of targets) {
		const ref = refOf(target.info);
		if (target.manifest && !target.name) {
			// RetrieveLatest leaves an object without a name (generateName) as the file wrote it.
			out.fetched.push({ target, objects: [target.manifest.object] });
			continue;
		}
		if (target.name !== undefined) {
			const got = invocation.client.get(ref, target.namespace, target.name);
			if (!got.ok) {
				if (isFatal(got)) return { ...out, fatal: apiErrorMessage(got, invocation.env.serverUrl) };
				if (!(options.ignoreNotFound && got.code === 404)) out.errors.push(apiErrorMessage(got, invocation.env.serverUrl));
				continue;
			}
			warn(got.warnings);
			const obj = withTypeMeta(target.info, got.object);
			if (target.manifest && target.labelSelector) {
				try {
					if (!matches(parseLabelSelector(target.labelSelector), obj.metadata.labels)) continue;
				} catch (e) {
					if (e instanceof SelectorError) return { ...out, fatal: errorText([`the provided selector "${target.labelSelector}" is not valid: ${e.message}`]).trimEnd() };
					throw e;
				}
			}
			out.fetched.push({ target, objects: [obj] });
			continue;
		}
		const query: { labelSelector?: string; fieldSelector?: string } = {};
		if (target.labelSelector) query.labelSelector = target.labelSelector;
		if (target.fieldSelector) query.fieldSelector = target.fieldSelector;
		const listed = listInChunks(invocation.client, ref, target.namespace, query, options.chunkSize ?? 0);
		if (!listed.ok) {
			if (isFatal(listed)) return { ...out, fatal: apiErrorMessage(listed, invocation.env.serverUrl) };
			out.errors.push(apiErrorMessage(listed, invocation.env.serverUrl));
			continue;
		}
		warn(listed.warnings);
		out.fetched.push({ target, objects: listed.object.items.map((item) => withTypeMeta(target.info, item)), resourceVersion: listed.object.metadata.resourceVersion });
	}
	return out;
}

/** `Warning: <text>` lines for server warnings (client-go's warning writer). */
export function warningText(warnings: readonly string[]): string {
	return warnings.map((w) => `Warning: ${w}\n`).join('');
}
