/**
 * An image's files as a container sees them: the baseline the image ships
 * (os-release, nginx's welcome and error pages as its packages ship them,
 * httpd's default page, the hpa-example's index.php), the files
 * the kubelet and the runtime put in every container (/etc/hostname,
 * /etc/hosts, /etc/resolv.conf), and reading and listing through the
 * container's writable layer.
 *
 * It shows what an overlayfs rootfs shows over the image's layers.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (the kubelet-managed /etc/hosts),
 * containerd/containerd internal/cri/server/podsandbox/sandbox_run_linux.go
 * (/etc/hostname, /etc/resolv.conf), nginx/nginx docs/html/index.html,
 * nginx/nginx docs/html/50x.html (the pages nginx's packages install).
 */
import { compareVersions, type CatalogImage, type ImageFamily } from '../images.ts';
import type { ContainerContext, FileOverrides } from '../behaviour.ts';
import { visibleText } from '../../host/zero-filled.ts';

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

/**
 * nginx's welcome page, /usr/share/nginx/html/index.html, as the packages
 * the image installs ship it (nginx's docs/html/index.html): 612 bytes
 * before 1.21.2, then 615 with the dark-mode style line (the page nginx
 * rewrote in 1.29.6 is later than any version here).
 */
export function nginxIndexHtml(version: string): string {
	const style = compareVersions(version, '1.21.2') >= 0 ? ['html { color-scheme: light dark; }', 'body { width: 35em; margin: 0 auto;', 'font-family: Tahoma, Verdana, Arial, sans-serif; }'] : ['    body {', '        width: 35em;', '        margin: 0 auto;', '        font-family: Tahoma, Verdana, Arial, sans-serif;', '    }'];
	return [
		'<!DOCTYPE html>',
		'<html>',
		'<head>',
		'<title>Welcome to nginx!</title>',
		'<style>',
		...style,
		'</style>',
		'</head>',
		'<body>',
		'<h1>Welcome to nginx!</h1>',
		'<p>If you see this page, the nginx web server is successfully installed and',
		'working. Further configuration is required.</p>',
		'',
		'<p>For online documentation and support please refer to',
		'<a href="http://nginx.org/">nginx.org</a>.<br/>',
		'Commercial support is available at',
		'<a href="http://nginx.com/">nginx.com</a>.</p>',
		'',
		'<p><em>Thank you for using nginx.</em></p>',
		'</body>',
		'</html>',
		'',
	].join('\n');
}

/**
 * nginx's /usr/share/nginx/html/50x.html (docs/html/50x.html): 537 bytes
 * before 1.15.3 (with a link to the error_log directive), 494 until 1.21.2,
 * then 497 in the welcome page's style.
 */
export function nginx50xHtml(version: string): string {
	const modern = compareVersions(version, '1.21.2') >= 0;
	const style = modern ? ['html { color-scheme: light dark; }', 'body { width: 35em; margin: 0 auto;', 'font-family: Tahoma, Verdana, Arial, sans-serif; }'] : ['    body {', '        width: 35em;', '        margin: 0 auto;', '        font-family: Tahoma, Verdana, Arial, sans-serif;', '    }'];
	const errorLog = compareVersions(version, '1.15.3') >= 0 ? 'the error log for details.</p>' : 'the <a href="http://nginx.org/r/error_log">error log</a> for details.</p>';
	return [
		'<!DOCTYPE html>',
		'<html>',
		'<head>',
		'<title>Error</title>',
		'<style>',
		...style,
		'</style>',
		'</head>',
		'<body>',
		'<h1>An error occurred.</h1>',
		'<p>Sorry, the page you are looking for is currently unavailable.<br/>',
		'Please try again later.</p>',
		'<p>If you are the system administrator of this resource then you should check',
		errorLog,
		'<p><em>Faithfully yours, nginx.</em></p>',
		'</body>',
		'</html>',
		'',
	].join('\n');
}

/**
 * The HorizontalPodAutoscaler walkthrough's index.php: a million square
 * roots, then `OK!` (kubernetes.io's hpa-example).
 */
const HPA_INDEX_PHP = ['<?php', '  $x = 0.0001;', '  for ($i = 0; $i <= 1000000; $i++) {', '    $x += sqrt($x);', '  }', '  echo "OK!";', '?>', ''].join('\n');

/**
 * What stands for a program's executable where a reader can see it (a
 * node's /opt/cni/bin, an image's CNI plugin): a readable placeholder,
 * as the certificates are, since the simulator carries no machine code.
 */
export function binaryPlaceholder(name: string, version: string): string {
	return `\u007fELF # simulated executable (Cluster Anatomy): ${name} ${version}\n`;
}

/** The CNI plugin binaries an add-on's image carries for its installer to copy to the node, by path. */
function cniImageBinaries(image: CatalogImage): Record<string, string> {
	if (image.program === 'flannel-cni-plugin') return { '/flannel': binaryPlaceholder('flannel', `v${image.version}`) };
	if (image.program === 'calico-cni') return { '/opt/cni/bin/calico': binaryPlaceholder('calico', `v${image.version}`), '/opt/cni/bin/calico-ipam': binaryPlaceholder('calico-ipam', `v${image.version}`) };
	return {};
}

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
			return image.osRelease ?? (OS_RELEASE[image.family] || undefined);
	}
	if (image.program === 'nginx') {
		if (path === '/usr/share/nginx/html/index.html') return nginxIndexHtml(image.version);
		if (path === '/usr/share/nginx/html/50x.html') return nginx50xHtml(image.version);
		if (path === '/etc/nginx/nginx.conf') return 'user nginx;\nworker_processes auto;\nevents { worker_connections 1024; }\nhttp { include /etc/nginx/conf.d/*.conf; }\n';
		if (path === '/etc/nginx/conf.d/default.conf') return 'server {\n    listen 80;\n    location / { root /usr/share/nginx/html; index index.html; }\n}\n';
	}
	if (image.program === 'httpd' && path === '/usr/local/apache2/htdocs/index.html') return '<html><body><h1>It works!</h1></body></html>\n';
	if (image.program === 'php-apache' && path === '/var/www/html/index.php') return HPA_INDEX_PHP;
	return cniImageBinaries(image)[path];
}

/**
 * Every baseline file path of the image (for `ls`, and for the files a
 * mount hides). The service account files under
 * /var/run/secrets/kubernetes.io/serviceaccount come from the pod's
 * kube-api-access volume, mounted by the kubelet, not from the image.
 */
export function baselinePaths(image: CatalogImage): string[] {
	const paths = ['/etc/hostname', '/etc/hosts', '/etc/resolv.conf'];
	if (image.osRelease ?? OS_RELEASE[image.family]) paths.push('/etc/os-release');
	if (image.program === 'nginx') {
		paths.push('/usr/share/nginx/html/index.html', '/usr/share/nginx/html/50x.html', '/etc/nginx/nginx.conf', '/etc/nginx/conf.d/default.conf');
		if (image.entrypoint.includes('/docker-entrypoint.sh')) paths.push('/docker-entrypoint.sh');
	}
	if (image.program === 'httpd') paths.push('/usr/local/apache2/htdocs/index.html');
	if (image.program === 'php-apache') paths.push('/var/www/html/index.php');
	paths.push(...Object.keys(cniImageBinaries(image)));
	return paths;
}

/** Reads a file through the writable layer. */
export function readFile(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, path: string): string | undefined {
	const content = readStoredFile(image, ctx, files, path);
	// A zero-filled file (dd, fallocate) reads as nothing printable.
	return content === undefined ? undefined : visibleText(content);
}

/** A file as stored, a zero-filled one as its size marker (what `cp` copies). */
export function readStoredFile(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, path: string): string | undefined {
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
