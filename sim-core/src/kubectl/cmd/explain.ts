/**
 * `kubectl explain <type>[.field...]`: a resource's fields and their types,
 * from the simulator's field schema (api/schema), laid out like kubectl's
 * plaintext template (GROUP/KIND/VERSION header, `FIELD: name <type>`,
 * `FIELDS:` with `name<TAB><type>` and `-required-`, `--recursive` nesting
 * two spaces per level, type names as its typeGuess prints them:
 * `[]Container`, `map[string]string`, `Quantity`, `IntOrString`).
 *
 * Descriptions come from ./explain-descriptions.ts, written in this
 * project's words (upstream's API documentation is not copied); where there
 * is none, the template's own `<empty>` and `<no description>` show, as
 * upstream prints them for an undocumented schema. The layout is the
 * template's to the character: `FIELD:` followed by two blank lines, the
 * description wrapped at 76 columns and indented 4 (with the line of four
 * spaces its trailing newline leaves), each field's description under it
 * and a blank line, a final newline.
 *
 * Mirrors
 * staging/src/k8s.io/kubectl/pkg/explain/v2/templates/plaintext.tmpl,
 * staging/src/k8s.io/kubectl/pkg/explain/v2/funcs.go (typeGuess).
 */
import { typeForKind, typeSchema, type FieldType, type TypeSchema } from '../../api/schema/index.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { errorText, resolveResourceType } from '../resource-args.ts';
import { fieldDescription, TYPE_DESCRIPTIONS } from './explain-descriptions.ts';
import { enumOf } from './explain-enums.ts';

/** plaintext.tmpl typeGuess for a schema field type. */
function typeGuess(type: FieldType): string {
	switch (type.code) {
		case '[':
			return `[]${typeGuess(type.elem as FieldType)}`;
		case '{':
			return `map[string]${typeGuess(type.elem as FieldType)}`;
		case 'R':
			return (type.ref ?? 'Object').replace(/_.*/, '');
		case 'i':
		case 'l':
			return 'integer';
		case 'n':
			return 'number';
		case 'b':
			return 'boolean';
		case 'q':
			return 'Quantity';
		case 'o':
			return 'IntOrString';
		case 'x':
			return type.go.endsWith('FieldsV1') ? 'FieldsV1' : 'RawExtension';
		default:
			return 'string';
	}
}

/** The struct a field type leads into (through arrays and maps), if any. */
function structOf(type: FieldType): TypeSchema | undefined {
	if (type.code === 'R' && type.ref) return typeSchema(type.ref);
	if (type.elem) return structOf(type.elem);
	return undefined;
}

/** sprig's `wrap N`: words joined into lines of at most N columns (a longer word stays whole), each line of the text on its own. */
export function wrapText(text: string, width: number): string {
	return text
		.split('\n')
		.map((line) => {
			const out: string[] = [];
			let current = '';
			for (const word of line.split(' ')) {
				if (current && current.length + 1 + word.length > width) {
					out.push(current);
					current = word;
				} else current = current ? `${current} ${word}` : word;
			}
			out.push(current);
			return out.join('\n');
		})
		.join('\n');
}

/** sprig's `indent N`: every line, the empty one after a trailing newline too, starts with N spaces. */
const indent = (text: string, n: number) => ' '.repeat(n) + text.replaceAll('\n', `\n${' '.repeat(n)}`);

/** The template's "description": the field's own text, then its type's, each ended by a newline; `<empty>` when neither exists. */
function descriptionBlock(parts: Array<string | undefined>): string {
	const text = parts.filter((p): p is string => !!p).map((p) => `${p}\n`).join('');
	return `DESCRIPTION:\n${indent(wrapText(text || '<empty>', 76), 4)}\n`;
}

/** extractEnum in a field list: `enum: a, b, c, d, ....` on its own line, at the field's indent (at most four values). */
function shortEnum(type: FieldType, indentAmount: number): string {
	const values = enumOf(type.go);
	if (!values) return '';
	const shown = values.slice(0, 4).join(', ');
	return `\n${' '.repeat(indentAmount)}enum: ${shown}${values.length > 4 ? ', ....' : ''}`;
}

/** plaintext.tmpl fieldList: fields sorted, `-required-` marked; each with its description (long form), or nested when recursive, cycles cut. */
function fieldList(schema: TypeSchema, level: number, recursive: boolean, history: Set<string>): string {
	let out = '';
	for (const name of [...schema.fields.keys()].sort()) {
		const field = schema.fields.get(name);
		if (!field) continue;
		out += `${'  '.repeat(level)}${name}\t<${typeGuess(field.type)}>${field.required ? ' -required-' : ''}${shortEnum(field.type, level * 2)}\n`;
		if (!recursive) out += `${indent(wrapText(fieldDescription(schema.key, name) ?? '<no description>', 78 - level * 2), level * 2 + 2)}\n\n`;
		const nested = structOf(field.type);
		// The template stops at a type already on the path (a cycle); 32 levels bound the walk besides.
		if (recursive && nested && !history.has(nested.key) && level < 32) {
			out += fieldList(nested, level + 1, recursive, new Set([...history, nested.key]));
		}
	}
	return out;
}

/** Runs `kubectl explain`. */
function runExplain(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	if (args.positionals.length === 0) {
		return { stdout: '', stderr: 'error: You must specify the type of resource to explain. Use "kubectl api-resources" for a complete list of supported resources.\n', exitCode: 1 };
	}
	if (args.positionals.length > 1) return { stdout: '', stderr: `error: We accept only this format: explain RESOURCE\n`, exitCode: 1 };
	const [typeArg, ...path] = args.positionals[0].split('.');
	const resolved = resolveResourceType(typeArg);
	if (!resolved.ok) return { stdout: '', stderr: errorText([resolved.error]), exitCode: 1 };
	let info = resolved.info;
	// --api-version: the kind in that group/version (schema.ParseGroupVersion), as the server's OpenAPI has it or not at all.
	const apiVersion = String(args.flags['api-version'] ?? '');
	if (apiVersion) {
		const parts = apiVersion.split('/');
		if (parts.length > 2) return { stdout: '', stderr: errorText([`unexpected GroupVersion string: ${apiVersion}`]), exitCode: 1 };
		const [group, version] = parts.length === 2 ? parts : ['', parts[0]];
		if (!typeForKind({ group, version, kind: info.kind })) return { stdout: '', stderr: errorText([`couldn't find resource for "${group ? `${group}/` : ''}${version}, Kind=${info.kind}"`]), exitCode: 1 };
		info = { ...info, group, version };
	}
	const key = typeForKind({ group: info.group, version: info.version, kind: info.kind });
	const schema = key ? typeSchema(key) : undefined;
	if (!schema) return { stdout: '', stderr: errorText([`GVK ${info.group}/${info.version}, Kind=${info.kind} not found in OpenAPI schema`]), exitCode: 1 };
	const recursive = args.flags.recursive === true;
	let out = `${info.group ? `GROUP:      ${info.group}\n` : ''}KIND:       ${info.kind}\nVERSION:    ${info.version}\n\n`;
	let current: TypeSchema | undefined = schema;
	let description: Array<string | undefined> = [TYPE_DESCRIPTIONS[schema.key] ?? TYPE_DESCRIPTIONS[info.kind]];
	for (let i = 0; i < path.length; i++) {
		const field = current?.fields.get(path[i]);
		if (!field) return { stdout: '', stderr: errorText([`field "${path[i]}" does not exist`]), exitCode: 1 };
		const owner: TypeSchema = current!;
		current = structOf(field.type);
		if (i === path.length - 1) {
			// extractEnum in the long view: `ENUM:` and one value a line, between the FIELD line and the blank line.
			const values = enumOf(field.type.go);
			out += `FIELD: ${path[i]} <${typeGuess(field.type)}>\n${values ? `ENUM:${values.map((v) => `\n    ${v}`).join('')}` : ''}\n\n`;
			description = [fieldDescription(owner.key, path[i]), current ? TYPE_DESCRIPTIONS[current.key] : undefined];
		}
		if (!current && i < path.length - 1) return { stdout: '', stderr: errorText([`field "${path[i + 1]}" does not exist`]), exitCode: 1 };
	}
	out += descriptionBlock(description);
	if (current && current.fields.size > 0) out += `FIELDS:\n${fieldList(current, 1, recursive, new Set([current.key]))}`;
	// The template's last newline.
	return { stdout: `${out}\n`, stderr: '', exitCode: 0 };
}

export const explainCommand: KubectlCommand = {
	name: 'explain',
	summary: 'Get documentation for a resource',
	usage: 'kubectl explain TYPE [--recursive=FALSE|TRUE] [--api-version=api-version-group] [-o|--output=plaintext|plaintext-openapiv2]',
	flags: [
		{ name: 'recursive', kind: 'bool' },
		{ name: 'api-version', kind: 'string' },
		{ name: 'output', short: 'o', kind: 'string', default: 'plaintext' },
	],
	run: runExplain,
};
