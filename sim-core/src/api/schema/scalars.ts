/**
 * The value checks that upstream's custom JSON decoders make, with their
 * exact error messages: resource.Quantity, metav1.Time / MicroTime (Go's
 * time.Parse) and []byte (Go's base64). The decoder runs them so that a
 * manifest with `memory: 128mb` fails here the way it fails on a real API
 * server.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go
 * (UnmarshalJSON), staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go
 * (UnmarshalJSON),
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/micro_time.go
 * (UnmarshalJSON), golang/go src/time/format.go (time.Parse errors),
 * golang/go src/encoding/base64/base64.go (CorruptInputError).
 */

const isDigit = (s: string, i: number): boolean => s[i] >= '0' && s[i] <= '9';

/** The regular expression upstream's quantity error message quotes (k8s.io/apimachinery/pkg/api/resource/quantity.go, splitREString). */
const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/**
 * Why a string is not a resource.Quantity, in upstream's words, or
 * undefined when it parses. Mirrors parseQuantityString and the suffix
 * table of k8s.io/apimachinery/pkg/api/resource (quantity.go, suffix.go).
 * Only the syntax is checked: the rare "unable to parse numeric part of
 * quantity" (ErrNumeric) for absurdly long mantissas is not reproduced.
 */
export function quantityError(str: string): string | undefined {
	const end = str.length;
	if (end === 0) return FORMAT_WRONG;
	let i = 0;
	if (str[0] === '-' || str[0] === '+') i++;
	while (i < end && str[i] === '0') i++;
	while (i < end && isDigit(str, i)) i++;
	if (i < end && str[i] === '.') {
		i++;
		while (i < end && isDigit(str, i)) i++;
	}
	if (i >= end) return undefined; // a bare number
	const suffixStart = i;
	while (i < end && 'eEinumkKMGTP'.includes(str[i])) i++;
	if (i < end) {
		if (str[i] === '-' || str[i] === '+') i++;
		while (i < end && isDigit(str, i)) i++;
		if (i < end) return FORMAT_WRONG;
	}
	// suffix.go: decimal SI, binary SI, or an exponent (e3, E-2).
	return /^([numkMGTPE]|[KMGTPE]i|[eE][+-]?\d{1,18})?$/.test(str.slice(suffixStart)) ? undefined : "unable to parse quantity's suffix";
}

/** Go's time.quote: double quotes, `"` and `\\` escaped, bytes outside printable ASCII as `\xNN` (src/time/format.go). */
const timeQuote = (s: string): string =>
	'"' +
	s.replace(/["\\]/g, '\\$&').replace(/[^ -~]/gu, (ch) => {
		try {
			return encodeURIComponent(ch).replaceAll('%', '\\x').toLowerCase();
		} catch {
			return '\\xef\\xbf\\xbd'; // a lone surrogate: Go would hold U+FFFD
		}
	}) +
	'"';

/**
 * The layout elements of RFC 3339 as Go's time.parse walks them: literal
 * prefix, layout element, what the value must start with, and the range
 * check (exclusive maximum and its name in "… out of range").
 */
const TIME_PARTS: [string, string, RegExp, number?, string?][] = [
	['', '2006', /^\d{4}/],
	['-', '01', /^\d\d/, 13, 'month'],
	['-', '02', /^\d\d/],
	['T', '15', /^\d\d?/, 24, 'hour'],
	[':', '04', /^\d\d/, 60, 'minute'],
	[':', '05', /^\d\d/, 60, 'second'],
];
const FRACTION: [string, string, RegExp] = ['', '.000000', /^[.,]\d{6}/];
const ZONE: [string, string, RegExp] = ['', 'Z07:00', /^(Z|[+-](\d\d):(\d\d))/];

/**
 * Why a string is not a metav1.Time (layout RFC 3339) or, with `micro`, a
 * metav1.MicroTime (RFC 3339 with exactly six fractional digits), or
 * undefined when it parses. The message is Go's time.ParseError text, which
 * the API server passes through unchanged (metav1 Time.UnmarshalJSON calls
 * time.Parse). Mirrors time.parse in Go's src/time/format.go for the
 * elements these layouts use; for nonsense such as a two-digit zone offset
 * with a bad sign and an out-of-range hour, Go may name the other problem.
 */
export function timeError(value: string, micro = false): string | undefined {
	const layout = micro ? '2006-01-02T15:04:05.000000Z07:00' : '2006-01-02T15:04:05Z07:00';
	const head = `parsing time ${timeQuote(value)}`;
	const cannot = (rest: string, elem: string): string => `${head} as ${timeQuote(layout)}: cannot parse ${timeQuote(rest)} as ${timeQuote(elem)}`;
	const numbers: number[] = [];
	let v = value;
	for (const [prefix, elem, pattern, max, name] of [...TIME_PARTS, ...(micro ? [FRACTION] : []), ZONE]) {
		if (!v.startsWith(prefix)) return cannot(v, prefix);
		v = v.slice(prefix.length);
		const m = pattern.exec(v);
		if (!m) return cannot(v, elem);
		v = v.slice(m[0].length);
		const n = +m[0];
		numbers.push(n);
		if (max && (n >= max || (elem === '01' && n < 1))) return `${head}: ${name} out of range`;
		if (elem === '05' && !micro) v = v.replace(/^[.,]\d+/, ''); // fractional seconds the layout does not name
		if (m[2] && +m[2] > 24) return `${head}: time zone offset hour out of range`;
		if (m[3] && +m[3] > 60) return `${head}: time zone offset minute out of range`;
	}
	if (v) return `${head}: extra text: ${timeQuote(v)}`;
	const [year, month, day] = numbers;
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	if (day < 1 || day > [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]) return `${head}: day out of range`;
	return undefined;
}

/**
 * Why a string is not standard padded base64, as Go's encoding/base64
 * reports it ("illegal base64 data at input byte N", N counting UTF-8
 * bytes), or undefined when it decodes. Line breaks are skipped, as Go
 * does. Mirrors decodeQuantum in Go's src/encoding/base64/base64.go; this is
 * what a Secret's `data` values go through.
 */
export function base64Error(text: string): string | undefined {
	let s = text;
	try {
		s = unescape(encodeURIComponent(text)); // one char per UTF-8 byte, so offsets count bytes
	} catch {
		// A lone surrogate: positions before it are still right.
	}
	const corrupt = (at: number): string => `illegal base64 data at input byte ${at}`;
	const skipNewlines = (i: number): number => {
		while (i < s.length && (s[i] === '\n' || s[i] === '\r')) i++;
		return i;
	};
	let si = 0;
	for (;;) {
		for (let j = 0; j < 4; j++) {
			if (si === s.length) return j === 0 ? undefined : corrupt(si - j);
			const c = s[si++];
			if (/[A-Za-z0-9+/]/.test(c)) continue;
			if (c === '\n' || c === '\r') {
				j--;
				continue;
			}
			if (c !== '=' || j < 2) return corrupt(si - 1);
			if (j === 2) {
				si = skipNewlines(si);
				if (si === s.length) return corrupt(s.length);
				if (s[si] !== '=') return corrupt(si - 1);
				si++;
			}
			si = skipNewlines(si);
			return si < s.length ? corrupt(si) : undefined;
		}
	}
}
