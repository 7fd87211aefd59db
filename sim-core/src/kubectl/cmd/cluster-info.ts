/**
 * `kubectl cluster-info`: the control plane's address and the proxy URL of
 * every service labelled `kubernetes.io/cluster-service=true` in kube-system
 * (CoreDNS on a kubeadm cluster), then the hint about `cluster-info dump`.
 * `cluster-info dump` is ./cluster-info-dump.ts.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/clusterinfo/clusterinfo.go
 * (Run, printService).
 */
import type { KubeList, Service } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { apiErrorMessage, errorText } from '../resource-args.ts';
import { runClusterInfoDump } from './cluster-info-dump.ts';
import { leafHelp, parentHelp } from './help.ts';

const DUMP_SUMMARY = 'Dump relevant information for debugging and diagnosis';
const DUMP_HINT = "\nTo further debug and diagnose cluster problems, use 'kubectl cluster-info dump'.\n";

/** utilnet.JoinSchemeNamePort: `scheme:name:port`, dropping empty parts at the ends. */
function joinSchemeNamePort(scheme: string, name: string, port: string): string {
	if (scheme) return `${scheme}:${name}:${port}`;
	return port ? `${name}:${port}` : name;
}

/** Runs `kubectl cluster-info`. */
function runClusterInfo(invocation: KubectlInvocation): CommandResult {
	const { env, args } = invocation;
	if (args.positionals[0] === 'dump') {
		if (args.flags.help === true) return { stdout: leafHelp({ summary: DUMP_SUMMARY, usage: 'kubectl cluster-info dump [flags]' }), stderr: '', exitCode: 0 };
		return runClusterInfoDump(invocation);
	}
	if (args.flags.help === true) return { stdout: parentHelp('kubectl cluster-info', { long: 'Display addresses of the control plane and services with label kubernetes.io/cluster-service=true.\n To further debug and diagnose cluster problems, use \'kubectl cluster-info dump\'.', usage: 'kubectl cluster-info [flags]' }, [{ name: 'dump', summary: DUMP_SUMMARY }]), stderr: '', exitCode: 0 };
	const namespace = typeof args.flags.namespace === 'string' && args.flags.namespace ? args.flags.namespace : 'kube-system';
	const listed = invocation.client.list<Service>(R.services, namespace, { labelSelector: 'kubernetes.io/cluster-service=true' });
	if (!listed.ok) return { stdout: DUMP_HINT, stderr: errorText([apiErrorMessage(listed, env.serverUrl)]), exitCode: 1 };
	let stdout = `Kubernetes control plane is running at ${env.serverUrl}\n`;
	for (const service of (listed.object as KubeList<Service>).items ?? []) {
		let link = '';
		const ingress = service.status?.loadBalancer?.ingress ?? [];
		if (ingress.length) {
			const ip = ingress[0].ip || ingress[0].hostname || '';
			for (const port of service.spec?.ports ?? []) link += `http://${ip}:${port.port} `;
		} else {
			let name = service.metadata.name ?? '';
			const port = service.spec?.ports?.[0];
			if (port) {
				// Guess https from the port's name or number.
				const scheme = port.name === 'https' || port.port === 443 ? 'https' : '';
				name = joinSchemeNamePort(scheme, name, port.name ?? '');
			}
			link = `${env.serverUrl}/api/v1/namespaces/${service.metadata.namespace ?? namespace}/services/${name}/proxy`;
		}
		const title = service.metadata.labels?.['kubernetes.io/name'] || service.metadata.name || '';
		stdout += `${title} is running at ${link}\n`;
	}
	return { stdout: stdout + DUMP_HINT, stderr: '', exitCode: 0 };
}

export const clusterInfoCommand: KubectlCommand = {
	name: 'cluster-info',
	summary: 'Display cluster information',
	usage: 'kubectl cluster-info [flags] [options]',
	subcommands: ['dump'],
	handlesHelp: true,
	flags: [
		// cluster-info dump's own.
		{ name: 'output', short: 'o', kind: 'string', default: 'json' },
		{ name: 'output-directory', kind: 'string' },
		{ name: 'namespaces', kind: 'stringArray' },
		{ name: 'all-namespaces', short: 'A', kind: 'bool' },
		{ name: 'pod-running-timeout', kind: 'duration', default: '20s' },
	],
	run: runClusterInfo,
};
