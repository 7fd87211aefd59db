/**
 * curl's command line (curl 8.5): short options that may be bundled (`-sk`,
 * `-XPOST`), long options that may be abbreviated to a unique prefix
 * (`--verb` is `--verbose`), values in the next word, and curl's errors:
 * `curl: option --foo: is unknown`, `option -X: requires parameter`, `option
 * --ver: is ambiguous`, each followed by `curl: try 'curl --help' or 'curl
 * --manual' for more information` and exit 2.
 *
 * Mirrors curl/curl src/tool_getparam.c.
 */

/** What the simulated curl understands. */
export interface CurlOptions {
	urls: string[];
	method?: string;
	headers: string[];
	/** -d pieces, in order, with how each was given. */
	data: Array<{ text: string; mode: 'ascii' | 'binary' | 'raw' | 'json' }>;
	silent: boolean;
	showError: boolean;
	include: boolean;
	head: boolean;
	verbose: boolean;
	output?: string;
	insecure: boolean;
	cacert?: string;
	cert?: string;
	key?: string;
	userAgent?: string;
	fail: boolean;
	writeOut?: string;
	http1: boolean;
	/** --connect-timeout or --max-time, in seconds. */
	timeoutSeconds?: number;
	noProgressMeter: boolean;
	/** -L: follow the server's redirects (up to curl's default --max-redirs of 50). */
	location?: boolean;
}

type Kind = 'flag' | 'value';

/** Supported options: long name, short letter, whether it takes a value. */
const OPTIONS: Array<{ long: string; short?: string; kind: Kind }> = [
	{ long: 'request', short: 'X', kind: 'value' },
	{ long: 'header', short: 'H', kind: 'value' },
	{ long: 'data', short: 'd', kind: 'value' },
	{ long: 'data-ascii', kind: 'value' },
	{ long: 'data-binary', kind: 'value' },
	{ long: 'data-raw', kind: 'value' },
	{ long: 'json', kind: 'value' },
	{ long: 'silent', short: 's', kind: 'flag' },
	{ long: 'show-error', short: 'S', kind: 'flag' },
	{ long: 'include', short: 'i', kind: 'flag' },
	{ long: 'head', short: 'I', kind: 'flag' },
	{ long: 'verbose', short: 'v', kind: 'flag' },
	{ long: 'output', short: 'o', kind: 'value' },
	{ long: 'insecure', short: 'k', kind: 'flag' },
	{ long: 'cacert', kind: 'value' },
	{ long: 'cert', short: 'E', kind: 'value' },
	{ long: 'key', kind: 'value' },
	{ long: 'user-agent', short: 'A', kind: 'value' },
	{ long: 'fail', short: 'f', kind: 'flag' },
	{ long: 'write-out', short: 'w', kind: 'value' },
	{ long: 'location', short: 'L', kind: 'flag' },
	{ long: 'max-time', short: 'm', kind: 'value' },
	{ long: 'connect-timeout', kind: 'value' },
	{ long: 'http1.1', kind: 'flag' },
	{ long: 'http2', kind: 'flag' },
	{ long: 'compressed', kind: 'flag' },
	{ long: 'no-progress-meter', kind: 'flag' },
	{ long: 'url', kind: 'value' },
];

/** curl's complaint about the command line (exit 2, CURLE_FAILED_INIT). */
export class OptionError extends Error {}

const HINT = "curl: try 'curl --help' or 'curl --manual' for more information\n";

/** The full stderr text for an option error. */
export function optionErrorText(error: OptionError): string {
	return `curl: ${error.message}\n${HINT}`;
}

function apply(opts: CurlOptions, long: string, value: string | undefined, spelled: string): void {
	const number = () => {
		const n = Number(value);
		if (!Number.isFinite(n) || n < 0) throw new OptionError(`option ${spelled}: expected a proper numerical parameter`);
		return n;
	};
	switch (long) {
		case 'request':
			opts.method = value;
			break;
		case 'header':
			opts.headers.push(value ?? '');
			break;
		case 'data':
		case 'data-ascii':
			opts.data.push({ text: value ?? '', mode: 'ascii' });
			break;
		case 'data-binary':
			opts.data.push({ text: value ?? '', mode: 'binary' });
			break;
		case 'data-raw':
			opts.data.push({ text: value ?? '', mode: 'raw' });
			break;
		case 'json':
			opts.data.push({ text: value ?? '', mode: 'json' });
			break;
		case 'silent':
			opts.silent = true;
			break;
		case 'show-error':
			opts.showError = true;
			break;
		case 'include':
			opts.include = true;
			break;
		case 'head':
			opts.head = true;
			break;
		case 'verbose':
			opts.verbose = true;
			break;
		case 'output':
			opts.output = value;
			break;
		case 'insecure':
			opts.insecure = true;
			break;
		case 'cacert':
			opts.cacert = value;
			break;
		case 'cert':
			opts.cert = value;
			break;
		case 'key':
			opts.key = value;
			break;
		case 'user-agent':
			opts.userAgent = value;
			break;
		case 'fail':
			opts.fail = true;
			break;
		case 'write-out':
			opts.writeOut = value;
			break;
		case 'max-time':
		case 'connect-timeout':
			opts.timeoutSeconds = number();
			break;
		case 'http1.1':
			opts.http1 = true;
			break;
		case 'http2':
			opts.http1 = false;
			break;
		case 'no-progress-meter':
			opts.noProgressMeter = true;
			break;
		case 'url':
			opts.urls.push(value ?? '');
			break;
		case 'location':
			opts.location = true;
			break;
		// --compressed changes nothing here: the API server does not compress small replies.
	}
}

/** Parses argv (without `curl`). Throws OptionError with curl's wording. */
export function parseCurlArgs(argv: readonly string[]): CurlOptions {
	const opts: CurlOptions = { urls: [], headers: [], data: [], silent: false, showError: false, include: false, head: false, verbose: false, insecure: false, fail: false, http1: false, noProgressMeter: false };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg.startsWith('--') && arg.length > 2) {
			const word = arg.slice(2);
			const exact = OPTIONS.find((o) => o.long === word);
			const prefixed = OPTIONS.filter((o) => o.long.startsWith(word));
			if (!exact && prefixed.length > 1) throw new OptionError(`option ${arg}: is ambiguous`);
			const option = exact ?? prefixed[0];
			if (!option) throw new OptionError(`option ${arg}: is unknown`);
			if (option.kind === 'value') {
				if (i + 1 >= argv.length) throw new OptionError(`option ${arg}: requires parameter`);
				apply(opts, option.long, argv[++i], arg);
			} else apply(opts, option.long, undefined, arg);
			continue;
		}
		if (arg.startsWith('-') && arg.length > 1) {
			for (let j = 1; j < arg.length; j++) {
				const option = OPTIONS.find((o) => o.short === arg[j]);
				if (!option) throw new OptionError(`option -${arg[j]}: is unknown`);
				if (option.kind === 'flag') {
					apply(opts, option.long, undefined, `-${arg[j]}`);
					continue;
				}
				const rest = arg.slice(j + 1);
				if (rest) apply(opts, option.long, rest, `-${arg[j]}`);
				else if (i + 1 < argv.length) apply(opts, option.long, argv[++i], `-${arg[j]}`);
				else throw new OptionError(`option -${arg[j]}: requires parameter`);
				break;
			}
			continue;
		}
		opts.urls.push(arg);
	}
	return opts;
}

/** The `(2) no URL specified` complaint, as tool_operate.c prints it. */
export const NO_URL_TEXT = `curl: (2) no URL specified\n${HINT}`;
