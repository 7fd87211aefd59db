import { describe, expect, it } from 'vitest';
import { parseScenario } from '@cluster-anatomy/sim-core';
import { lintYaml, scenarioManifests } from '../../src/sandbox/yaml-check.ts';

describe('lintYaml', () => {
	it('finds nothing wrong with a manifest kubectl can read', () => {
		expect(lintYaml('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: two}\n')).toEqual([]);
	});

	it('points at the line of a problem in a later document, counted over the whole text', () => {
		const problems = lintYaml('apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n   labels: x\n');
		expect(problems).toHaveLength(1);
		expect(problems[0]!.line).toBe(9);
		expect(problems[0]!.message).toBe('mapping values are not allowed in this context');
	});
});

describe('scenarioManifests', () => {
	it('offers the YAML files the scenario wrote and the manifests it applied, in setup order', () => {
		const scenario = parseScenario(
			`title: {en: T, zh-cn: T}
summary: {en: S, zh-cn: S}
setup:
  - writeFile: {path: web.yaml, content: "kind: Namespace\\n"}
  - writeFile: {path: notes.txt, content: "hello"}
  - apply: |
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
`,
			'demo',
		);
		expect(scenarioManifests(scenario).map((m) => m.title)).toEqual(['web.yaml', 'ConfigMap settings']);
	});
});
