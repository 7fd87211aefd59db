/**
 * A light YAML editor: a plain textarea under a syntax-coloured copy of its
 * text (a tiny tokenizer, no editor library), line numbers, YAML errors at
 * their line (checked by the worker with sim-core's parser as one types),
 * and an Apply button that runs `kubectl apply` and shows what it said —
 * marking the line of a strict-decoding or validation error too.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { PanelProps } from '../panel-props.ts';
import type { YamlProblem } from '../../../sandbox/protocol.ts';
import { indentAfter, problemOfApply, tokenizeYaml, type LineProblem } from '../../../sandbox/panels/yaml-highlight.ts';
import { YAML_TEMPLATES } from '../../../sandbox/panels/yaml-templates.ts';
import { ask } from './shared.tsx';
import './panels.css';

interface Applied {
	ok: boolean;
	output: string;
	problem?: LineProblem;
}

export default function YamlEditor(props: PanelProps) {
	const { t } = props;
	const id = useId();
	const [text, setText] = useState(YAML_TEMPLATES[0].yaml);
	const [problems, setProblems] = useState<YamlProblem[]>([]);
	const [applied, setApplied] = useState<Applied | undefined>();
	const [busy, setBusy] = useState(false);
	const [choice, setChoice] = useState(`builtin:${YAML_TEMPLATES[0].id}`);
	const [manifests, setManifests] = useState<Array<{ title: string; yaml: string }>>([]);
	const area = useRef<HTMLTextAreaElement>(null);
	const lintable = useRef(true);

	// The scenario's own manifests, when the worker has some.
	useEffect(() => {
		ask(props.request, { type: 'manifests' }).then((r) => {
			if (r.type === 'manifests') setManifests(r.manifests);
		});
	}, []);

	// Check the YAML as the reader types (debounced); a worker without `lint` just leaves it to Apply.
	useEffect(() => {
		if (!lintable.current) return;
		const timer = setTimeout(() => {
			ask(props.request, { type: 'lint', yaml: text }).then((r) => {
				if (r.type === 'lint') setProblems(r.problems);
				else if (r.type === 'error') lintable.current = false;
			});
		}, 300);
		return () => clearTimeout(timer);
	}, [text]);

	const lines = tokenizeYaml(text);
	const marks = new Map<number, string>();
	for (const p of problems) marks.set(p.line, t('sandbox.yaml.problemAt', { line: p.line, column: p.column, message: p.message }));
	if (applied?.problem && !marks.has(applied.problem.line)) marks.set(applied.problem.line, t('sandbox.yaml.applyProblemAt', { line: applied.problem.line, message: applied.problem.message }));

	const load = () => {
		const [kind, key] = [choice.slice(0, choice.indexOf(':')), choice.slice(choice.indexOf(':') + 1)];
		const yaml = kind === 'builtin' ? YAML_TEMPLATES.find((x) => x.id === key)?.yaml : manifests[Number(key)]?.yaml;
		if (yaml === undefined) return;
		setText(yaml);
		setApplied(undefined);
	};

	const apply = async () => {
		// What the textarea holds right now (a render may not have caught up with the last keystroke).
		const yaml = area.current?.value ?? text;
		setBusy(true);
		const response = await ask(props.request, { type: 'apply', yaml });
		setBusy(false);
		if (response.type === 'exec') {
			const ok = response.result.exitCode === 0;
			setApplied({ ok, output: response.result.output, problem: ok ? undefined : problemOfApply(response.result.output, yaml) });
		} else if (response.type === 'error') setApplied({ ok: false, output: response.message });
	};

	const goTo = (line: number) => {
		const el = area.current;
		if (!el) return;
		const all = el.value.split('\n');
		const start = all.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
		el.focus();
		el.setSelectionRange(start, start + (all[line - 1]?.length ?? 0));
	};

	const onKeyDown = (event: KeyboardEvent) => {
		if (event.key !== 'Enter' || event.shiftKey || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
		const el = event.currentTarget as HTMLTextAreaElement;
		const before = el.value.slice(0, el.selectionStart);
		const insert = `\n${indentAfter(before.slice(before.lastIndexOf('\n') + 1))}`;
		event.preventDefault();
		// insertText keeps the browser's undo history; fall back to editing the value.
		if (!document.execCommand?.('insertText', false, insert)) {
			const at = el.selectionStart;
			el.setRangeText(insert, at, el.selectionEnd, 'end');
			setText(el.value);
		}
	};

	const errorsId = `${id}-errors`;
	return (
		<div class="ca-panel ca-yaml">
			<h3 class="ca-panel__title">{t('sandbox.yaml.title')}</h3>
			<div class="ca-toolbar">
				<div class="ca-field">
					<label for={`${id}-template`}>{t('sandbox.yaml.template')}</label>
					<select id={`${id}-template`} value={choice} onChange={(e) => setChoice((e.currentTarget as HTMLSelectElement).value)}>
						{YAML_TEMPLATES.map((x) => (
							<option key={x.id} value={`builtin:${x.id}`}>
								{t(x.key)}
							</option>
						))}
						{manifests.map((m, i) => (
							<option key={`m${i}`} value={`scenario:${i}`}>
								{t('sandbox.yaml.fromScenario', { title: m.title })}
							</option>
						))}
					</select>
					<button type="button" class="ca-btn" onClick={load}>
						{t('sandbox.yaml.load')}
					</button>
				</div>
			</div>
			<div class="ca-yaml__frame ca-scroll">
				<div class="ca-yaml__gutter" aria-hidden="true">
					{lines.map((_, i) => (
						<span key={i} class={marks.has(i + 1) ? 'ca-yaml__ln ca-yaml__ln--error' : 'ca-yaml__ln'}>
							{marks.has(i + 1) ? `! ${i + 1}` : i + 1}
						</span>
					))}
				</div>
				<div class="ca-yaml__code">
					<pre class="ca-yaml__highlight" aria-hidden="true">
						{lines.map((tokens, i) => (
							<span key={i} class={marks.has(i + 1) ? 'ca-yl ca-yl--error' : 'ca-yl'}>
								{tokens.map((tok, j) => (
									<span key={j} class={`ca-tok-${tok.t}`}>
										{tok.v}
									</span>
								))}
								{'\n'}
							</span>
						))}
					</pre>
					<textarea
						ref={area}
						id={`${id}-text`}
						class="ca-yaml__input"
						value={text}
						rows={lines.length}
						wrap="off"
						spellcheck={false}
						autocomplete="off"
						autocapitalize="off"
						aria-label={t('sandbox.yaml.label')}
						aria-describedby={errorsId}
						aria-invalid={marks.size > 0}
						onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
						onKeyDown={onKeyDown}
					/>
				</div>
			</div>
			<div id={errorsId} class="ca-yaml__errors">
				{marks.size === 0 ? (
					<p class="ca-muted">{t('sandbox.yaml.noProblems')}</p>
				) : (
					<ul>
						{[...marks.entries()]
							.sort((a, b) => a[0] - b[0])
							.map(([line, message]) => (
								<li key={line} class="ca-yaml__error">
									<span aria-hidden="true">✕ </span>
									{message}{' '}
									<button type="button" class="ca-link" onClick={() => goTo(line)}>
										{t('sandbox.yaml.goTo', { line })}
									</button>
								</li>
							))}
					</ul>
				)}
			</div>
			<div class="ca-toolbar">
				<button type="button" class="ca-btn ca-btn--primary" onClick={apply} disabled={busy}>
					{t('sandbox.yaml.apply')}
				</button>
				<span class="ca-muted">{t('sandbox.yaml.applyHint')}</span>
			</div>
			<div class="ca-yaml__result" role="status" aria-live="polite">
				{applied && (
					<div class={applied.ok ? 'ca-result ca-result--ok' : 'ca-result ca-result--bad'}>
						<p class="ca-result__head">
							<span aria-hidden="true">{applied.ok ? '✓ ' : '✕ '}</span>
							{applied.ok ? t('sandbox.yaml.applied') : t('sandbox.yaml.failed')}
						</p>
						<pre class="ca-pre">{applied.output}</pre>
					</div>
				)}
			</div>
		</div>
	);
}
