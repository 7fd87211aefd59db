/**
 * The flags every kubectl command accepts (v1.36's list), with the meaning
 * `kubectl options` prints for each (written for this project) and what
 * the simulation does with it: acts on it, takes it without a visible
 * effect (a cache directory, compression, profiling off), or refuses it
 * with the reason, so a flag copied from a page is never silently ignored
 * when it would change who the request is from.
 *
 * Mirrors staging/src/k8s.io/cli-runtime/pkg/genericclioptions/config_flags.go
 * (the flags and their defaults), staging/src/k8s.io/kubectl/pkg/cmd/cmd.go
 * (the klog and profiling flags added beside them).
 */
import type { FlagSpec } from './flags.ts';

export interface GlobalOption {
	name: string;
	short?: string;
	/** pflag's type: strings print their default in single quotes. */
	type: 'string' | 'bool' | 'stringArray' | 'duration' | 'level' | 'pattern';
	defaultText: string;
	description: string;
	/** What the simulation does with it: acts on it, takes it with no visible effect, or refuses it (and why). */
	support: 'yes' | 'no-effect' | { refused: string };
}

/** In pflag's sorted order, as `kubectl options` lists them (v1.36). */
export const GLOBAL_OPTIONS: readonly GlobalOption[] = [
	{ name: 'as', type: 'string', defaultText: '', description: 'Act as this user for the request (impersonation); a service account is system:serviceaccount:NAMESPACE:NAME.', support: 'yes' },
	{ name: 'as-group', type: 'stringArray', defaultText: '[]', description: 'Act as a member of this group; repeat the flag for several groups.', support: 'yes' },
	{ name: 'as-uid', type: 'string', defaultText: '', description: 'The UID to impersonate along with --as.', support: { refused: 'impersonating a UID is not modelled' } },
	{ name: 'cache-dir', type: 'string', defaultText: '$HOME/.kube/cache', description: 'Where discovery and HTTP responses are cached.', support: 'no-effect' },
	{ name: 'certificate-authority', type: 'string', defaultText: '', description: "A PEM file of the CA that signs the API server's certificate.", support: { refused: 'set the CA in the kubeconfig instead (kubectl config set-cluster --certificate-authority)' } },
	{ name: 'client-certificate', type: 'string', defaultText: '', description: 'A PEM file of the client certificate to authenticate with.', support: { refused: 'set it in the kubeconfig instead (kubectl config set-credentials --client-certificate)' } },
	{ name: 'client-key', type: 'string', defaultText: '', description: "A PEM file of the client certificate's private key.", support: { refused: 'set it in the kubeconfig instead (kubectl config set-credentials --client-key)' } },
	{ name: 'cluster', type: 'string', defaultText: '', description: 'Which cluster of the kubeconfig to talk to.', support: 'yes' },
	{ name: 'context', type: 'string', defaultText: '', description: 'Which context of the kubeconfig to use.', support: 'yes' },
	{ name: 'disable-compression', type: 'bool', defaultText: 'false', description: 'Ask the server not to compress its responses.', support: 'no-effect' },
	{ name: 'insecure-skip-tls-verify', type: 'bool', defaultText: 'false', description: "Do not check the server certificate (unsafe: anyone in between can read and change the traffic).", support: 'yes' },
	{ name: 'kubeconfig', type: 'string', defaultText: '', description: 'The kubeconfig file to read, instead of $KUBECONFIG or ~/.kube/config.', support: 'yes' },
	{ name: 'kuberc', type: 'string', defaultText: '', description: "The file of kubectl's own preferences (aliases and default flags).", support: { refused: 'kubectl preferences (kuberc) are not modelled' } },
	{ name: 'log-flush-frequency', type: 'duration', defaultText: '5s', description: 'How often the log buffer is written out.', support: 'no-effect' },
	{ name: 'match-server-version', type: 'bool', defaultText: 'false', description: "Fail unless the server's version matches this client's.", support: 'no-effect' },
	{ name: 'namespace', short: 'n', type: 'string', defaultText: '', description: 'The namespace of the request, instead of the context\'s.', support: 'yes' },
	{ name: 'password', type: 'string', defaultText: '', description: 'A password for basic authentication, which API servers no longer accept.', support: { refused: 'basic authentication was removed from kube-apiserver in v1.19' } },
	{ name: 'profile', type: 'string', defaultText: 'none', description: 'Which Go profile to record: none, cpu, heap, goroutine, threadcreate, block or mutex.', support: 'no-effect' },
	{ name: 'profile-output', type: 'string', defaultText: 'profile.pprof', description: 'The file the profile is written to.', support: 'no-effect' },
	{ name: 'request-timeout', type: 'string', defaultText: '0', description: 'How long to wait for one request before giving up (1s, 2m, 3h); 0 waits forever.', support: 'yes' },
	{ name: 'server', short: 's', type: 'string', defaultText: '', description: 'The address and port of the API server.', support: 'yes' },
	{ name: 'tls-server-name', type: 'string', defaultText: '', description: "The name to check the server certificate against, if not the server's host name.", support: 'no-effect' },
	{ name: 'token', type: 'string', defaultText: '', description: 'A bearer token to authenticate with.', support: 'yes' },
	{ name: 'user', type: 'string', defaultText: '', description: 'Which user of the kubeconfig to authenticate as.', support: 'yes' },
	{ name: 'username', type: 'string', defaultText: '', description: 'A user name for basic authentication, which API servers no longer accept.', support: { refused: 'basic authentication was removed from kube-apiserver in v1.19' } },
	{ name: 'v', short: 'v', type: 'level', defaultText: '0', description: 'How much to log: 6 shows each request, 7 its headers, 8 its body.', support: 'yes' },
	{ name: 'vmodule', type: 'pattern', defaultText: '', description: 'Log levels per source file, as pattern=N,...', support: 'no-effect' },
	{ name: 'warnings-as-errors', type: 'bool', defaultText: 'false', description: "Treat the server's warnings as errors and exit non-zero.", support: { refused: 'warnings as errors are not modelled' } },
];

/** The flags of the list that `declared` (the parser's own global flags) lacks, for the parser to accept too. */
export function extraGlobalFlags(declared: readonly FlagSpec[]): FlagSpec[] {
	return GLOBAL_OPTIONS.filter((o) => !declared.some((f) => f.name === o.name)).map((o) => ({
		name: o.name,
		...(o.short ? { short: o.short } : {}),
		kind: o.type === 'bool' ? 'bool' : o.type === 'stringArray' ? 'stringArray' : 'string',
		...(o.type === 'bool' ? {} : { default: o.type === 'stringArray' ? [] : o.defaultText }),
	}));
}

/**
 * The refusal for a global flag the reader set that the simulation does not
 * model, if any. A command's own flag of the same name (`config
 * set-credentials --token`, `debug --profile`) is that command's, not the
 * global one.
 */
export function refusedGlobalFlag(set: ReadonlySet<string>, flags: Record<string, unknown>, own: readonly FlagSpec[]): string | undefined {
	for (const option of GLOBAL_OPTIONS) {
		if (!set.has(option.name) || own.some((f) => f.name === option.name)) continue;
		if (typeof option.support === 'object') return `error: --${option.name} is not supported by this simulated kubectl: ${option.support.refused}`;
		if (option.name === 'profile' && flags.profile !== 'none') return 'error: --profile is not supported by this simulated kubectl: it records no Go profiles';
	}
	return undefined;
}

