/**
 * The registries the simulated nodes pull from: a catalogue of well-known
 * images with realistic compressed sizes, their default command, and how an
 * image reference is normalized the way containerd does it (as containerd's
 * CRI plugin does, through distribution/reference): `nginx` →
 * `docker.io/library/nginx:latest`.
 *
 * The nodes reach docker.io, registry.k8s.io, gcr.io, ghcr.io and quay.io through one registry
 * mirror (containerd's hosts.toml points them at it, with no fallback to the
 * upstream hosts: the lab has no other way out). The mirror carries the
 * catalogued repositories, every tag the upstream repository really
 * published within the release lines below (`nginx:1.16.1`, `busybox:1.31`,
 * `alpine:3.18.4`, `agnhost:2.39`...), and nothing else: any other
 * repository or tag is a 404 from the mirror, which containerd reports as
 * `<ref>: not found`. A tag outside a line's real releases (`nginx:9.9`)
 * is not found either.
 *
 * Sizes are the compressed amd64 sizes a registry reports and containerd
 * shows in `crictl images` / node status, rounded to the kilobyte; they
 * drift a little from patch to patch upstream. Digests are synthetic (a
 * hash of the reference), shaped like sha256 digests: the registry content
 * is not simulated, so no real digest would mean anything here.
 *
 * Read-only data, shared by every node; the runtime (./container-runtime.ts)
 * owns what is pulled where.
 *
 * Mirrors distribution/reference normalize.go, containerd/containerd
 * core/remotes/docker/resolver.go (a 404 from every host is `not found`).
 */
import { KUBERNETES_GIT_VERSION } from '../api/version.ts';

/** The Kubernetes version the control-plane images carry: the release every binary reports (../api/version.ts). */
export const KUBERNETES_IMAGE_VERSION = KUBERNETES_GIT_VERSION;

/**
 * The pause (sandbox) image. kubeadm v1.36 pins pause 3.10.2 (`kubeadm config
 * images list` for v1.36.x prints `registry.k8s.io/pause:3.10.2`; kubeadm
 * v1.35 had 3.10.1, v1.31–1.34 3.10).
 */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10.2';

/** The CoreDNS image kubeadm v1.36 deploys (`kubeadm config images list`: coredns/coredns:v1.14.2). */
export const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.14.2';

/**
 * The etcd image of the static pod. Its tag follows the etcd version the
 * simulated member reports (store/etcd.ts ETCD_VERSION, from FACTS.md F);
 * kubeadm tags etcd images `<version>-0`.
 */
export const ETCD_IMAGE = 'registry.k8s.io/etcd:3.6.10-0';

/** Which simulated program an image runs (see ./behaviour.ts). */
type ImageProgram =
	| 'nginx'
	| 'httpd'
	| 'redis'
	| 'shell'
	| 'python'
	| 'perl'
	| 'postgres'
	| 'mysql'
	| 'pause'
	| 'etcd'
	| 'kube-apiserver'
	| 'kube-controller-manager'
	| 'kube-scheduler'
	| 'kube-proxy'
	| 'cloud-controller-manager'
	| 'coredns'
	| 'agnhost'
	| 'stress'
	| 'curl'
	| 'netshoot'
	| 'dnsutils'
	| 'serve-hostname'
	| 'goproxy'
	| 'php-apache'
	| 'metrics-server'
	| 'flanneld'
	| 'flannel-cni-plugin'
	| 'calico-cni'
	| 'calico-node'
	| 'calico-kube-controllers';

/**
 * What the image's root filesystem offers to `kubectl exec` and to
 * commands: a Debian-like userland (bash, coreutils), an Alpine or busybox
 * one (busybox applets, ash), or nothing but the program (distroless).
 */
export type ImageFamily = 'debian' | 'ubuntu' | 'alpine' | 'busybox' | 'distroless';

/** One image in a registry. Immutable catalogue data. */
export interface CatalogImage {
	/** Normalized repository, e.g. `docker.io/library/nginx`. */
	repository: string;
	/** Tags that point at this image (`1.27`, `1.27.5`...). */
	tags: string[];
	/** The version of the program inside, as it reports itself (`nginx -v`). */
	version: string;
	/** Compressed size in bytes, as the registry and `crictl images` report it. */
	sizeBytes: number;
	program: ImageProgram;
	family: ImageFamily;
	/** ENTRYPOINT and CMD of the image config (a container's command/args replace them). */
	entrypoint: string[];
	cmd: string[];
	/** The image config's StopSignal (containerd sends it instead of SIGTERM). */
	stopSignal?: 'SIGTERM' | 'SIGQUIT' | 'SIGINT' | 'SIGWINCH';
	/** Extra ENV of the image config (PATH is implied). */
	env?: Record<string, string>;
	/** The image config's User when it is not root (curlimages/curl runs as curl_user). */
	user?: { name: string; uid: number; group: string; gid: number };
	/** The image config's WorkingDir, when it sets one. */
	workingDir?: string;
	/** Programs the image installs beyond its base and its program (see ./behaviour/userland.ts). */
	binaries?: string[];
	/** /etc/os-release, when the base is not the family's current release (Debian jessie, an older Alpine). */
	osRelease?: string;
}

const KB = 1_000;

/** Debian 8's /etc/os-release (the e2e images of 2016 were built on it). */
const DEBIAN_JESSIE = 'PRETTY_NAME="Debian GNU/Linux 8 (jessie)"\nNAME="Debian GNU/Linux"\nVERSION_ID="8"\nVERSION="8 (jessie)"\nID=debian\n';

/** Alpine's /etc/os-release for one release (`3.22.2` → `VERSION_ID=3.22.2`, `PRETTY_NAME="Alpine Linux v3.22"`). */
export function alpineOsRelease(version: string): string {
	const [major, minor] = versionParts(version);
	return `NAME="Alpine Linux"\nID=alpine\nVERSION_ID=${version}\nPRETTY_NAME="Alpine Linux v${major}.${minor}"\nHOME_URL="https://alpinelinux.org/"\nBUG_REPORT_URL="https://gitlab.alpinelinux.org/alpine/aports/-/issues"\n`;
}

/** `1.16.1` → [1, 16, 1]; missing parts are 0. */
export function versionParts(version: string): number[] {
	return version.split('.').map((p) => Number.parseInt(p, 10) || 0);
}

/** Orders two dotted versions. */
export function compareVersions(a: string, b: string): number {
	const x = versionParts(a);
	const y = versionParts(b);
	for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
	return 0;
}

const nginx = (version: string, tags: string[], sizeBytes: number, family: ImageFamily = 'debian'): CatalogImage => {
	// The image gained /docker-entrypoint.sh (and curl, for its scripts) with 1.19.0; before, CMD ran nginx directly.
	const withEntrypoint = compareVersions(version, '1.19.0') >= 0;
	return {
		repository: 'docker.io/library/nginx',
		tags,
		version,
		sizeBytes,
		program: 'nginx',
		family,
		entrypoint: withEntrypoint ? ['/docker-entrypoint.sh'] : [],
		cmd: ['nginx', '-g', 'daemon off;'],
		// The official nginx image stops with SIGQUIT (graceful shutdown).
		stopSignal: 'SIGQUIT',
		env: { NGINX_VERSION: version },
		...(withEntrypoint ? { binaries: ['curl'] } : {}),
	};
};

const shellImage = (repository: string, version: string, tags: string[], sizeBytes: number, family: ImageFamily, cmd: string[]): CatalogImage => ({
	repository,
	tags,
	version,
	sizeBytes,
	program: 'shell',
	family,
	entrypoint: [],
	cmd,
	...(repository === 'docker.io/library/alpine' ? { osRelease: alpineOsRelease(version) } : {}),
});

/**
 * The official python image: the full variant is built on buildpack-deps,
 * which brings curl and wget (its curl layer), git, ssh and procps (its scm
 * layer) and the compilers; `-slim` has Debian's minimal userland; `-alpine`
 * Alpine's.
 */
const python = (version: string, tags: string[], sizeBytes: number, variant: 'full' | 'slim' | 'alpine' = 'full'): CatalogImage => ({
	repository: 'docker.io/library/python',
	tags,
	version,
	sizeBytes,
	program: 'python',
	family: variant === 'alpine' ? 'alpine' : 'debian',
	entrypoint: [],
	cmd: ['python3'],
	env: { PYTHON_VERSION: version },
	...(variant === 'full' ? { binaries: ['curl', 'wget', 'git', 'ssh', 'ps', 'top', 'free', 'uptime', 'pgrep', 'pkill', 'watch', 'gcc', 'make'] } : {}),
});

/** The official perl image: buildpack-deps (curl, wget, git, the compilers) with perl and cpanm in /usr/local/bin. */
const perl = (version: string, tags: string[], sizeBytes: number): CatalogImage => ({
	repository: 'docker.io/library/perl',
	tags,
	version,
	sizeBytes,
	program: 'perl',
	family: 'debian',
	entrypoint: [],
	cmd: [`perl${version}`, '-de0'],
	binaries: ['curl', 'wget', 'git', 'ssh', 'ps', 'gcc', 'make'],
});

/** agnhost, Kubernetes' e2e test image: Alpine with bind-tools, curl, netcat-openbsd, iproute2, iperf and bash (test/images/agnhost/Dockerfile). */
const agnhost = (version: string, sizeBytes: number): CatalogImage => ({
	repository: 'registry.k8s.io/e2e-test-images/agnhost',
	tags: [version],
	version,
	sizeBytes,
	program: 'agnhost',
	family: 'alpine',
	entrypoint: ['/agnhost'],
	cmd: ['pause'],
});

const k8s = (component: 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy', version: string, sizeBytes: number): CatalogImage => ({
	repository: `registry.k8s.io/${component}`,
	tags: [version],
	version,
	sizeBytes,
	program: component,
	family: 'distroless',
	entrypoint: [],
	cmd: [component === 'kube-proxy' ? '/usr/local/bin/kube-proxy' : component],
});

/** Control-plane image sizes (approximate, v1.36 amd64, compressed). */
const K8S_SIZES = { 'kube-apiserver': 30_190 * KB, 'kube-controller-manager': 27_840 * KB, 'kube-scheduler': 21_220 * KB, 'kube-proxy': 31_010 * KB } as const;
const K8S_PATCHES = ['v1.36.0', 'v1.36.1', 'v1.36.2', 'v1.36.3'];

// ---- metrics and autoscaling (the metrics-server and HPA chapters) ---------------------------
// metrics-server's release image (the HPA walkthrough's php-apache is with the kubernetes.io images below).
const METRICS_IMAGES: readonly CatalogImage[] = [
	{
		repository: 'registry.k8s.io/metrics-server/metrics-server',
		tags: ['v0.8.0'],
		version: '0.8.0',
		sizeBytes: 19_840 * KB,
		program: 'metrics-server',
		family: 'distroless',
		entrypoint: ['/metrics-server'],
		cmd: [],
	},
];

// ---- Pod network add-ons (the CNI chapter) ---------------------------------------------------
// flannel as its release manifest (kube-flannel.yml v0.28.9) pulls it: flanneld with install-conf on Alpine, and the
// flannel CNI plugin image whose only job is `cp -f /flannel /opt/cni/bin/flannel`. Calico v3.32's manifest images.
// Sizes: the registries' compressed amd64 sizes, rounded.
export const FLANNEL_IMAGE = 'ghcr.io/flannel-io/flannel:v0.28.9';
export const FLANNEL_CNI_PLUGIN_IMAGE = 'ghcr.io/flannel-io/flannel-cni-plugin:v1.9.1-flannel3';
export const CALICO_VERSION = 'v3.32.2';
const CNI_IMAGES: readonly CatalogImage[] = [
	{ repository: 'ghcr.io/flannel-io/flannel', tags: ['v0.28.9'], version: '0.28.9', sizeBytes: 33_470 * KB, program: 'flanneld', family: 'alpine', entrypoint: ['/opt/bin/flanneld'], cmd: [], binaries: ['/opt/bin/flanneld', '/opt/bin/install-conf', '/opt/bin/mk-docker-opts.sh', 'ip', 'iptables', 'nft'] },
	{ repository: 'ghcr.io/flannel-io/flannel-cni-plugin', tags: ['v1.9.1-flannel3'], version: '1.9.1', sizeBytes: 4_820 * KB, program: 'flannel-cni-plugin', family: 'alpine', entrypoint: [], cmd: ['/bin/sh'], binaries: ['/flannel'] },
	{ repository: 'quay.io/calico/cni', tags: [CALICO_VERSION], version: CALICO_VERSION.slice(1), sizeBytes: 74_600 * KB, program: 'calico-cni', family: 'distroless', entrypoint: [], cmd: ['/opt/cni/bin/install'], binaries: ['/opt/cni/bin/install', '/opt/cni/bin/calico', '/opt/cni/bin/calico-ipam'] },
	{ repository: 'quay.io/calico/node', tags: [CALICO_VERSION], version: CALICO_VERSION.slice(1), sizeBytes: 157_900 * KB, program: 'calico-node', family: 'distroless', entrypoint: ['start_runit'], cmd: [], binaries: ['/bin/calico-node', 'calico-node', 'start_runit'] },
	{ repository: 'quay.io/calico/kube-controllers', tags: [CALICO_VERSION], version: CALICO_VERSION.slice(1), sizeBytes: 33_200 * KB, program: 'calico-kube-controllers', family: 'distroless', entrypoint: ['/usr/bin/kube-controllers'], cmd: [], binaries: ['/usr/bin/kube-controllers', '/usr/bin/check-status'] },
];

/** Every image the simulated registries serve. */
export const IMAGE_CATALOGUE: readonly CatalogImage[] = [
	// nginx: 1.14.2 is the tag of the kubernetes.io Deployment examples.
	nginx('1.14.2', ['1.14.2', '1.14'], 44_710 * KB),
	nginx('1.24.0', ['1.24.0', '1.24'], 57_020 * KB),
	nginx('1.25.5', ['1.25.5', '1.25'], 71_010 * KB),
	nginx('1.27.5', ['1.27.5', '1.27'], 72_220 * KB),
	nginx('1.28.0', ['1.28.0', '1.28', 'stable'], 68_450 * KB),
	nginx('1.29.3', ['1.29.3', '1.29', 'mainline', 'latest'], 59_780 * KB),
	nginx('1.29.3', ['1.29.3-alpine', 'alpine', 'mainline-alpine'], 21_060 * KB, 'alpine'),
	{
		repository: 'docker.io/library/httpd',
		tags: ['2.4.65', '2.4', '2', 'latest'],
		version: '2.4.65',
		sizeBytes: 45_980 * KB,
		program: 'httpd',
		family: 'debian',
		entrypoint: [],
		cmd: ['httpd-foreground'],
		// httpd's image stops with SIGWINCH: a graceful stop.
		stopSignal: 'SIGWINCH',
	},
	{
		repository: 'docker.io/library/redis',
		tags: ['8.2.2', '8.2', '8', 'latest'],
		version: '8.2.2',
		sizeBytes: 52_340 * KB,
		program: 'redis',
		family: 'debian',
		entrypoint: ['docker-entrypoint.sh'],
		cmd: ['redis-server'],
	},
	{
		repository: 'docker.io/library/redis',
		tags: ['7.4.6', '7.4', '7'],
		version: '7.4.6',
		sizeBytes: 45_130 * KB,
		program: 'redis',
		family: 'debian',
		entrypoint: ['docker-entrypoint.sh'],
		cmd: ['redis-server'],
	},
	// busybox:1.28 is the tag many kubernetes.io tasks use.
	shellImage('docker.io/library/busybox', '1.37.0', ['1.37.0', '1.37', 'latest', 'stable'], 2_160 * KB, 'busybox', ['sh']),
	shellImage('docker.io/library/busybox', '1.36.1', ['1.36.1', '1.36'], 2_152 * KB, 'busybox', ['sh']),
	shellImage('docker.io/library/busybox', '1.28.4', ['1.28.4', '1.28'], 728 * KB, 'busybox', ['sh']),
	shellImage('docker.io/library/alpine', '3.22.2', ['3.22.2', '3.22', '3', 'latest'], 3_800 * KB, 'alpine', ['/bin/sh']),
	shellImage('docker.io/library/alpine', '3.20.8', ['3.20.8', '3.20'], 3_630 * KB, 'alpine', ['/bin/sh']),
	shellImage('docker.io/library/ubuntu', '24.04', ['24.04', 'noble', 'latest'], 29_720 * KB, 'ubuntu', ['/bin/bash']),
	shellImage('docker.io/library/ubuntu', '22.04', ['22.04', 'jammy'], 29_540 * KB, 'ubuntu', ['/bin/bash']),
	python('3.14.0', ['3.14.0', '3.14', '3', 'latest'], 392_500 * KB),
	python('3.12.12', ['3.12.12', '3.12'], 383_100 * KB),
	python('3.12.12', ['3.12.12-slim', '3.12-slim', 'slim', '3.14-slim'], 41_620 * KB, 'slim'),
	// perl:5.34.0 is the image of kubernetes.io's Job example (the pi Job); the official image is buildpack-deps
	// (Debian) with perl built into /usr/local, CMD `perl<version> -de0`. Sizes approximate (amd64, compressed).
	perl('5.34.0', ['5.34.0'], 326_400 * KB),
	perl('5.42.0', ['5.42.0', '5.42', '5', 'latest'], 345_900 * KB),
	...(['18.1', '17.7', '16.11'] as const).map(
		(version, i): CatalogImage => ({
			repository: 'docker.io/library/postgres',
			tags: i === 0 ? [version, '18', 'latest'] : [version, version.split('.')[0]],
			version,
			sizeBytes: [161_400, 158_200, 154_300][i] * KB,
			program: 'postgres',
			family: 'debian',
			entrypoint: ['docker-entrypoint.sh'],
			cmd: ['postgres'],
			// The postgres image stops with SIGINT: a "fast shutdown".
			stopSignal: 'SIGINT',
		}),
	),
	...(['9.5.0', '8.4.7', '8.0.44'] as const).map(
		(version, i): CatalogImage => ({
			repository: 'docker.io/library/mysql',
			tags: i === 0 ? [version, '9', 'latest'] : [version, version.split('.').slice(0, 2).join('.')],
			version,
			sizeBytes: [255_800, 236_900, 178_400][i] * KB,
			program: 'mysql',
			family: 'debian',
			entrypoint: ['docker-entrypoint.sh'],
			cmd: ['mysqld'],
		}),
	),
	// 3.1: the image kubernetes.io's "Debug Running Pods" runs to show a container without a shell.
	...(['3.10.2', '3.10.1', '3.10', '3.9', '3.1'] as const).map(
		(version): CatalogImage => ({
			repository: 'registry.k8s.io/pause',
			tags: [version],
			version,
			sizeBytes: version === '3.1' ? 317_164 : version === '3.9' ? 321_520 : 320_450,
			program: 'pause',
			family: 'distroless',
			entrypoint: ['/pause'],
			cmd: [],
		}),
	),
	{
		repository: 'registry.k8s.io/etcd',
		tags: ['3.6.10-0'],
		version: '3.6.10',
		sizeBytes: 23_120 * KB,
		program: 'etcd',
		family: 'distroless',
		entrypoint: [],
		cmd: ['/usr/local/bin/etcd'],
	},
	...CNI_IMAGES,
	...K8S_PATCHES.flatMap((v) => (['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'] as const).map((c) => k8s(c, v, K8S_SIZES[c]))),
	// The simulated cloud's cloud-controller-manager (a provider's image, versioned with the Kubernetes minor it follows).
	{
		repository: 'registry.simcloud.example/cloud-controller-manager',
		tags: ['v1.36.0'],
		version: 'v1.36.0',
		sizeBytes: 24_350 * KB,
		program: 'cloud-controller-manager',
		family: 'distroless',
		entrypoint: [],
		cmd: ['/usr/local/bin/cloud-controller-manager'],
	},
	{
		repository: 'registry.k8s.io/coredns/coredns',
		tags: ['v1.14.2'],
		version: '1.14.2',
		sizeBytes: 22_410 * KB,
		program: 'coredns',
		family: 'distroless',
		entrypoint: ['/coredns'],
		cmd: [],
	},
	// agnhost: the e2e test image the kubernetes.io probe tasks use (2.40 there).
	agnhost('2.40', 51_160 * KB),
	agnhost('2.53', 52_890 * KB),
	// polinux/stress: the image of the "Assign Memory Resources" task.
	{
		repository: 'docker.io/polinux/stress',
		tags: ['1.0.4', 'latest'],
		version: '1.0.4',
		sizeBytes: 4_040 * KB,
		program: 'stress',
		family: 'alpine',
		entrypoint: [],
		cmd: ['stress', '--help'],
	},

	// The images kubernetes.io's networking, DNS and debugging pages run.
	// curlimages/curl: Alpine, curl installed, ENTRYPOINT a script that execs
	// curl when the first argument is an option, running as curl_user (uid 100).
	{
		repository: 'docker.io/curlimages/curl',
		tags: ['8.17.0', '8.17', '8', 'latest'],
		version: '8.17.0',
		sizeBytes: 9_780 * KB,
		program: 'curl',
		family: 'alpine',
		entrypoint: ['/entrypoint.sh'],
		cmd: ['curl'],
		user: { name: 'curl_user', uid: 100, group: 'curl_group', gid: 101 },
		env: { CURL_VERSION: '8.17.0' },
		osRelease: alpineOsRelease('3.22.2'),
	},
	// nicolaka/netshoot: Alpine with the network troubleshooting tools; CMD zsh, WORKDIR /root.
	{
		repository: 'docker.io/nicolaka/netshoot',
		tags: ['v0.14', 'latest'],
		version: '0.14',
		sizeBytes: 183_600 * KB,
		program: 'netshoot',
		family: 'alpine',
		entrypoint: [],
		cmd: ['zsh'],
		workingDir: '/root',
		osRelease: alpineOsRelease('3.22.0'),
	},
	// jessie-dnsutils: Debian 8 with bind9's dnsutils; no ENTRYPOINT or CMD of its own
	// (kubernetes.io's dnsutils.yaml runs it with `sleep infinity`).
	{
		repository: 'registry.k8s.io/e2e-test-images/jessie-dnsutils',
		tags: ['1.3'],
		version: '1.3',
		sizeBytes: 112_640 * KB,
		program: 'dnsutils',
		family: 'debian',
		entrypoint: [],
		cmd: ['/bin/bash'],
		osRelease: DEBIAN_JESSIE,
	},
	// serve_hostname: a static Go binary on scratch answering its hostname over HTTP on 9376
	// (the "Debug Services" task's `hostnames` Deployment).
	{
		repository: 'registry.k8s.io/serve_hostname',
		tags: ['1.4', 'latest'],
		version: '1.4',
		sizeBytes: 2_790 * KB,
		program: 'serve-hostname',
		family: 'distroless',
		entrypoint: ['/serve_hostname'],
		cmd: [],
	},
	// nginx-slim: the small nginx build (kubernetes/contrib's, on ubuntu-slim, with curl) that kubernetes.io's
	// StatefulSet pages run: web.yaml pins 0.21, the StatefulSet Basics tutorial rolls it to 0.24 and back.
	// `version` is the image tag (the nginx release inside is not modelled); sizes are approximate.
	...([
		['0.21', 47_850 * KB],
		['0.24', 48_430 * KB],
	] as const).map(([tag, sizeBytes]): CatalogImage => ({
		repository: 'registry.k8s.io/nginx-slim',
		tags: [tag],
		version: tag,
		sizeBytes,
		program: 'nginx',
		family: 'ubuntu',
		entrypoint: [],
		cmd: ['nginx', '-g', 'daemon off;'],
		binaries: ['curl'],
	})),
	// registry.k8s.io/busybox: the old busybox kubernetes.io's probe tasks pin (1.27.2).
	shellImage('registry.k8s.io/busybox', '1.27.2', ['1.27.2'], 1_130 * KB, 'busybox', ['sh']),
	// The busybox of the "Debug Services" task (`kubectl run ... --image=gcr.io/google-containers/busybox sh`),
	// pushed in 2016: busybox 1.24. gcr.io serves the project under both spellings.
	...['gcr.io/google-containers/busybox', 'gcr.io/google_containers/busybox'].map((repository) => shellImage(repository, '1.24.2', ['1.24', 'latest'], 676 * KB, 'busybox', ['sh'])),
	// radial/busyboxplus:curl: a 2014 buildroot busybox with curl, the client of the older
	// "Connecting Applications with Services" page (`kubectl run curl --image=radial/busyboxplus:curl -i --tty`).
	{ ...shellImage('docker.io/radial/busyboxplus', '1.22.1', ['curl'], 1_980 * KB, 'busybox', ['/bin/sh']), binaries: ['curl'] },
	// goproxy: an HTTP proxy on 8080 (the tcpSocket liveness example).
	{
		repository: 'registry.k8s.io/goproxy',
		tags: ['0.1'],
		version: '0.1',
		sizeBytes: 2_410 * KB,
		program: 'goproxy',
		family: 'distroless',
		entrypoint: ['/goproxy'],
		cmd: [],
	},
	// bprashanth/nginxhttps: the "Connecting Applications with Services" image, built in
	// early 2016 on that day's nginx image (1.9.x on jessie, no entrypoint script), serving
	// 80 and 443 as /etc/nginx/conf.d says.
	{
		...nginx('1.9.11', ['1.0'], 70_210 * KB),
		repository: 'docker.io/bprashanth/nginxhttps',
		binaries: ['/home/auto-reload-nginx.sh', 'auto-reload-nginx.sh', 'inotifywait'],
		osRelease: DEBIAN_JESSIE,
	},
	// hpa-example: php:5-apache (built in 2016: Debian jessie, PHP 5.6) with an index.php
	// that burns CPU, then answers `OK!` (the HorizontalPodAutoscaler walkthrough's php-apache).
	{
		repository: 'registry.k8s.io/hpa-example',
		tags: ['latest'],
		version: '5.6.26',
		sizeBytes: 142_380 * KB,
		program: 'php-apache',
		family: 'debian',
		entrypoint: ['docker-php-entrypoint'],
		cmd: ['apache2-foreground'],
		// php's apache images stop with SIGWINCH: apache's graceful stop.
		stopSignal: 'SIGWINCH',
		env: { PHP_VERSION: '5.6.26' },
		workingDir: '/var/www/html',
		binaries: ['curl'],
		osRelease: DEBIAN_JESSIE,
	},
	...METRICS_IMAGES,
];

/** A parsed, normalized image reference. */
export interface ImageRef {
	/** `docker.io`, `registry.k8s.io`, `localhost:5000`... */
	domain: string;
	/** `docker.io/library/nginx`. */
	repository: string;
	/** The tag (`latest` when neither tag nor digest was given). */
	tag?: string;
	/** `sha256:<64 hex>` when the reference pins a digest. */
	digest?: string;
	/** The normalized reference: `docker.io/library/nginx:latest` or `...@sha256:...`. */
	normalized: string;
}

const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO_PREFIX = 'library/';
const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * Parses and normalizes an image reference like distribution/reference's
 * ParseDockerRef: a first path component with a dot or a colon, or
 * `localhost`, is a registry; otherwise the image lives on Docker Hub, under
 * `library/` when it has a single component. A reference with neither tag
 * nor digest gets `:latest`. Errors carry the library's wording.
 */
export function parseImageRef(text: string): { ok: true; ref: ImageRef } | { ok: false; error: string } {
	if (text === '' || /\s/.test(text)) return { ok: false, error: 'invalid reference format' };
	let rest = text;
	let digest: string | undefined;
	const at = rest.indexOf('@');
	if (at >= 0) {
		digest = rest.slice(at + 1);
		rest = rest.slice(0, at);
		if (!DIGEST.test(digest)) return { ok: false, error: 'invalid reference format' };
	}
	let tag: string | undefined;
	const lastSlash = rest.lastIndexOf('/');
	const colon = rest.lastIndexOf(':');
	if (colon > lastSlash) {
		tag = rest.slice(colon + 1);
		rest = rest.slice(0, colon);
		if (!TAG.test(tag)) return { ok: false, error: 'invalid reference format' };
	}
	let domain = DEFAULT_DOMAIN;
	let remote = rest;
	const slash = rest.indexOf('/');
	if (slash >= 0) {
		const first = rest.slice(0, slash);
		if (first.includes('.') || first.includes(':') || first === 'localhost' || first.toLowerCase() !== first) {
			domain = first === LEGACY_DEFAULT_DOMAIN ? DEFAULT_DOMAIN : first;
			remote = rest.slice(slash + 1);
		}
	}
	if (domain === DEFAULT_DOMAIN && !remote.includes('/')) remote = OFFICIAL_REPO_PREFIX + remote;
	if (remote.toLowerCase() !== remote) return { ok: false, error: `invalid reference format: repository name (${remote}) must be lowercase` };
	if (remote === '' || !remote.split('/').every((c) => COMPONENT.test(c))) return { ok: false, error: 'invalid reference format' };
	const repository = `${domain}/${remote}`;
	if (!tag && !digest) tag = 'latest';
	const normalized = digest ? `${repository}${tag ? ':' + tag : ''}@${digest}` : `${repository}:${tag}`;
	return { ok: true, ref: { domain, repository, tag, digest, normalized } };
}

/** `nginx` → `docker.io/library/nginx:latest`; the input unchanged if it does not parse. */
export function normalizeImageRef(text: string): string {
	const parsed = parseImageRef(text);
	return parsed.ok ? parsed.ref.normalized : text;
}

/**
 * The kubelet's applyDefaultImageTag (pkg/kubelet/images/image_manager.go):
 * `busybox` → `busybox:latest`, without qualifying the name, so events keep
 * the spelling of the pod spec.
 */
export function applyDefaultImageTag(image: string): { ok: true; image: string } | { ok: false; error: string } {
	const parsed = parseImageRef(image);
	if (!parsed.ok) return { ok: false, error: `couldn't parse image name "${image}": ${parsed.error}` };
	const lastSlash = image.lastIndexOf('/');
	const hasTag = image.lastIndexOf(':') > lastSlash && !image.slice(image.lastIndexOf(':')).includes('/');
	const hasDigest = image.includes('@');
	return { ok: true, image: hasTag || hasDigest ? image : `${image}:latest` };
}

/** 64 hex characters derived from `text` (FNV-1a in eight lanes): a stand-in for a sha256 digest. */
export function syntheticHex64(text: string): string {
	let out = '';
	for (let lane = 0; lane < 8; lane++) {
		let h = (0x811c9dc5 ^ Math.imul(lane + 1, 0x9e3779b9)) >>> 0;
		for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
		h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
		h = Math.imul(h ^ (h >>> 12), 0x297a2d39) >>> 0;
		out += ((h ^ (h >>> 15)) >>> 0).toString(16).padStart(8, '0');
	}
	return out;
}

/** What the registry resolves a reference to. */
interface ResolvedImage {
	image: CatalogImage;
	/** The normalized reference that was asked for. */
	ref: ImageRef;
	/** `docker.io/library/nginx:1.27` (the repo tag containerd records), or undefined for a digest-only reference. */
	repoTag?: string;
	/** `docker.io/library/nginx@sha256:...`: the manifest digest reference. */
	repoDigest: string;
	/** `sha256:...`: the image config digest, containerd's image id. */
	id: string;
}

/** The manifest digest of a catalogue image (the same for every tag of it). */
export function imageDigest(image: CatalogImage): string {
	return `sha256:${syntheticHex64(`manifest:${image.repository}@${image.tags[0]}`)}`;
}

/** The config digest of a catalogue image: containerd's image id (`crictl images` IMAGE ID). */
export function imageId(image: CatalogImage): string {
	return `sha256:${syntheticHex64(`config:${image.repository}@${image.tags[0]}`)}`;
}

/**
 * The registries the nodes reach, all through the lab's mirror (and the
 * simulated cloud's own registry, for its cloud-controller-manager image).
 * Any other host fails name resolution (the nodes have no other way out).
 */
const KNOWN_REGISTRIES: readonly string[] = ['docker.io', 'registry.k8s.io', 'gcr.io', 'ghcr.io', 'quay.io', 'registry.simcloud.example'];

/**
 * One release line of a catalogued repository: the versions upstream really
 * published (minor → highest patch, up to the newest catalogued release),
 * the tag spellings the repository uses for them, and how to build the
 * image of one version. A tag of the line that the catalogue does not list
 * exactly resolves to an image of that version, sized between its
 * catalogued neighbours.
 */
interface ReleaseLine {
	repository: string;
	major: number;
	/** minor → highest patch released. */
	patches: Readonly<Record<number, number>>;
	/** `patch`: tags `1.16.1` and `1.16` (its newest patch); `minor`: versions are `2.39`, the tag is the version. */
	scheme: 'patch' | 'minor';
	/** Tag suffixes of the variants (`''`, `-alpine`, `-slim`...), each built by `make`. */
	variants: readonly string[];
	make: (version: string, tags: string[], sizeBytes: number, variant: string) => CatalogImage;
}

/** Releases read from the projects' tags: nginx's release-1.x.y tags up to 1.29.3 (28 Oct 2025), busybox's 1_x_y, Alpine's 3.x.y, Python's 3.x.y, agnhost's VERSION file. */
const RELEASE_LINES: readonly ReleaseLine[] = [
	{
		repository: 'docker.io/library/nginx',
		major: 1,
		// The official image starts with nginx 1.7.
		patches: { 7: 12, 8: 1, 9: 15, 10: 3, 11: 13, 12: 2, 13: 12, 14: 2, 15: 12, 16: 1, 17: 10, 18: 0, 19: 10, 20: 2, 21: 6, 22: 1, 23: 4, 24: 0, 25: 5, 26: 3, 27: 5, 28: 0, 29: 3 },
		scheme: 'patch',
		variants: ['', '-alpine'],
		make: (version, tags, size, variant) => nginx(version, tags, size, variant === '-alpine' ? 'alpine' : 'debian'),
	},
	{
		repository: 'docker.io/library/busybox',
		major: 1,
		patches: { 21: 1, 22: 1, 23: 2, 24: 2, 25: 1, 26: 2, 27: 2, 28: 4, 29: 3, 30: 1, 31: 1, 32: 1, 33: 2, 34: 1, 35: 0, 36: 1, 37: 0 },
		scheme: 'patch',
		// The glibc build is the default; musl and uclibc builds are tagged apart.
		variants: ['', '-glibc', '-musl', '-uclibc'],
		make: (version, tags, size) => shellImage('docker.io/library/busybox', version, tags, size, 'busybox', ['sh']),
	},
	{
		repository: 'docker.io/library/alpine',
		major: 3,
		patches: { 1: 4, 2: 3, 3: 3, 4: 6, 5: 3, 6: 5, 7: 3, 8: 5, 9: 6, 10: 9, 11: 13, 12: 12, 13: 12, 14: 10, 15: 11, 16: 9, 17: 10, 18: 12, 19: 9, 20: 8, 21: 5, 22: 2 },
		scheme: 'patch',
		variants: [''],
		make: (version, tags, size) => shellImage('docker.io/library/alpine', version, tags, size, 'alpine', ['/bin/sh']),
	},
	{
		repository: 'docker.io/library/python',
		major: 3,
		patches: { 5: 10, 6: 15, 7: 17, 8: 20, 9: 25, 10: 19, 11: 14, 12: 12, 13: 9, 14: 0 },
		scheme: 'patch',
		variants: ['', '-slim', '-alpine'],
		make: (version, tags, size, variant) => python(version, tags, size, variant === '-slim' ? 'slim' : variant === '-alpine' ? 'alpine' : 'full'),
	},
	{
		repository: 'registry.k8s.io/e2e-test-images/agnhost',
		major: 2,
		// registry.k8s.io/e2e-test-images carries agnhost from 2.21.
		patches: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [21 + i, 0])),
		scheme: 'minor',
		variants: [''],
		make: (version, _tags, size) => agnhost(version, size),
	},
];

/** Typical compressed sizes of variants the catalogue lists no exact image of, relative to the default variant. */
const VARIANT_SIZE_RATIO: Readonly<Record<string, number>> = { '-alpine': 0.3, '-slim': 0.11, '-musl': 0.7, '-uclibc': 0.45, '-glibc': 1 };

/** Exact catalogue images by `repository:tag`. */
const EXACT = new Map<string, CatalogImage>();
for (const image of IMAGE_CATALOGUE) for (const tag of image.tags) EXACT.set(`${image.repository}:${tag}`, image);

/** Images built for release-line tags, by `repository:tag` (memoized: the same tag is the same image). */
const DERIVED = new Map<string, CatalogImage | null>();

/** The variant suffix of a tag and its version part (`1.16-alpine` → `-alpine`, `1.16`). */
function splitVariant(line: ReleaseLine, tag: string): { version: string; variant: string } | undefined {
	for (const variant of [...line.variants].sort((a, b) => b.length - a.length)) {
		if (variant === '' ? /^[0-9.]+$/.test(tag) : tag.endsWith(variant)) return { version: variant === '' ? tag : tag.slice(0, -variant.length), variant };
	}
	return undefined;
}

/** The full version a tag of the line names (`1.16` → `1.16.1`, `1` → the newest), or undefined if upstream never released it. */
function lineVersion(line: ReleaseLine, text: string): { version: string; newestOfMinor: boolean } | undefined {
	if (line.scheme === 'patch' && text === String(line.major)) {
		// The major tag (`nginx:1`, `busybox:1-musl`) follows the newest release of the line.
		const newestMinor = Math.max(...Object.keys(line.patches).map(Number));
		return lineVersion(line, `${line.major}.${newestMinor}`);
	}
	const m = line.scheme === 'minor' ? /^(\d+)\.(\d+)$/.exec(text) : /^(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text);
	if (!m || Number(m[1]) !== line.major || /(^|\.)0\d/.test(text)) return undefined;
	const minor = Number(m[2]);
	const newest = line.patches[minor];
	if (newest === undefined) return undefined;
	if (line.scheme === 'minor') return { version: `${line.major}.${minor}`, newestOfMinor: true };
	const patch = m[3] === undefined ? newest : Number(m[3]);
	if (patch > newest) return undefined;
	return { version: `${line.major}.${minor}.${patch}`, newestOfMinor: patch === newest };
}

/** The size of a version the catalogue does not list: interpolated between the nearest catalogued versions of the same variant. */
function interpolatedSize(line: ReleaseLine, version: string, variant: string): number {
	const sameVariant = (image: CatalogImage) => image.tags.some((t) => splitVariant(line, t)?.variant === variant && lineVersion(line, splitVariant(line, t)!.version) !== undefined);
	let known = IMAGE_CATALOGUE.filter((i) => i.repository === line.repository && sameVariant(i));
	let ratio = 1;
	if (known.length === 0) {
		known = IMAGE_CATALOGUE.filter((i) => i.repository === line.repository && i.tags.some((t) => splitVariant(line, t)?.variant === ''));
		ratio = VARIANT_SIZE_RATIO[variant] ?? 1;
	}
	const sorted = [...known].sort((a, b) => compareVersions(a.version, b.version));
	const below = sorted.filter((i) => compareVersions(i.version, version) <= 0).pop();
	const above = sorted.find((i) => compareVersions(i.version, version) >= 0);
	let size: number;
	if (!below || !above) size = (below ?? above)!.sizeBytes;
	else if (below === above || compareVersions(below.version, above.version) === 0) size = below.sizeBytes;
	else {
		const ordinal = (v: string) => versionParts(v)[1] * 100 + (versionParts(v)[2] ?? 0);
		const f = (ordinal(version) - ordinal(below.version)) / (ordinal(above.version) - ordinal(below.version));
		size = below.sizeBytes + f * (above.sizeBytes - below.sizeBytes);
	}
	return Math.round((size * ratio) / KB) * KB;
}

/** The image a release-line tag names, built once; undefined if the tag is not one upstream published. */
function derivedImage(repository: string, tag: string): CatalogImage | undefined {
	const key = `${repository}:${tag}`;
	const memo = DERIVED.get(key);
	if (memo !== undefined) return memo ?? undefined;
	let image: CatalogImage | undefined;
	const line = RELEASE_LINES.find((l) => l.repository === repository);
	const split = line && splitVariant(line, tag);
	const found = line && split && lineVersion(line, split.version);
	if (line && split && found) {
		const exact = EXACT.get(`${repository}:${found.version}${split.variant}`);
		if (exact) image = exact;
		else {
			const tags = [`${found.version}${split.variant}`];
			const minorTag = `${versionParts(found.version).slice(0, 2).join('.')}${split.variant}`;
			if (line.scheme === 'patch' && found.newestOfMinor && !EXACT.has(`${repository}:${minorTag}`)) tags.push(minorTag);
			image = line.make(found.version, tags, interpolatedSize(line, found.version, split.variant), split.variant);
			// A second spelling of the same version is the same image.
			for (const t of tags) DERIVED.set(`${repository}:${t}`, image);
		}
	}
	DERIVED.set(key, image ?? null);
	return image;
}

/** Every image of a repository the mirror serves (exact and release-line), for lookups by digest. */
function imagesOf(repository: string): CatalogImage[] {
	const out = IMAGE_CATALOGUE.filter((i) => i.repository === repository);
	const line = RELEASE_LINES.find((l) => l.repository === repository);
	if (!line) return out;
	for (const [minor, newest] of Object.entries(line.patches)) {
		for (const variant of line.variants) {
			for (let patch = 0; patch <= (line.scheme === 'minor' ? 0 : newest); patch++) {
				const image = derivedImage(repository, line.scheme === 'minor' ? `${line.major}.${minor}${variant}` : `${line.major}.${minor}.${patch}${variant}`);
				if (image && !out.includes(image)) out.push(image);
			}
		}
	}
	return out;
}

/** Why a reference cannot be pulled: the registry's answer. */
type RegistryMiss = { kind: 'no-such-host' } | { kind: 'repository-not-found' } | { kind: 'manifest-not-found' };

/**
 * Looks a reference up as a pull through the mirror would resolve it. The
 * mirror answers 404 both for a repository it does not carry and for a tag
 * it does not have (`miss.kind` keeps the two apart for the trace; containerd
 * sees the same 404 for both).
 */
export function resolveImage(text: string): { ok: true; resolved: ResolvedImage } | { ok: false; miss: RegistryMiss; ref?: ImageRef; error?: string } {
	const parsed = parseImageRef(text);
	if (!parsed.ok) return { ok: false, miss: { kind: 'manifest-not-found' }, error: parsed.error };
	const ref = parsed.ref;
	if (!KNOWN_REGISTRIES.includes(ref.domain)) return { ok: false, miss: { kind: 'no-such-host' }, ref };
	const carried = IMAGE_CATALOGUE.some((i) => i.repository === ref.repository) || RELEASE_LINES.some((l) => l.repository === ref.repository);
	if (!carried) return { ok: false, miss: { kind: 'repository-not-found' }, ref };
	const tag = ref.tag ?? 'latest';
	const image = ref.digest ? imagesOf(ref.repository).find((i) => imageDigest(i) === ref.digest) : (EXACT.get(`${ref.repository}:${tag}`) ?? derivedImage(ref.repository, tag));
	if (!image) return { ok: false, miss: { kind: 'manifest-not-found' }, ref };
	return {
		ok: true,
		resolved: {
			image,
			ref,
			repoTag: ref.tag ? `${ref.repository}:${ref.tag}` : undefined,
			repoDigest: `${ref.repository}@${imageDigest(image)}`,
			id: imageId(image),
		},
	};
}

/** The catalogue image a reference names, if any. */
export function findImage(text: string): CatalogImage | undefined {
	const found = resolveImage(text);
	return found.ok ? found.resolved.image : undefined;
}

/**
 * The system component an image runs, for images backed by a simulated
 * process (the control plane's static pods and kube-proxy).
 */
export type SystemComponent = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy' | 'cloud-controller-manager' | 'coredns' | 'metrics-server' | 'flanneld' | 'calico-node' | 'calico-kube-controllers';

export function systemComponentOf(image: CatalogImage): SystemComponent | undefined {
	switch (image.program) {
		case 'etcd':
		case 'kube-apiserver':
		case 'kube-controller-manager':
		case 'kube-scheduler':
		case 'kube-proxy':
		case 'cloud-controller-manager':
		case 'coredns':
		case 'metrics-server':
		case 'flanneld':
		case 'calico-node':
		case 'calico-kube-controllers':
			return image.program;
		default:
			return undefined;
	}
}
