/**
 * `npm run new:chapter` gives a maintainer a chapter that already meets the
 * book's rules: both languages, a diagram with its accessible text, a
 * sandbox whose scenario validates, and a task that is open at first and
 * solved by its reveal.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkAll, parseScenario, reachesExpectedState, startScenario } from '@cluster-anatomy/sim-core';
import { parseRequest, scaffoldChapter } from '../../scripts/new-chapter.ts';
import { codeBlocks, sandboxScenarios } from './book.ts';

const root = mkdtempSync(join(tmpdir(), 'ca-scaffold-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm run new:chapter', () => {
	const request = parseRequest(['node/kube-proxy', 'kube-proxy: Services on every node', 'kube-proxy：每个节点上的 Service']);
	if (typeof request === 'string') throw new Error(request);
	const files = scaffoldChapter(request, root);

	it('writes the chapter in both languages and its scenario', () => {
		expect(files).toEqual([join(root, 'node/kube-proxy.mdx'), join(root, 'zh-cn/node/kube-proxy.mdx'), join(root, 'scenarios/node/kube-proxy.yaml')]);
		expect(readFileSync(files[0]!, 'utf8')).toMatch(/^title: "kube-proxy: Services on every node"$/m);
		expect(readFileSync(files[1]!, 'utf8')).toMatch(/^title: "kube-proxy：每个节点上的 Service"$/m);
	});

	it.each([0, 1])('page %i has the sandbox of its scenario and a described diagram', (i) => {
		const source = readFileSync(files[i]!, 'utf8');
		expect(sandboxScenarios(source)).toEqual(['node/kube-proxy']);
		const diagram = codeBlocks(source).find((b) => b.lang === 'mermaid');
		expect(diagram?.body).toMatch(/accTitle: .+\n\s*accDescr: .+/);
	});

	it('writes a scenario whose task is open at first and solved by its reveal', () => {
		const scenario = parseScenario(readFileSync(files[2]!, 'utf8'), 'node/kube-proxy');
		const run = startScenario(scenario);
		expect(run.problems).toEqual([]);
		expect(reachesExpectedState(run, scenario).ok).toBe(true);
		const task = scenario.tasks![0]!;
		expect(checkAll(run.cluster, task.checks).ok).toBe(false);
		for (const command of task.reveal!.commands!) expect(run.cluster.exec(command).exitCode).toBe(0);
		run.cluster.advance(60_000);
		expect(checkAll(run.cluster, task.checks).ok).toBe(true);
	});

	it('refuses to overwrite a chapter that exists', () => {
		expect(() => scaffoldChapter(request, root)).toThrow(/not overwriting .*node\/kube-proxy\.mdx/);
	});

	it.each([
		[[], /^usage: npm run new:chapter/],
		[['kube-proxy', 'A', 'B'], /is not <section>\/<slug>/],
		[['Node/Kube_Proxy', 'A', 'B'], /is not <section>\/<slug>/],
		[['node/kube-proxy', 'only English'], /^usage:/],
	])('explains what is wrong with %j', (args, message) => {
		expect(parseRequest(args)).toMatch(message);
	});
});
