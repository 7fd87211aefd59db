/**
 * What kubectl v1.36 prints where an earlier audit found us different, on a
 * whole cluster: an unknown command without cobra's trailer, a bad flag's
 * hint naming the subcommand, validation errors with their values as JSON
 * (v1.34+), drain cordoning before its warnings, and the namespace
 * preference set with `kubectl config set-context --current`.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster.ts';

function cluster(): Cluster {
	const c = new Cluster({ seed: 21 });
	c.settle();
	return c;
}

describe('kubectl output formats', () => {
	it('answers an unknown command with the error line alone, and suggestions when close', () => {
		const c = cluster();
		expect(c.exec('kubectl frobnicate')).toMatchObject({ stderr: 'error: unknown command "frobnicate" for "kubectl"\n', exitCode: 1 });
		// cobra suggests within a Levenshtein distance of 2: get, and set.
		expect(c.exec('kubectl gett pods').stderr).toBe('error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tget\n\tset\n');
	});

	it('names the failing subcommand in a bad flag\'s hint', () => {
		const c = cluster();
		expect(c.exec('kubectl rollout status --bogus deployment/x').stderr).toBe("error: unknown flag: --bogus\nSee 'kubectl rollout status --help' for usage.\n");
		expect(c.exec('kubectl get pods --bogus').stderr).toBe("error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n");
	});

	it('renders a validation error\'s value as JSON', () => {
		const c = cluster();
		c.exec('kubectl create deployment web --image=nginx:1.27');
		const patched = c.exec('kubectl patch deployment web -p \'{"spec":{"selector":{"matchLabels":{"app":"b"}}}}\'');
		expect(patched.stderr).toContain('* spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`');
		expect(patched.stderr).toContain('* spec.selector: Invalid value: {"matchLabels":{"app":"b"}}: field is immutable');
		expect(c.exec('kubectl patch deployment web -p \'{"spec":{"strategy":{"rollingUpdate":{"maxSurge":"ten%"}}}}\'').stderr).toContain('spec.strategy.rollingUpdate.maxSurge: Invalid value: "ten%": a valid percent string');
	});

	it('drains as upstream writes it: the node cordoned, then the warning about its DaemonSet Pods', () => {
		const c = cluster();
		const drained = c.exec('kubectl drain node-1 --ignore-daemonsets');
		expect(drained.output).toMatch(/^node\/node-1 cordoned\nWarning: ignoring DaemonSet-managed Pods: [^\n]+\n(?:evicting pod [^\n]+\n|pod\/[^\n]+ evicted\n)*node\/node-1 drained\n$/);
		expect(drained.exitCode).toBe(0);
	});

	it('sets the namespace preference with config set-context --current, as kubernetes.io does', () => {
		const c = cluster();
		expect(c.exec('kubectl config set-context --current --namespace=kube-system').output).toBe('Context "kubernetes-admin@kubernetes" modified.\n');
		expect(c.exec('kubectl config view --minify -o jsonpath={..namespace}').stdout).toBe('kube-system');
		expect(c.exec('kubectl get pods').stdout).toMatch(/^NAME\s+READY[\s\S]*etcd-control-plane/);
		expect(c.exec('kubectl config get-contexts').stdout).toMatch(/^\*\s+kubernetes-admin@kubernetes\s+kubernetes\s+kubernetes-admin\s+kube-system$/m);
		// An empty value takes it away again.
		c.exec('kubectl config set-context --current --namespace=');
		expect(c.exec('kubectl get pods').output).toBe('No resources found in default namespace.\n');
		// A named context that does not exist yet is created (with only what the flags give); switching to it and back.
		expect(c.exec('kubectl config set-context other --cluster=kubernetes --user=kubernetes-admin --namespace=x').output).toBe('Context "other" created.\n');
		expect(c.exec('kubectl config use-context other').stdout).toBe('Switched to context "other".\n');
		expect(c.exec('kubectl get pods').output).toBe('No resources found in x namespace.\n');
		expect(c.exec('kubectl config get-contexts -o name').stdout).toBe('kubernetes-admin@kubernetes\nother\n');
		expect(c.exec('kubectl config use-context kubernetes-admin@kubernetes').stdout).toBe('Switched to context "kubernetes-admin@kubernetes".\n');
		expect(c.exec('kubectl config use-context nope').stderr).toBe('error: no context exists with the name: "nope"\n');
	});

	it('prints kubectl --help in upstream\'s command groups, names in a 16-column field, an empty plugins section', () => {
		const help = cluster().exec('kubectl --help');
		expect(help.exitCode).toBe(0);
		expect(help.stdout.startsWith('kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\nBasic Commands (Beginner):\n  create          Create a resource from a file or from stdin\n')).toBe(true);
		const titles = help.stdout.split('\n').filter((l) => /^[A-Z].*:$/.test(l));
		expect(titles).toEqual(['Basic Commands (Beginner):', 'Basic Commands (Intermediate):', 'Deploy Commands:', 'Cluster Management Commands:', 'Troubleshooting and Debugging Commands:', 'Advanced Commands:', 'Settings Commands:', 'Subcommands provided by plugins:', 'Other Commands:', 'Usage:']);
		expect(help.stdout).toContain('Advanced Commands:\n  diff            Diff the live version against a would-be applied version\n  apply   ');
		expect(help.stdout).toContain('Subcommands provided by plugins:\n\nOther Commands:\n  api-resources   Print the supported API resources on the server\n');
		expect(help.stdout).toContain('  wait            Wait for a specific condition on one or many resources\n');
		expect(cluster().exec('kubectl help').stdout).toBe(help.stdout);
	});
});
