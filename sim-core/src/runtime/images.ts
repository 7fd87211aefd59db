/**
 * The registries the simulated nodes pull from: a catalogue of well-known
 * images with realistic compressed sizes, their default command, and how an
 * image reference is normalized the way containerd does it (as containerd's
 * CRI plugin does, through distribution/reference): `nginx` →
 * `docker.io/library/nginx:latest`.
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
 * Mirrors distribution/reference normalize.go.
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
	| 'postgres'
	| 'mysql'
	| 'pause'
	| 'etcd'
	| 'kube-apiserver'
	| 'kube-controller-manager'
	| 'kube-scheduler'
	| 'kube-proxy'
	| 'coredns'
	| 'agnhost'
	| 'stress'
	| 'metrics-server';

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
}

const KB = 1_000;

const nginx = (version: string, tags: string[], sizeBytes: number, family: ImageFamily = 'debian'): CatalogImage => ({
	repository: 'docker.io/library/nginx',
	tags,
	version,
	sizeBytes,
	program: 'nginx',
	family,
	entrypoint: ['/docker-entrypoint.sh'],
	cmd: ['nginx', '-g', 'daemon off;'],
	// The official nginx image stops with SIGQUIT (graceful shutdown).
	stopSignal: 'SIGQUIT',
	env: { NGINX_VERSION: version },
});

const shellImage = (repository: string, version: string, tags: string[], sizeBytes: number, family: ImageFamily, cmd: string[]): CatalogImage => ({
	repository,
	tags,
	version,
	sizeBytes,
	program: 'shell',
	family,
	entrypoint: [],
	cmd,
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
// A separate block, to merge with the images catalogue's own entries: metrics-server's release
// image, and the HPA walkthrough's php-apache until the catalogue brings its own.
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
	{
		// registry.k8s.io/hpa-example: php:5-apache with an index.php that computes a million square
		// roots and answers "OK!". Started with httpd-foreground here (the Apache the image runs).
		repository: 'registry.k8s.io/hpa-example',
		tags: ['latest'],
		version: '2.4.10',
		sizeBytes: 138_500 * KB,
		program: 'httpd',
		family: 'debian',
		entrypoint: [],
		cmd: ['httpd-foreground'],
		stopSignal: 'SIGWINCH',
	},
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
	{
		repository: 'docker.io/library/python',
		tags: ['3.14.0', '3.14', '3', 'latest'],
		version: '3.14.0',
		sizeBytes: 392_500 * KB,
		program: 'python',
		family: 'debian',
		entrypoint: [],
		cmd: ['python3'],
	},
	{
		repository: 'docker.io/library/python',
		tags: ['3.12.12', '3.12'],
		version: '3.12.12',
		sizeBytes: 383_100 * KB,
		program: 'python',
		family: 'debian',
		entrypoint: [],
		cmd: ['python3'],
	},
	{
		repository: 'docker.io/library/python',
		tags: ['3.12.12-slim', '3.12-slim', 'slim', '3.14-slim'],
		version: '3.12.12',
		sizeBytes: 41_620 * KB,
		program: 'python',
		family: 'debian',
		entrypoint: [],
		cmd: ['python3'],
	},
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
	...(['3.10.2', '3.10.1', '3.10', '3.9'] as const).map(
		(version): CatalogImage => ({
			repository: 'registry.k8s.io/pause',
			tags: [version],
			version,
			sizeBytes: version === '3.9' ? 321_520 : 320_450,
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
	...K8S_PATCHES.flatMap((v) => (['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'] as const).map((c) => k8s(c, v, K8S_SIZES[c]))),
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
	...(['2.40', '2.53'] as const).map(
		(version): CatalogImage => ({
			repository: 'registry.k8s.io/e2e-test-images/agnhost',
			tags: [version],
			version,
			sizeBytes: version === '2.40' ? 51_160 * KB : 52_890 * KB,
			program: 'agnhost',
			family: 'alpine',
			entrypoint: ['/agnhost'],
			cmd: ['pause'],
		}),
	),
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

/** Registries the simulated network can reach. Any other host fails name resolution. */
const KNOWN_REGISTRIES: readonly string[] = ['docker.io', 'registry.k8s.io'];

/** Why a reference cannot be pulled: the registry's answer. */
type RegistryMiss = { kind: 'no-such-host' } | { kind: 'repository-not-found' } | { kind: 'manifest-not-found' };

/** Looks a reference up in the catalogue, as a pull would resolve it. */
export function resolveImage(text: string): { ok: true; resolved: ResolvedImage } | { ok: false; miss: RegistryMiss; ref?: ImageRef; error?: string } {
	const parsed = parseImageRef(text);
	if (!parsed.ok) return { ok: false, miss: { kind: 'manifest-not-found' }, error: parsed.error };
	const ref = parsed.ref;
	if (!KNOWN_REGISTRIES.includes(ref.domain)) return { ok: false, miss: { kind: 'no-such-host' }, ref };
	const inRepo = IMAGE_CATALOGUE.filter((i) => i.repository === ref.repository);
	if (inRepo.length === 0) return { ok: false, miss: { kind: 'repository-not-found' }, ref };
	const image = ref.digest ? inRepo.find((i) => imageDigest(i) === ref.digest) : inRepo.find((i) => i.tags.includes(ref.tag ?? 'latest'));
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
export type SystemComponent = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy' | 'coredns' | 'metrics-server';

export function systemComponentOf(image: CatalogImage): SystemComponent | undefined {
	switch (image.program) {
		case 'etcd':
		case 'kube-apiserver':
		case 'kube-controller-manager':
		case 'kube-scheduler':
		case 'kube-proxy':
		case 'coredns':
		case 'metrics-server':
			return image.program;
		default:
			return undefined;
	}
}
