/**
 * Every fault the cluster can suffer, applied one way whoever asks for it:
 * the reader (`cluster.stop()`, the sandbox's buttons), a scenario's
 * planned fault firing on the virtual clock, or a command on a node's own
 * shell (`systemctl stop kubelet`, `poweroff`, `reboot`). Each fault is
 * checked, traced once (one wording per fault, credited to whoever caused
 * it) and carried out here; what differs between the sources is only who
 * records it as an input (the reader's call is an input; a planned fault
 * replays from its plan; a shell command is itself the input).
 *
 * The state of the faults, part of every snapshot:
 * - `failing`: `component@node` pairs made to fail (a stopped static pod
 *   crash-loops until started again; a stopped unit stays down);
 * - `partitions`: nodes cut off from the control plane.
 * A powered-off machine's state lives with the machine (NodeHost); a
 * skewed clock lives with the kernel's clocks (every process reads its
 * machine's time there).
 *
 * Mirrors nothing upstream: the simulator's fault injection.
 */
import type { Kernel } from '../sim/kernel.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import type { NodeHost } from './node-host.ts';

/** A component the reader can stop and start. */
export type Component = 'kube-apiserver' | 'etcd' | 'kube-scheduler' | 'kube-controller-manager' | 'cloud-controller-manager' | 'kubelet' | 'kube-proxy' | 'container-runtime';

export const CONTROL_PLANE_COMPONENTS = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler'] as const;
export const NODE_COMPONENTS = ['kubelet', 'kube-proxy', 'container-runtime'] as const;

/** One fault. */
export type Fault =
	| { verb: 'stop' | 'start'; component: string; node?: string }
	| { verb: 'partition' | 'heal'; node: string }
	/** The machine's clock is set `offsetMs` away from true time (0: back in step), as `date -s` or a drifting RTC would. */
	| { verb: 'setClock'; node: string; offsetMs: number }
	| { verb: 'powerOn'; node: string; /** A reboot coming back up: only if the machine is still in the boot that ended with it. */ afterBoot?: string }
	| {
			verb: 'powerOff';
			node: string;
			/** An orderly shutdown from the node itself (`poweroff`, `reboot`); absent for a power cut. */
			shutdown?: { action: 'poweroff' | 'reboot'; force: boolean };
	  };

/** Who caused a fault, as the trace credits it: `reader`, `scenario`, `systemd/node-1`. */
export interface FaultCause {
	actor: string;
	/** The tool that asked, when it was a command on the node (`systemctl`). */
	via?: string;
}

/** What the faults need from the cluster. */
interface FaultTargets {
	kernel: Kernel;
	hosts: ReadonlyMap<string, NodeHost>;
	controlPlaneNode(): string;
	/** Established watch connections of these processes break (their machine was cut off). */
	closeWatchesOf(processIds: string[]): void;
	/** The reader's ssh session to (or through) this machine is dead. */
	hostWentDown(node: string): void;
	/** A rebooting machine comes back up later, from inside the simulation. */
	planReboot(node: string, afterBoot: string): void;
	/** Whether the cluster runs a cloud-controller-manager (`cloud: true`): its DaemonSet's pod on the control-plane node. */
	hasCloudControllerManager?: boolean;
	/** Whether the machine's cloud instance was deleted (it cannot be powered on again). */
	instanceDeleted?(node: string): boolean;
}

interface FaultsState {
	failing: string[];
	partitions: string[];
}

export class Faults {
	private readonly failing: Set<string>;
	private readonly partitions: Set<string>;

	constructor(
		private readonly targets: FaultTargets,
		restore?: FaultsState,
	) {
		this.failing = new Set(restore?.failing ?? []);
		this.partitions = new Set(restore?.partitions ?? []);
	}

	/** Whether a component on a node has been made to fail. */
	isFailing(component: string, node: string): boolean {
		return this.failing.has(`${component}@${node}`);
	}

	isPartitioned(node: string): boolean {
		return this.partitions.has(node);
	}

	snapshot(): FaultsState {
		return { failing: [...this.failing], partitions: [...this.partitions] };
	}

	/** Why the fault cannot happen (an unknown node, a machine already off...), or undefined. */
	check(fault: Fault): string | undefined {
		if (fault.verb === 'stop' || fault.verb === 'start') {
			const target = this.componentTarget(fault.component as Component, fault.node);
			return typeof target === 'string' ? target : undefined;
		}
		const node = (fault as { node: string }).node;
		const host = this.targets.hosts.get(node);
		if (!host) return `no node named ${node}`;
		if (fault.verb === 'powerOff' && host.poweredOff) return `${node} is already powered off`;
		if (fault.verb === 'powerOn' && !host.poweredOff) return `${node} is already powered on`;
		if (fault.verb === 'powerOn' && this.targets.instanceDeleted?.(node)) return `${node}'s instance was deleted from the cloud: it cannot be powered on`;
		if (fault.verb === 'setClock' && !Number.isFinite(fault.offsetMs)) return `not a clock offset: ${String(fault.offsetMs)}`;
		return undefined;
	}

	/**
	 * Carries a fault out: the trace line, then its effect. Returns false
	 * when it does not apply (check() says why; a stale reboot plan or a
	 * shutdown of a machine already off is simply dropped).
	 */
	apply(fault: Fault, cause: FaultCause): boolean {
		if (this.check(fault) !== undefined) return false;
		const { kernel, hosts } = this.targets;
		switch (fault.verb) {
			case 'stop':
			case 'start': {
				const { host, node } = this.componentTarget(fault.component as Component, fault.node) as { host: NodeHost; node: string };
				const key = `${fault.component}@${node}`;
				if (fault.verb === 'stop') this.failing.add(key);
				else this.failing.delete(key);
				kernel.emit({ component: cause.actor, action: fault.verb, msg: `${fault.verb} ${fault.component}${fault.node ? ` on ${fault.node}` : ''}${cause.via ? ` (${cause.via})` : ''}` });
				host.applyFault(fault.component as Component, fault.verb);
				return true;
			}
			case 'partition':
				this.partitions.add(fault.node);
				kernel.emit({ component: cause.actor, action: 'partition', msg: `cut ${fault.node} off from the control plane` });
				this.targets.closeWatchesOf(hosts.get(fault.node)!.processIds());
				return true;
			case 'setClock': {
				const offset = Math.round(fault.offsetMs);
				const how = offset === 0 ? 'in step with true time again' : `${formatGoDurationMs(Math.abs(offset))} ${offset > 0 ? 'ahead' : 'behind'}`;
				kernel.emit({ component: cause.actor, action: 'set-clock', object: `nodes/${fault.node}`, msg: `set the clock of ${fault.node} ${how}${cause.via ? ` (${cause.via})` : ''}` });
				kernel.setClockOffset(fault.node, offset);
				return true;
			}
			case 'heal':
				this.partitions.delete(fault.node);
				kernel.emit({ component: cause.actor, action: 'heal', msg: `reconnected ${fault.node} to the control plane` });
				return true;
			case 'powerOff': {
				const host = hosts.get(fault.node)!;
				const shutdown = fault.shutdown;
				const msg = shutdown ? `${fault.node} ${shutdown.action === 'reboot' ? 'reboots' : 'powers off'}${shutdown.force ? ' (forced: no orderly stop of its units)' : ''}` : `cut the power of ${fault.node}`;
				kernel.emit({ component: cause.actor, action: 'power-off', object: `nodes/${fault.node}`, msg });
				const boot = host.bootId();
				// A power cut gives the daemons no chance to log their stop; an orderly shutdown does, unless forced.
				if (host.powerOff({ abrupt: shutdown ? shutdown.force : true })) this.targets.hostWentDown(fault.node);
				if (shutdown?.action === 'reboot') this.targets.planReboot(fault.node, boot);
				return true;
			}
			case 'powerOn': {
				const host = hosts.get(fault.node)!;
				if (fault.afterBoot !== undefined && fault.afterBoot !== host.bootId()) return false;
				kernel.emit({ component: cause.actor, action: 'power-on', object: `nodes/${fault.node}`, msg: fault.afterBoot ? `${fault.node} boots again` : `powered ${fault.node} on: it boots` });
				// systemd starts the enabled units at boot, whatever was stopped by hand before.
				this.failing.delete(`kubelet@${fault.node}`);
				this.failing.delete(`container-runtime@${fault.node}`);
				host.powerOn();
				return true;
			}
		}
	}

	private componentTarget(component: Component, node?: string): { host: NodeHost; node: string } | string {
		const cp = this.targets.controlPlaneNode();
		if ((CONTROL_PLANE_COMPONENTS as readonly string[]).includes(component)) {
			// Without a node: the first control-plane machine's (every cluster has it); a replica elsewhere by its machine.
			if (!node || node === cp) return { host: this.targets.hosts.get(cp)!, node: cp };
			const host = this.targets.hosts.get(node);
			if (host?.runsStatic(component)) return { host, node };
			const where = [...this.targets.hosts.values()].filter((h) => h.runsStatic(component)).map((h) => h.name);
			return `${component} runs on ${where.join(', ')}, not ${node}`;
		}
		if ((NODE_COMPONENTS as readonly string[]).includes(component)) {
			if (!node) return `${component} runs on every node: say which`;
			const host = this.targets.hosts.get(node);
			if (!host) return `no node named ${node}`;
			return { host, node };
		}
		if (component === 'cloud-controller-manager' && this.targets.hasCloudControllerManager) {
			if (node && node !== cp) return `${component} runs on ${cp}, not ${node}`;
			return { host: this.targets.hosts.get(cp)!, node: cp };
		}
		if (component === 'cloud-controller-manager') return 'this cluster runs without a cloud-controller-manager (as kubeadm clusters on your own machines do)';
		return `unknown component ${String(component)}`;
	}
}
