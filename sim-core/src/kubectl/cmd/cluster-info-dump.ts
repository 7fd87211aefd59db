/**
 * `kubectl cluster-info dump`: what a cluster is doing, for a bug report
 * or a first look at a broken cluster. The Nodes, then for each namespace
 * (kube-system and the current one, `--namespaces`, or `-A`) its events,
 * replication controllers, services, daemon sets, deployments, replica sets
 * and pods as JSON lists, and every container's log between START and END
 * lines; with `--output-directory` each list goes to its own file
 * (nodes.json, NAMESPACE/pods.json, NAMESPACE/POD/logs.txt) and the command
 * says where.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo_dump.go.
 */
import type { KubeList, KubeObject, Pod } from '../../api/types.ts';
import { R, type ResourceRef } from '../../client/client.ts';
import { typedJsonLikeKubectl, type JsonValue } from '../../golang/json.ts';
import { inGoOrder } from '../../api/go-field-order.ts';
import { stringifyYaml } from '../../yaml/stringify.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { pathError } from './cp.ts';
import { logText } from './logs.ts';

/** The lists of each namespace, in the order the dump writes them, with their file names. */
const NAMESPACED: ReadonlyArray<{ ref: ResourceRef; file: string; kind: string; apiVersion: string }> = [
	{ ref: R.events, file: 'events', kind: 'EventList', apiVersion: 'v1' },
	{ ref: { group: '', version: 'v1', resource: 'replicationcontrollers' }, file: 'replication-controllers', kind: 'ReplicationControllerList', apiVersion: 'v1' },
	{ ref: R.services, file: 'services', kind: 'ServiceList', apiVersion: 'v1' },
	{ ref: { group: 'apps', version: 'v1', resource: 'daemonsets' }, file: 'daemonsets', kind: 'DaemonSetList', apiVersion: 'apps/v1' },
	{ ref: { group: 'apps', version: 'v1', resource: 'deployments' }, file: 'deployments', kind: 'DeploymentList', apiVersion: 'apps/v1' },
	{ ref: { group: 'apps', version: 'v1', resource: 'replicasets' }, file: 'replicasets', kind: 'ReplicaSetList', apiVersion: 'apps/v1' },
	{ ref: R.pods, file: 'pods', kind: 'PodList', apiVersion: 'v1' },
];

export function runClusterInfoDump(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const format = String(args.flags.output || 'json');
	if (format !== 'json' && format !== 'yaml') return checkErr(plain(`unable to match a printer suitable for the output format "${format}", allowed formats are: json,yaml`));
	const outputDir = String(args.flags['output-directory'] ?? '');
	const toFiles = outputDir !== '' && outputDir !== '-';
	const files = inv.env.localFiles;
	if (toFiles && !files) return checkErr(plain('--output-directory needs a file system to write to'));
	const extension = format === 'json' ? '.json' : '.yaml';
	let stdout = '';
	const write = (path: string, text: string): KubectlError | undefined => {
		if (!toFiles) {
			stdout += text;
			return undefined;
		}
		const full = `${outputDir.replace(/\/$/, '')}/${path}`;
		const failed = files!.mkdirAll(full.slice(0, full.lastIndexOf('/'))) ?? files!.write(full, text);
		return failed ? pathError('open', full, failed) : undefined;
	};
	let printed = 0;
	// A typed client's list: the list carries its kind, its items do not (TypeSetterPrinter sets only the top level).
	const print = (list: KubeList<KubeObject>, kind: string, apiVersion: string) => {
		const items = (list.items ?? []).map((item) => {
			const rest: Record<string, unknown> = { ...item };
			delete rest.apiVersion;
			delete rest.kind;
			return rest;
		});
		const out = { kind, apiVersion, metadata: { resourceVersion: list.metadata?.resourceVersion ?? '' }, items } as unknown as JsonValue;
		// Typed structs: Go's field order in JSON; YAML (through JSON to a map) sorts the keys, and the one
		// YAML printer of the run puts `---` before every object after its first, whichever file it goes to.
		if (format === 'json') return typedJsonLikeKubectl(inGoOrder(out));
		return `${printed++ > 0 ? '---\n' : ''}${stringifyYaml(out)}`;
	};
	const nodes = inv.client.list(R.nodes);
	if (!nodes.ok) return checkErr(callError(nodes, inv.env.serverUrl));
	let failed = write(`nodes${extension}`, print(nodes.object, 'NodeList', 'v1'));
	if (failed) return checkErr(failed);
	let namespaces: string[];
	if (args.flags['all-namespaces'] === true) {
		const listed = inv.client.list(R.namespaces);
		if (!listed.ok) return checkErr(callError(listed, inv.env.serverUrl), stdout);
		namespaces = (listed.object.items ?? []).map((n) => n.metadata.name ?? '');
	} else {
		const named = (args.flags.namespaces as string[] | undefined) ?? [];
		namespaces = named.length ? named : ['kube-system', inv.namespace];
	}
	for (const namespace of namespaces) {
		let pods: Pod[] = [];
		for (const { ref, file, kind, apiVersion } of NAMESPACED) {
			const listed = inv.client.list(ref, namespace);
			if (!listed.ok) return checkErr(callError(listed, inv.env.serverUrl), stdout);
			if (ref === R.pods) pods = (listed.object.items ?? []) as Pod[];
			failed = write(`${namespace}/${file}${extension}`, print(listed.object, kind, apiVersion));
			if (failed) return checkErr(failed, stdout);
		}
		for (const pod of pods) {
			let text = '';
			for (const container of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
				const where = `container ${container.name} of pod ${pod.metadata.namespace}/${pod.metadata.name}`;
				text += `==== START logs for ${where} ====\n`;
				const log = inv.client.call<unknown>({ verb: 'get', ...R.pods, namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'log', query: { container: container.name } });
				if (log.ok) text += logText(log.object);
				else text += `Request log error: ${log.message}\n`;
				text += `==== END logs for ${where} ====\n`;
			}
			failed = write(`${namespace}/${pod.metadata.name}/logs.txt`, text);
			if (failed) return checkErr(failed, stdout);
		}
	}
	if (toFiles) stdout += `Cluster info dumped to ${outputDir}\n`;
	return { stdout, stderr: '', exitCode: 0 };
}
