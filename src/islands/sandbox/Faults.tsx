/**
 * Faults: stop and start each control-plane component and each node's
 * kubelet, container runtime and kube-proxy; cut a node off from the
 * control plane and reconnect it; power a node off and on; set a node's
 * clock back a day (as `date -s` would) and fix it. Each button
 * sends one request; what the cluster does about it shows on the map and in
 * the terminal. Status is in words and a symbol, never colour alone. While
 * a machine is off, its components cannot be started or stopped.
 */
import { useState } from 'preact/hooks';
import type { ComponentView, ClusterView, Request, Response } from '../../sandbox/protocol.ts';

type T = (key: string, values?: Record<string, string | number>) => string;

const CONTROL_PLANE = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'cloud-controller-manager'];
const NODE_COMPONENTS = ['kubelet', 'container-runtime', 'kube-proxy'];
const DAY_MS = 86_400_000;

/** How far a clock is off, in the largest whole units that say it (`1d`, `3h`, `90s`...). */
function offsetText(ms: number): string {
	const abs = Math.abs(ms);
	if (abs % DAY_MS === 0) return `${abs / DAY_MS}d`;
	if (abs % 3_600_000 === 0) return `${abs / 3_600_000}h`;
	if (abs % 60_000 === 0) return `${abs / 60_000}m`;
	return `${Math.round(abs / 1000)}s`;
}

export interface FaultsProps {
	view: ClusterView;
	request: (request: Request) => Promise<Response>;
	t: T;
}

/** A component's state in words and a symbol. */
function stateOf(c: ComponentView, t: T): { symbol: string; text: string; tone: string } {
	if (c.failing) return { symbol: '✕', text: t('sandbox.faults.stopped'), tone: 'bad' };
	if (!c.running) return { symbol: '◌', text: t('sandbox.faults.down'), tone: 'warn' };
	return { symbol: '●', text: t('sandbox.faults.running'), tone: 'ok' };
}

function ComponentRow({ c, request, t, label, off, replica = false }: { c: ComponentView; request: FaultsProps['request']; t: T; label: string; off: boolean; replica?: boolean }) {
	const state = stateOf(c, t);
	const verb = c.failing ? 'start' : 'stop';
	// A control-plane component with replicas on several machines is named by its machine too.
	const isNodeComponent = NODE_COMPONENTS.includes(c.component) || replica;
	return (
		<li class="ca-faults__row">
			<span class="ca-faults__name">{replica ? label : c.component}</span>
			<span class={`ca-faults__state ca-faults__state--${state.tone}`}>
				<span aria-hidden="true">{state.symbol} </span>
				{state.text}
				{replica && c.running && c.leader !== undefined ? ` · ${t(c.leader ? 'sandbox.faults.leader' : 'sandbox.faults.standby')}` : ''}
			</span>
			<button
				type="button"
				class="ca-sbx-btn"
				disabled={off}
				aria-label={t(verb === 'stop' ? 'sandbox.faults.stopLabel' : 'sandbox.faults.startLabel', { component: label })}
				onClick={() => request(isNodeComponent ? { type: 'fault', verb, component: c.component, node: c.node } : { type: 'fault', verb, component: c.component })}
			>
				{t(verb === 'stop' ? 'sandbox.faults.stop' : 'sandbox.faults.start')}
			</button>
		</li>
	);
}

export function Faults({ view, request, t }: FaultsProps) {
	const [problem, setProblem] = useState<string>();
	const send = async (r: Request) => {
		const answer = await request(r);
		setProblem(answer.type === 'error' ? answer.message : undefined);
		return answer;
	};
	const controlPlane = view.components.filter((c) => CONTROL_PLANE.includes(c.component));
	const isOff = (name: string) => view.nodes.some((n) => n.name === name && n.poweredOff);
	return (
		<div class="ca-faults">
			<section>
				<h3 class="ca-sbx-h">{t('sandbox.faults.controlPlane')}</h3>
				<ul class="ca-faults__list">
					{controlPlane.map((c) => {
						const replica = controlPlane.filter((other) => other.component === c.component).length > 1;
						return <ComponentRow key={`${c.component}@${c.node}`} c={c} request={send} t={t} label={replica ? `${c.component} (${c.node})` : c.component} off={isOff(c.node)} replica={replica} />;
					})}
				</ul>
			</section>
			{view.nodes.map((node) => (
				<section key={node.name}>
					<h3 class="ca-sbx-h">{t('sandbox.faults.node', { node: node.name })}</h3>
					<ul class="ca-faults__list">
						{view.components
							.filter((c) => c.node === node.name && NODE_COMPONENTS.includes(c.component))
							.map((c) => (
								<ComponentRow key={c.component} c={c} request={send} t={t} label={`${c.component} (${node.name})`} off={node.poweredOff} />
							))}
						<li class="ca-faults__row">
							<span class="ca-faults__name">{t('sandbox.faults.power')}</span>
							<span class={`ca-faults__state ca-faults__state--${node.poweredOff ? 'bad' : 'ok'}`}>
								<span aria-hidden="true">{node.poweredOff ? '✕ ' : '● '}</span>
								{node.poweredOff ? t('sandbox.faults.poweredOff') : t('sandbox.faults.poweredOn')}
							</span>
							<button
								type="button"
								class="ca-sbx-btn"
								aria-label={t(node.poweredOff ? 'sandbox.faults.powerOnLabel' : 'sandbox.faults.powerOffLabel', { node: node.name })}
								onClick={() => send({ type: 'power', verb: node.poweredOff ? 'powerOn' : 'powerOff', node: node.name })}
							>
								{node.poweredOff ? t('sandbox.faults.powerOn') : t('sandbox.faults.powerOff')}
							</button>
						</li>
						<li class="ca-faults__row">
							<span class="ca-faults__name">{t('sandbox.faults.clock')}</span>
							<span class={`ca-faults__state ca-faults__state--${node.clockOffsetMs ? 'bad' : 'ok'}`}>
								<span aria-hidden="true">{node.clockOffsetMs ? '✕ ' : '● '}</span>
								{node.clockOffsetMs === 0 ? t('sandbox.faults.clockInStep') : t(node.clockOffsetMs < 0 ? 'sandbox.faults.clockBehind' : 'sandbox.faults.clockAhead', { amount: offsetText(node.clockOffsetMs) })}
							</span>
							<button
								type="button"
								class="ca-sbx-btn"
								aria-label={t(node.clockOffsetMs ? 'sandbox.faults.fixClockLabel' : 'sandbox.faults.setClockBackLabel', { node: node.name })}
								onClick={() => send({ type: 'clock', node: node.name, offsetMs: node.clockOffsetMs ? 0 : -DAY_MS })}
							>
								{node.clockOffsetMs ? t('sandbox.faults.fixClock') : t('sandbox.faults.setClockBack')}
							</button>
						</li>
						<li class="ca-faults__row">
							<span class="ca-faults__name">{t('sandbox.faults.network')}</span>
							<span class={`ca-faults__state ca-faults__state--${node.partitioned ? 'bad' : 'ok'}`}>
								<span aria-hidden="true">{node.partitioned ? '✕ ' : '● '}</span>
								{node.partitioned ? t('sandbox.faults.cutOff') : t('sandbox.faults.connected')}
							</span>
							<button
								type="button"
								class="ca-sbx-btn"
								aria-label={t(node.partitioned ? 'sandbox.faults.healLabel' : 'sandbox.faults.partitionLabel', { node: node.name })}
								onClick={() => send({ type: 'network', verb: node.partitioned ? 'heal' : 'partition', node: node.name })}
							>
								{node.partitioned ? t('sandbox.faults.heal') : t('sandbox.faults.partition')}
							</button>
						</li>
					</ul>
				</section>
			))}
			{problem && (
				<p class="ca-faults__problem" role="alert">
					{problem}
				</p>
			)}
			<p class="ca-sbx-note">{t('sandbox.faults.note')}</p>
		</div>
	);
}
