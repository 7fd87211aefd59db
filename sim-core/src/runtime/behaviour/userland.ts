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

/**
 * The applets of busybox built with its defconfig, as the official busybox
 * image builds it (the ones a reader reaches for; busybox builds no `ss`,
 * `dig`, `host`, `curl`, `bash`, `iptables` or `tcpdump`).
 */
const BUSYBOX_APPLETS = [
	// the multi-call binary itself, shells and shell-script helpers
	'busybox', 'sh', 'ash', 'hush', 'echo', 'printf', 'test', '[', '[[', 'true', 'false', 'sleep', 'usleep', 'expr', 'seq', 'yes', 'xargs', 'env', 'printenv', 'time', 'timeout', 'nohup', 'watch', 'which',
	// files and text
	'cat', 'ls', 'cp', 'mv', 'rm', 'rmdir', 'mkdir', 'ln', 'touch', 'chmod', 'chown', 'chgrp', 'stat', 'find', 'du', 'df', 'dd', 'fallocate', 'sync', 'readlink', 'realpath', 'mktemp', 'basename', 'dirname', 'pwd',
	'head', 'tail', 'wc', 'tee', 'grep', 'egrep', 'fgrep', 'sed', 'awk', 'sort', 'uniq', 'cut', 'tr', 'diff', 'cmp', 'od', 'hexdump', 'xxd', 'strings', 'less', 'more', 'vi', 'md5sum', 'sha1sum', 'sha256sum', 'base64',
	'tar', 'gzip', 'gunzip', 'zcat', 'bzip2', 'bunzip2', 'unzip',
	// users, system and processes
	'date', 'hostname', 'uname', 'whoami', 'id', 'su', 'login', 'passwd', 'adduser', 'addgroup', 'ps', 'top', 'pstree', 'pgrep', 'pkill', 'pidof', 'kill', 'killall', 'nice', 'renice', 'free', 'uptime', 'dmesg', 'mount', 'umount', 'nsenter', 'unshare', 'nproc', 'lsof', 'crond', 'crontab',
	// network
	'wget', 'nc', 'nslookup', 'ping', 'ping6', 'traceroute', 'traceroute6', 'ip', 'ipaddr', 'iplink', 'iproute', 'iprule', 'ifconfig', 'route', 'netstat', 'arp', 'arping', 'telnet', 'httpd', 'ftpget', 'ftpput', 'tftp', 'udhcpc', 'ntpd', 'whois', 'ipcalc', 'nameif', 'brctl',
];

/** Alpine's busybox: the same applets, less the servers and clients Alpine moved to busybox-extras (telnet, httpd, ftp, tftp) and hush. */
const ALPINE_BUSYBOX_EXTRAS = new Set(['telnet', 'httpd', 'ftpget', 'ftpput', 'tftp', 'hush']);
const ALPINE_APPLETS = BUSYBOX_APPLETS.filter((a) => !ALPINE_BUSYBOX_EXTRAS.has(a));

/**
 * A Debian or Ubuntu base image: bash and dash, coreutils, findutils, grep,
 * sed, mawk, tar, gzip, util-linux's mount and su, hostname, perl-base,
 * apt. No procps (so no `ps`, `top`, `free`), no iproute2 or iputils (no
 * `ip`, `ping`), no net-tools, no dnsutils, no wget or curl, no vi.
 */
const DEBIAN_TOOLS = [
	'sh', 'bash', 'dash', 'echo', 'printf', 'test', '[', 'true', 'false', 'sleep', 'expr', 'seq', 'yes', 'xargs', 'env', 'printenv', 'timeout', 'nohup', 'which',
	'cat', 'ls', 'cp', 'mv', 'rm', 'rmdir', 'mkdir', 'ln', 'touch', 'chmod', 'chown', 'chgrp', 'stat', 'find', 'du', 'df', 'dd', 'fallocate', 'sync', 'readlink', 'realpath', 'mktemp', 'basename', 'dirname', 'pwd',
	'head', 'tail', 'wc', 'tee', 'grep', 'egrep', 'fgrep', 'sed', 'awk', 'mawk', 'sort', 'uniq', 'cut', 'tr', 'diff', 'cmp', 'od', 'md5sum', 'sha1sum', 'sha256sum', 'base64', 'tar', 'gzip', 'gunzip', 'zcat', 'more',
	'date', 'hostname', 'uname', 'whoami', 'id', 'su', 'login', 'passwd', 'kill', 'nice', 'dmesg', 'mount', 'umount', 'nsenter', 'unshare', 'nproc', 'getent', 'perl', 'apt', 'apt-get', 'dpkg',
];

/** bind9's DNS clients (Debian's dnsutils, Alpine's bind-tools). */
const BIND_TOOLS = ['dig', 'nslookup', 'host', 'nsupdate', 'delv'];

/** What nicolaka/netshoot installs on Alpine (its Dockerfile's apk list and the binaries it copies in). */
const NETSHOOT_TOOLS = [
	'zsh', 'bash', 'curl', 'http', 'https', ...BIND_TOOLS, 'drill', 'nc', 'socat', 'websocat', 'ping', 'ping6', 'fping', 'oping', 'traceroute', 'tcptraceroute', 'mtr', 'ip', 'ss', 'bridge', 'tc', 'ethtool', 'iptables', 'ip6tables', 'iptables-save', 'iptables-restore', 'ip6tables-save', 'nft', 'ipvsadm', 'ipset', 'conntrack',
	'tcpdump', 'tshark', 'dumpcap', 'termshark', 'ngrep', 'nmap', 'nping', 'iperf', 'iperf3', 'iftop', 'iptraf-ng', 'dhcping', 'snmpwalk', 'snmpget', 'ssh', 'scp', 'openssl', 'strace', 'ltrace', 'jq', 'vim', 'git', 'file', 'python3', 'pip', 'swaks', 'speedtest-cli', 'ab', 'htpasswd',
	'ctop', 'calicoctl', 'grpcurl', 'fortio', 'skbdump', 'trip', 'telnet', 'ftpget', 'ftpput', 'tftp', 'httpd',
];

/** The program binaries an image adds to its userland. */
function programBinaries(image: CatalogImage): string[] {
	switch (image.program) {
		case 'nginx':
			return ['nginx', ...(image.entrypoint.includes('/docker-entrypoint.sh') ? ['/docker-entrypoint.sh'] : [])];
		case 'httpd':
			return ['httpd', 'httpd-foreground', 'apachectl'];
		case 'redis':
			return ['redis-server', 'redis-cli', 'docker-entrypoint.sh'];
		case 'python':
			return ['python', 'python3', 'pip', 'pip3'];
		case 'perl':
			return ['perl', `perl${image.version}`, 'cpan', 'cpanm', 'perldoc'];
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
			// test/images/agnhost/Dockerfile: bind-tools, curl, netcat-openbsd, iproute2, iperf, bash, and CoreDNS.
			return ['/agnhost', '/agnhost-2', ...BIND_TOOLS, 'curl', 'nc', 'ip', 'ss', 'bridge', 'tc', 'iperf', 'bash', '/coredns'];
		case 'stress':
			return ['stress'];
		case 'curl':
			return ['curl', '/entrypoint.sh'];
		case 'netshoot':
			return NETSHOOT_TOOLS;
		case 'dnsutils':
			// dnsutils from bind9, and iputils-ping, which jessie's base image has.
			return [...BIND_TOOLS.filter((t) => t !== 'delv'), 'ping', 'ping6'];
		case 'serve-hostname':
			return ['/serve_hostname'];
		case 'goproxy':
			return ['/goproxy'];
		case 'php-apache':
			return ['php', 'apache2', 'apache2ctl', 'apachectl', 'apache2-foreground', 'docker-php-entrypoint', 'docker-php-ext-install', 'docker-php-ext-enable'];
		case 'kube-proxy':
			return ['kube-proxy', '/usr/local/bin/kube-proxy'];
		case 'kube-apiserver':
		case 'kube-controller-manager':
		case 'kube-scheduler':
		case 'cloud-controller-manager':
			return [image.program, `/usr/local/bin/${image.program}`];
		default:
			return [];
	}
}

/** Whether `binary` (a name or a path) can be executed in the image. */
export function binaryExists(image: CatalogImage, binary: string): boolean {
	if (binary === '') return false;
	const base = binary.includes('/') ? binary.slice(binary.lastIndexOf('/') + 1) : binary;
	const own = [...programBinaries(image), ...(image.binaries ?? [])];
	if (own.includes(binary)) return true;
	const onPath = binary === base || /^\/(usr\/)?(local\/)?(s)?bin\//.test(binary);
	if (own.includes(base) && onPath) return true;
	return toolsOf(image.family).includes(base) && onPath;
}

function toolsOf(family: ImageFamily): readonly string[] {
	switch (family) {
		case 'busybox':
			return BUSYBOX_APPLETS;
		case 'alpine':
			return ALPINE_APPLETS;
		case 'debian':
		case 'ubuntu':
			return DEBIAN_TOOLS;
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
const ENTRYPOINT_SCRIPTS = new Set(['/docker-entrypoint.sh', 'docker-entrypoint.sh', '/entrypoint.sh', 'docker-php-entrypoint']);

/**
 * The program an entrypoint script runs when its first argument is not a
 * command: curlimages/curl's /entrypoint.sh runs curl when the first
 * argument is an option or names no command; docker-php-entrypoint runs
 * apache2-foreground when it is an option.
 */
function entrypointDefault(image: CatalogImage, script: string, first: string): string | undefined {
	if (script === '/entrypoint.sh' && image.program === 'curl') return first.startsWith('-') || !binaryExists(image, first) ? 'curl' : undefined;
	if (script === 'docker-php-entrypoint') return first.startsWith('-') ? 'apache2-foreground' : undefined;
	return undefined;
}

/** Strips an image's entrypoint script, keeping the command it will exec. */
export function unwrapEntrypoint(image: CatalogImage, argv: string[]): { argv: string[]; viaEntrypoint: boolean } {
	if (argv.length > 1 && ENTRYPOINT_SCRIPTS.has(argv[0]) && programBinaries(image).includes(argv[0])) {
		const rest = argv.slice(1);
		const program = entrypointDefault(image, argv[0], rest[0]);
		return { argv: program ? [program, ...rest] : rest, viaEntrypoint: true };
	}
	return { argv, viaEntrypoint: false };
}

/** The shells a container command may start (netshoot's zsh runs the same simple scripts). */
export function isShell(binary: string): boolean {
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	return base === 'sh' || base === 'bash' || base === 'ash' || base === 'dash' || base === 'zsh';
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
