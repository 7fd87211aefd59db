/**
 * The host ports a Pod asks for, and which ones a node's Pods already hold:
 * the scheduler's NodePorts filter and the kubelet's admission must agree
 * on what conflicts, or the kubelet rejects Pods the scheduler placed.
 * Sidecars (restartable init containers) hold their ports for the Pod's
 * life, so they count; ordinary init containers do not.
 *
 * Mirrors pkg/scheduler/util/utils.go (GetHostPorts),
 * staging/src/k8s.io/kube-scheduler/framework/types.go (HostPortInfo),
 * pkg/kubelet/lifecycle/predicate.go (the kubelet's caller, through
 * nodeports.Fits).
 */
import type { PodSpec } from '../api/types.ts';
import { isRestartableInitContainer } from './resource.ts';

/** The address a host port binds when none is given (DefaultBindAllHostIP). */
const DEFAULT_BIND_ALL_HOST_IP = '0.0.0.0';

/** One port a container asks of its host. */
export interface HostPort {
	hostIP: string;
	protocol: string;
	hostPort: number;
}

/** schedutil.GetHostPorts: host ports of the containers and of restartable init containers. */
export function getHostPorts(spec: PodSpec): HostPort[] {
	const out: HostPort[] = [];
	const take = (ports: PodSpec['containers'][number]['ports']) => {
		for (const p of ports ?? []) if ((p.hostPort ?? 0) > 0) out.push({ hostIP: p.hostIP ?? '', protocol: p.protocol ?? '', hostPort: p.hostPort! });
	};
	for (const c of spec.initContainers ?? []) if (isRestartableInitContainer(c)) take(c.ports);
	for (const c of spec.containers ?? []) take(c.ports);
	return out;
}

/** framework.HostPortInfo: ip -> "protocol/port" -> how many pods hold it. */
export class HostPortInfo {
	private readonly byIp = new Map<string, Map<string, number>>();

	private static sanitize(ip: string, protocol: string): [string, string] {
		return [ip || DEFAULT_BIND_ALL_HOST_IP, protocol || 'TCP'];
	}

	add(ip: string, protocol: string, port: number): void {
		const [i, p] = HostPortInfo.sanitize(ip, protocol);
		let ports = this.byIp.get(i);
		if (!ports) this.byIp.set(i, (ports = new Map()));
		const key = `${p}/${port}`;
		ports.set(key, (ports.get(key) ?? 0) + 1);
	}

	remove(ip: string, protocol: string, port: number): void {
		const [i, p] = HostPortInfo.sanitize(ip, protocol);
		const ports = this.byIp.get(i);
		if (!ports) return;
		const key = `${p}/${port}`;
		const n = (ports.get(key) ?? 0) - 1;
		if (n > 0) ports.set(key, n);
		else ports.delete(key);
		if (ports.size === 0) this.byIp.delete(i);
	}

	/**
	 * HostPortInfo.CheckConflict: 0.0.0.0 conflicts with the same
	 * protocol/port on any address; a specific address conflicts with itself
	 * and with 0.0.0.0.
	 */
	checkConflict(ip: string, protocol: string, port: number): boolean {
		if (port <= 0) return false;
		const [i, p] = HostPortInfo.sanitize(ip, protocol);
		const key = `${p}/${port}`;
		if (i === DEFAULT_BIND_ALL_HOST_IP) {
			for (const ports of this.byIp.values()) if (ports.has(key)) return true;
			return false;
		}
		return !!this.byIp.get(DEFAULT_BIND_ALL_HOST_IP)?.has(key) || !!this.byIp.get(i)?.has(key);
	}

	get size(): number {
		return this.byIp.size;
	}

	clone(): HostPortInfo {
		const copy = new HostPortInfo();
		for (const [ip, ports] of this.byIp) copy.byIp.set(ip, new Map(ports));
		return copy;
	}
}
