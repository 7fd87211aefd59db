/**
 * What the YAML editor asks the worker while the reader types: the syntax
 * problems of the text as `kubectl apply -f` would read it (sim-core's own
 * YAML reader, so the editor and kubectl never disagree), and the manifests
 * the scenario applied in its setup, as starting points.
 */
import { parseYamlDocuments, YamlError, type Scenario } from '@cluster-anatomy/sim-core';
import type { YamlProblem } from './protocol.ts';

/** The YAML problems of `text`, with 1-based positions over the whole text; [] when it reads cleanly. */
export function lintYaml(text: string): YamlProblem[] {
	try {
		parseYamlDocuments(text);
		return [];
	} catch (error) {
		if (error instanceof YamlError) return [{ line: error.line, column: error.column, message: error.reason }];
		// A limit or an internal fault: say so at the top rather than crash the editor.
		return [{ line: 1, column: 1, message: error instanceof Error ? error.message : String(error) }];
	}
}

/**
 * The manifests of the scenario's setup: the YAML files it put in the
 * reader's working directory (titled by file name), and its `apply:` steps
 * (titled by their first object's kind and name).
 */
export function scenarioManifests(scenario: Scenario): Array<{ title: string; yaml: string }> {
	const out: Array<{ title: string; yaml: string }> = [];
	for (const step of scenario.setup ?? []) {
		if ('writeFile' in step && /\.ya?ml$/.test(step.writeFile.path)) {
			out.push({ title: step.writeFile.path, yaml: step.writeFile.content });
			continue;
		}
		if (!('apply' in step)) continue;
		const kind = /^kind:\s*(\S+)/m.exec(step.apply)?.[1] ?? 'manifest';
		const name = /^\s+name:\s*(\S+)/m.exec(step.apply)?.[1];
		out.push({ title: name ? `${kind} ${name}` : kind, yaml: step.apply });
	}
	return out;
}
