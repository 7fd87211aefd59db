/**
 * The inspector: one object as YAML, as `kubectl describe` tells it, and its
 * events, in keyboard-friendly tabs. The worker answers with sim-core's
 * read-only kubectl (`cluster.observe`), so looking changes nothing. The
 * object comes from a click elsewhere (props.target) or from the picker.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { InspectTarget, PanelProps } from '../panel-props.ts';
import { CopyButton } from '../CopyButton.tsx';
import { ScrollRegion, useAnswer, useShown } from './shared.tsx';
import './panels.css';

const TABS = ['yaml', 'describe', 'events'] as const;
type Tab = (typeof TABS)[number];

/** `pods/default/web-1`, `nodes/node-1`: a picker value for a target. */
function keyOf(target: InspectTarget): string {
	return [target.resource, target.namespace, target.name].filter(Boolean).join('/');
}

function targetOf(key: string): InspectTarget | undefined {
	const parts = key.split('/');
	if (parts.length === 2) return { resource: parts[0], name: parts[1] };
	if (parts.length === 3) return { resource: parts[0], namespace: parts[1], name: parts[2] };
	return undefined;
}

export default function Inspector(props: PanelProps) {
	const { t, view } = props;
	const [target, setTarget] = useState<InspectTarget | undefined>(props.target);
	const [tab, setTab] = useState<Tab>('yaml');
	const id = useId();
	const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);

	// A new click elsewhere (each click brings a new target object) replaces what is shown.
	useEffect(() => {
		if (props.target) setTarget(props.target);
	}, [props.target]);

	const rootRef = useRef<HTMLDivElement>(null);
	const shown = useShown(rootRef);
	const answer = useAnswer(
		() => (target ? props.request({ type: 'inspect', resource: target.resource, namespace: target.namespace, name: target.name, as: tab }) : undefined),
		(r) => (r.type === 'inspect' ? r.text : undefined),
		target ? `${keyOf(target)}#${tab}` : '',
		view.lastSeq,
		{ minGapMs: 800, shown },
	);

	const choices: Array<{ key: string; label: string }> = [
		...view.nodes.map((n) => ({ key: `nodes/${n.name}`, label: `node/${n.name}` })),
		...view.pods.map((p) => ({ key: `pods/${p.namespace}/${p.name}`, label: `pod/${p.name} (${p.namespace})` })),
	];
	const current = target ? keyOf(target) : '';
	if (current && !choices.some((c) => c.key === current)) choices.unshift({ key: current, label: current });

	const onTabKey = (event: KeyboardEvent, index: number) => {
		let next = index;
		if (event.key === 'ArrowRight') next = (index + 1) % TABS.length;
		else if (event.key === 'ArrowLeft') next = (index + TABS.length - 1) % TABS.length;
		else if (event.key === 'Home') next = 0;
		else if (event.key === 'End') next = TABS.length - 1;
		else return;
		event.preventDefault();
		setTab(TABS[next]);
		tabRefs.current[next]?.focus();
	};

	const text = answer.value ?? '';
	return (
		<div class="ca-panel ca-inspector" ref={rootRef}>
			<h3 class="ca-panel__title">{t('sandbox.inspector.title')}</h3>
			<div class="ca-field">
				<label for={`${id}-pick`}>{t('sandbox.inspector.object')}</label>
				<select id={`${id}-pick`} value={current} onChange={(e) => setTarget(targetOf((e.currentTarget as HTMLSelectElement).value))}>
					<option value="">{t('sandbox.inspector.choose')}</option>
					{choices.map((c) => (
						<option key={c.key} value={c.key}>
							{c.label}
						</option>
					))}
				</select>
				{target?.resource === 'pods' && props.has('why') && (
					<button type="button" class="ca-btn" onClick={() => props.open('why', target)}>
						{t('sandbox.inspector.why')}
					</button>
				)}
			</div>
			{!target ? (
				<p class="ca-empty">{t('sandbox.inspector.hint')}</p>
			) : (
				<>
					<div class="ca-tabs" role="tablist" aria-label={t('sandbox.inspector.views')}>
						{TABS.map((name, i) => (
							<button
								key={name}
								ref={(el) => {
									tabRefs.current[i] = el;
								}}
								type="button"
								role="tab"
								id={`${id}-tab-${name}`}
								class="ca-tab"
								aria-selected={tab === name}
								aria-controls={`${id}-panel`}
								tabIndex={tab === name ? 0 : -1}
								onClick={() => setTab(name)}
								onKeyDown={(e) => onTabKey(e, i)}
							>
								{t(`sandbox.inspector.tab.${name}`)}
							</button>
						))}
					</div>
					<div class="ca-tabpanel" role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-tab-${tab}`}>
						<div class="ca-toolbar">
							<span class="ca-muted">{t('sandbox.inspector.readOnly')}</span>
							<CopyButton text={text} t={t} label={t('sandbox.panels.copy')} disabled={!text} />
						</div>
						<ScrollRegion label={t('sandbox.inspector.output', { object: current, view: t(`sandbox.inspector.tab.${tab}`) })} class="ca-inspector__out">
							<pre class="ca-pre" aria-busy={answer.loading}>
								{answer.loading && !text ? t('sandbox.panels.loading') : text || answer.error || t('sandbox.inspector.nothing')}
							</pre>
						</ScrollRegion>
					</div>
				</>
			)}
		</div>
	);
}
