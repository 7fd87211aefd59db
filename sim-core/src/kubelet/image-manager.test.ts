import { describe, expect, it } from 'vitest';
import { defaultPullPolicy, withDefaultTag } from './image-manager.ts';

describe('the kubelet image rules', () => {
	it.each([
		['nginx', 'Always'],
		['nginx:latest', 'Always'],
		['nginx:1.27', 'IfNotPresent'],
		['localhost:5000/app', 'Always'],
		['localhost:5000/app:v2', 'IfNotPresent'],
		[`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
	])('defaults imagePullPolicy of %s to %s', (image, policy) => {
		expect(defaultPullPolicy(image)).toBe(policy);
	});

	it.each([
		['busybox', { ok: true, image: 'busybox:latest' }],
		['busybox:1.36', { ok: true, image: 'busybox:1.36' }],
		['registry.k8s.io/pause', { ok: true, image: 'registry.k8s.io/pause:latest' }],
		['Nginx', { ok: false, error: 'couldn\'t parse image name "Nginx": invalid reference format: repository name (library/Nginx) must be lowercase' }],
	])('applies the default tag to %s', (image, expected) => {
		expect(withDefaultTag(image)).toEqual(expected);
	});
});
