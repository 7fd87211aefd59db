/**
 * The workload controllers' reference page lists the defaults the API
 * server fills in. This applies a minimal object of each kind to a
 * cluster, reads back every field the table names, and compares it with
 * the table, in both languages, so neither the page nor the simulation's
 * defaulting can drift alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCluster } from '@cluster-anatomy/sim-core';
import { CONTENT_DIR } from './book.ts';

const MINIMAL: Record<string, { resource: string; name: string; yaml: string }> = {
	Deployment: { resource: 'deployment', name: 'd', yaml: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {app: d}}\n  template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: nginx:1.27}]}}\n' },
	StatefulSet: { resource: 'statefulset', name: 's', yaml: 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  serviceName: s\n  selector: {matchLabels: {app: s}}\n  template: {metadata: {labels: {app: s}}, spec: {containers: [{name: c, image: nginx:1.27}]}}\n' },
	DaemonSet: { resource: 'daemonset', name: 'ds', yaml: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec:\n  selector: {matchLabels: {app: ds}}\n  template: {metadata: {labels: {app: ds}}, spec: {containers: [{name: c, image: nginx:1.27}]}}\n' },
	Job: { resource: 'job', name: 'j', yaml: 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox:1.36, command: ["true"]}]}}\n' },
	CronJob: { resource: 'cronjob', name: 'cj', yaml: 'apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: "*/5 * * * *"\n  jobTemplate: {spec: {template: {spec: {restartPolicy: OnFailure, containers: [{name: c, image: busybox:1.36}]}}}}\n' },
};

/** The page's defaults table: [object, field path, default], as written. */
function defaultsOf(locale: 'en' | 'zh-cn'): Array<[string, string, string]> {
	const file = join(CONTENT_DIR, locale === 'en' ? '' : locale, 'reference/workload-controllers.mdx');
	const rows: Array<[string, string, string]> = [];
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		const cells = line.split('|').map((c) => c.trim());
		if (cells.length === 5 && cells[1] in MINIMAL && /^`spec\./.test(cells[2])) rows.push([cells[1], cells[2].replace(/`/g, ''), cells[3].replace(/`/g, '')]);
	}
	return rows;
}

describe('the workload controllers reference page', () => {
	const cluster = createCluster({ seed: 1 });
	for (const { yaml } of Object.values(MINIMAL)) expect(cluster.exec('kubectl apply -f -', { stdin: yaml }).exitCode).toBe(0);

	it.each(['en', 'zh-cn'] as const)('lists, in %s, the defaults the API server fills in', (locale) => {
		const rows = defaultsOf(locale);
		expect(rows.length).toBeGreaterThanOrEqual(20);
		for (const kind of Object.keys(MINIMAL)) expect(rows.some(([k]) => k === kind), `a row for ${kind}`).toBe(true);
		for (const [kind, field, value] of rows) {
			const { resource, name } = MINIMAL[kind];
			expect(cluster.exec(`kubectl get ${resource} ${name} -o jsonpath={.${field}}`).stdout, `${kind} ${field}`).toBe(value);
		}
	});
});
