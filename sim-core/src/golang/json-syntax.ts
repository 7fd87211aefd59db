/**
 * Go's encoding/json syntax errors, for the messages kube-apiserver returns
 * when a request body is not JSON: `invalid character 'a' looking for
 * beginning of value`, `invalid character 'o' in literal null (expecting
 * 'u')`, `unexpected end of JSON input`... The scanner's states are followed
 * for the first error only, as json.Unmarshal reports it.
 *
 * Mirrors golang/go src/encoding/json/scanner.go.
 */

/** Go's quoteChar: `'x'`, with `'\''` and `'"'` special-cased and escapes as strconv.Quote writes them. */
function quoteChar(c: string): string {
	if (c === "'") return `'\\''`;
	if (c === '"') return `'"'`;
	const quoted = JSON.stringify(c);
	return `'${quoted.slice(1, -1)}'`;
}

class SyntaxError_ extends Error {}

/** Returns Go's error text for `text`, or undefined if it is valid JSON. */
export function goJsonSyntaxError(text: string): string | undefined {
	let i = 0;
	const end = () => {
		throw new SyntaxError_('unexpected end of JSON input');
	};
	const bad = (context: string) => {
		throw new SyntaxError_(`invalid character ${quoteChar(text[i])} ${context}`);
	};
	const space = () => {
		while (i < text.length && ' \t\r\n'.includes(text[i])) i++;
	};
	const literal = (word: string) => {
		for (let k = 1; k < word.length; k++) {
			i++;
			if (i >= text.length) end();
			if (text[i] !== word[k]) bad(`in literal ${word} (expecting ${quoteChar(word[k])})`);
		}
		i++;
	};
	const digits = (context: string) => {
		if (i >= text.length) end();
		if (!/[0-9]/.test(text[i])) bad(context);
		while (i < text.length && /[0-9]/.test(text[i])) i++;
	};
	const number = () => {
		if (text[i] === '-') {
			i++;
			if (i >= text.length) end();
			if (!/[0-9]/.test(text[i])) bad('in numeric literal');
		}
		if (text[i] === '0') i++;
		else digits('in numeric literal');
		if (text[i] === '.') {
			i++;
			digits('after decimal point in numeric literal');
		}
		if (text[i] === 'e' || text[i] === 'E') {
			i++;
			if (text[i] === '+' || text[i] === '-') i++;
			digits('in exponent of numeric literal');
		}
	};
	const string = () => {
		i++;
		for (;;) {
			if (i >= text.length) end();
			const c = text[i];
			if (c === '"') {
				i++;
				return;
			}
			if (c < ' ') bad('in string literal');
			if (c === '\\') {
				i++;
				if (i >= text.length) end();
				if (!'"\\/bfnrtu'.includes(text[i])) bad('in string escape code');
				if (text[i] === 'u') {
					for (let k = 0; k < 4; k++) {
						i++;
						if (i >= text.length) end();
						if (!/[0-9a-fA-F]/.test(text[i])) bad('in \\u hexadecimal character escape');
					}
				}
			}
			i++;
		}
	};
	let depth = 0;
	const value = (): void => {
		// Go's scanner stops at 10000 levels; the simulation stops at 1000 to keep the stack small.
		if (++depth > 1000) throw new SyntaxError_('exceeded max depth');
		try {
			valueAt();
		} finally {
			depth--;
		}
	};
	const valueAt = (): void => {
		space();
		if (i >= text.length) end();
		const c = text[i];
		if (c === '{') {
			i++;
			space();
			if (i >= text.length) end();
			if (text[i] === '}') {
				i++;
				return;
			}
			for (;;) {
				space();
				if (i >= text.length) end();
				if (text[i] !== '"') bad('looking for beginning of object key string');
				string();
				space();
				if (i >= text.length) end();
				if (text[i] !== ':') bad('after object key');
				i++;
				value();
				space();
				if (i >= text.length) end();
				if (text[i] === '}') {
					i++;
					return;
				}
				if (text[i] !== ',') bad('after object key:value pair');
				i++;
			}
		}
		if (c === '[') {
			i++;
			space();
			if (i >= text.length) end();
			if (text[i] === ']') {
				i++;
				return;
			}
			for (;;) {
				value();
				space();
				if (i >= text.length) end();
				if (text[i] === ']') {
					i++;
					return;
				}
				if (text[i] !== ',') bad('after array element');
				i++;
			}
		}
		if (c === '"') return string();
		if (c === 't') return literal('true');
		if (c === 'f') return literal('false');
		if (c === 'n') return literal('null');
		if (c === '-' || (c >= '0' && c <= '9')) return number();
		bad('looking for beginning of value');
	};
	try {
		value();
		space();
		if (i < text.length) bad('after top-level value');
		return undefined;
	} catch (error) {
		if (error instanceof SyntaxError_) return error.message;
		throw error;
	}
}
