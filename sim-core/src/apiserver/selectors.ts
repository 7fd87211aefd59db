/**
 * Label and field selectors on list and watch requests: parsed once per
 * request, then matched against objects. Every resource supports
 * metadata.name and metadata.namespace; the resource's strategy adds the
 * fields it supports (spec.nodeName for pods, type for secrets...), as
 * upstream's per-resource field label conversions do.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/storage/selection_predicate.go
 * (SelectionPredicate), pkg/apis/core/v1/conversion.go (the per-resource
 * field label conversions).
 */
import type { KubeObject } from '../api/types.ts';
import { matches, matchesFields, parseFieldSelector, parseLabelSelector, type FieldSelector, type Selector } from '../api/labels.ts';
import type { Strategy } from './registry/strategy.ts';

interface ParsedSelectors {
	label?: Selector;
	field?: FieldSelector;
}

export function parseSelectors(label: string | undefined, field: string | undefined): { ok: true; value: ParsedSelectors } | { ok: false; error: string } {
	const value: ParsedSelectors = {};
	try {
		if (label) value.label = parseLabelSelector(label);
		if (field) value.field = parseFieldSelector(field);
	} catch (error) {
		return { ok: false, error: error instanceof Error ? error.message : String(error) };
	}
	return { ok: true, value };
}

function objectFields(obj: KubeObject, strategy: Strategy): Record<string, string> {
	return {
		'metadata.name': obj.metadata.name ?? '',
		'metadata.namespace': obj.metadata.namespace ?? '',
		...(strategy.fields?.(obj) ?? {}),
	};
}

export function objectMatches(obj: KubeObject, selectors: ParsedSelectors, strategy: Strategy): boolean {
	if (selectors.label && !matches(selectors.label, obj.metadata.labels ?? {})) return false;
	if (selectors.field && !matchesFields(selectors.field, objectFields(obj, strategy))) return false;
	return true;
}
