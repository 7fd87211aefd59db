/**
 * `kubectl expose (TYPE NAME | TYPE/NAME) [--port=P] [--target-port=T]
 * [--type=ClusterIP|NodePort|LoadBalancer] [--name=N]`: creates a Service
 * selecting the object's pods (its selector, or a pod's labels), on the
 * given port or the container ports found in its template, and prints
 * `service/nginx exposed`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/expose/expose.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/canbeexposed.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/mapbasedselectorforobject.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/portsforobject.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/protocolsforobject.go.
 */
import type { KubeObject, LabelSelector } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { resourceByName } from '../../api/resources.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { exposedService } from './create-generators.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter } from './print-flags.ts';
import { isFatalCall, typed } from './resource-info.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';

/** DNS-1035 label limit: a longer object name is cut for the Service's default name. */
const DNS1035_LABEL_MAX_LENGTH = 63;

type PodSpecLike = { containers?: Array<{ ports?: Array<{ containerPort: number; protocol?: string }> }> };

/** The pod spec inside an object (a Pod's own, or a template's). */
function podSpecOf(obj: KubeObject): PodSpecLike | undefined {
	if (obj.kind === 'Pod') return obj.spec as PodSpecLike;
	return (obj.spec as { template?: { spec?: PodSpecLike } } | undefined)?.template?.spec;
}

/** MapBasedSelectorForObject: `k=v,...` from labels, a selector's matchLabels, or a Service's selector. */
function selectorFor(obj: KubeObject): string | KubectlError {
	const pairs = (m: Record<string, string> | undefined) =>
		Object.keys(m ?? {})
			.sort()
			.map((k) => `${k}=${(m as Record<string, string>)[k]}`)
			.join(',');
	switch (obj.kind) {
		case 'Pod':
			if (!Object.keys(obj.metadata.labels ?? {}).length) return plain('the pod has no labels and cannot be exposed');
			return pairs(obj.metadata.labels);
		case 'Service':
			if (!Object.keys((obj.spec as { selector?: Record<string, string> }).selector ?? {}).length) return plain('the service has no pod selector set');
			return pairs((obj.spec as { selector?: Record<string, string> }).selector);
		case 'Deployment':
		case 'ReplicaSet': {
			const selector = (obj.spec as { selector?: LabelSelector }).selector;
			if (selector?.matchExpressions?.length) return plain(`couldn't convert expressions - "${JSON.stringify(selector.matchExpressions)}" to map-based selector format`);
			return pairs(selector?.matchLabels);
		}
		default:
			return plain(`cannot extract pod selector from ${obj.kind}`);
	}
}

/** PortsForObject and ProtocolsForObject: the distinct ports (in order) and each port's protocols. */
function portsFor(obj: KubeObject): { ports: string[]; protocols: Map<string, string[]> } {
	const ports: string[] = [];
	const protocols = new Map<string, string[]>();
	const add = (port: number, protocol: string | undefined) => {
		const key = String(port);
		if (!ports.includes(key)) ports.push(key);
		const list = protocols.get(key) ?? [];
		if (!list.includes(protocol ?? 'TCP')) list.push(protocol ?? 'TCP');
		protocols.set(key, list);
	};
	if (obj.kind === 'Service') for (const p of (obj.spec as { ports?: Array<{ port: number; protocol?: string }> }).ports ?? []) add(p.port, p.protocol);
	else for (const c of podSpecOf(obj)?.containers ?? []) for (const p of c.ports ?? []) add(p.containerPort, p.protocol);
	return { ports, protocols };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const visited = visit(inv, { allowEmptySelector: false, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: dry.stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal, '', dry.stderr);
	let stdout = '';
	const errors: KubectlError[] = [...visited.errors];
	const info = resourceByName('', 'services')!;
	for (const target of visited.targets) {
		const obj = target.object as KubeObject;
		if (!['Pod', 'Service', 'Deployment', 'ReplicaSet', 'ReplicationController'].includes(obj.kind)) {
			errors.push(plain(`cannot expose a ${obj.kind}${target.info.group ? `.${target.info.group}` : ''}`));
			continue;
		}
		let selectorText = String(flags.selector ?? '');
		if (!selectorText) {
			const found = selectorFor(obj);
			if (typeof found !== 'string') {
				errors.push(plain(`couldn't retrieve selectors via --selector flag or introspection: ${found.kind === 'plain' ? found.message : ''}`));
				continue;
			}
			selectorText = found;
		}
		const headless = flags['cluster-ip'] === 'None';
		let ports: number[] = [];
		const { ports: found, protocols } = portsFor(obj);
		if (flags.port) ports = [Number(flags.port)];
		else if (found.length === 0 && !headless) {
			errors.push(plain("couldn't find port via --port flag or introspection"));
			continue;
		} else ports = found.map(Number);
		const selector: Record<string, string> = {};
		for (const pair of selectorText.split(',').filter(Boolean)) {
			const [k, v] = pair.split('=');
			selector[k] = v ?? '';
		}
		let labels: Record<string, string> | undefined;
		if (flags.labels) {
			labels = {};
			for (const pair of String(flags.labels).split(',')) {
				const [k, v] = pair.split('=');
				labels[k] = v ?? '';
			}
		} else if (obj.metadata.labels) labels = { ...obj.metadata.labels };
		const protocol = String(flags.protocol ?? '') || (ports.length === 1 && (protocols.get(String(ports[0])) ?? []).length === 1 ? (protocols.get(String(ports[0])) as string[])[0] : '');
		const name = String(flags.name ?? '') || target.name.slice(0, DNS1035_LABEL_MAX_LENGTH);
		const svc = exposedService({
			name,
			selector,
			labels,
			ports,
			portName: String(flags['port-name'] ?? ''),
			protocol,
			targetPort: String(flags['target-port'] ?? ''),
			type: String(flags.type ?? ''),
			clusterIP: String(flags['cluster-ip'] ?? ''),
			externalIP: String(flags['external-ip'] ?? ''),
			sessionAffinity: String(flags['session-affinity'] ?? ''),
		});
		if ('error' in svc) {
			errors.push(svc.error);
			continue;
		}
		if (dry.strategy === 'client') {
			stdout += printer.printer(args.set.has('namespace') ? { ...svc.object, metadata: { ...svc.object.metadata, namespace: inv.namespace } } : svc.object, 'exposed');
			continue;
		}
		const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(flags['field-manager'] || 'kubectl-expose') };
		if (dry.strategy === 'server') query.dryRun = 'All';
		const created = inv.client.create(R.services, inv.namespace, svc.object, query);
		if (!created.ok) {
			if (isFatalCall(created)) return checkErr(callError(created, inv.env.serverUrl), stdout, dry.stderr);
			errors.push(callError(created, inv.env.serverUrl));
			continue;
		}
		stdout += printer.printer(typed(info, created.object), 'exposed');
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, dry.stderr);
	return { stdout, stderr: dry.stderr, exitCode: 0 };
}

export const exposeCommand: KubectlCommand = {
	name: 'expose',
	summary: 'Take a replication controller, service, deployment or pod and expose it as a new Kubernetes service',
	usage: 'kubectl expose (-f FILENAME | TYPE NAME) [--port=port] [--protocol=TCP|UDP|SCTP] [--target-port=number-or-name] [--name=name] [--external-ip=external-ip-of-service] [--type=type]',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'protocol', kind: 'string' },
		{ name: 'port', kind: 'string' },
		{ name: 'type', kind: 'string' },
		{ name: 'load-balancer-ip', kind: 'string' },
		{ name: 'selector', kind: 'string' },
		{ name: 'labels', short: 'l', kind: 'string' },
		{ name: 'target-port', kind: 'string' },
		{ name: 'external-ip', kind: 'string' },
		{ name: 'name', kind: 'string' },
		{ name: 'session-affinity', kind: 'string' },
		{ name: 'cluster-ip', kind: 'string' },
		{ name: 'override-type', kind: 'string', default: 'merge' },
		{ name: 'overrides', kind: 'string' },
		{ name: 'save-config', kind: 'bool' },
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		FIELD_MANAGER_FLAG('kubectl-expose'),
	],
	run,
};
