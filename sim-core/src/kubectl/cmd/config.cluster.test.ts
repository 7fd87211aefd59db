/**
 * `kubectl config` editing the reader's kubeconfig as kubernetes.io's tasks
 * do ("Configure Access to Multiple Clusters", the CSR task): clusters,
 * users and contexts written to ~/.kube/config, what `view` hides and what
 * --raw, --minify and --flatten show, and the messages of each write.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

describe('kubectl config writes the kubeconfig', () => {
	const c = createCluster({ seed: 5 });
	const out = (line: string) => c.exec(line).output;

	it('adds a cluster, a user and a context, then lists them', () => {
		c.exec('echo fake-ca > ca.crt; echo cert > dev.crt; echo key > dev.key');
		expect(out('kubectl config set-cluster development --server=https://1.2.3.4 --certificate-authority=ca.crt')).toBe('Cluster "development" set.\n');
		expect(out('kubectl config set-cluster scratch --server=https://5.6.7.8 --insecure-skip-tls-verify')).toBe('Cluster "scratch" set.\n');
		expect(out('kubectl config set-credentials developer --client-certificate=dev.crt --client-key=dev.key')).toBe('User "developer" set.\n');
		expect(out('kubectl config set-credentials experimenter --username=exp --password=some-password')).toBe('User "experimenter" set.\n');
		expect(out('kubectl config set-context dev-frontend --cluster=development --namespace=frontend --user=developer')).toBe('Context "dev-frontend" created.\n');
		expect(out('kubectl config set-context dev-frontend --namespace=web')).toBe('Context "dev-frontend" modified.\n');
		expect(out('kubectl config get-clusters')).toBe('NAME\ndevelopment\nkubernetes\nscratch\n');
		expect(out('kubectl config get-users')).toBe('NAME\ndeveloper\nexperimenter\nkubernetes-admin\n');
		expect(out('kubectl config get-contexts')).toMatch(/^\s+dev-frontend\s+development\s+developer\s+web\n\*\s+kubernetes-admin@kubernetes\s+kubernetes\s+kubernetes-admin\s*\n$/m);
	});

	it('stores file references as absolute paths, and hides secrets unless --raw', () => {
		const view = out('kubectl config view');
		expect(view).toContain('    certificate-authority: /home/reader/ca.crt\n    server: https://1.2.3.4\n  name: development\n');
		expect(view).toContain('- name: developer\n  user:\n    client-certificate: /home/reader/dev.crt\n    client-key: /home/reader/dev.key\n');
		expect(view).toContain('- name: experimenter\n  user:\n    password: REDACTED\n    username: exp\n');
		expect(out('kubectl config view --raw')).toContain('    password: some-password\n');
		// --flatten embeds what the files hold (and, like --raw, shows it).
		expect(out('kubectl config view --flatten --minify --context dev-frontend')).toContain(`    client-certificate-data: ${btoa('cert\n')}\n`);
	});

	it('switches, renames and deletes, as kubectl words each', () => {
		expect(out('kubectl config use-context dev-frontend')).toBe('Switched to context "dev-frontend".\n');
		expect(out('kubectl config current-context')).toBe('dev-frontend\n');
		// dev.crt holds no certificate: kubectl cannot build its TLS client, but `kubectl config` still works.
		expect(out('kubectl get pods')).toBe('error: tls: failed to find any PEM data in certificate input\n');
		expect(out('kubectl --user=nobody-here get pods')).toBe('Error from server (Forbidden): pods is forbidden: User "system:anonymous" cannot list resource "pods" in API group "" in the namespace "web"\n');
		expect(out('kubectl --context=absent get pods')).toBe('Error in configuration: context was not found for specified context: absent\n');
		expect(out('kubectl config rename-context dev-frontend frontend')).toBe('Context "dev-frontend" renamed to "frontend".\n');
		expect(out('kubectl config rename-context nope x')).toBe('error: cannot rename the context "nope", it\'s not in /home/reader/.kube/config\n');
		expect(out('kubectl config current-context')).toBe('frontend\n');
		expect(c.exec('kubectl config delete-context frontend')).toMatchObject({ stdout: 'deleted context frontend from /home/reader/.kube/config\n', stderr: 'warning: this removed your active context, use "kubectl config use-context" to select a different one\n' });
		// The current-context still names it, as upstream leaves it: the reader is told to pick another.
		expect(out('kubectl config current-context')).toBe('frontend\n');
		expect(out('kubectl config delete-cluster scratch')).toBe('deleted cluster scratch from /home/reader/.kube/config\n');
		expect(out('kubectl config delete-user nobody')).toBe('error: cannot delete user nobody, not in /home/reader/.kube/config\n');
		expect(out('kubectl config use-context kubernetes-admin@kubernetes')).toBe('Switched to context "kubernetes-admin@kubernetes".\n');
		expect(c.exec('kubectl get nodes').exitCode).toBe(0);
	});

	it('refuses to embed a file that is not there', () => {
		expect(out('kubectl config set-credentials x --client-certificate=missing.crt --embed-certs=true')).toBe('error: error reading client-certificate data from missing.crt: open missing.crt: no such file or directory\n');
	});
});

describe('kubectl config set and unset', () => {
	const c = createCluster({ seed: 5 });
	const out = (line: string) => c.exec(line).output;

	it('writes any property by its dotted path, and a context made that way works', () => {
		expect(out('kubectl config set clusters.lab.server https://10.0.0.1:6443')).toBe('Property "clusters.lab.server" set.\n');
		expect(out('kubectl config set clusters.lab.insecure-skip-tls-verify true')).toBe('Property "clusters.lab.insecure-skip-tls-verify" set.\n');
		expect(out('kubectl config set contexts.lab.cluster lab')).toBe('Property "contexts.lab.cluster" set.\n');
		expect(out('kubectl config set contexts.lab.user kubernetes-admin')).toBe('Property "contexts.lab.user" set.\n');
		expect(out('kubectl config set contexts.lab.namespace kube-system')).toBe('Property "contexts.lab.namespace" set.\n');
		expect(out('kubectl config view')).toContain('- cluster:\n    insecure-skip-tls-verify: true\n    server: https://10.0.0.1:6443\n  name: lab\n');
		expect(out('kubectl config get-contexts lab')).toMatch(/^\s+lab\s+lab\s+kubernetes-admin\s+kube-system\s*$/m);
		// The existing context, narrowed to a namespace the reader names: kubectl then lists there.
		expect(out('kubectl config set contexts.kubernetes-admin@kubernetes.namespace kube-system')).toBe('Property "contexts.kubernetes-admin@kubernetes.namespace" set.\n');
		expect(out('kubectl get deploy coredns -o name')).toBe('deployment.apps/coredns\n');
		expect(out('kubectl config unset contexts.kubernetes-admin@kubernetes.namespace')).toBe('Property "contexts.kubernetes-admin@kubernetes.namespace" unset.\n');
		expect(c.exec('kubectl get deploy coredns').exitCode).toBe(1);
	});

	it('takes -data fields as base64 unless --set-raw-bytes, removes whole entries, and says what it refuses', () => {
		expect(out('kubectl config set users.bot.client-key-data bm90IGEga2V5')).toBe('Property "users.bot.client-key-data" set.\n');
		expect(out('kubectl config set users.bot.client-certificate-data "not a cert" --set-raw-bytes')).toBe('Property "users.bot.client-certificate-data" set.\n');
		expect(c.exec('kubectl config view --raw -o jsonpath="{.users[?(@.name==\'bot\')].user.client-certificate-data}"').stdout).toBe(btoa('not a cert'));
		expect(out('kubectl config set users.bot.client-key-data not-base64!')).toBe('error: illegal base64 data at input byte 3\n');
		expect(out('kubectl config unset users.bot')).toBe('Property "users.bot" unset.\n');
		expect(out('kubectl config get-users')).not.toContain('bot');
		expect(out('kubectl config set clusters.lab.server')).toBe("error: Unexpected args: [clusters.lab.server]\nSee 'kubectl config set -h' for help and examples\n");
		expect(out('kubectl config unset clusters.nowhere.server')).toBe('error: current map key `nowhere` is invalid\n');
		expect(out('kubectl config set clusters.lab.insecure-skip-tls-verify maybe')).toBe('error: strconv.ParseBool: parsing "maybe": invalid syntax\n');
	});
});
