/**
 * `kubectl proxy [--port=PORT] [--address=IP] [--api-prefix=PREFIX]`: a
 * plain-HTTP gateway on the reader's machine to the API server, which sends
 * each request on with kubectl's own credentials. It listens (port 8001 on
 * 127.0.0.1 by default; `--port=0` picks a free port), says
 * `Starting to serve on ADDRESS:PORT`, and keeps serving as a job (see the
 * LocalListener). What it forwards, and what its request filter refuses,
 * is the cluster wiring's part.
 *
 * Upstream logs a failed listen with klog.Fatal (an `F` line naming the
 * source file and line, exit status 255); the simulator prints the same
 * error text as an `error:` line with that status, since the line number
 * depends on the build.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/proxy/proxy.go.
 */
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { checkErr, plain } from './check-err.ts';
import type { CommandResult } from '../../shell/types.ts';

const DEFAULT_PORT = 8001;

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const port = Number(args.flags.port ?? DEFAULT_PORT);
	const unixSocket = String(args.flags['unix-socket'] ?? '');
	if (port !== DEFAULT_PORT && unixSocket) return checkErr(plain('cannot set --unix-socket and --port at the same time'));
	const listener = inv.env.listener;
	if (!listener) return checkErr(plain("proxy in this sandbox listens on the reader's workstation only: run it there, then curl localhost:8001 from there"));
	if (unixSocket) return checkErr(plain('--unix-socket is not modelled by this sandbox: curl here speaks TCP only; use --port'));
	let apiPrefix = String(args.flags['api-prefix'] ?? '/');
	if (!apiPrefix.endsWith('/')) apiPrefix += '/';
	const address = String(args.flags.address ?? '127.0.0.1');
	const bindable = address === '0.0.0.0' || address === '127.0.0.1' || address === 'localhost' || address === listener.hostIp;
	const ip = address === 'localhost' ? '127.0.0.1' : address;
	const chosen = port === 0 ? listener.freePort() : port;
	const fatal = (why: string) => ({ stdout: '', stderr: `error: listen tcp ${address}:${port}: ${why}\n`, exitCode: 255 });
	if (!bindable) return fatal('bind: cannot assign requested address');
	if (listener.inUse(ip, chosen)) return fatal('bind: address already in use');
	listener.listen({ kind: 'proxy', addresses: [ip], ports: [{ local: chosen, remote: 0 }], apiPrefix });
	return { stdout: `Starting to serve on ${ip}:${chosen}\n`, stderr: '', exitCode: 0 };
}

export const proxyCommand: KubectlCommand = {
	name: 'proxy',
	summary: 'Run a proxy to the Kubernetes API server',
	usage: 'kubectl proxy [--port=PORT] [--www=static-dir] [--www-prefix=prefix] [--api-prefix=prefix]',
	flags: [
		{ name: 'port', short: 'p', kind: 'int', default: DEFAULT_PORT },
		{ name: 'address', kind: 'string', default: '127.0.0.1' },
		{ name: 'api-prefix', kind: 'string', default: '/' },
		{ name: 'www', short: 'w', kind: 'string' },
		{ name: 'www-prefix', short: 'P', kind: 'string', default: '/static/' },
		{ name: 'accept-paths', kind: 'string' },
		{ name: 'reject-paths', kind: 'string' },
		{ name: 'accept-hosts', kind: 'string' },
		{ name: 'reject-methods', kind: 'string' },
		{ name: 'disable-filter', kind: 'bool' },
		{ name: 'unix-socket', short: 'u', kind: 'string' },
		{ name: 'keepalive', kind: 'duration', default: '0s' },
		{ name: 'append-server-path', kind: 'bool' },
	],
	run,
};
