/**
 * `kubectl create --raw`, `replace --raw` and `delete --raw`: the file's
 * bytes sent as they are (labelled JSON) with POST, PUT or DELETE to any
 * path of the API server, and the answer's body copied to stdout, as
 * client-go's scale and subresource clients would send them. A failure is
 * reported as any request's.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/rawhttp/raw.go (RawPost, RawPut,
 * RawDelete), staging/src/k8s.io/kubectl/pkg/cmd/create/create.go
 * (the --raw checks of ValidateArgs),
 * staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go (likewise).
 */
import type { KubectlInvocation } from '../kubectl.ts';
import type { CommandResult } from '../../shell/types.ts';
import { callError, checkErr, plain } from './check-err.ts';

/** url.ParseRequestURI: an absolute path (or URL); otherwise Go's error text. */
function requestUriError(raw: string): string | undefined {
	if (raw.startsWith('/') || /^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return undefined;
	return `parse "${raw}": invalid URI for request`;
}

/** The --raw checks create and replace share (ValidateArgs); delete checks fewer. */
export function rawWriteError(inv: KubectlInvocation, command: 'create' | 'replace' | 'delete'): string | undefined {
	const flags = inv.args.flags;
	const filenames = (flags.filename as string[] | undefined) ?? [];
	if (command !== 'delete' || filenames.length > 0) {
		if (command === 'create' && flags.edit === true) return '--raw and --edit are mutually exclusive';
		if (filenames.length !== 1) return '--raw can only use a single local file or stdin';
		if (/^https?:\/\//.test(filenames[0])) return '--raw cannot read from a url';
		if (flags.recursive === true) return '--raw and --recursive are mutually exclusive';
		if (command !== 'delete' && flags.selector) return '--raw and --selector (-l) are mutually exclusive';
		if (command !== 'delete' && flags.output) return '--raw and --output are mutually exclusive';
	}
	const uri = requestUriError(String(flags.raw));
	return uri ? `--raw must be a valid URL path: ${uri}` : undefined;
}

/** Sends the write and prints what came back. */
export function runRawWrite(inv: KubectlInvocation, method: 'POST' | 'PUT' | 'DELETE', stderr = ''): CommandResult {
	const env = inv.env;
	const path = String(inv.args.flags.raw);
	if (!env.rawWrite) return checkErr(plain('--raw is not supported by this simulated kubectl'), '', stderr);
	const filename = ((inv.args.flags.filename as string[] | undefined) ?? [])[0];
	let body = '';
	if (filename === '-') body = inv.stdin;
	else if (filename !== undefined) {
		const text = env.readFile(filename);
		if (text === undefined) return checkErr(plain(`open ${filename}: no such file or directory`), '', stderr);
		body = text;
	}
	const got = env.rawWrite(method, path, body);
	if (!got.ok) return checkErr(callError(got, env.serverUrl, { method: method === 'POST' ? 'Post' : method === 'PUT' ? 'Put' : 'Delete', url: `${env.serverUrl}${path}` }), '', stderr);
	return { stdout: got.object, stderr, exitCode: 0 };
}
