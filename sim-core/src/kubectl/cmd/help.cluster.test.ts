/**
 * kubectl's help and global options as a reader meets them: each nested
 * command answers `--help` with its own text (not its parent's), a parent
 * run bare prints its help where cobra prints it, `kubectl help CMD` is
 * `CMD --help`, a bad flag names the command that failed, and `kubectl
 * options` lists every global flag, of which the ones that would change who
 * a request is from are acted on (--token) or refused with the reason.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const cluster = createCluster({ seed: 1 });
const kubectl = (line: string) => cluster.exec(`kubectl ${line}`);

/** Each parent with its subcommands, as `kubectl PARENT --help` lists them. */
const NESTED: Record<string, string[]> = {
	rollout: ['history', 'pause', 'restart', 'resume', 'status', 'undo'],
	set: ['env', 'image', 'resources', 'selector', 'serviceaccount', 'subject'],
	auth: ['can-i', 'reconcile', 'whoami'],
	certificate: ['approve', 'deny'],
	top: ['node', 'pod'],
	'create secret': ['docker-registry', 'generic', 'tls'],
	apply: ['edit-last-applied', 'set-last-applied', 'view-last-applied'],
	config: ['current-context', 'get-contexts', 'set', 'set-context', 'unset', 'use-context', 'view'],
	'create service': ['clusterip', 'externalname', 'loadbalancer', 'nodeport'],
};

describe('kubectl help', () => {
	it.each(Object.entries(NESTED))('answers each subcommand of %s with its own help', (parent, subs) => {
		for (const sub of subs) {
			const help = kubectl(`${parent} ${sub} --help`);
			expect(help.exitCode, `${parent} ${sub}`).toBe(0);
			expect(help.stdout, `${parent} ${sub}`).toMatch(new RegExp(`\\nUsage:\\n  kubectl ${parent} ${sub}[ (].*\\[options\\]\\n`));
			expect(help.stdout.endsWith('\nUse "kubectl options" for a list of global command-line options (applies to all commands).\n')).toBe(true);
			expect(help.stdout).not.toContain('Available Commands:');
		}
	});

	it("lists a parent's subcommands under --help, padded as cobra pads them, and prints the same help on stderr when run bare", () => {
		const help = kubectl('rollout --help');
		expect(help.exitCode).toBe(0);
		expect(help.stdout).toContain('Available Commands:\n  history     View rollout history\n  pause       Mark the provided resource as paused\n');
		expect(help.stdout).toContain('Usage:\n  kubectl rollout SUBCOMMAND [options]\n\nUse "kubectl rollout <command> --help" for more information about a given command.\n');
		// DefaultSubCommandRun: the help on stderr and exit 1, so `kubectl rollout && ...` stops.
		const bare = kubectl('rollout');
		expect(bare).toMatchObject({ exitCode: 1, stdout: '', stderr: help.stdout });
		// certificate's Run is cmd.Help(): stdout and success.
		expect(kubectl('certificate')).toMatchObject({ exitCode: 0, stderr: '' });
		expect(kubectl('rollout frobnicate').stderr).toBe('error: unknown command "frobnicate"\nSee \'kubectl rollout -h\' for help and examples\n');
	});

	it('says a global flag at the end of the line wants its value, as pflag does', () => {
		expect(kubectl('-n')).toMatchObject({ exitCode: 1, stderr: "error: flag needs an argument: 'n' in -n\n" });
		expect(kubectl('--namespace').stderr).toBe('error: flag needs an argument: --namespace\n');
		expect(kubectl('-n kube-system').stdout).toBe(kubectl('--help').stdout);
	});

	it('prints a written description, examples and options where the command has them, in the help template\'s layout', () => {
		const help = kubectl('get --help').stdout;
		expect(help.startsWith('Display one or many resources.\n\n ')).toBe(true);
		expect(help).toContain('\n\nExamples:\n  # ');
		// help_flags_printer: `    -s, --name=DEFAULT:` then the meaning after a tab, wrapped at 70, a blank line between flags.
		expect(help).toContain("\n\nOptions:\n    -A, --all-namespaces=false:\n\t");
		expect(help).toMatch(/\n {4}-l, --selector='':\n\t\S/);
		expect(help).toMatch(/\n {4}-w, --watch=false:\n\t/);
		for (const line of help.split('\n').filter((l) => l.startsWith('\t'))) expect(line.length).toBeLessThanOrEqual(71);
		const names = [...help.matchAll(/^ {4}(?:-\w, )?--([\w-]+)=/gm)].map((m) => m[1]);
		expect(names).toEqual([...names].sort());
		expect(help.indexOf('Options:')).toBeLessThan(help.indexOf('Usage:'));
	});

	it('treats kubectl help CMD as CMD --help', () => {
		expect(kubectl('help get').stdout).toBe(kubectl('get --help').stdout);
		expect(kubectl('help rollout status').stdout).toBe(kubectl('rollout status --help').stdout);
		expect(kubectl('help').stdout).toBe(kubectl('--help').stdout);
	});

	it('names the failing subcommand, at any depth, in a bad flag\'s usage hint', () => {
		expect(kubectl('create secret generic s --bogus').stderr).toBe("error: unknown flag: --bogus\nSee 'kubectl create secret generic --help' for usage.\n");
		expect(kubectl('create service clusterip s --bogus').stderr).toBe("error: unknown flag: --bogus\nSee 'kubectl create service clusterip --help' for usage.\n");
		expect(kubectl('rollout status --bogus').stderr).toBe("error: unknown flag: --bogus\nSee 'kubectl rollout status --help' for usage.\n");
	});
});

describe('kubectl options', () => {
	it('lists every global flag in name order with its default, and the top-level help points to it', () => {
		const out = kubectl('options').stdout;
		expect(out.startsWith('The following options can be passed to any command:\n\n    --as=\'\':\n\t')).toBe(true);
		const names = [...out.matchAll(/^ {4}(?:-\w, )?--([\w-]+)=/gm)].map((m) => m[1]);
		expect(names).toEqual([...names].sort());
		expect(names).toEqual(expect.arrayContaining(['namespace', 'token', 'request-timeout', 'kubeconfig', 'context', 'v', 'warnings-as-errors']));
		expect(out).toContain("    -n, --namespace='':\n");
		expect(out).toContain('    --insecure-skip-tls-verify=false:\n');
		for (const line of out.split('\n').filter((l) => l.startsWith('\t'))) expect(line.length).toBeLessThanOrEqual(71);
		const top = kubectl('--help').stdout;
		expect(top.endsWith('Use "kubectl options" for a list of global command-line options (applies to all commands).\n')).toBe(true);
		expect(top).not.toMatch(/^ {2}options /m);
	});

	it('refuses the flags that would change who a request is from, and takes the others', () => {
		expect(kubectl('get pods --username=jane')).toMatchObject({ exitCode: 1, stderr: 'error: --username is not supported by this simulated kubectl: basic authentication was removed from kube-apiserver in v1.19\n' });
		expect(kubectl('get pods --client-certificate=/tmp/x.crt').stderr).toContain('kubectl config set-credentials --client-certificate');
		expect(kubectl('get ns default --cache-dir=/tmp/cache --disable-compression').exitCode).toBe(0);
		// `config set-credentials --token` is that command's own flag, not the global one.
		expect(kubectl('config set-credentials robot --token=abc').stdout).toBe('User "robot" set.\n');
	});

	it('authenticates with --token where the kubeconfig user has no certificate', () => {
		kubectl('create serviceaccount demo');
		kubectl('config set-credentials nobody');
		kubectl('config set-context nobody --cluster=kubernetes --user=nobody');
		const token = kubectl('create token demo').stdout.trim();
		expect(kubectl(`--context=nobody --token=${token} auth whoami`).stdout).toMatch(/^Username\s+system:serviceaccount:default:demo$/m);
		expect(kubectl('--context=nobody --token=not-a-token get pods')).toMatchObject({ exitCode: 1, stderr: 'error: You must be logged in to the server (Unauthorized)\n' });
		// With the admin's client certificate the API server's x509 authenticator answers before the token is looked at.
		expect(kubectl('--token=not-a-token auth whoami').stdout).toMatch(/^Username\s+kubernetes-admin$/m);
	});
});

describe('kubectl create secret docker-registry', () => {
	it('stores the credentials as a docker login would write them', () => {
		const created = kubectl('create secret docker-registry regcred --docker-server=registry.example.com --docker-username=jane --docker-password=s3cret --docker-email=jane@example.com');
		expect(created.stdout).toBe('secret/regcred created\n');
		expect(kubectl('get secret regcred -o jsonpath={.type}').stdout).toBe('kubernetes.io/dockerconfigjson');
		const encoded = kubectl("get secret regcred -o jsonpath='{.data.\\.dockerconfigjson}'").stdout;
		const config = JSON.parse(atob(encoded)) as { auths: Record<string, Record<string, string>> };
		expect(config).toEqual({ auths: { 'registry.example.com': { username: 'jane', password: 's3cret', email: 'jane@example.com', auth: btoa('jane:s3cret') } } });
		// Without --docker-server, Docker Hub's address (the flag's default).
		kubectl('create secret docker-registry hub --docker-username=jane --docker-password=s3cret');
		expect(Object.keys((JSON.parse(atob(kubectl("get secret hub -o jsonpath='{.data.\\.dockerconfigjson}'").stdout)) as { auths: object }).auths)).toEqual(['https://index.docker.io/v1/']);
	});

	it('takes a config.json from a file, and says what it needs without one', () => {
		cluster.exec("printf '{\"auths\":{}}' > config.json");
		expect(kubectl('create secret docker-registry fromfile --from-file=.dockerconfigjson=config.json').stdout).toBe('secret/fromfile created\n');
		expect(atob(kubectl("get secret fromfile -o jsonpath='{.data.\\.dockerconfigjson}'").stdout)).toBe('{"auths":{}}');
		expect(kubectl('create secret docker-registry nothing --docker-username=jane')).toMatchObject({ exitCode: 1, stderr: 'error: either --from-file or the combination of --docker-username, --docker-password and --docker-server is required\n' });
	});
});
