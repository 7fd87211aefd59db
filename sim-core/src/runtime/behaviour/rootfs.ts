/**
 * An image's files as a container sees them: the baseline the image ships
 * (os-release, nginx's and httpd's default pages and config), the files
 * the kubelet and the runtime put in every container (/etc/hostname,
 * /etc/hosts, /etc/resolv.conf), and reading and listing through the
 * container's writable layer.
 *
 * It shows what an overlayfs rootfs shows over the image's layers.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (the kubelet-managed /etc/hosts),
 * containerd/containerd internal/cri/server/podsandbox/sandbox_run_linux.go
 * (/etc/hostname, /etc/resolv.conf).
 */
import type { CatalogImage, ImageFamily } from '../images.ts';
import type { ContainerContext, FileOverrides } from '../behaviour.ts';

const TOP_DIRS = ['bin', 'dev', 'etc', 'home', 'lib', 'proc', 'root', 'run', 'sbin', 'sys', 'tmp', 'usr', 'var'];

const OS_RELEASE: Record<ImageFamily, string> = {
	debian: 'PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="13"\nID=debian\n',
	ubuntu: 'PRETTY_NAME="Ubuntu 24.04.3 LTS"\nNAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\n',
	alpine: 'NAME="Alpine Linux"\nID=alpine\nVERSION_ID=3.22.2\nPRETTY_NAME="Alpine Linux v3.22"\n',
	busybox: '',
	distroless: 'PRETTY_NAME="Distroless"\nNAME="Debian GNU/Linux"\nID="debian"\n',
};

/** The kubelet-managed /etc/hosts (pkg/kubelet/kubelet_pods.go managedHostsFileContent). */
function hostsFile(ctx: ContainerContext): string {
	return [
		'# Kubernetes-managed hosts file.',
		'127.0.0.1\tlocalhost',
		'::1\tlocalhost ip6-localhost ip6-loopback',
		'fe00::0\tip6-localnet',
		'fe00::0\tip6-mcastprefix',
		'fe00::1\tip6-allnodes',
		'fe00::2\tip6-allrouters',
		`${ctx.podIp}\t${ctx.hostname}`,
		'',
	].join('\n');
}

const NGINX_INDEX = [
	'<!DOCTYPE html>',
	'<html>',
	'<head><title>nginx is running</title></head>',
	'<body>',
	'<h1>nginx is up</h1>',
	'<p>This is the default page of the nginx image: the server answers, nothing is configured yet.</p>',
	'</body>',
	'</html>',
	'',
].join('\n');

/** The image's own file at `path`, before the container wrote anything. */
function baselineFile(image: CatalogImage, ctx: ContainerContext, path: string): string | undefined {
	switch (path) {
		case '/etc/hostname':
			return `${ctx.hostname}\n`;
		case '/etc/hosts':
			return hostsFile(ctx);
		case '/etc/resolv.conf':
			return ctx.resolvConf ?? `search ${ctx.namespace}.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n`;
		case '/etc/os-release':
			return OS_RELEASE[image.family] || undefined;
	}
	if (image.program === 'nginx') {
		if (path === '/usr/share/nginx/html/index.html') return NGINX_INDEX;
		if (path === '/usr/share/nginx/html/50x.html') return '<html><body><h1>Something went wrong on our side.</h1></body></html>\n';
		if (path === '/etc/nginx/nginx.conf') return 'user nginx;\nworker_processes auto;\nevents { worker_connections 1024; }\nhttp { include /etc/nginx/conf.d/*.conf; }\n';
		if (path === '/etc/nginx/conf.d/default.conf') return 'server {\n    listen 80;\n    location / { root /usr/share/nginx/html; index index.html; }\n}\n';
	}
	if (image.program === 'httpd' && path === '/usr/local/apache2/htdocs/index.html') return '<html><body><h1>It works!</h1></body></html>\n';
	return undefined;
}

/**
 * Every baseline file path of the image (for `ls`, and for the files a
 * mount hides). The service account files under
 * /var/run/secrets/kubernetes.io/serviceaccount come from the pod's
 * kube-api-access volume, mounted by the kubelet, not from the image.
 */
export function baselinePaths(image: CatalogImage): string[] {
	const paths = ['/etc/hostname', '/etc/hosts', '/etc/resolv.conf'];
	if (OS_RELEASE[image.family]) paths.push('/etc/os-release');
	if (image.program === 'nginx') paths.push('/usr/share/nginx/html/index.html', '/usr/share/nginx/html/50x.html', '/etc/nginx/nginx.conf', '/etc/nginx/conf.d/default.conf', '/docker-entrypoint.sh');
	if (image.program === 'httpd') paths.push('/usr/local/apache2/htdocs/index.html');
	return paths;
}

/** Reads a file through the writable layer. */
export function readFile(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, path: string): string | undefined {
	const p = normalizePath(path, ctx);
	if (Object.hasOwn(files, p)) return files[p] ?? undefined;
	return baselineFile(image, ctx, p);
}

export function normalizePath(path: string, ctx: Pick<ContainerContext, 'workingDir'>): string {
	const abs = path.startsWith('/') ? path : `${ctx.workingDir && ctx.workingDir !== '/' ? ctx.workingDir : ''}/${path}`;
	const out: string[] = [];
	for (const part of abs.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') out.pop();
		else out.push(part);
	}
	return `/${out.join('/')}`;
}

/** Names directly inside `dir`, or undefined if it is not a directory. */
export function listDirectory(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, dir: string): string[] | undefined {
	const d = normalizePath(dir, ctx);
	const names = new Set<string>();
	const prefix = d === '/' ? '/' : `${d}/`;
	let isDir = d === '/' || TOP_DIRS.includes(d.slice(1));
	const consider = (p: string) => {
		if (!p.startsWith(prefix)) return;
		isDir = true;
		names.add(p.slice(prefix.length).split('/')[0]);
	};
	for (const p of baselinePaths(image)) if (!(Object.hasOwn(files, p) && files[p] === null)) consider(p);
	for (const [p, v] of Object.entries(files)) if (v !== null) consider(p);
	if (d === '/') for (const top of TOP_DIRS) names.add(top);
	// `dir/` marks a directory (mkdir, an empty mount): it names no entry.
	names.delete('');
	if (!isDir) return undefined;
	return [...names].sort();
}
