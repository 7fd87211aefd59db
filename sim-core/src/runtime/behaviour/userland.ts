/**
 * An image's userland: which binaries it has (the tools of its base,
 * busybox or Debian/Ubuntu, and the programs the image adds), which shell
 * dialect answers, how a container's argv is built from ENTRYPOINT, CMD
 * and the kubelet's command and args, the entrypoint scripts that `exec`
 * the real program, and how programs read their flags and environment.
 *
 * It follows the layout of the official images (docker-library).
 *
 * Mirrors pkg/kubelet/kuberuntime/kuberuntime_container.go (command and
 * args), containerd/containerd internal/cri/opts/spec_opts.go
 * (WithProcessArgs: ENTRYPOINT and CMD).
 */
import type { CatalogImage, ImageFamily } from '../images.ts';
import type { ContainerContext } from '../behaviour.ts';

/** Programs every userland has (or the busybox multi-call binary provides). */
const COMMON_TOOLS = ['sh', 'echo', 'printf', 'sleep', 'cat', 'ls', 'date', 'env', 'printenv', 'hostname', 'touch', 'rm', 'mkdir', 'true', 'false', 'uname', 'whoami', 'id', 'pwd', 'seq', 'head', 'tail', 'wc', 'tee', 'test', '[', 'basename', 'dirname', 'kill', 'which', 'grep'];
/** busybox applets beyond the common set. */
const BUSYBOX_TOOLS = ['ash', 'ps', 'wget', 'nslookup', 'uptime', 'free', 'df'];
/** Debian and Ubuntu base images: bash and dash, no procps (so no `ps`). */
const DEBIAN_TOOLS = ['bash', 'dash'];

/** The program binaries an image adds to its userland. */
function programBinaries(image: CatalogImage): string[] {
	switch (image.program) {
		case 'nginx':
			return ['nginx', '/docker-entrypoint.sh', 'curl'];
		case 'httpd':
			return ['httpd', 'httpd-foreground', 'apachectl'];
		case 'redis':
			return ['redis-server', 'redis-cli', 'docker-entrypoint.sh'];
		case 'python':
			return ['python', 'python3', 'pip'];
		case 'postgres':
			return ['postgres', 'psql', 'pg_isready', 'docker-entrypoint.sh'];
		case 'mysql':
			return ['mysqld', 'mysql', 'mysqladmin', 'docker-entrypoint.sh'];
		case 'pause':
			return ['/pause'];
		case 'etcd':
			return ['etcd', 'etcdctl', 'etcdutl', '/usr/local/bin/etcd'];
		case 'coredns':
			return ['/coredns'];
		case 'metrics-server':
			return ['/metrics-server'];
		case 'agnhost':
			return ['/agnhost'];
		case 'stress':
			return ['stress'];
		case 'kube-proxy':
			return ['kube-proxy', '/usr/local/bin/kube-proxy'];
		case 'kube-apiserver':
		case 'kube-controller-manager':
		case 'kube-scheduler':
			return [image.program, `/usr/local/bin/${image.program}`];
		default:
			return [];
	}
}

/** Whether `binary` (a name or a path) can be executed in the image. */
export function binaryExists(image: CatalogImage, binary: string): boolean {
	const base = binary.includes('/') ? binary.slice(binary.lastIndexOf('/') + 1) : binary;
	const own = programBinaries(image);
	if (own.includes(binary) || own.includes(base)) return true;
	const tools = toolsOf(image.family);
	return tools.includes(base) && (binary === base || /^\/(usr\/)?(s)?bin\//.test(binary));
}

function toolsOf(family: ImageFamily): string[] {
	switch (family) {
		case 'busybox':
		case 'alpine':
			return [...COMMON_TOOLS, ...BUSYBOX_TOOLS];
		case 'debian':
		case 'ubuntu':
			return [...COMMON_TOOLS, ...DEBIAN_TOOLS];
		default:
			return [];
	}
}

/** Which shell dialect prints the errors: busybox ash or dash/bash. */
export function usesBusybox(image: CatalogImage): boolean {
	return image.family === 'busybox' || image.family === 'alpine';
}

/**
 * The argv of a container: `command` replaces the ENTRYPOINT, `args`
 * replace the CMD (kuberuntime_container.go with containerd's image config).
 */
export function resolveArgv(image: CatalogImage, command: string[] | undefined, args: string[] | undefined): string[] {
	if (command && command.length > 0) return [...command, ...(args ?? [])];
	if (args && args.length > 0) return [...image.entrypoint, ...args];
	return [...image.entrypoint, ...image.cmd];
}

/** Entrypoint scripts of the official images: they run setup, then `exec "$@"`. */
const ENTRYPOINT_SCRIPTS = new Set(['/docker-entrypoint.sh', 'docker-entrypoint.sh']);

/** Strips an image's entrypoint script, keeping the command it will exec. */
export function unwrapEntrypoint(image: CatalogImage, argv: string[]): { argv: string[]; viaEntrypoint: boolean } {
	if (argv.length > 1 && ENTRYPOINT_SCRIPTS.has(argv[0]) && programBinaries(image).includes(argv[0])) return { argv: argv.slice(1), viaEntrypoint: true };
	return { argv, viaEntrypoint: false };
}

/** The shells a container command may start. */
export function isShell(binary: string): boolean {
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	return base === 'sh' || base === 'bash' || base === 'ash' || base === 'dash';
}

/** The value a program reads for an environment variable (the last definition wins). */
export function envValue(ctx: ContainerContext, name: string): string | undefined {
	for (let i = ctx.env.length - 1; i >= 0; i--) if (ctx.env[i].name === name) return ctx.env[i].value;
	return undefined;
}

/** A flag's value, as `--name value` or `--name=value`. */
export function flagValue(argv: string[], names: string[]): string | undefined {
	for (let i = 0; i < argv.length; i++) {
		for (const name of names) {
			if (argv[i] === name) return argv[i + 1];
			if (argv[i].startsWith(`${name}=`)) return argv[i].slice(name.length + 1);
		}
	}
	return undefined;
}
