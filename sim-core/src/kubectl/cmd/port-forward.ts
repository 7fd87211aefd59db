/**
 * `kubectl port-forward TYPE/NAME [LOCAL_PORT:]REMOTE_PORT...`: picks the
 * Pod (a workload's or a Service's most active one), turns a Service's port
 * into the container port its targetPort names and a named container port
 * into its number, refuses a Pod that is not Running, then listens on each
 * local port at each `--address` (`localhost` is 127.0.0.1 and ::1, and
 * only one of the two has to bind) and says `Forwarding from ... -> ...`
 * per listener. The listeners stay after the command: the machine's
 * LocalListener keeps them as a job, and each connection to one reaches the
 * Pod's port from inside the Pod (the server sees 127.0.0.1).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/portforward/portforward.go,
 * staging/src/k8s.io/client-go/tools/portforward/portforward.go
 * (parsePorts, parseAddresses, the listeners and their messages),
 * staging/src/k8s.io/kubectl/pkg/util/service_port.go (the Service port
 * lookups), staging/src/k8s.io/kubectl/pkg/util/pod_port.go (the container
 * port lookup).
 */
import type { Pod, Service } from '../../api/types.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { R, refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation, ListenedPort } from '../kubectl.ts';
import { resolveResourceName } from '../resource-args.ts';
import { callError, checkErr, plain, usageError } from './check-err.ts';
import { byActivity, podForObject } from './pod-for-object.ts';
import type { CommandResult } from '../../shell/types.ts';

/** `[LOCAL:]REMOTE` split as splitPort does: one part is both. */
function splitPort(spec: string): [string, string] {
	const parts = spec.split(':');
	return parts.length === 2 ? [parts[0], parts[1]] : [parts[0], parts[0]];
}

const isNumber = (text: string) => /^[+-]?\d+$/.test(text);

/** util.LookupContainerPortNumberByName. */
function containerPortByName(pod: Pod, name: string): number | string {
	for (const c of pod.spec?.containers ?? []) for (const p of c.ports ?? []) if (p.name === name) return p.containerPort;
	return `Pod '${pod.metadata.name}' does not have a named port '${name}'`;
}

/** translateServicePortToTargetPort: each spec's remote part becomes the container port behind the Service's port. */
function servicePorts(specs: string[], svc: Service, pod: Pod): string[] | string {
	const out: string[] = [];
	for (const spec of specs) {
		let [local, remote] = splitPort(spec);
		let port: number;
		if (isNumber(remote)) port = Number(remote);
		else {
			const named = (svc.spec?.ports ?? []).find((p) => p.name === remote);
			if (!named) return `Service '${svc.metadata.name}' does not have a named port '${remote}'`;
			port = named.port;
			if (local === remote) local = String(port);
		}
		const svcPort = (svc.spec?.ports ?? []).find((p) => p.port === port);
		if (!svcPort) return `Service ${svc.metadata.name} does not have a service port ${port}`;
		const target = svcPort.targetPort;
		const container = target === undefined || target === 0 || target === '' ? port : typeof target === 'number' ? target : isNumber(target) ? Number(target) : containerPortByName(pod, target);
		if (typeof container === 'string') return container;
		remote = String(container);
		out.push(local !== remote ? `${local}:${remote}` : remote);
	}
	return out;
}

/** convertPodNamedPortToNumber. */
function podPorts(specs: string[], pod: Pod): string[] | string {
	const out: string[] = [];
	for (const spec of specs) {
		const [local, remote] = splitPort(spec);
		if (remote === '') return 'remote port cannot be empty';
		let number = remote;
		if (!isNumber(remote)) {
			const found = containerPortByName(pod, remote);
			if (typeof found === 'string') return found;
			number = String(found);
		}
		out.push(local !== remote ? `${local}:${number}` : number);
	}
	return out;
}

/** Go's strconv.ParseUint(s, 10, 16) error text, or the value. */
function parseUint16(text: string): number | string {
	if (!/^\d+$/.test(text)) return `strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`;
	const n = Number(text);
	return n > 65535 ? `strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range` : n;
}

/** client-go parsePorts. */
function parsePorts(specs: string[]): ListenedPort[] | string {
	const ports: ListenedPort[] = [];
	for (const spec of specs) {
		const parts = spec.split(':');
		const [localText, remoteText] = parts.length === 2 ? [parts[0] || '0', parts[1]] : parts.length === 1 ? [parts[0], parts[0]] : [undefined, undefined];
		if (localText === undefined || remoteText === undefined) return `invalid port format '${spec}'`;
		const local = parseUint16(localText);
		if (typeof local === 'string') return `error parsing local port '${localText}': ${local}`;
		const remote = parseUint16(remoteText);
		if (typeof remote === 'string') return `error parsing remote port '${remoteText}': ${remote}`;
		if (remote === 0) return `remote port must be > 0`;
		ports.push({ local, remote });
	}
	return ports;
}

/** One listener to create: net.Listen's network, the address, and whether its failure alone fails the port (`any`) or only together with its group's (`all`, for localhost). */
interface Bind {
	protocol: 'tcp4' | 'tcp6';
	address: string;
	failureMode: 'all' | 'any';
}

/** client-go parseAddresses: `localhost` is both loopbacks (either may fail), an IP is itself (it must bind). */
function parseAddresses(addresses: string[]): Bind[] | string {
	const binds: Bind[] = [];
	for (const address of addresses) {
		if (address === 'localhost') {
			binds.push({ protocol: 'tcp4', address: '127.0.0.1', failureMode: 'all' }, { protocol: 'tcp6', address: '::1', failureMode: 'all' });
		} else if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address) && address.split('.').every((o) => Number(o) < 256)) {
			binds.push({ protocol: 'tcp4', address, failureMode: 'any' });
		} else if (address.includes(':') && /^[0-9a-fA-F:]+$/.test(address)) {
			binds.push({ protocol: 'tcp6', address, failureMode: 'any' });
		} else return `${address} is not a valid IP`;
	}
	// Duplicates bind once (parseAddresses keeps a set).
	return binds.filter((b, i) => binds.findIndex((o) => o.address === b.address) === i);
}

/** net.JoinHostPort. */
const joinHostPort = (host: string, port: number) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`);

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const words = [...args.positionals, ...args.passthrough];
	if (words.length < 2) return checkErr(usageError('kubectl port-forward', 'TYPE/NAME and list of ports are required for port-forward'));
	if (!(parseGoDurationMs(String(args.flags['pod-running-timeout'] ?? '1m0s')) > 0)) return checkErr(usageError('kubectl port-forward', '--pod-running-timeout must be higher than zero'));
	const listener = inv.env.listener;

	// builder.ResourceNames("pods", NAME): a bare name is a Pod.
	const type = resolveResourceName(words[0]);
	if (!type.ok) return checkErr(plain(type.error));
	const got = inv.client.get(refOf(type.info), type.info.namespaced ? inv.namespace : undefined, type.name);
	if (!got.ok) return checkErr(callError(got, inv.env.serverUrl));
	const obj = { ...got.object, kind: type.info.kind };
	const chosen = podForObject(inv, obj, byActivity, 'attach');
	if ('error' in chosen) return checkErr(chosen.error);
	const pod = chosen.pod as Pod;
	const specs = words.slice(1);
	const translated = obj.kind === 'Service' ? servicePorts(specs, obj as Service, pod) : podPorts(specs, pod);
	if (typeof translated === 'string') return checkErr(plain(translated));

	// RunPortForward: the Pod as it is now must be Running.
	const fresh = inv.client.get<Pod>(R.pods, pod.metadata.namespace ?? inv.namespace, pod.metadata.name ?? '');
	if (!fresh.ok) return checkErr(callError(fresh, inv.env.serverUrl));
	const phase = fresh.object.status?.phase ?? '';
	if (phase !== 'Running') return checkErr(plain(`unable to forward port because pod is not running. Current status=${phase}`));
	if (!listener) return checkErr(plain('port-forward in this sandbox listens on the reader\'s workstation only: run it there, then curl localhost from there'));

	const addressFlag = args.flags.address;
	const binds = parseAddresses((Array.isArray(addressFlag) ? addressFlag : String(addressFlag ?? 'localhost').split(',')).filter(Boolean));
	if (typeof binds === 'string') return checkErr(plain(binds));
	const ports = parsePorts(translated);
	if (typeof ports === 'string') return checkErr(plain(ports));

	let stdout = '';
	let stderr = '';
	const listening: ListenedPort[] = [];
	const bound = new Set<string>();
	for (const port of ports) {
		const failures: string[] = [];
		const success = { all: 0, any: 0 };
		const failed = { all: 0, any: 0 };
		const here: string[] = [];
		for (const bind of binds) {
			const canBind = bind.address === '0.0.0.0' || bind.address === '::' || bind.address === '127.0.0.1' || bind.address === '::1' || bind.address === listener.hostIp;
			if (port.local === 0) port.local = listener.freePort();
			const problem = !canBind ? 'bind: cannot assign requested address' : listener.inUse(bind.address, port.local) || bound.has(`${bind.address}:${port.local}`) ? 'bind: address already in use' : undefined;
			if (problem) {
				failures.push(`unable to create listener: Error listen ${bind.protocol} ${joinHostPort(bind.address, port.local)}: ${problem}`);
				failed[bind.failureMode]++;
				continue;
			}
			success[bind.failureMode]++;
			here.push(bind.address);
			stdout += `Forwarding from ${joinHostPort(bind.address, port.local)} -> ${port.remote}\n`;
		}
		const portFailed = (success.all === 0 && failed.all > 0) || failed.any > 0;
		if (portFailed) {
			stderr += `Unable to listen on port ${port.local}: Listeners failed to create with the following errors: [${failures.join(' ')}]\n`;
			continue;
		}
		for (const address of here) bound.add(`${address}:${port.local}`);
		listening.push(port);
	}
	if (!listening.length) {
		const result = checkErr(plain(`unable to listen on any of the requested ports: [${ports.map((p) => `{${p.local} ${p.remote}}`).join(' ')}]`));
		return { ...result, stdout, stderr: stderr + result.stderr };
	}
	listener.listen({
		kind: 'port-forward',
		addresses: [...new Set([...bound].map((b) => b.slice(0, b.lastIndexOf(':'))))],
		ports: listening,
		pod: { namespace: pod.metadata.namespace ?? inv.namespace, name: pod.metadata.name ?? '', uid: fresh.object.metadata.uid ?? '' },
	});
	return { stdout, stderr, exitCode: 0 };
}

export const portForwardCommand: KubectlCommand = {
	name: 'port-forward',
	summary: 'Forward one or more local ports to a pod',
	usage: 'kubectl port-forward TYPE/NAME [options] [LOCAL_PORT:]REMOTE_PORT [...[LOCAL_PORT_N:]REMOTE_PORT_N]',
	flags: [
		{ name: 'address', kind: 'stringArray', default: ['localhost'] },
		{ name: 'pod-running-timeout', kind: 'duration', default: '1m0s' },
	],
	run,
};
