import { describe, expect, it } from 'vitest';
import { applyDefaultImageTag, COREDNS_IMAGE, findImage, IMAGE_CATALOGUE, imageDigest, imageId, normalizeImageRef, PAUSE_IMAGE, parseImageRef, resolveImage } from './images.ts';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('image references normalize as containerd does (distribution/reference)', () => {
	it.each([
		['nginx', 'docker.io/library/nginx:latest'],
		['nginx:1.25', 'docker.io/library/nginx:1.25'],
		['library/nginx', 'docker.io/library/nginx:latest'],
		['docker.io/nginx', 'docker.io/library/nginx:latest'],
		['index.docker.io/library/nginx:1.27', 'docker.io/library/nginx:1.27'],
		['bitnami/nginx', 'docker.io/bitnami/nginx:latest'],
		['registry.k8s.io/pause:3.10.2', 'registry.k8s.io/pause:3.10.2'],
		['registry.k8s.io/coredns/coredns:v1.14.2', 'registry.k8s.io/coredns/coredns:v1.14.2'],
		['localhost:5000/app', 'localhost:5000/app:latest'],
		['localhost/app:v1', 'localhost/app:v1'],
		[`nginx@${DIGEST}`, `docker.io/library/nginx@${DIGEST}`],
	])('%s → %s', (input, expected) => {
		expect(normalizeImageRef(input)).toBe(expected);
	});

	it.each([
		['Nginx', 'invalid reference format: repository name (library/Nginx) must be lowercase'],
		['nginx:', 'invalid reference format'],
		['nginx@sha256:abc', 'invalid reference format'],
		['ngi nx', 'invalid reference format'],
	])('rejects %s with "%s"', (input, error) => {
		expect(parseImageRef(input)).toEqual({ ok: false, error });
	});

	it.each([
		['busybox', 'busybox:latest'],
		['nginx:1.25', 'nginx:1.25'],
		['localhost:5000/app', 'localhost:5000/app:latest'],
		[`nginx@${DIGEST}`, `nginx@${DIGEST}`],
	])('the kubelet adds the default tag to %s without qualifying it: %s', (input, expected) => {
		expect(applyDefaultImageTag(input)).toEqual({ ok: true, image: expected });
	});
});

describe('the image catalogue', () => {
	it('gives every tag of a repository to one image only', () => {
		const seen = new Set<string>();
		for (const image of IMAGE_CATALOGUE) {
			for (const tag of image.tags) {
				const ref = `${image.repository}:${tag}`;
				expect(seen.has(ref), ref).toBe(false);
				seen.add(ref);
			}
		}
	});

	it('has the images kubeadm v1.36 deploys', () => {
		expect(PAUSE_IMAGE).toBe('registry.k8s.io/pause:3.10.2');
		expect(COREDNS_IMAGE).toBe('registry.k8s.io/coredns/coredns:v1.14.2');
		for (const ref of [PAUSE_IMAGE, COREDNS_IMAGE, 'registry.k8s.io/kube-apiserver:v1.36.3', 'registry.k8s.io/kube-controller-manager:v1.36.3', 'registry.k8s.io/kube-scheduler:v1.36.3', 'registry.k8s.io/kube-proxy:v1.36.3', 'registry.k8s.io/etcd:3.6.10-0']) {
			expect(findImage(ref), ref).toBeDefined();
		}
	});

	it('resolves the kubernetes.io example tags and the common images', () => {
		for (const ref of ['nginx:1.14.2', 'nginx:1.24', 'nginx:1.25', 'nginx:1.27', 'nginx:latest', 'httpd', 'redis', 'busybox', 'busybox:1.28', 'alpine', 'ubuntu', 'python:3.12', 'postgres', 'mysql:8.0', 'registry.k8s.io/e2e-test-images/agnhost:2.40']) {
			expect(findImage(ref), ref).toBeDefined();
		}
		expect(findImage('nginx:1.14.2')?.sizeBytes).toBe(44_710_000);
		expect(findImage('nginx')?.version).toBe(findImage('nginx:mainline')?.version);
	});

	it('finds an image by its manifest digest', () => {
		const nginx = findImage('nginx:1.27')!;
		expect(findImage(`nginx@${imageDigest(nginx)}`)).toBe(nginx);
	});

	it.each([
		['nginx:1.99', 'manifest-not-found'],
		['nginx:9.9', 'manifest-not-found'],
		['nginx:1.16.2', 'manifest-not-found'],
		['nginx:1.30.0', 'manifest-not-found'],
		['nginx:1.016', 'manifest-not-found'],
		['busybox:1.19', 'manifest-not-found'],
		['busybox:1.37.1', 'manifest-not-found'],
		['alpine:3.22.9', 'manifest-not-found'],
		['alpine:4.0', 'manifest-not-found'],
		['python:2.7', 'manifest-not-found'],
		['registry.k8s.io/e2e-test-images/agnhost:2.99', 'manifest-not-found'],
		['registry.k8s.io/e2e-test-images/agnhost:2.39.0', 'manifest-not-found'],
		['registry.k8s.io/e2e-test-images/agnhost:2', 'manifest-not-found'],
		['nginxx', 'repository-not-found'],
		['bitnami/nginx:1.27', 'repository-not-found'],
		['gcr.io/google-samples/node-hello:1.0', 'repository-not-found'],
		['quay.io/prometheus/prometheus', 'repository-not-found'],
		['registry.k8s.io/nope:1', 'repository-not-found'],
		['myregistry.example.com/app:1', 'no-such-host'],
	])('reports why %s cannot be pulled: %s', (ref, kind) => {
		const r = resolveImage(ref);
		expect(r.ok).toBe(false);
		expect(!r.ok && r.miss.kind).toBe(kind);
	});
});

describe('the tags of a catalogued repository that upstream published', () => {
	it.each([
		['nginx:1.16.1', '1.16.1', 'debian'],
		['nginx:1.16', '1.16.1', 'debian'],
		['nginx:1.21.6', '1.21.6', 'debian'],
		['nginx:1.7.9', '1.7.9', 'debian'],
		['nginx:1.23-alpine', '1.23.4', 'alpine'],
		['busybox:1.31', '1.31.1', 'busybox'],
		['busybox:1.35.0', '1.35.0', 'busybox'],
		['busybox:1.36.1-musl', '1.36.1', 'busybox'],
		['alpine:3.18.4', '3.18.4', 'alpine'],
		['alpine:3.19', '3.19.9', 'alpine'],
		['python:3.11', '3.11.14', 'debian'],
		['python:3.13.2-slim', '3.13.2', 'debian'],
		['registry.k8s.io/e2e-test-images/agnhost:2.39', '2.39', 'alpine'],
		['nginx:1', '1.29.3', 'debian'],
		['nginx:1-alpine', '1.29.3', 'alpine'],
		['busybox:1-musl', '1.37.0', 'busybox'],
	])('%s resolves to version %s (%s)', (ref, version, family) => {
		const image = findImage(ref);
		expect(image?.version).toBe(version);
		expect(image?.family).toBe(family);
	});

	it('gives a minor tag and its newest patch the same image, as a registry does', () => {
		const minor = resolveImage('nginx:1.16');
		const patch = resolveImage('nginx:1.16.1');
		expect(minor.ok && patch.ok && minor.resolved.id === patch.resolved.id).toBe(true);
		expect(minor.ok && minor.resolved.repoDigest).toBe(patch.ok && patch.resolved.repoDigest);
		expect(minor.ok && minor.resolved.repoTag).toBe('docker.io/library/nginx:1.16');
		// An older patch is another image.
		expect(imageId(findImage('nginx:1.16.0')!)).not.toBe(imageId(findImage('nginx:1.16.1')!));
	});

	it('keeps the catalogued images for their own tags', () => {
		expect(findImage('nginx:1.14.2')).toBe(IMAGE_CATALOGUE.find((i) => i.tags.includes('1.14.2')));
		expect(findImage('nginx:1.14')).toBe(findImage('nginx:1.14.2'));
	});

	it('sizes a version between its catalogued neighbours', () => {
		const size = (ref: string) => findImage(ref)!.sizeBytes;
		expect(size('nginx:1.16.1')).toBeGreaterThan(size('nginx:1.14.2'));
		expect(size('nginx:1.16.1')).toBeLessThan(size('nginx:1.24.0'));
		expect(size('nginx:1.26.3')).toBeGreaterThanOrEqual(Math.min(size('nginx:1.25.5'), size('nginx:1.27.5')));
		expect(size('nginx:1.26.3')).toBeLessThanOrEqual(Math.max(size('nginx:1.25.5'), size('nginx:1.27.5')));
		expect(size('nginx:1.7.9')).toBe(size('nginx:1.14.2'));
		expect(size('nginx:1.23-alpine')).toBeLessThan(size('nginx:1.23'));
		expect(size('registry.k8s.io/e2e-test-images/agnhost:2.45')).toBeGreaterThan(size('registry.k8s.io/e2e-test-images/agnhost:2.40'));
		expect(size('registry.k8s.io/e2e-test-images/agnhost:2.45')).toBeLessThan(size('registry.k8s.io/e2e-test-images/agnhost:2.53'));
		expect(size('nginx:1.16.1') % 1_000).toBe(0);
	});

	it('finds a release-line image by its manifest digest', () => {
		const image = findImage('busybox:1.31.1')!;
		expect(findImage(`busybox@${imageDigest(image)}`)).toBe(image);
	});

	it('builds the image of the version: nginx before 1.19 had no entrypoint script', () => {
		expect(findImage('nginx:1.16.1')).toMatchObject({ entrypoint: [], cmd: ['nginx', '-g', 'daemon off;'], env: { NGINX_VERSION: '1.16.1' } });
		expect(findImage('nginx:1.21.6')).toMatchObject({ entrypoint: ['/docker-entrypoint.sh'], cmd: ['nginx', '-g', 'daemon off;'] });
	});
});

describe("the images kubernetes.io's network and debugging pages use", () => {
	it.each([
		['curlimages/curl', 'docker.io/curlimages/curl', ['/entrypoint.sh'], ['curl']],
		['curlimages/curl:8.17.0', 'docker.io/curlimages/curl', ['/entrypoint.sh'], ['curl']],
		['nicolaka/netshoot', 'docker.io/nicolaka/netshoot', [], ['zsh']],
		['registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3', 'registry.k8s.io/e2e-test-images/jessie-dnsutils', [], ['/bin/bash']],
		['registry.k8s.io/serve_hostname', 'registry.k8s.io/serve_hostname', ['/serve_hostname'], []],
		['registry.k8s.io/e2e-test-images/agnhost:2.40', 'registry.k8s.io/e2e-test-images/agnhost', ['/agnhost'], ['pause']],
		['registry.k8s.io/busybox:1.27.2', 'registry.k8s.io/busybox', [], ['sh']],
		['registry.k8s.io/goproxy:0.1', 'registry.k8s.io/goproxy', ['/goproxy'], []],
		['bprashanth/nginxhttps:1.0', 'docker.io/bprashanth/nginxhttps', [], ['nginx', '-g', 'daemon off;']],
		['registry.k8s.io/hpa-example', 'registry.k8s.io/hpa-example', ['docker-php-entrypoint'], ['apache2-foreground']],
		['gcr.io/google-containers/busybox', 'gcr.io/google-containers/busybox', [], ['sh']],
		['radial/busyboxplus:curl', 'docker.io/radial/busyboxplus', [], ['/bin/sh']],
	])('%s: ENTRYPOINT %j, CMD %j', (ref, repository, entrypoint, cmd) => {
		expect(findImage(ref)).toMatchObject({ repository, entrypoint, cmd });
	});

	it('runs curlimages/curl as curl_user (uid 100)', () => {
		expect(findImage('curlimages/curl')?.user).toEqual({ name: 'curl_user', uid: 100, group: 'curl_group', gid: 101 });
	});

	it('has realistic compressed sizes: a few MB for the static Go servers, tens for curl, a hundred and more for the Debian and netshoot images', () => {
		const mb = (ref: string) => findImage(ref)!.sizeBytes / 1_000_000;
		expect(mb('registry.k8s.io/serve_hostname')).toBeLessThan(5);
		expect(mb('registry.k8s.io/goproxy:0.1')).toBeLessThan(5);
		expect(mb('curlimages/curl')).toBeGreaterThan(5);
		expect(mb('curlimages/curl')).toBeLessThan(15);
		expect(mb('registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3')).toBeGreaterThan(100);
		expect(mb('nicolaka/netshoot')).toBeGreaterThan(150);
	});
});
