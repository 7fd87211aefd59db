/**
 * `kubectl cp <file-spec-src> <file-spec-dest>`: copies files and
 * directories between the machine kubectl runs on and a container, with
 * nothing but `exec` and tar, as upstream does. From a Pod it runs `tar cf
 * - PATH` in the container (`sh -c "tar cf - 'PATH' | tail -c+N"` with
 * `--retries`) and unpacks the stream locally, stripping the remote path's
 * prefix; to a Pod it asks `test -d DEST` first (a directory receives the
 * source under its own name), packs the local file or directory under the
 * destination's name and streams it into `tar -xmf - -C DIR`
 * (`--no-preserve` adds `--no-same-permissions --no-same-owner`). What the
 * container's tar says on stderr reaches the reader as upstream routes it:
 * on stdout when copying from a Pod (so `tar: removing leading '/' from
 * member names` shows there), on stderr when copying to one; a failed
 * command ends with `command terminated with exit code N`.
 *
 * The exec here runs to completion before kubectl reads its output, so a
 * failing `tar cf` always ends kubectl with its exit code (upstream races
 * the two, kubernetes/kubectl#980), and a stream that never comes is
 * retried at most RETRY_LIMIT times even with a negative `--retries`
 * (upstream retries for ever). Local globs and symlinks are not expanded:
 * the workstation's file system has neither.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/cp/cp.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/cp/filespec.go.
 */
import { pathClean } from '../../golang/path.ts';
import type { Pod } from '../../api/types.ts';
import type { ExecResult } from '../../api/request.ts';
import { R, refOf } from '../../client/client.ts';
import { readTar, writeTar, type TarEntry } from '../../golang/archive-tar.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation, LocalFiles } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { defaultContainer } from './pod-for-object.ts';

/** How many times a stream that never comes is asked for again with a negative --retries. */
const RETRY_LIMIT = 10;

/** One side of the copy: a local path, or a path in a Pod. */
interface FileSpec {
	podName: string;
	podNamespace: string;
	file: string;
}

const dirOf = (p: string) => {
	const c = pathClean(p);
	const i = c.lastIndexOf('/');
	return i < 0 ? '.' : i === 0 ? '/' : c.slice(0, i);
};
const baseOf = (p: string) => {
	if (p === '') return '.';
	const trimmed = p.replace(/\/+$/, '');
	return trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
};
const join = (...parts: string[]) => pathClean(parts.filter((p) => p !== '').join('/'));
/** stripTrailingSlash: one trailing slash goes, except from `/`. */
const stripTrailingSlash = (p: string) => (p !== '/' && p.endsWith('/') ? p.slice(0, -1) : p);

/** stripPathShortcuts: leading `../` and a bare `.` or `..` go, then one leading slash. */
function stripPathShortcuts(p: string): string {
	let path = p;
	while (path.startsWith('../')) path = path.slice(3);
	if (path === '.' || path === '..') path = '';
	return path.startsWith('/') ? path.slice(1) : path;
}

const FILESPEC_FORMAT = 'filespec must match the canonical format: [[namespace/]pod:]file/path';

function extractFileSpec(arg: string): FileSpec | { error: string } {
	const i = arg.indexOf(':');
	if (i === 0) return { error: FILESPEC_FORMAT };
	if (i < 0) return { podName: '', podNamespace: '', file: stripTrailingSlash(arg) };
	const pieces = arg.slice(0, i).split('/');
	// A remote path is a Unix path: backslashes become slashes.
	const file = stripTrailingSlash(arg.slice(i + 1)).replace(/\\/g, '/');
	if (pieces.length === 1) return { podName: pieces[0], podNamespace: '', file };
	if (pieces.length === 2) return { podNamespace: pieces[0], podName: pieces[1], file };
	return { error: FILESPEC_FORMAT };
}

/** Go's error text for a failed file-system call (`open /tmp/bar: is a directory`). */
const ERRNO: Record<string, string> = {
	ENOENT: 'no such file or directory',
	EISDIR: 'is a directory',
	ENOTDIR: 'not a directory',
	EEXIST: 'file exists',
	ENOSPC: 'no space left on device',
	ENAMETOOLONG: 'file name too long',
	EINVAL: 'invalid argument',
};
export const pathError = (op: string, path: string, code: string) => plain(`${op} ${path}: ${ERRNO[code] ?? code.toLowerCase()}`);

/** Where an exec's stream goes: kubectl's stdout, its stderr, or nowhere (io.Discard). */
type Sink = 'stdout' | 'stderr' | 'discard';

/** What one exec gave: its streams, routed, and the error ExecOptions.Run returned. */
interface ExecOutcome {
	stdout: string;
	stderr: string;
	/** The command's own standard output (the tar stream). */
	data: string;
	error?: KubectlError;
}

/** CopyOptions.execute: ExecOptions.Run against the Pod, the command's stderr (and kubectl's container notice) sent to `errOut`. */
function execute(inv: KubectlInvocation, spec: FileSpec, command: string[], errOut: Sink, out: Sink, stdin?: string): ExecOutcome {
	const outcome: ExecOutcome = { stdout: '', stderr: '', data: '' };
	const write = (sink: Sink, text: string) => {
		if (sink === 'stdout') outcome.stdout += text;
		else if (sink === 'stderr') outcome.stderr += text;
	};
	const namespace = spec.podNamespace || inv.namespace;
	const got = inv.client.get(refOf(R.pods), namespace, spec.podName);
	if (!got.ok) return { ...outcome, error: callError(got, inv.env.serverUrl) };
	const pod = got.object as Pod;
	const phase = pod.status?.phase;
	if (phase === 'Succeeded' || phase === 'Failed') return { ...outcome, error: plain(`cannot exec into a container in a completed pod; current phase is ${phase}`) };
	const container = defaultContainer(pod, String(inv.args.flags.container ?? ''), false);
	if ('error' in container) return { ...outcome, error: container.error };
	write(errOut, container.stderr);
	const result = inv.client.call<ExecResult>({
		verb: 'create',
		...refOf(R.pods),
		namespace: pod.metadata.namespace,
		name: pod.metadata.name,
		subresource: 'exec',
		query: { container: container.container, command, stdin: stdin !== undefined, tty: false },
		body: stdin,
	});
	if (!result.ok) {
		// The kubelet's stream errors reach kubectl as plain errors; the API server's refusals stay Status errors (as in kubectl exec).
		const streamError = !result.transport && (result.reason === 'InternalError' || result.message.startsWith('unable to upgrade connection'));
		return { ...outcome, error: streamError ? plain(result.message) : callError(result, inv.env.serverUrl) };
	}
	const exec = result.object;
	if (out === 'stdout') outcome.data = exec.stdout ?? '';
	else write(out, exec.stdout ?? '');
	write(errOut, exec.stderr ?? '');
	if (exec.exitCode) outcome.error = { kind: 'exit', message: `command terminated with exit code ${exec.exitCode}`, code: exec.exitCode };
	return outcome;
}

function run(inv: KubectlInvocation): CommandResult {
	const args = inv.args.positionals;
	if (args.length !== 2) return checkErr(plain('source and destination are required'));
	const src = extractFileSpec(args[0]);
	if ('error' in src) return checkErr(plain(src.error));
	const dest = extractFileSpec(args[1]);
	if ('error' in dest) return checkErr(plain(dest.error));
	if (src.podName && dest.podName) return checkErr(plain('one of src or dest must be a local file specification'));
	if (src.file === '' || dest.file === '') return checkErr(plain('filepath can not be empty'));
	const files = inv.env.localFiles;
	if (!files) return checkErr(plain('kubectl cp needs a local file system, which this kubectl has none of'));
	if (src.podName) return copyFromPod(inv, files, src, dest);
	if (dest.podName) return copyToPod(inv, files, src, dest);
	return checkErr(plain('one of src or dest must be a remote file specification'));
}

function copyToPod(inv: KubectlInvocation, files: LocalFiles, src: FileSpec, dest: FileSpec): CommandResult {
	if (files.stat(src.file) === undefined) return checkErr(plain(`${src.file} doesn't exist in local filesystem`));
	let destFile = dest.file;
	// checkDestinationIsDir: any failure (no such directory, no `test`, no Pod) means "not a directory".
	if (!execute(inv, dest, ['test', '-d', dest.file], 'discard', 'discard').error) destFile = join(destFile, baseOf(src.file));
	const tar = makeTar(files, src.file, destFile, Math.floor(inv.env.wallMs() / 1000));
	if ('error' in tar) return checkErr(tar.error);
	const command = inv.args.flags['no-preserve'] === true ? ['tar', '--no-same-permissions', '--no-same-owner', '-xmf', '-'] : ['tar', '-xmf', '-'];
	command.push('-C', dirOf(destFile));
	const result = execute(inv, dest, command, 'stderr', 'stdout', tar.archive);
	const stdout = result.stdout + result.data;
	if (result.error) return checkErr(result.error, stdout, result.stderr);
	return { stdout, stderr: result.stderr, exitCode: 0 };
}

/** makeTar and recursiveTar: the local file or tree, named under the destination's base name. */
function makeTar(files: LocalFiles, src: string, dest: string, mtimeSec: number): { archive: string } | { error: KubectlError } {
	const entries: TarEntry[] = [];
	const walk = (path: string, name: string): KubectlError | undefined => {
		const kind = files.stat(path);
		if (kind === undefined) return pathError('lstat', path, 'ENOENT');
		if (kind === 'dir') {
			const children = files.list(path) ?? [];
			// Only an empty directory gets a header of its own; the others appear through their files.
			if (children.length === 0) entries.push({ name, type: 'dir', mode: 0o755, mtimeSec, content: '' });
			for (const child of children) {
				const failed = walk(join(path, child), join(name, child));
				if (failed) return failed;
			}
			return undefined;
		}
		entries.push({ name, type: 'file', mode: 0o644, mtimeSec, content: files.read(path) ?? '' });
		return undefined;
	};
	const failed = walk(pathClean(src), baseOf(pathClean(dest)));
	if (failed) return { error: failed };
	const written = writeTar(entries);
	if (!written.ok) return { error: plain(`archive/tar: cannot encode header: Format specifies USTAR; and USTAR cannot encode Name=${JSON.stringify(written.name)}`) };
	return { archive: written.archive };
}

function copyFromPod(inv: KubectlInvocation, files: LocalFiles, src: FileSpec, dest: FileSpec): CommandResult {
	const maxTries = Number(inv.args.flags.retries ?? 0) || 0;
	let stdout = '';
	let stream = '';
	let retries = 0;
	// TarPipe: the stream from byte `from` on (tail -c+N counts from 1; the first read asks for +0, the whole).
	let from = 0;
	for (;;) {
		const command = maxTries !== 0 ? ['sh', '-c', `tar cf - '${src.file.replace(/'/g, `'\\''`)}' | tail -c+${from}`] : ['tar', 'cf', '-', src.file];
		const result = execute(inv, src, command, 'stdout', 'stdout');
		stdout += result.stdout;
		// The exec's goroutine checks its own error: kubectl ends there, with what it printed so far.
		if (result.error) return checkErr(result.error, stdout);
		stream += result.data;
		const read = readTar(stream);
		// A whole archive is read up to its end blocks; only a stream that stops short makes the reader meet the pipe's end.
		const short = read.ok ? !read.ended : read.error === 'unexpected EOF';
		if (!short) break;
		if (maxTries < 0 ? retries < RETRY_LIMIT : retries < maxTries) {
			retries++;
			stdout += `Resuming copy at ${stream.length} bytes, retry ${retries}/${maxTries}\n`;
			from = stream.length + 1;
			continue;
		}
		stdout += `Dropping out copy after ${retries} retries\n`;
		break;
	}
	const prefix = stripPathShortcuts(pathClean(src.file.replace(/^[/\\]+/, '')));
	return untarAll(files, prefix, dest.file, stream, stdout);
}

/** untarAll: each member under `dest`, named without the remote prefix. */
function untarAll(files: LocalFiles, prefix: string, dest: string, stream: string, stdout: string): CommandResult {
	const read = readTar(stream);
	let stderr = '';
	const base = pathClean(dest);
	for (const entry of read.entries) {
		// Every member starts with the remote path's prefix; one that does not was tampered with.
		if (!entry.name.startsWith(prefix)) return checkErr(plain('tar contents corrupted'), stdout, stderr);
		const target = join(dest, stripTrailingSlash(entry.name.slice(prefix.length)).replace(/\\/g, '/'));
		const inside = base === '.' ? target !== '..' && !target.startsWith('../') : target === base || target.startsWith(base === '/' ? '/' : `${base}/`);
		if (!inside) {
			stderr += `warning: file ${JSON.stringify(target)} is outside target destination, skipping\n`;
			continue;
		}
		const parentFailed = files.mkdirAll(dirOf(target));
		if (parentFailed) return checkErr(pathError('mkdir', dirOf(target), parentFailed), stdout, stderr);
		if (entry.type === 'dir') {
			const failed = files.mkdirAll(target);
			if (failed) return checkErr(pathError('mkdir', target, failed), stdout, stderr);
			continue;
		}
		if (entry.type === 'other') continue;
		const failed = files.write(target, entry.content);
		if (failed) return checkErr(pathError('open', target, failed), stdout, stderr);
	}
	// io.EOF at a member boundary ends the copy quietly; inside a member it is io.ErrUnexpectedEOF.
	if (!read.ok) return checkErr(plain(read.error), stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

export const cpCommand: KubectlCommand = {
	name: 'cp',
	summary: 'Copy files and directories to and from containers',
	usage: 'kubectl cp <file-spec-src> <file-spec-dest>',
	flags: [
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'no-preserve', kind: 'bool' },
		{ name: 'retries', kind: 'int', default: 0 },
	],
	run,
};
