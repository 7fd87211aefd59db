import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import { loadKubeletConfigFile } from './kubelet-config.ts';

const HEADER = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

describe('the KubeletConfiguration file', () => {
	it('reads the fields this kubelet models, in the units it counts', () => {
		const { config, error } = loadKubeletConfigFile(`${HEADER}nodeStatusUpdateFrequency: 4s\nnodeStatusReportFrequency: 1m\nfileCheckFrequency: 500ms\nsyncFrequency: 2m30s\nnodeLeaseDurationSeconds: 20\nstaticPodPath: /etc/kubernetes/static\ncgroupDriver: systemd\n`);
		expect(error).toBeUndefined();
		expect(config).toEqual({ nodeStatusUpdateFrequencyMs: 4_000, nodeStatusReportFrequencyMs: 60_000, fileCheckFrequencyMs: 500, syncFrequencyMs: 150_000, nodeLeaseDurationSeconds: 20, staticPodPath: '/etc/kubernetes/static' });
	});

	it('reads registerNode, which must be a boolean', () => {
		expect(loadKubeletConfigFile(`${HEADER}registerNode: false\n`)).toEqual({ config: { registerNode: false } });
		expect(loadKubeletConfigFile(`${HEADER}registerNode: "no"\n`).error).toBe('failed to decode: json: cannot unmarshal "no" into Go struct field KubeletConfiguration.registerNode of type bool');
	});

	it('reads evictionHard as a map of signals to quantities or percentages, replacing the defaults unless told to merge them', () => {
		expect(loadKubeletConfigFile(`${HEADER}evictionHard:\n  memory.available: 500Mi\n  nodefs.available: 10%\n`)).toEqual({ config: { evictionHard: { 'memory.available': '500Mi', 'nodefs.available': '10%' } } });
		// 0% and 100% turn a signal off.
		expect(loadKubeletConfigFile(`${HEADER}evictionHard:\n  memory.available: "0%"\n  pid.available: "2000"\n`)).toEqual({ config: { evictionHard: { 'pid.available': '2000' } } });
		expect(loadKubeletConfigFile(`${HEADER}mergeDefaultEvictionSettings: true\nevictionHard:\n  memory.available: 1Gi\n`)).toEqual({ config: { evictionHard: { 'memory.available': '1Gi', 'nodefs.available': '10%', 'nodefs.inodesFree': '5%', 'imagefs.available': '15%', 'imagefs.inodesFree': '5%' } } });
	});

	it.each([
		['a value that is not a quantity', 'memory.available: lots', 'invalid configuration: failed to parse eviction threshold memory.available<lots'],
		['a signal the kubelet does not know', 'disk.available: 10%', 'invalid configuration: unsupported eviction signal disk.available'],
		['a zero quantity', 'memory.available: "0"', 'invalid configuration: eviction threshold memory.available must be positive: 0'],
		['a percentage over 100', 'nodefs.available: 150%', 'invalid configuration: eviction percentage threshold nodefs.available must be <= 100%: 150%'],
	])('refuses an evictionHard with %s', (_what, entry, error) => {
		expect(loadKubeletConfigFile(`${HEADER}evictionHard:\n  ${entry}\n`).error).toBe(error);
	});

	it('reads evictionSoft with its grace periods and evictionMaxPodGracePeriod, refusing a soft threshold that has no grace period', () => {
		expect(loadKubeletConfigFile(`${HEADER}evictionSoft:\n  memory.available: 1Gi\n  nodefs.available: 20%\nevictionSoftGracePeriod:\n  memory.available: 1m30s\n  nodefs.available: 2m\nevictionMaxPodGracePeriod: 60\n`)).toEqual({
			config: { evictionSoft: { 'memory.available': '1Gi', 'nodefs.available': '20%' }, evictionSoftGracePeriodMs: { 'memory.available': 90_000, 'nodefs.available': 120_000 }, evictionMaxPodGracePeriodSeconds: 60 },
		});
		expect(loadKubeletConfigFile(`${HEADER}evictionSoft:\n  memory.available: 1Gi\n`).error).toBe('invalid configuration: grace period must be specified for the soft eviction threshold memory.available');
		expect(loadKubeletConfigFile(`${HEADER}evictionSoft:\n  memory.available: 1Gi\nevictionSoftGracePeriod:\n  memory.available: later\n`).error).toBe('invalid configuration: failed to parse eviction grace period memory.available=later');
	});

	it.each([
		['another kind', 'apiVersion: v1\nkind: ConfigMap\n', /no kind "ConfigMap" is registered/],
		['a duration that is not one', `${HEADER}syncFrequency: soon\n`, /KubeletConfiguration\.syncFrequency of type time\.Duration/],
		['a period that is not positive', `${HEADER}nodeLeaseDurationSeconds: 0\n`, 'invalid configuration: nodeLeaseDurationSeconds must be greater than 0'],
		['YAML that does not parse', `${HEADER}staticPodPath: [\n`, /^failed to decode: /],
	])('refuses %s', (_what, text, reason) => {
		const { config, error } = loadKubeletConfigFile(text);
		expect(config).toEqual({});
		expect(error).toMatch(reason);
	});
});

describe('a node whose config.yaml is edited', () => {
	it('runs the static pods of the staticPodPath it names, once the kubelet restarts', () => {
		const cluster = createCluster({ seed: 3 });
		const manifest = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: static-web\nspec:\n  containers:\n  - name: web\n    image: nginx:1.29\n';
		cluster.writeFile('/etc/kubernetes/static/web.yaml', manifest, 'node-1');
		cluster.advance('30s');
		expect(cluster.get('pods', 'default', 'static-web-node-1')).toBeUndefined();
		const config = cluster.exec('ssh node-1 cat /var/lib/kubelet/config.yaml').stdout;
		cluster.writeFile('/var/lib/kubelet/config.yaml', config.replace('staticPodPath: /etc/kubernetes/manifests', 'staticPodPath: /etc/kubernetes/static'), 'node-1');
		expect(cluster.exec('ssh node-1 systemctl restart kubelet').exitCode).toBe(0);
		cluster.advance('30s');
		expect(cluster.get('pods', 'default', 'static-web-node-1')?.metadata.annotations?.['kubernetes.io/config.source']).toBe('file');
	});

	it('says in its journal why a broken file was not used, and keeps running', () => {
		const cluster = createCluster({ seed: 3 });
		cluster.writeFile('/var/lib/kubelet/config.yaml', `${HEADER}syncFrequency: soon\n`, 'node-1');
		cluster.exec('ssh node-1 systemctl restart kubelet');
		cluster.advance('10s');
		const journal = cluster.exec('ssh node-1 journalctl -u kubelet --no-pager').stdout;
		expect(journal).toMatch(/"Failed to load kubelet config file, running with the defaults" path="\/var\/lib\/kubelet\/config\.yaml" err="failed to decode: json: cannot unmarshal/);
		expect(cluster.components().find((c) => c.component === 'kubelet' && c.node === 'node-1')?.running).toBe(true);
	});
});
