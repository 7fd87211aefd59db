/**
 * `--record`, deprecated but still registered on kubectl's writing
 * commands: the command line is stored in the `kubernetes.io/change-cause`
 * annotation of the objects the command writes, which the Deployment and
 * DaemonSet controllers copy into their history and `kubectl rollout
 * history` prints (older tutorials still use it). pflag prints the
 * deprecation each time the flag is used.
 *
 * The cause is built as kubectl builds it: the command's path, its
 * positional arguments, then every flag of the command line as
 * ` --long-name=value` in the order typed (`kubectl set image
 * deployment/web nginx=nginx:1.16.1 --record=true`). The objects get it in
 * the body of their create, update or merge patch; a write kubectl sends
 * elsewhere (the scale subresource, a JSON patch) is followed by a merge
 * patch of the annotation alone, as MakeRecordMergePatch is.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/genericclioptions/record_flags.go
 * (RecordFlags, ChangeCauseRecorder, parseCommandArguments).
 */
import type { ApiRequest } from '../api/request.ts';
import { ApiClient } from '../client/client.ts';
import type { ApiTransport } from '../client/transport.ts';
import type { FlagSpec } from './flags.ts';
import { parseGoBool } from './cmd/print-flags.ts';

export const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';

/** The commands that register the flag (those whose options hold RecordFlags). */
const RECORDING_COMMANDS = new Set(['annotate', 'apply', 'autoscale', 'create', 'edit', 'expose', 'label', 'patch', 'replace', 'run', 'scale', 'set']);

/** pflag's notice for a deprecated flag, printed when it is set. */
export const RECORD_DEPRECATION = 'Flag --record has been deprecated, --record will be removed in the future\n';

export interface RecordRequest {
	/** The command line without --record, for the parser. */
	argv: string[];
	/** Whether --record was given as true (a bare `--record` or `--record=true`). */
	record: boolean;
	/** Whether --record was given at all (the deprecation is printed either way). */
	given: boolean;
}

/**
 * Takes `--record` out of a command line for a command that registers it.
 * A value that is not a boolean is pflag's `invalid argument`.
 */
export function takeRecordFlag(command: string, argv: readonly string[]): RecordRequest | { error: string } {
	if (!RECORDING_COMMANDS.has(command)) return { argv: [...argv], record: false, given: false };
	const out: string[] = [];
	let record = false;
	let given = false;
	for (let i = 0; i < argv.length; i++) {
		const token = argv[i];
		if (token === '--') {
			out.push(...argv.slice(i));
			break;
		}
		const match = /^--record(?:=(.*))?$/.exec(token);
		if (!match) {
			out.push(token);
			continue;
		}
		given = true;
		const value = match[1] ?? 'true';
		const parsed = parseGoBool(value);
		if (parsed === undefined) return { error: `error: invalid argument "${value}" for "--record" flag: strconv.ParseBool: parsing "${value}": invalid syntax` };
		record = parsed;
	}
	return { argv: out, record, given };
}

/**
 * parseCommandArguments: `<command path> <args><flags>`, each flag of the
 * line (the global ones too) as ` --name=value` under its long name.
 */
export function changeCause(commandPath: string, args: readonly string[], argv: readonly string[], specs: readonly FlagSpec[]): string {
	let flags = '';
	for (let i = 0; i < argv.length; i++) {
		const token = argv[i];
		if (token === '--') break;
		if (token.startsWith('--')) {
			const [name, value] = token.slice(2).split(/=(.*)/s);
			const spec = specs.find((s) => s.name === name);
			if (value !== undefined) flags += ` --${name}=${value}`;
			else if (!spec || spec.kind === 'bool' || spec.noOptDefault !== undefined) flags += ` --${name}=${spec?.noOptDefault ?? 'true'}`;
			else flags += ` --${name}=${argv[++i] ?? ''}`;
		} else if (token.startsWith('-') && token.length > 1 && !/^-\d/.test(token)) {
			// A run of short flags: booleans until one that takes the rest (or the next word) as its value.
			for (let j = 1; j < token.length; j++) {
				const spec = specs.find((s) => s.short === token[j]);
				const name = spec?.name ?? token[j];
				if (!spec || spec.kind === 'bool') {
					flags += ` --${name}=true`;
					continue;
				}
				const rest = token.slice(j + 1).replace(/^=/, '');
				flags += ` --${name}=${rest || (argv[++i] ?? '')}`;
				break;
			}
		}
	}
	return `${commandPath} ${args.join(' ')}${flags}`;
}

/** The annotation added to a request's object or merge patch, if the request carries one. */
function annotated(request: ApiRequest, cause: string): ApiRequest | undefined {
	if (request.subresource) return undefined;
	const carriesObject = request.verb === 'create' || request.verb === 'update' || (request.verb === 'patch' && request.patchType !== 'application/json-patch+json');
	const body = request.body as { metadata?: { annotations?: Record<string, string | null> } } | undefined;
	if (!carriesObject || !body || typeof body !== 'object') return undefined;
	return { ...request, body: { ...body, metadata: { ...body.metadata, annotations: { ...body.metadata?.annotations, [CHANGE_CAUSE_ANNOTATION]: cause } } } };
}

/** A client whose writes record `cause` on the objects they write. */
export function recordingClient(inner: ApiClient, cause: string): ApiClient {
	const transport: ApiTransport = {
		request: (_from, request) => {
			const dryRun = request.query?.dryRun !== undefined;
			const withCause = annotated(request, cause);
			if (withCause) return inner.raw(withCause);
			const result = inner.raw(request);
			// The scale subresource and JSON patches: the annotation follows in a merge patch of its own.
			const wrote = (request.verb === 'patch' || request.verb === 'update') && (request.subresource === 'scale' || request.patchType === 'application/json-patch+json');
			const code = (result as { code?: number }).code ?? 0;
			if (wrote && !dryRun && code >= 200 && code < 300 && request.name) {
				inner.raw({ verb: 'patch', group: request.group, version: request.version, resource: request.resource, namespace: request.namespace, name: request.name, patchType: 'application/merge-patch+json', body: { metadata: { annotations: { [CHANGE_CAUSE_ANNOTATION]: cause } } } });
			}
			return result;
		},
		stopWatch: (_from, watchId) => inner.stopWatch(watchId),
	};
	return new ApiClient(transport, inner.from);
}
