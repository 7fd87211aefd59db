/**
 * Tab completion (src/sandbox/completion.ts) over a small, fixed context:
 * what the terminal offers for each position of a command line.
 */
import { describe, expect, it } from 'vitest';
import { commonPrefix, complete, currentCommand, parseApiResources, parseKubectlVerbs, type CompletionContext } from '../../src/sandbox/completion.ts';

const ctx: CompletionContext = {
	commands: ['cat', 'curl', 'kubectl', 'ssh', 'sudo', 'systemctl', 'journalctl', 'crictl'],
	kubectlVerbs: ['apply', 'create', 'delete', 'describe', 'get', 'logs', 'rollout', 'scale', 'taint'],
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
		['kubectl verbs', 'kubectl de', ['delete', 'describe'], 8],
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

	it('finds the longest common prefix', () => {
		expect(commonPrefix(['node-1', 'node-2'])).toBe('node-');
		expect(commonPrefix(['po'])).toBe('po');
		expect(commonPrefix([])).toBe('');
	});

	it('reads kinds from kubectl api-resources, with and without short names', () => {
		const text = 'bindings                                 v1                             true         Binding\nconfigmaps                  cm           v1                             true         ConfigMap\nnodes                       no           v1                             false        Node\n';
		expect(parseApiResources(text)).toEqual([
			{ name: 'bindings', shortNames: [], kind: 'Binding', namespaced: true },
			{ name: 'configmaps', shortNames: ['cm'], kind: 'ConfigMap', namespaced: true },
			{ name: 'nodes', shortNames: ['no'], kind: 'Node', namespaced: false },
		]);
	});

	it('reads verbs from kubectl --help', () => {
		const help = 'kubectl controls the Kubernetes cluster manager.\n\nCommands:\n  annotate       Update the annotations\n  api-resources  Print the supported API resources\n  get            Display one or many resources\n\nUsage:\n  kubectl [flags] [options]\n';
		expect(parseKubectlVerbs(help)).toEqual(['annotate', 'api-resources', 'get']);
	});
});
