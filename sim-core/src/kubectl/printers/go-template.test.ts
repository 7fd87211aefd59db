import { describe, expect, it } from 'vitest';
import { newGoTemplatePrinter, printGoTemplate } from './go-template.ts';
import { encodeBase64 } from '../../golang/base64.ts';

const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { password: encodeBase64('s3cr3t'), bad: 'abc!', short: 'YWJ', pad: 'YQ=' } };

function print(text: string, obj: unknown = secret, allowMissingKeys = true) {
	const parsed = newGoTemplatePrinter(text);
	if (!parsed.ok) return { parseError: parsed.error };
	return printGoTemplate(parsed.printer, obj as never, allowMissingKeys);
}

describe('kubectl go-template printer', () => {
	it('decodes base64 and reports Go’s CorruptInputError offsets', () => {
		expect(print('{{.data.password | base64decode}}')).toEqual({ ok: true, text: 's3cr3t' });
		const at = (key: string) => (print(`{{base64decode .data.${key}}}`) as { error: string }).error.replace(/^.*error calling base64decode: /, '');
		expect(at('bad')).toBe('base64 decode failed: illegal base64 data at input byte 3');
		expect(at('short')).toBe('base64 decode failed: illegal base64 data at input byte 0');
		expect(at('pad')).toBe('base64 decode failed: illegal base64 data at input byte 3');
		expect((print('{{.data.missing | base64decode}}') as { error: string }).error).toBe(
			'error executing template "{{.data.missing | base64decode}}": template: output:1:18: executing "output" at <base64decode>: invalid value; expected string',
		);
	});

	it('has kubectl’s exists', () => {
		expect(print('{{exists . "data" "password"}} {{exists . "data" "nope"}} {{exists .data "bad" 9}}')).toEqual({ ok: true, text: 'true false false' });
	});

	it('wraps parse errors as kubectl does', () => {
		expect(print('{{.x')).toEqual({ parseError: 'error parsing template {{.x, template: output:1: unclosed action' });
	});

	it('prints the partial output and the debugging dump when execution fails', () => {
		const failed = print('{{.kind}}:{{.kind.x}}', { kind: 'List', items: [{ a: 1 }] });
		expect(failed).toEqual({
			ok: false,
			text:
				'List:Error executing template: template: output:1:12: executing "output" at <.kind.x>: can\'t evaluate field x in type interface {}. Printing more information for debugging the template:\n' +
				'\ttemplate was:\n\t\t{{.kind}}:{{.kind.x}}\n' +
				'\traw data was:\n\t\t{"items":[{"a":1}],"kind":"List"}\n' +
				'\tobject given to template engine was:\n\t\tmap[items:[map[a:1]] kind:List]\n\n',
			error: 'error executing template "{{.kind}}:{{.kind.x}}": template: output:1:12: executing "output" at <.kind.x>: can\'t evaluate field x in type interface {}',
		});
	});
});
