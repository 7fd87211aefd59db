/**
 * `kubectl create token SERVICE_ACCOUNT_NAME`: asks the API server for a
 * service account token (POST serviceaccounts/<name>/token, a
 * TokenRequest) and prints it: followed by a newline when stdout is a
 * terminal, bare otherwise (so `TOKEN=$(kubectl create token ci)` holds
 * exactly the token). `--duration` asks for a lifetime (whole seconds;
 * unset or 0 lets the server choose, one hour), `--audience` (repeatable)
 * for audiences other than the API server's, `--bound-object-kind`
 * (Pod, Secret or Node) with `--bound-object-name` (and optionally
 * `--bound-object-uid`) for a token that dies with that object. `-o`
 * prints the whole TokenRequest instead.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/create/create_token.go
 * (Complete, Validate, Run),
 * staging/src/k8s.io/client-go/kubernetes/typed/core/v1/serviceaccount.go
 * (CreateToken, which prefers protobuf on the wire).
 */
import type { KubeObject } from '../../api/types.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import type { CommandResult } from '../../shell/types.ts';
import { PROTOBUF_ACCEPT } from '../round-trippers.ts';
import { callError, checkErr, plain, usageError, wrap } from './check-err.ts';
import { PRINT_FLAGS, toPrinter } from './print-flags.ts';
import { requestUrl } from './resource-info.ts';
import type { Subcommand } from './subcommand.ts';

/** create_token.go boundObjectKinds: the kinds a token may be bound to, each in core v1. */
const BOUND_OBJECT_KINDS: Readonly<Record<string, string>> = { Node: 'v1', Pod: 'v1', Secret: 'v1' };

/** `--audience`, `--duration` and the bound-object flags, with the PrintFlags every create command has. */
const TOKEN_FLAGS: FlagSpec[] = [
	...PRINT_FLAGS,
	// StringArrayVar: each occurrence is one audience, commas included.
	{ name: 'audience', kind: 'stringArray', noSplit: true },
	{ name: 'duration', kind: 'duration', default: '0s' },
	{ name: 'bound-object-kind', kind: 'string' },
	{ name: 'bound-object-name', kind: 'string' },
	{ name: 'bound-object-uid', kind: 'string' },
];

/** cli-runtime's JSONPrinter on a typed object: json.MarshalIndent with four spaces, fields in struct order, HTML escaped. */
function typedJson(obj: KubeObject): string {
	return `${JSON.stringify(obj, null, 4).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** Runs `kubectl create token`. */
function runCreateToken(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	// Complete: exactly one name, then the printer.
	if (args.positionals.length !== 1) return checkErr(usageError('kubectl create token', `exactly one NAME is required, got ${args.positionals.length}`));
	const name = args.positionals[0];
	const output = String(flags.output ?? '');
	const printer = toPrinter(args);
	if ('error' in printer) return checkErr(printer.error);

	// Validate.
	const durationMs = parseGoDurationMs(String(flags.duration ?? '0s'));
	if (!name) return checkErr(plain('service account name is required'));
	if (durationMs < 0) return checkErr(plain('--duration must be greater than or equal to 0'));
	if (durationMs % 1000 !== 0) return checkErr(plain('--duration cannot be expressed in units less than seconds'));
	const audiences = (flags.audience as string[] | undefined) ?? [];
	if (audiences.some((a) => a.length === 0)) return checkErr(plain('--audience must not be an empty string'));
	const kind = String(flags['bound-object-kind'] ?? '');
	const boundName = String(flags['bound-object-name'] ?? '');
	const boundUid = String(flags['bound-object-uid'] ?? '');
	if (!kind) {
		if (boundName) return checkErr(plain('--bound-object-name can only be set if --bound-object-kind is provided'));
		if (boundUid) return checkErr(plain('--bound-object-uid can only be set if --bound-object-kind is provided'));
	} else {
		if (!Object.hasOwn(BOUND_OBJECT_KINDS, kind)) return checkErr(plain(`supported --bound-object-kind values are ${Object.keys(BOUND_OBJECT_KINDS).sort().join(', ')}`));
		if (!boundName) return checkErr(plain('--bound-object-name is required if --bound-object-kind is provided'));
	}

	// Run.
	const spec: Record<string, unknown> = {};
	if (audiences.length) spec.audiences = audiences;
	if (durationMs > 0) spec.expirationSeconds = durationMs / 1000;
	if (kind) spec.boundObjectRef = { kind, apiVersion: BOUND_OBJECT_KINDS[kind], name: boundName, ...(boundUid ? { uid: boundUid } : {}) };
	// The typed CoreV1 client: UseProtobufAsDefault for CreateToken.
	if (inv.http) Object.assign(inv.http, { accept: PROTOBUF_ACCEPT, contentType: 'application/vnd.kubernetes.protobuf', protobuf: true, bodySource: 'serviceaccount.go:87' });
	const request = { verb: 'create' as const, group: '', version: 'v1', resource: 'serviceaccounts', namespace: inv.namespace, name, subresource: 'token', body: { kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1', metadata: {}, spec } };
	const result = inv.client.call<KubeObject>(request);
	if (!result.ok) return checkErr(wrap('failed to create token: ', callError(result, inv.env.serverUrl, { method: 'Post', url: requestUrl(inv.env.serverUrl, request) })));
	const response = result.object;
	const token = (response.status as { token?: string } | undefined)?.token ?? '';
	if (!token) return checkErr(plain('failed to create token: no token in server response'));
	if (output) return { stdout: output === 'json' ? typedJson(response) : printer.printer(response, 'created'), stderr: '', exitCode: 0 };
	// printers.IsTerminal(o.Out): a newline only for a person reading it.
	return { stdout: inv.env.tty ? `${token}\n` : token, stderr: '', exitCode: 0 };
}

export const tokenSub: Subcommand = {
	name: 'token',
	summary: 'Request a service account token',
	usage: 'kubectl create token SERVICE_ACCOUNT_NAME [options]',
	flags: TOKEN_FLAGS,
	run: runCreateToken,
};
