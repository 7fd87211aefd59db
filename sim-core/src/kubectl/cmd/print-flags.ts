/**
 * The flags kubectl's changing commands share and what they print: `-o`
 * (PrintFlags: the name printer's `deployment.apps/nginx created`, yaml,
 * json, jsonpath, go-template), `--dry-run` (cmdutil.GetDryRunStrategy) and `--validate`
 * (cmdutil.GetValidationDirective).
 *
 * Mirrors
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/print_flags.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/name.go,
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/template_flags.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (GetDryRunStrategy,
 * GetValidationDirective).
 */
import type { KubeObject } from '../../api/types.ts';
import { stringifyJsonLikeKubectl, type JsonValue } from '../../golang/json.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { executeJsonPath, JsonPathError } from '../printers/jsonpath.ts';
import { newGoTemplatePrinter, printGoTemplate } from '../printers/go-template.ts';
import type { FlagSpec, ParsedArgs } from '../flags.ts';
import { objectRefName } from '../names.ts';
import { formatRfc3339Micro } from '../../golang/time.ts';
import { plain, type KubectlError } from './check-err.ts';

/** `-o, --output`. */
export const OUTPUT_FLAG: FlagSpec = { name: 'output', short: 'o', kind: 'string' };
/** `--template` (for `-o jsonpath` / go-template). */
const TEMPLATE_FLAG: FlagSpec = { name: 'template', kind: 'string' };
/** `--dry-run[=none|client|server]`: a bare `--dry-run` means the deprecated `unchanged` (client). */
export const DRY_RUN_FLAG: FlagSpec = { name: 'dry-run', kind: 'string', default: 'none', noOptDefault: 'unchanged' };
/** `--validate[=strict|warn|ignore|true|false]` (cmdutil.AddValidateFlags). */
export const VALIDATE_FLAG: FlagSpec = { name: 'validate', kind: 'string', default: 'strict', noOptDefault: 'strict' };
/** `--field-manager`. */
export const FIELD_MANAGER_FLAG = (defaultManager: string): FlagSpec => ({ name: 'field-manager', kind: 'string', default: defaultManager });
/** `--show-managed-fields`. */
const SHOW_MANAGED_FIELDS_FLAG: FlagSpec = { name: 'show-managed-fields', kind: 'bool' };
/** `--allow-missing-template-keys` (default true). */
const ALLOW_MISSING_KEYS_FLAG: FlagSpec = { name: 'allow-missing-template-keys', kind: 'bool', default: true };

/** The printing flags every changing command registers. */
export const PRINT_FLAGS: FlagSpec[] = [OUTPUT_FLAG, TEMPLATE_FLAG, SHOW_MANAGED_FIELDS_FLAG, ALLOW_MISSING_KEYS_FLAG];

export type DryRunStrategy = 'none' | 'client' | 'server';

/**
 * A klog warning line as kubectl writes it to stderr:
 * `W1130 08:00:00.000000       1 helpers.go:719] message` (klog's header:
 * level, month and day, time with microseconds, thread id padded to 7, file
 * and line). The simulated kubectl's thread id is 1.
 */
function klogWarning(wallMs: number, fileLine: string, message: string): string {
	const rfc = formatRfc3339Micro(wallMs);
	return `W${rfc.slice(5, 7)}${rfc.slice(8, 10)} ${rfc.slice(11, -1)} ${'1'.padStart(7)} ${fileLine}] ${message}\n`;
}

/** cmdutil.GetDryRunStrategy (helpers.go). Deprecation notices (klog warnings) go to stderr. */
export function dryRunStrategy(args: ParsedArgs, wallMs = 0): { strategy: DryRunStrategy; stderr: string } | { error: KubectlError } {
	const value = String(args.flags['dry-run'] ?? 'none');
	const bool = parseGoBool(value);
	if (bool === undefined) {
		switch (value) {
			case 'unchanged':
				return { strategy: 'client', stderr: klogWarning(wallMs, 'helpers.go:719', '--dry-run is deprecated and can be replaced with --dry-run=client.') };
			case 'client':
			case 'server':
			case 'none':
				return { strategy: value, stderr: '' };
			default:
				return { error: plain(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`) };
		}
	}
	return bool
		? { strategy: 'client', stderr: klogWarning(wallMs, 'helpers.go:733', `--dry-run=${value} is deprecated (boolean value) and can be replaced with --dry-run=client.`) }
		: { strategy: 'none', stderr: klogWarning(wallMs, 'helpers.go:736', `--dry-run=${value} is deprecated (boolean value) and can be replaced with --dry-run=none.`) };
}

/** strconv.ParseBool. */
export function parseGoBool(value: string): boolean | undefined {
	if (/^(1|t|T|true|TRUE|True)$/.test(value)) return true;
	if (/^(0|f|F|false|FALSE|False)$/.test(value)) return false;
	return undefined;
}

/** cmdutil.GetValidationDirective: the `fieldValidation` query value. */
export function validationDirective(args: ParsedArgs): { directive: 'Strict' | 'Warn' | 'Ignore' } | { error: KubectlError } {
	const value = String(args.flags.validate ?? 'strict');
	const bool = parseGoBool(value);
	if (bool !== undefined) return { directive: bool ? 'Strict' : 'Ignore' };
	switch (value) {
		case 'strict':
			return { directive: 'Strict' };
		case 'warn':
			return { directive: 'Warn' };
		case 'ignore':
			return { directive: 'Ignore' };
		default:
			return { error: plain(`invalid - validate option "${value}"; must be one of: strict (or true), warn, ignore (or false)`) };
	}
}

/** The formats `-o` accepts (PrintFlags.AllowedFormats, sorted as NoCompatiblePrinterError sorts them). */
const ALLOWED_FORMATS = ['go-template', 'go-template-file', 'json', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file', 'kyaml', 'name', 'template', 'templatefile', 'yaml'];

/** A printer chosen from `-o`: call it with each object and the operation ("created", "configured"...). */
type Printer = (obj: KubeObject, operation: string) => string;

/** What PrintFlagsWithDryRunStrategy appends to the operation. */
export function withDryRun(operation: string, dryRun: DryRunStrategy): string {
	if (dryRun === 'client') return `${operation} (dry run)`;
	if (dryRun === 'server') return `${operation} (server dry run)`;
	return operation;
}

/** The object without managedFields (OmitManagedFieldsPrinter), as -o yaml/json show it by default. */
function omitManagedFields(obj: KubeObject): KubeObject {
	if (!obj.metadata?.managedFields) return obj;
	const { managedFields: _m, ...metadata } = obj.metadata;
	void _m;
	return { ...obj, metadata };
}

/**
 * PrintFlags.ToPrinter for the given `-o` value: the name printer (the
 * default, `kind.group/name operation`), `-o name`, yaml, json, jsonpath
 * or a Go template (`-o go-template-file` reads the file with `readFile`). Objects printed one after another as YAML are separated by
 * `---` (YAMLPrinter counts what it printed).
 */
export function toPrinter(args: ParsedArgs, dryRun: DryRunStrategy = 'none', readFile?: (path: string) => string | undefined): { printer: Printer } | { error: KubectlError } {
	let output = String(args.flags.output ?? '');
	// --template alone implies -o go-template.
	if (!output && typeof args.flags.template === 'string' && args.flags.template) output = 'go-template';
	const showManaged = args.flags['show-managed-fields'] === true;
	const clean = (obj: KubeObject) => (showManaged ? obj : omitManagedFields(obj)) as unknown as JsonValue;
	const format = output.split('=')[0].toLowerCase();
	switch (format) {
		case '':
			return { printer: (obj, operation) => `${objectRefName(obj)}${operation ? ` ${withDryRun(operation, dryRun)}` : ''}\n` };
		case 'name':
			return { printer: (obj) => `${objectRefName(obj)}\n` };
		case 'yaml': {
			let count = 0;
			return { printer: (obj) => (count++ > 0 ? '---\n' : '') + stringifyYaml(clean(obj)) };
		}
		case 'json':
			return { printer: (obj) => stringifyJsonLikeKubectl(clean(obj)) };
		case 'jsonpath':
		case 'jsonpath-as-json': {
			const template = output.includes('=') ? output.slice(output.indexOf('=') + 1) : String(args.flags.template ?? '');
			if (!template) return { error: plain('template format specified but no template given') };
			const allowMissingKeys = args.flags['allow-missing-template-keys'] !== false;
			return {
				printer: (obj) => {
					try {
						return executeJsonPath(template, clean(obj), { allowMissingKeys, outputJson: format === 'jsonpath-as-json' });
					} catch (error) {
						if (error instanceof JsonPathError) return `error: ${error.message}\n`;
						throw error;
					}
				},
			};
		}
		case 'go-template':
		case 'go-template-file':
		case 'template':
		case 'templatefile': {
			// GoTemplatePrintFlags.ToPrinter: the template is parsed before anything is sent.
			let text = output.includes('=') ? output.slice(output.indexOf('=') + 1) : String(args.flags.template ?? '');
			if (!text) return { error: plain('template format specified but no template given') };
			if (format.endsWith('file')) {
				if (!readFile) return { error: plain(`-o ${format} is not available for this command in the simulated kubectl`) };
				const file = readFile(text);
				if (file === undefined) return { error: plain(`error reading --template ${text}, open ${text}: no such file or directory`) };
				text = file;
			}
			const parsed = newGoTemplatePrinter(text);
			if (!parsed.ok) return { error: plain(parsed.error) };
			const allowMissingKeys = args.flags['allow-missing-template-keys'] !== false;
			return {
				printer: (obj) => {
					const printed = printGoTemplate(parsed.printer, obj as unknown as JsonValue, allowMissingKeys);
					return printed.ok ? printed.text : `${printed.text}error: ${printed.error}\n`;
				},
			};
		}
		default:
			if (ALLOWED_FORMATS.includes(format)) return { error: plain(`the ${format} output format is not available in this simulated kubectl`) };
			return { error: plain(`unable to match a printer suitable for the output format ${JSON.stringify(output)}, allowed formats are: ${ALLOWED_FORMATS.join(',')}`) };
	}
}

/** Whether `-o` asks for the object itself (yaml, json...) rather than the name line. */
export function printsObject(args: ParsedArgs): boolean {
	const output = String(args.flags.output ?? '');
	return output !== '' && output !== 'name';
}
