/**
 * The CNI chapter prints what its sandbox shows: the nodes' Pod CIDRs, the
 * devices and the routes flannel and the bridge plugin leave on node-1.
 * This plays the sandbox's tasks the way a reader does and requires every
 * line of those terminal blocks, in both languages, to be what the
 * simulation prints for the same command, so neither the page nor the
 * simulation can drift alone; and it checks that the numbers the chapter
 * and the reference page state (the MTU, the VXLAN port, the ranges) are
 * the ones the sandbox's nodes carry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStep, parseScenario, startScenario, type Cluster, type Scenario } from '@cluster-anatomy/sim-core';
import { CONTENT_DIR } from './book.ts';

const SCENARIO = 'node/cni';

function page(locale: 'en' | 'zh-cn', slug: string): string {
	return readFileSync(join(CONTENT_DIR, locale === 'en' ? '' : locale, `${slug}.mdx`), 'utf8');
}

/** The page's ```text blocks that start with a `$ ` command: the command and the lines printed. */
function terminalBlocks(locale: 'en' | 'zh-cn'): Array<{ command: string; lines: string[] }> {
	const blocks: Array<{ command: string; lines: string[] }> = [];
	for (const m of page(locale, 'node/cni').matchAll(/```text\n\$ ([^\n]+)\n([\s\S]*?)```/g)) blocks.push({ command: m[1], lines: m[2].split('\n').filter((l) => l !== '') });
	return blocks;
}

/** The sandbox after its tasks up to `upTo` (inclusive), played from their reveals. */
function played(scenario: Scenario, upTo: string): Cluster {
	const run = startScenario(scenario);
	for (const task of scenario.tasks!) {
		for (const step of task.reveal!.steps ?? task.reveal!.commands!.map((command) => ({ run: command }))) applyStep(run.cluster, step);
		run.cluster.advance('10s');
		if (task.id === upTo) break;
	}
	return run.cluster;
}

const output = (cluster: Cluster, command: string) => cluster.exec(command).stdout.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');

describe('the CNI chapter', () => {
	const scenario = parseScenario(readFileSync(join(CONTENT_DIR, 'scenarios', `${SCENARIO}.yaml`), 'utf8'), SCENARIO);
	const crossed = played(scenario, 'cross-node');

	it.each(['en', 'zh-cn'] as const)('prints, in %s, exactly what the sandbox answers to each command it shows', (locale) => {
		const blocks = terminalBlocks(locale);
		expect(blocks.map((b) => b.command)).toEqual(terminalBlocks('en').map((b) => b.command));
		expect(blocks.length).toBeGreaterThanOrEqual(3);
		for (const block of blocks) {
			const got = output(crossed, block.command);
			// `grep` blocks may show a selection of the lines; every other block is the whole answer.
			if (/\| grep/.test(block.command)) for (const line of block.lines) expect(got, `${locale}: ${block.command}`).toContain(line.trimEnd());
			else expect(block.lines.map((l) => l.trimEnd()), `${locale}: ${block.command}`).toEqual(got);
		}
	});

	it('states the numbers the sandbox’s nodes carry: flannel.1 and cni0 at MTU 1450, a /24 per node from 10.244.0.0/16, two router hops between Pods', () => {
		const link = crossed.exec('ssh node-1 ip link').stdout;
		expect(link).toMatch(/flannel\.1: .* mtu 1450 /);
		expect(link).toMatch(/cni0: .* mtu 1450 /);
		expect(link).toMatch(/veth\w{8}@if2: .* mtu 1450 .* master cni0 /);
		const server = (crossed.get('pods', 'default', 'server')?.status as { podIP: string }).podIP;
		expect(server).toMatch(/^10\.244\.2\.\d+$/);
		expect(crossed.exec(`kubectl exec client -- ping -c 1 ${server}`).stdout).toContain('ttl=62');
		for (const locale of ['en', 'zh-cn'] as const) {
			for (const slug of ['node/cni', 'reference/cni']) {
				const text = page(locale, slug);
				for (const fact of ['1450', '8472', '10.244.0.0/16', '192.168.0.0/16', '10.0.0.0/8', '/26', '4789', '/etc/cni/net.d', '/opt/cni/bin', '/run/flannel/subnet.env', 'cni plugin not initialized', 'FailedCreatePodSandBox', 'v1.36']) {
					expect(text, `${locale} ${slug} states ${fact}`).toContain(fact);
				}
			}
			expect(page(locale, 'node/cni'), `${locale} states the TTL`).toContain('ttl=62');
		}
	});

	it('quotes the failures the sandboxes produce: a node without a configuration, a configuration without its plugin', () => {
		const reference = parseScenario(readFileSync(join(CONTENT_DIR, 'scenarios', 'reference/cni.yaml'), 'utf8'), 'reference/cni');
		const noConfig = played(reference, 'no-config');
		const ready = (noConfig.get('nodes', '', 'node-2')?.status as { conditions: Array<{ type: string; reason: string; message: string }> }).conditions.find((c) => c.type === 'Ready')!;
		expect(ready.reason).toBe('KubeletNotReady');
		const missing = played(scenario, 'missing-plugin');
		const event = missing.list('events', 'default').find((e) => (e as { reason?: string }).reason === 'FailedCreatePodSandBox') as { message: string } | undefined;
		expect(event?.message).toContain('plugin type="flannel" failed (add): failed to find plugin "flannel" in path [/opt/cni/bin]');
		// Prose wraps lines: compare with runs of white space made one space.
		const flat = (locale: 'en' | 'zh-cn', slug: string) => page(locale, slug).replace(/\s+/g, ' ');
		for (const locale of ['en', 'zh-cn'] as const) {
			for (const slug of ['node/cni', 'reference/cni']) expect(flat(locale, slug), `${locale} ${slug}`).toContain(ready.message.replace('container runtime network not ready: ', ''));
			expect(page(locale, 'node/cni'), locale).toContain(`${ready.reason}  ${ready.message}`);
			expect(flat(locale, 'node/cni'), locale).toContain('failed to find plugin "flannel" in path [/opt/cni/bin]');
			expect(flat(locale, 'reference/cni'), locale).toContain('failed to find plugin "X" in path [/opt/cni/bin]');
		}
	});
});
