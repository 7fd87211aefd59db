/**
 * The cluster map: the control plane's components (health in words and
 * shapes, the leader marked), the messages moving between components, and
 * each node with its status, taints, resource use and pods. Everything is
 * read from the view; a click (or Enter) on anything opens the inspector.
 * While etcd or kube-apiserver is down, a note says that the states shown
 * are as last recorded; after they return, what the cluster still waits
 * for (a leader for its Lease).
 * Rendered on the server too, as the sandbox's picture without JavaScript.
 */
import { useId } from 'preact/hooks';
import type { PanelProps } from '../panel-props.ts';
import type { ComponentView, MessageView, NodeView, PodView } from '../../../sandbox/protocol.ts';
import {
	componentLook,
	drawableMessages,
	flowLayout,
	formatBytes,
	formatCpu,
	inspectTargetOfComponent,
	mapNotices,
	statesAsLastRecorded,
	nodeLook,
	percentOf,
	podGlyph,
	podTone,
	podsByNode,
	widthClass,
} from '../../../sandbox/panels/map.ts';
import { Clickable } from './shared.tsx';
import './panels.css';

type T = PanelProps['t'];

const CONTROL_PLANE = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'cloud-controller-manager'];

/** A component that runs on several control-plane machines (etcd members, standby replicas) is named with its machine. */
function ComponentItem({ c, props, replicated }: { c: ComponentView; props: PanelProps; replicated: boolean }) {
	const look = componentLook(c);
	const status = props.t(look.key);
	const leader = c.leader ? props.t('sandbox.map.leader') : '';
	return (
		<li>
			<Clickable live={props.live} class={`ca-chip ca-tone-${look.tone}`} onClick={() => props.open('inspector', inspectTargetOfComponent(c))}>
				<span class="ca-glyph" aria-hidden="true">
					{look.glyph}
				</span>{' '}
				<span class="ca-chip__name">{c.component}</span>
				{replicated && <span class="ca-chip__node"> ({c.node})</span>} <span class="ca-chip__status">{status}</span>
				{leader && (
					<>
						{' '}
						<span class="ca-badge">★ {leader}</span>
					</>
				)}
			</Clickable>
		</li>
	);
}

function Bar({ label, used, total, text, t }: { label: string; used: number; total: number; text: string; t: T }) {
	const percent = percentOf(used, total);
	return (
		<div class="ca-bar">
			<span class="ca-bar__label">{label}</span>
			<span class="ca-bar__track" aria-hidden="true">
				<span class={`ca-bar__fill ${widthClass(percent)}${percent >= 90 ? ' ca-bar__fill--high' : ''}`} />
			</span>
			<span class="ca-bar__text">{t('sandbox.map.usage', { used: text, percent })}</span>
		</div>
	);
}

function PodItem({ pod, props }: { pod: PodView; props: PanelProps }) {
	const tone = podTone(pod);
	return (
		<li>
			<Clickable live={props.live} class={`ca-pod ca-tone-${tone}`} onClick={() => props.open('inspector', { resource: 'pods', namespace: pod.namespace, name: pod.name })}>
				<span class="ca-glyph" aria-hidden="true">
					{podGlyph(pod)}
				</span>{' '}
				<span class="ca-pod__name">{pod.name}</span> <span class="ca-pod__status">{pod.status}</span>
				<span class="ca-sr">{props.t('sandbox.map.podDetail', { namespace: pod.namespace, ready: pod.ready })}</span>
			</Clickable>
		</li>
	);
}

function NodeCard({ node, pods, components, props }: { node: NodeView; pods: PodView[]; components: ComponentView[]; props: PanelProps }) {
	const { t } = props;
	const look = nodeLook(node);
	const flags: string[] = [];
	if (node.unschedulable) flags.push(t('sandbox.map.unschedulable'));
	if (node.partitioned) flags.push(t('sandbox.map.partitioned'));
	flags.push(...node.problems);
	return (
		<li class={`ca-node ca-node--${look.tone}${node.poweredOff ? ' ca-node--powered-off' : ''}`}>
			<div class="ca-node__head">
				<h4 class="ca-node__title">
					<Clickable live={props.live} class={`ca-chip ca-tone-${look.tone}`} onClick={() => props.open('inspector', { resource: 'nodes', name: node.name })}>
						<span class="ca-glyph" aria-hidden="true">
							{look.glyph}
						</span>{' '}
						<span class="ca-chip__name">{node.name}</span> <span class="ca-chip__status">{t(look.key)}</span>
					</Clickable>
				</h4>
				<p class="ca-node__meta">{[node.roles.length ? node.roles.join(', ') : t('sandbox.map.worker'), node.ip].filter(Boolean).join(' · ')}</p>
				{node.poweredOff && (
					<p class="ca-node__power">
						{/* The legend's fault mark: a power symbol (U+23FB) is missing from most fonts, CJK ones included. */}
						<span class="ca-glyph" aria-hidden="true">
							✕
						</span>{' '}
						<strong>{t('sandbox.map.poweredOff')}</strong> {t('sandbox.map.poweredOffDetail')}
					</p>
				)}
			</div>
			{flags.length > 0 && (
				<ul class="ca-flags" aria-label={t('sandbox.map.conditions')}>
					{flags.map((f) => (
						<li class="ca-flag" key={f}>
							<span aria-hidden="true">▲ </span>
							{f}
						</li>
					))}
				</ul>
			)}
			{node.taints.length > 0 && (
				<ul class="ca-taints" aria-label={t('sandbox.map.taints')}>
					{node.taints.map((taint) => (
						<li class="ca-taint" key={taint}>
							{taint}
						</li>
					))}
				</ul>
			)}
			<ul class="ca-node__components" aria-label={t('sandbox.map.nodeComponents')}>
				{components.map((c) => {
					const cl = componentLook(c);
					return (
						<li key={c.component} class={`ca-mini ca-tone-${cl.tone}`}>
							<span class="ca-glyph" aria-hidden="true">
								{cl.glyph}
							</span>{' '}
							{c.component} <span class="ca-mini__status">{t(cl.key)}</span>
						</li>
					);
				})}
			</ul>
			<div class="ca-node__bars">
				<Bar
					t={t}
					label={t('sandbox.map.cpu')}
					used={node.cpu.requestedMilli}
					total={node.cpu.allocatableMilli}
					text={`${formatCpu(node.cpu.requestedMilli)} / ${formatCpu(node.cpu.allocatableMilli)}`}
				/>
				<Bar
					t={t}
					label={t('sandbox.map.memory')}
					used={node.memory.requestedBytes}
					total={node.memory.allocatableBytes}
					text={`${formatBytes(node.memory.requestedBytes)} / ${formatBytes(node.memory.allocatableBytes)}`}
				/>
				<Bar t={t} label={t('sandbox.map.pods')} used={node.pods.count} total={node.pods.allocatable} text={`${node.pods.count} / ${node.pods.allocatable}`} />
			</div>
			{pods.length > 0 ? (
				<ul class="ca-pods" aria-label={t('sandbox.map.podsOn', { node: node.name })}>
					{pods.map((p) => (
						<PodItem key={`${p.namespace}/${p.name}`} pod={p} props={props} />
					))}
				</ul>
			) : (
				<p class="ca-empty">{t('sandbox.map.noPods')}</p>
			)}
		</li>
	);
}

/** The message-flow picture: each new message runs as a pulse along a line (CSS only; still lines under reduced motion). */
function MessageFlow({ messages, nodes, t }: { messages: MessageView[]; nodes: NodeView[]; t: T }) {
	const layout = flowLayout(nodes.map((n) => n.name));
	const drawn = drawableMessages(messages, layout);
	const newest = drawn[drawn.length - 1];
	const last = newest ? t('sandbox.map.lastMessage', { from: newest.from, to: newest.to, label: newest.label }) : t('sandbox.map.noMessages');
	return (
		<figure class="ca-flow">
			<svg class="ca-flow__svg" viewBox={`0 0 ${layout.width} ${layout.height}`} role="img" aria-label={`${t('sandbox.map.flowTitle')}. ${last}`}>
				<g class="ca-flow__links">
					{layout.points
						.filter((p) => p.id !== 'kube-apiserver')
						.map((p) => {
							const hub = layout.points.find((q) => q.id === 'kube-apiserver')!;
							return <line key={p.id} x1={hub.x} y1={hub.y} x2={p.x} y2={p.y} class="ca-flow__link" />;
						})}
				</g>
				{drawn.map((m, i) => (
					<g key={m.seq} class={`ca-flow__msg${i < drawn.length - 4 ? ' ca-flow__msg--old' : ''}`}>
						<line x1={m.a.x} y1={m.a.y} x2={m.b.x} y2={m.b.y} pathLength={100} class="ca-flow__trail" />
						<line x1={m.a.x} y1={m.a.y} x2={m.b.x} y2={m.b.y} pathLength={100} class="ca-flow__pulse" />
						<circle cx={m.b.x} cy={m.b.y} r={4} class="ca-flow__arrival" />
					</g>
				))}
				{layout.points.map((p) => (
					<g key={p.id} class="ca-flow__point">
						<circle cx={p.x} cy={p.y} r={6} />
						{p.labelAt === 'below' ? (
							<text x={p.x} y={p.y + 8} dy="1em" text-anchor="middle">
								{p.label}
							</text>
						) : (
							<text x={p.x} y={p.y - 10} text-anchor="middle">
								<tspan x={p.x} dy="-1.1em">
									{p.label}
								</tspan>
								<tspan x={p.x} dy="1.1em">
									{p.sublabel}
								</tspan>
							</text>
						)}
					</g>
				))}
			</svg>
			<figcaption class="ca-flow__caption">{last}</figcaption>
		</figure>
	);
}

export default function ClusterMap(props: PanelProps) {
	const { view, t } = props;
	const { byNode, unscheduled } = podsByNode(view.nodes, view.pods);
	const controlPlane = view.components.filter((c) => CONTROL_PLANE.includes(c.component));
	const notices = mapNotices(view.components);
	const stale = statesAsLastRecorded(view.components);
	const id = useId();
	return (
		<div class="ca-panel ca-map">
			<div class="ca-map__notices" role="status">
				{notices.map((n) => (
					<p key={n.keys.join(' ')} class={`ca-notice ca-tone-${n.tone}`}>
						<span class="ca-glyph" aria-hidden="true">
							{n.tone === 'bad' ? '✕' : '▲'}
						</span>{' '}
						{n.keys.map((k) => t(k, n.values)).join(' ')}
					</p>
				))}
			</div>
			<section class="ca-map__section" aria-labelledby={`${id}-cp`}>
				<h3 class="ca-panel__title" id={`${id}-cp`}>
					{t('sandbox.map.controlPlane')}
				</h3>
				<ul class="ca-map__components">
					{controlPlane.map((c) => (
						<ComponentItem key={`${c.component}@${c.node}`} c={c} props={props} replicated={controlPlane.filter((other) => other.component === c.component).length > 1} />
					))}
				</ul>
				<MessageFlow messages={view.messages} nodes={view.nodes} t={t} />
			</section>
			<section class="ca-map__section" aria-labelledby={`${id}-nodes`}>
				<h3 class="ca-panel__title" id={`${id}-nodes`}>
					{t('sandbox.map.nodes')}
					{stale && <span class="ca-map__recorded"> {t('sandbox.map.asRecorded')}</span>}
				</h3>
				<ul class="ca-map__nodes">
					{view.nodes.map((n) => (
						<NodeCard key={n.name} node={n} pods={byNode.get(n.name) ?? []} components={view.components.filter((c) => c.node === n.name && !CONTROL_PLANE.includes(c.component))} props={props} />
					))}
				</ul>
			</section>
			{unscheduled.length > 0 && (
				<section class="ca-map__section" aria-labelledby={`${id}-pending`}>
					<h3 class="ca-panel__title" id={`${id}-pending`}>
						{t('sandbox.map.unscheduled')}
						{stale && <span class="ca-map__recorded"> {t('sandbox.map.asRecorded')}</span>}
					</h3>
					<ul class="ca-pods">
						{unscheduled.map((p) => (
							<PodItem key={`${p.namespace}/${p.name}`} pod={p} props={props} />
						))}
					</ul>
				</section>
			)}
			<p class="ca-legend">{t('sandbox.map.legend')}</p>
		</div>
	);
}
