/**
 * The kube-proxy chapter prints what its sandbox shows: the EndpointSlice,
 * the iptables chains of the Service, IPVS's virtual server, nftables'
 * dispatch chain, and the numbers kube-proxy writes (the 10800 s affinity
 * timeout, the masquerade and sync facts). This plays the sandbox's tasks
 * the way a reader does and requires every line of those terminal blocks,
 * in both languages, to be what the simulation prints for the same
 * command, so neither the page nor the simulation can drift alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStep, parseScenario, startScenario, type Cluster, type Scenario } from '@cluster-anatomy/sim-core';
import { CONTENT_DIR } from './book.ts';

const SCENARIO = 'node/kube-proxy';

/** The chapter's ```text blocks that start with a `$ ` command: the command and the lines printed. */
function terminalBlocks(locale: 'en' | 'zh-cn'): Array<{ command: string; lines: string[] }> {
	const file = join(CONTENT_DIR, locale === 'en' ? '' : locale, 'node/kube-proxy.mdx');
	const blocks: Array<{ command: string; lines: string[] }> = [];
	for (const m of readFileSync(file, 'utf8').matchAll(/```text\n\$ ([^\n]+)\n([\s\S]*?)```/g)) blocks.push({ command: m[1], lines: m[2].split('\n').filter((l) => l !== '') });
	return blocks;
}

function chapter(locale: 'en' | 'zh-cn'): string {
	return readFileSync(join(CONTENT_DIR, locale === 'en' ? '' : locale, 'node/kube-proxy.mdx'), 'utf8');
}

/** The sandbox after its tasks up to `upTo` (inclusive), played from their reveals. */
function played(scenario: Scenario, upTo: string): Cluster {
	const run = startScenario(scenario);
	run.cluster.advance('30s');
	for (const task of scenario.tasks!) {
		for (const step of task.reveal!.steps ?? task.reveal!.commands!.map((command) => ({ run: command }))) applyStep(run.cluster, step);
		run.cluster.advance('5s');
		if (task.id === upTo) break;
	}
	return run.cluster;
}

const output = (cluster: Cluster, command: string) => cluster.exec(command).stdout.split('\n').map((l) => l.trimEnd()).filter((l) => l !== '');

describe('the kube-proxy chapter', () => {
	const scenario = parseScenario(readFileSync(join(CONTENT_DIR, 'scenarios', `${SCENARIO}.yaml`), 'utf8'), SCENARIO);
	const exposed = played(scenario, 'expose');
	const ipvs = played({ ...scenario, cluster: { ...scenario.cluster, kubeProxyMode: 'ipvs' } }, 'expose');
	const nft = played(scenario, 'nftables');
	/** Which sandbox state each printed command is run against. */
	const sandboxFor = (command: string) => (command.includes('ipvsadm') ? ipvs : command.includes('nft ') ? nft : exposed);

	it.each(['en', 'zh-cn'] as const)('prints, in %s, exactly what the sandbox answers to each command it shows', (locale) => {
		const blocks = terminalBlocks(locale);
		expect(blocks.map((b) => b.command)).toEqual(terminalBlocks('en').map((b) => b.command));
		expect(blocks.length).toBeGreaterThanOrEqual(4);
		for (const block of blocks) {
			const got = output(sandboxFor(block.command), block.command);
			// `grep` blocks may show a selection of the lines; every other block is the whole answer.
			if (/\| grep/.test(block.command)) for (const line of block.lines) expect(got, `${locale}: ${block.command}`).toContain(line.trimEnd());
			else expect(block.lines.map((l) => l.trimEnd()), `${locale}: ${block.command}`).toEqual(got);
		}
	});

	it('states the numbers the sandbox writes into the rules: the 10800 s affinity timeout, 1/3 as 0.3333333333, masquerading with mark 0x4000', () => {
		const sticky = played(scenario, 'sticky');
		const nat = sticky.exec('ssh node-1 sudo iptables-save -t nat').stdout;
		expect(nat).toContain('-m recent --rcheck --seconds 10800 --reap');
		expect(nat).toContain('--probability 0.33333333349');
		expect(nat).toContain('-j MARK --set-xmark 0x4000/0x4000');
		expect(sticky.exec('ssh node-1 curl -s http://127.0.0.1:10249/proxyMode').stdout).toBe('iptables');
		expect(nft.exec('ssh node-1 curl -s http://127.0.0.1:10249/proxyMode').stdout).toBe('nftables');
		expect(nft.exec('ssh node-1 curl -s -o /dev/null -w "%{http_code}" http://192.168.56.11:10256/healthz').stdout).toBe('200');
		for (const locale of ['en', 'zh-cn'] as const) {
			const text = chapter(locale);
			for (const fact of ['10800', '86400', '--rcheck --seconds 10800 --reap', '0.3333333333', '0.33333333349', '10256', '10249/proxyMode', '32768', '131072', 'v1.26', 'v1.29', 'v1.31', 'v1.33', 'v1.35', '30000-32767', '10.96.0.0/12', '100']) {
				expect(text, `${locale} states ${fact}`).toContain(fact);
			}
		}
	});
});
