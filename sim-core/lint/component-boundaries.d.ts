/** Types of ./component-boundaries.js, for the TypeScript that reads its layer table (scripts/code-map.ts). */
import type { Rule } from 'eslint';

/** Shared layers and the layers each may import. */
export const SHARED_LAYERS: Readonly<Record<string, readonly string[]>>;
/** Components: one folder per real Kubernetes component (or tool the reader types). */
export const COMPONENTS: readonly string[];
/** The wiring, which may import anything. */
export const WIRING: readonly string[];
export const componentBoundaries: Rule.RuleModule;
declare const plugin: { rules: { 'component-boundaries': Rule.RuleModule } };
export default plugin;
