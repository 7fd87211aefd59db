/**
 * `kubectl apply -f <file|dir|->`: client-side apply, kubectl's default.
 * For each object of the manifests, in file order: if it does not exist,
 * create it carrying the `kubectl.kubernetes.io/last-applied-configuration`
 * annotation; if it does, compute the three-way strategic merge patch from
 * that annotation, the manifest and the live object and PATCH it; print
 * `created`, `configured` or `unchanged`. Requests carry
 * `fieldValidation=Strict` (`--validate=strict`, the default), so a
 * misspelt field fails as the server words it. Errors do not stop the
 * other objects; they are printed at the end.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go
 * (applyOneObject), staging/src/k8s.io/kubectl/pkg/cmd/apply/patcher.go,
 * staging/src/k8s.io/kubectl/pkg/util/apply.go.
 */
import { LAST_APPLIED_SUBCOMMANDS } from './apply-last-applied.ts';
import { LAST_APPLIED_ANNOTATION, modifiedConfiguration } from './last-applied.ts';
import { parentHelp } from './help.ts';
import { argsAfterCommand, runSubcommand } from './subcommand.ts';
import type { KubeObject } from '../../api/types.ts';
import { compactJson, isJsonObject, type JsonObject, type JsonValue } from '../../golang/json.ts';
import { readTypeMeta, resolveKind, mappingNotFoundMessage } from '../../api/schema/index.ts';
import { resourceByName } from '../../api/resources.ts';
import { matches, parseLabelSelector, SelectorError } from '../../api/labels.ts';
import { applyPatch } from '../../api/patch.ts';
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { readManifests } from '../resource-args.ts';
import { addSourceToErr, callError, checkErr, plain, usageError, warningLines, type KubectlError } from './check-err.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, VALIDATE_FLAG, dryRunStrategy, printsObject, toPrinter, validationDirective, type DryRunStrategy } from './print-flags.ts';
import { infoString, isFatalCall, objectName, requestUrl, typed, type TargetInfo } from './resource-info.ts';
import { deepCopy } from '../../golang/json.ts';
import { createThreeWayMergePatch } from './three-way-merge.ts';

export { LAST_APPLIED_ANNOTATION };

/** How many times apply re-reads and re-patches after a 409 Conflict (patcher.go maxPatchRetry). */
const MAX_PATCH_RETRY = 5;

/** apply.go pruneNulls: nulls are dropped before a create, as an update would drop them. */
function pruneNulls(value: JsonValue): void {
	if (Array.isArray(value)) for (const item of value) pruneNulls(item);
	else if (isJsonObject(value))
		for (const key of Object.keys(value)) {
			if (value[key] === null) delete value[key];
			else pruneNulls(value[key]);
		}
}

/** `Warning: resource ... is missing the ... annotation` (apply.go warningNoLastAppliedConfigAnnotation). */
function missingAnnotationWarning(target: TargetInfo): string {
	return `Warning: resource ${objectName(target)} is missing the ${LAST_APPLIED_ANNOTATION} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n`;
}

export interface ApplyContext {
	inv: KubectlInvocation;
	dryRun: DryRunStrategy;
	validation: 'Strict' | 'Warn' | 'Ignore';
	fieldManager: string;
	stdout: string;
	stderr: string;
	/** Objects to print at the end with -o yaml/json. */
	printed: KubeObject[];
	/** A failure that ends the command at once (no connection, 401). */
	fatal?: KubectlError;
}

/** The query every write of apply carries. */
function writeQuery(ctx: ApplyContext): NonNullable<import('../../api/request.ts').ApiRequest['query']> {
	const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: ctx.fieldManager, fieldValidation: ctx.validation };
	if (ctx.dryRun === 'server') query.dryRun = 'All';
	return query;
}

/** Applies one object; returns its error, if any (applyOneObject). */
export function applyOne(ctx: ApplyContext, target: TargetInfo, print: (obj: KubeObject, operation: string) => void): KubectlError | undefined {
	const { inv } = ctx;
	const manifest = target.object as KubeObject;
	const ref = refOf(target.info);
	if (!target.name) {
		if (manifest.metadata.generateName) return plain(`from ${manifest.metadata.generateName}: cannot use generate name with apply`);
		return addSourceToErr(`retrieving current configuration of:\n${infoString(target)}\nfrom server for:`, target.source, plain('resource name may not be empty'));
	}
	const modified = modifiedConfiguration(manifest, true);
	const current = inv.client.get(ref, target.namespace, target.name);
	if (!current.ok) {
		if (isFatalCall(current)) {
			ctx.fatal = callError(current, inv.env.serverUrl);
			return undefined;
		}
		if (current.code !== 404) {
			return addSourceToErr(`retrieving current configuration of:\n${infoString(target)}\nfrom server for:`, target.source, callError(current, inv.env.serverUrl));
		}
		// Create, with the annotation holding the manifest (CreateApplyAnnotation), nulls pruned.
		const toCreate = deepCopy(manifest);
		toCreate.metadata.annotations = { ...(toCreate.metadata.annotations ?? {}), [LAST_APPLIED_ANNOTATION]: modifiedConfiguration(manifest, false).json };
		pruneNulls(toCreate as unknown as JsonValue);
		let result = toCreate;
		if (ctx.dryRun !== 'client') {
			const query = writeQuery(ctx);
			const created = inv.client.create(ref, target.namespace, toCreate, query);
			if (!created.ok) {
				if (isFatalCall(created)) {
					ctx.fatal = callError(created, inv.env.serverUrl, { method: 'Post', url: requestUrl(inv.env.serverUrl, { ...ref, namespace: target.namespace, query }) });
					return undefined;
				}
				ctx.stderr += warningLines(created.warnings);
				return addSourceToErr('creating', target.source, callError(created, inv.env.serverUrl));
			}
			ctx.stderr += warningLines(created.warnings);
			result = typed(target.info, created.object);
		}
		print(result, 'created');
		return undefined;
	}
	let live = typed(target.info, current.object);
	if (!(live.metadata.annotations ?? {})[LAST_APPLIED_ANNOTATION]) ctx.stderr += missingAnnotationWarning(target);
	const modifiedObject = JSON.parse(modified.json) as JsonObject;
	let patch: JsonObject = {};
	let patched: KubeObject = live;
	for (let attempt = 0; ; attempt++) {
		const originalText = (live.metadata.annotations ?? {})[LAST_APPLIED_ANNOTATION];
		let original: JsonObject | undefined;
		if (originalText) {
			try {
				const parsed = JSON.parse(originalText) as JsonValue;
				original = isJsonObject(parsed) ? parsed : undefined;
			} catch {
				return plain(`retrieving original configuration from:\n${infoString(target)}\nfor: unexpected end of JSON input`);
			}
		}
		patch = createThreeWayMergePatch(original, modifiedObject, live as unknown as JsonObject, target.info.kind);
		if (Object.keys(patch).length === 0) break;
		if (ctx.dryRun === 'client') {
			const local = applyPatch(live, patch, 'application/strategic-merge-patch+json', target.info.kind);
			if ('error' in local) return plain(`applying patch locally: ${local.error}`);
			patched = local.value as KubeObject;
			break;
		}
		const query = writeQuery(ctx);
		const result = inv.client.patch(ref, target.namespace, target.name, patch, 'application/strategic-merge-patch+json', undefined, query);
		if (result.ok) {
			ctx.stderr += warningLines(result.warnings);
			patched = typed(target.info, result.object);
			break;
		}
		if (isFatalCall(result)) {
			ctx.fatal = callError(result, inv.env.serverUrl, { method: 'Patch', url: requestUrl(inv.env.serverUrl, { ...ref, namespace: target.namespace, name: target.name, query }) });
			return undefined;
		}
		ctx.stderr += warningLines(result.warnings);
		if (result.code === 409 && attempt < MAX_PATCH_RETRY) {
			// Someone wrote in between: read the object again and recompute the patch.
			const again = inv.client.get(ref, target.namespace, target.name);
			if (!again.ok) return callError(again, inv.env.serverUrl);
			live = typed(target.info, again.object);
			continue;
		}
		const failed = addSourceToErr('patching', target.source, callError(result, inv.env.serverUrl));
		return addSourceToErr(`applying patch:\n${compactJson(patch)}\nto:\n${infoString(target)}\nfor:`, target.source, failed);
	}
	if (patched.metadata.deletionTimestamp) ctx.stderr += `Warning: Detected changes to resource ${target.name} which is currently being deleted.\n`;
	print(patched, Object.keys(patch).length === 0 ? 'unchanged' : 'configured');
	return undefined;
}

/** kubectl's field manager for server-side apply, and for the annotation it keeps when none is set. */
export const SSA_FIELD_MANAGER = 'kubectl';
const LAST_APPLIED_FIELD_MANAGER = 'kubectl-last-applied';
const CSA_FIELD_MANAGER = 'kubectl-client-side-apply';

/** What kubectl adds to a server-side apply's conflict error (apply.go). */
const CONFLICT_ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts`;

/**
 * Server-side apply of one object (applyOneObject's ServerSide branch): the
 * whole manifest as an apply patch; then, if the object was client-side
 * applied before, its client-side manager's fields handed to this manager
 * (csaupgrade) and the last-applied annotation kept under a manager of its
 * own, so a later client-side apply still finds it.
 */
export function applyServerSide(ctx: ApplyContext, target: TargetInfo, print: (obj: KubeObject, operation: string) => void, options: { force: boolean; subresource?: string }): KubectlError | undefined {
	const { inv } = ctx;
	const ref = refOf(target.info);
	if (!target.name) return addSourceToErr(`retrieving current configuration of:\n${infoString(target)}\nfrom server for:`, target.source, plain('resource name may not be empty'));
	const query = writeQuery(ctx);
	if (options.force) query.force = true;
	const body = deepCopy(target.object as KubeObject);
	const result = inv.client.patch(ref, target.namespace, target.name, body, 'application/apply-patch+yaml', options.subresource, query);
	if (!result.ok) {
		if (isFatalCall(result)) {
			ctx.fatal = callError(result, inv.env.serverUrl, { method: 'Patch', url: requestUrl(inv.env.serverUrl, { ...ref, namespace: target.namespace, name: target.name, query }) });
			return undefined;
		}
		ctx.stderr += warningLines(result.warnings);
		const failed = callError(result, inv.env.serverUrl);
		// apply.go wraps the conflict with fmt.Errorf, so it prints as `error: Apply failed ...`, not `Error from server`.
		if (result.code === 409 && failed.kind === 'status') return plain(`${failed.message}\n${CONFLICT_ADVICE}`);
		return failed;
	}
	ctx.stderr += warningLines(result.warnings);
	let applied = typed(target.info, result.object);
	if (ctx.dryRun !== 'server') {
		applied = migrateFromClientSideApply(ctx, target, applied);
		applied = keepLastAppliedAnnotation(ctx, target, applied);
	}
	if (applied.metadata.deletionTimestamp) ctx.stderr += `Warning: Detected changes to resource ${target.name} which is currently being deleted.\n`;
	print(applied, 'serverside-applied');
	return undefined;
}

/**
 * csaupgrade.UpgradeManagedFieldsPatch: the client-side apply manager's
 * Update entry folded into this manager's Apply entry and dropped, sent as
 * a JSON patch guarded by the resourceVersion.
 */
function migrateFromClientSideApply(ctx: ApplyContext, target: TargetInfo, live: KubeObject): KubeObject {
	const entries = live.metadata.managedFields ?? [];
	const isCsa = (e: NonNullable<typeof live.metadata.managedFields>[number]) => e.manager === CSA_FIELD_MANAGER && e.operation === 'Update' && !e.subresource;
	const csa = entries.filter(isCsa);
	if (!csa.length) return live;
	const mine = entries.find((e) => e.manager === ctx.fieldManager && e.operation === 'Apply' && !e.subresource);
	if (!mine) return live;
	const merged = { ...mine, fieldsV1: csa.reduce((acc, e) => unionFieldsV1(acc, e.fieldsV1 ?? {}), mine.fieldsV1 ?? {}) };
	const upgraded = entries.filter((e) => !isCsa(e)).map((e) => (e === mine ? merged : e));
	const patch = [
		{ op: 'replace', path: '/metadata/managedFields', value: upgraded },
		{ op: 'replace', path: '/metadata/resourceVersion', value: live.metadata.resourceVersion },
	];
	const result = ctx.inv.client.patch(refOf(target.info), target.namespace, target.name!, patch, 'application/json-patch+json');
	return result.ok ? typed(target.info, result.object) : live;
}

/** Two FieldsV1 trees as one. */
function unionFieldsV1(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...a };
	for (const [key, value] of Object.entries(b)) {
		out[key] = key in out ? unionFieldsV1((out[key] ?? {}) as Record<string, unknown>, (value ?? {}) as Record<string, unknown>) : value;
	}
	return Object.fromEntries(Object.entries(out).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/**
 * saveLastApplyAnnotationIfNecessary: with kubectl's own manager, an
 * object that carries the last-applied annotation nobody applies gets it
 * applied by `kubectl-last-applied`, so server-side apply does not orphan it.
 */
function keepLastAppliedAnnotation(ctx: ApplyContext, target: TargetInfo, live: KubeObject): KubeObject {
	if (ctx.fieldManager !== SSA_FIELD_MANAGER) return live;
	const annotation = live.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
	if (annotation === undefined) return live;
	const owned = (live.metadata.managedFields ?? []).some((e) => e.operation === 'Apply' && Object.hasOwn(((e.fieldsV1?.['f:metadata'] as Record<string, unknown> | undefined)?.['f:annotations'] ?? {}) as object, `f:${LAST_APPLIED_ANNOTATION}`));
	if (owned) return live;
	const justAnnotation = { apiVersion: live.apiVersion, kind: live.kind, metadata: { name: live.metadata.name, ...(live.metadata.namespace ? { namespace: live.metadata.namespace } : {}), annotations: { [LAST_APPLIED_ANNOTATION]: annotation } } };
	const result = ctx.inv.client.patch(refOf(target.info), target.namespace, target.name!, justAnnotation, 'application/apply-patch+yaml', undefined, { fieldManager: LAST_APPLIED_FIELD_MANAGER });
	return result.ok ? typed(target.info, result.object) : live;
}

/** Reads the manifests and maps each to its resource, continuing past per-object errors (the builder with ContinueOnError). */
export function collectTargets(inv: KubectlInvocation, validate: boolean): { targets: TargetInfo[]; errors: KubectlError[] } | { stderr: string } {
	const read = readManifests(inv, { validate });
	if (!read.ok) return { stderr: read.error };
	const explicitNamespace = inv.args.set.has('namespace');
	const selectorText = String(inv.args.flags.selector ?? '');
	let selector: ReturnType<typeof parseLabelSelector> | undefined;
	if (selectorText) {
		try {
			selector = parseLabelSelector(selectorText);
		} catch (error) {
			if (error instanceof SelectorError) return { stderr: `error: ${error.message}\n` };
			throw error;
		}
	}
	const targets: TargetInfo[] = [];
	const errors: KubectlError[] = [];
	for (const manifest of read.manifests) {
		const obj = manifest.object;
		if (validate) {
			const meta = readTypeMeta(obj, { validate: true });
			if (meta.error !== undefined) {
				errors.push(plain(`error validating ${JSON.stringify(manifest.source)}: ${meta.error}`));
				continue;
			}
		}
		const meta = readTypeMeta(obj, { validate: false });
		const apiVersion = meta.error === undefined ? meta.apiVersion : '';
		const kind = meta.error === undefined ? meta.kind : '';
		const mapped = resolveKind(apiVersion, kind);
		const info = mapped.resource ? resourceByName(mapped.resource.group, mapped.resource.name) : undefined;
		if (!info) {
			errors.push(plain(mappingNotFoundMessage(mapped.error ?? `no matches for kind "${kind}" in version "${apiVersion}"`, obj.metadata?.name ?? '', obj.metadata?.namespace ?? '', manifest.source)));
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
		if (selector && !matches(selector, obj.metadata.labels)) continue;
		targets.push({ info, namespace, name: obj.metadata.name ?? '', source: manifest.source, object: obj });
	}
	return { targets, errors };
}

function run(inv: KubectlInvocation): ReturnType<KubectlCommand['run']> {
	const { args } = inv;
	const sub = runSubcommand(inv, 'kubectl apply', argsAfterCommand(inv, applyCommand.flags), applyCommand.flags, LAST_APPLIED_SUBCOMMANDS);
	if (sub) return sub;
	if (args.flags.help === true) return { stdout: parentHelp('kubectl apply', { long: `${applyCommand.summary}.`, usage: applyCommand.usage }, LAST_APPLIED_SUBCOMMANDS), stderr: '', exitCode: 0 };
	if (args.positionals.length) return checkErr(usageError('kubectl apply', `Unexpected args: [${args.positionals.join(' ')}]`));
	const serverSide = args.flags['server-side'] === true;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const filenames = (args.flags.filename as string[]) ?? [];
	const kustomize = String(args.flags.kustomize ?? '');
	if (filenames.length === 0 && !kustomize) return checkErr(plain('must specify one of -f and -k'), '', dry.stderr);
	if (filenames.length && kustomize) return checkErr(plain('only one of -f or -k can be specified'), '', dry.stderr);
	const validation = validationDirective(args);
	if ('error' in validation) return checkErr(validation.error, '', dry.stderr);
	// ApplyOptions.Validate, in upstream's order.
	if (args.flags['force-conflicts'] === true && !serverSide) return checkErr(plain('--force-conflicts only works with --server-side'), '', dry.stderr);
	if (dry.strategy === 'client' && serverSide) return checkErr(plain("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)"), '', dry.stderr);
	if (serverSide && args.flags.force === true) return checkErr(plain('--force cannot be used with --server-side'), '', dry.stderr);
	if (dry.strategy === 'server' && args.flags.force === true) return checkErr(plain('--dry-run=server cannot be used with --force'), '', dry.stderr);
	if (args.flags.all === true && args.flags.selector) return checkErr(plain('cannot set --all and --selector at the same time'), '', dry.stderr);
	if (args.flags.subresource && !serverSide) return checkErr(plain('--subresource can only be specified for --server-side'), '', dry.stderr);
	if (args.flags.prune === true) return checkErr(plain('--prune is not supported by this simulated kubectl'), '', dry.stderr);
	const subresource = String(args.flags.subresource ?? '');
	if (subresource && subresource !== 'status' && subresource !== 'scale') return checkErr(plain(`invalid subresource value: ${JSON.stringify(subresource)}. Must be one of [status scale]`), '', dry.stderr);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);

	const collected = collectTargets(inv, validation.directive !== 'Ignore');
	if ('stderr' in collected) return { stdout: '', stderr: dry.stderr + collected.stderr, exitCode: 1 };
	if (collected.targets.length === 0 && collected.errors.length === 0) return checkErr(plain('no objects passed to apply'), '', dry.stderr);
	// The flag's default names the client-side manager; server-side apply uses `kubectl` unless the flag is set (GetServerSideFieldManager).
	const fieldManager = serverSide && !args.set.has('field-manager') ? SSA_FIELD_MANAGER : String(args.flags['field-manager'] || CSA_FIELD_MANAGER);
	const ctx: ApplyContext = { inv, dryRun: dry.strategy, validation: validation.directive, fieldManager, stdout: '', stderr: dry.stderr, printed: [] };
	const showObjects = printsObject(args);
	const print = (obj: KubeObject, operation: string) => {
		if (showObjects) ctx.printed.push(obj);
		else ctx.stdout += printer.printer(obj, operation);
	};
	const errors = [...collected.errors];
	for (const target of collected.targets) {
		const error = serverSide ? applyServerSide(ctx, target, print, { force: args.flags['force-conflicts'] === true, subresource: subresource || undefined }) : applyOne(ctx, target, print);
		if (ctx.fatal) return checkErr(ctx.fatal, ctx.stdout, ctx.stderr);
		if (error) errors.push(error);
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, ctx.stdout, ctx.stderr);
	// -o yaml/json: everything applied, printed once at the end (one object bare, several as a v1 List).
	if (showObjects && ctx.printed.length) {
		const obj = ctx.printed.length === 1 ? ctx.printed[0] : ({ apiVersion: 'v1', kind: 'List', metadata: {}, items: ctx.printed } as unknown as KubeObject);
		ctx.stdout += printer.printer(obj, '');
	}
	return { stdout: ctx.stdout, stderr: ctx.stderr, exitCode: 0 };
}

export const applyCommand: KubectlCommand = {
	name: 'apply',
	summary: 'Apply a configuration to a resource by file name or stdin',
	usage: 'kubectl apply (-f FILENAME | -k DIRECTORY)',
	subcommands: LAST_APPLIED_SUBCOMMANDS.map((s) => s.name),
	handlesHelp: true,
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		VALIDATE_FLAG,
		{ name: 'server-side', kind: 'bool' },
		{ name: 'force-conflicts', kind: 'bool' },
		FIELD_MANAGER_FLAG('kubectl-client-side-apply'),
		{ name: 'selector', short: 'l', kind: 'string' },
		{ name: 'prune', kind: 'bool' },
		{ name: 'all', kind: 'bool' },
		{ name: 'prune-allowlist', kind: 'stringArray' },
		{ name: 'overwrite', kind: 'bool', default: true },
		{ name: 'openapi-patch', kind: 'bool', default: true },
		{ name: 'force', kind: 'bool' },
		{ name: 'grace-period', kind: 'int', default: -1 },
		{ name: 'timeout', kind: 'duration', default: '0s' },
		{ name: 'wait', kind: 'bool' },
		{ name: 'cascade', kind: 'string', default: 'background', noOptDefault: 'background' },
		{ name: 'subresource', kind: 'string' },
		{ name: 'create-annotation', kind: 'bool' },
		{ name: 'windows-line-endings', kind: 'bool' },
	],
	run,
};
