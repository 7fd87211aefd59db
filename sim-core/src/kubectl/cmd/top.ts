/**
 * `kubectl top node|pod`: usage figures come from the metrics.k8s.io API,
 * which only metrics-server serves. A kubeadm cluster has none until it is
 * installed, so kubectl finds no such group in discovery and stops with
 * `error: Metrics API not available` (SupportedMetricsAPIVersionAvailable).
 * The add-ons chapter on the roadmap brings metrics-server and the figures.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/top/top.go
 * (SupportedMetricsAPIVersionAvailable),
 * staging/src/k8s.io/kubectl/pkg/cmd/top/top_node.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/top/top_pod.go.
 */
import type { CommandResult } from '../../shell/types.ts';
import { RESOURCES } from '../../api/resources.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { errorText } from '../resource-args.ts';
import { discoveryReachable } from './api-resources.ts';
import { checkErr, plain, usageError } from './check-err.ts';
import { argsAfterCommand, runSubcommand, unionFlags, type Subcommand } from './subcommand.ts';

/** The API group metrics-server registers (with the APIService v1beta1.metrics.k8s.io). */
const METRICS_GROUP = 'metrics.k8s.io';

const COMMON: FlagSpec[] = [
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'sort-by', kind: 'string' },
	{ name: 'no-headers', kind: 'bool' },
	{ name: 'use-protocol-buffers', kind: 'bool' },
];
const NODE_FLAGS: FlagSpec[] = [...COMMON, { name: 'show-capacity', kind: 'bool' }];
const POD_FLAGS: FlagSpec[] = [...COMMON, { name: 'all-namespaces', short: 'A', kind: 'bool' }, { name: 'containers', kind: 'bool' }, { name: 'sum', kind: 'bool' }, { name: 'field-selector', kind: 'string' }];

/** Discovery first (a server that does not answer is reported as such), then the metrics group. */
function top(inv: KubectlInvocation): CommandResult {
	const unreachable = discoveryReachable(inv);
	if (unreachable) return { stdout: '', stderr: errorText([unreachable.replace(/^error: /, '')]), exitCode: 1 };
	if (!RESOURCES.some((r) => r.group === METRICS_GROUP)) return checkErr(plain('Metrics API not available'));
	// Where metrics-server is added, its NodeMetrics and PodMetrics are read here.
	return checkErr(plain('kubectl top: reading metrics.k8s.io is not simulated yet'));
}

const SUBCOMMANDS: Subcommand[] = [
	{ name: 'node', aliases: ['nodes', 'no'], summary: 'Display resource (CPU/memory) usage of nodes', usage: 'kubectl top node [NAME | -l label]', flags: NODE_FLAGS, run: top },
	{ name: 'pod', aliases: ['pods', 'po'], summary: 'Display resource (CPU/memory) usage of pods', usage: 'kubectl top pod [NAME | -l label]', flags: POD_FLAGS, run: top },
];

export const topCommand: KubectlCommand = {
	name: 'top',
	summary: 'Display resource (CPU/memory) usage',
	usage: 'kubectl top [flags] [options]',
	flags: unionFlags(NODE_FLAGS, POD_FLAGS),
	handlesHelp: true,
	run(inv) {
		const result = runSubcommand(inv, 'kubectl top', argsAfterCommand(inv, topCommand.flags), topCommand.flags, SUBCOMMANDS);
		if (result) return result;
		if (inv.args.positionals.length) return checkErr(usageError('kubectl top', `unknown command "${inv.args.positionals.join(' ')}"`));
		return {
			stdout: `Display resource (CPU/memory) usage of nodes or pods. It needs Metrics Server running in the cluster.\n\nAvailable Commands:\n${SUBCOMMANDS.map((s) => `  ${s.name.padEnd(10)}${s.summary}`).join('\n')}\n\nUsage:\n  kubectl top [flags] [options]\n`,
			stderr: '',
			exitCode: 0,
		};
	},
};
