/**
 * kubectl's shell completion as kubernetes.io's kubectl Quick Reference
 * sets it up: `source <(kubectl completion bash)` succeeds, the script asks
 * `kubectl __complete`, and that answers what Tab offers (kinds, object
 * names, namespaces) with cobra's directive line.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('kubectl completion', () => {
	it('prints a script for each shell kubectl supports and refuses the others as kubectl does', () => {
		const cluster = createCluster({ seed: 3 });
		const bash = cluster.exec('kubectl completion bash').stdout;
		expect(bash).toMatch(/^# bash completion for kubectl/);
		expect(bash).toContain('kubectl __complete');
		expect(bash).toContain('complete -o default -F __start_kubectl kubectl\n');
		expect(cluster.exec('kubectl completion zsh').stdout).toMatch(/^#compdef kubectl\n/);
		for (const shell of ['fish', 'powershell']) expect(cluster.exec(`kubectl completion ${shell}`).stdout).toContain('kubectl __complete');
		expect(cluster.exec('kubectl completion')).toMatchObject({ stderr: "error: Shell not specified.\nSee 'kubectl completion -h' for help and examples\n", exitCode: 1 });
		expect(cluster.exec('kubectl completion tcsh').stderr).toBe('error: Unsupported shell type "tcsh".\nSee \'kubectl completion -h\' for help and examples\n');
		expect(cluster.exec('kubectl completion bash zsh').stderr).toMatch(/^error: Too many arguments\. Expected only the shell type\.\n/);
	});

	it("loads as the Quick Reference says, and __complete answers with Tab's candidates", () => {
		const cluster = createCluster({ seed: 3 });
		expect(cluster.exec('source <(kubectl completion bash)')).toMatchObject({ output: '', exitCode: 0 });
		expect(cluster.exec('echo "source <(kubectl completion bash)" >> ~/.bashrc').exitCode).toBe(0);
		expect(cluster.exec('alias k=kubectl; complete -o default -F __start_kubectl k').exitCode).toBe(0);
		const namespaces = cluster.exec('kubectl __complete get pods -n kube-');
		expect(namespaces.stdout).toBe('kube-flannel\nkube-node-lease\nkube-public\nkube-system\n:4\n');
		expect(namespaces.stderr).toBe('Completion ended with directive: ShellCompDirectiveNoFileComp\n');
		// The same words as Tab completes at the end of the line.
		const line = 'kubectl get pods -n kube-system kube-sch';
		expect(cluster.exec(`kubectl __complete get pods -n kube-system kube-sch`).stdout).toBe([...cluster.complete(line, line.length).candidates, ':4', ''].join('\n'));
		expect(cluster.exec('kubectl __complete get pods -n kube-system kube-sch').stdout).toMatch(/^kube-scheduler-control-plane\n/);
		// `kubectl __complete ""` lists the commands; the hidden one is not among them, nor in `kubectl --help`.
		const commands = cluster.exec('kubectl __complete ""').stdout.split('\n');
		expect(commands).toEqual(expect.arrayContaining(['apply', 'completion', 'port-forward', 'proxy']));
		expect(commands).not.toContain('__complete');
		expect(cluster.exec('kubectl --help').stdout).toMatch(/Settings Commands:\n {2}label {11}.*\n {2}annotate {8}.*\n {2}completion {6}Output shell completion code/);
	});
});
