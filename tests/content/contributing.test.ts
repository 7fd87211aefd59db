/** The scenario example in CONTRIBUTING.md is a valid scenario: a maintainer may copy it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { parseScenario } from '@cluster-anatomy/sim-core';
import { codeBlocks } from './book.ts';

it('the example scenario in CONTRIBUTING.md validates', () => {
	const guide = readFileSync(join(import.meta.dirname, '../../CONTRIBUTING.md'), 'utf8');
	const example = codeBlocks(guide).find((b) => b.lang === 'yaml' && b.body.startsWith('title:'));
	expect(example, 'a ```yaml block starting with title:').toBeDefined();
	const scenario = parseScenario(example!.body, 'contributing-example');
	expect(scenario.faults).toEqual([{ at: '30s', stop: 'kubelet', node: 'node-1' }]);
	expect(scenario.tasks?.[0]?.reveal?.steps).toHaveLength(2);
});
