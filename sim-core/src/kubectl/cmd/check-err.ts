/**
 * How kubectl's changing commands turn a failure into what the reader sees:
 * an error value that keeps what kind of failure it was (an API Status, a
 * refused connection, a plain message, several errors, a remote exit code),
 * and `checkErr`, which prints it exactly as cmdutil.CheckErr does.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (CheckErr,
 * StandardErrorMessage, AddSourceToErr, MultipleErrors, UsageErrorf).
 */
import type { Status } from '../../api/types.ts';
import type { CallResult } from '../../client/client.ts';
import type { CommandResult } from '../../shell/types.ts';

/** A failure, as kubectl's Go code would hold it. */
export type KubectlError =
	/** An API Status (apierrors.StatusError). */
	| { kind: 'status'; code: number; reason: string; message: string; details?: Status['details'] }
	/** The server could not be reached (a *url.Error around a dial error). */
	| { kind: 'transport'; failure: string; message: string; host: string; method: string; url: string }
	/** Anything else (fmt.Errorf): printed with an `error: ` prefix. */
	| { kind: 'plain'; message: string }
	/** utilerrors.Aggregate: one line per error, no prefix. */
	| { kind: 'aggregate'; errors: KubectlError[] }
	/** utilexec.ExitError: the message as is, and the remote exit code (kubectl exec). */
	| { kind: 'exit'; message: string; code: number };

/** fmt.Errorf. */
export function plain(message: string): KubectlError {
	return { kind: 'plain', message };
}

/** cmdutil.UsageErrorf: the message and a pointer to the command's help. */
export function usageError(commandPath: string, message: string): KubectlError {
	return plain(`${message}\nSee '${commandPath} -h' for help and examples`);
}

/** The request line kubectl's transport names in connection errors: method and URL. */
interface RequestLine {
	method: string;
	url: string;
}

/** The error a failed call carries. `serverUrl` is the kubeconfig's server, for connection errors. */
export function callError(result: Extract<CallResult<unknown>, { ok: false }>, serverUrl: string, request: RequestLine = { method: 'Get', url: serverUrl }): KubectlError {
	if (result.transport) return { kind: 'transport', failure: result.reason, message: result.message, host: serverUrl.replace(/^https?:\/\//, ''), method: request.method, url: request.url };
	const error: KubectlError = { kind: 'status', code: result.code, reason: result.reason, message: result.message };
	if (result.details) error.details = result.details;
	return error;
}

/** What `err.Error()` returns in Go: the text other errors wrap with `%v`. */
export function errorText(error: KubectlError): string {
	switch (error.kind) {
		case 'status':
		case 'plain':
		case 'exit':
			return error.message;
		case 'transport':
			// url.Error: `Get "https://…": dial tcp …: connect: connection refused`.
			return `${error.method} "${error.url}": ${error.message}`;
		case 'aggregate':
			return error.errors.length === 1 ? errorText(error.errors[0]) : `[${error.errors.map(errorText).join(', ')}]`;
	}
}

/** fmt.Errorf("prefix: %v", err): the failure becomes a plain message. */
export function wrap(prefix: string, error: KubectlError): KubectlError {
	return plain(`${prefix}${errorText(error)}`);
}

/**
 * cmdutil.AddSourceToErr: `error when creating "app.yaml": …`. A Status
 * keeps its reason and details; anything else becomes a plain message.
 */
export function addSourceToErr(verb: string, source: string, error: KubectlError): KubectlError {
	if (!source) return error;
	const prefix = `error when ${verb} ${JSON.stringify(source)}: `;
	if (error.kind === 'status') return { ...error, message: prefix + error.message };
	return plain(prefix + errorText(error));
}

/**
 * StandardErrorMessage: `Error from server (NotFound): …`, the login and
 * connection messages; undefined for errors it does not recognise.
 */
function standardErrorMessage(error: KubectlError): string | undefined {
	if (error.kind === 'status') {
		if (error.reason === 'Unauthorized') return `error: You must be logged in to the server (${error.message})`;
		if (error.reason) return `Error from server (${error.reason}): ${error.message}`;
		return `Error from server: ${error.message}`;
	}
	if (error.kind === 'transport') {
		if (error.failure === 'refused') return `The connection to the server ${error.host} was refused - did you specify the right host or port?`;
		return `Unable to connect to the server: ${error.message}`;
	}
	return undefined;
}

/** messageForError: the standard message, or the error's own text. */
function messageForError(error: KubectlError): string {
	return standardErrorMessage(error) ?? errorText(error);
}

/** The text and exit code cmdutil.CheckErr prints for an error (helpers.go checkErr). */
export function describeError(error: KubectlError): { text: string; exitCode: number } {
	// Aggregates of one are unwrapped first.
	if (error.kind === 'aggregate' && error.errors.length === 1) error = error.errors[0];
	if (error.kind === 'status' && error.reason === 'Invalid' && error.code === 422) {
		const details = error.details;
		if (!details) return { text: `The request is invalid${error.message ? `: ${error.message}` : ''}`, exitCode: 1 };
		let head = 'The request is invalid';
		if (details.kind || details.name) head = `The ${details.kind ?? ''} ${JSON.stringify(details.name ?? '')} is invalid`;
		else if (error.message && !details.causes?.length) head += `: ${error.message}`;
		const causes: string[] = [];
		for (const cause of details.causes ?? []) {
			const line = `${cause.field ?? ''}: ${cause.message ?? ''}`;
			if (!causes.includes(line)) causes.push(line);
		}
		if (causes.length === 0) return { text: head, exitCode: 1 };
		if (causes.length === 1) return { text: `${head}: ${causes[0]}`, exitCode: 1 };
		// MultilineError: the prefix on its own line (with its trailing space), then one `* ` line per cause.
		return { text: `${head}: \n${causes.map((c) => `* ${c}`).join('\n')}`, exitCode: 1 };
	}
	switch (error.kind) {
		case 'aggregate':
			return { text: error.errors.map(messageForError).join('\n'), exitCode: 1 };
		case 'exit':
			return { text: error.message, exitCode: error.code };
		default: {
			const standard = standardErrorMessage(error);
			if (standard) return { text: standard, exitCode: 1 };
			const text = errorText(error);
			return { text: text.startsWith('error: ') ? text : `error: ${text}`, exitCode: 1 };
		}
	}
}

/**
 * cmdutil.CheckErr: the command's output so far, then the error on stderr
 * with its exit code.
 */
export function checkErr(error: KubectlError, stdout = '', stderr = ''): CommandResult {
	const { text, exitCode } = describeError(error);
	return { stdout, stderr: stderr + (text.endsWith('\n') ? text : `${text}\n`), exitCode };
}

/** The API server's warnings, as kubectl's warning handler prints them on stderr. */
export function warningLines(warnings: readonly string[] | undefined): string {
	return (warnings ?? []).map((w) => `Warning: ${w}\n`).join('');
}
