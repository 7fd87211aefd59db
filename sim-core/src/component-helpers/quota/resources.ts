/**
 * Quota arithmetic over resource lists (`{ "requests.cpu": "500m", pods: "3" }`):
 * exact sums and differences of quantities, masks by resource name, the
 * "less than or equal" test admission applies against `status.hard`, and
 * the sorted `name=value` form its error messages print.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go.
 */
import { Quantity } from '../../api/quantity.ts';
import { toResourceList } from '../resource.ts';
import { compareGoStrings } from '../../golang/json.ts';

/** A resource list with parsed quantities (corev1.ResourceList). */
export type QuotaList = Map<string, Quantity>;

/** A resource list as the API object holds it, parsed (unparsable values count as zero). */
export function toQuotaList(record: Record<string, string | number> | undefined | null): QuotaList {
	return toResourceList(record ?? undefined);
}

/** The list as an API object holds it, keys sorted as Go's JSON encoder writes a map. */
export function fromQuotaList(list: QuotaList): Record<string, string> {
	const out: Record<string, string> = {};
	for (const name of [...list.keys()].sort(compareGoStrings)) out[name] = list.get(name)!.toString();
	return out;
}

/** A zero in DecimalSI, as a `resource.Quantity{Format: DecimalSI}` prints ("0"). */
export const zero = (): Quantity => Quantity.parse('0');

/** One (an object counted once). */
export const one = (): Quantity => Quantity.parse('1');

/** Add: the sum of both lists, key by key (a key in only one list is copied). */
export function add(a: QuotaList, b: QuotaList): QuotaList {
	const out: QuotaList = new Map(a);
	for (const [name, value] of b) {
		const mine = out.get(name);
		out.set(name, mine ? mine.add(value) : value);
	}
	return out;
}

/** SubtractWithNonNegativeResult: a - b per key of a, never below zero. */
export function subtractNonNegative(a: QuotaList, b: QuotaList): QuotaList {
	const out: QuotaList = new Map();
	for (const [name, value] of a) {
		const other = b.get(name);
		const diff = other ? value.sub(other) : value;
		out.set(name, diff.sign() < 0 ? zero() : diff);
	}
	return out;
}

/** Mask: only the keys in `names`. */
export function mask(list: QuotaList, names: Iterable<string>): QuotaList {
	const out: QuotaList = new Map();
	for (const name of names) {
		const value = list.get(name);
		if (value) out.set(name, value);
	}
	return out;
}

/** LessThanOrEqual: whether a <= b for every key both have, and the keys where it is not. */
export function lessThanOrEqual(a: QuotaList, b: QuotaList): { allowed: boolean; exceeded: string[] } {
	const exceeded: string[] = [];
	for (const [name, value] of a) {
		const limit = b.get(name);
		if (limit && value.cmp(limit) > 0) exceeded.push(name);
	}
	return { allowed: exceeded.length === 0, exceeded };
}

/** Equals: the same keys with equal quantities. */
export function equals(a: QuotaList, b: QuotaList): boolean {
	if (a.size !== b.size) return false;
	for (const [name, value] of a) {
		const other = b.get(name);
		if (!other || other.cmp(value) !== 0) return false;
	}
	return true;
}

export function removeZeros(list: QuotaList): QuotaList {
	return new Map([...list].filter(([, value]) => !value.isZero()));
}

/** IsNegative: the names whose quantity is below zero. */
export function negatives(list: QuotaList): string[] {
	return [...list].filter(([, value]) => value.sign() < 0).map(([name]) => name);
}

/** prettyPrint: `name=value` pairs, sorted, joined by commas (the admission errors' form). */
export function prettyPrint(list: QuotaList): string {
	return [...list.keys()]
		.sort(compareGoStrings)
		.map((name) => `${name}=${list.get(name)!.toString()}`)
		.join(',');
}

/** prettyPrintResourceNames: the names sorted and joined by commas. */
export function prettyPrintNames(names: Iterable<string>): string {
	return [...names].sort(compareGoStrings).join(',');
}
