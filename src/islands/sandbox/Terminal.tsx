/**
 * The sandbox terminal: a prompt, the output of each command (announced
 * politely to screen readers, copyable), history with ↑/↓, Tab completion
 * from the worker, `clear` and Ctrl+L, Ctrl+C to drop the line. Commands
 * run in the worker; this component only keeps what is on the screen.
 *
 * A line that opens an editor (`kubectl edit`) shows it in the terminal, as
 * vi would take over a real one: the reader edits the YAML while the
 * cluster's clock runs, then saves and closes (Ctrl+S) or closes without
 * saving (Escape); after an invalid save kubectl reopens it with the errors
 * on top. Only then does the line run (see `editorWaiting` in session.ts).
 *
 * The sandbox can also write to the screen (`feed`): a shared session's
 * commands with their output, as its sender saw them, and a line when a
 * task is done. A command read at an earlier moment (after time travel)
 * says so under its output.
 *
 * Tab completes only while the line has text; on an empty line, or after
 * Escape, Tab moves focus on as usual, so the terminal never traps the
 * keyboard.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { EditSession } from '@cluster-anatomy/sim-core';
import type { Request, Response } from '../../sandbox/protocol.ts';
import { commonPrefix, terminalText } from '../../sandbox/format.ts';
import { CopyButton } from './CopyButton.tsx';

type T = (key: string, values?: Record<string, string | number>) => string;

interface Entry {
	id: number;
	/** The prompt and line typed (absent for notes such as completion lists). */
	prompt?: string;
	line?: string;
	output: string;
	failed?: boolean;
	pending?: boolean;
	note?: boolean;
}

/** What the sandbox writes on the screen itself: a replayed command (prompt, line, output) or a note. */
export type FeedEntry = Omit<Entry, 'id' | 'pending'>;

export interface TerminalProps {
	prompt: string;
	request: (request: Request) => Promise<Response>;
	t: T;
	/** Text to put on the prompt (the scenario's suggested command, a task's command); `n` changes for each new draft. */
	draft?: { text: string; n: number };
	/** Whether the cluster is still starting (commands wait for it). */
	starting: boolean;
	/** Entries to add to the screen; `n` changes for each new batch. */
	feed?: { entries: FeedEntry[]; n: number };
}

/** An editor kubectl opened in the middle of a line, waiting for the reader. */
interface Editing {
	entryId: number;
	line: string;
	/** The text the editor opened with this time, and what the reader has typed. */
	opened: string;
	text: string;
	session: EditSession;
}

/** Entries kept on screen, history lines kept. */
const ENTRIES_MAX = 200;
const HISTORY_MAX = 200;

export function Terminal(props: TerminalProps) {
	const { t } = props;
	const id = useId();
	const [entries, setEntries] = useState<Entry[]>([]);
	const [line, setLine] = useState(props.draft?.text ?? '');
	const history = useRef<string[]>([]);
	/** Position in history while browsing with ↑/↓ (history.length = the line being typed). */
	const browse = useRef<{ index: number; saved: string }>({ index: 0, saved: '' });
	const nextId = useRef(1);
	const tabLeaves = useRef(false);
	const input = useRef<HTMLInputElement>(null);
	const screen = useRef<HTMLDivElement>(null);
	const [editing, setEditing] = useState<Editing | undefined>();
	const editor = useRef<HTMLTextAreaElement>(null);

	// The editor takes the keyboard when it opens (and reopens); the prompt takes it back when it closes.
	const wasEditing = useRef(false);
	useEffect(() => {
		const el = editor.current;
		if (editing && el) {
			// From the top, as an editor opens a file: the header (and, on a reopen, why the last save failed) first.
			el.focus({ preventScroll: true });
			el.setSelectionRange(0, 0);
			el.scrollTop = 0;
			// The terminal's screen scrolls to the editor's label, without moving the page.
			const box = el.parentElement;
			if (screen.current && box) screen.current.scrollTop = box.offsetTop - screen.current.offsetTop;
		} else if (wasEditing.current) input.current?.focus({ preventScroll: true });
		wasEditing.current = editing !== undefined;
	}, [editing?.opened, editing === undefined]);

	/** The line still holds a suggested command the reader has not touched: the first focus selects it, so typing replaces it. */
	const untouchedDraft = useRef(!!props.draft?.text);
	/** The focus just selected the draft: the click's mouseup must not put the caret down and undo that. */
	const keepSelection = useRef(false);

	useEffect(() => {
		if (props.draft && props.draft.n > 0) {
			setLine(props.draft.text);
			untouchedDraft.current = true;
			input.current?.focus();
		}
	}, [props.draft?.n]);

	useEffect(() => {
		const batch = props.feed;
		if (!batch || batch.n === 0 || !batch.entries.length) return;
		for (const entry of batch.entries) {
			add(entry);
			// A replayed command is in the history too, as if typed here.
			if (entry.line) history.current = [...history.current, entry.line].slice(-HISTORY_MAX);
		}
		browse.current = { index: history.current.length, saved: '' };
	}, [props.feed?.n]);

	useEffect(() => {
		const el = screen.current;
		if (el) el.scrollTop = el.scrollHeight;
	}, [entries]);

	const add = (entry: Omit<Entry, 'id'>): number => {
		const entryId = nextId.current++;
		setEntries((list) => [...list, { ...entry, id: entryId }].slice(-ENTRIES_MAX));
		return entryId;
	};

	const run = async (text: string) => {
		const trimmed = text.trim();
		untouchedDraft.current = false;
		setLine('');
		browse.current = { index: history.current.length, saved: '' };
		if (!trimmed) {
			add({ prompt: props.prompt, line: '', output: '' });
			return;
		}
		if (history.current[history.current.length - 1] !== text) history.current = [...history.current, text].slice(-HISTORY_MAX);
		browse.current = { index: history.current.length, saved: '' };
		if (trimmed === 'clear') {
			setEntries([]);
			return;
		}
		const entryId = add({ prompt: props.prompt, line: text, output: '', pending: true });
		await show(entryId, text, await props.request({ type: 'exec', line: text }));
	};

	/** Puts a command's answer on its entry, or opens the editor it asks for. */
	const show = async (entryId: number, text: string, response: Response) => {
		if (response.type === 'edit') {
			setEditing({ entryId, line: text, opened: response.text, text: response.text, session: response.edit });
			return;
		}
		setEditing(undefined);
		const result = response.type === 'exec' ? terminalText(response.result.output) : { cleared: false, text: response.type === 'error' ? `${response.message}\n` : '' };
		const failed = response.type === 'error' || (response.type === 'exec' && response.result.exitCode !== 0);
		setEntries((list) => {
			const done = list.map((e) => (e.id === entryId ? { ...e, output: result.text, pending: false, failed } : e));
			return result.cleared ? done.filter((e) => e.id === entryId).map((e) => ({ ...e, prompt: undefined, line: undefined })) : done;
		});
		if (response.type === 'exec' && response.readInPast) add({ note: true, output: `${t('sandbox.terminal.readInPast')}\n` });
	};

	/** Closes the editor: with the reader's text (save), or with the text as it opened (kubectl then cancels). */
	const closeEditor = async (save: boolean) => {
		const open = editing;
		if (!open) return;
		const saved = save ? (editor.current?.value ?? open.text) : open.opened;
		const session: EditSession = { ...open.session, saves: [...open.session.saves, saved] };
		setEditing({ ...open, session, text: saved });
		await show(open.entryId, open.line, await props.request({ type: 'exec', line: open.line, edit: session }));
	};

	const onEditorKeyDown = (event: KeyboardEvent) => {
		if ((event.ctrlKey || event.metaKey) && (event.key === 's' || event.key === 'S')) {
			event.preventDefault();
			void closeEditor(true);
		} else if (event.key === 'Escape') {
			event.preventDefault();
			void closeEditor(false);
		}
	};

	const completeLine = async () => {
		const el = input.current;
		if (!el) return;
		// The field's own value, not the `line` state: a Tab pressed right after the last keystroke
		// may reach this handler before that keystroke's state update has rendered.
		const before = el.value;
		const cursor = el.selectionStart ?? before.length;
		const response = await props.request({ type: 'complete', line: before, cursor });
		if (response.type !== 'complete' || input.current?.value !== before) return;
		const { candidates, replaceFrom } = response;
		const typed = before.slice(replaceFrom, cursor);
		let insert: string | undefined;
		if (candidates.length === 1) insert = candidates[0] + (/[=/]$/.test(candidates[0]) ? '' : ' ');
		else if (candidates.length > 1) {
			const prefix = commonPrefix(candidates);
			if (prefix.length > typed.length) insert = prefix;
			else add({ note: true, output: candidates.join('  ') + '\n' });
		}
		if (insert === undefined) return;
		const next = before.slice(0, replaceFrom) + insert + before.slice(cursor);
		setLine(next);
		const caret = replaceFrom + insert.length;
		// Only while the field still holds the completion and no selection: keys typed, or a select-all
		// (Ctrl+A, then typing over the line), before the frame must keep their caret and selection.
		requestAnimationFrame(() => {
			const field = input.current;
			if (field?.value === next && field.selectionStart === field.selectionEnd) field.setSelectionRange(caret, caret);
		});
	};

	const onKeyDown = (event: KeyboardEvent) => {
		const el = event.currentTarget as HTMLInputElement;
		if (event.key === 'Escape') {
			tabLeaves.current = true;
			return;
		}
		if (event.key === 'Tab') {
			if (tabLeaves.current || event.shiftKey || !el.value.trim()) return;
			event.preventDefault();
			void completeLine();
			return;
		}
		tabLeaves.current = false;
		if (event.key === 'Enter') {
			event.preventDefault();
			void run(el.value);
		} else if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
			const list = history.current;
			const b = browse.current;
			if (!list.length) return;
			event.preventDefault();
			if (b.index === list.length) b.saved = el.value;
			b.index = Math.max(0, Math.min(list.length, b.index + (event.key === 'ArrowUp' ? -1 : 1)));
			setLine(b.index === list.length ? b.saved : list[b.index]);
		} else if (event.ctrlKey && (event.key === 'c' || event.key === 'C') && el.selectionStart === el.selectionEnd) {
			// Ctrl+C with nothing selected drops the line, as a shell does; with a selection it copies.
			event.preventDefault();
			add({ prompt: props.prompt, line: `${el.value}^C`, output: '' });
			setLine('');
			browse.current = { index: history.current.length, saved: '' };
		} else if (event.ctrlKey && (event.key === 'l' || event.key === 'L')) {
			event.preventDefault();
			setEntries([]);
		}
	};

	const transcript = entries.map((e) => (e.line !== undefined ? `${e.prompt ?? ''}${e.line}\n${e.output}` : e.output)).join('');
	const lastOutput = [...entries].reverse().find((e) => e.line !== undefined && !e.pending)?.output ?? '';

	return (
		<div class="ca-term">
			<div class="ca-term__screen" ref={screen} role="log" aria-live="polite" aria-label={t('sandbox.terminal.output')} tabIndex={0}>
				{entries.length === 0 && <p class="ca-term__welcome">{t('sandbox.terminal.welcome')}</p>}
				{entries.map((e) => (
					<div class={`ca-term__entry${e.failed ? ' ca-term__entry--failed' : ''}${e.note ? ' ca-term__entry--note' : ''}`} key={e.id}>
						{e.line !== undefined && (
							<div class="ca-term__cmd">
								<span class="ca-term__prompt">{e.prompt}</span>
								<span class="ca-term__typed">{e.line}</span>
							</div>
						)}
						{editing && editing.entryId === e.id ? (
							<div class="ca-term__editor">
								<label for={`${id}-editor`}>{t('sandbox.terminal.editor.label', { line: editing.line })}</label>
								<textarea
									ref={editor}
									id={`${id}-editor`}
									class="ca-term__editor-text"
									key={editing.opened}
									value={editing.text}
									onInput={(event) => setEditing({ ...editing, text: (event.currentTarget as HTMLTextAreaElement).value })}
									onKeyDown={onEditorKeyDown}
									rows={12}
									spellcheck={false}
									autocapitalize="off"
									aria-describedby={`${id}-editor-keys`}
								/>
								<p class="ca-term__keys" id={`${id}-editor-keys`}>
									{t('sandbox.terminal.editor.keys')}
								</p>
								<div class="ca-term__editor-actions">
									<button type="button" class="ca-sbx-btn" onClick={() => void closeEditor(true)}>
										{t('sandbox.terminal.editor.save')}
									</button>
									<button type="button" class="ca-sbx-btn" onClick={() => void closeEditor(false)}>
										{t('sandbox.terminal.editor.cancel')}
									</button>
								</div>
							</div>
						) : e.pending ? (
							<p class="ca-term__pending">{props.starting ? t('sandbox.terminal.starting') : t('sandbox.terminal.running')}</p>
						) : (
							e.output && <pre class="ca-term__out">{e.output}</pre>
						)}
						{e.failed && <span class="ca-sbx-visually-hidden">{t('sandbox.terminal.failed')}</span>}
					</div>
				))}
			</div>
			<form
				class="ca-term__form"
				hidden={editing !== undefined}
				onSubmit={(event) => {
					event.preventDefault();
					void run(line);
				}}
			>
				<label class="ca-term__prompt ca-term__prompt--live" for={`${id}-line`}>
					<span aria-hidden="true">{props.prompt}</span>
					<span class="ca-sbx-visually-hidden">{t('sandbox.terminal.inputLabel', { prompt: props.prompt.trim() })}</span>
				</label>
				<input
					ref={input}
					id={`${id}-line`}
					class="ca-term__input"
					type="text"
					value={line}
					onInput={(event) => {
						untouchedDraft.current = false;
						setLine((event.currentTarget as HTMLInputElement).value);
					}}
					onFocus={(event) => {
						if (!untouchedDraft.current) return;
						(event.currentTarget as HTMLInputElement).select();
						keepSelection.current = true;
					}}
					onMouseUp={(event) => {
						if (keepSelection.current) event.preventDefault();
						keepSelection.current = false;
					}}
					onKeyDown={onKeyDown}
					onPaste={(event) => {
						// A one-line field drops a paste's line breaks; kubernetes.io's examples are often here-documents.
						// As in a terminal, the complete lines of the paste run at once and the last, unfinished one stays at the prompt.
						const pasted = event.clipboardData?.getData('text/plain') ?? '';
						if (!/[\r\n]/.test(pasted)) return;
						event.preventDefault();
						const field = event.currentTarget as HTMLInputElement;
						const start = field.selectionStart ?? line.length;
						const end = field.selectionEnd ?? line.length;
						const text = (line.slice(0, start) + pasted + line.slice(end)).replace(/\r\n?/g, '\n');
						const cut = text.lastIndexOf('\n');
						const rest = text.slice(cut + 1);
						void run(text.slice(0, cut)).then(() => setLine(rest));
					}}
					autocomplete="off"
					autocapitalize="off"
					spellcheck={false}
					enterKeyHint="send"
					aria-describedby={`${id}-keys`}
				/>
			</form>
			<div class="ca-term__foot">
				<p class="ca-term__keys" id={`${id}-keys`}>
					{t('sandbox.terminal.keys')}
				</p>
				<CopyButton text={lastOutput} t={t} label={t('sandbox.terminal.copyLast')} disabled={!lastOutput} />
				<CopyButton text={transcript} t={t} label={t('sandbox.terminal.copyAll')} disabled={!transcript} />
			</div>
		</div>
	);
}
