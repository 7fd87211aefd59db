/**
 * Builders for the controller tests: objects as a reader's manifests would
 * give them, and helpers to wait on the simulated cluster.
 *
 * Mirrors nothing upstream: test builders for the controller tests.
 */
import type { CoreEvent, DaemonSet, Deployment, Pod, ReplicaSet, StatefulSet } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import type { ControllerHarness } from './harness.ts';

export function deployment(name: string, replicas: number, image: string, spec: Partial<Deployment['spec']> = {}): Deployment {
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name, namespace: 'default' },
		spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } }, ...spec },
	};
}

export function replicaSet(name: string, replicas: number, spec: Partial<ReplicaSet['spec']> = {}): ReplicaSet {
	return {
		apiVersion: 'apps/v1',
		kind: 'ReplicaSet',
		metadata: { name, namespace: 'default' },
		spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.27' }] } }, ...spec },
	};
}

export function daemonSet(name: string, image: string, spec: Partial<DaemonSet['spec']> = {}): DaemonSet {
	return {
		apiVersion: 'apps/v1',
		kind: 'DaemonSet',
		metadata: { name, namespace: 'kube-system' },
		spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } }, ...spec },
	};
}

export function statefulSet(name: string, replicas: number, image: string, spec: Partial<StatefulSet['spec']> = {}): StatefulSet {
	return {
		apiVersion: 'apps/v1',
		kind: 'StatefulSet',
		metadata: { name, namespace: 'default' },
		spec: { replicas, serviceName: name, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image }] } }, ...spec },
	};
}

/** Runs the cluster in steps until `done` holds; fails the test with `what` after `maxMs`. */
export function waitFor(c: ControllerHarness, what: string, done: () => boolean, maxMs = 60_000, stepMs = 100): void {
	for (let waited = 0; waited <= maxMs; waited += stepMs) {
		if (done()) return;
		c.advance(stepMs);
	}
	throw new Error(`timed out after ${maxMs} ms waiting for ${what}`);
}

export function isReady(pod: Pod): boolean {
	return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** The events recorded about an object (reason and message), oldest first. */
export function eventsFor(c: ControllerHarness, namespace: string, name: string): string[] {
	return c
		.list<CoreEvent>(R.events, namespace)
		.filter((e) => e.involvedObject.name === name)
		.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
		.map((e) => `${e.reason}: ${e.message}`);
}

export function get<T>(c: ControllerHarness, ref: (typeof R)[keyof typeof R], namespace: string | undefined, name: string): T | undefined {
	const got = c.kubectl.get<T>(ref, namespace, name);
	return got.ok ? got.object : undefined;
}
