/**
 * How openssl 3.0 opens its files, and what it prints when it cannot. Keys
 * and certificates go through the OSSL_STORE loader (load_key_certs_crls:
 * `Could not open file or uri for loading private key from x.key`, then
 * the error queue); requests and serial files through a plain BIO
 * (bio_open_default: `Can't open "x.csr" for reading, No such file or
 * directory`). Each error-queue line starts with the failing thread's id: a
 * fixed one keeps the output deterministic. Source paths are relative to
 * Debian's and Ubuntu's build directory, hence `../crypto/...`.
 *
 * Mirrors openssl/openssl apps/lib/apps.c (load_key_certs_crls,
 * bio_open_default, load_csr, load_cert_pass).
 */
import { FsError, type MemoryFs } from '../../host/fs.ts';
import { pemBlock } from '../../host/pem.ts';
import type { CommandResult } from '../../shell/types.ts';

/** What openssl calls standard input in its messages. */
export const STDIN_NAME = '<stdin>';

/** The thread id that starts every error-queue line (a real one varies per run). */
const THREAD = '40D7A2E1C27F0000';

/** An error-queue line, as ERR_print_errors prints one. */
export function errLine(code: string, lib: string, func: string, reason: string, where: string, data = ''): string {
	return `${THREAD}:error:${code}:${lib}:${func}:${reason}:${where}:${data}\n`;
}

/** A file's text, or the strerror(3) of the failure to read it. */
function readText(fs: MemoryFs, path: string): { text: string } | { errno: string } {
	try {
		return { text: fs.readFile(path) };
	} catch (e) {
		if (e instanceof FsError) return { errno: e.message };
		throw e;
	}
}

/** The PEM types openssl's decoders take as a private key. */
const KEY_TYPES = new Set(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'ENCRYPTED PRIVATE KEY']);

export const isPrivateKey = (text: string) => KEY_TYPES.has(pemBlock(text)?.type ?? '');
export const isCertificate = (text: string) => pemBlock(text)?.type === 'CERTIFICATE';
/** PEM_read_bio_X509_REQ also takes the older `NEW CERTIFICATE REQUEST` label. */
export const isRequest = (text: string) => /^(NEW )?CERTIFICATE REQUEST$/.test(pemBlock(text)?.type ?? '');

export type Loaded = { ok: true; text: string; name: string } | { ok: false; stderr: string };

/**
 * load_key_certs_crls: `path` (stdin when undefined) holding a PEM block
 * that `accept` takes, described as `desc` (`private key`, `certificate`,
 * `CA certificate`...). The certificate loaders add `Unable to load ...`
 * (load_cert_pass); the key loaders do not.
 */
export function storeLoad(fs: MemoryFs, stdin: string, path: string | undefined, desc: string, accept: (text: string) => boolean, unableLine: boolean): Loaded {
	const name = path ?? STDIN_NAME;
	const tail = unableLine ? `Unable to load ${desc}\n` : '';
	const unreadable: Loaded = { ok: false, stderr: `Could not read ${desc} from ${name}\n${tail}` };
	if (path === undefined) return accept(stdin) ? { ok: true, text: stdin, name } : unreadable;
	// The file loader takes a directory for a directory of certificates, and finds none of ours in it.
	if (fs.isDir(path)) return unreadable;
	const read = readText(fs, path);
	if ('errno' in read) {
		return {
			ok: false,
			stderr:
				`Could not open file or uri for loading ${desc} from ${path}\n` +
				errLine('16000069', 'STORE routines', 'ossl_store_get0_loader_int', 'unregistered scheme', '../crypto/store/store_register.c:237', 'scheme=file') +
				errLine('80000002', 'system library', 'file_open', read.errno, '../providers/implementations/storemgmt/file_store.c:267', `calling stat(${path})`) +
				tail,
		};
	}
	return accept(read.text) ? { ok: true, text: read.text, name } : unreadable;
}

/** bio_open_default for reading: the text, or openssl's complaint. */
function bioRead(fs: MemoryFs, stdin: string, path: string | undefined): { text: string } | { stderr: string } {
	if (path === undefined || path === '-') return { text: stdin };
	const read = fs.isDir(path) ? { errno: 'Is a directory' } : readText(fs, path);
	if ('text' in read) return read;
	const reason = read.errno === 'No such file or directory' ? 'no such file' : 'system lib';
	return {
		stderr:
			`Can't open "${path}" for reading, ${read.errno}\n` +
			errLine('80000002', 'system library', 'BIO_new_file', read.errno, '../crypto/bio/bss_file.c:67', `calling fopen(${path}, r)`) +
			errLine('10000080', 'BIO routines', 'BIO_new_file', reason, '../crypto/bio/bss_file.c:75'),
	};
}

/** load_csr: a CERTIFICATE REQUEST block from `path` (stdin when undefined), or `Unable to load <desc>` with the PEM reader's complaint. */
export function loadRequest(fs: MemoryFs, stdin: string, path: string | undefined, desc: string, accept: (text: string) => boolean): Loaded {
	const read = bioRead(fs, stdin, path);
	if ('stderr' in read) return { ok: false, stderr: `${read.stderr}Unable to load ${desc}\n` };
	if (accept(read.text)) return { ok: true, text: read.text, name: path ?? STDIN_NAME };
	return {
		ok: false,
		stderr: `Unable to load ${desc}\n` + errLine('0480006C', 'PEM routines', 'get_name', 'no start line', '../crypto/pem/pem_lib.c:763', 'Expecting: CERTIFICATE REQUEST'),
	};
}

/** A file's text when it can be read (a serial file), else undefined. */
export function readIfPresent(fs: MemoryFs, path: string): string | undefined {
	if (!fs.exists(path) || fs.isDir(path)) return undefined;
	const read = readText(fs, path);
	return 'text' in read ? read.text : undefined;
}

/** bio_open_default for writing: undefined when `data` was written to `path`, else openssl's complaint. */
export function writeOutput(fs: MemoryFs, path: string, data: string): string | undefined {
	try {
		fs.writeFile(path, data);
		return undefined;
	} catch (e) {
		if (!(e instanceof FsError)) throw e;
		return `Can't open "${path}" for writing, ${e.message}\n` + errLine('80000002', 'system library', 'BIO_new_file', e.message, '../crypto/bio/bss_file.c:67', `calling fopen(${path}, w)`);
	}
}

/** A command's two streams in the order it wrote them (x509 -req reports on stderr before the certificate reaches stdout). */
export class Output {
	#chunks: Array<{ fd: 1 | 2; text: string }> = [];

	out(text: string): void {
		if (text) this.#chunks.push({ fd: 1, text });
	}

	err(text: string): void {
		if (text) this.#chunks.push({ fd: 2, text });
	}

	/** The result, with `exitCode` 0 for success and 1 for any failure, as openssl exits. */
	done(exitCode: number): CommandResult {
		const join = (fd: 1 | 2) => this.#chunks.filter((c) => c.fd === fd).map((c) => c.text).join('');
		return { stdout: join(1), stderr: join(2), exitCode, chunks: [...this.#chunks] };
	}

	/** Ends with a failure whose stderr is `text`. */
	fail(text: string): CommandResult {
		this.err(text);
		return this.done(1);
	}
}

/** Writes `data` to `path` (stdout when undefined); false, with openssl's complaint on stderr, when the file cannot be written. */
export function emit(fs: MemoryFs, o: Output, path: string | undefined, data: string): boolean {
	if (path === undefined || path === '-') {
		o.out(data);
		return true;
	}
	const problem = writeOutput(fs, path, data);
	o.err(problem ?? '');
	return problem === undefined;
}
