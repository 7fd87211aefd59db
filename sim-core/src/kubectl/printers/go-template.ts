/**
 * kubectl's go-template printer (`-o go-template=...`, `-o
 * go-template-file=...`, `--template`): Go's text/template named "output",
 * with kubectl's two extra functions `exists` and `base64decode`, run on
 * the object as JSON (a List for several objects). Missing keys print
 * `<no value>` (missingkey=default) unless
 * `--allow-missing-template-keys=false` makes them errors. A failed
 * execution writes what the template printed so far and kubectl's
 * debugging dump (the template, the raw JSON, the map the engine got) to
 * stdout, and the error `error executing template "...": ...`.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/printers/template.go,
 * staging/src/k8s.io/cli-runtime/pkg/printers/jsonpath.go (exists),
 * staging/src/k8s.io/cli-runtime/pkg/genericclioptions/template_flags.go.
 */
import { compactJson, goQuote, type JsonValue } from '../../golang/json.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import { executeTemplate, formatValue, GoFloat, parseTemplate, TemplateError, TemplateFuncError, wantString, type ParsedTemplate, type TemplateFunc, type TemplateValue } from '../../golang/text-template.ts';

/** Where Go's StdEncoding gives up on a string (CorruptInputError's offset), or -1 when it is valid. */
function corruptOffset(text: string): number {
	let quantumStart = 0;
	let inQuantum = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === '\r' || c === '\n') continue;
		if (c === '=') {
			// Padding only completes a quantum of 2 or 3 characters, and ends the input.
			if (inQuantum < 2) return i;
			const need = inQuantum === 2 ? 2 : 1;
			let j = i;
			let seen = 0;
			while (j < text.length && seen < need) {
				if (text[j] === '=') seen++;
				else if (text[j] !== '\r' && text[j] !== '\n') return j;
				j++;
			}
			if (seen < need) return text.length;
			while (j < text.length && (text[j] === '\r' || text[j] === '\n')) j++;
			return j < text.length ? j : -1;
		}
		if (!/[A-Za-z0-9+/]/.test(c)) return i;
		if (inQuantum === 0) quantumStart = i;
		inQuantum = (inQuantum + 1) % 4;
	}
	return inQuantum === 0 ? -1 : quantumStart;
}

/** kubectl's `base64decode`: StdEncoding, or `base64 decode failed: illegal base64 data at input byte N`. */
const base64decode: TemplateFunc = (value) => {
	const text = wantString(value);
	// StdEncoding is strict about padding (decodeBase64 alone accepts unpadded input).
	const corrupt = corruptOffset(text);
	const decoded = corrupt < 0 ? decodeBase64(text) : undefined;
	if (decoded === undefined) throw new TemplateFuncError(`base64 decode failed: illegal base64 data at input byte ${Math.max(0, corrupt)}`);
	return decoded;
};

/** kubectl's `exists item indices...`: whether indexing would find something (no errors). */
const exists: TemplateFunc = (item, ...indices) => {
	let v: TemplateValue = item;
	for (const index of indices) {
		if (v === null || v === undefined) return false;
		if (Array.isArray(v) || typeof v === 'string') {
			if (typeof index !== 'number' || !Number.isInteger(index)) return false;
			const length = typeof v === 'string' ? v.length : v.length;
			if (index < 0 || index >= length) return false;
			v = typeof v === 'string' ? v.charCodeAt(index) : v[index];
		} else if (typeof v === 'object' && !(v instanceof GoFloat)) {
			if (typeof index !== 'string') return false;
			const m = v as Record<string, TemplateValue>;
			if (!Object.prototype.hasOwnProperty.call(m, index)) return false;
			v = m[index];
		} else return false;
	}
	return true;
};

/** A parsed go-template printer. */
export interface GoTemplatePrinter {
	raw: string;
	template: ParsedTemplate;
}

/** NewGoTemplatePrinter: the template parsed, or kubectl's bare error (`error parsing template {{.x, template: output:1: unclosed action`). */
export function newGoTemplatePrinter(text: string): { ok: true; printer: GoTemplatePrinter } | { ok: false; error: string } {
	try {
		return { ok: true, printer: { raw: text, template: parseTemplate('output', text, { exists, base64decode }) } };
	} catch (e) {
		if (e instanceof TemplateError) return { ok: false, error: `error parsing template ${text}, ${e.message}` };
		throw e;
	}
}

/**
 * GoTemplatePrinter.PrintObj: the output, or on failure what was printed
 * before it plus kubectl's debugging dump (`text`) and the bare error.
 */
export function printGoTemplate(printer: GoTemplatePrinter, obj: JsonValue, allowMissingKeys: boolean): { ok: true; text: string } | { ok: false; text: string; error: string } {
	const result = executeTemplate(printer.template, obj as TemplateValue, { missingKey: allowMissingKeys ? 'default' : 'error' });
	if (result.error === undefined) return { ok: true, text: result.output };
	const raw = compactJson(obj);
	const dump =
		`Error executing template: ${result.error}. Printing more information for debugging the template:\n` +
		`\ttemplate was:\n\t\t${printer.raw}\n` +
		`\traw data was:\n\t\t${raw}\n` +
		`\tobject given to template engine was:\n\t\t${formatValue(obj as TemplateValue)}\n\n`;
	return { ok: false, text: result.output + dump, error: `error executing template ${goQuote(printer.raw)}: ${result.error}` };
}
