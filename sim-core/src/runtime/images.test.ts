import { describe, expect, it } from 'vitest';
import { applyDefaultImageTag, COREDNS_IMAGE, findImage, IMAGE_CATALOGUE, imageDigest, normalizeImageRef, PAUSE_IMAGE, parseImageRef, resolveImage } from './images.ts';

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
		['nginxx', 'repository-not-found'],
		['registry.k8s.io/nope:1', 'repository-not-found'],
		['myregistry.example.com/app:1', 'no-such-host'],
	])('reports why %s cannot be pulled: %s', (ref, kind) => {
		const r = resolveImage(ref);
		expect(r.ok).toBe(false);
		expect(!r.ok && r.miss.kind).toBe(kind);
	});
});
