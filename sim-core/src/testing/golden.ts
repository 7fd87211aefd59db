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
 *   powerOff node-1 | powerOn node-1
 *
 * Output layout: lines after `----` until a blank line. An output that has
 * blank lines of its own is written between `----` `----` and `----` `----`
 * lines. A command that fails shows `[exit N]` as its last output line.
 *
 * Mirrors cockroachdb/datadriven datadriven.go (the file format, as
 * etcd-io/raft's tests use it).
 */
import { Cluster, type ClusterInput } from '../cluster/cluster.ts';
import { parseGoDurationMs } from '../golang/duration.ts';
import type { ClusterOptions } from '../cluster/options.ts';

interface GoldenCase {
	/** 1-based line of the command in the file. */
	line: number;
	command: string;
	expected: string;
}

interface GoldenFile {
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

/** A harness verb as the input it stands for (the fault vocabulary doubles as the scenario steps'), or undefined for a shell line. */
function goldenInput(command: string): ClusterInput | undefined {
	const [verb, ...rest] = command.trim().split(/\s+/);
	switch (verb) {
		case 'advance':
			return { kind: 'advance', ms: parseGoDurationMs(rest[0]) };
		case 'settle':
			return { kind: 'settle', maxMs: rest[0] ? parseGoDurationMs(rest[0]) : 60_000 };
		case 'stop':
		case 'start':
			return rest[1] ? { kind: verb, component: rest[0], node: rest[1] } : { kind: verb, component: rest[0] };
		case 'partition':
		case 'heal':
		case 'powerOff':
		case 'powerOn':
			return { kind: verb, node: rest[0] };
	}
	return undefined;
}

/** Runs one command (shell line or harness verb) through the cluster's one entry point for inputs; returns its output as the file records it. */
function runGoldenCommand(cluster: Cluster, command: string): string {
	const input = goldenInput(command) ?? { kind: 'exec', line: command };
	const outcome = cluster.apply(input);
	if (input.kind === 'settle') return outcome.settled ? '' : 'not settled';
	if (!outcome.result) return outcome.error ?? '';
	let out = outcome.result.output.replace(/\n$/, '');
	if (outcome.result.exitCode !== 0) out += `${out ? '\n' : ''}[exit ${outcome.result.exitCode}]`;
	return out;
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
