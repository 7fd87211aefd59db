/**
 * perl, as the official perl image runs it: the one-liners tutorials use.
 * The Job example of kubernetes.io computes π with the bignum pragma
 * (`perl -Mbignum=bpi -wle 'print bpi(2000)'`): Math::BigFloat's bpi(N)
 * returns π rounded to N significant digits (round mode "even"), which
 * `print` writes with the newline `-l` adds. The digits are computed here
 * (Machin's formula over BigInt, with guard digits), not stored.
 *
 * Pure-Perl big-number arithmetic is slow and roughly quadratic in the
 * number of digits: the example "takes around 10s to complete" on
 * kubernetes.io's Job page. The model: 2.5 s per thousand digits squared
 * (10 s for 2000), and nothing is printed until the end. Plain `print`
 * of string literals and `-v` work too; a Debian base image's perl-base
 * has no bignum module, and says so.
 *
 * Mirrors pjacklam/p5-Math-BigInt lib/Math/BigFloat.pm (bpi, round mode
 * "even"), pjacklam/p5-bignum lib/bignum.pm (the bpi import).
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, OutputLine, RunOptions } from '../behaviour.ts';

/** How long bpi(N) takes, in ms: quadratic in N, 10 s for the example's 2000 digits. */
export function bpiRuntimeMs(digits: number): number {
	return Math.max(50, Math.round(2_500 * (digits / 1000) ** 2));
}

/** The most digits the simulation computes (the arithmetic is quadratic; a bigger N keeps the process busy instead). */
const MAX_BPI_DIGITS = 10_000;

/** Extra digits computed past the ones printed, so the rounding sees the true tail. */
const GUARD_DIGITS = 12;

/** The decimal digits of π (the leading 3 first), at least `count` of them. */
function piDigitString(count: number): string {
	const scale = 10n ** BigInt(count + GUARD_DIGITS);
	// arctan(1/x) = 1/x - 1/(3x^3) + 1/(5x^5) - ..., in fixed point.
	const arctanInverse = (x: bigint): bigint => {
		let sum = 0n;
		let power = scale / x;
		const x2 = x * x;
		for (let k = 1n, sign = 1n; power !== 0n; k += 2n, sign = -sign) {
			sum += (sign * power) / k;
			power /= x2;
		}
		return sum;
	};
	return (16n * arctanInverse(5n) - 4n * arctanInverse(239n)).toString();
}

/** Math::BigFloat->bpi(N) as printed: π to N significant digits, rounded half to even. */
export function bpi(digits: number): string {
	const n = Math.max(1, Math.floor(digits));
	const all = piDigitString(n);
	let kept = BigInt(all.slice(0, n));
	const rest = all.slice(n);
	// The guard digits are never all zero or an exact half for π, so "even" only matters in principle.
	const first = Number(rest[0] ?? '0');
	const tailZero = /^0*$/.test(rest.slice(1));
	if (first > 5 || (first === 5 && (!tailZero || kept % 2n === 1n))) kept += 1n;
	const text = kept.toString();
	return text.length === 1 ? text : `${text[0]}.${text.slice(1)}`;
}

/** Splits perl's bundled switches (`-wle` is `-w -l -e`); returns the modules, the code and the flags. */
function parsePerlArgs(args: string[]): { modules: string[]; code: string | undefined; flags: Set<string>; script: string | undefined } {
	const modules: string[] = [];
	const flags = new Set<string>();
	let code: string | undefined;
	let script: string | undefined;
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (!arg.startsWith('-') || arg === '-') {
			script = arg;
			break;
		}
		if (arg.startsWith('-M') || arg.startsWith('-m')) {
			modules.push(arg.length > 2 ? arg.slice(2) : (args[++i] ?? ''));
			continue;
		}
		for (let j = 1; j < arg.length; j++) {
			const c = arg[j];
			if (c === 'e' || c === 'E') {
				const rest = arg.slice(j + 1);
				code = (code === undefined ? '' : `${code}\n`) + (rest || (args[++i] ?? ''));
				break;
			}
			flags.add(c);
		}
	}
	return { modules, code, flags, script };
}

/** The perl of the image, for the Can't-locate message's @INC. */
const DEBIAN_INC = '/etc/perl /usr/local/lib/x86_64-linux-gnu/perl/5.36.0 /usr/local/share/perl/5.36.0 /usr/lib/x86_64-linux-gnu/perl5/5.36 /usr/share/perl5 /usr/lib/x86_64-linux-gnu/perl-base /usr/lib/x86_64-linux-gnu/perl/5.36 /usr/share/perl/5.36 /usr/local/lib/site_perl';

/** Runs `argv` if it is perl; undefined if it is another program. */
export function runPerl(image: CatalogImage, argv: string[], options: RunOptions, out: OutputLine[]): CommandOutcome | undefined {
	const base = (argv[0] ?? '').slice((argv[0] ?? '').lastIndexOf('/') + 1);
	if (base !== 'perl' && !/^perl5(\.\d+)*$/.test(base)) return undefined;
	const fullPerl = image.program === 'perl';
	const version = fullPerl ? image.version : '5.36.0';
	const { modules, code, flags, script } = parsePerlArgs(argv.slice(1));
	const done = (status: number): CommandOutcome => ({ kind: options.main ? 'exit' : 'done', status, out }) as CommandOutcome;
	if (flags.has('v')) {
		out.push({ stream: 'stdout', text: '' }, { stream: 'stdout', text: `This is perl 5, version ${version.split('.')[1]}, subversion ${version.split('.')[2] ?? '0'} (v${version}) built for x86_64-linux-gnu` });
		return done(0);
	}
	if (code === undefined) {
		if (script !== undefined) {
			out.push({ stream: 'stderr', text: `Can't open perl script "${script}": No such file or directory` });
			return done(2);
		}
		// Reads the program from stdin, which is empty in a container: nothing to run.
		return done(0);
	}
	const bignum = modules.find((m) => /^big(num|float|int|rat)\b/.test(m));
	if (bignum && !fullPerl) {
		const module = bignum.split('=')[0];
		out.push(
			{ stream: 'stderr', text: `Can't locate ${module}.pm in @INC (you may need to install the ${module} module) (@INC contains: ${DEBIAN_INC}).` },
			{ stream: 'stderr', text: 'BEGIN failed--compilation aborted.' },
		);
		return done(2);
	}
	const newline = flags.has('l') ? '' : undefined;
	const lines: string[] = [];
	let runtimeMs = 5;
	for (const statement of code.split(/;|\n/).map((s) => s.trim()).filter(Boolean)) {
		const pi = /^print\s*\(?\s*bpi\s*\(\s*(\d+)\s*\)\s*\)?$/.exec(statement);
		if (pi && bignum) {
			const digits = Number(pi[1]);
			if (digits > MAX_BPI_DIGITS) {
				// Hours of pure-Perl arithmetic: the process stays busy for longer than the simulation follows it.
				return options.main ? { kind: 'serve', server: { name: 'perl', ports: [], readyAfterMs: 0, onStop: { kind: 'ignore' }, startup: [], shutdown: [] }, out } : done(0);
			}
			lines.push(bpi(digits));
			runtimeMs += bpiRuntimeMs(digits);
			continue;
		}
		const literal = /^print\s*\(?\s*(["'])(.*)\1\s*\)?$/.exec(statement);
		if (literal) {
			const text = literal[1] === '"' ? literal[2].replace(/\\n/g, '\n').replace(/\\t/g, '\t') : literal[2];
			lines.push(...(newline === undefined ? text.replace(/\n$/, '') : text).split('\n'));
			continue;
		}
		out.push({ stream: 'stderr', text: `syntax error at -e line 1, near "${statement.slice(0, 20)}"` }, { stream: 'stderr', text: 'Execution of -e aborted due to compilation errors.' });
		return done(255);
	}
	const printed: OutputLine[] = lines.map((text) => ({ stream: 'stdout', text }));
	if (!options.main) {
		out.push(...printed);
		return { kind: 'done', status: 0, out };
	}
	// The main process computes, then prints everything and exits.
	return { kind: 'serve', server: { name: 'perl', ports: [], readyAfterMs: 0, onStop: { kind: 'ignore' }, startup: [], shutdown: [], exitsAfter: { afterMs: runtimeMs, exitCode: 0, reason: 'Completed', lines: printed } }, out };
}
