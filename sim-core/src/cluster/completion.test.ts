/**
 * Tab completion (cluster/completion.ts) over a small, fixed context with
 * kubectl's real commands: what the terminal offers for each position of a
 * command line. The last test asks a real cluster.
 */
import { describe, expect, it } from 'vitest';
import { complete, currentCommand, kubectlVerbs, type CompletionContext } from './completion.ts';
import { COMMANDS } from '../kubectl/cmd/index.ts';
import { Cluster } from './cluster.ts';

const ctx: CompletionContext = {
	commands: ['cat', 'curl', 'kubectl', 'ssh', 'sudo', 'systemctl', 'journalctl', 'crictl'],
	kubectl: kubectlVerbs(COMMANDS),
	resources: [
		{ name: 'pods', shortNames: ['po'], kind: 'Pod', namespaced: true },
		{ name: 'nodes', shortNames: ['no'], kind: 'Node', namespaced: false },
		{ name: 'deployments', shortNames: ['deploy'], kind: 'Deployment', namespaced: true },
		{ name: 'namespaces', shortNames: ['ns'], kind: 'Namespace', namespaced: false },
	],
	names: (resource, namespace) => {
		const all: Record<string, Record<string, string[]>> = {
			pods: { default: ['web-1', 'web-2'], 'kube-system': ['etcd-control-plane', 'kube-apiserver-control-plane'] },
			deployments: { default: ['web'] },
			nodes: { default: ['control-plane', 'node-1', 'node-2'] },
		};
		const byNs = all[resource] ?? {};
		return namespace === undefined ? Object.values(byNs).flat() : resource === 'nodes' ? byNs.default : (byNs[namespace] ?? []);
	},
	namespaces: () => ['default', 'kube-system'],
	nodes: () => ['control-plane', 'node-1', 'node-2'],
};

const at = (line: string) => complete(line, line.length, ctx);

describe('tab completion', () => {
	it.each([
		['command names', 'ku', ['kubectl'], 0],
		['kubectl verbs', 'kubectl de', ['debug', 'delete', 'describe'], 8],
		['kinds and short names', 'kubectl get dep', ['deploy', 'deployment', 'deployments'], 12],
		['object names in the default namespace', 'kubectl get pods we', ['web-1', 'web-2'], 17],
		['object names in the namespace given', 'kubectl get pods -n kube-system et', ['etcd-control-plane'], 32],
		['object names with --namespace=', 'kubectl --namespace=kube-system logs kube-', ['kube-apiserver-control-plane'], 37],
		['object names in every namespace with -A', 'kubectl get po -A ', ['etcd-control-plane', 'kube-apiserver-control-plane', 'web-1', 'web-2'], 18],
		['kind/name', 'kubectl describe deploy/w', ['web'], 24],
		['namespaces after -n', 'kubectl get pods -n k', ['kube-system'], 20],
		['output formats after -o', 'kubectl get pods -o y', ['yaml'], 20],
		['output formats after --output=', 'kubectl get pods --output=j', ['json', 'jsonpath='], 26],
		['flags of the verb', 'kubectl get pods --show-l', ['--show-labels'], 17],
		['rollout sub-commands, kinds and names', 'kubectl rollout status deployment ', ['web'], 34],
		['nodes for taint', 'kubectl taint nodes node-', ['node-1', 'node-2'], 20],
		['pods for logs', 'kubectl logs ', ['web-1', 'web-2'], 13],
		['nodes for ssh', 'ssh n', ['node-1', 'node-2'], 4],
		['systemctl verbs, then units', 'systemctl status ku', ['kubelet'], 17],
		['units after journalctl -u', 'journalctl -u c', ['containerd'], 14],
		['crictl sub-commands', 'crictl p', ['pods', 'ps'], 7],
		['after a pipe, a command', 'kubectl get pods | c', ['cat', 'crictl', 'curl'], 19],
		['through sudo', 'sudo kubectl g', ['get'], 13],
	])('completes %s', (_what, line, candidates, replaceFrom) => {
		expect(at(line)).toEqual({ candidates, replaceFrom });
	});

	it('completes the word under the cursor, not the end of the line', () => {
		const line = 'kubectl ge pods';
		expect(complete(line, 10, ctx)).toEqual({ candidates: ['get'], replaceFrom: 8 });
	});

	it('offers nothing where nothing fits', () => {
		expect(at('kubectl get pods web-1 ').candidates).toEqual(['web-1', 'web-2']);
		expect(at('cat /etc/').candidates).toEqual([]);
		expect(at('kubectl get unicorns ').candidates).toEqual([]);
	});

	it('splits the current simple command, quotes respected', () => {
		expect(currentCommand('echo "a | b" && kubectl g', 25)).toEqual({ words: ['kubectl', 'g'], wordStart: 24 });
		expect(currentCommand('', 0)).toEqual({ words: [''], wordStart: 0 });
	});

	it('offers the flags the verb declares, and the global ones', () => {
		// --profile and --profile-output are kubectl's persistent (global) flags, which cobra offers on every command.
		expect(at('kubectl logs --pr').candidates).toEqual(['--prefix', '--previous', '--profile', '--profile-output']);
		expect(at('kubectl get --namesp').candidates).toEqual(['--namespace']);
		expect(at('kubectl scale --repl').candidates).toEqual(['--replicas']);
		// --dry-run has a value of its own when bare (pflag's NoOptDefVal): its values follow `=`.
		expect(at('kubectl apply --dry-run=s').candidates).toEqual(['server']);
	});

	it('offers the subcommands kubectl declares', () => {
		expect(at('kubectl create dep').candidates).toEqual(['deployment']);
		expect(at('kubectl auth ').candidates).toEqual(['can-i', 'reconcile', 'whoami']);
		expect(at('kubectl config use').candidates).toEqual(['use-context']);
	});

	it('completes from a running cluster: the host\'s commands, discovery\'s kinds, the objects in etcd', () => {
		const cluster = new Cluster({ seed: 7 });
		cluster.settle();
		expect(cluster.complete('kube', 4)).toEqual({ candidates: ['kubectl'], replaceFrom: 0 });
		expect(cluster.complete('kubectl get cm', 14).candidates).toEqual(['cm']);
		expect(cluster.complete('kubectl get daemonset', 21).candidates).toEqual(['daemonset', 'daemonsets']);
		expect(cluster.complete('kubectl get nodes node-', 23)).toEqual({ candidates: ['node-1', 'node-2'], replaceFrom: 18 });
		expect(cluster.complete('kubectl -n kube-system get po etcd', 34).candidates).toEqual(['etcd-control-plane']);
		expect(cluster.complete('kubectl ed', 10).candidates).toEqual(['edit']);
		// The node's tools are on the node, not on the reader's workstation.
		expect(cluster.complete('cri', 3).candidates).toEqual([]);
		cluster.exec('ssh node-1');
		expect(cluster.complete('cri', 3).candidates).toEqual(['crictl']);
		expect(cluster.complete('systemc', 7).candidates).toEqual(['systemctl']);
	});
});
