/**
 * The non-table output of kubectl's reading commands: choosing a printer
 * from `-o`, printing objects as JSON, YAML, names, JSONPath, Go templates
 * or custom columns, and `--sort-by`.
 *
 * Mirrors
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/print_flags.go,
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/json_yaml_flags.go,
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/jsonpath_flags.go,
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/template_flags.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn_flags.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/json.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/yaml.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/name.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/jsonpath.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/managedfields.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/get/sorter.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { compareQuantities, parseQuantity } from '../../api/quantity.ts';
import { stringifyJsonLikeKubectl, type JsonValue } from '../../golang/json.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { customColumns, executeJsonPath, findJsonPathResults, JsonPathError, parseJsonPath, relaxedJsonPathExpression } from '../printers/jsonpath.ts';
import { objectRefName } from '../names.ts';
import { newGoTemplatePrinter, printGoTemplate, type GoTemplatePrinter } from '../printers/go-template.ts';
import type { KubectlEnvironment } from '../kubectl.ts';
import type { ParsedArgs } from '../flags.ts';

/** What `-o` asked for. */
export type OutputSpec =
	| { kind: 'human'; wide: boolean }
	| { kind: 'json' }
	| { kind: 'yaml' }
	| { kind: 'name' }
	| { kind: 'jsonpath'; template: string; asJson: boolean }
	| { kind: 'go-template'; printer: GoTemplatePrinter }
	| { kind: 'custom-columns'; spec: string };

/** Every format `kubectl get -o` accepts (PrintFlags.AllowedFormats; kyaml is on unless KUBECTL_KYAML=false). */
const GET_OUTPUT_FORMATS = [
	'custom-columns',
	'custom-columns-file',
	'go-template',
	'go-template-file',
	'json',
	'jsonpath',
	'jsonpath-as-json',
	'jsonpath-file',
	'kyaml',
	'name',
	'template',
	'templatefile',
	'wide',
	'yaml',
];

/** Formats kubectl has that this simulation does not print (KYAML). */
const UNSUPPORTED = new Set(['kyaml']);

/** NoCompatiblePrinterError's text: the formats sorted and comma-joined. */
export function noPrinterError(format: string, allowed: readonly string[]): string {
	return `unable to match a printer suitable for the output format "${format}", allowed formats are: ${[...allowed].sort().join(',')}`;
}

/**
 * Reads `-o` (and `--template`) the way get's PrintFlags.ToPrinter does.
 * Returns the spec, or the bare error message (kubectl prefixes `error: `).
 * `allowed` lists the formats of the command (get's by default).
 */
export function parseOutput(args: ParsedArgs, env: Pick<KubectlEnvironment, 'readFile'>, allowed: readonly string[] = GET_OUTPUT_FORMATS): { ok: true; spec: OutputSpec } | { ok: false; error: string } {
	let output = typeof args.flags.output === 'string' ? args.flags.output : '';
	const template = typeof args.flags.template === 'string' ? args.flags.template : '';
	if (template && !output) output = 'go-template';
	const eq = output.indexOf('=');
	const format = eq < 0 ? output : output.slice(0, eq);
	const argument = eq < 0 ? template : output.slice(eq + 1);
	if (format === '' || format === 'wide') return allowed.includes('wide') || format === '' ? { ok: true, spec: { kind: 'human', wide: format === 'wide' } } : { ok: false, error: noPrinterError(output, allowed) };
	if (!allowed.includes(format)) return { ok: false, error: noPrinterError(format, allowed) };
	if (UNSUPPORTED.has(format)) return { ok: false, error: `-o ${format} is not supported by the simulated kubectl; use -o jsonpath=... or -o custom-columns=... instead` };
	switch (format) {
		case 'json':
		case 'yaml':
		case 'name':
			return { ok: true, spec: { kind: format } };
		case 'jsonpath':
		case 'jsonpath-as-json':
		case 'jsonpath-file': {
			if (!argument) return { ok: false, error: 'template format specified but no template given' };
			let text = argument;
			if (format === 'jsonpath-file') {
				const file = env.readFile(argument);
				if (file === undefined) return { ok: false, error: `error reading --template ${argument}, open ${argument}: no such file or directory` };
				text = file;
			}
			try {
				parseJsonPath(text);
			} catch (e) {
				if (e instanceof JsonPathError) return { ok: false, error: e.message };
				throw e;
			}
			return { ok: true, spec: { kind: 'jsonpath', template: text, asJson: format === 'jsonpath-as-json' } };
		}
		case 'go-template':
		case 'go-template-file':
		case 'template':
		case 'templatefile': {
			// GoTemplatePrintFlags.ToPrinter.
			if (!argument) return { ok: false, error: 'template format specified but no template given' };
			let text = argument;
			if (format === 'go-template-file' || format === 'templatefile') {
				const file = env.readFile(argument);
				if (file === undefined) return { ok: false, error: `error reading --template ${argument}, open ${argument}: no such file or directory` };
				text = file;
			}
			const parsed = newGoTemplatePrinter(text);
			if (!parsed.ok) return parsed;
			return { ok: true, spec: { kind: 'go-template', printer: parsed.printer } };
		}
		case 'custom-columns':
		case 'custom-columns-file': {
			let spec = argument;
			if (format === 'custom-columns-file') {
				const file = env.readFile(argument);
				if (file === undefined) return { ok: false, error: `error reading template ${argument}, open ${argument}: no such file or directory` };
				// The file holds a header line and a path line, aligned by whitespace (customcolumn.go NewCustomColumnsPrinterFromTemplate).
				const [headers = '', paths = ''] = file.split('\n').filter((l) => l.trim());
				const h = headers.trim().split(/\s+/);
				const p = paths.trim().split(/\s+/);
				if (h.length !== p.length) return { ok: false, error: `invalid template, number of fields in header and path does not match ${h.length} != ${p.length}` };
				spec = h.map((name, i) => `${name}:${p[i]}`).join(',');
			}
			if (!spec) return { ok: false, error: 'custom-columns format specified but no custom columns given' };
			return { ok: true, spec: { kind: 'custom-columns', spec } };
		}
	}
	return { ok: false, error: noPrinterError(format, allowed) };
}

/** OmitManagedFieldsPrinter (kubectl's default `--show-managed-fields=false`): a copy without metadata.managedFields, in lists too. */
export function omitManagedFields(obj: KubeObject): KubeObject {
	const strip = (o: KubeObject): KubeObject => {
		if (!o.metadata?.managedFields) return o;
		const { managedFields: _dropped, ...metadata } = o.metadata;
		return { ...o, metadata };
	};
	const out = strip(obj);
	if (Array.isArray(out.items)) return { ...out, items: (out.items as KubeObject[]).map(strip) };
	return out;
}

/** The List `kubectl get -o json|yaml` prints for several objects (get.go printGeneric). */
export function asList(objects: readonly KubeObject[]): KubeObject {
	return { apiVersion: 'v1', items: [...objects], kind: 'List', metadata: { resourceVersion: '' } } as KubeObject;
}

/** State a printer keeps across calls (the YAML printer's document count, custom columns' header). */
interface GenericPrintState {
	printed: number;
}

/** Flags that shape non-table output. */
export interface GenericPrintOptions {
	/** `--no-headers` (custom columns). */
	noHeaders?: boolean;
	/** `--allow-missing-template-keys` (default true). */
	allowMissingKeys?: boolean;
	/** `--show-managed-fields` (default false: JSON and YAML omit metadata.managedFields). */
	showManagedFields?: boolean;
}

/** Prints one object (or a List) with a non-table printer. Returns the text, or the bare error message. */
export function printGeneric(spec: Exclude<OutputSpec, { kind: 'human' }>, obj: KubeObject, state: GenericPrintState, options: GenericPrintOptions = {}): { ok: true; text: string } | { ok: false; error: string; text?: string } {
	// Only the JSON and YAML printers drop managedFields (JSONYamlPrintFlags.ToPrinter).
	const data = (options.showManagedFields ? obj : omitManagedFields(obj)) as unknown as JsonValue;
	try {
		switch (spec.kind) {
			case 'json':
				return { ok: true, text: stringifyJsonLikeKubectl(data) };
			case 'yaml': {
				// The YAML printer separates the objects of one run with `---`.
				const separator = state.printed++ > 0 ? '---\n' : '';
				return { ok: true, text: separator + stringifyYaml(data) };
			}
			case 'name': {
				const items = Array.isArray(obj.items) ? (obj.items as KubeObject[]) : [obj];
				return { ok: true, text: items.map((item) => `${objectRefName(item)}\n`).join('') };
			}
			case 'jsonpath':
				return { ok: true, text: executeJsonPath(spec.template, obj as unknown as JsonValue, { allowMissingKeys: options.allowMissingKeys ?? true, outputJson: spec.asJson }) };
			case 'go-template':
				// The go-template printer sees managedFields (only the JSON and YAML printers drop them).
				return printGoTemplate(spec.printer, obj as unknown as JsonValue, options.allowMissingKeys ?? true);
			case 'custom-columns': {
				const noHeaders = options.noHeaders === true || state.printed++ > 0;
				return { ok: true, text: customColumns(spec.spec, obj as unknown as JsonValue, { noHeaders }) };
			}
		}
	} catch (e) {
		if (e instanceof JsonPathError) return { ok: false, error: e.message };
		throw e;
	}
}

// ---------------------------------------------------------------------------
// --sort-by

/** sorter.go isLess on unstructured values: numbers, strings (as quantities when both parse), anything else unordered. */
function isLess(a: JsonValue, b: JsonValue): boolean {
	if (typeof a === 'number' && typeof b === 'number') return a < b;
	if (typeof a === 'string' && typeof b === 'string') {
		try {
			return compareQuantities(parseQuantity(a), parseQuantity(b)) < 0;
		} catch {
			return a < b;
		}
	}
	return false;
}

/** The first value the sort field gives for an object, if any. */
function sortKey(template: ReturnType<typeof parseJsonPath>, obj: KubeObject): JsonValue | undefined {
	const results = findJsonPathResults(template, obj as unknown as JsonValue, { allowMissingKeys: true });
	return results.length > 0 && results[0].length > 0 ? results[0][0] : undefined;
}

/**
 * Sorts objects by a JSONPath field as `--sort-by` does (TableSorter,
 * RuntimeSort): objects without the field first, values compared as
 * numbers, quantities or strings. Go's sort.Sort runs an insertion sort on
 * up to 12 elements, which is reproduced (with its treatment of objects
 * that lack the field); longer lists are sorted stably. Errors are
 * kubectl's bare messages (`couldn't find any field with path
 * "{.metadata.foo}" in the list of objects`).
 */
export function sortObjects(objects: readonly KubeObject[], sortBy: string): { ok: true; objects: KubeObject[] } | { ok: false; error: string } {
	let field: string;
	try {
		field = relaxedJsonPathExpression(sortBy);
	} catch {
		field = sortBy;
	}
	let template: ReturnType<typeof parseJsonPath>;
	try {
		template = parseJsonPath(field);
	} catch (e) {
		if (e instanceof JsonPathError) return { ok: false, error: `sorting error: ${e.message}` };
		throw e;
	}
	const keyed = objects.map((object) => ({ object, key: sortKey(template, object) }));
	if (keyed.length > 0 && keyed.every((k) => k.key === undefined)) return { ok: false, error: `couldn't find any field with path "${field}" in the list of objects` };
	const less = (i: { key: JsonValue | undefined }, j: { key: JsonValue | undefined }) => {
		if (i.key === undefined) return true;
		if (j.key === undefined) return false;
		return isLess(i.key, j.key);
	};
	// Go's pdqsort switches to insertion sort below 12 + 1 elements (sort/zsortinterface.go).
	if (keyed.length <= 12) {
		for (let i = 1; i < keyed.length; i++) {
			for (let j = i; j > 0 && less(keyed[j], keyed[j - 1]); j--) [keyed[j], keyed[j - 1]] = [keyed[j - 1], keyed[j]];
		}
	} else {
		keyed.sort((a, b) => (a.key === undefined && b.key === undefined ? 0 : less(a, b) ? -1 : less(b, a) ? 1 : 0));
	}
	return { ok: true, objects: keyed.map((k) => k.object) };
}
