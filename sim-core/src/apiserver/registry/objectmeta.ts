/**
 * Validation shared by every resource: object metadata (names, namespace,
 * labels, annotations, finalizers), immutability, and the small value
 * validators of k8s.io/apimachinery/pkg/util/validation (ports, config-map
 * keys, environment variable names, IP addresses, percentages).
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go,
 * staging/src/k8s.io/apimachinery/pkg/api/validation/generic.go,
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go,
 * staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go.
 */
import type { KubeObject, ObjectMeta } from '../../api/types.ts';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue, labelSelectorFromObject, SelectorError } from '../../api/labels.ts';
import { utf8Length } from '../../golang/utf8.ts';
import { child, forbidden, jsonStringMap, index, invalid, required, tooLong, type FieldError } from './field.ts';

/** apimachineryvalidation.FieldImmutableErrorMsg. */
const FIELD_IMMUTABLE = 'field is immutable';
/** apimachineryvalidation.IsNegativeErrorMsg. */
export const IS_NEGATIVE = 'must be greater than or equal to 0';
/** TotalAnnotationSizeLimitB = 256 * (1 << 10) (objectmeta.go). */
const TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

/** A name validator: messages for `name`; `prefix` when it is a generateName (a trailing dash is fine). */
type NameValidator = (name: string, prefix: boolean) => string[];

/** maskTrailingDash (generic.go): a generateName may end with '-'. */
function maskTrailingDash(name: string): string {
	return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

/** NameIsDNSSubdomain: most object names. */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
/** NameIsDNSLabel: namespaces. */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
/** NameIsDNS1035Label: services. */
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** path.IsValidPathSegmentName (apimachinery api/validation/path): RBAC object names. */
export const nameIsValidPathSegment: NameValidator = (name) => {
	if (name === '.' || name === '..') return [`may not be '${name}'`];
	const errs: string[] = [];
	for (const illegal of ['/', '%']) if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
	return errs;
};

/** ValidateLabels (meta/v1/validation): key errors and value errors, all on the same path. */
export function validateLabels(labels: Record<string, string> | undefined, path: string): FieldError[] {
	const errs: FieldError[] = [];
	for (const [k, v] of Object.entries(labels ?? {})) {
		errs.push(...validateLabelName(k, path));
		for (const msg of isValidLabelValue(String(v))) errs.push(invalid(path, v, msg));
	}
	return errs;
}

/** ValidateLabelName (meta/v1/validation). */
export function validateLabelName(name: string, path: string): FieldError[] {
	return isQualifiedName(name).map((msg) => invalid(path, name, msg));
}

/** ValidateQualifiedName (core validation). */
export function validateQualifiedName(value: string, path: string): FieldError[] {
	return isQualifiedName(value).map((msg) => invalid(path, value, msg));
}

/** ValidateDNS1123Label (core validation). */
export function validateDNS1123Label(value: string, path: string): FieldError[] {
	return isDNS1123Label(value).map((msg) => invalid(path, value, msg));
}

/** ValidateDNS1123Subdomain (core validation). */
export function validateDNS1123Subdomain(value: string, path: string): FieldError[] {
	return isDNS1123Subdomain(value).map((msg) => invalid(path, value, msg));
}

/** ValidateAnnotations: keys are qualified names compared in lower case; the total size is capped. */
export function validateAnnotations(annotations: Record<string, string> | undefined, path: string): FieldError[] {
	const errs: FieldError[] = [];
	let total = 0;
	for (const [k, v] of Object.entries(annotations ?? {})) {
		for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path, k, msg));
		total += utf8Length(k) + utf8Length(String(v));
	}
	if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) errs.push(tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
	return errs;
}

/** ValidateNonnegativeField. */
export function validateNonnegative(value: number | undefined, path: string): FieldError[] {
	return value !== undefined && value < 0 ? [invalid(path, value, IS_NEGATIVE)] : [];
}

/** ValidateImmutableField: `Invalid value: <new>: field is immutable`. */
export function validateImmutable(newValue: unknown, oldValue: unknown, path: string, rendered?: string): FieldError[] {
	return JSON.stringify(newValue ?? null) === JSON.stringify(oldValue ?? null) ? [] : [invalid(path, newValue, FIELD_IMMUTABLE, rendered)];
}

/** The standard finalizer names that need no domain (helper.IsStandardFinalizerName). */
const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** ValidateFinalizerName (apimachinery) plus validateKubeFinalizerName (core). */
export function validateFinalizerName(name: string, path: string): FieldError[] {
	const errs = isQualifiedName(name).map((msg) => invalid(path, name, msg));
	if (!name.includes('/') && !STANDARD_FINALIZERS.has(name)) {
		errs.push(invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
	}
	return errs;
}

/**
 * ValidateObjectMeta (objectmeta.go ValidateObjectMetaAccessor): name or
 * generateName, namespace presence by scope, labels, annotations,
 * finalizers.
 */
export function validateObjectMeta(meta: ObjectMeta, namespaced: boolean, nameFn: NameValidator, path = 'metadata'): FieldError[] {
	const errs: FieldError[] = [];
	if (meta.generateName) {
		for (const msg of nameFn(meta.generateName, true)) errs.push(invalid(child(path, 'generateName'), meta.generateName, msg));
	}
	if (!meta.name) errs.push(required(child(path, 'name'), 'name or generateName is required'));
	else for (const msg of nameFn(meta.name, false)) errs.push(invalid(child(path, 'name'), meta.name, msg));
	if (namespaced) {
		if (!meta.namespace) errs.push(required(child(path, 'namespace')));
		else for (const msg of nameIsDNSLabel(meta.namespace, false)) errs.push(invalid(child(path, 'namespace'), meta.namespace, msg));
	} else if (meta.namespace) {
		errs.push(forbidden(child(path, 'namespace'), 'not allowed on this type'));
	}
	errs.push(...validateNonnegative(meta.generation, child(path, 'generation')));
	errs.push(...validateLabels(meta.labels, child(path, 'labels')));
	errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
	(meta.finalizers ?? []).forEach((f, i) => errs.push(...validateFinalizerName(f, index(child(path, 'finalizers'), i))));
	return errs;
}

/** ValidateObjectMetaUpdate: name, namespace, uid and creationTimestamp are immutable; no new finalizers while deleting. */
export function validateObjectMetaUpdate(meta: ObjectMeta, old: ObjectMeta, path = 'metadata'): FieldError[] {
	const errs: FieldError[] = [];
	errs.push(...validateImmutable(meta.name, old.name, child(path, 'name')));
	errs.push(...validateImmutable(meta.namespace ?? '', old.namespace ?? '', child(path, 'namespace')));
	errs.push(...validateImmutable(meta.uid, old.uid, child(path, 'uid')));
	errs.push(...validateImmutable(meta.creationTimestamp, old.creationTimestamp, child(path, 'creationTimestamp')));
	errs.push(...validateLabels(meta.labels, child(path, 'labels')));
	errs.push(...validateAnnotations(meta.annotations, child(path, 'annotations')));
	(meta.finalizers ?? []).forEach((f, i) => errs.push(...validateFinalizerName(f, index(child(path, 'finalizers'), i))));
	if (old.deletionTimestamp) {
		const added = (meta.finalizers ?? []).filter((f) => !(old.finalizers ?? []).includes(f));
		if (added.length) errs.push(forbidden(child(path, 'finalizers'), `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => JSON.stringify(f)).join(', ')}}`));
	}
	return errs;
}

/** The metadata check of a resource's Validate, as a one-liner for strategies. */
export function metaErrors(obj: KubeObject, namespaced: boolean, nameFn: NameValidator = nameIsDNSSubdomain): FieldError[] {
	return validateObjectMeta(obj.metadata, namespaced, nameFn);
}

// ---- util/validation value checks ------------------------------------------------

/** validation.InclusiveRangeError. */
export function inclusiveRangeError(lo: number, hi: number): string {
	return `must be between ${lo} and ${hi}, inclusive`;
}

/** IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
	return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** IsValidPortName: an IANA_SVC_NAME. */
export function isValidPortName(port: string): string[] {
	const errs: string[] = [];
	if (port.length > 15) errs.push('must be no more than 15 characters');
	if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
	if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
	if (port.includes('--')) errs.push('must not contain consecutive hyphens');
	if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
	return errs;
}

/** ValidatePortNumOrName: a number in range, or a valid port name. */
export function validatePortNumOrName(port: unknown, path: string): FieldError[] {
	if (typeof port === 'number') return isValidPortNum(port).map((msg) => invalid(path, port, msg));
	if (typeof port === 'string') return isValidPortName(port).map((msg) => invalid(path, port, msg));
	return [{ field: path, type: 'InternalError', detail: `unknown type: ${typeof port}` }];
}

/** IsConfigMapKey: `[-._a-zA-Z0-9]+`, at most 253 characters, not `.`/`..`. */
export function isConfigMapKey(value: string): string[] {
	const errs: string[] = [];
	if (value.length > 253) errs.push('must be no more than 253 characters');
	if (!/^[-._a-zA-Z0-9]+$/.test(value)) {
		errs.push("a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
	}
	if (value === '.') errs.push("must not be '.'");
	else if (value === '..') errs.push("must not be '..'");
	else if (value.startsWith('..')) errs.push("must not start with '..'");
	return errs;
}

/**
 * IsRelaxedEnvVarName: printable ASCII except '='. The relaxed rule is the
 * default since RelaxedEnvironmentVariableValidation went GA in v1.34.
 */
export function isEnvVarName(value: string): string[] {
	for (const ch of value) {
		const cp = ch.codePointAt(0) ?? 0;
		if (cp < 0x20 || cp > 0x7e || ch === '=') return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
	}
	return [];
}

/** Parses a dotted-quad IPv4 address into a 32-bit number, or undefined. */
export function parseIPv4(value: string): number | undefined {
	const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
	if (!m) return undefined;
	const parts = m.slice(1).map(Number);
	if (parts.some((p) => p > 255)) return undefined;
	return ((parts[0] << 24) >>> 0) + (parts[1] << 16) + (parts[2] << 8) + parts[3];
}

/** Formats a 32-bit number as a dotted quad. */
export function formatIPv4(n: number): string {
	return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** A loose IPv6 syntax check (the simulation is IPv4 single-stack; IPv6 is only recognised). */
function looksLikeIPv6(value: string): boolean {
	return value.includes(':') && /^[0-9a-fA-F:.]+$/.test(value) && (value.match(/::/g) ?? []).length <= 1;
}

/** IsValidIP (util/validation/ip.go). */
export function validateIP(value: string, path: string): FieldError[] {
	return parseIPv4(value) !== undefined || looksLikeIPv6(value) ? [] : [invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
}

/** IsValidPercent: `[0-9]+%`. */
export function isValidPercent(value: string): string[] {
	return /^[0-9]+%$/.test(value) ? [] : ["a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"];
}

/**
 * ValidateLabelSelector (meta/v1/validation): operators, keys and values of
 * a metav1.LabelSelector.
 */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
	const sel = selector as { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key?: string; operator?: string; values?: string[] }> } | undefined;
	if (!sel || typeof sel !== 'object') return [];
	const errs: FieldError[] = [];
	(sel.matchExpressions ?? []).forEach((r, i) => {
		const p = index(child(path, 'matchExpressions'), i);
		const values = r.values ?? [];
		switch (r.operator) {
			case 'In':
			case 'NotIn':
				if (values.length === 0) errs.push(required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
				break;
			case 'Exists':
			case 'DoesNotExist':
				if (values.length > 0) errs.push(forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
				break;
			default:
				errs.push(invalid(child(p, 'operator'), r.operator ?? '', 'not a valid selector operator'));
		}
		errs.push(...validateLabelName(r.key ?? '', child(p, 'key')));
		values.forEach((v, j) => {
			for (const msg of isValidLabelValue(v)) errs.push(invalid(index(child(p, 'values'), j), v, msg));
		});
	});
	errs.push(...validateLabels(sel.matchLabels, child(path, 'matchLabels')));
	return errs;
}

/** Whether a metav1.LabelSelector (as stored) selects these labels; an invalid selector selects nothing. */
export function selectorMatches(selector: unknown, labels: Record<string, string> | undefined): boolean {
	try {
		const parsed = labelSelectorFromObject(selector as Parameters<typeof labelSelectorFromObject>[0]);
		if (parsed.nothing) return false;
		return parsed.requirements.every((r) => {
			const has = Object.hasOwn(labels ?? {}, r.key);
			const value = has ? (labels ?? {})[r.key] : '';
			switch (r.operator) {
				case 'in':
				case '=':
				case '==':
					return has && r.values.includes(value);
				case 'notin':
				case '!=':
					return !has || !r.values.includes(value);
				case 'exists':
					return has;
				case '!':
					return !has;
				default:
					return false;
			}
		});
	} catch (e) {
		if (e instanceof SelectorError) return false;
		throw e;
	}
}

/** The `selector does not match template labels` error on `<path>.metadata.labels`. */
export function selectorMismatch(templatePath: string, templateLabels: Record<string, string> | undefined): FieldError {
	return invalid(child(templatePath, 'metadata', 'labels'), templateLabels, '`selector` does not match template `labels`', jsonStringMap(templateLabels));
}
