/**
 * Bounds that let the parser refuse hostile input quickly instead of
 * hanging or exhausting memory. The defaults are generous for real
 * Kubernetes manifests (a large Helm-rendered bundle is a few hundred KiB)
 * and tight enough that every refusal costs only a few milliseconds.
 *
 * Mirrors yaml/go-yaml decode.go (allowedAliasRatio, the excessive-aliasing
 * check), yaml/go-yaml scannerc.go (max_flow_level, max_indents).
 */
export interface YamlLimits {
	/** Largest input accepted, in UTF-16 code units (about characters). Checked before any scanning. */
	maxInputLength: number;
	/** Largest single scalar (key or value) after folding and escapes, in UTF-16 code units. */
	maxScalarLength: number;
	/**
	 * Deepest nesting of mappings and sequences (block or flow, alias copies
	 * included); the root collection is depth 1. The parser recurses once per
	 * level, so keep this in the hundreds, not the hundreds of thousands.
	 */
	maxDepth: number;
	/** Most nodes an alias or merge key may copy into one document, summed over all its aliases (stops "billion laughs"). */
	maxAliasNodes: number;
	/** Most documents in one stream, counting empty ones between `---` markers. */
	maxDocuments: number;
}

/** The limits used when a caller passes none; see each field of {@link YamlLimits}. */
export const DEFAULT_YAML_LIMITS: Readonly<YamlLimits> = Object.freeze({
	maxInputLength: 3 * 1024 * 1024,
	maxScalarLength: 1024 * 1024,
	maxDepth: 100,
	maxAliasNodes: 10_000,
	maxDocuments: 200,
});
