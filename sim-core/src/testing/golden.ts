/**
 * Golden scenario scripts, in the style of etcd-io/raft's datadriven tests:
 * a file of cases, each a command, a `----` line, and the output the command
 * must print. Run with UPDATE_GOLDEN=1 to rewrite the expected outputs from
 * what the simulation prints now (only when you mean to: review the diff).
 *
 * Commands are what a reader types (run through the cluster's shell), plus
 * a few harness verbs that double as the fault vocabulary:
 *
 *   cluster {"seed": 7, "nodes": [...]}   first line only: the cluster to build
 *   advance 30s | settle 2m
 *   stop kube-scheduler | stop kubelet node-1 | start ... | partition node-1 | heal node-1
 *
 * Output layout: lines after `----` until a blank line. An output that has
 * blank lines of its own is written between `----` `----` and `----` `----`
 * lines. A command that fails shows `[exit N]` as its last output line.
 */
import { Cluster, type Component } from '../cluster/cluster.ts';
import type { ClusterOptions } from '../cluster/options.ts';

export interface GoldenCase {
	/** 1-based line of the command in the file. */
	line: number;
	command: string;
	expected: string;
}

export interface GoldenFile {
	options: ClusterOptions;
	cases: GoldenCase[];
}

/** Parses a golden file. */
export function parseGolden(text: string): GoldenFile {
	const lines = text.replace(/\r\n/g, '\n').split('\n');
	let options: ClusterOptions = {};
	const cases: GoldenCase[] = [];
	let i = 0;
	const skipBlankAndComments = () => {
		while (i < lines.length && (lines[i].trim() === '' || lines[i].startsWith('#'))) i++;
	};
	skipBlankAndComments();
	if (lines[i]?.startsWith('cluster ')) {
		options = JSON.parse(lines[i].slice('cluster '.length)) as ClusterOptions;
		i++;
	}
	for (;;) {
		skipBlankAndComments();
		if (i >= lines.length) break;
		const start = i;
		const command: string[] = [];
		while (i < lines.length && lines[i] !== '----') command.push(lines[i++]);
		if (i >= lines.length) throw new Error(`line ${start + 1}: command without a ---- line`);
		i++;
		const expected: string[] = [];
		if (lines[i] === '----') {
			i++;
			while (i < lines.length && !(lines[i] === '----' && lines[i + 1] === '----')) expected.push(lines[i++]);
			i += 2;
		} else {
			while (i < lines.length && lines[i] !== '') expected.push(lines[i++]);
		}
		cases.push({ line: start + 1, command: command.join('\n'), expected: expected.join('\n') });
	}
	return { options, cases };
}

/** Runs one command (shell line or harness verb); returns its output as the file records it. */
export function runGoldenCommand(cluster: Cluster, command: string): string {
	const [verb, ...rest] = command.trim().split(/\s+/);
	switch (verb) {
		case 'advance':
			cluster.advance(rest[0]);
			return '';
		case 'settle': {
			const { settled } = cluster.settle({ maxMs: rest[0] ? parseDuration(rest[0]) : undefined });
			return settled ? '' : 'not settled';
		}
		case 'stop':
		case 'start': {
			const problem = verb === 'stop' ? cluster.stop(rest[0] as Component, rest[1]) : cluster.start(rest[0] as Component, rest[1]);
			return problem ?? '';
		}
		case 'partition':
			return cluster.partition(rest[0]) ?? '';
		case 'heal':
			return cluster.heal(rest[0]) ?? '';
	}
	const result = cluster.exec(command);
	let out = result.output.replace(/\n$/, '');
	if (result.exitCode !== 0) out += `${out ? '\n' : ''}[exit ${result.exitCode}]`;
	return out;
}

function parseDuration(text: string): number {
	const m = /^(\d+)(ms|s|m|h)$/.exec(text);
	if (!m) throw new Error(`bad duration ${text}`);
	return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

/** Formats a golden file back (for update mode). */
export function formatGolden(file: GoldenFile, header: string[], outputs: string[]): string {
	const parts: string[] = [...header];
	if (Object.keys(file.options).length) parts.push(`cluster ${JSON.stringify(file.options)}`, '');
	file.cases.forEach((c, index) => {
		const out = outputs[index];
		parts.push(c.command, '----');
		if (out.split('\n').some((l) => l === '') && out !== '') parts.push('----', out, '----', '----');
		else if (out !== '') parts.push(out);
		parts.push('');
	});
	return parts.join('\n');
}

/** Runs every case of a file on one fresh cluster; returns the actual outputs. */
export function runGolden(file: GoldenFile): string[] {
	const cluster = new Cluster(file.options);
	return file.cases.map((c) => runGoldenCommand(cluster, c.command));
}
