import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('cluster options', () => {
	it('refuses a highly available control plane it cannot build yet, naming the field', () => {
		expect(() => createCluster({ controlPlane: { etcdMembers: 3 } })).toThrow('controlPlane.etcdMembers: 3 is not supported yet; this version runs one etcd member and one kube-apiserver (set 1 or leave it out)');
		expect(() => createCluster({ controlPlane: { apiServers: 2 } })).toThrow(/^controlPlane\.apiServers: 2 is not supported yet/);
	});

	it('accepts one etcd member and one API server, said out loud', () => {
		const cluster = createCluster({ controlPlane: { etcdMembers: 1, apiServers: 1 } });
		expect(cluster.exec('kubectl get pods -n kube-system -l component=etcd --no-headers').stdout).toMatch(/^etcd-control-plane +1\/1 +Running/);
	});

	it.each([
		['an unknown plugin', { profiles: [{ schedulerName: 'default-scheduler', plugins: { score: { enabled: [{ name: 'NoSuchPlugin' }] } } }] }, /^scheduler: couldn't create scheduler: initializing profiles: .*NoSuchPlugin/],
		['a percentage above 100', { percentageOfNodesToScore: 150 }, /^scheduler: couldn't create scheduler: percentageOfNodesToScore: Invalid value: 150: not in valid range \[0-100\]$/],
		['two profiles with one name', { profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] }, /^scheduler: couldn't create scheduler: .*profiles\[1\]\.schedulerName: Duplicate value: "a"/],
		['an unknown scoring strategy', { profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'Bogus' } } }] }] }, /^scheduler: couldn't create scheduler: .*scoringStrategy\.type: Unsupported value: "Bogus"/],
	])('refuses a scheduler configuration with %s, in kube-scheduler\'s words', (_what, config, message) => {
		expect(() => createCluster({ scheduler: { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', ...config } as never })).toThrow(message);
	});

	it('refuses a start time that is not RFC 3339', () => {
		expect(() => createCluster({ startTime: 'yesterday' })).toThrow('startTime "yesterday" is not an RFC 3339 time');
	});
});
