/**
 * The token model the scanner and the parser share, and the error both
 * raise.
 *
 * Mirrors yaml/go-yaml yamlh.go (token types, marks, and the problem a
 * parser reports, trimmed to what this reader needs).
 */

/**
 * A syntax or limit error, worded like go-yaml's (`reason`) with a 1-based
 * position. The position is the offending token, except for a quote or a
 * flow collection left open at the end of the input, where it is the opening
 * character (go-yaml would name the last line, which helps nobody).
 */
export class YamlError extends Error {
	/** 1-based line of the problem. */
	readonly line: number;
	/** 1-based column of the problem, in UTF-16 code units. */
	readonly column: number;
	/** The go-yaml-like explanation, e.g. `did not find expected key`. */
	readonly reason: string;

	constructor(reason: string, line: number, column: number) {
		super(`yaml: line ${line}, column ${column}: ${reason}`);
		this.name = 'YamlError';
		this.reason = reason;
		this.line = line;
		this.column = column;
	}
}

// Token kinds, as numbers so they cost nothing once minified. The eight
// kinds that can start a node are contiguous, ALIAS to BLOCK_MAP.
export const STREAM_END = 0,
	DOC_START = 1,
	DOC_END = 2,
	DIRECTIVE = 3,
	BLOCK_END = 4,
	FLOW_SEQ_END = 5,
	FLOW_MAP_END = 6,
	ENTRY = 7,
	FLOW_ENTRY = 8,
	KEY = 9,
	VALUE = 10,
	ALIAS = 11,
	ANCHOR = 12,
	TAG = 13,
	SCALAR = 14,
	FLOW_SEQ = 15,
	FLOW_MAP = 16,
	BLOCK_SEQ = 17,
	BLOCK_MAP = 18;
export type Kind = number;

export interface Token {
	t: Kind;
	/** 0-based position of the token's first character. */
	line: number;
	col: number;
	/** Scalar text, anchor or alias name, or tag. */
	v: string;
	/** True for plain (unquoted, non-block) scalars: only those are typed by content. */
	plain?: boolean;
}

/** Fails at a token's position (tokens carry 0-based marks; errors are 1-based). */
export function failAt(reason: string, t: Token): never {
	throw new YamlError(reason, t.line + 1, t.col + 1);
}
