/**
 * The boundary rule, run through ESLint with the repository's own config,
 * on files placed where they would live in sim-core/src.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const eslint = new ESLint({ cwd: root });

async function boundaryMessages(code: string, fileInSrc: string): Promise<string[]> {
	const [result] = await eslint.lintText(code, { filePath: path.join(root, 'sim-core/src', fileInSrc) });
	return result.messages.filter((m) => m.ruleId === 'sim-core/component-boundaries').map((m) => m.message);
}

describe('the component boundary rule', () => {
	it('refuses a kubelet module that imports another component or the wiring, and accepts shared layers and its own folder', async () => {
		const fixture = readFileSync(path.join(here, 'testdata/crossing-imports.ts'), 'utf8');
		const messages = await boundaryMessages(fixture, 'kubelet/crossing-imports.ts');
		expect(messages).toHaveLength(3);
		expect(messages[0]).toMatch(/^kubelet\/ is a component: it may not import another component, runtime\/ \(\.\.\/runtime\/container-runtime\.ts\)/);
		expect(messages[1]).toMatch(/^kubelet\/ is a component: it may not import the wiring, cluster\//);
		expect(messages[2]).toMatch(/may not import another component, scheduler\//);
	});

	it('lets a test beside the code cross, and the wiring import anything', async () => {
		const crossing = "import { ContainerRuntime } from '../runtime/container-runtime.ts';\nexport const r = ContainerRuntime;\n";
		expect(await boundaryMessages(crossing, 'kubelet/kubelet.integration.test.ts')).toEqual([]);
		expect(await boundaryMessages(crossing, 'cluster/node-host-extra.ts')).toEqual([]);
		expect(await boundaryMessages("import { Kubelet } from '../kubelet/kubelet.ts';\nexport const k = Kubelet;\n", 'testing/rig.ts')).toEqual([]);
	});

	it('keeps the shared layers a stack: a lower layer may not import a higher one or a component', async () => {
		expect(await boundaryMessages("import { ApiClient } from '../client/client.ts';\nexport const c = ApiClient;\n", 'api/extra.ts')).toEqual([
			'api/ is a shared layer: it may import only golang/, yaml/, not client/ (../client/client.ts).',
		]);
		expect(await boundaryMessages("import { Kubelet } from '../kubelet/kubelet.ts';\nexport const k = Kubelet;\n", 'host/extra.ts')).toHaveLength(1);
	});

	it('asks for a new top-level folder to be classified', async () => {
		expect(await boundaryMessages('export const x = 1;\n', 'gadgets/x.ts')).toEqual([
			'gadgets/ is not a known folder of sim-core/src: add it to sim-core/lint/component-boundaries.js as a shared layer or a component.',
		]);
	});
});
