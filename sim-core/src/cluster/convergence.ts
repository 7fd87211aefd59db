/**
 * What settle() still waits for when no event is pending: the work a real
 * cluster does by itself on timers that the kernel files as housekeeping.
 * A component whose fault was healed is restarted by its kubelet on the
 * kubelet's own clock (a static pod's manifest is re-read every 20 s, a
 * crash-looping container waits out its back-off); a controller that came
 * back campaigns for its Lease every 2 s and may wait out the old holder's
 * 15 s; an informer that lost the API server retries with back-off. Each of
 * those is background until it matters, so the kernel's pending-work count
 * alone would call the cluster settled while the scheduler is still down.
 *
 * The rule is "will the cluster change by itself if we wait?": a component
 * that a fault still holds down, or whose API server is unreachable, is not
 * waited for (it cannot converge until the reader heals the fault), so a
 * settle() over a broken cluster still returns as soon as it is quiet.
 *
 * Mirrors nothing upstream: the simulator's notion of a converged cluster.
 */
import type { Pod } from '../api/types.ts';
import { isPodReady } from '../controllers/pod-util.ts';
import type { Kernel } from '../sim/kernel.ts';
import type { NodeHost } from './node-host.ts';

/** A leader-elected process and the Lease it campaigns for. */
export interface Candidate {
	processId: string;
	lease: string;
	isLeader: boolean;
}

/** What the check reads of the cluster. */
export interface ConvergenceView {
	kernel: Kernel;
	hosts: ReadonlyMap<string, NodeHost>;
	isFailing(component: string, node: string): boolean;
	/** Whether `processId` can reach a working API server now (its machine on and connected, the API server and etcd up). */
	reachesApiServer(processId: string): boolean;
	/** The control-plane processes a machine runs as static pods (manifest name = component), with their process ids. */
	staticComponents(host: NodeHost): Array<{ component: string; processId: string }>;
	/** Every leader-elected process (kube-scheduler, kube-controller-manager, cloud-controller-manager replicas). */
	candidates(): Candidate[];
	/** The Pods of kube-system, as stored. */
	systemPods(): readonly Pod[];
}

const MANIFEST_DIR = '/etc/kubernetes/manifests';

/** Why the cluster has not converged yet, one line per reason; empty when it has. */
export function unconverged(view: ConvergenceView): string[] {
	const { kernel } = view;
	const reasons: string[] = [];
	let pods: readonly Pod[] | undefined;
	const systemPods = () => (pods ??= view.systemPods());
	for (const host of view.hosts.values()) {
		// Only a running kubelet over a running runtime restarts anything.
		if (host.poweredOff || !kernel.isRunning(host.kubelet.id) || !kernel.isRunning(host.runtime.id)) continue;
		const reportsStatus = view.reachesApiServer(host.kubelet.id);
		for (const { component, processId } of view.staticComponents(host)) {
			if (view.isFailing(component, host.name)) continue;
			// A manifest the reader moved away is a static pod the kubelet no longer runs.
			if (!host.fs.exists(`${MANIFEST_DIR}/${component}.yaml`)) continue;
			if (!kernel.isRunning(processId)) reasons.push(`${component} on ${host.name}: waiting for the kubelet to restart it`);
			// Running is not yet serving: its mirror Pod turns Ready once the kubelet's probes pass.
			else if (reportsStatus && host.registersNode && !isPodReadyIfAny(systemPods().find((p) => p.metadata.name === `${component}-${host.name}`))) reasons.push(`${component}-${host.name}: not Ready yet`);
		}
		if (!view.isFailing('kube-proxy', host.name) && !host.kubeProxyRunning() && systemPods().some((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy' && p.spec.nodeName === host.name)) {
			reasons.push(`kube-proxy on ${host.name}: waiting for the kubelet to restart it`);
		}
	}
	const byLease = new Map<string, Candidate[]>();
	for (const c of view.candidates()) byLease.set(c.lease, [...(byLease.get(c.lease) ?? []), c]);
	for (const [lease, group] of byLease) {
		const campaigning = group.filter((c) => kernel.isRunning(c.processId) && view.reachesApiServer(c.processId));
		if (campaigning.length > 0 && !group.some((c) => c.isLeader && kernel.isRunning(c.processId))) reasons.push(`Lease kube-system/${lease}: no replica leads yet`);
	}
	for (const processId of kernel.reconnecting()) {
		if (kernel.isRunning(processId) && view.reachesApiServer(processId)) reasons.push(`${processId}: reconnecting to the API server`);
	}
	return reasons;
}

function isPodReadyIfAny(pod: Pod | undefined): boolean {
	return pod !== undefined && isPodReady(pod);
}
