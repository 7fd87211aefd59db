/**
 * The cloud-controller-manager pages state what their sandbox shows: the
 * providerID of node-1, the 20 seconds simcloud takes to build a load
 * balancer, the address it hands out (the chapter's task curls it), and the
 * flags the manager runs with (the reference page). This plays the
 * chapter's first task and reads the DaemonSet, and compares them with the
 * pages in both languages, so neither the pages nor the simulation can
 * drift alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStep, parseScenario, startScenario, type KubeObject } from '@cluster-anatomy/sim-core';
import { CONTENT_DIR } from './book.ts';

const SCENARIO = 'control-plane/cloud-controller-manager';

const page = (locale: 'en' | 'zh-cn', path: string) => readFileSync(join(CONTENT_DIR, locale === 'en' ? '' : locale, path), 'utf8');

describe('the cloud-controller-manager pages', () => {
	const scenario = parseScenario(readFileSync(join(CONTENT_DIR, 'scenarios', `${SCENARIO}.yaml`), 'utf8'), SCENARIO);
	const run = startScenario(scenario);
	const cluster = run.cluster;
	const providerId = (cluster.get('nodes', undefined, 'node-1')?.spec as { providerID?: string }).providerID;
	const command = ((cluster.get('daemonsets', 'kube-system', 'cloud-controller-manager')?.spec as { template: { spec: { containers: Array<{ command: string[] }> } } }).template.spec.containers[0].command ?? []).slice(1).join(' ');
	const task = scenario.tasks!.find((t) => t.id === 'expose-load-balancer')!;
	for (const step of task.reveal!.steps!) applyStep(cluster, step);
	const events = cluster.list('events', 'default') as Array<KubeObject & { reason?: string; firstTimestamp?: string }>;
	const at = (reason: string) => Date.parse(events.find((e) => e.reason === reason)!.firstTimestamp!);
	const ip = (cluster.get('services', 'default', 'web')?.status as { loadBalancer?: { ingress?: Array<{ ip?: string }> } }).loadBalancer?.ingress?.[0]?.ip;

	it('builds a load balancer in the 20 seconds the chapter says, at the address its task curls', () => {
		expect((at('EnsuredLoadBalancer') - at('EnsuringLoadBalancer')) / 1000).toBe(20);
		expect(task.reveal!.steps!.some((s) => 'run' in s && s.run === `curl -s http://${ip}/`)).toBe(true);
	});

	it.each(['en', 'zh-cn'] as const)('prints, in %s, the providerID, the 20 s and the address the sandbox shows', (locale) => {
		const chapter = page(locale, 'control-plane/cloud-controller-manager.mdx');
		expect(chapter).toContain(`\`${providerId}\``);
		expect(chapter).toMatch(locale === 'en' ? /simcloud takes 20 seconds/ : /simcloud 创建一个新负载均衡器需要 20 秒/);
		expect(chapter).toContain(`\`${ip}:80\``);
	});

	it.each(['en', 'zh-cn'] as const)('gives, in %s, the flags the manager really runs with', (locale) => {
		const reference = page(locale, 'reference/cloud-controller-manager.mdx').replace(/\s+/g, ' ');
		expect(reference).toContain(`\`${command}\``);
	});
});
