/**
 * Matching nodes against a pod's node selection: spec.nodeSelector plus
 * requiredDuringSchedulingIgnoredDuringExecution (RequiredNodeAffinity), and
 * the weights of preferred terms (PreferredSchedulingTerms).
 *
 * Terms are ORed, a term's requirements ANDed; an empty term matches
 * nothing. Required terms that fail to parse are dropped (upstream's
 * LazyErrorNodeSelector); preferred terms with errors make the whole set an
 * error, as NewPreferredSchedulingTerms does. matchFields supports only
 * `metadata.name` with In or NotIn and exactly one value.
 *
 * Mirrors
 * staging/src/k8s.io/component-helpers/scheduling/corev1/nodeaffinity/nodeaffinity.go.
 */
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, PodSpec } from '../api/types.ts';
import { matches, newRequirement, requirementMatches, selectorFromSet, SelectorError, type Requirement, type Selector, type SelectorOperator } from '../api/labels.ts';

const OPERATORS: Record<string, SelectorOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!', Gt: 'gt', Lt: 'lt' };

interface ParsedTerm {
	labels: Requirement[];
	fields: Array<{ key: string; equal: boolean; value: string }>;
}

function prefixed(path: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.startsWith('[') ? message : `${path}.${message}`;
}

function parseRequirements(exprs: NodeSelectorRequirement[] | undefined, path: string, errors: string[]): Requirement[] {
	const out: Requirement[] = [];
	(exprs ?? []).forEach((e, i) => {
		const op = Object.hasOwn(OPERATORS, e.operator) ? OPERATORS[e.operator] : undefined;
		if (!op) {
			errors.push(`${path}.matchExpressions[${i}].operator: Unsupported value: "${e.operator}": supported values: "DoesNotExist", "Exists", "Gt", "In", "Lt", "NotIn"`);
			return;
		}
		try {
			out.push(newRequirement(e.key, op, e.values ?? []));
		} catch (err) {
			if (!(err instanceof SelectorError)) throw err;
			errors.push(prefixed(`${path}.matchExpressions[${i}]`, err));
		}
	});
	return out;
}

function parseFields(exprs: NodeSelectorRequirement[] | undefined, path: string, errors: string[]): ParsedTerm['fields'] {
	const out: ParsedTerm['fields'] = [];
	(exprs ?? []).forEach((e, i) => {
		const values = e.values ?? [];
		if (values.length !== 1) errors.push(`${path}.matchFields[${i}].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`);
		else if (e.key !== 'metadata.name') errors.push(`${path}.matchFields[${i}].key: Invalid value: "${e.key}": not a valid field selector key`);
		else if (e.operator !== 'In' && e.operator !== 'NotIn') errors.push(`${path}.matchFields[${i}].operator: Invalid value: "${e.operator}": not a valid selector operator`);
		else out.push({ key: e.key, equal: e.operator === 'In', value: values[0] });
	});
	return out;
}

/** Parses one term; undefined for an empty term (which matches nothing) or a term with errors (added to `errors`). */
function parseTerm(term: NodeSelectorTerm, path: string, errors: string[]): ParsedTerm | undefined {
	if (!term.matchExpressions?.length && !term.matchFields?.length) return undefined;
	const before = errors.length;
	const parsed = { labels: parseRequirements(term.matchExpressions, path, errors), fields: parseFields(term.matchFields, path, errors) };
	return errors.length > before ? undefined : parsed;
}

function termMatches(term: ParsedTerm, node: Node): boolean {
	const labels = node.metadata.labels ?? {};
	if (!term.labels.every((r) => requirementMatches(r, labels))) return false;
	const fields: Record<string, string> = { 'metadata.name': node.metadata.name ?? '' };
	return term.fields.every((f) => ((fields[f.key] ?? '') === f.value) === f.equal);
}

/** nodeaffinity.NodeSelector in its lazy-error form: ORed terms, bad terms dropped. */
export class NodeSelectorMatcher {
	private readonly terms: ParsedTerm[] = [];
	readonly parseErrors: string[] = [];

	constructor(terms: NodeSelectorTerm[]) {
		terms.forEach((term, i) => {
			const parsed = parseTerm(term, `[${i}]`, this.parseErrors);
			if (parsed) this.terms.push(parsed);
		});
	}

	match(node: Node): boolean {
		return this.terms.some((t) => termMatches(t, node));
	}
}

/** nodeaffinity.RequiredNodeAffinity: nodeSelector AND required node affinity (GetRequiredNodeAffinity). */
export class RequiredNodeAffinity {
	private readonly labelSelector?: Selector;
	readonly nodeSelector?: NodeSelectorMatcher;

	constructor(spec: Pick<PodSpec, 'nodeSelector' | 'affinity'>) {
		if (spec.nodeSelector && Object.keys(spec.nodeSelector).length > 0) this.labelSelector = selectorFromSet(spec.nodeSelector);
		const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
		if (required) this.nodeSelector = new NodeSelectorMatcher(required.nodeSelectorTerms ?? []);
	}

	match(node: Node): boolean {
		if (this.labelSelector && !matches(this.labelSelector, node.metadata.labels ?? {})) return false;
		if (this.nodeSelector) return this.nodeSelector.match(node);
		return true;
	}
}

/** nodeaffinity.PreferredSchedulingTerms: the summed weights of the matching terms. */
export class PreferredSchedulingTerms {
	private readonly terms: Array<{ term: ParsedTerm; weight: number }> = [];
	readonly parseErrors: string[] = [];

	constructor(terms: Array<{ weight: number; preference: NodeSelectorTerm }>) {
		terms.forEach((t, i) => {
			if (t.weight === 0) return;
			const parsed = parseTerm(t.preference ?? {}, `[${i}]`, this.parseErrors);
			if (parsed) this.terms.push({ term: parsed, weight: t.weight });
		});
	}

	/** The aggregate of the parse errors, as utilerrors.NewAggregate prints it. */
	error(): string | undefined {
		if (this.parseErrors.length === 0) return undefined;
		return this.parseErrors.length === 1 ? this.parseErrors[0] : `[${this.parseErrors.join(', ')}]`;
	}

	score(node: Node): number {
		let total = 0;
		for (const { term, weight } of this.terms) if (termMatches(term, node)) total += weight;
		return total;
	}
}
